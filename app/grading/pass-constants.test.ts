// The trade loop (pass.ts, tradeRun) holds the constants it reads as literals of its own, for speed:
// each must equal the constant of the same name it stands for.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as columns from "./columns";
import { MS_PER_DAY } from "./time";

const source = readFileSync(new URL("./pass.ts", import.meta.url), "utf8");

/** `const NAME = literal;` declarations in a piece of source (optionally exported, optionally indented). */
function literals(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^\s*(?:export )?const ([A-Z][A-Z0-9_]*) = ([0-9_.e-]+);/gmu)) {
    out.set(m[1]!, Number(m[2]!.replaceAll("_", "")));
  }
  return out;
}

describe("tradeRun's literal constants", () => {
  const start = source.indexOf("function tradeRun(");
  const end = source.indexOf("const { c, book, syms, st, ist, rt } = ctx;", start);
  const local = literals(source.slice(start, end));
  const module = literals(source.slice(0, start));

  it("stand for the module's constants", () => {
    expect(local.size).toBeGreaterThan(20);
    const known: Record<string, number> = {
      DAY_MS: MS_PER_DAY,
      CRYPTO_CODE: columns.CLASS_CODES.crypto,
      MARGIN_CODE: columns.CLASS_CODES.future,
    };
    for (const [name, value] of local) {
      const expected = module.get(name) ?? (columns as Record<string, unknown>)[name] ?? known[name];
      expect([name, value]).toEqual([name, expected]);
    }
  });
});
