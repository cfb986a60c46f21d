import type { LoaderFunctionArgs } from "@remix-run/node";
import { CARD_CACHE_CONTROL, loadCard } from "~/server/cards.server";

// A stored card: /cards/<sha256>.png. The name is the hash of everything drawn, so the bytes
// behind a URL never change and any cache (browser, CDN) may keep them forever.
export async function loader({ params, request }: LoaderFunctionArgs) {
  const hash = /^([0-9a-f]{64})\.png$/.exec(params.file ?? "")?.[1];
  if (!hash) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const etag = `"${hash.slice(0, 32)}"`;
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers: { ETag: etag, "Cache-Control": CARD_CACHE_CONTROL } });
  const card = await loadCard(hash);
  if (!card) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  return new Response(new Uint8Array(card.png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(card.png.length),
      "Cache-Control": CARD_CACHE_CONTROL,
      ETag: etag,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}
