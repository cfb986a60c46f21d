// Plain text written by users, split into text, link and @mention pieces. Rendering turns the pieces
// into React elements (text is escaped by React); nothing here ever produces HTML.
export type RichPiece =
  | { kind: "text"; text: string }
  | { kind: "link"; text: string; href: string }
  | { kind: "mention"; text: string; username: string };

// Only http(s) URLs become links, so "javascript:" and "data:" stay plain text.
const TOKEN = /(https?:\/\/[^\s<>"']+)|(^|[^a-z0-9_@])@([a-z0-9_]{3,30})(?![a-z0-9_])/gi;

function trimUrl(url: string): string {
  // Trailing punctuation belongs to the sentence, not the link.
  return url.replace(/[.,;:!?)\]}]+$/, "");
}

export function safeHttpUrl(raw: string): string | null {
  try {
    const u = new URL(raw);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

export function tokenize(text: string): RichPiece[] {
  const pieces: RichPiece[] = [];
  let last = 0;
  const push = (t: string) => {
    if (!t) return;
    const prev = pieces[pieces.length - 1];
    if (prev?.kind === "text") prev.text += t;
    else pieces.push({ kind: "text", text: t });
  };
  for (const m of text.matchAll(TOKEN)) {
    const start = m.index!;
    if (m[1]) {
      const url = trimUrl(m[1]);
      const href = safeHttpUrl(url);
      push(text.slice(last, start));
      if (href) pieces.push({ kind: "link", text: url, href });
      else push(url);
      last = start + url.length;
    } else {
      const lead = m[2] ?? "";
      push(text.slice(last, start + lead.length));
      pieces.push({ kind: "mention", text: `@${m[3]}`, username: m[3]!.toLowerCase() });
      last = start + m[0].length;
    }
  }
  push(text.slice(last));
  return pieces;
}

export function mentionedUsernames(text: string): string[] {
  return [...new Set(tokenize(text).flatMap((p) => (p.kind === "mention" ? [p.username] : [])))];
}
