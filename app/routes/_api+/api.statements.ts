import { apiError } from "~/server/http/api.server";
import { statementApiAction } from "~/web/statement-upload.server";

// POST /api/statements — see docs/API.md ("Statements").
export const action = statementApiAction;
export const loader = () => apiError(405, "Use POST for this call.");
