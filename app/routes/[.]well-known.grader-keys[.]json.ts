import { json } from "@remix-run/node";
import { publishedKeys } from "~/server/grades/grade-log.server";

// The grade log's public keys as a JWKS (OKP/Ed25519, kid, nbf/exp): anyone can check a record
// offline with them. Old keys stay while records signed with them exist, so keys can rotate.
export async function loader() {
  return json(await publishedKeys(), {
    headers: {
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}
