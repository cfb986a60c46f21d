import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, requireApiUser } from "~/server/http/api.server";
import { seasonsOverview } from "~/server/community/seasons.server";

type Standing = Awaited<ReturnType<typeof seasonsOverview>>["standings"][number];

const standing = (s: Standing) => ({
  rank: s.rank,
  id: s.userId,
  username: s.username,
  first_name: s.first_name,
  last_name: s.last_name,
  name: s.name,
  avatar: s.avatar,
  tier: s.tier,
  score: s.score,
  active_days: s.activeDays,
  return: s.return,
  prize: s.prize,
});

// GET /api/portal/seasons — the running leaderboard season (its top standings and the caller's own
// place) and the latest closed seasons' winners (docs/API.md, docs/GRADING.md §7b).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const { season, standings, me, past } = await seasonsOverview(user.id);
  return apiData(
    {
      season: {
        month: season.month,
        label: season.label,
        ends_at: season.endsAt,
        days_left: season.daysLeft,
        ranked: season.ranked,
      },
      standings: standings.map(standing),
      me: me ? standing(me) : null,
      past: past.map((p) => ({
        month: p.month,
        label: p.label,
        closed_at: p.closedAt,
        winners: p.winners.map((w) => ({
          rank: w.rank,
          id: w.userId,
          username: w.username,
          first_name: w.first_name,
          last_name: w.last_name,
          name: w.name,
          avatar: w.avatar,
          tier: w.tier,
          score: w.score,
          points: w.points,
        })),
      })),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
