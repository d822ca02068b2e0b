import { inflateSync } from 'node:zlib';

/**
 * Just enough of a PNG decoder to look at Chromium's screenshots: 8-bit RGB
 * or RGBA, not interlaced. Returns RGBA pixels.
 */
export interface Image {
  width: number;
  height: number;
  rgba: Uint8Array;
}

export function decodePng(png: Buffer): Image {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  let pos = 8;
  let width = 0;
  let height = 0;
  let colourType = 0;
  const idat: Buffer[] = [];
  while (pos < png.length) {
    const length = png.readUInt32BE(pos);
    const type = png.subarray(pos + 4, pos + 8).toString('latin1');
    const data = png.subarray(pos + 8, pos + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data[8];
      colourType = data[9] ?? 0;
      if (depth !== 8 || (colourType !== 2 && colourType !== 6) || data[12] !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colourType}, interlace ${data[12]})`);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const bpp = colourType === 6 ? 4 : 3;
  const stride = width * bpp;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] ?? 0;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? (cur[i - bpp] ?? 0) : 0;
      const b = prev[i] ?? 0;
      const c = i >= bpp ? (prev[i - bpp] ?? 0) : 0;
      const x = line[i] ?? 0;
      let v: number;
      switch (filter) {
        case 0: v = x; break;
        case 1: v = x + a; break;
        case 2: v = x + b; break;
        case 3: v = x + ((a + b) >> 1); break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
          break;
        }
        default: throw new Error(`bad PNG filter ${filter}`);
      }
      cur[i] = v & 0xff;
    }
    for (let px = 0; px < width; px++) {
      out.set([cur[px * bpp] ?? 0, cur[px * bpp + 1] ?? 0, cur[px * bpp + 2] ?? 0, bpp === 4 ? (cur[px * bpp + 3] ?? 255) : 255], (y * width + px) * 4);
    }
    prev = cur;
  }
  return { width, height, rgba: out };
}

/** How many pixels have exactly this colour. */
export function countColour(img: Image, [r, g, b]: [number, number, number]): number {
  let n = 0;
  for (let i = 0; i < img.rgba.length; i += 4) if (img.rgba[i] === r && img.rgba[i + 1] === g && img.rgba[i + 2] === b) n++;
  return n;
}
