import { json } from "@remix-run/node";
import { openApiDocument } from "~/server/http/openapi.server";

// GET /api/openapi.json: the JSON API's OpenAPI 3.1 document, generated from the routes' zod schemas.
export function loader() {
  return json(openApiDocument(), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}
