import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The limiter in process, on an in-memory PGlite (or DATABASE_URL's PostgreSQL), with every limit doubled.
process.env.DATA_DIR = "memory://";
process.env.RATE_LIMIT_FACTOR = "2";

const { closeDb, migrateToLatest } = await import("../platform/db.server");
const { RATE_LIMITS, hitLimit } = await import("./rate-limit.server");

const unique = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

function windowText(ms: number): string {
  if (ms % 86_400_000 === 0) return ms === 86_400_000 ? "1 day" : `${ms / 86_400_000} days`;
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? "1 hour" : `${ms / 3_600_000} hours`;
  return ms === 60_000 ? "1 minute" : `${ms / 60_000} minutes`;
}

describe("the table in docs/OPERATIONS.md", () => {
  it("lists every named limit with its count, key, limit and window, and nothing else", () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, "../../../docs/OPERATIONS.md"), "utf8");
    const lines = doc.split("\n");
    const start = lines.findIndex((l) => l.startsWith("<!-- rate-limits:"));
    expect(start).toBeGreaterThan(0);
    const rows: string[][] = [];
    for (const line of lines.slice(start + 3)) {
      if (!line.startsWith("|")) break;
      rows.push(
        line
          .slice(1, -1)
          .split("|")
          .map((c) => c.trim()),
      );
    }
    expect(rows).toEqual(
      Object.entries(RATE_LIMITS).map(([name, l]) => [
        `\`${name}\``,
        l.counts,
        l.key,
        String(l.limit),
        windowText(l.windowMs),
      ]),
    );
  });
});

describe("hitLimit", () => {
  // Migrating a fresh database takes seconds on a loaded machine.
  beforeAll(async () => {
    await migrateToLatest();
  }, 120_000);
  afterAll(() => closeDb());

  it("allows the limit × RATE_LIMIT_FACTOR hits in a window, then refuses with the seconds left", async () => {
    const ip = `192.0.2.${unique()}`;
    const allowed = RATE_LIMITS["contact-ip"].limit * 2;
    for (let i = 0; i < allowed; i++) expect(await hitLimit("contact-ip", ip)).toEqual({ ok: true });
    const refused = await hitLimit("contact-ip", ip);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(RATE_LIMITS["contact-ip"].windowMs / 1000);
    // Another key under the same name has its own count.
    expect(await hitLimit("contact-ip", `${ip}-other`)).toEqual({ ok: true });
  });

  it("keeps one count per name: the same key under two names is counted apart", async () => {
    const email = `${unique()}@example.com`;
    for (let i = 0; i < RATE_LIMITS["forgot-email"].limit * 2; i++) await hitLimit("forgot-email", email);
    expect((await hitLimit("forgot-email", email)).ok).toBe(false);
    expect(await hitLimit("signup-email", email)).toEqual({ ok: true });
  });
});
