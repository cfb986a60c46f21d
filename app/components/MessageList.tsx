import { timeAgo } from "~/lib/time-ago";

type Message = { id: string | number; body: string; created_at: string; mine: boolean };

/** A conversation's messages, oldest first; `name` is the other person's (read out for screen readers). */
export function MessageList({ messages, name, now }: { messages: Message[]; name: string; now: number }) {
  return (
    <ol className="message-list" aria-label="Messages">
      {messages.map((m) => (
        <li key={m.id} className={m.mine ? "message mine" : "message"}>
          <span className="visually-hidden">{m.mine ? "You" : name}: </span>
          {m.body}
          <br />
          <time className="muted small" dateTime={m.created_at}>
            {timeAgo(m.created_at, now)}
          </time>
        </li>
      ))}
    </ol>
  );
}
