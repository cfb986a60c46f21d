import { execFileSync } from "node:child_process";

// `npx tsx scripts/route-manifest.ts`: the app's routes as Remix sees them, without the files they
// live in (id, parent, path, index), one per line, sorted. Moving route files between group folders
// must leave this output unchanged (DECISIONS 125): run it before and after, and compare.
type RouteNode = { id: string; path?: string; index?: boolean; file: string; children?: RouteNode[] };

const tree = JSON.parse(
  execFileSync("npx", ["remix", "routes", "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
) as RouteNode[];
const rows: string[] = [];
(function walk(nodes: RouteNode[], parent: string | null) {
  for (const node of nodes) {
    rows.push(JSON.stringify({ id: node.id, parent, path: node.path ?? null, index: node.index ?? false }));
    walk(node.children ?? [], node.id);
  }
})(tree, null);
console.log(rows.sort().join("\n"));
