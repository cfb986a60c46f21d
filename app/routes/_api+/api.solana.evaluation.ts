import { apiError } from "~/server/http/api.server";
import { evaluationApiAction } from "~/web/evaluation-api.server";

export const action = evaluationApiAction("solana");
export const loader = () => apiError(405, "Use POST for this call.");
