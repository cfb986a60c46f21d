import { apiError } from "~/server/http/api.server";
import { evaluationApiAction } from "~/web/evaluation-api.server";

// POST /api/ibkr/evaluation — a grade from the trader's Interactive Brokers accounts (docs/API.md).
export const action = evaluationApiAction("ibkr");
export const loader = () => apiError(405, "Use POST for this call.");
