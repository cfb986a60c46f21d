import type { ActionFunctionArgs } from "@remix-run/node";
import { apiData, requireApiUser, requireMethod } from "~/server/http/api.server";
import type { GradeScope } from "~/lib/vocabulary";
import { EVALUATION_MESSAGES, type EvaluationOutcome } from "~/server/grades/evaluation.server";
import { requestEvaluation, waitForEvaluationRun } from "~/server/grades/evaluation-runs.server";
import { truncateScore } from "~/lib/format-number";

/** How long the JSON call follows its evaluation's job before it answers 409 (it goes on). */
const EVALUATION_API_WAIT_MS = 120_000;

/** The JSON answer for an evaluation: HTTP 200 with the product's result code in the body. */
export function outcomeJson(outcome: EvaluationOutcome) {
  if ("message" in outcome) return { code: outcome.code, message: outcome.message };
  return {
    code: outcome.code,
    evaluation_id: outcome.evaluationId,
    tier: outcome.tier,
    score: outcome.score === null ? null : truncateScore(outcome.score),
    verification_code: outcome.verificationCode,
    self_reported: outcome.selfReported ?? false,
  };
}

/**
 * POST /api/finance/plaid/evaluation, /api/evm/evaluation, /api/solana/evaluation. The result
 * code travels in the body with HTTP 200: the product's client treats an HTTP 401 as "log in again",
 * which must not happen for "free tries used up" (code 401). Refusals answer at once; an accepted
 * evaluation runs as a job, which the call waits for outside admission control, holding no render
 * slot and no connection between its reads.
 */
export function evaluationApiAction(kind: GradeScope) {
  return async function action({ request, context }: ActionFunctionArgs) {
    requireMethod(request, "POST");
    const user = await requireApiUser(request);
    const asked = await requestEvaluation(user.id, kind);
    let outcome: EvaluationOutcome;
    if ("runId" in asked) {
      context.leaveAdmission?.();
      outcome = (await waitForEvaluationRun(user.id, asked.runId, EVALUATION_API_WAIT_MS)) ?? {
        code: 409,
        message: EVALUATION_MESSAGES[409],
      };
    } else outcome = asked;
    return apiData(outcomeJson(outcome), { headers: { "Cache-Control": "no-store" } });
  };
}
