// The content-addressed card store: PostgreSQL is the record, a bounded in-process LRU keeps hot
// PNGs, and GET /cards/<sha256>.png is answered from here by an Express route in server.ts (ahead
// of the page cache, static files and Remix: a stored card is the most requested and cheapest
// thing the server sends). Nothing here imports the renderer, so server.ts stays light.
import { getDb } from "./db.server";

export const CARD_PATH = /^\/cards\/([0-9a-f]{64})\.png$/;
export const CARD_CACHE_CONTROL = "public, max-age=31536000, immutable";

const MEMORY_BYTES = 48 * 1024 * 1024;
/** Hashes remembered as stored (a bound keeps a long-running process's memory flat; forgetting one costs a look-up). */
const KNOWN_MAX = 100_000;

// On globalThis: server.ts (which serves the cards) and the Remix bundle (which renders and stores
// them) load this module separately but share one memory, so a card just rendered is already hot.
type Memory = { cards: Map<string, Buffer>; bytes: number; known: Set<string>; stats: CardCacheStats };
/** For /metrics: stored cards served from memory or the database, and whether a card had to be drawn. */
export type CardCacheStats = { memoryHits: number; databaseLoads: number; renderHits: number; renders: number };
const memory = ((globalThis as unknown as { __grader_cards?: Memory }).__grader_cards ??= {
  cards: new Map(),
  bytes: 0,
  known: new Set(),
  stats: { memoryHits: 0, databaseLoads: 0, renderHits: 0, renders: 0 },
});

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
  memory.known.add(hash);
  if (memory.known.size > KNOWN_MAX) memory.known.delete(memory.known.values().next().value as string);
  if (!png || memory.cards.has(hash) || png.length > MEMORY_BYTES / 8) return;
  memory.cards.set(hash, png);
  memory.bytes += png.length;
  while (memory.bytes > MEMORY_BYTES) {
    const [oldest, bytes] = memory.cards.entries().next().value as [string, Buffer];
    memory.cards.delete(oldest);
    memory.bytes -= bytes.length;
  }
}

export type StoredCard = { png: Buffer; format: string; userId: number | null };

/** A stored card by its hash (memory first, then the database), or null. */
export async function loadCard(hash: string): Promise<StoredCard | null> {
  const hot = memory.cards.get(hash);
  if (hot) {
    memory.stats.memoryHits++;
    // Refresh its place in the LRU.
    memory.cards.delete(hash);
    memory.cards.set(hash, hot);
    return { png: hot, format: "", userId: null };
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
 * them forever; a matching If-None-Match gets a 304 without a look-up.
 */
export async function cardAnswer(file: string, ifNoneMatch: string | undefined): Promise<CardAnswer> {
  const hash = /^([0-9a-f]{64})\.png$/.exec(file)?.[1];
  if (!hash) return { status: 404, headers: { "Content-Type": "text/plain" }, body: "Not Found" };
  const etag = `"${hash.slice(0, 32)}"`;
  if (ifNoneMatch === etag)
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
