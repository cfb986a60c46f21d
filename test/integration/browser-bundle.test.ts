import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What the browser loads must not lean on Node: a route that imported a server-side parser once
// shipped csv-parse, and its `Buffer` threw on hydration ("Buffer is not defined") with JavaScript
// on. Reads the client build `npm test` makes first (remix build), every chunk of it.

const BUILD = path.resolve(import.meta.dirname, "../../public/build");

function chunks(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? chunks(path.join(dir, e.name)) : e.name.endsWith(".js") ? [path.join(dir, e.name)] : [],
  );
}

describe("the browser bundle", () => {
  it("uses neither Node's Buffer nor a node: module in any chunk", () => {
    const files = chunks(BUILD);
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.flatMap((f) => {
      const text = readFileSync(f, "utf8");
      const hits = [...text.matchAll(/(?<![\w$.])Buffer(?=\s*[.([])/g), ...text.matchAll(/["']node:[a-z_/]+["']/g)];
      return hits.map((m) => `${path.relative(BUILD, f)}: …${text.slice(Math.max(0, m.index! - 40), m.index! + 40)}…`);
    });
    expect(offenders).toEqual([]);
  });
});
