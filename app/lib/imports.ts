import type { LinkedAccountKind } from "./vocabulary";
// An import's states (imports table, GET /api/portal/imports), shared by the server and the page.
export type ImportState = "queued" | "waiting_for_provider" | "fetching" | "mapping" | "grading" | "done" | "failed";

export type ImportView = {
  id: number;
  linked_account_id: number;
  account_label: string;
  kind: LinkedAccountKind;
  reason: "link" | "evaluation" | "webhook" | "retry";
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
