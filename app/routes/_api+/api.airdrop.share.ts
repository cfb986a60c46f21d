import type { ActionFunctionArgs } from "@remix-run/node";
import { apiData, apiError, requireApiUser, requireMethod } from "~/server/http/api.server";
import { recordShare, TASKS } from "~/server/community/points.server";

// The share modal calls this after the user shares their card (the product's pending-airdrop-share flag).
// Idempotent per user: the first share earns the task's points, every later one answers credited 0.
export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const user = await requireApiUser(request);
  const result = await recordShare(user.id);
  if (!result.ok && result.reason === "not_eligible")
    return apiError(
      409,
      "You don’t have a grade yet. Connect your investment account to get your grade, then share it!",
    );
  return apiData({
    task: "share_card",
    credited: result.ok ? result.credited : 0,
    points: TASKS.share_card.points,
    already_claimed: !result.ok,
  });
}

export function loader() {
  return apiError(405, "Use POST for this call.", undefined, { Allow: "POST" });
}
