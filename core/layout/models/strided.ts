/**
 * PyTorch strided tensors: sizes, strides (elements), storage offset; address = base + (offset +
 * Σ coord·stride) · element size. Also the canonical form (size-1 dims dropped) and the coalesced form.
 */
import { type DType, HOST_BYTES } from '../dtypes';
import { mapLinear } from '../fast';
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
import { bytes, CoordError, coordProblem, hex, LayoutError, list, num, percent, prod, rmStrides, safe, tuple } from '../util';

export interface StridedSpec {
  shape: number[];
  dtype: DType;
  /** Strides in elements (default: contiguous). */
  strides?: number[];
  /** Storage offset in elements. */
  offset?: number;
  /** Storage size in elements, when known. */
  storage?: number;
  /** Byte address of storage element 0. */
  base?: number;
}

/** Enumeration limit for views whose dims overlap (distinct-offset counting, inverse search). */
const ENUM_LIMIT = 1 << 22;

/** Σ xᵢ·strideᵢ: the storage element of a coordinate, relative to the offset. */
const dot = (x: readonly number[], strides: readonly number[]): number => x.reduce((s, c, i) => s + c * strides[i], 0);

/** Storage elements from the offset to the last one the view reaches: Σ (sizeᵢ − 1)·strideᵢ + 1. */
const reach = (shape: readonly number[], strides: readonly number[]): number =>
  dot(
    shape.map((n) => n - 1),
    strides,
  ) + 1;

/** Walks every coordinate of `sizes` in row-major order (last dim fastest) until `found` holds; returns that coordinate. */
function findCoord(sizes: readonly number[], found: (x: readonly number[]) => boolean): number[] | undefined {
  const x = new Array<number>(sizes.length).fill(0);
  const n = prod(sizes);
  // Stryker disable next-line EqualityOperator: one more step wraps x back to all zeros, the coordinate visited first
  for (let k = 0; k < n; k++) {
    if (found(x)) return [...x];
    for (let i = x.length - 1; i >= 0; i--) {
      if (++x[i] < sizes[i]) break;
      x[i] = 0;
    }
  }
  return undefined;
}

/** Sizes/strides with size-1 dims dropped (PyTorch "canonical form"). */
export function canonicalForm(shape: readonly number[], strides: readonly number[]): { sizes: number[]; strides: number[] } {
  const keep = shape.map((_, i) => i).filter((i) => shape[i] !== 1);
  return { sizes: keep.map((i) => shape[i]), strides: keep.map((i) => strides[i]) };
}

/** Adjacent dims merged when `stride[i] == size[i+1]·stride[i+1]` (after dropping size-1 dims). */
export function coalesce(shape: readonly number[], strides: readonly number[]): { sizes: number[]; strides: number[] } {
  const c = canonicalForm(shape, strides);
  // the first dim starts the list; each next one merges into the last or is appended
  const sizes = c.sizes.slice(0, 1);
  const st = c.strides.slice(0, 1);
  for (let i = 1; i < c.sizes.length; i++) {
    const k = sizes.length - 1;
    if (st[k] === c.sizes[i] * c.strides[i]) {
      sizes[k] *= c.sizes[i];
      st[k] = c.strides[i];
    } else {
      sizes.push(c.sizes[i]);
      st.push(c.strides[i]);
    }
  }
  return { sizes, strides: st };
}

/** True when no two coordinates share an offset (sorted-stride nesting test, exact for stride ≥ span of the smaller dims). */
export function nonOverlapping(shape: readonly number[], strides: readonly number[]): boolean {
  const c = canonicalForm(shape, strides);
  const idx = c.sizes.map((_, i) => i).sort((a, b) => c.strides[a] - c.strides[b]);
  let span = 1;
  for (const i of idx) {
    if (c.strides[i] < span) return false;
    span = c.strides[i] * (c.sizes[i] - 1) + span;
  }
  return true;
}

/** Coordinates compared one by one when the nesting test cannot tell whether interleaved dims share an address. */
export const OVERLAP_CHECK_LIMIT = 1 << 16;

/** Whether two coordinates of a view reach the same storage element: none, a pair that does, or too many to check. */
export type Overlap =
  | { kind: 'none' }
  /** `element` is relative to the storage offset */
  | { kind: 'shared'; a: number[]; b: number[]; element: number; broadcast: boolean }
  | { kind: 'unknown'; coordinates: number };

/** The nesting test; for dims that do not nest, a stride-0 dim or (small views) every coordinate decides. */
export function overlapOf(shape: readonly number[], strides: readonly number[]): Overlap {
  if (nonOverlapping(shape, strides)) return { kind: 'none' };
  const zero = shape.map(() => 0);
  const bd = shape.findIndex((n, i) => n > 1 && strides[i] === 0);
  if (bd >= 0) return { kind: 'shared', a: zero, b: zero.map((_, i) => (i === bd ? 1 : 0)), element: 0, broadcast: true };
  const n = prod(shape);
  if (n > OVERLAP_CHECK_LIMIT) return { kind: 'unknown', coordinates: n };
  const first = new Map<number, number[]>();
  let shared: Overlap = { kind: 'none' };
  findCoord(shape, (x) => {
    const e = dot(x, strides);
    const a = first.get(e);
    if (a) shared = { kind: 'shared', a, b: [...x], element: e, broadcast: false };
    else first.set(e, [...x]);
    return a !== undefined;
  });
  return shared;
}

export function validateStrided(spec: StridedSpec): Issue[] {
  const out: Issue[] = [];
  const r = spec.shape.length;
  spec.shape.forEach((s, i) => {
    if (!Number.isInteger(s) || s < 1) out.push(issue('PT007', 'error', `size[${i}] is ${s}; sizes must be integers ≥ 1`, '@shape', { index: i }));
  });
  if (spec.strides) {
    if (spec.strides.length !== r)
      out.push(
        issue(
          'PT001',
          'error',
          `${spec.strides.length} strides for a rank-${r} tensor; give one stride per dim (contiguous: ${list(rmStrides(spec.shape))})`,
          'strides',
          {
            fixes: [
              { title: `Use contiguous strides ${list(rmStrides(spec.shape))}`, field: 'strides', newText: list(rmStrides(spec.shape)), preferred: true },
            ],
          },
        ),
      );
    spec.strides.forEach((s, i) => {
      if (!Number.isInteger(s) || s < 0) out.push(issue('PT002', 'error', `stride[${i}] is ${s}; PyTorch strides are integers ≥ 0`, 'strides', { index: i }));
    });
  }
  if (spec.offset !== undefined && (!Number.isInteger(spec.offset) || spec.offset < 0))
    out.push(issue('PT003', 'error', `storage offset ${spec.offset} must be an integer ≥ 0`, 'offset'));
  // every rule so far is an error: the rest needs sizes, strides and offset that make sense
  if (out.length) return out;
  const st = spec.strides ?? rmStrides(spec.shape);
  const span = (spec.offset ?? 0) + reach(spec.shape, st);
  // no storage size: the storage is the span
  if ((spec.storage ?? Infinity) < span)
    out.push(
      issue('PT004', 'error', `the view reaches storage element ${span - 1} but the storage has ${spec.storage} elements (needs ≥ ${span})`, 'storage', {
        fixes: [{ title: `Set storage to ${span}`, field: 'storage', newText: String(span), preferred: true }],
      }),
    );
  const ov = overlapOf(spec.shape, st);
  if (ov.kind === 'shared')
    out.push(
      issue(
        'PT005',
        'warning',
        `dims overlap in memory (${ov.broadcast ? 'a stride 0 broadcasts' : 'strides interleave'}): coordinates ${tuple(ov.a)} and ${tuple(ov.b)} ` +
          `share storage element ${num((spec.offset ?? 0) + ov.element)}, so writes through this view race`,
        'strides',
      ),
    );
  else if (ov.kind === 'unknown')
    out.push(
      issue(
        'PT005',
        'information',
        `strides interleave: coordinates may share an address (not checked: ${num(ov.coordinates)} coordinates, more than ${num(OVERLAP_CHECK_LIMIT)}); ` +
          'writes through this view race if they do',
        'strides',
      ),
    );
  const c = canonicalForm(spec.shape, st);
  const co = coalesce(spec.shape, st);
  if (c.sizes.length !== r || co.sizes.length !== c.sizes.length)
    out.push(
      issue(
        'PT006',
        'information',
        `canonical form (size-1 dims dropped): sizes ${list(c.sizes)}, strides ${list(c.strides)}; coalesced: ` +
          `sizes ${list(co.sizes)}, strides ${list(co.strides)}`,
        '@shape',
      ),
    );
  return out;
}

export interface StridedForward extends ForwardBase {
  model: 'strided';
  /** Storage element index (offset + Σ coord·stride). */
  element: number;
  byteOffset: number;
}

export class StridedLayout implements LayoutModel<StridedForward> {
  readonly kind = 'strided' as const;
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly base: number;
  readonly strides: readonly number[];
  readonly offset: number;
  readonly es: number;
  readonly numel: number;
  /** Storage elements the view reaches: offset + Σ(size−1)·stride + 1. */
  readonly span: number;
  /** Storage elements reserved (storage size, or span). */
  readonly reserved: number;
  /** The dims do not nest: an element's coordinate is searched for, and coordinates may share storage (see `overlap`). */
  readonly overlapping: boolean;
  private distinct?: number;
  /** distinctElements() is an upper bound (too many coordinates to count). */
  private distinctBound = false;

  constructor(spec: StridedSpec, validated = false) {
    if (!validated) {
      const errs = validateStrided(spec).filter((i) => i.severity === 'error');
      if (errs.length) throw new LayoutError(errs.map((e) => e.message).join('; '));
    }
    this.shape = [...spec.shape];
    this.dtype = spec.dtype;
    this.base = spec.base ?? 0;
    this.strides = spec.strides ? [...spec.strides] : rmStrides(spec.shape);
    this.offset = spec.offset ?? 0;
    this.es = HOST_BYTES[spec.dtype];
    this.numel = safe(prod(spec.shape), 'the element count');
    this.span = safe(this.offset + reach(this.shape, this.strides), 'the storage span');
    this.reserved = Math.max(this.span, spec.storage ?? 0);
    safe(this.reserved * this.es, 'the storage bytes');
    this.overlapping = !nonOverlapping(this.shape, this.strides);
  }

  checkCoord(coord: readonly number[]): string | undefined {
    return coordProblem(coord, this.shape);
  }

  canonical(): { sizes: number[]; strides: number[] } {
    return canonicalForm(this.shape, this.strides);
  }

  coalesced(): { sizes: number[]; strides: number[] } {
    return coalesce(this.shape, this.strides);
  }

  isContiguous(): boolean {
    const c = canonicalForm(this.shape, this.strides);
    const want = rmStrides(c.sizes);
    return c.strides.every((s, i) => s === want[i]);
  }

  forward(coord: readonly number[]): StridedForward {
    const p = this.checkCoord(coord);
    if (p) throw new CoordError(p);
    const element = this.offset + dot(coord, this.strides);
    const byteOffset = element * this.es;
    const address = this.base + byteOffset;
    const steps: Step[] = [
      { name: 'coordinate', value: tuple(coord) },
      {
        name: 'storage element',
        value: `${num(element)} = ${this.offset ? `${this.offset} + ` : ''}${coord.map((c, i) => `${c}·${this.strides[i]}`).join(' + ') || '0'}`,
      },
      { name: 'byte offset', value: `${num(byteOffset)} = ${num(element)} · ${this.es} B` },
      { name: 'address', value: hex(address) },
    ];
    return { model: 'strided', coord: [...coord], address, size: this.es, steps, element, byteOffset };
  }

  /** A coordinate whose storage element is `e`, or undefined. */
  coordOfElement(e: number): number[] | undefined {
    const rel = e - this.offset;
    if (rel < 0) return undefined;
    // largest stride first; a size-1 dim takes index 0 whatever its stride, a stride-0 dim contributes nothing
    const idx = this.shape
      .map((_, i) => i)
      .filter((i) => this.strides[i] > 0)
      .sort((a, b) => this.strides[b] - this.strides[a]);
    const c = new Array<number>(this.shape.length).fill(0);
    let rem = rel;
    for (const i of idx) {
      const q = Math.min(this.shape[i] - 1, Math.floor(rem / this.strides[i]));
      c[i] = q;
      rem -= q * this.strides[i];
    }
    if (rem === 0) return c;
    if (!this.overlapping || this.numel > ENUM_LIMIT) return undefined;
    // dims that are not nested may reach `rel` where the greedy pass does not: search
    return findCoord(this.shape, (x) => dot(x, this.strides) === rel);
  }

  inverse(address: number): InverseResult {
    const off = address - this.base;
    const steps: Step[] = [{ name: 'byte offset', value: num(off) }];
    if (!Number.isInteger(off) || off < 0 || off >= this.reserved * this.es)
      return {
        model: 'strided',
        address,
        kind: 'outside',
        steps,
        reason: `the storage occupies ${hex(this.base)}..${hex(this.base + this.reserved * this.es - 1)}`,
      };
    const e = Math.floor(off / this.es);
    steps.push({ name: 'storage element', value: `${num(e)}, byte ${off % this.es}` });
    const gap = (reason: string): InverseResult => ({ model: 'strided', address, kind: 'gap', steps, reason });
    if (e < this.offset) return gap(`storage before the view's offset ${this.offset}`);
    const c = this.coordOfElement(e);
    if (!c) return gap('storage element not reached by this view');
    steps.push({ name: 'coordinate', value: tuple(c) });
    return { model: 'strided', address, kind: 'element', coord: c, byteInElement: off % this.es, steps };
  }

  forwardMany(coords: Int32Array, out?: Float64Array): Float64Array {
    const count = checkManyInput(coords, this.shape.length);
    const res = out ?? new Float64Array(count);
    mapLinear(
      this.base + this.offset * this.es,
      this.shape,
      this.strides.map((s) => s * this.es),
      coords,
      res,
      count,
    );
    return res;
  }

  /** Distinct storage elements the view touches (an upper bound past 2^22 coordinates of dims that do not nest). */
  distinctElements(): number {
    // Stryker disable next-line ConditionalExpression: a cache; counting again gives the same number
    if (this.distinct !== undefined) return this.distinct;
    // broadcast dims (stride 0) touch nothing new
    const keep = this.shape.map((_, i) => i).filter((i) => this.strides[i] !== 0);
    const sizes = keep.map((i) => this.shape[i]);
    const st = keep.map((i) => this.strides[i]);
    const n = prod(sizes);
    // Stryker disable next-line ConditionalExpression: a fast path; counting the offsets of nested dims gives n too
    if (nonOverlapping(sizes, st)) return (this.distinct = n);
    // too many to count: at most one per coordinate and one per storage element from the offset to the end of the span
    if (n > ENUM_LIMIT) {
      this.distinctBound = true;
      return (this.distinct = Math.min(n, reach(sizes, st)));
    }
    const seen = new Set<number>();
    findCoord(sizes, (x) => {
      seen.add(dot(x, st));
      return false;
    });
    return (this.distinct = seen.size);
  }

  summary(): LayoutSummary {
    const br: Breakdown = emptyBreakdown();
    const distinct = this.distinctElements();
    const total = this.reserved * this.es;
    br.element = distinct * this.es;
    br.gap = total - br.element;
    const co = this.coalesced();
    const ca = this.canonical();
    // fewer distinct elements than coordinates: two share one (counted, or past the count a bound below the coordinates:
    // pigeonhole); a bound as large as the coordinates cannot tell
    const overlaps = distinct < this.numel;
    const mayOverlap = this.distinctBound && !overlaps;
    return {
      model: 'strided',
      elements: this.numel,
      slots: this.numel,
      paddingSlots: 0,
      bytes: total,
      breakdown: br,
      paddingPercent: 0,
      blocks: { name: 'storage element', count: this.reserved, bytes: this.es },
      short:
        `${bytes(total)} storage · ` +
        `${this.isContiguous() ? 'contiguous' : br.gap ? `${percent(br.gap, total)} gaps` : 'permuted, no gaps'}` +
        `${overlaps ? ' · overlapping' : mayOverlap ? ' · may overlap' : ''}`,
      facts: [
        { name: 'sizes', value: list(this.shape) },
        { name: 'strides', value: `${list(this.strides)} elements${this.isContiguous() ? ' (contiguous)' : ''}` },
        { name: 'storage offset', value: num(this.offset) },
        { name: 'canonical form', value: `sizes ${list(ca.sizes)}, strides ${list(ca.strides)}` },
        { name: 'coalesced', value: `sizes ${list(co.sizes)}, strides ${list(co.strides)}` },
        {
          name: 'storage',
          value:
            `${num(this.reserved)} elements × ${this.es} B = ${bytes(total)}; the view touches ${this.distinctBound ? 'at most ' : ''}${num(distinct)} of ` +
            `them${overlaps ? ' (dims overlap)' : mayOverlap ? ' (dims may overlap; too many coordinates to count)' : ''}`,
        },
        { name: 'address', value: `${hex(this.base)}..${hex(this.base + total - 1)}` },
      ],
    };
  }

  regions(): Regions {
    const slot = (_u: number, s: number): Slot => {
      const c = this.coordOfElement(s);
      return c
        ? { kind: 'data', index: s, elements: 1, first: c, label: `storage element ${s}: ${tuple(c)}` }
        : { kind: 'unused', index: s, elements: 0, label: `storage element ${s}: not in the view` };
    };
    return {
      kind: 'storage',
      unitName: 'storage',
      slotName: 'element',
      slotBytes: this.es,
      units: [{ label: 'storage', base: this.base, slots: this.reserved }],
      slot,
      runs: (u, from = 0, to = this.reserved) => runsOf((s) => slot(u, s).kind, from, to),
    };
  }

  readonly unitKind: UnitRef['kind'] | undefined = undefined;

  unitCount(): number {
    return 1;
  }

  // Stryker disable next-line BlockStatement: one storage and no unit to name; an empty body returns the same undefined
  unitIndex(): number | undefined {
    return undefined;
  }

  unitLabel(): string {
    return 'storage';
  }

  placements(): Placement[] {
    return [{ space: 'host', start: this.base, end: this.base + this.reserved * this.es, what: 'host storage' }];
  }
}
