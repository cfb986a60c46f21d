import { apiError } from "~/server/http/api.server";
import { ibkrLinkAction } from "~/web/ibkr-api.server";

// POST /api/ibkr/wallet — see docs/API.md ("Interactive Brokers").
export const action = ibkrLinkAction;
export const loader = () => apiError(405, "Use POST for this call.");
