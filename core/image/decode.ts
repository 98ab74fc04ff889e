/**
 * Images as buffer contents: a PNG or BMP file decoded (fast-png, fast-bmp: pure JavaScript, so this
 * stays free of Node) to 8-bit pixels laid out the way a tensor program reads them — planar (all of
 * the first channel, then the next: ztachip's "split" layout) or interleaved (RGBRGB…), in RGB, BGR or
 * grey. Alpha is dropped; 16-bit samples keep their high byte; a PNG chunk whose CRC does not match is corrupt.
 */
import { decode as decodeBmp } from 'fast-bmp';
import { convertIndexedToRgb, decode as decodePng, hasPngSignature } from 'fast-png';

export type ImageLayout = 'planar' | 'interleaved';
export type ImageChannels = 'rgb' | 'bgr' | 'grey';

export interface DecodedImage {
  width: number;
  height: number;
  /** Channels in `data`: 1 (grey) or 3. */
  channels: 1 | 3;
  /** The pixels as asked: planar or interleaved, RGB, BGR or grey. */
  data: Uint8Array;
}

/** An image file that cannot be decoded; the message names the file. */
export class ImageError extends Error {}

/** The image kind a file name says (by extension), or undefined for other files. */
export function imageKind(file: string): 'png' | 'bmp' | undefined {
  const m = /\.(png|bmp)$/i.exec(file);
  return m ? (m[1].toLowerCase() as 'png' | 'bmp') : undefined;
}

/** Largest image decoded (pixels): a 16k × 16k picture. */
const MAX_PIXELS = 16384 * 16384;

/**
 * Decodes `bytes` of image file `file` (PNG or BMP by its extension) into 8-bit pixels. `channels`
 * defaults to the image's own (grey stays grey, colour becomes RGB); `layout` to planar.
 */
export function decodeImage(file: string, bytes: Uint8Array, opts: { layout?: ImageLayout; channels?: ImageChannels } = {}): DecodedImage {
  const kind = imageKind(file);
  if (!kind) throw new ImageError(`${file}: not a PNG or BMP file name`);
  const src = kind === 'png' ? readPng(file, bytes) : readBmp(file, bytes);
  const want = opts.channels ?? (src.channels === 1 ? 'grey' : 'rgb');
  const layout = opts.layout ?? 'planar';
  const n = src.width * src.height;
  const out = new Uint8Array(n * (want === 'grey' ? 1 : 3));
  const s = src.rgb;
  if (want === 'grey') {
    // ITU-R BT.601 luma in integers (a grey source keeps its values: R = G = B)
    for (let i = 0; i < n; i++) out[i] = (77 * s[3 * i] + 150 * s[3 * i + 1] + 29 * s[3 * i + 2] + 128) >> 8;
    return { width: src.width, height: src.height, channels: 1, data: out };
  }
  const order = want === 'rgb' ? [0, 1, 2] : [2, 1, 0];
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 3; c++) {
      const v = s[3 * i + order[c]];
      if (layout === 'planar') out[c * n + i] = v;
      else out[3 * i + c] = v;
    }
  return { width: src.width, height: src.height, channels: 3, data: out };
}

/** A decoded picture as interleaved RGB (grey replicated), with the channel count of the file. */
interface Rgb {
  width: number;
  height: number;
  channels: 1 | 3;
  rgb: Uint8Array;
}

function readPng(file: string, bytes: Uint8Array): Rgb {
  if (!hasPngSignature(bytes)) throw new ImageError(`${file}: not a PNG image (the first 8 bytes are not the PNG signature)`);
  const png = decoded(file, 'PNG', () => decodePng(bytes, { checkCrc: true }));
  checkSize(file, png.width, png.height);
  let data: ArrayLike<number> = png.data;
  let channels = png.channels;
  let depth: number = png.depth;
  if (png.palette) {
    data = convertIndexedToRgb(png);
    channels = png.palette[0]?.length ?? 3;
    depth = 8;
  }
  return toRgb(file, 'PNG', png.width, png.height, data, channels, depth);
}

function readBmp(file: string, bytes: Uint8Array): Rgb {
  if (bytes.length < 2 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) throw new ImageError(`${file}: not a BMP image (it does not start with "BM")`);
  const bmp = decoded(file, 'BMP', () => decodeBmp(bytes));
  checkSize(file, bmp.width, bmp.height);
  // 1-bit images come as 0/1 samples
  const raw = bmp.data as unknown;
  if (!(raw instanceof Uint8Array)) throw new ImageError(`${file}: BMP image decoded to no pixel data`);
  const data = bmp.bitsPerPixel === 1 ? raw.map((v) => (v ? 255 : 0)) : raw;
  return toRgb(file, 'BMP', bmp.width, bmp.height, data, bmp.channels, 8);
}

/** The decoder's result; what it throws (a truncated or corrupt file) becomes an ImageError naming the file. */
function decoded<T>(file: string, format: string, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    throw new ImageError(`${file}: corrupt ${format} image: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function checkSize(file: string, width: number, height: number): void {
  if (!(width >= 1 && height >= 1 && width * height <= MAX_PIXELS)) throw new ImageError(`${file}: image of ${width}×${height} pixels is empty or too large`);
}

/** Samples of 1–4 channels (grey, grey+alpha, RGB, RGBA) at 8 or 16 bits to interleaved 8-bit RGB. */
function toRgb(file: string, format: string, width: number, height: number, data: ArrayLike<number>, channels: number, depth: number): Rgb {
  const n = width * height;
  if (channels < 1 || channels > 4 || data.length < n * channels)
    throw new ImageError(`${file}: ${format} image with ${channels} channel(s) and ${data.length} samples for ${width}×${height} pixels is not supported`);
  const shift = depth === 16 ? 8 : 0;
  if (depth !== 8 && depth !== 16) throw new ImageError(`${file}: ${format} image of ${depth}-bit samples is not supported (8 or 16 bits)`);
  const rgb = new Uint8Array(3 * n);
  const colour = channels >= 3;
  for (let i = 0; i < n; i++) {
    const base = i * channels;
    for (let c = 0; c < 3; c++) rgb[3 * i + c] = data[base + (colour ? c : 0)] >> shift;
  }
  return { width, height, channels: colour ? 3 : 1, rgb };
}
