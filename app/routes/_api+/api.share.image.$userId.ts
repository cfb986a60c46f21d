import { toId } from "~/server/http/guards.server";
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiData, apiError, readBody, readQuery, requireApiUser, requireMethod } from "~/server/http/api.server";
import { ShareImageBody, ShareImageQuery } from "~/server/http/api-schemas.server";
import { ensureCard, sharePageUrl } from "~/server/grades/cards.server";
import { currentGradeSummary } from "~/server/grades/evaluation.server";
import { getDb } from "~/server/platform/db.server";

export const NO_GRADE_OWN =
  "You don’t have a grade yet. Connect your investment account to get your grade, then share it!";

/**
 * PRODUCT §7: POST /api/share/image/{userId} → { share_url }, the card PNG's absolute, immutable URL.
 * The signed-in user's own card, or another trader's when that trader has a grade (the card is
 * public, as on their profile); either way the card honours the owner's privacy choice.
 * `format=story` (query or body) gives the 1080×1350 card.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const me = await requireApiUser(request);
  const userId = toId(params.userId);
  if (userId === null) return apiError(404, "No such trader.");
  // `format=story` in the body wins over the query's.
  const format =
    (await readBody(request, ShareImageBody)).format ?? readQuery(request, ShareImageQuery).format ?? "link";
  if (userId !== me.id) {
    const db = await getDb();
    const exists = await db.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst();
    if (!exists) return apiError(404, "No such trader.");
    if (!(await currentGradeSummary(userId))) return apiError(404, "This trader doesn’t have a grade yet.");
  }
  const card = await ensureCard(userId, format);
  if (!card) return apiError(404, userId === me.id ? NO_GRADE_OWN : "This trader doesn’t have a grade yet.");
  return apiData(
    {
      share_url: card.url,
      format: card.format,
      width: card.width,
      height: card.height,
      page_url: sharePageUrl(userId),
      verification_code: card.data.code,
      self_reported: card.data.selfReported,
    },
    { headers: { "X-Card-Cache": card.cache, "X-Card-Renders": String(card.renders), "Cache-Control": "no-store" } },
  );
}

export const loader = () => apiError(405, "Use POST for this call.", undefined, { Allow: "POST" });
