/** Exporting a memory range: raw .bin, NumPy .npy of the chosen element type, and hex-dump text. */
import { encodeNpy, type NpyDtype } from '../common/npy';
import { ELEM_BYTES, asciiChar, decode, formatAddress, addressDigits, type ElemType } from './decode';

export type ExportFormat = 'bin' | 'npy' | 'hex';

/**
 * NumPy dtype each element type is written as. fp16 keeps its exact bits as `<f2`; bf16 (no NumPy
 * dtype) is widened to `<f4` exactly; 12-bit words are `<i2` values in −2048..2047.
 */
export const NPY_DTYPE: Record<ElemType, NpyDtype | 'f2'> = {
  u8: 'u1',
  i8: 'i1',
  u16: 'u2',
  i16: 'i2',
  w12: 'i2',
  f16: 'f2',
  bf16: 'f4',
  u32: 'u4',
  i32: 'i4',
  f32: 'f4',
};

/**
 * `.npy` bytes of `bytes` read as elements of `type` (a trailing partial element is dropped), 1-D or of
 * `shape` when its element count is the bytes' (a picture exported from the Views pane).
 */
export function toNpy(bytes: Uint8Array, type: ElemType, bigEndian = false, shape?: readonly number[]): Uint8Array {
  const el = ELEM_BYTES[type];
  const n = Math.floor(bytes.length / el);
  const dims = shape && shape.length && shape.reduce((a, b) => a * b, 1) === n ? shape : [n];
  const dt = NPY_DTYPE[type];
  if (dt === 'f2') {
    // fp16: write the raw bits as <u2 and relabel the header: '<u2' and '<f2' have the same length
    const bits = new Uint16Array(n);
    for (let i = 0; i < n; i++) bits[i] = bigEndian ? (bytes[2 * i] << 8) | bytes[2 * i + 1] : bytes[2 * i] | (bytes[2 * i + 1] << 8);
    const out = encodeNpy({ dtype: 'u2', shape: dims, data: bits });
    const at = findAscii(out, "'<u2'");
    out[at + 2] = 'f'.charCodeAt(0);
    return out;
  }
  const data = new Float64Array(n);
  for (let i = 0; i < n; i++) data[i] = decode(bytes, i * el, type, bigEndian);
  return encodeNpy({ dtype: dt, shape: dims, data });
}

function findAscii(b: Uint8Array, s: string): number {
  outer: for (let i = 0; i + s.length <= Math.min(b.length, 256); i++) {
    for (let k = 0; k < s.length; k++) if (b[i + k] !== s.charCodeAt(k)) continue outer;
    return i;
  }
  throw new Error(`npy header lacks ${s}`);
}

/**
 * Hex dump text: `ADDRESS: xx xx … |ascii|` lines of `width` bytes. `address` is the address of
 * bytes[0] in units of `unitBytes` (PCORE words: 2).
 */
export function toHexText(bytes: Uint8Array, address = 0, opts: { width?: number; unitBytes?: number; ascii?: boolean } = {}): string {
  const width = opts.width ?? 16;
  const unit = opts.unitBytes ?? 1;
  const digits = addressDigits(address + Math.ceil(bytes.length / unit));
  const lines: string[] = [];
  for (let r = 0; r < bytes.length; r += width) {
    const row = bytes.subarray(r, Math.min(bytes.length, r + width));
    let hex = '';
    let text = '';
    for (let i = 0; i < width; i++) {
      if (i) hex += i % 8 === 0 ? '  ' : ' ';
      hex += i < row.length ? row[i].toString(16).padStart(2, '0') : '  ';
      if (i < row.length) text += asciiChar(row[i]);
    }
    lines.push(`${formatAddress(address + r / unit, digits)}: ${hex}${opts.ascii === false ? '' : `  |${text}|`}`.trimEnd());
  }
  return lines.join('\n') + '\n';
}

/** File bytes for an export. */
export function exportBytes(
  bytes: Uint8Array,
  format: ExportFormat,
  opts: { type?: ElemType; bigEndian?: boolean; address?: number; width?: number; unitBytes?: number; shape?: readonly number[] } = {},
): Uint8Array {
  if (format === 'bin') return bytes.slice();
  if (format === 'npy') return toNpy(bytes, opts.type ?? 'u8', opts.bigEndian, opts.shape);
  return new TextEncoder().encode(toHexText(bytes, opts.address ?? 0, opts));
}

/** A file name for an export: `MEM_0x1000_256.npy`. */
export function exportName(space: string, address: number, length: number, format: ExportFormat, type?: ElemType): string {
  const safe = space.replace(/[^\w.-]+/g, '_');
  const ext = format === 'hex' ? 'txt' : format;
  return `${safe}_0x${address.toString(16)}_${length}${format === 'npy' && type ? `_${type}` : ''}.${ext}`;
}
