import zlib from "node:zlib";
import { renderAsync } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { encodePng } from "./png.server";

/** The chunks of a PNG, each with its CRC checked. */
function chunks(png: Buffer) {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const out: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), `${type} CRC`).toBe(zlib.crc32(png.subarray(at + 4, at + 8 + length)));
    out.push({ type, data });
    at += 12 + length;
  }
  return out;
}

/** Decodes what encodePng writes (8-bit RGBA, filter type 0 on every row) back to pixels. */
function decode(png: Buffer) {
  const list = chunks(png);
  expect(list.map((c) => c.type)).toEqual(["IHDR", "IDAT", "IEND"]);
  const ihdr = list[0]!.data;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  expect([...ihdr.subarray(8)]).toEqual([8, 6, 0, 0, 0]);
  const raw = zlib.inflateSync(list[1]!.data);
  expect(raw.length).toBe((width * 4 + 1) * height);
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width * 4 + 1)]).toBe(0);
    raw.copy(pixels, y * width * 4, y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1));
  }
  return { width, height, pixels };
}

describe("encodePng", () => {
  it("round-trips RGBA pixels exactly, with valid chunk CRCs", async () => {
    const width = 7;
    const height = 5;
    const rgba = Buffer.alloc(width * height * 4);
    for (let i = 0; i < rgba.length; i++) rgba[i] = (i * 37) & 255;
    const png = await encodePng(rgba, width, height);
    const back = decode(png);
    expect({ width: back.width, height: back.height }).toEqual({ width, height });
    expect(back.pixels.equals(rgba)).toBe(true);
  });

  it("refuses a pixel buffer of the wrong size", async () => {
    await expect(encodePng(Buffer.alloc(10), 2, 2)).rejects.toThrow(/RGBA/);
  });

  it("encodes what resvg draws on an opaque background without changing a pixel", async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><circle cx="30" cy="30" r="25" fill="#f5c542" fill-opacity="0.6"/><text x="60" y="40">x</text><path d="M70 10l30 40H70z" fill="#22d3ee"/></svg>';
    const image = await renderAsync(svg, { background: "#0c1222", font: { loadSystemFonts: false } });
    const pixels = image.pixels;
    // Premultiplied and straight alpha agree only on opaque pixels: the background makes them all so.
    for (let i = 3; i < pixels.length; i += 4) expect(pixels[i]).toBe(255);
    const back = decode(await encodePng(pixels, image.width, image.height));
    expect(back.pixels.equals(pixels)).toBe(true);
  });
});
