/**
 * A transfer run a batch of elements at a time, for the debugger's "step into a `>` transfer" (debug
 * runs only: plain runs call runTransfer once). Each batch moves the next elements in ordinal order
 * through runTransfer's element-by-element path, so memory between batches is the real partial
 * state; the finished transfer leaves memory and statistics exactly as one runTransfer call would.
 */
import type { Descriptor } from '../../tprog/descriptor';
import type { Touched } from '../../protocol/trace';
import { contiguousCopy, runTransfer, spaceName, walker, type EngineContext, type Side, type TransferRange, type TransferStats } from './transfer';
import type { Walker } from './walk';

/** Batches are at least this many elements (whole destination rows), and rows longer than MAX_BATCH are cut. */
export const MIN_BATCH = 8;
export const MAX_BATCH = 64;

/** Where one element of a side is. */
export interface ElementAt {
  /** Its coordinates: `p[2][1]` for MEM/SCRATCH dimensions, else `PCORE 3, THREAD 5` (the levels' labels and indexes). */
  coord: string;
  /** Memory space (`MEM`, `SCRATCH`, `SPU`, `PCORE0`, `PCORE0S`, …). */
  space: string;
  /**
   * Byte address (MEM/SCRATCH) or word address (PCORE/SPU); undefined when the element is out of
   * bound (a padded read or a skipped write), the source is exhausted or a constant.
   */
  address?: number;
  /** `out of bound`, `exhausted` (source past its end without REPEAT) or `constant`. */
  note?: 'out of bound' | 'exhausted' | 'constant';
}

export class SteppedTransfer {
  readonly total: number;
  /** Elements moved so far. */
  done = 0;
  /** The last batch moved: ordinals [lastFrom, done). */
  lastFrom = 0;
  private readonly dw: Walker;
  private readonly sw?: Walker;
  private readonly snapshot?: Pick<TransferRange, 'srcBytes' | 'srcOffset'>;
  private readonly acc: TransferStats;
  /** Elements per batch and per destination row (product of the innermost levels). */
  readonly batch: number;
  readonly row: number;
  private readonly one = new Int32Array(1);

  constructor(
    private readonly ctx: EngineContext,
    private readonly dst: Side,
    private readonly src: Side,
    private readonly pad: number,
    private readonly repeat: boolean,
  ) {
    // walked as the transfer walks them (locations relative to the base), so an element shows the address it moves at
    this.dw = walker(dst, 'destination');
    this.sw = src.space === 'CONST' ? undefined : walker(src, 'source');
    this.total = this.dw.total;
    this.acc = { elements: 0, padded: 0, skipped: 0 };
    // a contiguous copy runs as one block move: overlapping blocks read the source as it was before
    const lin = contiguousCopy(ctx.m, dst, src, this.dw, this.sw);
    // (a snapshot taken where the destination does not overlap the source from above holds what the batches would read anyway)
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, see above
    if (lin && lin.d === lin.s && lin.b < lin.a && lin.a < lin.b + lin.len) this.snapshot = { srcBytes: lin.s.slice(lin.b, lin.b + lin.len), srcOffset: lin.b };
    const inner = [...dst.desc.levels].reverse().find((l) => (l.count ?? 1) > 1);
    this.row = Math.min(this.total, inner?.count ?? this.total) || 1;
    // whole rows up to MIN_BATCH elements (one row when it is that long), at most MAX_BATCH (a row of MIN_BATCH or more is cut)
    this.batch = Math.min(this.total, MAX_BATCH, this.row * Math.ceil(MIN_BATCH / this.row));
  }

  get finished(): boolean {
    return this.done >= this.total;
  }

  /** Size of the next batch: whole rows of at least MIN_BATCH elements, or MAX_BATCH-element pieces of a long row. */
  nextBatch(): number {
    const left = this.total - this.done;
    // Stryker disable next-line EqualityOperator: a row of exactly MAX_BATCH gives 64 − done mod 64 either way
    if (this.row <= MAX_BATCH) return Math.min(left, this.batch - (this.done % this.batch));
    const inRow = this.done % this.row;
    return Math.min(left, this.row - inRow, MAX_BATCH - (inRow % MAX_BATCH));
  }

  /** Moves the next `n` elements (all that are left when n ≥ what is left). */
  run(n: number): void {
    const to = Math.min(this.total, this.done + Math.max(0, n));
    if (to <= this.done) return;
    const st = runTransfer(this.ctx, this.dst, this.src, this.pad, this.repeat, { from: this.done, to, ...this.snapshot });
    const a = this.acc;
    a.elements += st.elements;
    a.padded += st.padded;
    a.skipped += st.skipped;
    const read = union(a.read, st.read);
    const written = union(a.written, st.written);
    if (read) a.read = read;
    if (written) a.written = written;
    this.lastFrom = this.done;
    this.done = to;
  }

  /** Statistics of the elements moved so far (of the whole transfer once finished). */
  get stats(): TransferStats {
    return { ...this.acc };
  }

  /** Destination element `ord`. */
  dstAt(ord: number): ElementAt {
    return this.at(this.dst, this.dw, ord);
  }

  /** Source element read for destination element `ord` (REPEAT wraps; past the end reads PAD). */
  srcAt(ord: number): ElementAt {
    const sw = this.sw;
    const space = spaceName(this.src, this.ctx.process);
    if (!sw) return { coord: String(this.src.constValue ?? 0), space, note: 'constant' };
    if (ord >= sw.total && !this.repeat) return { coord: `element ${ord} of ${sw.total}`, space, note: 'exhausted' };
    return this.at(this.src, sw, this.repeat ? ord % sw.total : ord);
  }

  private at(side: Side, w: Walker, ord: number): ElementAt {
    const levels = side.desc.levels;
    // Stryker disable next-line ArrayDeclaration: the length only preallocates; every entry is written below
    const index: number[] = new Array<number>(levels.length);
    let rest = ord;
    for (let q = levels.length - 1; q >= 0; q--) {
      const c = levels[q].count ?? 1;
      index[q] = (levels[q].begin ?? 0) + (rest % c) * (levels[q].step ?? 1);
      rest = Math.floor(rest / c);
    }
    w.fill(ord, 1, this.one);
    const loc = this.one[0];
    const e: ElementAt = { coord: coordText(side.desc, index), space: spaceName(side, this.ctx.process) };
    if (loc < 0) e.note = 'out of bound';
    else e.address = address(side, loc);
    return e;
  }
}

/** `p[2][1]` when every level is one MEM/SCRATCH dimension (in dimension order), else `label index` pairs. */
function coordText(d: Descriptor, index: number[]): string {
  const L = d.levels;
  const dims = new Set(L.map((l) => l.dim));
  const name = /(.*)\[\d+\]$/.exec(L[0]?.label ?? '')?.[1];
  if (name && L.every((l) => l.kind === 'dim' && l.label.startsWith(name + '[')) && dims.size === L.length) {
    return (
      name +
      L.map((l, k) => ({ dim: l.dim, v: index[k] }))
        .sort((x, y) => x.dim - y.dim)
        .map((x) => `[${x.v}]`)
        .join('')
    );
  }
  return L.map((l, k) => `${l.label} ${index[k]}`).join(', ');
}

function address(side: Side, loc: number): number {
  const d: Descriptor = side.desc;
  // a PCORE base is a word offset (an SPU side has none)
  if (side.space === 'PCORE' || side.space === 'SPU') return (d.base ?? 0) + loc;
  return (d.base ?? 0) + loc * (d.elemBytes || 1);
}

function union(a: Touched | undefined, b: Touched | undefined): Touched | undefined {
  if (!a || !b) return a ?? b;
  return { space: a.space, lo: Math.min(a.lo, b.lo), hi: Math.max(a.hi, b.hi), count: a.count + b.count };
}
