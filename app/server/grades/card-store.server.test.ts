import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// The card memory against the database, in process on an in-memory PGlite: a card whose row is
// deleted elsewhere (another process deleting the account) stops being served within the bound.
delete process.env.DATABASE_URL;
process.env.DATA_DIR = "memory://";

const { closeDb, getDb, migrateToLatest } = await import("../platform/db.server");
const { CARD_RECHECK_MS, cardAnswer, forgetCards, loadCard, rememberCard } = await import("./card-store.server");

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
let n = 0;

async function storedCard() {
  const db = await getDb();
  const hash = (n++).toString(16).padStart(64, "a");
  const user = await db
    .insertInto("users")
    .values({ email: `card${n}@example.com` })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.insertInto("cards").values({ hash, format: "link", user_id: user.id, png: PNG }).execute();
  return { hash, userId: user.id };
}

beforeAll(async () => {
  await migrateToLatest();
}, 60_000);
afterEach(() => vi.useRealTimers());
afterAll(async () => {
  await closeDb();
});

describe("the card memory", () => {
  it("serves a card whose row another process deleted for at most CARD_RECHECK_MS, then 404", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { hash, userId } = await storedCard();
    expect((await loadCard(hash))?.png.equals(PNG)).toBe(true); // now in memory
    await (await getDb()).deleteFrom("users").where("id", "=", userId).execute(); // cascades to cards
    // Within the bound the memory still answers (no look-up per request)…
    vi.setSystemTime(Date.now() + CARD_RECHECK_MS - 1_000);
    expect((await cardAnswer(`${hash}.png`, undefined)).status).toBe(200);
    // …and past it the database is asked, the row is gone and so is the card.
    vi.setSystemTime(Date.now() + 2_000);
    expect((await cardAnswer(`${hash}.png`, undefined)).status).toBe(404);
    expect(await loadCard(hash)).toBeNull();
  });

  it("keeps serving a stored card after its recheck", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { hash } = await storedCard();
    rememberCard(hash, PNG);
    vi.setSystemTime(Date.now() + CARD_RECHECK_MS * 3);
    expect((await cardAnswer(`${hash}.png`, undefined)).status).toBe(200);
  });

  it("forgets at once what this process deleted, and gives no 304 for a card that is gone", async () => {
    const { hash, userId } = await storedCard();
    const first = await cardAnswer(`${hash}.png`, undefined);
    expect(first.status).toBe(200);
    await (await getDb()).deleteFrom("users").where("id", "=", userId).execute();
    forgetCards([hash]);
    expect((await cardAnswer(`${hash}.png`, undefined)).status).toBe(404);
    expect((await cardAnswer(`${hash}.png`, first.headers.ETag)).status).toBe(404);
  });
});
