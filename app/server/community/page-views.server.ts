import { getDb } from "../platform/db.server";
import { log } from "../platform/log.server";

export type PageView = { path: string; source: string | null; userId: number | null };

// Views are buffered and written in one multi-row INSERT per second, so counting a popular page
// costs no database round trip on its request.
const state: { buffer: PageView[]; timer?: NodeJS.Timeout } = { buffer: [] };
const buffer = state.buffer;
const MAX_BUFFER = 5000;

/** A view source (`?from=`) as stored: short, plain characters only, never reflected anywhere unescaped. */
export function cleanSource(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const s = raw.slice(0, 40).replace(/[^A-Za-z0-9_.-]/g, "");
  return s || null;
}

export function trackPageView(view: PageView) {
  if (buffer.length >= MAX_BUFFER) return;
  buffer.push(view);
  state.timer ??= setTimeout(() => void flushPageViews(), 1000);
  state.timer.unref?.();
}

export async function flushPageViews(): Promise<number> {
  state.timer = undefined;
  const rows = buffer.splice(0, buffer.length);
  if (!rows.length) return 0;
  try {
    const db = await getDb();
    await db
      .insertInto("page_views")
      .values(rows.map((r) => ({ path: r.path, source: r.source, user_id: r.userId })))
      .execute();
  } catch (error) {
    log("error", "page views not recorded", { count: rows.length, error: String(error) });
  }
  return rows.length;
}

export async function countPageViews(path: string): Promise<number> {
  await flushPageViews();
  const db = await getDb();
  const row = await db
    .selectFrom("page_views")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("path", "=", path)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Paths whose views are counted: the blog and the public share pages. */
export function isTrackedPath(path: string): boolean {
  return /^\/blogs(\/[A-Za-z0-9_-]{1,40})?$/.test(path) || /^\/share\/open_graph\/\d{1,9}$/.test(path);
}

/** For loaders of tracked pages: counts the view unless this render is filling the page cache. */
export async function trackLoaderView(request: Request, context: { prerender?: boolean }, userId: number | null) {
  if (context.prerender) return;
  const url = new URL(request.url);
  trackPageView({ path: url.pathname, source: cleanSource(url.searchParams.get("from")), userId });
}
