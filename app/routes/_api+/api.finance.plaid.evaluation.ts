import { apiError } from "~/server/http/api.server";
import { evaluationApiAction } from "~/server/grades/evaluation-api.server";

export const action = evaluationApiAction("plaid");
export const loader = () => apiError(405, "Use POST for this call.");
