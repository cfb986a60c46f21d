import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// docs/decisions holds one file per decision and docs/DECISIONS.md is their index (how to add one
// is written there): every decision says its status, names only decisions that exist, and is
// listed in the index under what holds or under what was superseded, by its number.
const root = path.resolve(import.meta.dirname, "../..");
const dir = path.join(root, "docs/decisions");
const index = readFileSync(path.join(root, "docs/DECISIONS.md"), "utf8");

const STATUS = /^Status: (accepted|superseded by (\d+(?:, \d+)*)|amended by (\d+(?:, \d+)*))$/m;

type Decision = { file: string; n: number; status: string; supersededBy: number[]; amendedBy: number[] };

const decisions: Decision[] = readdirSync(dir)
  .sort()
  .map((file) => {
    const text = readFileSync(path.join(dir, file), "utf8");
    const status = STATUS.exec(text);
    const numbers = (list: string | undefined) => (list ? list.split(", ").map(Number) : []);
    return {
      file,
      n: Number(/^(\d{3})-/.exec(file)?.[1] ?? NaN),
      status: status?.[1] ?? "",
      supersededBy: numbers(status?.[2]),
      amendedBy: numbers(status?.[3]),
    };
  });
const byNumber = new Map(decisions.map((d) => [d.n, d]));

/** The files the index links to, in the part of it before / after "## Superseded". */
const [holdsPart = "", supersededPart = ""] = index.split(/^## Superseded$/m);
const linked = (part: string) => [...part.matchAll(/\]\(decisions\/([^)]+)\)/g)].map((m) => m[1]);

describe("docs/decisions", () => {
  it("names each file NNN-words.md, headed by its number", () => {
    for (const d of decisions) {
      expect(d.file).toMatch(/^\d{3}-[a-z0-9]+(-[a-z0-9]+)*\.md$/);
      const heading = readFileSync(path.join(dir, d.file), "utf8").split("\n", 1)[0];
      expect(heading, d.file).toMatch(new RegExp(`^# ${d.n}\\. \\S`));
    }
  });

  it("gives every decision a status line", () => {
    for (const d of decisions)
      expect(d.status, `${d.file}: Status: accepted | superseded by N | amended by N`).not.toBe("");
  });

  it("supersedes and amends only by later decisions that exist", () => {
    for (const d of decisions)
      for (const n of [...d.supersededBy, ...d.amendedBy]) {
        expect(byNumber.has(n), `${d.file} names decision ${n}`).toBe(true);
        expect(n, `${d.file} names an earlier decision, ${n}`).toBeGreaterThan(d.n);
      }
  });

  it("numbers them uniquely and contiguously, but for the numbers the index says were never used", () => {
    const numbers = decisions.map((d) => d.n);
    expect(new Set(numbers).size).toBe(numbers.length);
    const unused = (/^Numbers never used: ([\d, ]+)\.$/m.exec(index)?.[1] ?? "")
      .split(", ")
      .filter(Boolean)
      .map(Number);
    for (const n of unused) expect(byNumber.has(n), `${n} is listed as never used`).toBe(false);
    const max = Math.max(...numbers);
    const expected = Array.from({ length: max }, (_, i) => i + 1).filter((n) => !unused.includes(n));
    expect([...numbers].sort((a, b) => a - b)).toEqual(expected);
  });
});

describe("docs/DECISIONS.md, the index", () => {
  it("lists every decision once, under what holds or under superseded as its status says", () => {
    const holds = linked(holdsPart);
    const superseded = linked(supersededPart);
    const expectedHolds = decisions.filter((d) => d.supersededBy.length === 0).map((d) => d.file);
    const expectedSuperseded = decisions.filter((d) => d.supersededBy.length > 0).map((d) => d.file);
    // Each decision's own line comes first on its line; the other links name amending or
    // superseding decisions, which must exist too.
    const own = (part: string) =>
      part
        .split("\n")
        .map((line) => /^(?:\| |- )\[[^\]]+\]\(decisions\/([^)]+)\)/.exec(line)?.[1])
        .filter((f): f is string => f !== undefined);
    expect(own(holdsPart)).toEqual(expectedHolds);
    expect(own(supersededPart)).toEqual(expectedSuperseded);
    const files = new Set(decisions.map((d) => d.file));
    for (const f of [...holds, ...superseded]) expect(files.has(f!), `the index links ${f}`).toBe(true);
  });

  it("names each decision's amendments and successors beside it", () => {
    for (const d of decisions) {
      const line = index.split("\n").find((l) => l.startsWith(`| [${d.n}](decisions/`) || l.startsWith(`- [${d.n}. `));
      for (const n of [...d.supersededBy, ...d.amendedBy])
        expect(line, `${d.file}'s line names ${n}`).toContain(`[${n}](decisions/${byNumber.get(n)!.file})`);
    }
  });
});
