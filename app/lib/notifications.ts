import { z } from "zod";
import { currencyInSentence, isBaseCurrency } from "./currencies";
import { engineMajor } from "./engine-versions";
import { formatNumber, formatScore } from "./format-number";
import type { Refusal } from "./refusal";
import { tradeAlertText } from "./trade-alert-text";

// What a notification says and the settings form, shared by the server, the pages and the digest.

export const NOTIFICATION_KINDS = [
  "message",
  "message_request",
  "follow",
  "like",
  "reply",
  "mention",
  "grade_change",
  "import_done",
  "import_failed",
  "grade_done",
  "grade_recomputed",
  "season_win",
  "trade_alert",
  "club_request",
  "club_joined",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const DIGEST_FREQUENCIES = ["off", "daily", "weekly"] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];

/** The settings page's label of each kind. */
export const KIND_LABELS: Record<NotificationKind, string> = {
  message: "New messages",
  message_request: "Message requests",
  follow: "New followers",
  like: "Likes of your posts",
  reply: "Replies to your posts",
  mention: "Mentions (@username)",
  grade_change: "Grade changes of traders you follow",
  import_done: "Finished imports",
  import_failed: "Failed imports",
  grade_done: "Automatic grades after an import",
  grade_recomputed: "Your grade recomputed (a new engine, a new base currency)",
  season_win: "Your leaderboard season rewards",
  trade_alert: "Live trade alerts of traders you subscribe to",
  club_request: "Requests to join a club you run",
  club_joined: "Your requests to join a club approved",
};

export type NotificationText = {
  kind: NotificationKind;
  count: number;
  actor: string | null;
  data: Record<string, unknown>;
};

const str = (v: unknown) => (typeof v === "string" && v ? v : null);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** One line of plain text; `count` is how many events an unread row gathered (messages, likes, replies). */
export function notificationText({ kind, count, actor, data }: NotificationText): string {
  const who = actor || "A trader";
  const more = count > 1;
  switch (kind) {
    case "message":
      return more ? `${who} sent you ${count} messages` : `${who} sent you a message`;
    case "message_request":
      return `${who} wants to send you a message`;
    case "follow":
      return `${who} started following you`;
    case "like":
      return more ? `${who} and ${count - 1} other${count === 2 ? "" : "s"} liked your post` : `${who} liked your post`;
    case "reply":
      return more ? `${who} and others replied to your post (${count} replies)` : `${who} replied to your post`;
    case "mention":
      return `${who} mentioned you in a post`;
    case "grade_change": {
      const from = str(data.from);
      const to = str(data.to) ?? "a new tier";
      return from ? `${who}’s grade changed from ${from} to ${to}` : `${who} got a first grade: ${to}`;
    }
    case "import_done": {
      const added = num(data.trades_added) ?? 0;
      const source = str(data.source) ?? "account";
      return `Your ${source} import finished: ${formatNumber(added, 0)} new trade${added === 1 ? "" : "s"}`;
    }
    case "import_failed":
      return `Your ${str(data.source) ?? "account"} import failed: see your account page for why and to retry`;
    case "grade_done":
      return `Your new grade is ready${str(data.tier) ? `: ${str(data.tier)}` : ""}`;
    case "grade_recomputed":
      return recomputedText(data);
    case "season_win": {
      // "You finished #2 in the November 2026 season: 750 points".
      const rank = num(data.rank);
      const points = num(data.points) ?? 0;
      const season = str(data.label) ?? "the last";
      return `You finished ${rank ? `#${rank}` : "in the top ten"} in the ${season} season: ${formatNumber(points, 0)} points`;
    }
    case "trade_alert":
      return tradeAlertText(who, data);
    case "club_request":
      return more
        ? `${who} and ${count - 1} other${count === 2 ? "" : "s"} asked to join ${str(data.club) ?? "your club"}`
        : `${who} asked to join ${str(data.club) ?? "your club"}`;
    case "club_joined":
      return `You are now a member of ${str(data.club) ?? "the club"}`;
  }
}

/**
 * "Your grade was recomputed under engine v3: Gold → Silver. Why?" (issue 29), or "still Gold (score
 * 61.2 → 58.4)" when the tier held; the notification's link is the version's changelog entry.
 */
function recomputedText(data: Record<string, unknown>): string {
  const version = str(data.version);
  const from = str(data.from) ?? "no tier";
  const to = str(data.to) ?? "no tier";
  const change =
    from === to
      ? `still ${to} (score ${formatScore(num(data.fromScore))} → ${formatScore(num(data.toScore))})`
      : `${from} → ${to}`;
  // Re-made because the trader chose another base currency (issue 32): "re-made in euros".
  const currency = str(data.currency);
  if (data.reason === "base-currency" && currency)
    return `Your grade was re-made in ${isBaseCurrency(currency) ? currencyInSentence(currency) : currency}: ${change}.`;
  return `Your grade was recomputed under ${version ? `engine v${engineMajor(version)}` : "a new engine"}: ${change}. Why?`;
}

const kindList = z.array(
  z.enum(NOTIFICATION_KINDS, { errorMap: () => ({ message: "Unknown kind of notification." }) }),
);

/**
 * The settings form: one checkbox per kind (ticked = on; an unticked box sends nothing, so what is
 * absent is muted), one "Push" checkbox per kind (sent to the browsers subscribed to push too; a
 * muted kind is never pushed) and the digest frequency.
 */
export const NotificationSettingsForm = z.object({
  kinds: kindList,
  push: kindList,
  digest: z.enum(DIGEST_FREQUENCIES, { errorMap: () => ({ message: "Choose off, daily or weekly." }) }),
});

export function parseNotificationSettings(
  form: FormData,
): { ok: true; muted: NotificationKind[]; push: NotificationKind[]; digest: DigestFrequency } | Refusal {
  const parsed = NotificationSettingsForm.safeParse({
    kinds: form.getAll("kinds").map(String),
    push: form.getAll("push").map(String),
    digest: String(form.get("digest") ?? ""),
  });
  if (!parsed.success) return { ok: false, status: 400, message: parsed.error.issues[0]!.message };
  const on = new Set(parsed.data.kinds);
  const pushed = new Set(parsed.data.push);
  return {
    ok: true,
    muted: NOTIFICATION_KINDS.filter((k) => !on.has(k)),
    push: NOTIFICATION_KINDS.filter((k) => on.has(k) && pushed.has(k)),
    digest: parsed.data.digest,
  };
}

/** How long after the last digest the next one is due. */
export const DIGEST_PERIOD_MS: Record<Exclude<DigestFrequency, "off">, number> = {
  daily: 24 * 3600_000,
  weekly: 7 * 24 * 3600_000,
};

/** The digest e-mail's text: the unread notifications (newest first) with absolute links. */
export function digestText(
  items: { text: string; url: string }[],
  publicUrl: string,
  frequency: Exclude<DigestFrequency, "off">,
): { subject: string; text: string } {
  const base = publicUrl.replace(/\/+$/, "");
  const n = items.length;
  const lines = items.map((i) => `- ${i.text}\n  ${base}${i.url}`);
  return {
    subject: `Grader: ${n} unread notification${n === 1 ? "" : "s"}`,
    text: [
      `Here is your ${frequency} summary of what happened on Grader while you were away.`,
      "",
      ...lines,
      "",
      `All notifications: ${base}/notifications`,
      `Change or stop these e-mails: ${base}/user/settings/notifications`,
    ].join("\n"),
  };
}
