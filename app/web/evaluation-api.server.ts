import type { ActionFunctionArgs } from "@remix-run/node";
import { apiData, requireApiUser, requireMethod } from "~/server/http/api.server";
import type { LinkedAccountKind } from "~/server/platform/db/schema";
import { evaluateUser, type EvaluationOutcome } from "~/server/grades/evaluation.server";
import { reimportForEvaluation } from "~/server/linking/linking.server";
import { truncateScore } from "~/lib/format-number";

/** The JSON answer for an evaluation: HTTP 200 with the product's result code in the body. */
export function outcomeJson(outcome: EvaluationOutcome) {
  if ("message" in outcome) return { code: outcome.code, message: outcome.message };
  return {
    code: outcome.code,
    evaluation_id: outcome.evaluationId,
    tier: outcome.tier,
    score: outcome.score === null ? null : truncateScore(outcome.score),
    verification_code: outcome.verificationCode,
  };
}

/**
 * POST /api/finance/plaid/evaluation, /api/evm/evaluation, /api/solana/evaluation. The result
 * code travels in the body with HTTP 200: the product's client treats an HTTP 401 as "log in again",
 * which must not happen for "free tries used up" (code 401).
 */
export function evaluationApiAction(kind: LinkedAccountKind) {
  return async function action({ request }: ActionFunctionArgs) {
    requireMethod(request, "POST");
    const user = await requireApiUser(request);
    const outcome = await evaluateUser(user.id, kind, reimportForEvaluation);
    return apiData(outcomeJson(outcome), { headers: { "Cache-Control": "no-store" } });
  };
}
