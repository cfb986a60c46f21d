import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadAvatar } from "~/server/accounts/avatar.server";
import { parseId } from "~/server/http/guards.server";

// Avatars are public (they appear on public cards and profiles). The URL carries ?v=<hash>, so a
// new avatar is a new URL and this one can be cached for a long time.
export async function loader({ params, request }: LoaderFunctionArgs) {
  const avatar = await loadAvatar(parseId(params.userId));
  if (!avatar) return new Response("Not Found", { status: 404 });
  const versioned = new URL(request.url).searchParams.get("v") === avatar.hash;
  return new Response(new Uint8Array(avatar.bytes), {
    headers: {
      "Content-Type": avatar.mime,
      "Cache-Control": versioned ? "public, max-age=31536000, immutable" : "public, max-age=60",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
    },
  });
}
