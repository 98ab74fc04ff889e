/**
 * Tensors as pictures: how a memory region is read as an image (u8 grey, RGB/BGR planar or interleaved)
 * or as a heatmap of numbers (a 2-D matrix, or a 2-D slice of an N-D tensor), the colour scale, the
 * pixel ↔ byte mapping the hover and the "changed by this step" outline use, and the difference to a
 * reference file. Plain data in, plain data out: the inspector's Views pane draws what this computes.
 *
 * A view is planned once (`planView`: its shape checked against the region, with a located error when
 * it does not fit) and then rendered from the region's bytes as often as the step changes.
 */
import { decodeNpy } from '../common/npy';
import { decodeImage, imageKind } from '../image/decode';
import { ELEM_BYTES, decode, type ElemType } from './decode';
import type { TensorView } from '../protocol/webview';

export class ViewError extends Error {}

/** A planned view: the picture's size and where each pixel's bytes are in the region. */
export interface ViewPlan {
  mode: 'image' | 'heatmap';
  /** Picture columns and rows. */
  width: number;
  height: number;
  /** 1 (grey, heatmap) or 3 (colour). */
  channels: number;
  planar: boolean;
  /** Memory channel holding red, green, blue (BGR: 2, 1, 0). */
  rgb: [number, number, number];
  dtype: ElemType;
  elemBytes: number;
  /** Byte offset, inside the region, of the picture's first element (a slice of an N-D tensor starts later). */
  base: number;
  /** Elements the picture shows (width × height × channels), in memory order from `base`. */
  count: number;
  /** The tensor's shape as read (for `.npy` export and the title). */
  shape: number[];
  /** One line saying what is shown: `RGB planar 200×100`, `f32 heatmap [2, 64, 64] slice [1]`. */
  describe: string;
}

const prod = (xs: readonly number[]) => xs.reduce((a, b) => a * b, 1);

/**
 * Plans a view of the region [view.offset, view.offset + view.bytes) of a space: the picture's size from
 * `shape` (image: [h, w] grey, [c, h, w] planar, [h, w, c] interleaved; heatmap: the last two dimensions,
 * `slice` picking the leading ones) or from `width`/`height`, checked against the region's bytes.
 * Throws ViewError saying what does not fit, at the region's address.
 */
export function planView(v: TensorView): ViewPlan {
  const where = `${v.label} (${v.space} offset ${v.offset}, ${v.bytes} bytes)`;
  const fail = (msg: string): never => {
    throw new ViewError(`${where}: ${msg}`);
  };
  const shape = v.shape && v.shape.length ? [...v.shape] : undefined;
  if (shape && shape.some((d) => d <= 0)) fail(`shape [${shape.join(', ')}] has an empty dimension`);
  let plan: ViewPlan;
  if (v.mode === 'image') {
    const fmt = v.format ?? (shape && shape.length === 3 ? (shape[0] === 3 ? 'rgb-planar' : 'rgb-interleaved') : 'grey');
    let width = v.width ?? 0;
    let height = v.height ?? 0;
    let channels = fmt === 'grey' ? 1 : 3;
    let planar = fmt.endsWith('planar');
    if (shape) {
      if (shape.length === 2) [height, width] = shape;
      else if (shape.length === 3) {
        // planar [c, h, w] when the first dimension is a channel count and the last is not
        planar = (shape[0] === 1 || shape[0] === 3) && !(shape[2] === 1 || shape[2] === 3) ? true : shape[2] === 1 || shape[2] === 3 ? false : planar;
        [channels, height, width] = planar ? shape : [shape[2], shape[0], shape[1]];
        if (channels !== 1 && channels !== 3) fail(`shape [${shape.join(', ')}] has ${channels} channels: an image has 1 (grey) or 3 (RGB/BGR)`);
        if (fmt === 'grey' && channels === 3) fail(`shape [${shape.join(', ')}] has 3 channels but the format is grey`);
      } else fail(`an image has 2 (h, w) or 3 (channels, h, w or h, w, channels) dimensions, the shape [${shape.join(', ')}] has ${shape.length}`);
    }
    if (!(width > 0 && height > 0)) fail('give the image width and height (or a shape)');
    const bgr = fmt.startsWith('bgr');
    plan = {
      mode: 'image',
      width,
      height,
      channels,
      planar: channels > 1 && planar,
      rgb: channels === 1 ? [0, 0, 0] : bgr ? [2, 1, 0] : [0, 1, 2],
      dtype: 'u8',
      elemBytes: 1,
      base: 0,
      count: width * height * channels,
      shape: channels === 1 ? [height, width] : planar ? [channels, height, width] : [height, width, channels],
      describe: `${channels === 1 ? 'grey' : `${bgr ? 'BGR' : 'RGB'} ${planar ? 'planar' : 'interleaved'}`} ${width}×${height}`,
    };
  } else {
    const dtype = v.dtype ?? 'u8';
    const eb = ELEM_BYTES[dtype];
    let width = v.width ?? 0;
    let height = v.height ?? 0;
    let base = 0;
    let full: number[];
    let sliceText = '';
    if (shape) {
      full = shape;
      if (shape.length === 1) {
        width = width > 0 ? width : shape[0];
        height = Math.ceil(shape[0] / width);
        if (width * height !== shape[0]) fail(`${shape[0]} elements do not make rows of ${width}`);
      } else {
        height = shape[shape.length - 2];
        width = shape[shape.length - 1];
        const lead = shape.slice(0, -2);
        const slice = v.slice ?? [];
        if (slice.length > lead.length)
          fail(`slice [${slice.join(', ')}] has more indices than the ${lead.length} leading dimension(s) of [${shape.join(', ')}]`);
        let at = 0;
        for (let d = 0; d < lead.length; d++) {
          const k = slice[d] ?? 0;
          if (k >= lead[d]) fail(`slice index ${k} is outside dimension ${d} (size ${lead[d]}) of [${shape.join(', ')}]`);
          at = at * lead[d] + k;
        }
        base = at * width * height * eb;
        if (lead.length) sliceText = ` slice [${lead.map((_, d) => slice[d] ?? 0).join(', ')}]`;
      }
    } else {
      if (!(width > 0)) fail('give the heatmap width (or a shape)');
      if (!(height > 0)) height = Math.floor(v.bytes / eb / width);
      if (height <= 0) fail(`the region holds fewer than ${width} ${dtype} elements`);
      full = [height, width];
    }
    plan = {
      mode: 'heatmap',
      width,
      height,
      channels: 1,
      planar: false,
      rgb: [0, 0, 0],
      dtype,
      elemBytes: eb,
      base,
      count: width * height,
      shape: full,
      describe: `${dtype} heatmap [${full.join(', ')}]${sliceText}`,
    };
    const need = prod(full) * eb;
    if (need > v.bytes) fail(`shape [${full.join(', ')}] of ${dtype} needs ${need} bytes, the region has ${v.bytes}`);
  }
  const need = plan.base + plan.count * plan.elemBytes;
  if (need > v.bytes) fail(`${plan.describe} needs ${need} bytes, the region has ${v.bytes}`);
  return plan;
}

/** Byte offset, inside the region, of channel `c` (memory order) of the pixel at column x, row y. */
export function offsetOf(p: ViewPlan, x: number, y: number, c = 0): number {
  const px = y * p.width + x;
  const el = p.channels === 1 ? px : p.planar ? c * p.width * p.height + px : px * p.channels + c;
  return p.base + el * p.elemBytes;
}

/** The pixel (x, y) showing the element at region byte `off` (undefined outside the picture). */
export function pixelOf(p: ViewPlan, off: number): { x: number; y: number } | undefined {
  const el = Math.floor((off - p.base) / p.elemBytes);
  if (el < 0 || el >= p.count) return undefined;
  const n = p.width * p.height;
  const px = p.channels === 1 ? el : p.planar ? el % n : Math.floor(el / p.channels);
  return { x: px % p.width, y: Math.floor(px / p.width) };
}

// ---------------------------------------------------------------------------------------------
// Images

/** RGBA pixels of an image view (u8 channels) from the region's bytes (`bytes[0]` is the region's first byte). */
export function imageRGBA(bytes: Uint8Array, p: ViewPlan, out = new Uint8ClampedArray(p.width * p.height * 4)): Uint8ClampedArray {
  const n = p.width * p.height;
  const b = bytes.subarray(p.base);
  if (p.channels === 1) {
    for (let i = 0, o = 0; i < n; i++, o += 4) {
      const g = b[i];
      out[o] = g;
      out[o + 1] = g;
      out[o + 2] = g;
      out[o + 3] = 255;
    }
    return out;
  }
  const [r, g, bl] = p.rgb;
  if (p.planar) {
    const R = r * n;
    const G = g * n;
    const B = bl * n;
    for (let i = 0, o = 0; i < n; i++, o += 4) {
      out[o] = b[R + i];
      out[o + 1] = b[G + i];
      out[o + 2] = b[B + i];
      out[o + 3] = 255;
    }
  } else {
    for (let i = 0, o = 0, s = 0; i < n; i++, o += 4, s += 3) {
      out[o] = b[s + r];
      out[o + 1] = b[s + g];
      out[o + 2] = b[s + bl];
      out[o + 3] = 255;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Heatmaps

/**
 * The heatmap's values in memory order (row-major over the picture), as float32 (exact for every type but
 * i32/u32 beyond 2^24, which only the colour uses; the hover decodes the exact value from the bytes).
 */
export function heatValues(bytes: Uint8Array, p: ViewPlan, bigEndian = false): Float32Array {
  const n = p.count;
  const start = bytes.byteOffset + p.base;
  const aligned = start % p.elemBytes === 0;
  // f32 in place: a view of the bytes, no copy (a 4096 × 4096 heatmap is 64 MiB)
  if (p.dtype === 'f32' && !bigEndian && aligned) return new Float32Array(bytes.buffer, start, n);
  const out = new Float32Array(n);
  const src = aligned ? bytes : bytes.slice(p.base, p.base + n * p.elemBytes);
  const off = aligned ? start : 0;
  const buf = src.buffer;
  if (!bigEndian) {
    switch (p.dtype) {
      case 'u8':
        out.set(new Uint8Array(buf, off, n));
        return out;
      case 'i8':
        out.set(new Int8Array(buf, off, n));
        return out;
      case 'u16':
        out.set(new Uint16Array(buf, off, n));
        return out;
      case 'i16':
        out.set(new Int16Array(buf, off, n));
        return out;
      case 'u32':
        out.set(new Uint32Array(buf, off, n));
        return out;
      case 'i32':
        out.set(new Int32Array(buf, off, n));
        return out;
      case 'f32':
        out.set(new Float32Array(buf, off, n));
        return out;
    }
  }
  const b = bytes.subarray(p.base);
  for (let i = 0; i < n; i++) out[i] = decode(b, i * p.elemBytes, p.dtype, bigEndian);
  return out;
}

/** Smallest and largest finite value, and how many are not finite (NaN, ±Inf). */
export function valueRange(vals: ArrayLike<number>): { min: number; max: number; nonFinite: number } {
  // fast pass: comparisons with NaN are false, so NaN never becomes min or max; only ±Inf needs the slow pass
  let min = Infinity;
  let max = -Infinity;
  let nan = 0;
  for (let i = 0; i < vals.length; i++) {
    const v = vals[i];
    if (v < min) min = v;
    if (v > max) max = v;
    if (v !== v) nan++;
  }
  if (min !== -Infinity && max !== Infinity) return min > max ? { min: 0, max: 0, nonFinite: nan } : { min, max, nonFinite: nan };
  min = Infinity;
  max = -Infinity;
  let nonFinite = 0;
  for (let i = 0; i < vals.length; i++) {
    const v = vals[i];
    if (v - v !== 0) nonFinite++;
    else {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  if (min > max) return { min: 0, max: 0, nonFinite };
  return { min, max, nonFinite };
}

/** Steps of the colour scale: t = k / SCALE_STEPS for k = 0..SCALE_STEPS. */
export const SCALE_STEPS = 510;
/** Colour of values that are not finite (NaN, ±Inf): magenta, outside the blue–white–red scale. */
export const NON_FINITE_RGB: [number, number, number] = [255, 0, 255];

/**
 * The colour scale, blue (min) → white (middle) → red (max): exact integer channels at each of the
 * SCALE_STEPS + 1 steps, k ≤ 255: (k, k, 255); k ≥ 255: (255, 510 − k, 510 − k).
 */
export function scaleRGB(t: number): [number, number, number] {
  const k = Math.round(Math.max(0, Math.min(1, t)) * SCALE_STEPS);
  return k <= 255 ? [k, k, 255] : [255, SCALE_STEPS - k, SCALE_STEPS - k];
}

let lut: Uint32Array | undefined;
/** The scale as packed little-endian RGBA words (one per step). */
function scaleLut(): Uint32Array {
  if (lut) return lut;
  lut = new Uint32Array(SCALE_STEPS + 1);
  for (let k = 0; k <= SCALE_STEPS; k++) {
    const [r, g, b] = scaleRGB(k / SCALE_STEPS);
    lut[k] = (255 << 24) | (b << 16) | (g << 8) | r;
  }
  return lut;
}

/**
 * RGBA pixels of a heatmap: each value's place between min and max on the scale (all white when min = max).
 * `out` (4 bytes per value, 4-aligned) is reused when given: a 4096 × 4096 picture is 64 MiB.
 */
export function heatRGBA(
  vals: Float32Array,
  min: number,
  max: number,
  out = new Uint8ClampedArray(vals.length * 4),
  /** Every value is finite and in [min, max] (valueRange found no NaN or ±Inf): no checks per value. */
  allFinite = false,
): Uint8ClampedArray {
  const L = scaleLut();
  const words = new Uint32Array(out.buffer, out.byteOffset, vals.length);
  const span = max - min;
  const k = span > 0 ? SCALE_STEPS / span : 0;
  const mid = L[SCALE_STEPS >> 1];
  const bad = (255 << 24) | (NON_FINITE_RGB[2] << 16) | (NON_FINITE_RGB[1] << 8) | NON_FINITE_RGB[0];
  if (k === 0) {
    for (let i = 0; i < vals.length; i++) words[i] = vals[i] - vals[i] === 0 ? mid : bad;
    return out;
  }
  if (allFinite) {
    // (v − min)·k + 0.5 is in [0.5, 510.5]: truncation is the floor
    for (let i = 0; i < vals.length; i++) words[i] = L[((vals[i] - min) * k + 0.5) | 0];
    return out;
  }
  for (let i = 0; i < vals.length; i++) {
    // (v − min)·k + 0.5, floored: Math.round for the non-negative steps; NaN and ±Inf fail the range test
    const s = Math.floor((vals[i] - min) * k + 0.5);
    words[i] = s >= 0 && s <= SCALE_STEPS ? L[s] : bad;
  }
  return out;
}

/** Exact value of an element of the view (for the hover): channel `c` of pixel (x, y). */
export function valueAt(bytes: Uint8Array, p: ViewPlan, x: number, y: number, c = 0, bigEndian = false): number {
  return decode(bytes, offsetOf(p, x, y, c), p.dtype, bigEndian);
}

// ---------------------------------------------------------------------------------------------
// What a step changed

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The pixels showing region bytes [lo, hi) (a step's written range), as at most three rectangles per
 * channel plane (a partial first row, whole rows, a partial last row).
 */
export function rectsOfBytes(p: ViewPlan, lo: number, hi: number): Rect[] {
  const e0 = Math.max(0, Math.floor((lo - p.base) / p.elemBytes));
  const e1 = Math.min(p.count, Math.ceil((hi - p.base) / p.elemBytes));
  if (e1 <= e0) return [];
  const n = p.width * p.height;
  const spans: [number, number][] = [];
  if (p.channels === 1) spans.push([e0, e1]);
  else if (!p.planar) spans.push([Math.floor(e0 / p.channels), Math.ceil(e1 / p.channels)]);
  else for (let c = 0; c < p.channels; c++) spans.push([Math.max(e0, c * n) - c * n, Math.min(e1, (c + 1) * n) - c * n]);
  const out: Rect[] = [];
  const W = p.width;
  for (const [a, b] of spans) {
    if (b <= a) continue;
    const y0 = Math.floor(a / W);
    const y1 = Math.floor((b - 1) / W);
    if (y0 === y1) {
      out.push({ x: a % W, y: y0, w: b - a, h: 1 });
      continue;
    }
    let top = y0;
    if (a % W) {
      out.push({ x: a % W, y: y0, w: W - (a % W), h: 1 });
      top++;
    }
    let bottom = y1;
    if (b % W) {
      out.push({ x: 0, y: y1, w: b % W, h: 1 });
      bottom--;
    }
    if (bottom >= top) out.push({ x: 0, y: top, w: W, h: bottom - top + 1 });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Difference to a reference file

/**
 * The elements of a reference file, in memory order, for a view: a `.npy` (any shape with the view's
 * element count; its values), a PNG or BMP image of the view's size (decoded to its layout and channel
 * order), a raw `.bin` (the view's element type, exactly the view's bytes). Throws ViewError naming the
 * file (and the byte offset of a malformed `.npy`).
 */
export function referenceValues(name: string, file: Uint8Array, p: ViewPlan): ArrayLike<number> {
  const lower = name.toLowerCase();
  if (lower.endsWith('.npy')) {
    let a;
    try {
      a = decodeNpy(file);
    } catch (e) {
      const at = (e as { offset?: number }).offset;
      throw new ViewError(`${name}${at !== undefined ? `: offset ${at}` : ''}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (a.fortranOrder && a.shape.length > 1) throw new ViewError(`${name}: a Fortran-order array is not compared (save it in C order)`);
    if (a.data.length !== p.count)
      throw new ViewError(`${name}: ${a.data.length} elements (shape [${a.shape.join(', ')}]), the view shows ${p.count} (${p.describe})`);
    return a.data;
  }
  if (imageKind(lower)) {
    // decoded to the view's layout: planar or interleaved, RGB, BGR or grey (the luma of a colour file)
    if (p.elemBytes !== 1) throw new ViewError(`${name}: an image compares with 8-bit data, the view shows ${p.dtype}`);
    let img;
    try {
      img = decodeImage(name, file, { layout: p.planar ? 'planar' : 'interleaved', channels: p.channels === 1 ? 'grey' : p.rgb[0] === 2 ? 'bgr' : 'rgb' });
    } catch (e) {
      throw new ViewError(e instanceof Error ? e.message : String(e));
    }
    if (img.width !== p.width || img.height !== p.height)
      throw new ViewError(`${name}: ${img.width}×${img.height} pixels, the view shows ${p.width}×${p.height} (${p.describe})`);
    return img.data;
  }
  const need = p.count * p.elemBytes;
  if (file.length !== need) throw new ViewError(`${name}: ${file.length} bytes, the view's ${p.count} ${p.dtype} elements take ${need}`);
  const out = new Float64Array(p.count);
  for (let i = 0; i < p.count; i++) out[i] = decode(file, i * p.elemBytes, p.dtype);
  return out;
}

/**
 * Where the view's elements (memory order, as `viewVals`) differ from the reference's: the count of differing
 * elements and a per-pixel mask (1 where any of the pixel's channels differs). NaN equals NaN.
 */
export function diffMask(p: ViewPlan, viewVals: ArrayLike<number>, refVals: ArrayLike<number>): { count: number; pixels: number; mask: Uint8Array } {
  const n = p.width * p.height;
  const mask = new Uint8Array(n);
  let count = 0;
  let pixels = 0;
  for (let i = 0; i < p.count; i++) {
    const a = viewVals[i];
    const b = refVals[i];
    if (a === b || (a !== a && b !== b)) continue;
    count++;
    const px = p.channels === 1 ? i : p.planar ? i % n : Math.floor(i / p.channels);
    if (!mask[px]) pixels++;
    mask[px] = 1;
  }
  return { count, pixels, mask };
}

/** The view's elements in memory order as numbers (image bytes or heatmap values), for the diff. */
export function viewValues(bytes: Uint8Array, p: ViewPlan, bigEndian = false): ArrayLike<number> {
  if (p.mode === 'image') return bytes.subarray(p.base, p.base + p.count);
  if (p.elemBytes < 4 || p.dtype === 'f32') return heatValues(bytes, p, bigEndian);
  // 32-bit integers: exact (float32 would merge neighbours above 2^24)
  const out = new Float64Array(p.count);
  for (let i = 0; i < p.count; i++) out[i] = decode(bytes, p.base + i * p.elemBytes, p.dtype, bigEndian);
  return out;
}
