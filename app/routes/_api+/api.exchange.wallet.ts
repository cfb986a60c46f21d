import { apiError } from "~/server/http/api.server";
import { exchangeLinkAction } from "~/web/exchange-api.server";

// POST /api/exchange/wallet — see docs/API.md ("Exchanges").
export const action = exchangeLinkAction;
export const loader = () => apiError(405, "Use POST for this call.");
