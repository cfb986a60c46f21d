import { apiError } from "~/server/api.server";
import { evaluationApiAction } from "~/server/evaluation-api.server";

export const action = evaluationApiAction("solana");
export const loader = () => apiError(405, "Use POST for this call.");
