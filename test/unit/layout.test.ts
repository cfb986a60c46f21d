import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// app/server is in rooms (docs/ARCHITECTURE.md §2): a file dropped at its top, or a room the layer
// table does not describe, fails here.
const root = path.resolve(import.meta.dirname, "../..");
const server = path.join(root, "app/server");

describe("app/server's rooms", () => {
  const entries = readdirSync(server, { withFileTypes: true });

  it("keeps no file at its top", () => {
    expect(entries.filter((e) => !e.isDirectory()).map((e) => e.name)).toEqual([]);
  });

  it("describes every room in ARCHITECTURE.md's layer table", () => {
    const architecture = readFileSync(path.join(root, "docs/ARCHITECTURE.md"), "utf8");
    const rooms = entries.filter((e) => e.isDirectory()).map((e) => e.name);
    expect(rooms.length).toBeGreaterThan(1);
    for (const room of rooms) expect(architecture, room).toContain(`| \`app/server/${room}\` |`);
  });
});
