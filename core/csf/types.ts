/**
 * Shared types and constants of the `.csfbin` engine (CROSS-mini sparse tensor files).
 *
 * A `.csfbin` file holds an order-n tensor as CSR over `x.reshape(F, shape[n-1])`: every fiber is a 1-D
 * slice along the last mode, F = Π shape[0..n-2] fibers in row-major order, each a sorted list of
 * (index: u32, value: f32) entries. All fields are little-endian u32/f32; see `codec.ts` for the layout.
 * Plain TypeScript: no `vscode`, no Node `Buffer`; works in Node, browsers and web workers.
 */
import type { Diagnostic, Range } from '../common/diagnostic';

/** The simulator's `MAX_ORDER` (types.h): default limit on a tensor's order. */
export const DEFAULT_MAX_ORDER = 10;
/** Words of the simulator's metadata memory (`Control::metadata`, control.h). */
export const DEFAULT_META_CAPACITY = 1024;
/** Entries of the simulator's main memory (`MEMORY_SIZE`, types.h). */
export const DEFAULT_MAIN_CAPACITY = 10_000_000;
/** Index of an unwritten `fiber_entry` (−1 as `sc_int<32>`): the simulator's empty-slot marker, never data. */
export const EMPTY_SENTINEL = 0xffffffff;
/** Largest u32. */
export const U32_MAX = 0xffffffff;
/** Largest last extent a writer may emit (indices must fit Python's signed `<i` packing). */
export const MAX_LAST_EXTENT = 0x80000000;

/** Stable codes of every problem the engine reports. */
export type CsfCode =
  // validation of a file (formats.md §A.4, rule in `CsfIssue.rule`)
  | 'csf.truncated-header' // V1, V4, V6 (nnz field)
  | 'csf.bad-order' // V2
  | 'csf.order-too-large' // V3
  | 'csf.count-overflow' // V5
  | 'csf.truncated-entries' // V6
  | 'csf.pointer-count-mismatch' // V7
  | 'csf.truncated-pointers' // V8
  | 'csf.trailing-bytes' // V9
  | 'csf.first-pointer-nonzero' // V10
  | 'csf.last-pointer-mismatch' // V11
  | 'csf.non-monotone-pointers' // V12
  | 'csf.empty-sentinel' // V13
  | 'csf.index-out-of-range' // V14
  | 'csf.duplicate-index' // V15
  | 'csf.unsorted-index' // V15
  // writer (formats.md §A.5)
  | 'csf.bad-shape'
  | 'csf.bad-tensor'
  | 'csf.value-overflow'
  // accelerator memories (§A.7)
  | 'csf.meta-capacity'
  | 'csf.main-capacity'
  | 'csf.pointer-overflow'
  | 'csf.bad-address'
  | 'csf.bad-coordinate'
  // contraction
  | 'csf.contract-extent-mismatch'
  | 'csf.contract-scalar-result'
  | 'csf.contract-order-too-large'
  | 'csf.contract-order1-operand'
  // .npy
  | 'npy.bad-magic'
  | 'npy.unsupported-version'
  | 'npy.truncated'
  | 'npy.bad-header'
  | 'npy.unsupported-dtype'
  | 'npy.fortran-order'
  | 'npy.scalar'
  | 'npy.size-mismatch'
  | 'npy.too-large';

/** One problem, located by byte offset in the file it is about (absent when it is about no file byte). */
export interface CsfIssue {
  code: CsfCode;
  severity: 'error' | 'warning';
  /** The rule of formats.md §A.4 (`V1`…`V15`) for file validation; absent otherwise. */
  rule?: string;
  /** Byte offset of the offending field in the file. */
  offset?: number;
  /** Bytes of the offending field (0 when the field is missing entirely). */
  length?: number;
  /** What was expected and what was found. */
  message: string;
}

/** An error carrying a `CsfIssue`; thrown only by APIs fed by the program (writers), never by readers of bytes. */
export class CsfError extends Error {
  constructor(readonly issue: CsfIssue) {
    super(issue.message);
    this.name = 'CsfError';
  }
}

/** Header facts of a file or tensor. */
export interface CsfHeader {
  order: number;
  shape: number[];
  /** Entries stored (explicit zeros included). */
  nnz: number;
  /** Number of fibers F = Π shape[0..n-2] (1 for order 1). */
  fibers: number;
  /** nnz / Π shape (0 when the tensor has no elements). */
  density: number;
}

/**
 * A tensor held in memory in the file's fibered form. `bits` and `values` alias the same memory: `bits` is
 * the raw f32 bit pattern (exact, NaN payloads included), `values` the same as numbers.
 */
export interface CsfTensor {
  shape: number[];
  /** F+1 entry pointers, `ptr[0] = 0`, `ptr[F] = nnz`; fiber i is entries [ptr[i], ptr[i+1]). */
  ptr: Uint32Array;
  /** Index along the last mode of each entry. */
  indices: Uint32Array;
  bits: Uint32Array;
  values: Float32Array;
}

export type Result<T> = ({ ok: true } & T) | { ok: false; issues: CsfIssue[] };

/** True on little-endian hosts (all current JS engines); typed-array word views assume it. */
export { HOST_LITTLE_ENDIAN } from '../common/endian';

/** Number of fibers for a shape, or `undefined` if F + 1 does not fit a u32 (rule V5). Order 1 gives 1. */
export function fiberCount(shape: readonly number[]): number | undefined {
  let f = 1;
  let zero = false;
  for (let k = 0; k < shape.length - 1; k++) {
    if (shape[k] === 0) zero = true;
    else f = Math.min(f * shape[k], 2 ** 40);
  }
  if (zero) return 0;
  return f + 1 > U32_MAX ? undefined : f;
}

/** Π shape exactly (extents are integers), for messages: `elementCount` is not exact past 2^53 and stops at 2^60. */
export function exactProduct(shape: readonly number[]): bigint {
  let n = 1n;
  for (const s of shape) n *= BigInt(s);
  return n;
}

/** Π shape, exact as long as it is below 2^53 (capped at 2^60 otherwise; say `exactProduct` in a message). */
export function elementCount(shape: readonly number[]): number {
  let n = 1;
  for (const s of shape) n = Math.min(n * s, 2 ** 60);
  return n;
}

/** Builds a tensor from its arrays (`values` is created as a view of `bits`). */
export function makeTensor(shape: number[], ptr: Uint32Array, indices: Uint32Array, bits: Uint32Array): CsfTensor {
  return { shape, ptr, indices, bits, values: new Float32Array(bits.buffer, bits.byteOffset, bits.length) };
}

/** Header facts of an in-memory tensor. */
export function tensorHeader(t: CsfTensor): CsfHeader {
  const total = elementCount(t.shape);
  return { order: t.shape.length, shape: [...t.shape], nnz: t.indices.length, fibers: t.ptr.length - 1, density: total === 0 ? 0 : t.indices.length / total };
}

/** Leading coordinates (c0..c(n-2)) of fiber `f`, row-major (the last leading mode varies fastest). */
export function fiberCoord(shape: readonly number[], f: number): number[] {
  const n = shape.length;
  const out = new Array<number>(Math.max(0, n - 1)).fill(0);
  for (let k = n - 2; k >= 0; k--) {
    const s = shape[k];
    out[k] = s === 0 ? 0 : f % s;
    f = s === 0 ? 0 : Math.floor(f / s);
  }
  return out;
}

/** Fiber number of leading coordinates (`tensor::coord_2_metaptr` without the base), or -1 if out of range. */
export function fiberOfCoord(shape: readonly number[], leading: readonly number[]): number {
  const n = shape.length;
  if (leading.length !== Math.max(0, n - 1)) return -1;
  let f = 0;
  for (let k = 0; k < n - 1; k++) {
    const c = leading[k];
    if (!Number.isInteger(c) || c < 0 || c >= shape[k]) return -1;
    f = f * shape[k] + c;
  }
  return f;
}

/** `2×3×4`-style shape text. */
export function formatShape(shape: readonly number[]): string {
  return shape.length === 0 ? '()' : shape.join('×');
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** f32 bit pattern → number. */
export function bitsToF32(bits: number): number {
  u32[0] = bits;
  return f32[0];
}

/** number → f32 bit pattern (rounded to nearest, ties to even; NaN becomes the default quiet NaN 0x7FC00000). */
export function f32ToBits(v: number): number {
  if (v !== v) return 0x7fc00000;
  f32[0] = v;
  return u32[0];
}

/** Shortest decimal text that reads back as the same f32 (`NaN`, `Infinity`, `-0` spelled out). */
export function formatF32(v: number): string {
  if (v !== v) return 'NaN';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  for (let p = 1; p <= 9; p++) {
    const s = v.toPrecision(p);
    if (Math.fround(Number(s)) === v) return String(Number(s));
  }
  return String(v);
}

/** `0x1234ABCD`. */
export function hex32(x: number): string {
  return '0x' + (x >>> 0).toString(16).toUpperCase().padStart(8, '0');
}

/**
 * An issue as an editor diagnostic over a hex dump of `bytesPerLine` bytes a line (offset o is line
 * ⌊o / bytesPerLine⌋, character o mod bytesPerLine), unless `toRange` maps offsets otherwise.
 */
export function csfIssueToDiagnostic(issue: CsfIssue, toRange?: (offset: number, length: number) => Range, bytesPerLine = 16): Diagnostic {
  const off = issue.offset ?? 0;
  const len = issue.length ?? 0;
  const at = (o: number) => ({ line: Math.floor(o / bytesPerLine), character: o % bytesPerLine });
  const range = toRange ? toRange(off, len) : { start: at(off), end: at(off + len) };
  return { range, severity: issue.severity, code: issue.code, message: issue.message };
}
