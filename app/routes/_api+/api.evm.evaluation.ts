import { apiError } from "~/server/http/api.server";
import { evaluationApiAction } from "~/web/evaluation-api.server";

export const action = evaluationApiAction("evm");
export const loader = () => apiError(405, "Use POST for this call.");
