import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES, parseEnv } from "./env.server";

describe("docs/OPERATIONS.md", () => {
  it("has one row for each variable the server reads (a row may name a few that go together)", () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, "../../../docs/OPERATIONS.md"), "utf8");
    // The names in each table row's first cell.
    const rows = [...doc.matchAll(/^\| (`[A-Z0-9_]+`(?:, `[A-Z0-9_]+`)*) \|/gm)].map((m) =>
      [...m[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((n) => n[1]),
    );
    for (const name of ENV_VARIABLES)
      expect(
        rows.filter((r) => r.includes(name)),
        name,
      ).toHaveLength(1);
  });
});

describe("TRUST_PROXY", () => {
  const trust = (value: string) => parseEnv({ NODE_ENV: "test", TRUST_PROXY: value }).TRUST_PROXY;

  it("reads what Express's trust proxy takes", () => {
    expect(trust("")).toBe(false);
    expect(trust("false")).toBe(false);
    expect(trust("true")).toBe(true);
    expect(trust("2")).toBe(2);
    expect(trust("loopback, 10.0.0.0/8, fd00::/8, 203.0.113.7")).toBe("loopback, 10.0.0.0/8, fd00::/8, 203.0.113.7");
  });

  it("refuses at start-up what Express would throw on at the first request, naming the bad parts", () => {
    expect(() => trust("yes")).toThrow(/TRUST_PROXY: .*: yes$/m);
    expect(() => trust("loopback, 10.0.0.0/33")).toThrow(/10\.0\.0\.0\/33/);
    expect(() => trust("10.0.0.0/8/1")).toThrow(/TRUST_PROXY/);
  });
});
