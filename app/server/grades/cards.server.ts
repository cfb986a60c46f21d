import { tierColor } from "~/lib/vocabulary";
import crypto from "node:crypto";
import { sql } from "kysely";
import { CARD_FORMATS, LAYOUT_VERSION, type CardData, type CardFigure, type CardFormat } from "~/card/layout";
import { canDraw, renderCardPng, renderStats } from "~/card/render.server";
import { displayName, initials } from "~/lib/display-name";
import { formatDay } from "~/lib/format-number";
import { CARD_METRICS, cardMetric, cardSlots, cardTone, METRICS, type CardMetricKey } from "~/lib/metrics";
import { NAMELESS_TRADER, PRODUCT_NAME } from "~/lib/product";
import { cardHashOfPath, cardPath, countCardRender, isKnownCard, rememberCard } from "./card-store.server";
import { getDb } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import type { StoredEvaluation } from "./evaluation.server";
import { log } from "../platform/log.server";

export { CARD_CACHE_CONTROL, loadCard, type StoredCard } from "./card-store.server";

export { CARD_FORMATS, type CardFormat };

export function parseCardFormat(raw: unknown): CardFormat {
  return raw === "story" ? "story" : "link";
}

// ---------------------------------------------------------------------------------------------
// What is drawn

type CardMetrics = Pick<StoredEvaluation["result"]["metrics"], CardMetricKey>;

/** Four headline figures: percentages only, unless the trader chose to show amounts. */
export function cardFigures(e: { metrics: CardMetrics }, showAmounts: boolean): CardFigure[] {
  return cardSlots(showAmounts).map((k) => ({
    label: METRICS[k].label,
    value: cardMetric(k, e.metrics[k]),
    tone: cardTone(k, e.metrics[k]),
  }));
}

// Every figure the card can draw, read from the stored result in the query: jsonb_build_object('twr',
// result #> '{metrics,twr}', …). The keys are the list's own names, never input.
const CARD_METRICS_SQL = sql.join(
  CARD_METRICS.map((k) => sql`${sql.lit(k)}, evaluations.result #> ${sql.lit(`{metrics,${k}}`)}`),
);

type CardOwner = {
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  show_amounts: boolean;
};

/**
 * The name as drawn. A name with characters no bundled font has (emoji, Korean, right-to-left
 * scripts) is replaced by the @username, else by "Grader trader": a deliberate fallback, never tofu.
 */
export function drawableName(owner: CardOwner): { name: string; initials: string } {
  const name = displayName(owner);
  if (name && canDraw(name)) return { name, initials: initials(owner) };
  if (owner.username && canDraw(owner.username))
    return { name: `@${owner.username}`, initials: owner.username.slice(0, 1).toUpperCase() };
  return { name: NAMELESS_TRADER, initials: "G" };
}

type Avatar = { mime: string; bytes: Buffer; hash: string } | undefined;

export type CardInputs = { data: CardData; avatarHash: string | null; userId: number; evaluationId: number };

/** Everything the card of `userId` shows, or null when the user is unknown or has no grade. */
export async function cardInputs(userId: number, format: CardFormat): Promise<CardInputs | null> {
  const db = await getDb();
  // Only the parts of the stored result the card draws (the full result carries the equity curve
  // and positions, which are large), in one query with the owner.
  const row = await db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select([
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.name",
      "users.show_amounts",
      "evaluations.id as evaluation_id",
      "evaluations.created_at",
      "evaluations.verification_code",
      "evaluations.demo",
      "evaluations.self_reported",
      sql<string | null>`evaluations.result ->> 'tier'`.as("tier"),
      sql<number | null>`(evaluations.result ->> 'score')::double precision`.as("score"),
      sql<unknown>`evaluations.result -> 'stars'`.as("stars"),
      sql<unknown>`jsonb_build_object(${CARD_METRICS_SQL})`.as("metrics"),
      // The report's "Against the market" sentence, the engine's insight "alpha".
      sql<
        string | null
      >`(select i ->> 'text' from jsonb_array_elements(evaluations.result -> 'insights') i where i ->> 'id' = 'alpha' limit 1)`.as(
        "verdict",
      ),
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  const owner = row;
  const parse = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;
  const e = {
    tier: row.tier,
    score: row.score === null ? null : Number(row.score),
    stars: parse<StoredEvaluation["result"]["stars"]>(row.stars),
    metrics: parse<CardMetrics>(row.metrics),
  };
  if (!e.tier || e.score === null || !e.stars) return null;
  const evaluation = {
    id: row.evaluation_id,
    createdAt: new Date(row.created_at).toISOString(),
    verificationCode: row.verification_code,
  };
  const avatar = (await db
    .selectFrom("avatars")
    .select(["mime", "bytes", "hash"])
    .where("user_id", "=", userId)
    .executeTakeFirst()) as Avatar;
  const { name, initials: letters } = drawableName(owner);
  // Satori draws PNG and JPEG; a WebP avatar falls back to the initials disc.
  const drawableAvatar = avatar && (avatar.mime === "image/png" || avatar.mime === "image/jpeg") ? avatar : undefined;
  const publicUrl = new URL(getEnv().PUBLIC_URL);
  const data: CardData = {
    format,
    product: PRODUCT_NAME,
    name,
    username: owner.username && canDraw(owner.username) && name !== `@${owner.username}` ? owner.username : null,
    initials: letters,
    avatar: drawableAvatar
      ? `data:${drawableAvatar.mime};base64,${Buffer.from(drawableAvatar.bytes).toString("base64")}`
      : null,
    tier: e.tier,
    tierColor: tierColor(e.tier),
    score: e.score,
    stars: e.stars,
    figures: cardFigures(e, owner.show_amounts),
    verdict: row.verdict,
    date: formatDay(evaluation.createdAt),
    code: evaluation.verificationCode,
    verifyHost: `${publicUrl.host}/verify`,
    showAmounts: owner.show_amounts,
    demo: row.demo,
    selfReported: row.self_reported,
  };
  return { data, avatarHash: drawableAvatar?.hash ?? null, userId, evaluationId: evaluation.id };
}

/** SHA-256 of everything drawn (the avatar by its hash), the format, the privacy choice and the layout version. */
export function cardHash(inputs: Pick<CardInputs, "data" | "avatarHash">): string {
  const { avatar: _bytes, ...drawn } = inputs.data;
  return crypto
    .createHash("sha256")
    .update(JSON.stringify({ layout: LAYOUT_VERSION, avatar: inputs.avatarHash, ...drawn }))
    .digest("hex");
}

export function cardUrl(hash: string): string {
  return `${getEnv().PUBLIC_URL.replace(/\/$/, "")}${cardPath(hash)}`;
}

// ---------------------------------------------------------------------------------------------
// Rendering into the content-addressed store (card-store.server.ts)

const inflight = new Map<string, Promise<void>>();

export type EnsuredCard = {
  hash: string;
  /** Where it is served on this site (cardPath), and the same as an absolute URL (cardUrl). */
  path: string;
  url: string;
  format: CardFormat;
  width: number;
  height: number;
  cache: "hit" | "miss";
  renders: number;
  userId: number;
  evaluationId: number;
  data: CardData;
};

/**
 * The card of `userId` in `format`, rendered only if no card with the same hash is stored yet.
 * Concurrent calls for one hash in this process share one render; across processes the insert is
 * ON CONFLICT DO NOTHING, so a rare double render still stores one row.
 */
export async function ensureCard(userId: number, format: CardFormat): Promise<EnsuredCard | null> {
  const inputs = await cardInputs(userId, format);
  if (!inputs) return null;
  const hash = cardHash(inputs);
  let cache: "hit" | "miss" = "hit";
  if (!isKnownCard(hash)) {
    let pending = inflight.get(hash);
    if (!pending) {
      pending = (async () => {
        const db = await getDb();
        const stored = await db.selectFrom("cards").select("hash").where("hash", "=", hash).executeTakeFirst();
        if (stored) {
          rememberCard(hash);
          return;
        }
        cache = "miss";
        const png = await renderCardPng(inputs.data);
        await db
          .insertInto("cards")
          .values({ hash, format, user_id: userId, png })
          .onConflict((oc) => oc.column("hash").doNothing())
          .execute();
        log("info", "card rendered", {
          userId,
          format,
          hash: hash.slice(0, 12),
          ms: Math.round(renderStats.lastMs),
          bytes: png.length,
        });
        rememberCard(hash, png);
      })().finally(() => inflight.delete(hash));
      inflight.set(hash, pending);
    }
    await pending;
  }
  countCardRender(cache);
  const { width, height } = CARD_FORMATS[format];
  return {
    hash,
    path: cardPath(hash),
    url: cardUrl(hash),
    format,
    width,
    height,
    cache,
    renders: renderStats.renders,
    userId,
    evaluationId: inputs.evaluationId,
    data: inputs.data,
  };
}

/**
 * The cards of a new grade, drawn by the job that made it, so its first viewer finds them stored
 * (issue 35). A failure is logged, not thrown: the grade stands, and a viewer draws the card.
 */
export async function renderGradeCards(userId: number): Promise<void> {
  for (const format of Object.keys(CARD_FORMATS) as CardFormat[]) {
    await ensureCard(userId, format).catch((error) =>
      log("error", "card rendering after a grade failed", { userId, format, error: String(error) }),
    );
  }
}

/** Whose card this is (for the download's file name). */
export async function cardOwner(hash: string) {
  const db = await getDb();
  return db
    .selectFrom("cards")
    .innerJoin("users", "users.id", "cards.user_id")
    .select(["users.username", "users.first_name"])
    .where("cards.hash", "=", hash)
    .executeTakeFirst();
}

/**
 * The hash of one of our own card URLs, or null. Only the exact form PUBLIC_URL origin +
 * /cards/<64 hex>.png passes: no other host or port, no credentials, query or fragment. The card
 * is then read from our own store; nothing is ever fetched, so there is no redirect to follow.
 */
export function ownCardHash(fileUrl: string | null | undefined): string | null {
  if (!fileUrl || fileUrl.length > 300) return null;
  let url: URL;
  try {
    url = new URL(fileUrl);
  } catch {
    return null;
  }
  const ours = new URL(getEnv().PUBLIC_URL);
  if (url.origin !== ours.origin || url.username || url.password || url.search || url.hash) return null;
  return cardHashOfPath(url.pathname);
}

/** "alice.png": the username, else the first name, reduced to safe file-name characters. */
export function downloadFileName(owner: { username: string | null; first_name: string | null } | undefined): {
  ascii: string;
  utf8: string;
} {
  const base = (owner?.username || owner?.first_name || "").trim();
  const utf8 = base.replace(/[\u0000-\u001f\u007f"\\/:*?<>|]/g, "").slice(0, 60) || "grader-card";
  const ascii = utf8.replace(/[^A-Za-z0-9_.-]/g, "") || "grader-card";
  return { ascii: `${ascii}.png`, utf8: `${utf8}.png` };
}

/** The page a shared link points at (PRODUCT §7), with an optional source. */
export function sharePageUrl(userId: number, from?: string): string {
  const base = getEnv().PUBLIC_URL.replace(/\/$/, "");
  return `${base}/share/open_graph/${userId}${from ? `?from=${encodeURIComponent(from)}` : ""}`;
}
