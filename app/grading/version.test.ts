import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENGINE_CHANGELOG, ENGINE_VERSION } from "./version";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;
const parts = (v: string) => v.match(SEMVER)!.slice(1).map(Number);
const newer = (a: string, b: string) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! > y[i]!;
  return false;
};

/** Every engine version a source file, a test or a document names: engineVersion: "2.0.0" and the like. */
function referencedVersions(): Set<string> {
  const found = new Set<string>();
  const pattern = /(?:engine[ _]?version)["'`]?\s*(?:[:=,]|\bis\b)\s*\**["'`]?(\d+\.\d+\.\d+)/gi;
  for (const dir of ["app", "test", "scripts", "migrations", "docs"]) {
    for (const file of fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
      if (!/\.(ts|tsx|md)$/.test(file)) continue;
      const text = fs.readFileSync(path.join(ROOT, dir, file), "utf8");
      for (const m of text.matchAll(pattern)) found.add(m[1]!);
    }
  }
  return found;
}

describe("the engine's changelog", () => {
  it("has an entry for the current version, first, and the versions newest first", () => {
    const versions = Object.keys(ENGINE_CHANGELOG);
    expect(versions[0]).toBe(ENGINE_VERSION);
    for (const v of versions) expect(v).toMatch(SEMVER);
    for (let i = 1; i < versions.length; i++) expect(newer(versions[i - 1]!, versions[i]!), versions[i]).toBe(true);
  });

  it("says something for every version, one sentence a line", () => {
    for (const [v, lines] of Object.entries(ENGINE_CHANGELOG)) {
      expect(lines.length, v).toBeGreaterThan(0);
      for (const line of lines) expect(line, v).toMatch(/^[A-Z].*\.$/);
    }
  });

  it("has an entry for every version the code and the documents name", () => {
    const named = referencedVersions();
    expect(named.has(ENGINE_VERSION)).toBe(true);
    for (const v of named) expect(ENGINE_CHANGELOG[v], v).toBeDefined();
  });
});
