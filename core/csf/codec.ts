/**
 * `.csfbin` reader and writer (formats.md §A.2, §A.5).
 *
 * Byte layout, all little-endian u32 except the f32 values:
 *
 *   0            order n
 *   4            shape[0..n-1]
 *   4+4n         nnz
 *   8+4n         nnz entries of 8 bytes: index (u32), value (f32)
 *   8+4n+8nnz    P = F + 1 (the end pointer is counted)
 *   12+4n+8nnz   ptr[0..F]: entry indices, ptr[0] = 0, ptr[F] = nnz; fiber i is entries [ptr[i], ptr[i+1])
 *
 * `openCsf` indexes a file lazily: it checks the structure (V1–V12, an O(1) header check plus one pass
 * over the pointers, never touching the entries) and then reads any fiber on demand. `parseCsf` validates
 * everything and materialises a `CsfTensor`. Values travel as raw f32 bits, so NaN payloads round-trip.
 */
import {
  DEFAULT_MAX_ORDER,
  EMPTY_SENTINEL,
  HOST_LITTLE_ENDIAN,
  MAX_LAST_EXTENT,
  CsfError,
  fiberCoord,
  fiberCount,
  fiberOfCoord,
  formatShape,
  makeTensor,
  type CsfHeader,
  type CsfIssue,
  type CsfTensor,
  type Result,
} from './types';
import { validateCsf, type CsfValidation, type ValidateOptions } from './validate';

/** One fiber read from a file. */
export interface CsfFiber {
  fiber: number;
  /** Leading coordinates c0..c(n-2). */
  coord: number[];
  /** Entry range [start, end) in the file's entry array. */
  start: number;
  end: number;
  indices: Uint32Array;
  bits: Uint32Array;
  values: Float32Array;
}

/** A lazily indexed `.csfbin` file whose structure (V1–V12) is valid. Reads go straight to the bytes. */
export class CsfFile implements CsfHeader {
  readonly order: number;
  readonly shape: number[];
  readonly nnz: number;
  readonly fibers: number;
  readonly density: number;
  readonly entriesOffset: number;
  readonly pointersOffset: number;
  private readonly dv: DataView;

  constructor(
    readonly bytes: Uint8Array,
    header: CsfHeader,
    /** Issues of the structural check that are not errors (e.g. allowed trailing bytes). */
    readonly warnings: CsfIssue[] = [],
  ) {
    this.order = header.order;
    this.shape = header.shape;
    this.nnz = header.nnz;
    this.fibers = header.fibers;
    this.density = header.density;
    this.entriesOffset = 8 + 4 * this.order;
    this.pointersOffset = this.entriesOffset + 8 * this.nnz + 4;
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Bytes the file's content occupies (trailing bytes excluded). */
  get byteLength(): number {
    return this.pointersOffset + 4 * (this.fibers + 1);
  }

  /** File pointer i (0 ≤ i ≤ F), in entries. */
  pointer(i: number): number {
    return this.dv.getUint32(this.pointersOffset + 4 * i, true);
  }

  /** Byte offset of pointer i. */
  pointerOffset(i: number): number {
    return this.pointersOffset + 4 * i;
  }

  /** Entry range [start, end) of fiber k. */
  fiberRange(k: number): [number, number] {
    this.checkFiber(k);
    return [this.pointer(k), this.pointer(k + 1)];
  }

  fiberLength(k: number): number {
    const [s, e] = this.fiberRange(k);
    return e - s;
  }

  /** Byte offset of entry e (its index field; the value is 4 bytes further). */
  entryOffset(e: number): number {
    return this.entriesOffset + 8 * e;
  }

  entryIndex(e: number): number {
    this.checkEntry(e);
    return this.dv.getUint32(this.entriesOffset + 8 * e, true);
  }

  entryBits(e: number): number {
    this.checkEntry(e);
    return this.dv.getUint32(this.entriesOffset + 8 * e + 4, true);
  }

  entryValue(e: number): number {
    this.checkEntry(e);
    return this.dv.getFloat32(this.entriesOffset + 8 * e + 4, true);
  }

  /** Copies fiber k out of the file. */
  fiber(k: number): CsfFiber {
    const [start, end] = this.fiberRange(k);
    const len = end - start;
    const indices = new Uint32Array(len);
    const bits = new Uint32Array(len);
    const dv = this.dv;
    for (let e = 0, o = this.entriesOffset + 8 * start; e < len; e++, o += 8) {
      indices[e] = dv.getUint32(o, true);
      bits[e] = dv.getUint32(o + 4, true);
    }
    return { fiber: k, coord: fiberCoord(this.shape, k), start, end, indices, bits, values: new Float32Array(bits.buffer) };
  }

  /** Fiber holding entry e (the last fiber whose start is ≤ e, skipping empty fibers). */
  fiberOfEntry(e: number): number {
    this.checkEntry(e);
    let lo = 0;
    let hi = this.fibers - 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi + 1) / 2);
      if (this.pointer(mid) <= e) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Entry holding the element at full coordinates `coord`, or -1 when it is not stored (value 0); binary search as in §A.6. */
  find(coord: readonly number[]): number {
    const n = this.order;
    if (coord.length !== n) throw new RangeError(`expected ${n} coordinates, got ${coord.length}`);
    const f = fiberOfCoord(this.shape, coord.slice(0, n - 1));
    const j = coord[n - 1];
    if (f < 0 || !Number.isInteger(j) || j < 0 || j >= this.shape[n - 1])
      throw new RangeError(`coordinates [${coord.join(', ')}] are outside the shape ${formatShape(this.shape)}`);
    let lo = this.pointer(f);
    let hi = this.pointer(f + 1) - 1;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      const idx = this.dv.getUint32(this.entriesOffset + 8 * mid, true);
      if (idx === j) return mid;
      if (idx < j) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Value at full coordinates (0 when not stored). */
  valueAt(coord: readonly number[]): number {
    const e = this.find(coord);
    return e < 0 ? 0 : this.entryValue(e);
  }

  /** Full validation (V13–V15 included) of the same bytes. */
  validate(opts?: ValidateOptions): CsfValidation {
    return validateCsf(this.bytes, opts);
  }

  /** Materialises the whole tensor. */
  toTensor(): CsfTensor {
    const nnz = this.nnz;
    const F = this.fibers;
    const ptr = new Uint32Array(F + 1);
    const indices = new Uint32Array(nnz);
    const bits = new Uint32Array(nnz);
    const words = wordsAt(this.bytes, this.entriesOffset, 2 * nnz);
    if (words) {
      for (let e = 0, w = 0; e < nnz; e++, w += 2) {
        indices[e] = words[w];
        bits[e] = words[w + 1];
      }
    } else {
      for (let e = 0, o = this.entriesOffset; e < nnz; e++, o += 8) {
        indices[e] = this.dv.getUint32(o, true);
        bits[e] = this.dv.getUint32(o + 4, true);
      }
    }
    const pw = wordsAt(this.bytes, this.pointersOffset, F + 1);
    if (pw) ptr.set(pw);
    else for (let i = 0; i <= F; i++) ptr[i] = this.pointer(i);
    return makeTensor([...this.shape], ptr, indices, bits);
  }

  private checkFiber(k: number): void {
    if (!Number.isInteger(k) || k < 0 || k >= this.fibers) throw new RangeError(`fiber ${k} does not exist (the file has ${this.fibers})`);
  }

  private checkEntry(e: number): void {
    if (!Number.isInteger(e) || e < 0 || e >= this.nnz) throw new RangeError(`entry ${e} does not exist (the file has ${this.nnz})`);
  }
}

/** A little-endian u32 view of `count` words at byte `offset` (copied when unaligned), or undefined on big-endian hosts. */
function wordsAt(bytes: Uint8Array, offset: number, count: number): Uint32Array | undefined {
  if (!HOST_LITTLE_ENDIAN) return undefined;
  const at = bytes.byteOffset + offset;
  if (at % 4 === 0) return new Uint32Array(bytes.buffer, at, count);
  return new Uint32Array(bytes.slice(offset, offset + 4 * count).buffer);
}

export interface OpenOptions {
  maxOrder?: number;
  allowTrailing?: boolean;
}

/**
 * Indexes a file without reading its entries: checks V1–V12 (header, sizes, pointers) and returns a
 * `CsfFile` for random access. The entry rules V13–V15 are checked by `file.validate()` or `parseCsf`.
 */
export function openCsf(bytes: Uint8Array, opts: OpenOptions = {}): Result<{ file: CsfFile }> {
  const v = validateCsf(bytes, { maxOrder: opts.maxOrder, allowTrailing: opts.allowTrailing, checkEntries: false });
  if (!v.ok || !v.header) return { ok: false, issues: v.issues };
  return { ok: true, file: new CsfFile(bytes, v.header, v.issues) };
}

export type ParseOptions = ValidateOptions;

/** Validates the whole file (V1–V15) and materialises it. With `dropEmptySentinel`, 0xFFFFFFFF entries are removed and the pointers rewritten. */
export function parseCsf(bytes: Uint8Array, opts: ParseOptions = {}): Result<{ tensor: CsfTensor; warnings: CsfIssue[] }> {
  const v = validateCsf(bytes, { ...opts, keepPointers: false });
  if (!v.ok || !v.header) return { ok: false, issues: v.issues };
  let tensor = new CsfFile(bytes, v.header).toTensor();
  // look at the indices, not at the warnings: those are capped at maxIssues (a trailing-bytes warning can hide the sentinel's)
  if (opts.dropEmptySentinel && tensor.indices.includes(EMPTY_SENTINEL)) tensor = dropSentinels(tensor);
  return { ok: true, tensor, warnings: v.issues };
}

function dropSentinels(t: CsfTensor): CsfTensor {
  const { ptr, indices, bits } = t;
  const F = ptr.length - 1;
  const keep = indices.reduce((n, i) => n + (i === EMPTY_SENTINEL ? 0 : 1), 0);
  const ni = new Uint32Array(keep);
  const nb = new Uint32Array(keep);
  const np = new Uint32Array(F + 1);
  let o = 0;
  for (let f = 0; f < F; f++) {
    np[f] = o;
    for (let e = ptr[f]; e < ptr[f + 1]; e++) {
      if (indices[e] === EMPTY_SENTINEL) continue;
      ni[o] = indices[e];
      nb[o++] = bits[e];
    }
  }
  np[F] = o;
  return makeTensor([...t.shape], np, ni, nb);
}

export interface WriteOptions {
  maxOrder?: number;
}

/** Writer rules (§A.5) for an in-memory tensor: every problem found (empty when it can be written). */
export function checkTensor(t: CsfTensor, opts: WriteOptions = {}): CsfIssue[] {
  const err = (code: CsfIssue['code'], message: string): CsfIssue[] => [{ code, severity: 'error', message }];
  const maxOrder = opts.maxOrder ?? DEFAULT_MAX_ORDER;
  const { shape, ptr, indices, bits } = t;
  const n = shape.length;
  if (n < 1) return err('csf.bad-shape', 'a tensor must have order at least 1, found order 0');
  if (n > maxOrder) return err('csf.bad-shape', `order must be at most ${maxOrder}, found ${n}`);
  for (let k = 0; k < n; k++)
    if (!Number.isInteger(shape[k]) || shape[k] < 0 || shape[k] > 0xffffffff)
      return err('csf.bad-shape', `shape[${k}] must be an integer in 0..4294967295, found ${shape[k]}`);
  if (shape[n - 1] > MAX_LAST_EXTENT)
    return err('csf.bad-shape', `the last extent must be at most 2^31 (indices are written as signed 32-bit by the Python tools), found ${shape[n - 1]}`);
  const F = fiberCount(shape);
  if (F === undefined) return err('csf.count-overflow', `shape ${formatShape(shape)} has more than 4294967294 fibers`);
  if (ptr.length !== F + 1) return err('csf.bad-tensor', `expected ${F + 1} pointers for ${F} fibers, found ${ptr.length}`);
  const nnz = indices.length;
  if (bits.length !== nnz) return err('csf.bad-tensor', `expected ${nnz} values (one per index), found ${bits.length}`);
  if (nnz > 0xffffffff) return err('csf.bad-tensor', `nnz must fit a u32, found ${nnz}`);
  if (ptr[0] !== 0) return err('csf.first-pointer-nonzero', `ptr[0] must be 0, found ${ptr[0]}`);
  if (ptr[F] !== nnz) return err('csf.last-pointer-mismatch', `ptr[${F}] must equal nnz = ${nnz}, found ${ptr[F]}`);
  for (let i = 0; i < F; i++)
    if (ptr[i + 1] < ptr[i]) return err('csf.non-monotone-pointers', `pointers must not decrease: ptr[${i + 1}] = ${ptr[i + 1]} < ptr[${i}] = ${ptr[i]}`);
  const last = shape[n - 1];
  for (let f = 0; f < F; f++) {
    let prev = -1;
    for (let e = ptr[f]; e < ptr[f + 1]; e++) {
      const i = indices[e];
      if (i === EMPTY_SENTINEL) return err('csf.empty-sentinel', `entry ${e} (fiber ${f}) has the empty-slot marker 0xFFFFFFFF as its index`);
      if (i >= last) return err('csf.index-out-of-range', `entry ${e} (fiber ${f}) has index ${i}, expected an index below ${last}`);
      if (i === prev) return err('csf.duplicate-index', `entry ${e} (fiber ${f}) repeats index ${i}`);
      if (i < prev) return err('csf.unsorted-index', `entry ${e} (fiber ${f}) has index ${i} after ${prev}: indices within a fiber must increase`);
      prev = i;
    }
  }
  return [];
}

/** Encodes a tensor as `.csfbin` bytes. Throws `CsfError` when the tensor breaks a writer rule (§A.5). */
export function encodeCsf(t: CsfTensor, opts?: WriteOptions): Uint8Array {
  const problems = checkTensor(t, opts);
  if (problems.length > 0) throw new CsfError(problems[0]);
  const n = t.shape.length;
  const nnz = t.indices.length;
  const F = t.ptr.length - 1;
  const size = 16 + 4 * n + 8 * nnz + 4 * F;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, n, true);
  for (let k = 0; k < n; k++) dv.setUint32(4 + 4 * k, t.shape[k], true);
  dv.setUint32(4 + 4 * n, nnz, true);
  const eo = 8 + 4 * n;
  if (HOST_LITTLE_ENDIAN) {
    const w = new Uint32Array(out.buffer, eo, 2 * nnz + 1 + F + 1);
    const { indices, bits } = t;
    for (let e = 0; e < nnz; e++) {
      w[2 * e] = indices[e];
      w[2 * e + 1] = bits[e];
    }
    w[2 * nnz] = F + 1;
    w.set(t.ptr, 2 * nnz + 1);
  } else {
    for (let e = 0; e < nnz; e++) {
      dv.setUint32(eo + 8 * e, t.indices[e], true);
      dv.setUint32(eo + 8 * e + 4, t.bits[e], true);
    }
    const po = eo + 8 * nnz;
    dv.setUint32(po, F + 1, true);
    for (let i = 0; i <= F; i++) dv.setUint32(po + 4 + 4 * i, t.ptr[i], true);
  }
  return out;
}

/**
 * Builds a tensor from fibers of (index, value) pairs in row-major fiber order (§A.5): each fiber is sorted
 * by index, values are rounded to f32 (`Math.fround`, ties to even). Throws `CsfError` on a duplicate or
 * out-of-range index, a finite value that overflows f32 (`csf.value-overflow`), or a bad shape.
 */
export function csfFromFibers(shape: number[], fibers: ReadonlyArray<ReadonlyArray<readonly [number, number]>>, opts?: WriteOptions): CsfTensor {
  const F = fiberCount(shape) ?? -1;
  if (fibers.length !== F)
    throw new CsfError({ code: 'csf.bad-tensor', severity: 'error', message: `shape ${formatShape(shape)} has ${F} fibers, ${fibers.length} given` });
  const nnz = fibers.reduce((s, f) => s + f.length, 0);
  const ptr = new Uint32Array(F + 1);
  const indices = new Uint32Array(nnz);
  const bits = new Uint32Array(nnz);
  const values = new Float32Array(bits.buffer);
  let o = 0;
  for (let f = 0; f < F; f++) {
    ptr[f] = o;
    const sorted = [...fibers[f]].sort((a, b) => a[0] - b[0]);
    for (const [i, v] of sorted) {
      if (!Number.isInteger(i) || i < 0 || i > 0xfffffffe)
        throw new CsfError({
          code: 'csf.index-out-of-range',
          severity: 'error',
          message: `fiber ${f} has index ${i}, expected a whole number in 0..${shape[shape.length - 1] - 1}`,
        });
      const r = Math.fround(v);
      if (Number.isFinite(v) && !Number.isFinite(r))
        throw new CsfError({
          code: 'csf.value-overflow',
          severity: 'error',
          message: `fiber ${f}, index ${i}: value ${v} overflows float32 (largest finite is 3.4028234663852886e38)`,
        });
      indices[o] = i;
      values[o++] = r;
    }
  }
  ptr[F] = o;
  const t = makeTensor([...shape], ptr, indices, bits);
  const problems = checkTensor(t, opts);
  if (problems.length > 0) throw new CsfError(problems[0]);
  return t;
}
