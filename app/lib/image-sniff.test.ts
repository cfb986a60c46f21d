import { describe, expect, it } from "vitest";
import { sniffImage } from "./image-sniff";

// A real 2×3 PNG and a 1×1 WebP (lossless), as bytes.
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR42mP8z8DwnwEJMCJzAE0SA/3Z0O4QAAAAAElFTkSuQmCC",
  "base64",
);
const webp = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
const jpegHeader = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x20, 0x00, 0x40, 0x03, 0, 0, 0,
  0, 0, 0,
]);

describe("sniffImage", () => {
  it("reads PNG, JPEG and WebP types and sizes from their bytes", () => {
    expect(sniffImage(png)).toEqual({ mime: "image/png", width: 2, height: 3 });
    expect(sniffImage(jpegHeader)).toEqual({ mime: "image/jpeg", width: 64, height: 32 });
    expect(sniffImage(webp)).toEqual({ mime: "image/webp", width: 1, height: 1 });
  });
  it("refuses anything else, whatever it claims to be", () => {
    expect(sniffImage(Buffer.from("GIF89a......"))).toBeNull();
    expect(sniffImage(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImage(png.subarray(0, 10))).toBeNull();
  });
});
