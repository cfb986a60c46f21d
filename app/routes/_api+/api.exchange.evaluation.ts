import { apiError } from "~/server/http/api.server";
import { evaluationApiAction } from "~/web/evaluation-api.server";

// POST /api/exchange/evaluation — a grade from the trader's exchange accounts (docs/API.md).
// Every linked exchange account of the trader, whichever exchange (GradeScope "exchange").
export const action = evaluationApiAction("exchange");
export const loader = () => apiError(405, "Use POST for this call.");
