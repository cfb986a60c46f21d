import { apiError } from "~/server/http/api.server";
import { evaluationApiAction } from "~/web/evaluation-api.server";

// POST /api/exchange/evaluation — a grade from the trader's exchange accounts (docs/API.md).
// Binance is the one exchange kind today; the next ones join this call's kinds.
export const action = evaluationApiAction("binance");
export const loader = () => apiError(405, "Use POST for this call.");
