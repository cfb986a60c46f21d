/**
 * What the trader is told after asking for a grade (PRODUCT §4): a new grade (code 200, which
 * used a try) and nothing new (2002, the last grade stands and no try was used) read differently.
 * The page flow (/evaluate → /profile/stats?evaluated=…) and the button's toast say the same.
 */
export const EVALUATED_MESSAGES = {
  new: "Evaluated successfully! Your new grade used one try.",
  same: "Nothing new since your last grade: it stands, and no try was used.",
} as const;

export type Evaluated = keyof typeof EVALUATED_MESSAGES;

export const evaluatedOf = (code: 200 | 2002): Evaluated => (code === 200 ? "new" : "same");

/** The stats page's ?evaluated= value, or null for anything else. */
export function readEvaluated(value: string | null): Evaluated | null {
  return value === "new" || value === "same" ? value : null;
}

/** The status page of an evaluation asked for (it runs as a job). */
export const evaluationRunPath = (runId: number) => `/evaluate/runs/${runId}`;

/** The status page's parameter for a reader that wants the outcome, not the redirect to the stats. */
export const STAY = "stay";
