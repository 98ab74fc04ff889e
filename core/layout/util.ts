/** Small numeric and formatting helpers shared by the layout models. Plain numbers; callers keep results ≤ 2^53. */

export const cdiv = (a: number, b: number): number => Math.ceil(a / b);
export const roundUp = (a: number, m: number): number => Math.ceil(a / m) * m;

/** Product of a list (1 for an empty list). */
export function prod(xs: readonly number[], from = 0, to = xs.length): number {
  let p = 1;
  for (let i = from; i < to; i++) p *= xs[i];
  return p;
}

/** Row-major strides of a size vector: `s[i] = prod(size[i+1:])`. */
export function rmStrides(size: readonly number[]): number[] {
  const out = new Array<number>(size.length);
  let p = 1;
  for (let i = size.length - 1; i >= 0; i--) {
    out[i] = p;
    p *= size[i];
  }
  return out;
}

/** Row-major digits of `index` over `size` (last digit fastest). */
export function unravel(index: number, size: readonly number[]): number[] {
  const out = new Array<number>(size.length);
  let rem = index;
  for (let i = size.length - 1; i >= 0; i--) {
    const s = size[i];
    out[i] = rem % s;
    rem = Math.floor(rem / s);
  }
  return out;
}

/** Row-major index of a coordinate over `size`. */
export function ravel(coord: readonly number[], size: readonly number[]): number {
  let idx = 0;
  for (let i = 0; i < size.length; i++) idx = idx * size[i] + coord[i];
  return idx;
}

export const isPow2 = (n: number): boolean => n > 0 && Number.isInteger(n) && (n & (n - 1)) === 0 && n <= 2 ** 30;
export const log2i = (n: number): number => 31 - Math.clz32(n);

/** `(1, 2, 3)` */
export const tuple = (xs: readonly number[]): string => `(${xs.join(', ')})`;
/** `[1, 2, 3]` */
export const list = (xs: readonly (number | string)[]): string => `[${xs.join(', ')}]`;
/** 12,345 */
export function num(n: number): string {
  const s = String(n);
  if (!Number.isFinite(n) || s.includes('e') || (n > -1000 && n < 1000)) return s;
  const neg = s[0] === '-';
  const body = neg ? s.slice(1) : s;
  const dot = body.indexOf('.');
  const int = dot < 0 ? body : body.slice(0, dot);
  return (neg ? '-' : '') + int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (dot < 0 ? '' : body.slice(dot));
}
export const hex = (n: number): string => (n < 0 ? '-0x' + (-n).toString(16) : '0x' + n.toString(16));

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
/** `2,048 B`, `32 MiB`, `960.71 KiB`. */
export function bytes(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) < 10240) return `${num(n)} B`;
  let v = n;
  let u = -1;
  while (Math.abs(v) >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const s = Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/\.?0+$/, '');
  return `${s} ${UNITS[u]}`;
}

/** `59.6 %` with one decimal (two below 1 %). */
export function percent(part: number, whole: number): string {
  if (whole === 0) return '0 %';
  const p = (100 * part) / whole;
  if (p === 0 || p === 100) return `${p} %`;
  return `${p < 1 ? p.toFixed(2) : p.toFixed(1)} %`;
}

export const plural = (n: number, word: string, many = word + 's'): string => `${num(n)} ${n === 1 ? word : many}`;

/** Throws when a size computation leaves the exactly representable integer range. */
export function safe(n: number, what: string): number {
  if (!Number.isSafeInteger(n)) throw new LayoutError(`${what} (${n}) is larger than 2^53 and cannot be mapped exactly`);
  return n;
}

/** Error thrown by model constructors when a spec breaks an invariant that the checker should have reported. */
export class LayoutError extends Error {}

/** Coordinate outside the tensor (forward on a bad coordinate). */
export class CoordError extends RangeError {}

/** Checks a coordinate against a shape; returns an explanation or undefined. */
export function coordProblem(coord: readonly number[], shape: readonly number[], names?: readonly (string | undefined)[]): string | undefined {
  if (coord.length !== shape.length) return `the tensor has ${plural(shape.length, 'dimension')} but ${plural(coord.length, 'index', 'indices')} were given`;
  for (let i = 0; i < shape.length; i++) {
    const c = coord[i];
    if (!Number.isInteger(c) || c < 0 || c >= shape[i]) {
      const n = names?.[i] ? `${names[i]} (dimension ${i})` : `dimension ${i}`;
      return `index ${c} is out of range for ${n}: valid is 0..${shape[i] - 1}`;
    }
  }
  return undefined;
}

/** Binary search: the last i with a[i] <= x (a non-decreasing), or -1. */
export function lastLE(a: ArrayLike<number>, x: number, lo = 0, hi = a.length - 1): number {
  let r = lo - 1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if (a[m] <= x) {
      r = m;
      lo = m + 1;
    } else hi = m - 1;
  }
  return r;
}
