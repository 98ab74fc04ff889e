/**
 * Typed decoding and formatting of memory bytes for the memory inspector: u8 i8 u16 i16 u32 i32,
 * fp16, bf16, fp32 and 12-bit PCORE words (stored as 2-byte little-endian int16), in either byte
 * order, in hex/decimal/octal/binary. Pure functions; the webview and the extension both use them.
 */
import type { ElemType } from '../protocol/webview';

export type { ElemType };
export type Radix = 'hex' | 'dec' | 'oct' | 'bin';
export const RADIXES: readonly Radix[] = ['hex', 'dec', 'oct', 'bin'];

export const ELEM_BYTES: Record<ElemType, number> = { u8: 1, i8: 1, u16: 2, i16: 2, w12: 2, f16: 2, bf16: 2, u32: 4, i32: 4, f32: 4 };
/** Significant bits of the raw pattern (what hex/oct/bin show). */
export const ELEM_BITS: Record<ElemType, number> = { u8: 8, i8: 8, u16: 16, i16: 16, w12: 12, f16: 16, bf16: 16, u32: 32, i32: 32, f32: 32 };
export const ELEM_LABEL: Record<ElemType, string> = {
  u8: 'u8',
  i8: 'i8',
  u16: 'u16',
  i16: 'i16',
  w12: '12-bit word',
  f16: 'fp16',
  bf16: 'bf16',
  u32: 'u32',
  i32: 'i32',
  f32: 'fp32',
};
export const isFloatType = (t: ElemType): boolean => t === 'f16' || t === 'bf16' || t === 'f32';
export const isSignedType = (t: ElemType): boolean => t === 'i8' || t === 'i16' || t === 'i32' || t === 'w12';

// ---------------------------------------------------------------------------------------------
// Half and bfloat16

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Value of IEEE binary16 bits. */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/** binary16 bits of a number, rounded to nearest even (overflow → ±Inf, NaN → 0x7e00). */
export function floatToHalf(v: number): number {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  let a = Math.abs(v);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  // subnormal range: multiples of 2^-24
  if (a < 2 ** -14) {
    const q = a / 2 ** -24;
    let m = Math.floor(q);
    const r = q - m;
    if (r > 0.5 || (r === 0.5 && m & 1)) m++;
    return sign | m; // m may reach 1024 = smallest normal, which is the right encoding
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  a = a / 2 ** e - 1; // fraction in [0, 1)
  const q = a * 1024;
  let m = Math.floor(q);
  const r = q - m;
  if (r > 0.5 || (r === 0.5 && m & 1)) m++;
  if (m === 1024) {
    m = 0;
    e++;
  }
  if (e > 15) return sign | 0x7c00;
  return sign | ((e + 15) << 10) | m;
}

export function bf16ToFloat(b: number): number {
  u32[0] = (b & 0xffff) << 16;
  return f32[0];
}

/** bfloat16 bits of a number: float32 rounded to nearest even in the upper half (NaN kept quiet). */
export function floatToBf16(v: number): number {
  f32[0] = v;
  const x = u32[0];
  if (Number.isNaN(f32[0])) return ((x >>> 16) | 0x40) & 0xffff;
  const lower = x & 0xffff;
  let upper = x >>> 16;
  if (lower > 0x8000 || (lower === 0x8000 && upper & 1)) upper++;
  return upper & 0xffff;
}

export function f32Bits(v: number): number {
  f32[0] = v;
  return u32[0];
}

export function bitsToF32(b: number): number {
  u32[0] = b >>> 0;
  return f32[0];
}

/** Signed value of a 12-bit word held in the low bits of `w`. */
export const word12 = (w: number): number => ((w & 0xfff) ^ 0x800) - 0x800;

// ---------------------------------------------------------------------------------------------
// Reading

/** The unsigned bit pattern of the element at `off` (as many bytes as the type has). */
export function rawBits(b: Uint8Array, off: number, t: ElemType, bigEndian = false): number {
  const n = ELEM_BYTES[t];
  let v = 0;
  if (n === 1) return b[off];
  if (bigEndian) for (let i = 0; i < n; i++) v = v * 256 + b[off + i];
  else for (let i = n - 1; i >= 0; i--) v = v * 256 + b[off + i];
  if (t === 'w12') v &= 0xfff;
  return v;
}

/** Numeric value of the element at `off`. */
export function decode(b: Uint8Array, off: number, t: ElemType, bigEndian = false): number {
  const r = rawBits(b, off, t, bigEndian);
  switch (t) {
    case 'u8':
    case 'u16':
    case 'u32':
      return r;
    case 'i8':
      return (r << 24) >> 24;
    case 'i16':
      return (r << 16) >> 16;
    case 'i32':
      return r | 0;
    case 'w12':
      return word12(r);
    case 'f16':
      return halfToFloat(r);
    case 'bf16':
      return bf16ToFloat(r);
    case 'f32':
      return bitsToF32(r);
  }
}

// ---------------------------------------------------------------------------------------------
// Formatting

const RADIX_BASE: Record<Radix, number> = { hex: 16, dec: 10, oct: 8, bin: 2 };
const digitsFor = (bits: number, r: Radix): number =>
  r === 'hex' ? Math.ceil(bits / 4) : r === 'oct' ? Math.ceil(bits / 3) : r === 'bin' ? bits : Math.ceil(bits * Math.log10(2));

/** A byte as shown in the data column: `0f`, `015`, `017`, `00001111`. */
export function formatByte(v: number, r: Radix = 'hex'): string {
  return v.toString(RADIX_BASE[r]).padStart(r === 'bin' ? 8 : r === 'hex' ? 2 : 3, '0');
}

/** Text width of a byte cell in a radix. */
export const byteChars = (r: Radix): number => (r === 'bin' ? 8 : r === 'hex' ? 2 : 3);

/** Shortest decimal text that reads back to the same float of the type. */
export function formatFloat(v: number, t: 'f16' | 'bf16' | 'f32'): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const maxP = t === 'f32' ? 9 : t === 'f16' ? 5 : 4;
  const same =
    t === 'f32'
      ? (x: number) => Math.fround(x) === v
      : t === 'f16'
        ? (x: number) => floatToHalf(x) === floatToHalf(v)
        : (x: number) => floatToBf16(x) === floatToBf16(v);
  let p = 1;
  while (p < maxP && !same(Number(v.toPrecision(p)))) p++;
  const a = Math.abs(v);
  if (a >= 1e7 || a < 1e-4) {
    // 1.5e-7, -3.4028235e38
    const [m, e] = v.toExponential(p - 1).split('e');
    return `${m.includes('.') ? m.replace(/\.?0+$/, '') : m}e${e.replace('+', '')}`;
  }
  return String(Number(v.toPrecision(p)));
}

/** The element at `off` as text: floats in decimal, integers in `radix` (non-decimal radixes show the raw bits). */
export function formatValue(b: Uint8Array, off: number, t: ElemType, bigEndian = false, radix: Radix = 'dec'): string {
  if (isFloatType(t)) return formatFloat(decode(b, off, t, bigEndian), t as 'f16' | 'bf16' | 'f32');
  if (radix === 'dec') return String(decode(b, off, t, bigEndian));
  const bits = ELEM_BITS[t];
  return rawBits(b, off, t, bigEndian).toString(RADIX_BASE[radix]).padStart(digitsFor(bits, radix), '0');
}

/** Characters a typed value may need (for column widths). */
export function valueChars(t: ElemType, radix: Radix): number {
  if (t === 'f32') return 14;
  if (t === 'f16' || t === 'bf16') return 10;
  if (radix !== 'dec') return digitsFor(ELEM_BITS[t], radix);
  return { u8: 3, i8: 4, u16: 5, i16: 6, w12: 5, u32: 10, i32: 11 }[t as 'u8'];
}

/** An address in `radix`, padded to `digits` (hex digits default). */
export function formatAddress(a: number, digits = 8, radix: 'hex' | 'dec' = 'hex'): string {
  return radix === 'hex' ? a.toString(16).padStart(digits, '0') : String(a).padStart(digits, ' ');
}

/** Hex digits needed for addresses below `end`. */
export const addressDigits = (end: number): number => Math.max(4, Math.ceil(Math.log2(Math.max(2, end)) / 4));

/** The ASCII column's character for a byte. */
export const asciiChar = (v: number): string => (v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : '.');

// ---------------------------------------------------------------------------------------------
// Parsing and encoding

/** A number as typed by a user: `0x1f`, `0b101`, `0o17`, `-12`, `1_000`, `1.5e3`. Undefined when not a number. */
export function parseNumber(text: string): number | undefined {
  const t = text.trim().replace(/_/g, '');
  if (!t) return undefined;
  const m = /^([+-]?)0([xob])([0-9a-f]+)$/i.exec(t);
  if (m) {
    const base = { x: 16, o: 8, b: 2 }[m[2].toLowerCase() as 'x'];
    const digits = m[3].toLowerCase();
    const valid = base === 16 ? /^[0-9a-f]+$/ : base === 8 ? /^[0-7]+$/ : /^[01]+$/;
    if (!valid.test(digits)) return undefined;
    const v = parseInt(digits, base);
    return m[1] === '-' ? -v : v;
  }
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return Number(t);
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(t)) return NaN;
  return undefined;
}

const RANGE: Partial<Record<ElemType, [number, number]>> = {
  u8: [0, 255],
  i8: [-128, 255],
  u16: [0, 65535],
  i16: [-32768, 65535],
  w12: [-2048, 4095],
  u32: [0, 2 ** 32 - 1],
  i32: [-(2 ** 31), 2 ** 32 - 1],
};

/** Bytes of a value of type `t` (integers may be given signed or as raw unsigned bits). Throws RangeError with a message for users. */
export function encodeValue(v: number, t: ElemType, bigEndian = false): Uint8Array {
  const n = ELEM_BYTES[t];
  let bits: number;
  if (isFloatType(t)) {
    bits = t === 'f16' ? floatToHalf(v) : t === 'bf16' ? floatToBf16(v) : f32Bits(v);
  } else {
    if (!Number.isInteger(v)) throw new RangeError(`${v} is not an integer`);
    const [lo, hi] = RANGE[t]!;
    if (v < lo || v > hi) throw new RangeError(`${v} does not fit ${ELEM_LABEL[t]} (${lo}..${hi})`);
    // 12-bit words are stored sign-extended in 16 bits (the simulator's Int16Array)
    if (t === 'w12') v = word12(v) & 0xffff;
    bits = v < 0 ? v + 2 ** (8 * n) : v;
  }
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const byte = Math.floor(bits / 2 ** (8 * i)) & 0xff;
    out[bigEndian ? n - 1 - i : i] = byte;
  }
  return out;
}

export type SearchMode = ElemType | 'hex' | 'ascii';

export interface SearchPattern {
  pattern: Uint8Array;
  /** Per-byte bit mask (undefined = every bit matters). */
  mask?: Uint8Array;
  /** Element size the match should be aligned to (1 = anywhere). */
  align: number;
}

/**
 * A search pattern from user text:
 * - `hex`: bytes `de ad be ef` or `deadbeef`; `??` matches any byte;
 * - `ascii`: the characters' codes;
 * - a type: one or more values separated by spaces or commas (`1.5 2`), in the given byte order.
 * 12-bit words match on their low 12 bits.
 */
export function parseSearch(text: string, mode: SearchMode, bigEndian = false): SearchPattern {
  const t = text.trim();
  if (!t) throw new RangeError('nothing to search for');
  if (mode === 'ascii') {
    const out = new Uint8Array(t.length);
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c > 0xff) throw new RangeError(`"${t[i]}" is not a byte character`);
      out[i] = c;
    }
    return { pattern: out, align: 1 };
  }
  if (mode === 'hex') {
    const groups = t.includes(' ') || t.includes(',') ? t.split(/[\s,]+/) : (t.replace(/^0x/i, '').match(/.{1,2}/g) ?? []);
    const tokens: string[] = [];
    for (const g of groups) {
      const h = g.replace(/^0x/i, '');
      if (h.length > 2 && h.length % 2 === 0) tokens.push(...h.match(/.{2}/g)!);
      else tokens.push(h);
    }
    const pattern = new Uint8Array(tokens.length);
    const mask = new Uint8Array(tokens.length);
    let anyMask = false;
    tokens.forEach((tok, i) => {
      if (tok === '??' || tok === '?') {
        anyMask = true;
        return;
      }
      if (!/^[0-9a-f]{1,2}$/i.test(tok)) throw new RangeError(`"${tok}" is not a hex byte`);
      pattern[i] = parseInt(tok, 16);
      mask[i] = 0xff;
    });
    return { pattern, mask: anyMask ? mask : undefined, align: 1 };
  }
  const parts = t.split(/[\s,]+/).filter(Boolean);
  const n = ELEM_BYTES[mode];
  const pattern = new Uint8Array(parts.length * n);
  parts.forEach((p, i) => {
    const v = parseNumber(p);
    if (v === undefined) throw new RangeError(`"${p}" is not a number`);
    pattern.set(encodeValue(v, mode, bigEndian), i * n);
  });
  let mask: Uint8Array | undefined;
  if (mode === 'w12') {
    mask = new Uint8Array(pattern.length);
    for (let i = 0; i < parts.length; i++) {
      mask[i * 2 + (bigEndian ? 1 : 0)] = 0xff;
      mask[i * 2 + (bigEndian ? 0 : 1)] = 0x0f;
    }
  }
  return { pattern, mask, align: 1 };
}
