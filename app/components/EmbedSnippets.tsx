import { useState } from "react";

/** The badge and embeddable card to copy onto another site (plain text areas work without JavaScript). */
export function EmbedSnippets({ userId, snippets }: { userId: number; snippets: { badge: string; embed: string } }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = (key: string, text: string) => {
    void navigator.clipboard?.writeText(text).then(() => setCopied(key));
  };
  return (
    <details className="embed-snippets">
      <summary>Show your grade on your site</summary>
      <p className="small muted">The badge and card follow your current grade and your amounts choice.</p>
      <img
        src={`/u/${userId}/badge.svg`}
        width={320}
        height={64}
        alt="Your grade badge"
        style={{ maxWidth: "100%", height: "auto" }}
      />
      {(
        [
          ["badge", "Badge (image with a link)", snippets.badge],
          ["embed", "Card (frame)", snippets.embed],
        ] as const
      ).map(([key, label, text]) => (
        <div key={key} className="stack">
          <label htmlFor={`embed-${key}`}>{label}</label>
          <textarea
            id={`embed-${key}`}
            readOnly
            rows={3}
            value={text}
            style={{ width: "100%", boxSizing: "border-box" }}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" className="btn btn-ghost" onClick={() => copy(key, text)}>
            {copied === key ? "Copied" : "Copy"}
          </button>
        </div>
      ))}
    </details>
  );
}
