// The content-addressed card store: PostgreSQL is the record, a bounded in-process LRU keeps hot
// PNGs, and GET /cards/<sha256>.png is answered from here by an Express route in server.ts (ahead
// of the page cache, static files and Remix: a stored card is the most requested and cheapest
// thing the server sends). Nothing here imports the renderer.
import { LRUCache } from "lru-cache";
import { getDb } from "../platform/db.server";

// A card's URL, /cards/<sha256>.png, is spelled here only: cardPath writes it, cardHashOfPath and
// cardAnswer read it, and server.ts mounts CARD_ROUTE.
const CARD_DIR = "/cards/";
const CARD_FILE = /^([0-9a-f]{64})\.png$/;
export const CARD_ROUTE = `${CARD_DIR}:file`;

/** The path a stored card is served at. */
export function cardPath(hash: string): string {
  return `${CARD_DIR}${hash}.png`;
}

/** The hash in a card's path, or null when `pathname` is not one. */
export function cardHashOfPath(pathname: string): string | null {
  return pathname.startsWith(CARD_DIR) ? (CARD_FILE.exec(pathname.slice(CARD_DIR.length))?.[1] ?? null) : null;
}

export const CARD_CACHE_CONTROL = "public, max-age=31536000, immutable";

const MEMORY_BYTES = 48 * 1024 * 1024;
/** Hashes remembered as stored (a bound keeps a long-running process's memory flat; forgetting one costs a look-up). */
const KNOWN_MAX = 100_000;

/**
 * How long a card in memory is served without asking the database whether it is still stored. A
 * deleted account's cards leave this process's memory at once (forgetCards); another process
 * serves one for at most this long, then asks, finds no row and forgets it.
 */
export const CARD_RECHECK_MS = 30_000;

// A card's bytes and when the database last said it is stored.
type HotCard = { png: Buffer; checkedAt: number };

// One memory for the process: server.ts serves cards from the same module the routes render and
// store them through (it takes it from the build), so a card just rendered is already hot.
type Memory = { cards: LRUCache<string, HotCard>; known: LRUCache<string, true>; stats: CardCacheStats };
/** For /metrics: stored cards served from memory or the database, and whether a card had to be drawn. */
export type CardCacheStats = { memoryHits: number; databaseLoads: number; renderHits: number; renders: number };
const memory: Memory = {
  // Bounded by bytes; a card over an eighth of the budget is not kept.
  cards: new LRUCache({
    maxSize: MEMORY_BYTES,
    maxEntrySize: MEMORY_BYTES / 8,
    sizeCalculation: (hot) => hot.png.length,
  }),
  known: new LRUCache({ max: KNOWN_MAX }),
  stats: { memoryHits: 0, databaseLoads: 0, renderHits: 0, renders: 0 },
};

export function cardCacheStats(): CardCacheStats {
  return memory.stats;
}

/** Counts one ensureCard: found already stored (hit) or drawn now (miss). */
export function countCardRender(cache: "hit" | "miss") {
  if (cache === "hit") memory.stats.renderHits++;
  else memory.stats.renders++;
}

/** True once this process has stored or seen the card `hash` (it is in the database). */
export function isKnownCard(hash: string): boolean {
  return memory.known.has(hash);
}

/** Notes that `hash` is stored, and keeps its bytes hot when given. */
export function rememberCard(hash: string, png?: Buffer) {
  memory.known.set(hash, true);
  if (png && !memory.cards.has(hash)) memory.cards.set(hash, { png, checkedAt: Date.now() });
}

/** Drops cards from this process's memory (their rows are deleted: a deleted account's cards). */
export function forgetCards(hashes: readonly string[]) {
  for (const hash of hashes) {
    memory.cards.delete(hash);
    memory.known.delete(hash);
  }
}

// The hot card when it is still stored: checked against the database once per CARD_RECHECK_MS,
// so a row deleted by another process stops being served within that time.
async function hotCard(hash: string): Promise<HotCard | null> {
  const hot = memory.cards.get(hash);
  if (!hot) return null;
  if (Date.now() - hot.checkedAt < CARD_RECHECK_MS) return hot;
  const db = await getDb();
  const row = await db.selectFrom("cards").select("hash").where("hash", "=", hash).executeTakeFirst();
  if (!row) {
    forgetCards([hash]);
    return null;
  }
  hot.checkedAt = Date.now();
  return hot;
}

/** True when the card `hash` is stored (memory within its recheck time, else one indexed look-up). */
async function isStored(hash: string): Promise<boolean> {
  if (await hotCard(hash)) return true;
  const db = await getDb();
  return Boolean(await db.selectFrom("cards").select("hash").where("hash", "=", hash).executeTakeFirst());
}

export type StoredCard = { png: Buffer; format: string; userId: number | null };

/** A stored card by its hash (memory first, then the database), or null. */
export async function loadCard(hash: string): Promise<StoredCard | null> {
  const hot = await hotCard(hash);
  if (hot) {
    memory.stats.memoryHits++;
    return { png: hot.png, format: "", userId: null };
  }
  memory.stats.databaseLoads++;
  const db = await getDb();
  const row = await db
    .selectFrom("cards")
    .select(["png", "format", "user_id"])
    .where("hash", "=", hash)
    .executeTakeFirst();
  if (!row) return null;
  const png = Buffer.from(row.png);
  rememberCard(hash, png);
  return { png, format: row.format, userId: row.user_id };
}

export type CardAnswer = { status: 200 | 304 | 404; headers: Record<string, string>; body: Buffer | string | null };

/**
 * The answer to GET /cards/<file>: the stored card /cards/<sha256>.png. The name is the hash of
 * everything drawn, so the bytes behind a URL never change and any cache (browser, CDN) may keep
 * them forever. A matching If-None-Match gets a 304 only while the card is stored: a deleted
 * account's card is a 404 even to a browser that kept it.
 */
export async function cardAnswer(file: string, ifNoneMatch: string | undefined): Promise<CardAnswer> {
  const hash = CARD_FILE.exec(file)?.[1];
  if (!hash) return { status: 404, headers: { "Content-Type": "text/plain" }, body: "Not Found" };
  const etag = `"${hash.slice(0, 32)}"`;
  if (ifNoneMatch === etag && (await isStored(hash)))
    return { status: 304, headers: { ETag: etag, "Cache-Control": CARD_CACHE_CONTROL }, body: null };
  const card = await loadCard(hash);
  if (!card)
    return { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" }, body: "Not Found" };
  return {
    status: 200,
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(card.png.length),
      "Cache-Control": CARD_CACHE_CONTROL,
      ETag: etag,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
    body: card.png,
  };
}
