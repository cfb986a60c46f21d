import { renderAsync } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import type { CardData } from "./layout";
import { inlineSvgImages, renderCardPng, renderCardSvg, unclipFittingText } from "./render.server";

const data: CardData = {
  format: "link",
  product: "Grader",
  name: "Иван Петров",
  username: "ivan",
  initials: "ИП",
  avatar: null,
  tier: "Gold",
  tierColor: "#f5c542",
  score: 72,
  stars: { overall: 4, profitability: 4, riskControl: 3, consistency: 5, discipline: 2, experience: 3 },
  figures: [
    { label: "Time-weighted return", value: "+12.3%", tone: "up" },
    { label: "Max drawdown", value: "\u22128.1%", tone: "down" },
    { label: "Win rate", value: "55.0%", tone: "flat" },
    { label: "Money-weighted return", value: "+9.9%", tone: "up" },
  ],
  verdict: "+6.2%/yr over the S&P 500 at similar risk (alpha).",
  date: "Nov 22, 2026",
  code: "GR-ABCD-EFGH",
  verifyHost: "grader.example/verify",
  showAmounts: false,
  demo: false,
  selfReported: false,
};

const pixels = async (svg: string, fontFiles: string[]) =>
  (await renderAsync(svg, { font: { loadSystemFonts: false, fontFiles }, background: "#000" })).pixels;

describe("the card renderer", () => {
  it("leaves the text to resvg, with the bundled fonts the name needs", async () => {
    const { svg, fontFiles } = await renderCardSvg(data);
    expect(svg).toContain(">Петров<");
    expect(svg).not.toMatch(/<text[^>]*font-family="(?!inter")/i);
    expect(fontFiles.some((f) => /inter-latin-800-normal\.ttf$/.test(f))).toBe(true);
    expect(fontFiles.some((f) => /inter-cyrillic-700-normal\.ttf$/.test(f))).toBe(true);
  });

  it("says how the record compares with the market, on both formats, and nothing when there is no benchmark", async () => {
    for (const format of ["link", "story"] as const) {
      const { svg } = await renderCardSvg({ ...data, format });
      expect(svg).toContain(">similar<");
      expect(svg).toContain(">6.2<");
      const { svg: without } = await renderCardSvg({ ...data, format, verdict: null });
      expect(without).not.toContain(">similar<");
    }
  });

  it("nests the shield and star rows as <svg> elements instead of Satori's data: URI images", async () => {
    const { svg } = await renderCardSvg(data);
    expect(svg).not.toContain("<image");
    expect(svg.match(/<svg /g)).toHaveLength(1 + 1 + 6); // the card, the shield, six star rows
    const odd =
      '<image x="1" y="2" width="3" height="4" href="data:image/svg+xml;utf8,%3Cg%3E" preserveAspectRatio="none"/>';
    expect(inlineSvgImages(odd)).toBe(odd);
  });

  it("drops the clip only from words that lie inside their clip box", async () => {
    const { svg } = await renderCardSvg(data);
    expect(svg).not.toMatch(/<text [^>]*clip-path/);
    const clip = '<clipPath id="satori_cp-id-1"><rect x="10" y="20" width="100" height="30"/></clipPath>';
    const word = (x: number, width: number, y = 40) =>
      `<text x="${x}" y="${y}" width="${width}" height="30" font-size="20" clip-path="url(#satori_cp-id-1)" fill="#fff">w</text>`;
    expect(unclipFittingText(clip + word(10, 100))).toBe(
      clip + word(10, 100).replace(' clip-path="url(#satori_cp-id-1)"', ""),
    );
    for (const overflowing of [word(10, 120), word(5, 50), word(10, 50, 70)])
      expect(unclipFittingText(clip + overflowing)).toBe(clip + overflowing);
  });

  it('lets resvg find Inter ExtraBold as Inter 800 (its file names the family "Inter ExtraBold")', async () => {
    const { fontFiles } = await renderCardSvg(data);
    const text = (weight: number) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="60"><text x="5" y="45" font-family="inter" font-weight="${weight}" font-size="40" fill="#fff">Gold 72</text></svg>`;
    const extraBold = fontFiles.filter((f) => f.includes("-800-"));
    const bold = fontFiles.filter((f) => f.includes("-700-"));
    const withAll = await pixels(text(800), fontFiles);
    expect(withAll.equals(await pixels(text(800), extraBold))).toBe(true);
    expect(withAll.equals(await pixels(text(700), bold))).toBe(false);
  });

  it("restores stack traces after concurrent renders (they are off while Satori runs)", async () => {
    const limit = Error.stackTraceLimit;
    await Promise.all([
      renderCardSvg(data),
      renderCardSvg({ ...data, name: "Sam Lee" }),
      renderCardSvg({ ...data, format: "story" }),
    ]);
    expect(Error.stackTraceLimit).toBe(limit);
    // An avatar Satori cannot decode makes it throw midway.
    await expect(renderCardSvg({ ...data, avatar: "data:image/png;base64,AAAA" })).rejects.toThrow();
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it("draws a PNG of exactly the card's size", async () => {
    const png = await renderCardPng(data);
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
    expect(png.length).toBeLessThan(150 * 1024);
  });
});
