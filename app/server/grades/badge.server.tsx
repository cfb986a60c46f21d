import { renderToStaticMarkup } from "react-dom/server";
import { sql } from "kysely";
import { tierColor } from "~/lib/vocabulary";
import { displayName } from "~/lib/display-name";
import { formatScore } from "~/lib/format-number";
import { NAMELESS_TRADER, PRODUCT_NAME } from "~/lib/product";
import { cardMetric, METRICS } from "~/lib/metrics";
import { sharePageUrl } from "./cards.server";
import { getDb } from "../platform/db.server";
import { getEnv } from "../platform/env.server";

// The embeddable badge (/u/{id}/badge.svg) and card (/embed/u/{id}): public, made to be shown on
// other sites, so they alone may be loaded cross-origin and framed (server.ts lifts helmet's
// frame and resource policies for EMBEDDABLE_PATH). Percentages always; dollars only when the
// trader shows amounts. Rendered with React's static markup, which escapes every text.

export const BADGE_CACHE_CONTROL = "public, max-age=300, stale-while-revalidate=3600";

export type Badge = {
  userId: number;
  name: string;
  tier: string;
  tierColor: string;
  stars: number;
  score: string;
  twr: string;
  totalPnl: string | null;
  code: string;
  verifyUrl: string;
  profileUrl: string;
};

/** The current grade of `userId` as the badge draws it, or null when unknown or ungraded. */
export async function badgeFor(userId: number): Promise<Badge | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select([
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.name",
      "users.show_amounts",
      "evaluations.tier",
      "evaluations.score",
      "evaluations.verification_code",
      sql<string | null>`evaluations.result #>> '{stars,overall}'`.as("stars"),
      sql<string | null>`evaluations.result #>> '{metrics,twr}'`.as("twr"),
      sql<string | null>`evaluations.result #>> '{metrics,totalPnl}'`.as("total_pnl"),
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  if (!row?.tier || row.score === null) return null;
  const base = getEnv().PUBLIC_URL.replace(/\/$/, "");
  const num = (v: string | null) => (v === null ? null : Number(v));
  return {
    userId,
    name: displayName(row) || NAMELESS_TRADER,
    tier: row.tier,
    tierColor: tierColor(row.tier),
    stars: Math.max(0, Math.min(5, Math.round(num(row.stars) ?? 0))),
    score: formatScore(row.score),
    twr: cardMetric("twr", num(row.twr)),
    totalPnl: row.show_amounts ? cardMetric("totalPnl", num(row.total_pnl)) : null,
    code: row.verification_code,
    verifyUrl: `${base}/verify/${row.verification_code}`,
    profileUrl: `${base}/u/${userId}`,
  };
}

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/** A 320×64 SVG: tier, stars, TWR (and P&L when shown), and a "verified" link to the record. */
export function badgeSvg(b: Badge): string {
  const stars = "★".repeat(b.stars) + "☆".repeat(5 - b.stars);
  const figures = `TWR ${b.twr}${b.totalPnl ? ` · P&L ${b.totalPnl}` : ""}`;
  const label = `${PRODUCT_NAME}: ${b.name} graded ${b.tier}, ${b.stars} of 5 stars, ${figures}. Verified ${b.code}.`;
  const svg = (
    <svg xmlns="http://www.w3.org/2000/svg" width="320" height="64" viewBox="0 0 320 64" role="img" aria-label={label}>
      <title>{label}</title>
      <rect width="320" height="64" rx="10" fill="#0f1420" />
      <rect x="0" y="0" width="8" height="64" rx="4" fill={b.tierColor} />
      <text x="20" y="24" fontFamily={FONT} fontSize="15" fontWeight="700" fill={b.tierColor}>
        {b.tier}
      </text>
      <text x="90" y="24" fontFamily={FONT} fontSize="14" fill="#f5c542">
        {stars}
      </text>
      <text x="20" y="46" fontFamily={FONT} fontSize="13" fill="#e8ecf3">
        {figures}
      </text>
      <a href={b.verifyUrl} target="_blank">
        <text x="306" y="24" textAnchor="end" fontFamily={FONT} fontSize="11" fill="#7fb4ff">
          ✓ verified
        </text>
        <text x="306" y="46" textAnchor="end" fontFamily={FONT} fontSize="10" fill="#8a93a5">
          {PRODUCT_NAME} {b.code}
        </text>
      </a>
    </svg>
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${renderToStaticMarkup(svg)}`;
}

/** The small card any site may frame: a whole document with inline styles and no script. */
export function embedHtml(b: Badge): string {
  const page = (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${b.name} · ${b.tier} on ${PRODUCT_NAME}`}</title>
        <style>{`body{margin:0;font-family:${FONT};background:#0f1420;color:#e8ecf3}main{padding:12px 14px;border-left:6px solid ${b.tierColor}}h1{font-size:16px;margin:0 0 4px}p{margin:2px 0;font-size:13px}.tier{color:${b.tierColor};font-weight:700}.stars{color:#f5c542}a{color:#7fb4ff}`}</style>
      </head>
      <body>
        <main>
          <h1>
            <a href={b.profileUrl} target="_blank" rel="noopener">
              {b.name}
            </a>
          </h1>
          <p>
            <span className="tier">{b.tier}</span>{" "}
            <span className="stars" aria-label={`${b.stars} out of 5 stars`}>
              {"★".repeat(b.stars) + "☆".repeat(5 - b.stars)}
            </span>{" "}
            · score {b.score}/100
          </p>
          <p>
            {METRICS.twr.label} {b.twr}
            {b.totalPnl ? ` · ${METRICS.totalPnl.label} ${b.totalPnl}` : null}
          </p>
          <p>
            <a href={b.verifyUrl} target="_blank" rel="noopener">
              ✓ Verified on {PRODUCT_NAME}: {b.code}
            </a>
          </p>
        </main>
      </body>
    </html>
  );
  return `<!DOCTYPE html>${renderToStaticMarkup(page)}`;
}

/** What the profile offers to copy: the badge as a linked image, and the framed card. */
export function embedSnippets(userId: number) {
  const base = getEnv().PUBLIC_URL.replace(/\/$/, "");
  // The link goes to the share page, which always shows the current grade and its code.
  return {
    badge: `<a href="${sharePageUrl(userId, "badge")}"><img src="${base}/u/${userId}/badge.svg" width="320" height="64" alt="My ${PRODUCT_NAME} grade"></a>`,
    embed: `<iframe src="${base}/embed/u/${userId}" width="360" height="130" style="border:0" title="My ${PRODUCT_NAME} grade" loading="lazy"></iframe>`,
  };
}
