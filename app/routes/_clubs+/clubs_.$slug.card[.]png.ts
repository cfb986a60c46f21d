import type { LoaderFunctionArgs } from "@remix-run/node";
import { canDraw, renderPlainCardPng } from "~/card/render.server";
import { getClub } from "~/server/community/clubs.server";

// /clubs/:slug/card.png: the club's Open Graph image (public, as the club page is). Drawn per
// request from the name, member count and markets; a few seconds of shared caching covers an
// unfurl's bursts, and a name the fonts cannot draw becomes "A trader club" rather than tofu.
export async function loader({ params }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const club = /^[a-z0-9-]{1,80}$/.test(slug) ? await getClub(slug) : null;
  if (!club) throw new Response("Not Found", { status: 404 });
  const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
  const title = canDraw(club.name) ? clip(club.name, 40) : "A trader club";
  const lines = [
    `${club.member_count} member${club.member_count === 1 ? "" : "s"} · ${club.join_policy === "open" ? "Open" : "By request"}${club.min_tier ? ` · ${club.min_tier} or better` : ""}`,
  ];
  if (club.markets && canDraw(club.markets)) lines.push(clip(club.markets, 60));
  const png = await renderPlainCardPng(title, lines);
  return new Response(new Uint8Array(png), {
    headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=300" },
  });
}
