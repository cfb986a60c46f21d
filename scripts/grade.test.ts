import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const cli = (file: string) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/grade.ts", file], { cwd: root, encoding: "utf8" });

describe("npm run grade, every currency (v3.1)", () => {
  it("grades a ledger in several currencies: a base, rows in others, an exchange and rates", () => {
    const run = cli("test/fixtures/ledgers/31-eur-trader-dollar-fall.json");
    expect(run.status, run.stderr).toBe(0);
    const m = JSON.parse(run.stdout).metrics;
    expect(m.baseCurrency).toBe("EUR");
    expect(m.currencies).toEqual(["USD"]);
    expect(m.equity).toBe(9503);
    expect(m.localReturn).toBe(0.118);
  });

  it("refuses a symbol traded in two currencies with the row's path (exit 2)", () => {
    const t = { account: "a", symbol: "SHOP", assetClass: "stock", side: "buy", quantity: 1, price: 1 };
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ledger-")), "two.json");
    writeFileSync(
      file,
      JSON.stringify({
        asOf: "2024-01-03",
        trades: [
          { ...t, id: "1", time: "2024-01-02", currency: "CAD" },
          { ...t, id: "2", time: "2024-01-02", currency: "USD" },
        ],
      }),
    );
    const run = cli(file);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('trades[1].currency: "SHOP" is in USD here but in CAD at trades[0]');
  });
});
