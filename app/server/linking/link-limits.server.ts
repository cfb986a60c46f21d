import type { Refusal } from "~/lib/refusal";
import { hitLimit } from "../http/rate-limit.server";

// Every link queues an import on the shared workers and, after it, an automatic grade; unlinking
// and linking again, or retrying an import, would do it at will. So each is counted per user and
// UTC day (RATE_LIMITS "link", "unlink" and "reimport", docs/OPERATIONS.md), worded like the
// product's daily limit for evaluations (PRODUCT §8, 402). Plaid Link sessions, an outside call
// each, are counted per hour.
export const LINK_LIMIT_MESSAGE = "You've hit today's limit for linking accounts—try again tomorrow!";
export const UNLINK_LIMIT_MESSAGE = "You've hit today's limit for unlinking accounts—try again tomorrow!";
export const REIMPORT_LIMIT_MESSAGE = "You've hit today's limit for importing again—try again tomorrow!";
export const LINK_SESSION_LIMIT_MESSAGE = "Too many attempts to connect a broker. Please wait a while and try again.";

/** Over a limit: 429, the message, and the seconds until its window ends (Retry-After). */
export type LimitRefusal = Refusal<429> & { retryAfter: number };

const MESSAGES = {
  link: LINK_LIMIT_MESSAGE,
  unlink: UNLINK_LIMIT_MESSAGE,
  reimport: REIMPORT_LIMIT_MESSAGE,
  "link-token": LINK_SESSION_LIMIT_MESSAGE,
} as const;

/**
 * Counts one change of the user's accounts that makes work: a link, an unlink, an import started
 * again (retry, reconnect) or a Plaid Link session; a refusal once the window's are used up.
 */
export async function countLinkChange(
  userId: number,
  change: keyof typeof MESSAGES,
): Promise<{ ok: true } | LimitRefusal> {
  const limited = await hitLimit(change, userId);
  if (limited.ok) return { ok: true };
  return { ok: false, status: 429, message: MESSAGES[change], retryAfter: limited.retryAfter };
}
