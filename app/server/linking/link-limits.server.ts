import type { Refusal } from "~/lib/refusal";
import { hitLimit } from "../http/rate-limit.server";

// Every link queues an import on the shared workers and, after it, an automatic grade; unlinking
// and linking again would do it at will. So both are counted per user and UTC day (RATE_LIMITS
// "link" and "unlink", docs/OPERATIONS.md), worded like the product's daily limit for
// evaluations (PRODUCT §8, 402).
export const LINK_LIMIT_MESSAGE = "You've hit today's limit for linking accounts—try again tomorrow!";
export const UNLINK_LIMIT_MESSAGE = "You've hit today's limit for unlinking accounts—try again tomorrow!";

/** Over today's limit: 429, the message, and the seconds until the next UTC day (Retry-After). */
export type DailyLimitRefusal = Refusal<429> & { retryAfter: number };

/** Counts one link or unlink of the user; a refusal once today's are used up. */
export async function countLinkChange(
  userId: number,
  change: "link" | "unlink",
): Promise<{ ok: true } | DailyLimitRefusal> {
  const limited = await hitLimit(change, userId);
  if (limited.ok) return { ok: true };
  return {
    ok: false,
    status: 429,
    message: change === "link" ? LINK_LIMIT_MESSAGE : UNLINK_LIMIT_MESSAGE,
    retryAfter: limited.retryAfter,
  };
}
