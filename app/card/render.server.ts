// Satori (layout) → SVG → resvg (raster) → PNG. Fonts come from npm packages (@fontsource/*, .woff
// files read from node_modules, no network) and are read once per process; resvg never loads
// system fonts, only the bundled ones handed to it.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { renderAsync } from "@resvg/resvg-js";
import { createElement } from "react";
import satori, { init as initSatori } from "satori/wasm";
import initYoga from "yoga-wasm-web";
import { cardElement, CARD_FORMATS, type CardData } from "./layout";
import { encodePng } from "./png.server";

type Font = { name: string; data: Buffer; weight: 400 | 700 | 800; style: "normal" };
type Face = { file: string; ranges: [number, number][] };

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

function parseRanges(list: string): [number, number][] {
  return list.split(",").map((part) => {
    const [a, b] = part.trim().replace(/^U\+/i, "").split("-");
    const lo = parseInt(a!, 16);
    return [lo, b ? parseInt(b, 16) : lo];
  });
}

/** The @font-face blocks of a fontsource CSS file: each .woff file with its unicode-range. */
function facesOf(pkg: string, cssFile: string): Face[] {
  const dir = packageDir(pkg);
  const css = fs.readFileSync(path.join(dir, cssFile), "utf8");
  const faces: Face[] = [];
  for (const block of css.split("@font-face").slice(1)) {
    const woff = /url\(\.\/files\/([^)]+\.woff)\)/.exec(block)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    if (woff) faces.push({ file: path.join(dir, "files", woff), ranges: range ? parseRanges(range) : [[0, 0x10ffff]] });
  }
  return faces;
}

const covers = (face: Face, cp: number) => face.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);

/**
 * The `name` table with every family name (name IDs 1 and 16) replaced by `family`. Inter's
 * ExtraBold files call their family "Inter ExtraBold", so resvg would not find them as Inter 800.
 */
export function renameFamily(name: Buffer, family: string): Buffer {
  const count = name.readUInt16BE(2);
  const storage = name.readUInt16BE(4);
  const records: { head: Buffer; text: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    const r = 6 + i * 12;
    const platform = name.readUInt16BE(r);
    const id = name.readUInt16BE(r + 6);
    const length = name.readUInt16BE(r + 8);
    const offset = name.readUInt16BE(r + 10);
    let text = name.subarray(storage + offset, storage + offset + length);
    if (id === 1 || id === 16)
      text = platform === 1 ? Buffer.from(family, "latin1") : Buffer.from(family, "utf16le").swap16();
    records.push({ head: Buffer.from(name.subarray(r, r + 12)), text });
  }
  const head = Buffer.alloc(6 + count * 12);
  head.writeUInt16BE(0, 0);
  head.writeUInt16BE(count, 2);
  head.writeUInt16BE(head.length, 4);
  let offset = 0;
  records.forEach(({ head: record, text }, i) => {
    record.writeUInt16BE(text.length, 8);
    record.writeUInt16BE(offset, 10);
    record.copy(head, 6 + i * 12);
    offset += text.length;
  });
  return Buffer.concat([head, ...records.map((r) => r.text)]);
}

/**
 * WOFF 1 → plain sfnt (TTF/OTF) without the GSUB and GPOS tables. Satori's text engine
 * (opentype.js) runs every string through those tables on every render; Inter's contextual
 * alternates and kerning cost about a third of the layout time for a barely visible difference.
 * resvg draws the text from the same files, so it places every glyph where Satori measured it.
 */
export function woffToSfnt(woff: Buffer, drop: readonly string[] = ["GSUB", "GPOS"], family?: string): Buffer {
  if (woff.toString("latin1", 0, 4) !== "wOFF") return woff;
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables: { tag: string; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    const o = 44 + i * 20;
    const tag = woff.toString("latin1", o, o + 4);
    if (drop.includes(tag)) continue;
    const offset = woff.readUInt32BE(o + 4);
    const compressed = woff.readUInt32BE(o + 8);
    const original = woff.readUInt32BE(o + 12);
    const raw = woff.subarray(offset, offset + compressed);
    const data = compressed < original ? zlib.inflateSync(raw) : Buffer.from(raw);
    tables.push({
      tag,
      checksum: woff.readUInt32BE(o + 16),
      data: tag === "name" && family ? renameFamily(data, family) : data,
    });
  }
  const n = tables.length;
  let pow = 1;
  let log = 0;
  while (pow * 2 <= n) {
    pow *= 2;
    log++;
  }
  const head = Buffer.alloc(12 + 16 * n);
  head.writeUInt32BE(flavor, 0);
  head.writeUInt16BE(n, 4);
  head.writeUInt16BE(pow * 16, 6);
  head.writeUInt16BE(log, 8);
  head.writeUInt16BE(n * 16 - pow * 16, 10);
  let offset = head.length;
  const bodies: Buffer[] = [];
  tables.forEach((t, i) => {
    const o = 12 + i * 16;
    head.write(t.tag, o, "latin1");
    head.writeUInt32BE(t.checksum, o + 4);
    head.writeUInt32BE(offset, o + 8);
    head.writeUInt32BE(t.data.length, o + 12);
    const padded = Buffer.alloc((t.data.length + 3) & ~3);
    t.data.copy(padded);
    bodies.push(padded);
    offset += padded.length;
  });
  return Buffer.concat([head, ...bodies]);
}

// Base fonts: Inter (Latin) in the three weights the layout uses; every fixed label is Latin.
// Name fonts (weight 700): every Inter subset (Latin-ext, Cyrillic, Greek, Vietnamese, symbols)
// and Noto Sans SC (Chinese, Japanese kana) whose ~100 unicode-range files are read on first use.
const INTER_DIR = packageDir("@fontsource/inter");
const fileCache = new Map<string, Buffer>();
const readFont = (file: string) => {
  let data = fileCache.get(file);
  if (!data)
    fileCache.set(
      file,
      (data = woffToSfnt(fs.readFileSync(file), undefined, file.startsWith(INTER_DIR) ? "Inter" : undefined)),
    );
  return data;
};

// resvg draws the text (Satori only lays it out: embedFont false, see renderCardSvg) and reads
// fonts from files only, so each converted font is written once per process to a private
// temporary directory, removed on exit.
let fontDir: string | undefined;
const sfntFiles = new Map<string, string>();
function sfntFile(woff: string): string {
  let file = sfntFiles.get(woff);
  if (!file) {
    if (!fontDir) {
      const dir = (fontDir = fs.mkdtempSync(path.join(os.tmpdir(), "grader-card-fonts-")));
      process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
    }
    file = path.join(fontDir, `${path.basename(woff, ".woff")}.ttf`);
    fs.writeFileSync(file, readFont(woff));
    sfntFiles.set(woff, file);
  }
  return file;
}

const interLatinFile = (weight: 400 | 700 | 800) => path.join(INTER_DIR, "files", `inter-latin-${weight}-normal.woff`);
const interLatin = (weight: 400 | 700 | 800): Font => ({
  name: "Inter",
  weight,
  style: "normal",
  data: readFont(interLatinFile(weight)),
});

const BASE_FONTS: Font[] = [interLatin(400), interLatin(700), interLatin(800)];
const BASE_FILES = [interLatinFile(400), interLatinFile(700), interLatinFile(800)];
const NAME_FACES: Face[] = [
  ...facesOf("@fontsource/inter", "700.css").filter((f) => !f.file.includes("inter-latin-700")),
  ...facesOf("@fontsource/noto-sans-sc", "700.css"),
];
const LATIN_FACE: Face = facesOf("@fontsource/inter", "700.css").find((f) => f.file.includes("inter-latin-700"))!;

// Scripts drawn right to left or with complex shaping (Arabic, Hebrew, Indic, Thai) would come out
// reordered or unjoined, since Satori does no bidi or shaping: they count as not covered.
const COMPLEX = /[\u0590-\u08FF\u0900-\u0DFF\u0E00-\u0EFF\u1000-\u109F\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
// eslint-disable-next-line no-misleading-character-class -- zero-width joiners and VS16 are matched one by one on purpose
const IGNORABLE = /[\s\u200B-\u200D\uFE0F]/u;

/**
 * The extra font files a text needs beyond Latin, or null when some character has no glyph in any
 * bundled font (emoji, Korean, right-to-left scripts, …): the caller then draws a fallback instead
 * of tofu.
 */
export function facesForText(text: string): string[] | null {
  if (COMPLEX.test(text)) return null;
  const files = new Set<string>();
  for (const ch of text) {
    if (IGNORABLE.test(ch)) continue;
    const cp = ch.codePointAt(0)!;
    if (covers(LATIN_FACE, cp)) continue;
    const face = NAME_FACES.find((f) => covers(f, cp));
    if (!face) return null;
    files.add(face.file);
  }
  return [...files].sort();
}

/** True when every character of `text` can be drawn with the bundled fonts. */
export function canDraw(text: string): boolean {
  return facesForText(text) !== null;
}

// Satori caches its parsed fonts per fonts-array identity, so each distinct set of extra files
// gets one array, kept for the life of the process (bounded: oldest sets are dropped).
const fontSets = new Map<string, Font[]>([["", BASE_FONTS]]);
function fontSetFor(files: string[]): Font[] {
  const key = files.join("|");
  let set = fontSets.get(key);
  if (!set) {
    // One family per file: Satori keeps one face per family and weight and falls back across families.
    set = [
      ...BASE_FONTS,
      ...files.map((file): Font => ({
        name: `Name ${path.basename(file, ".woff")}`,
        weight: 700,
        style: "normal",
        data: readFont(file),
      })),
    ];
    if (fontSets.size > 64) {
      const oldest = [...fontSets.keys()].find((k) => k !== "");
      if (oldest !== undefined) fontSets.delete(oldest);
    }
    fontSets.set(key, set);
  }
  return set;
}

export type RenderStats = { renders: number; lastMs: number };
/** Renders performed by this process (the cache tests and the benchmark read it). */
export const renderStats: RenderStats = { renders: 0, lastMs: 0 };

// Satori's default entry runs Yoga (flexbox layout) compiled to asm.js; its /wasm entry takes the
// WebAssembly build of the same Yoga version, which lays the card out ~10% faster with identical
// output. Compiled once per process, on first use.
let yogaReady: Promise<void> | undefined;
function loadYoga(): Promise<void> {
  return (yogaReady ??= initYoga(fs.readFileSync(require.resolve("yoga-wasm-web/dist/yoga.wasm"))).then(initSatori));
}

// Satori 0.12 parses CSS values with a unit parser that throws, and catches, for every keyword,
// colour and missing font size ("block", "flex", "#f4f6fb", …): a few hundred throws a card, and
// capturing their stack traces was ~15% of Satori's time. Satori runs in microtasks only once its
// fonts are parsed (no I/O), so stack traces are off just for that stretch; nested or concurrent
// renders share the switch and the last one out restores the limit.
let quietRenders = 0;
let savedStackTraceLimit = Error.stackTraceLimit;
async function withoutStackTraces<T>(run: () => Promise<T>): Promise<T> {
  if (quietRenders++ === 0) {
    savedStackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
  }
  try {
    return await run();
  } finally {
    if (--quietRenders === 0) Error.stackTraceLimit = savedStackTraceLimit;
  }
}

// Satori turns every inline <svg> (the shield, the star rows) into an <image> of a data: URI,
// clipped and masked to its own box; resvg then parses and rasterises each as a separate document
// (~15% of its time). The same markup nested as an <svg> element draws identically (its content
// stays inside its box, so the clip and mask change nothing) and costs resvg nothing extra. Markup
// that does not have the expected shape is left as it is.
const SVG_IMAGE =
  /<image x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" href="data:image\/svg\+xml;utf8,([^"]*)" preserveAspectRatio="none"(?: clip-path="url\(#satori_cp-[\w-]+\)")?(?: mask="url\(#satori_om-[\w-]+\)")?\/>/g;
const SVG_OPEN =
  /^<svg\s+xmlns="http:\/\/www\.w3\.org\/2000\/svg"\s+width="[\d.]+"\s+height="[\d.]+"(\s+viewBox="[\d. ]+")>/;
export function inlineSvgImages(svg: string): string {
  return svg.replace(SVG_IMAGE, (image: string, x: string, y: string, width: string, height: string, uri: string) => {
    const inner = decodeURIComponent(uri);
    const open = SVG_OPEN.exec(inner);
    if (!open || !inner.endsWith("</svg>")) return image;
    return `<svg x="${x}" y="${y}" width="${width}" height="${height}"${open[1]} preserveAspectRatio="none" overflow="visible">${inner.slice(open[0].length)}`;
  });
}

// Satori clips the text of every overflow: hidden box (the name, the username, the figures' values)
// to that box, word by word, and resvg draws each clipped word in a layer of its own (~2 ms a card).
// Satori has already cut the text to fit with an ellipsis, so a word whose measured box lies inside
// its clip loses nothing without it; anything that does not fit keeps its clip.
const CLIP_RECT =
  /<clipPath id="(satori_cp-[\w-]+)"><rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"\/><\/clipPath>/g;
const CLIPPED_TEXT =
  /<text x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)"([^>]*?) clip-path="url\(#(satori_cp-[\w-]+)\)"/g;
export function unclipFittingText(svg: string): string {
  const boxes = new Map<string, [number, number, number, number]>();
  for (const [, id, x, y, width, height] of svg.matchAll(CLIP_RECT)) boxes.set(id!, [+x!, +y!, +width!, +height!]);
  return svg.replace(CLIPPED_TEXT, (text: string, x: string, y: string, width: string, rest: string, id: string) => {
    const box = boxes.get(id);
    // x and width are the word's measured extent, y its baseline.
    const inside =
      box && +x >= box[0] - 0.5 && +x + +width <= box[0] + box[2] + 0.5 && +y >= box[1] && +y <= box[1] + box[3];
    return inside ? `<text x="${x}" y="${y}" width="${width}"${rest}` : text;
  });
}

/**
 * The card as SVG with its text as <text> elements (embedFont false): turning every glyph into
 * path data took a third of Satori's time, while resvg draws text from the same font files
 * natively. `fontFiles` are the files resvg needs for it: Inter, then the name's extra faces,
 * which resvg falls back to per character just as Satori did when it measured.
 */
export async function renderCardSvg(data: CardData): Promise<{ svg: string; fontFiles: string[] }> {
  const { width, height } = CARD_FORMATS[data.format];
  const files = facesForText(`${data.name}${data.initials}`) ?? [];
  const fonts = fontSetFor(files);
  await loadYoga();
  const svg = await withoutStackTraces(() => satori(cardElement(data), { width, height, fonts, embedFont: false }));
  return { svg: unclipFittingText(inlineSvgImages(svg)), fontFiles: [...BASE_FILES, ...files].map(sfntFile) };
}

/**
 * The card as PNG bytes, exactly CARD_FORMATS[format] pixels. Rasterising (resvg's renderAsync)
 * and compressing (zlib) run in the libuv thread pool, so the event loop only lays out the card
 * and concurrent renders use both cores.
 */
export async function renderCardPng(data: CardData): Promise<Buffer> {
  const started = performance.now();
  const { svg, fontFiles } = await renderCardSvg(data);
  const { width } = CARD_FORMATS[data.format];
  // The opaque background makes every pixel opaque, which encodePng relies on.
  const image = await renderAsync(svg, {
    fitTo: { mode: "width", value: width },
    font: { loadSystemFonts: false, fontFiles, defaultFontFamily: "Inter" },
    background: "#0c1222",
  });
  const png = await encodePng(image.pixels, image.width, image.height);
  renderStats.renders++;
  renderStats.lastMs = performance.now() - started;
  return png;
}

/**
 * Parses the base fonts once, right after start-up and off the request path, so the first card a
 * user asks for does not pay for it (Satori parses a font set on its first use).
 */
export async function warmUpCardFonts(): Promise<void> {
  const element = createElement("div", { style: { display: "flex", fontFamily: "Inter" } }, "Grader 0123456789%");
  await loadYoga();
  const svg = await satori(element, {
    width: 200,
    height: 50,
    fonts: BASE_FONTS,
    embedFont: false,
  });
  // Also writes the font files resvg reads and runs resvg's text path once.
  await renderAsync(svg, {
    font: { loadSystemFonts: false, fontFiles: BASE_FILES.map(sfntFile), defaultFontFamily: "Inter" },
  });
}
if (process.env.NODE_ENV === "production") setTimeout(() => void warmUpCardFonts().catch(() => {}), 250).unref();

/**
 * A plain 1200×630 Open Graph card for a page that is not a grade (a trader club): a title and a
 * few lines on the cards' background, in Inter. Text the bundled fonts cannot draw is the caller's
 * to replace (canDraw) before it gets here.
 */
export async function renderPlainCardPng(title: string, lines: string[]): Promise<Buffer> {
  const width = 1200;
  const height = 630;
  const files = facesForText(`${title}${lines.join("")}`) ?? [];
  const fonts = fontSetFor(files);
  const h = createElement;
  const element = h(
    "div",
    {
      style: {
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        width: "100%",
        height: "100%",
        padding: 72,
        background: "#0c1222",
        color: "#f4f6fb",
        fontFamily: "Inter",
      },
    },
    h("div", { style: { display: "flex", fontSize: 32, color: "#8ea0c4" } }, "Grader · Trader club"),
    h(
      "div",
      { style: { display: "flex", flexDirection: "column" } },
      h("div", { style: { display: "flex", fontSize: 72, fontWeight: 700, lineHeight: 1.1 } }, title),
      ...lines.map((line) =>
        h("div", { style: { display: "flex", fontSize: 34, marginTop: 20, color: "#c9d3e8" } }, line),
      ),
    ),
    h("div", { style: { display: "flex", fontSize: 28, color: "#8ea0c4" } }, "Verified traders talk trades"),
  );
  await loadYoga();
  const svg = await withoutStackTraces(() => satori(element, { width, height, fonts, embedFont: false }));
  const image = await renderAsync(svg, {
    fitTo: { mode: "width", value: width },
    font: {
      loadSystemFonts: false,
      fontFiles: [...BASE_FILES, ...files].map(sfntFile),
      defaultFontFamily: "Inter",
    },
    background: "#0c1222",
  });
  return encodePng(image.pixels, image.width, image.height);
}
