// A minimal PNG encoder for opaque RGBA pixels (resvg's RenderedImage.pixels). resvg's own
// asPng() took ~25 ms of a ~45 ms card on the main thread; this one copies the rows behind a
// filter byte (~1 ms) and deflates them in the libuv thread pool (~6 ms at level 3, off the
// event loop), and the files come out no larger (filter "None" suits a flat card: per-byte
// filters cost ~20 ms in JavaScript and made the files 15–20% larger, see DECISIONS).
import { promisify } from "node:util";
import zlib from "node:zlib";

const deflate = promisify(zlib.deflate);

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// zlib.crc32 exists from Node 20.15 / 22.2; the table is the fallback for older 20.x.
let table: Uint32Array | undefined;
function crc32(data: Uint8Array): number {
  if (typeof zlib.crc32 === "function") return zlib.crc32(data);
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** The scanlines as PNG wants them: each row of `width × 4` bytes behind a filter-type byte 0. */
export function scanlines(rgba: Uint8Array, width: number, height: number): Buffer {
  const stride = width * 4;
  if (rgba.length !== stride * height) throw new Error(`expected ${stride * height} bytes of RGBA, got ${rgba.length}`);
  const out = Buffer.allocUnsafe((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    out[at] = 0;
    out.set(rgba.subarray(y * stride, (y + 1) * stride), at + 1);
  }
  return out;
}

/**
 * 8-bit RGBA PNG of `rgba` (row-major, 4 bytes a pixel, not premultiplied). resvg's pixels are
 * premultiplied, which is the same thing only for opaque pixels: the card renderer always draws
 * on an opaque background, so every pixel is.
 */
export async function encodePng(rgba: Uint8Array, width: number, height: number, level = 3): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  // compression, filter method and interlace stay 0
  const idat = await deflate(scanlines(rgba, width, height), { level });
  return Buffer.concat([SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", new Uint8Array(0))]);
}
