import type { LinkedAccountKind } from "./vocabulary";
// An import's states (imports table, GET /api/portal/imports), shared by the server and the page.
export type ImportState = "queued" | "waiting_for_provider" | "fetching" | "mapping" | "grading" | "done" | "failed";

export type ImportView = {
  id: number;
  linked_account_id: number;
  account_label: string;
  kind: LinkedAccountKind;
  reason: "link" | "evaluation" | "webhook" | "retry" | "poll" | "sync";
  state: ImportState;
  fetched: number;
  total: number | null;
  skipped: { reason: string; count: number }[];
  trades_added: number;
  error: string | null;
  attempts: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
};

export function isImportRunning(state: ImportState): boolean {
  return state !== "done" && state !== "failed";
}

/**
 * What the account page says about an account that needs its owner to log in at the broker again
 * (status relogin_required), from the Plaid error code its last error starts with.
 */
export function reloginMessage(lastError: string | null): string {
  const code = /^([A-Z_]+):/.exec(lastError ?? "")?.[1];
  const why =
    code === "PENDING_EXPIRATION" || code === "PENDING_DISCONNECT"
      ? "Your broker's consent for Grader expires soon."
      : code === "USER_PERMISSION_REVOKED"
        ? "Access to your broker was revoked."
        : "Your broker needs you to log in again.";
  return `${why} Use Reconnect: imports resume after it.`;
}

/**
 * What the account page says about an exchange account whose key stopped working (revoked,
 * expired, IP-restricted): "needs a new key", with the exchange's reason the import kept.
 */
export function exchangeKeyMessage(lastError: string | null): string {
  return `This account needs a new key. ${lastError ?? "The exchange refused the key."} Link a new read-only key on Link an exchange: imports resume after it.`;
}

/**
 * What the account page says about an Interactive Brokers account whose Flex token stopped working
 * (expired, invalid, IP-restricted): "needs a new token", with IBKR's reason in words.
 */
export function ibkrTokenMessage(lastError: string | null): string {
  return `This account needs a new token. ${lastError ?? "Interactive Brokers refused the Flex token."} Make a new Flex token and paste it on Link Interactive Brokers: imports resume after it.`;
}

/**
 * Whether the trader's latest grade already reflects the imports: none running, and the one that
 * finished last made its automatic grade (a new one, or "nothing new" for the grade there); it
 * says so in its error when it could not. Then the account page offers the grade to see, not one
 * to ask for.
 */
export function gradeIsCurrent(imports: ImportView[], latestGrade: { createdAt: string } | null): boolean {
  if (latestGrade === null || imports.some((i) => isImportRunning(i.state))) return false;
  const done = imports.filter((i) => i.state === "done" && i.finished_at !== null);
  if (done.length === 0) return false;
  const last = done.reduce((a, b) => (Date.parse(b.finished_at!) > Date.parse(a.finished_at!) ? b : a));
  return last.error === null;
}
