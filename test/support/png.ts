/**
 * Reads a PNG as the browsers write their screenshots (8 bits per channel, RGB or RGBA, not interlaced) into its
 * size and pixels, with node:zlib alone, and says whether it shows a page rather than one flat colour
 * (test/e2e/pages-accessibility.test.ts photographs one page per engine and asserts this).
 */
import { inflateSync } from 'node:zlib';

/** A decoded image: `pixels` holds `channels` bytes per pixel, row after row. */
export interface Png {
  width: number;
  height: number;
  channels: 3 | 4;
  pixels: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Decodes `file`; throws naming what it cannot read (another bit depth, a palette, interlacing). */
export function decodePng(file: Buffer): Png {
  if (!file.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG (no PNG signature)');
  let width = 0;
  let height = 0;
  let channels: 3 | 4 = 4;
  const data: Buffer[] = [];
  for (let at = 8; at < file.length;) {
    const length = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    const body = file.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0)
        throw new Error(
          `a PNG this reader does not decode (bit depth ${depth}, colour type ${colour}, interlace ${interlace})`,
        );
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      const byte = line[x]!;
      let value: number;
      if (filter === 0) value = byte;
      else if (filter === 1) value = byte + a;
      else if (filter === 2) value = byte + b;
      else if (filter === 3) value = byte + ((a + b) >> 1);
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        value = byte + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      } else throw new Error(`a PNG row with filter ${filter}`);
      pixels[y * stride + x] = value & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** How many colours an image has, and the share of its pixels that are not its commonest colour. */
export function colourSpread(png: Png): { colours: number; notCommonest: number } {
  const counts = new Map<number, number>();
  const { pixels, channels } = png;
  for (let at = 0; at < pixels.length; at += channels) {
    const colour = (pixels[at]! << 16) | (pixels[at + 1]! << 8) | pixels[at + 2]!;
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  const total = pixels.length / channels;
  const commonest = Math.max(...counts.values());
  return { colours: counts.size, notCommonest: total === 0 ? 0 : (total - commonest) / total };
}
