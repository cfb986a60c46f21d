import { Link } from "@remix-run/react";
import { tokenize } from "~/lib/rich-text";

/**
 * User text as React elements: text nodes (escaped by React), http(s) links and @mentions of real
 * users. Never dangerouslySetInnerHTML: whatever a user types stays text.
 */
export function RichText({ text, mentions = {} }: { text: string; mentions?: Record<string, number> }) {
  const pieces = tokenize(text);
  return (
    <>
      {pieces.map((p, i) => {
        if (p.kind === "link")
          return (
            <a key={i} href={p.href} rel="nofollow ugc noopener noreferrer" target="_blank">
              {p.text}
            </a>
          );
        if (p.kind === "mention") {
          const id = mentions[p.username];
          return id ? (
            <Link key={i} to={`/u/${id}`} className="mention">
              {p.text}
            </Link>
          ) : (
            <span key={i}>{p.text}</span>
          );
        }
        return <span key={i}>{p.text}</span>;
      })}
    </>
  );
}
