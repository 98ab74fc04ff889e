/**
 * Fibered sparse tensors placed in an accelerator's two memories (research formats.md A.1, A.7):
 * main memory holds the stored entries (u32 index + f32 value, 8 bytes each), metadata memory holds
 * the tensor header (order, shape) and one pointer per fiber plus an end pointer (u32 words).
 *
 * The placement comes in through `SparsePlacement`, so this model never reads a file: the `.csfbin`
 * codec (core/csf) or a `.tlayout` spec (`fibers(ptr=[…], index=[…])`) fills it in.
 */
import { type DType } from '../dtypes';
import { issue, type Issue } from '../issues';
import {
  type Breakdown,
  checkManyInput,
  emptyBreakdown,
  type ForwardBase,
  type InverseResult,
  type LayoutModel,
  type LayoutSummary,
  type Placement,
  type Regions,
  runsOf,
  type Slot,
  type Step,
  type UnitRef,
} from '../model';
import { bytes, CoordError, coordProblem, hex, LayoutError, list, num, percent, plural, prod, ravel, safe, tuple, unravel } from '../util';

/**
 * An already-parsed fibered tensor and where it sits in memory. Minimal by design:
 * - `shape`: mode extents, n ≥ 1; fibers run along the last mode and there are F = Π shape[0..n-2] of them (F = 1 for n = 1);
 * - `ptr`: F+1 entry offsets, fiber i = entries [ptr[i], ptr[i+1]); ptr[0] = 0, non-decreasing (the file's pointers, before the base is added);
 * - `index`: coordinate along the last mode of each stored entry (length ptr[F]), strictly increasing inside a fiber;
 * - `mainBase`: main-memory entry address of entry 0 (the loader's `mainBase`);
 * - `metaBase`: metadata word address `t` of the tensor header.
 * Values are not needed for addresses and are left out.
 */
export interface SparsePlacement {
  shape: readonly number[];
  ptr: ArrayLike<number>;
  index: ArrayLike<number>;
  mainBase: number;
  metaBase: number;
}

/** Bytes of one main-memory entry (u32 index, f32 value) and of one metadata word (u32). */
export const ENTRY_BYTES = 8;
export const META_WORD_BYTES = 4;
/** Capacities of the reference simulator: 10,000,000 main entries, 1024 metadata words. */
export const MAIN_CAPACITY = 10_000_000;
export const META_CAPACITY = 1024;

export interface SparseSpec {
  placement: SparsePlacement;
  dtype?: DType;
  /** Capacities in entries / words (defaults: the simulator's). */
  mainCapacity?: number;
  metaCapacity?: number;
}

const SPACES = ['main', 'meta'] as const;
/** Positions (F · last extent) up to which batch mapping builds an occupancy bitmap (8 MiB + 8 MiB). */
const BITMAP_LIMIT = 1 << 26;

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Byte address of the entry at bitmap position `pos` (records of `buildBitmap`), NaN when none is stored. */
function lookup(tab: Int32Array, pos: number, mainBase: number): number {
  const o = (pos >>> 7) * 5;
  const j = (pos >>> 5) & 3;
  const b = pos & 31;
  const word = tab[o + 1 + j];
  if (((word >>> b) & 1) === 0) return NaN;
  let rank = tab[o] + popcount(word & ~(-1 << b));
  if (j > 0) rank += popcount(tab[o + 1]);
  if (j > 1) rank += popcount(tab[o + 2]);
  if (j > 2) rank += popcount(tab[o + 3]);
  return (mainBase + rank) * ENTRY_BYTES;
}

export function validateSparse(spec: SparseSpec): Issue[] {
  const out: Issue[] = [];
  const p = spec.placement;
  const n = p.shape.length;
  if (n < 1) out.push(issue('CSF001', 'error', 'a fibered tensor has order ≥ 1', '@shape'));
  p.shape.forEach((s, i) => {
    if (!Number.isInteger(s) || s < 1) out.push(issue('CSF001', 'error', `shape[${i}] is ${s}; extents are integers ≥ 1`, '@shape', { index: i }));
  });
  if (out.length) return out;
  if (spec.dtype && spec.dtype !== 'float32')
    out.push(issue('CSF007', 'error', `entries hold f32 values; ${spec.dtype} is not stored by this format`, '@dtype'));
  const F = prod(p.shape, 0, n - 1);
  if (p.ptr.length !== F + 1) {
    out.push(
      issue(
        'CSF002',
        'error',
        `${p.ptr.length} fiber pointers for ${num(F)} fibers: there must be F+1 = ${num(F + 1)} (one per fiber, row-major ` +
          `over ${list(p.shape.slice(0, -1))}, plus the end)`,
        'ptr',
      ),
    );
    return out;
  }
  if (p.ptr[0] !== 0) out.push(issue('CSF003', 'error', `ptr[0] is ${p.ptr[0]}; the first fiber starts at entry 0`, 'ptr', { index: 0 }));
  for (let i = 0; i < F; i++) {
    const a = p.ptr[i];
    const b = p.ptr[i + 1];
    if (b >= a && Number.isInteger(b)) continue;
    const why = b < a ? `is below ptr[${i}] = ${a}: pointers never decrease` : `is not an entry offset (an integer ≥ ptr[${i}] = ${a})`;
    out.push(issue('CSF003', 'error', `ptr[${i + 1}] = ${b} ${why}`, 'ptr', { index: i + 1 }));
    break;
  }
  if (p.ptr[F] !== p.index.length)
    out.push(issue('CSF004', 'error', `the end pointer ptr[${F}] = ${p.ptr[F]} must equal the number of entries (${p.index.length})`, 'ptr', { index: F }));
  // every finding is an error (the dtype's too): the indices are read under valid pointers only
  if (out.length) return out;
  const last = p.shape[n - 1];
  // Stryker disable next-line EqualityOperator: a fiber F would be entries ptr[F]..ptr[F+1] = undefined, none
  for (let f = 0; f < F; f++)
    for (let k = p.ptr[f]; k < p.ptr[f + 1]; k++) {
      const v = p.index[k];
      if (!Number.isInteger(v) || v < 0 || v >= last) {
        const where = Number.isInteger(v) ? 'outside' : 'not an integer in';
        out.push(issue('CSF005', 'error', `entry ${k} (fiber ${f}) has index ${v}, ${where} 0..${last - 1}`, 'index', { index: k }));
        return out;
      }
      if (k > p.ptr[f] && v <= p.index[k - 1]) {
        out.push(
          issue(
            'CSF005',
            'error',
            `fiber ${f}: index ${v} at entry ${k} does not follow ${p.index[k - 1]}; indices in a fiber are strictly increasing (the merge-join needs it)`,
            'index',
            { index: k },
          ),
        );
        return out;
      }
    }
  const mc = spec.mainCapacity ?? MAIN_CAPACITY;
  const tc = spec.metaCapacity ?? META_CAPACITY;
  if (!Number.isInteger(p.mainBase) || p.mainBase < 0) out.push(issue('CSF006', 'error', `main base ${p.mainBase} must be an entry address ≥ 0`, 'main'));
  else if (p.mainBase + p.index.length > mc)
    out.push(issue('CSF006', 'error', `${num(p.index.length)} entries at main address ${p.mainBase} pass the main memory's ${num(mc)} entries`, 'main'));
  else if (p.mainBase + p.ptr[F] > 2 ** 32 - 1) out.push(issue('CSF006', 'error', 'pointer + main base overflows a u32', 'main'));
  const words = 2 + n + F;
  if (!Number.isInteger(p.metaBase) || p.metaBase < 0) out.push(issue('CSF006', 'error', `metadata base ${p.metaBase} must be a word address ≥ 0`, 'meta'));
  else if (p.metaBase + words > tc)
    out.push(
      issue(
        'CSF006',
        'error',
        `the header and ${num(F + 1)} pointers (${words} words) at metadata address ${p.metaBase} pass the metadata memory's ${num(tc)} words`,
        'meta',
      ),
    );
  return out;
}

export interface SparseForward extends ForwardBase {
  model: 'sparse';
  fiber: number;
  /** Metadata word holding the fiber's start pointer: t + 1 + n + fiber. */
  pointerWord: number;
  /** Entry range of the fiber in main memory (absolute entry addresses). */
  fiberStart: number;
  fiberEnd: number;
  /** Stored entry (absolute entry address), or undefined when the element is an implicit zero. */
  entry?: number;
  stored: boolean;
  /** Byte address of the entry's f32 value (entry address + 4). */
  valueAddress?: number;
}

export class SparseLayout implements LayoutModel<SparseForward> {
  readonly kind = 'sparse' as const;
  readonly shape: readonly number[];
  readonly dtype: DType = 'float32';
  readonly base: number;
  readonly unitKind = 'space' as const;
  readonly p: SparsePlacement;
  readonly F: number;
  readonly nnz: number;
  readonly metaWords: number;
  readonly mainCapacity: number;
  readonly metaCapacity: number;

  constructor(spec: SparseSpec, validated = false) {
    if (!validated) {
      // every finding of validateSparse is an error
      const errs = validateSparse(spec);
      if (errs.length) throw new LayoutError(errs.map((e) => e.message).join('; '));
    }
    this.p = spec.placement;
    this.shape = [...spec.placement.shape];
    const n = this.shape.length;
    this.F = safe(prod(this.shape, 0, n - 1), 'the fiber count');
    this.nnz = this.p.index.length;
    this.metaWords = 2 + n + this.F;
    this.base = this.p.mainBase * ENTRY_BYTES;
    this.mainCapacity = spec.mainCapacity ?? MAIN_CAPACITY;
    this.metaCapacity = spec.metaCapacity ?? META_CAPACITY;
  }

  checkCoord(coord: readonly number[]): string | undefined {
    return coordProblem(coord, this.shape);
  }

  /** Entry offset (relative to fiber 0) of `idx` in fiber `f`, or −1. */
  private find(f: number, idx: number): number {
    let lo = this.p.ptr[f];
    let hi = this.p.ptr[f + 1] - 1;
    const ix = this.p.index;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      const v = ix[m];
      if (v < idx) lo = m + 1;
      else if (v > idx) hi = m - 1;
      else return m;
    }
    return -1;
  }

  forward(coord: readonly number[]): SparseForward {
    const prob = this.checkCoord(coord);
    if (prob) throw new CoordError(prob);
    const n = this.shape.length;
    // ravel reads the leading n − 1 coordinates only
    const fiber = ravel(coord, this.shape.slice(0, n - 1));
    const pointerWord = this.p.metaBase + 1 + n + fiber;
    const fiberStart = this.p.mainBase + this.p.ptr[fiber];
    const fiberEnd = this.p.mainBase + this.p.ptr[fiber + 1];
    const k = this.find(fiber, coord[n - 1]);
    const stored = k >= 0;
    const entry = stored ? this.p.mainBase + k : undefined;
    const address = stored ? entry! * ENTRY_BYTES : NaN;
    const steps: Step[] = [
      { name: 'coordinate', value: tuple(coord) },
      { name: 'fiber', value: `${num(fiber)} (row-major over ${list(this.shape.slice(0, -1))})` },
      { name: 'fiber pointer', value: `metadata word ${pointerWord} = t + 1 + ${n} + ${fiber} (byte ${hex(pointerWord * META_WORD_BYTES)})` },
      { name: 'fiber entries', value: `main ${fiberStart}..${fiberEnd - 1} (${plural(fiberEnd - fiberStart, 'entry', 'entries')})` },
      stored
        ? { name: 'entry', value: `main entry ${entry} (index ${coord[n - 1]}): bytes ${hex(address)}..${hex(address + 7)}, value at ${hex(address + 4)}` }
        : { name: 'entry', value: `none: index ${coord[n - 1]} is not stored, the value is 0` },
    ];
    return {
      model: 'sparse',
      coord: [...coord],
      address,
      unit: { kind: 'space', index: 0, label: 'main memory' },
      size: stored ? ENTRY_BYTES : 0,
      steps,
      fiber,
      pointerWord,
      fiberStart,
      fiberEnd,
      entry,
      stored,
      valueAddress: stored ? address + 4 : undefined,
    };
  }

  /** `unit` 0 = main memory (byte address), 1 = metadata memory (byte address). */
  inverse(address: number, unit = 0): InverseResult {
    const steps: Step[] = [];
    const ur: UnitRef = { kind: 'space', index: unit, label: unit ? 'metadata memory' : 'main memory' };
    const n = this.shape.length;
    if (unit === 1) {
      const w = Math.floor(address / META_WORD_BYTES) - this.p.metaBase;
      steps.push({ name: 'metadata word', value: `${num(Math.floor(address / META_WORD_BYTES))} (t + ${w}), byte ${address % META_WORD_BYTES}` });
      if (!Number.isInteger(address) || w < 0 || w >= this.metaWords)
        return {
          model: 'sparse',
          address,
          unit: ur,
          kind: 'outside',
          steps,
          reason: `the header is metadata words ${this.p.metaBase}..${this.p.metaBase + this.metaWords - 1}`,
        };
      const reason =
        w === 0
          ? `order (${n})`
          : w <= n
            ? `shape[${w - 1}] (${this.shape[w - 1]})`
            : w - 1 - n < this.F
              ? `pointer of fiber ${w - 1 - n} ${tuple(unravel(w - 1 - n, this.shape.slice(0, -1)))} → main ${this.p.mainBase + this.p.ptr[w - 1 - n]}`
              : `end pointer → main ${this.p.mainBase + this.p.ptr[this.F]}`;
      return { model: 'sparse', address, unit: ur, kind: 'metadata', steps, reason };
    }
    const e = Math.floor(address / ENTRY_BYTES) - this.p.mainBase;
    steps.push({
      name: 'main entry',
      value: `${num(Math.floor(address / ENTRY_BYTES))}, byte ${address % ENTRY_BYTES} (${address % ENTRY_BYTES < 4 ? 'u32 index' : 'f32 value'})`,
    });
    if (!Number.isInteger(address) || e < 0 || e >= this.nnz)
      return {
        model: 'sparse',
        address,
        unit: ur,
        kind: 'outside',
        steps,
        reason: `the entries are main ${this.p.mainBase}..${this.p.mainBase + this.nnz - 1}`,
      };
    // fiber: last f with ptr[f] <= e (below F, as ptr[F] = nnz > e)
    let lo = 0;
    let hi = this.F;
    while (lo < hi) {
      const m = (lo + hi + 1) >> 1;
      if (this.p.ptr[m] <= e) lo = m;
      else hi = m - 1;
    }
    const lead = unravel(lo, this.shape.slice(0, n - 1));
    const coord = [...lead, this.p.index[e]];
    steps.push({ name: 'fiber', value: `${num(lo)} ${tuple(lead)}` }, { name: 'coordinate', value: tuple(coord) });
    return { model: 'sparse', address, unit: ur, kind: 'element', coord, byteInElement: address % ENTRY_BYTES, steps };
  }

  /**
   * Occupancy bitmap of all F·K positions for batch mapping, in records of 5 words per 128 positions:
   * `[rank, bits 0–31, bits 32–63, bits 64–95, bits 96–127]`, rank = stored entries before the record.
   * 2.5 bits per position (a 4096 × 4096 tensor takes 2.5 MiB, so random lookups mostly stay in the
   * L2 cache) and one record read per lookup.
   */
  private bitmap?: Int32Array | null;

  // Stryker disable next-line BlockStatement: without a bitmap forwardMany searches the fibers, with the same answers
  private buildBitmap(): Int32Array | null {
    const n = this.shape.length;
    const K = this.shape[n - 1];
    const total = this.F * K;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the limit bounds memory; the search past it gives the same answers
    if (total > BITMAP_LIMIT) return null;
    const records = Math.ceil(total / 128);
    const tab = new Int32Array(5 * records);
    // Stryker disable next-line EqualityOperator: a fiber F would be entries ptr[F]..ptr[F+1] = undefined, none
    for (let f = 0; f < this.F; f++)
      for (let e = this.p.ptr[f]; e < this.p.ptr[f + 1]; e++) {
        const pos = f * K + this.p.index[e];
        tab[(pos >>> 7) * 5 + 1 + ((pos >>> 5) & 3)] |= 1 << (pos & 31);
      }
    let acc = 0;
    // Stryker disable next-line EqualityOperator: a record past the end is written to a typed array, which drops it
    for (let r = 0, o = 0; r < records; r++, o += 5) {
      tab[o] = acc;
      acc += popcount(tab[o + 1]) + popcount(tab[o + 2]) + popcount(tab[o + 3]) + popcount(tab[o + 4]);
    }
    return tab;
  }

  forwardMany(coords: Int32Array, out?: Float64Array, units?: Int32Array): Float64Array {
    const r = this.shape.length;
    const count = checkManyInput(coords, r);
    const res = out ?? new Float64Array(count);
    if (units) units.fill(0, 0, count);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the bitmap is a cache (rebuilt or missing: the same answers)
    if (this.bitmap === undefined) this.bitmap = this.buildBitmap();
    const shape = Int32Array.from(this.shape);
    const K = shape[r - 1];
    const mb = this.p.mainBase;
    const tab = this.bitmap;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: ranks 1–2 without this fast path take the general one
    if (tab && r <= 2) {
      // rank 1: f = 0, below any extent
      const s0 = shape[0];
      for (let i = 0, k = 0; i < count; i++, k += r) {
        const f = r === 2 ? coords[k] : 0;
        const idx = coords[k + r - 1];
        // Stryker disable next-line EqualityOperator: f = s0 lands past the last position (s0·K + idx < 2^32, no wrap), out of the bitmap as f > s0
        const badFiber = f >>> 0 >= s0;
        if (badFiber || idx >>> 0 >= K) {
          res[i] = NaN;
          continue;
        }
        res[i] = lookup(tab, f * K + idx, mb);
      }
      return res;
    }
    // Stryker disable next-line ConditionalExpression,BlockStatement: without the bitmap the search gives the same answers
    if (tab) {
      for (let i = 0, k = 0; i < count; i++, k += r) {
        let f = 0;
        let ok = true;
        for (let d = 0; d < r - 1; d++) {
          const c = coords[k + d];
          if (c >>> 0 >= shape[d]) ok = false;
          f = f * shape[d] + c;
        }
        const idx = coords[k + r - 1];
        if (!ok || idx >>> 0 >= K) {
          res[i] = NaN;
          continue;
        }
        res[i] = lookup(tab, f * K + idx, mb);
      }
      return res;
    }
    let k = 0;
    for (let i = 0; i < count; i++) {
      let f = 0;
      let bad = false;
      for (let d = 0; d < r - 1; d++) {
        const c = coords[k++];
        if (c < 0 || c >= shape[d]) bad = true;
        f = f * shape[d] + c;
      }
      // an index outside 0..K−1 needs no check: no entry holds it, so the search misses it
      const idx = coords[k++];
      if (bad) {
        res[i] = NaN;
        continue;
      }
      const hit = this.find(f, idx);
      res[i] = hit < 0 ? NaN : (mb + hit) * ENTRY_BYTES;
    }
    return res;
  }

  summary(): LayoutSummary {
    const br: Breakdown = emptyBreakdown();
    br.element = this.nnz * ENTRY_BYTES;
    br.metadata = this.metaWords * META_WORD_BYTES;
    const numel = prod(this.shape);
    let empty = 0;
    for (let f = 1; f <= this.F; f++) if (this.p.ptr[f] === this.p.ptr[f - 1]) empty++;
    return {
      model: 'sparse',
      elements: numel,
      slots: this.nnz,
      paddingSlots: 0,
      bytes: br.element + br.metadata,
      breakdown: br,
      paddingPercent: 0,
      units: undefined,
      blocks: { name: 'entry', count: this.nnz, bytes: ENTRY_BYTES },
      short: `${plural(this.nnz, 'entry', 'entries')} (${percent(this.nnz, numel)} dense) · ${bytes(br.element)} main + ${this.metaWords} metadata words`,
      facts: [
        { name: 'shape', value: `${list(this.shape)}: ${plural(this.F, 'fiber')} along the last mode` },
        { name: 'stored', value: `${num(this.nnz)} of ${num(numel)} elements (${percent(this.nnz, numel)}), ${plural(empty, 'empty fiber')}` },
        {
          name: 'main memory',
          value: `entries ${this.p.mainBase}..${this.p.mainBase + this.nnz - 1} × 8 B (u32 index, f32 value) = ${bytes(br.element)} at ${hex(this.base)}`,
        },
        {
          name: 'metadata',
          value:
            `words ${this.p.metaBase}..${this.p.metaBase + this.metaWords - 1}: order, shape, ${this.F} fiber pointers and the end ` +
            `pointer (${this.metaWords} words)`,
        },
      ],
    };
  }

  regions(): Regions {
    const slot = (u: number, s: number): Slot => {
      if (u === 1) return { kind: 'data', index: s, elements: 0, label: this.inverse((this.p.metaBase + s) * META_WORD_BYTES, 1).reason ?? '' };
      const r = this.inverse((this.p.mainBase + s) * ENTRY_BYTES, 0);
      return { kind: 'data', index: s, elements: 1, first: r.coord, label: `entry ${this.p.mainBase + s}: ${r.coord ? tuple(r.coord) : ''}` };
    };
    return {
      kind: 'fibers',
      unitName: 'memory',
      slotName: 'entry',
      slotBytes: ENTRY_BYTES,
      units: [
        { label: 'main memory', base: this.base, slots: this.nnz },
        { label: 'metadata memory', base: this.p.metaBase * META_WORD_BYTES, slots: this.metaWords, slotBytes: META_WORD_BYTES },
      ],
      slot,
      runs: (u, from = 0, to = u ? this.metaWords : this.nnz) => runsOf((s) => slot(u, s).kind, from, to),
    };
  }

  unitCount(): number {
    return 2;
  }

  unitLabel(i: number): string {
    return i ? 'metadata memory' : 'main memory';
  }

  unitIndex(text: string | number[]): number | undefined {
    if (Array.isArray(text)) return undefined;
    const i = SPACES.indexOf(text.toLowerCase() as (typeof SPACES)[number]);
    return i >= 0 ? i : text === '0' || text === '1' ? Number(text) : undefined;
  }

  placements(): Placement[] {
    return [
      { space: 'csf:main', start: this.base, end: this.base + this.nnz * ENTRY_BYTES, capacity: this.mainCapacity * ENTRY_BYTES, what: 'main memory' },
      {
        space: 'csf:meta',
        start: this.p.metaBase * META_WORD_BYTES,
        end: (this.p.metaBase + this.metaWords) * META_WORD_BYTES,
        capacity: this.metaCapacity * META_WORD_BYTES,
        what: 'metadata memory',
      },
    ];
  }
}
