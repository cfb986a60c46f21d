import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiError, readQuery } from "~/server/http/api.server";
import { ShareProxyQuery } from "~/server/http/api-schemas.server";
import { cardOwner, downloadFileName, loadCard, ownCardHash } from "~/server/grades/cards.server";

/**
 * PRODUCT §7: GET /api/share/proxy?file_url=… → the card as a download named after its trader.
 * Only our own card URLs pass (see ownCardHash); the bytes come from our store, never from a fetch,
 * so this cannot be turned against other hosts, private addresses or redirects.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const hash = ownCardHash(readQuery(request, ShareProxyQuery).file_url);
  if (!hash) return apiError(400, "file_url must be the URL of one of our performance cards.");
  const card = await loadCard(hash);
  if (!card) return apiError(404, "No such card.");
  const name = downloadFileName(await cardOwner(hash));
  return new Response(new Uint8Array(card.png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(card.png.length),
      "Content-Disposition": `attachment; filename="${name.ascii}"; filename*=UTF-8''${encodeURIComponent(name.utf8)}`,
      "Cache-Control": "private, max-age=3600",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
    },
  });
}
