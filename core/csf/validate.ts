/**
 * Strict, chunked `.csfbin` validator (formats.md §A.4, rules V1–V15).
 *
 * The file is read front to back as a stream of little-endian u32 words (every field, entries included,
 * is word-aligned from the start of the file), so it can be fed in chunks of any size, split anywhere.
 * Nothing is allocated from a count read in the file: memory grows only with the bytes that arrive.
 *
 * The first violation is reported in the order of §A.4: the structural rules V1–V8 in file order (each is
 * fatal), then V9 (trailing bytes), V10, V11, V12 (pointers), then V13–V15 for the entries in entry order
 * (at one entry: V13, then V14, then V15). Entries precede the pointers in the file, so V15 ("index greater
 * than the previous index of the same fiber") is settled at the end: while streaming, every entry whose
 * index does not exceed the previous one is remembered, and it is an error unless a fiber starts there.
 *
 * `push` and `finish` never throw, whatever the bytes.
 */
import {
  DEFAULT_MAX_ORDER,
  EMPTY_SENTINEL,
  HOST_LITTLE_ENDIAN,
  elementCount,
  exactProduct,
  fiberCoord,
  fiberCount,
  formatShape,
  type CsfHeader,
  type CsfIssue,
} from './types';

export interface ValidateOptions {
  /** Rule V3: largest accepted order (default 10, the simulator's MAX_ORDER). */
  maxOrder?: number;
  /** Rule V9 as a warning instead of an error (both original readers ignore trailing bytes). */
  allowTrailing?: boolean;
  /** Rule V13 as a warning: an entry with index 0xFFFFFFFF is to be dropped and is skipped by V14/V15. */
  dropEmptySentinel?: boolean;
  /** Errors reported at most (default 1: only the first violation). Entry-level errors after the first are listed when the structure is sound. */
  maxIssues?: number;
  /** Check the entries (V13–V15; default true). False validates the structure only and skips the entry bytes. */
  checkEntries?: boolean;
  /** Keep the F+1 file pointers in the result (the fiber index; default false). */
  keepPointers?: boolean;
}

export interface CsfValidation {
  /** True when no error was found (warnings allowed). */
  ok: boolean;
  /** Errors (at most `maxIssues`) and warnings, in the order of §A.4. */
  issues: CsfIssue[];
  /** Order, shape, nnz, fibers and density, once the header (up to nnz) has been read and passed V1–V5. */
  header?: CsfHeader;
  /** The F+1 pointers as stored in the file (entry units), when asked for and all of them were read. */
  pointers?: Uint32Array;
  /** Byte offsets of the sections (when reached). */
  entriesOffset?: number;
  pointersOffset?: number;
  /** Bytes fed in total. */
  bytes: number;
}

const enum Phase {
  Order,
  Shape,
  Nnz,
  Entries,
  SkipEntries,
  PCount,
  Ptrs,
  End,
  Fatal,
}

/** A growable u32 list. */
class U32List {
  data: Uint32Array;
  length = 0;
  constructor(
    private readonly max: number,
    initial = 64,
  ) {
    this.data = new Uint32Array(Math.max(1, Math.min(initial, max)));
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(Math.max(1, Math.min(this.max, this.data.length * 2)));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  pushAll(vs: Uint32Array): void {
    const need = this.length + vs.length;
    if (need > this.data.length) {
      const next = new Uint32Array(Math.min(this.max, Math.max(need, this.data.length * 2)));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    this.data.set(vs, this.length);
    this.length = need;
  }
  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

/** A streaming validator: `push` chunks in file order, then `finish`. */
export class CsfValidator {
  private readonly maxOrder: number;
  private readonly maxIssues: number;
  private readonly checkEntries: boolean;
  private readonly opts: ValidateOptions;

  private phase = Phase.Order;
  private total = 0;
  private readonly carry = new Uint8Array(4);
  private carryLen = 0;
  private fatal: CsfIssue | undefined;

  private order = 0;
  private shape: number[] = [];
  private fibers = 0;
  private last = 0;
  private nnz = 0;
  private entriesOffset = 0;
  private pointersOffset = 0;

  // entries
  private entWord = 0; // words of the entry section consumed
  private e = 0; // entries whose index word was read
  private skipLeft = 0;
  private prev = -1; // previous (non-sentinel) index, -1 at the start
  private runStart = -1; // first entry of the current run of sentinels, -1 if none
  private sentinels: number[] = [];
  private outOfRange: number[] = []; // pairs: entry, index
  private descents: U32List | undefined; // quadruples: lo, hi, index, previous index
  private headerDone = false;

  // pointers
  private P = 0;
  private i = 0;
  private ptrs: U32List | undefined;
  private ptr0 = 0;
  private prevPtr = 0;
  private lastPtr = 0;
  private firstDecrease = -1;
  private decreaseFrom = 0;
  private decreaseTo = 0;
  private trailing = 0;

  constructor(opts: ValidateOptions = {}) {
    this.opts = opts;
    this.maxOrder = opts.maxOrder ?? DEFAULT_MAX_ORDER;
    this.maxIssues = Math.max(1, opts.maxIssues ?? 1);
    this.checkEntries = opts.checkEntries ?? true;
  }

  /** Feeds the next bytes of the file. */
  push(chunk: Uint8Array): this {
    const n = chunk.length;
    this.total += n;
    let p = 0;
    let dv: DataView | undefined;
    while (p < n) {
      switch (this.phase) {
        case Phase.Fatal:
          return this;
        case Phase.End:
          this.trailing += n - p;
          return this;
        case Phase.SkipEntries: {
          const k = Math.min(this.skipLeft, n - p);
          this.skipLeft -= k;
          p += k;
          if (this.skipLeft === 0) this.phase = Phase.PCount;
          break;
        }
        default: {
          if (this.carryLen > 0 || n - p < 4) {
            this.carry[this.carryLen++] = chunk[p++];
            if (this.carryLen === 4) {
              this.carryLen = 0;
              const c = this.carry;
              this.word((c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24)) >>> 0);
            }
            break;
          }
          dv ??= new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          if (this.phase === Phase.Entries && (this.entWord & 1) === 0 && n - p >= 8) p = this.entriesFast(chunk, dv, p, n);
          else if (this.phase === Phase.Ptrs) p = this.ptrsFast(chunk, dv, p, n);
          else {
            this.word(dv.getUint32(p, true));
            p += 4;
          }
        }
      }
    }
    return this;
  }

  /** Whole entries available in [p, n): checks their index words. */
  private entriesFast(chunk: Uint8Array, dv: DataView, p: number, n: number): number {
    const count = Math.min(Math.floor((n - p) / 8), this.nnz - this.e);
    const last = this.last;
    let prev = this.prev;
    const e0 = this.e;
    if (HOST_LITTLE_ENDIAN && (chunk.byteOffset + p) % 4 === 0) {
      // aligned: read the index words through a typed-array view (much faster than DataView)
      const w = new Uint32Array(chunk.buffer, chunk.byteOffset + p, 2 * count);
      let inRun = this.runStart >= 0;
      for (let q = 0, end = 2 * count; q < end; q += 2) {
        const idx = w[q];
        if (idx < last && idx > prev && !inRun) prev = idx;
        else {
          this.prev = prev;
          this.entryIndex(idx, e0 + q / 2);
          prev = this.prev;
          inRun = this.runStart >= 0;
        }
      }
    } else {
      for (let k = 0, q = p; k < count; k++, q += 8) {
        const idx = dv.getUint32(q, true);
        if (idx >= last || idx <= prev || this.runStart >= 0) {
          this.prev = prev;
          this.entryIndex(idx, e0 + k);
          prev = this.prev;
        } else prev = idx;
      }
    }
    this.prev = prev;
    this.e = e0 + count;
    this.entWord += 2 * count;
    if (this.e === this.nnz) this.phase = Phase.PCount;
    return p + 8 * count;
  }

  private ptrsFast(chunk: Uint8Array, dv: DataView, p: number, n: number): number {
    const count = Math.min(Math.floor((n - p) / 4), this.P - this.i);
    if (count === 0) return p;
    const i0 = this.i;
    let prevPtr = this.prevPtr;
    const ptrs = this.ptrs;
    const aligned = HOST_LITTLE_ENDIAN && (chunk.byteOffset + p) % 4 === 0;
    const w = aligned ? new Uint32Array(chunk.buffer, chunk.byteOffset + p, count) : undefined;
    for (let k = 0; k < count; k++) {
      const v = w ? w[k] : dv.getUint32(p + 4 * k, true);
      if (k === 0 && i0 === 0) this.ptr0 = v;
      else if (v < prevPtr && this.firstDecrease < 0) this.decrease(i0 + k, prevPtr, v);
      prevPtr = v;
    }
    if (ptrs) {
      if (w) ptrs.pushAll(w);
      else for (let k = 0; k < count; k++) ptrs.push(dv.getUint32(p + 4 * k, true));
    }
    this.prevPtr = prevPtr;
    this.lastPtr = prevPtr;
    this.i = i0 + count;
    if (this.i === this.P) this.phase = Phase.End;
    return p + 4 * count;
  }

  private decrease(i: number, from: number, to: number): void {
    this.firstDecrease = i;
    this.decreaseFrom = from;
    this.decreaseTo = to;
  }

  private entryIndex(idx: number, e: number): void {
    if (idx === EMPTY_SENTINEL) {
      if (this.sentinels.length < this.maxIssues) this.sentinels.push(e);
      if (this.runStart < 0) this.runStart = e;
      return;
    }
    if (idx >= this.last && this.outOfRange.length < 2 * this.maxIssues) this.outOfRange.push(e, idx);
    if (this.prev >= 0 && idx <= this.prev) {
      const d = (this.descents ??= new U32List(Infinity, 256));
      d.push(this.runStart >= 0 ? this.runStart : e);
      d.push(e);
      d.push(idx);
      d.push(this.prev);
    }
    this.prev = idx;
    this.runStart = -1;
  }

  private setFatal(issue: CsfIssue): void {
    this.fatal = issue;
    this.phase = Phase.Fatal;
  }

  /** One u32 word in any phase but SkipEntries. */
  private word(w: number): void {
    switch (this.phase) {
      case Phase.Order:
        this.order = w;
        if (w === 0)
          return this.setFatal({ code: 'csf.bad-order', rule: 'V2', severity: 'error', offset: 0, length: 4, message: 'order must be at least 1, found 0' });
        if (w > this.maxOrder)
          return this.setFatal({
            code: 'csf.order-too-large',
            rule: 'V3',
            severity: 'error',
            offset: 0,
            length: 4,
            message: `order must be at most ${this.maxOrder} (the simulator's MAX_ORDER), found ${w}`,
          });
        this.phase = Phase.Shape;
        return;
      case Phase.Shape: {
        this.shape.push(w);
        if (this.shape.length < this.order) return;
        const f = fiberCount(this.shape);
        if (f === undefined)
          return this.setFatal({
            code: 'csf.count-overflow',
            rule: 'V5',
            severity: 'error',
            offset: 4,
            length: 4 * this.order,
            message:
              `the number of fibers Π shape[0..${this.order - 2}] of shape ${formatShape(this.shape)} must be at most 4294967294 (so that the ` +
              `pointer count F+1 fits a u32), found ${exactProduct(this.shape.slice(0, -1))}`,
          });
        this.fibers = f;
        this.last = this.shape[this.order - 1];
        this.phase = Phase.Nnz;
        return;
      }
      case Phase.Nnz:
        this.nnz = w;
        this.headerDone = true;
        this.entriesOffset = 8 + 4 * this.order;
        this.pointersOffset = this.entriesOffset + 8 * w + 4;
        if (w === 0) this.phase = Phase.PCount;
        else if (this.checkEntries) this.phase = Phase.Entries;
        else {
          this.skipLeft = 8 * w;
          this.phase = Phase.SkipEntries;
        }
        return;
      case Phase.Entries:
        if ((this.entWord & 1) === 0) this.entryIndex(w, this.e++);
        this.entWord++;
        if (this.entWord === 2 * this.nnz) this.phase = Phase.PCount;
        return;
      case Phase.PCount: {
        this.P = w;
        const want = this.fibers + 1;
        if (w !== want)
          return this.setFatal({
            code: 'csf.pointer-count-mismatch',
            rule: 'V7',
            severity: 'error',
            offset: this.pointersOffset - 4,
            length: 4,
            message:
              `expected the pointer count P = F + 1 = ${want} (${plural(this.fibers, 'fiber')} of shape ${formatShape(this.shape)} plus the end ` +
              `pointer) after ${plural(this.nnz, 'entry', 'entries')}, found ${w}`,
          });
        if (this.checkEntries || this.opts.keepPointers) this.ptrs = new U32List(w, 1024);
        this.phase = Phase.Ptrs;
        return;
      }
      case Phase.Ptrs: {
        if (this.ptrs) this.ptrs.push(w);
        if (this.i === 0) this.ptr0 = w;
        else if (w < this.prevPtr && this.firstDecrease < 0) this.decrease(this.i, this.prevPtr, w);
        this.prevPtr = w;
        this.lastPtr = w;
        this.i++;
        if (this.i === this.P) this.phase = Phase.End;
        return;
      }
      default:
        return;
    }
  }

  private truncation(): CsfIssue | undefined {
    const total = this.total;
    const ends = `the file ends at offset ${total}`;
    switch (this.phase) {
      case Phase.Order:
        return {
          code: 'csf.truncated-header',
          rule: 'V1',
          severity: 'error',
          offset: 0,
          length: total,
          message: `expected 4 bytes for the order (u32) at offset 0, found ${plural(total, 'byte')}`,
        };
      case Phase.Shape: {
        const need = 4 * this.order;
        return {
          code: 'csf.truncated-header',
          rule: 'V4',
          severity: 'error',
          offset: 4,
          length: total - 4,
          message: `expected ${need} bytes for the shape (${this.order} × u32) at offset 4, found ${plural(total - 4, 'byte')} (${ends})`,
        };
      }
      case Phase.Nnz: {
        const at = 4 + 4 * this.order;
        return {
          code: 'csf.truncated-header',
          rule: 'V6',
          severity: 'error',
          offset: at,
          length: total - at,
          message: `expected 4 bytes for nnz (u32) at offset ${at}, found ${plural(total - at, 'byte')} (${ends})`,
        };
      }
      case Phase.Entries:
      case Phase.SkipEntries:
      case Phase.PCount: {
        const at = this.entriesOffset;
        const need = 8 * this.nnz + 4;
        return {
          code: 'csf.truncated-entries',
          rule: 'V6',
          severity: 'error',
          offset: at,
          length: total - at,
          message:
            `nnz = ${this.nnz} needs ${need} bytes from offset ${at} (${plural(this.nnz, 'entry', 'entries')} of 8 bytes, then the 4-byte pointer ` +
            `count), found ${plural(total - at, 'byte')} (${ends})`,
        };
      }
      case Phase.Ptrs: {
        const at = this.pointersOffset;
        return {
          code: 'csf.truncated-pointers',
          rule: 'V8',
          severity: 'error',
          offset: at,
          length: total - at,
          message: `expected ${4 * this.P} bytes for the ${plural(this.P, 'pointer')} (u32) at offset ${at}, found ${plural(total - at, 'byte')} (${ends})`,
        };
      }
      default:
        return undefined;
    }
  }

  /** Fiber holding entry e (pointers valid), by binary search. */
  private fiberOf(ptrs: Uint32Array, e: number): number {
    let lo = 0;
    let hi = this.fibers - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (ptrs[mid] <= e) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private where(ptrs: Uint32Array, e: number): string {
    const f = this.fiberOf(ptrs, e);
    const lead = fiberCoord(this.shape, f);
    return `entry ${e} (fiber ${f}, x[${[...lead, ':'].join(', ')}])`;
  }

  /** Ends the stream and returns the verdict. */
  finish(): CsfValidation {
    const result: CsfValidation = { ok: true, issues: [], bytes: this.total };
    const issues: CsfIssue[] = [];
    if (this.headerDone) {
      const total = elementCount(this.shape);
      result.header = { order: this.order, shape: [...this.shape], nnz: this.nnz, fibers: this.fibers, density: total === 0 ? 0 : this.nnz / total };
      result.entriesOffset = this.entriesOffset;
      result.pointersOffset = this.pointersOffset;
    }
    const stop = this.fatal ?? this.truncation();
    if (stop) {
      result.ok = false;
      result.issues = [stop];
      return result;
    }
    // V9
    const end = this.pointersOffset + 4 * this.P;
    if (this.trailing > 0)
      issues.push({
        code: 'csf.trailing-bytes',
        rule: 'V9',
        severity: this.opts.allowTrailing ? 'warning' : 'error',
        offset: end,
        length: this.trailing,
        message: `expected the file to end after the last pointer at offset ${end}, found ${plural(this.trailing, 'more byte')}`,
      });
    // V10–V12
    const po = this.pointersOffset;
    const F = this.fibers;
    if (this.ptr0 !== 0)
      issues.push({
        code: 'csf.first-pointer-nonzero',
        rule: 'V10',
        severity: 'error',
        offset: po,
        length: 4,
        message: `ptr[0] must be 0 (pointers count entries from the first one), found ${this.ptr0}`,
      });
    if (this.lastPtr !== this.nnz)
      issues.push({
        code: 'csf.last-pointer-mismatch',
        rule: 'V11',
        severity: 'error',
        offset: po + 4 * F,
        length: 4,
        message: `the end pointer ptr[${F}] must equal nnz = ${this.nnz}, found ${this.lastPtr}`,
      });
    const ptrs = this.ptrs?.view();
    if (this.firstDecrease >= 0) {
      const i = this.firstDecrease;
      issues.push({
        code: 'csf.non-monotone-pointers',
        rule: 'V12',
        severity: 'error',
        offset: po + 4 * i,
        length: 4,
        message: `pointers must not decrease: expected ptr[${i}] ≥ ptr[${i - 1}] = ${this.decreaseFrom}, found ${this.decreaseTo}`,
      });
    }
    const structural = issues.some((x) => x.severity === 'error' && x.rule !== 'V9');
    if (this.checkEntries && !structural && ptrs) issues.push(...this.entryIssues(ptrs));
    const errors = issues.filter((x) => x.severity === 'error');
    const keep = new Set(errors.slice(0, this.maxIssues));
    let warnings = 0;
    result.issues = issues.filter((x) => keep.has(x) || (x.severity === 'warning' && warnings++ < this.maxIssues));
    result.ok = errors.length === 0;
    if (this.opts.keepPointers && ptrs) result.pointers = ptrs;
    return result;
  }

  private entryIssues(ptrs: Uint32Array): CsfIssue[] {
    // V15 candidates: a descent [lo, hi] is fine if a fiber starts at some position in [lo, hi].
    const bad: number[] = []; // offsets into d of the violating descents
    const d = this.descents?.view();
    if (d) {
      const D = d.length;
      let dc = 0;
      for (let i = 0; i < ptrs.length && dc < D && bad.length < this.maxIssues; i++) {
        const v = ptrs[i];
        while (dc < D && d[dc + 1] < v) {
          if (bad.length < this.maxIssues) bad.push(dc);
          dc += 4;
        }
        if (dc < D && d[dc] <= v) dc += 4;
      }
      for (; dc < D && bad.length < this.maxIssues; dc += 4) bad.push(dc);
    }
    const eo = this.entriesOffset;
    const out: { e: number; k: number; issue: CsfIssue }[] = [];
    for (const e of this.sentinels)
      out.push({
        e,
        k: 0,
        issue: {
          code: 'csf.empty-sentinel',
          rule: 'V13',
          severity: this.opts.dropEmptySentinel ? 'warning' : 'error',
          offset: eo + 8 * e,
          length: 8,
          message:
            `${this.where(ptrs, e)} has index 0xFFFFFFFF, the simulator's marker of an unwritten slot: expected a real index ` +
            `below ${this.last}${this.opts.dropEmptySentinel ? ' (the entry is dropped)' : ''}`,
        },
      });
    for (let k = 0; k < this.outOfRange.length; k += 2) {
      const e = this.outOfRange[k];
      out.push({
        e,
        k: 1,
        issue: {
          code: 'csf.index-out-of-range',
          rule: 'V14',
          severity: 'error',
          offset: eo + 8 * e,
          length: 4,
          message: `${this.where(ptrs, e)} has index ${this.outOfRange[k + 1]}, expected an index below shape[${this.order - 1}] = ${this.last}`,
        },
      });
    }
    for (const at of bad) {
      const e = d![at + 1];
      const idx = d![at + 2];
      const prev = d![at + 3];
      out.push({
        e,
        k: 2,
        issue:
          idx === prev
            ? {
                code: 'csf.duplicate-index',
                rule: 'V15',
                severity: 'error',
                offset: eo + 8 * e,
                length: 4,
                message:
                  `${this.where(ptrs, e)} repeats index ${idx}: expected an index greater than ${prev}, as indices within a fiber must strictly ` + 'increase',
              }
            : {
                code: 'csf.unsorted-index',
                rule: 'V15',
                severity: 'error',
                offset: eo + 8 * e,
                length: 4,
                message:
                  `${this.where(ptrs, e)} has index ${idx} after index ${prev}: expected an index greater than ${prev}, as indices within a fiber ` +
                  'must strictly increase',
              },
      });
    }
    out.sort((x, y) => x.e - y.e || x.k - y.k);
    return out.map((x) => x.issue);
  }
}

/** Validates a whole file. */
export function validateCsf(bytes: Uint8Array, opts?: ValidateOptions): CsfValidation {
  return new CsfValidator(opts).push(bytes).finish();
}

/** Validates a file given as a sequence of chunks (split anywhere). */
export function validateCsfChunks(chunks: Iterable<Uint8Array>, opts?: ValidateOptions): CsfValidation {
  const v = new CsfValidator(opts);
  for (const c of chunks) v.push(c);
  return v.finish();
}
