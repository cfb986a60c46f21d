// Draws the app icons in public/icons from public/favicon.svg (run after changing the favicon:
// `npx tsx scripts/icons.ts`). The PNGs are committed: the manifest and iOS read them as files.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Resvg } from "@resvg/resvg-js";

const root = path.resolve(import.meta.dirname, "..");
const svg = readFileSync(path.join(root, "public/favicon.svg"), "utf8");
// A maskable icon keeps its drawing inside the middle 80 % (the safe zone) on a full-bleed background.
const inner = svg.replace(/^<svg[^>]*>/, "").replace(/<\/svg>\s*$/, "");
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#0b1020"/><g transform="translate(9.6 9.6) scale(0.7)">${inner}</g></svg>`;
// iOS rounds the corners itself and shows transparency as black: a square, full-bleed icon.
const square = svg.replace(/ rx="14"/, "");

const icons: [string, string, number][] = [
  ["icon-192.png", svg, 192],
  ["icon-512.png", svg, 512],
  ["maskable-512.png", maskable, 512],
  ["apple-touch-icon.png", square, 180],
];
for (const [file, source, size] of icons) {
  const png = new Resvg(source, { fitTo: { mode: "width", value: size } }).render().asPng();
  writeFileSync(path.join(root, "public/icons", file), png);
  console.log(file, size, png.length);
}
