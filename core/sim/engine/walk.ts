/**
 * Element enumeration at run time: a resolved descriptor becomes, per level, an arithmetic progression of
 * offsets and the closed range of iteration numbers that pass the bounds check. Adjacent levels that
 * together form one progression (the inner one fully valid and contiguous with the outer one, or a
 * level of count 1) are merged, and elements are produced as RUNS: maximal stretches of consecutive
 * ordinals whose locations are one progression and which are all valid or all invalid (−1). The
 * transfer loops consume runs directly (`Cursor`); `fill` expands them into location arrays.
 */
import type { Descriptor } from '../../tprog/descriptor';
import { SimError } from '../types';

interface Lvl {
  count: number;
  /** Offset of iteration 0 and increment per iteration. */
  off0: number;
  inc: number;
  /** Iterations jmin..jmax pass the bounds check; a level none of whose iterations passes has the one form `none` gives. */
  jmin: number;
  jmax: number;
}

function full(l: Lvl): boolean {
  return l.jmin === 0 && l.jmax === l.count - 1;
}

function empty(l: Lvl): boolean {
  return l.jmin > l.jmax;
}

/** No iteration valid: jmin = count, so the cursor reads the whole level as one invalid run (and merged levels keep the form). */
function none(l: Lvl): Lvl {
  return { ...l, jmin: l.count, jmax: l.count - 1 };
}

/** Merges level `o` (outer) with the next level `i` (inner) when the pair enumerates as one level. */
function merge(o: Lvl, i: Lvl): Lvl | undefined {
  // a count-1 inner level only moves the outer one (a count-1 outer level, left alone, walks the same runs)
  if (i.count === 1) {
    const m = { ...o, off0: o.off0 + i.off0 };
    return empty(i) ? none(m) : m;
  }
  if (!full(i) || o.inc !== i.inc * i.count) return undefined;
  const c = i.count;
  // an empty outer level (jmin = count) gives an empty merged one in the same form
  return { count: o.count * c, off0: o.off0 + i.off0, inc: i.inc, jmin: o.jmin * c, jmax: o.jmax * c + c - 1 };
}

export class Walker {
  readonly total: number;
  private readonly L: Lvl[];
  /** Merged levels (at least one) that the cursors walk. */
  readonly M: Lvl[];
  readonly base: number;
  readonly limit: number;
  readonly partial?: { r: number; c: number; rows: number; lastRow: number; rBegin: number; rStep: number; cBegin: number; cStep: number };
  private cur?: Cursor;

  constructor(d: Descriptor, what: string) {
    for (const l of d.levels) {
      if (l.count === undefined || l.begin === undefined || l.step === undefined || l.stride === undefined) {
        throw new SimError(`${what}: the size or range of ${l.label} could not be evaluated`);
      }
      if (l.count <= 0 || l.step <= 0)
        throw new SimError(`${what}: empty or negative range at ${l.label} (count ${l.count}, step ${l.step}); the engine has no zero-length transfer`);
    }
    this.L = d.levels.map((l) => {
      const b = l.begin!;
      const s = l.step!;
      const hi = l.checkHigh && l.size !== undefined ? l.size - 1 : Infinity;
      const lv = {
        count: l.count!,
        off0: b * l.stride!,
        inc: s * l.stride!,
        jmin: Math.max(0, Math.ceil(-b / s)),
        jmax: Math.min(l.count! - 1, Math.floor((hi - b) / s)),
      };
      return empty(lv) ? none(lv) : lv;
    });
    let total = 1;
    for (const l of this.L) total *= l.count;
    if (total > 2 ** 31) throw new SimError(`${what}: ${total} elements is more than the engine's 2^31 element limit`);
    this.total = total;
    this.base = d.space === 'PCORE' ? (d.base ?? 0) : 0;
    this.limit = d.bufLimit !== undefined && d.space !== 'PCORE' ? Math.floor(d.bufLimit / Math.max(1, d.elemBytes)) : Infinity;
    const L = d.levels;
    if (d.partial && d.partial.rows !== undefined && d.partial.lastRow !== undefined) {
      const r = L.findIndex((l) => l.kind === 'dim' && l.dim === d.partial!.rowLevelDim);
      const c = L.findIndex((l) => l.kind === 'dim' && l.dim === d.partial!.colLevelDim);
      if (r >= 0 && c >= 0)
        this.partial = {
          r,
          c,
          rows: d.partial.rows,
          lastRow: d.partial.lastRow,
          rBegin: L[r].begin!,
          rStep: L[r].step!,
          cBegin: L[c].begin!,
          cStep: L[c].step!,
        };
    }
    const M: Lvl[] = [];
    for (const l of this.L) {
      const last = M[M.length - 1];
      const m = last && merge(last, l);
      if (m) M[M.length - 1] = m;
      else M.push({ ...l });
    }
    if (M.length === 0) M.push({ count: 1, off0: 0, inc: 0, jmin: 0, jmax: 0 });
    this.M = M;
  }

  /** When every element is valid and element n is at `first + n`, returns `first`; otherwise undefined. */
  linearStart(): number | undefined {
    if (this.limit !== Infinity || this.partial) return undefined;
    let expect = 1;
    let first = this.base;
    for (let q = this.L.length - 1; q >= 0; q--) {
      const l = this.L[q];
      if (!full(l)) return undefined;
      if (l.count > 1 && l.inc !== expect) return undefined;
      first += l.off0;
      expect *= l.count;
    }
    return first;
  }

  /**
   * Smallest and largest valid location and the number of valid elements, computed from the levels
   * (exact when there is no buffer limit or partial-row rule; undefined then, and when nothing is valid).
   */
  span(): { lo: number; hi: number; count: number } | undefined {
    if (this.limit !== Infinity || this.partial) return undefined;
    let lo = this.base;
    let hi = this.base;
    let count = 1;
    for (const l of this.M) {
      if (empty(l)) return undefined;
      const a = l.off0 + l.jmin * l.inc;
      const b = l.off0 + l.jmax * l.inc;
      lo += Math.min(a, b);
      hi += Math.max(a, b);
      count *= l.jmax - l.jmin + 1;
    }
    return { lo, hi, count };
  }

  /** A new cursor positioned at element `start`. Undefined when runs cannot describe the walk (partial last row). */
  cursor(start = 0): Cursor | undefined {
    if (this.partial) return undefined;
    const c = new Cursor(this);
    c.seek(start);
    return c;
  }

  /** Fills `out[0..n)` with the locations of elements `start..start+n` (n ≤ total − start); −1 = invalid. */
  fill(start: number, n: number, out: Int32Array): void {
    const c = (this.cur ??= new Cursor(this));
    c.seek(start);
    for (let i = 0; i < n;) {
      const r = Math.min(c.next(), n - i);
      const loc = c.loc;
      if (loc < 0) out.fill(-1, i, i + r);
      else for (let k = 0, v = loc, inc = c.inc; k < r; k++, v += inc) out[i + k] = v;
      i += r;
      c.skip(r);
    }
    if (this.partial) this.applyPartial(start, n, out);
  }

  private applyPartial(start: number, n: number, out: Int32Array): void {
    const p = this.partial!;
    const k = this.L.length;
    for (let x = 0; x < n; x++) {
      let rest = start + x;
      let rIdx = 0;
      let cIdx = 0;
      for (let q = k - 1; q >= 0; q--) {
        const dgt = rest % this.L[q].count;
        rest = Math.floor(rest / this.L[q].count);
        if (q === p.r) rIdx = p.rBegin + dgt * p.rStep;
        if (q === p.c) cIdx = p.cBegin + dgt * p.cStep;
      }
      if (rIdx === p.rows - 1 && cIdx >= p.lastRow) out[x] = -1;
    }
  }
}

/**
 * Walks the merged levels of a walker run by run (ignores the partial-row rule: callers use `fill`
 * when the walker has one). `next()` describes the run that starts at the current element without
 * moving; `skip(n)` moves n elements forward (n ≤ the run's length moves within the run).
 */
export class Cursor {
  /** Location of the run's first element, or −1 when the run is invalid. */
  // Stryker disable next-line UnaryOperator: read only after next() has set it
  loc = -1;
  /** Location increment per element within the run. */
  inc = 0;
  /** Current element ordinal. */
  pos = 0;
  private readonly K: number;
  /** Per merged level: count, offset of iteration 0, increment, valid iterations jmin..jmax, elements per iteration. */
  private readonly cnt: Float64Array;
  private readonly off: Float64Array;
  private readonly stp: Float64Array;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  private readonly blk: Float64Array;
  private readonly dig: Float64Array;
  private readonly limit: number;
  private readonly base: number;
  /** Location of the current row's iteration 0 of the inner level (outer levels' offsets + base). */
  private outer = 0;
  /** Outermost level (among the outer ones) whose iteration fails its check, or −1. */
  // Stryker disable next-line UnaryOperator: every cursor is positioned by seek (row()) before it is read
  private bad = -1;
  /** Inner-level iteration of the current element. */
  private j = 0;
  private readonly ic: number;
  private readonly ioff: number;
  private readonly iinc: number;
  private readonly ijmin: number;
  private readonly ijmax: number;

  constructor(w: Walker) {
    const M = w.M;
    const K = M.length;
    this.K = K;
    this.cnt = Float64Array.from(M.map((l) => l.count));
    this.off = Float64Array.from(M.map((l) => l.off0));
    this.stp = Float64Array.from(M.map((l) => l.inc));
    this.lo = Float64Array.from(M.map((l) => l.jmin));
    this.hi = Float64Array.from(M.map((l) => l.jmax));
    this.blk = new Float64Array(K);
    let b = 1;
    for (let q = K - 1; q >= 0; q--) {
      this.blk[q] = b;
      b *= M[q].count;
    }
    this.dig = new Float64Array(K);
    this.limit = w.limit;
    this.base = w.base;
    const I = M[K - 1];
    this.ic = I.count;
    this.ioff = I.off0;
    this.iinc = I.inc;
    this.ijmin = I.jmin;
    this.ijmax = I.jmax;
  }

  /** Moves to element `p` (0 ≤ p ≤ total). */
  seek(p: number): void {
    this.pos = p;
    let rest = p;
    const K = this.K;
    for (let q = K - 1; q >= 0; q--) {
      const c = this.cnt[q];
      const d = rest % c;
      this.dig[q] = d;
      rest = (rest - d) / c;
    }
    this.j = this.dig[K - 1];
    this.row();
  }

  /** Recomputes the outer offset and validity from the outer digits. */
  private row(): void {
    let o = this.base;
    let bad = -1;
    for (let q = 0; q < this.K - 1; q++) {
      const d = this.dig[q];
      o += this.off[q] + d * this.stp[q];
      if (bad < 0 && (d < this.lo[q] || d > this.hi[q])) bad = q;
    }
    this.outer = o;
    this.bad = bad;
  }

  /** Length of the run starting at the current element (≥ 1; call only while pos < total); sets loc and inc. */
  next(): number {
    const j = this.j;
    if (this.bad >= 0) {
      // invalid until the digit of the outermost failing level changes
      const b = this.blk[this.bad];
      this.loc = -1;
      return b - (this.pos % b);
    }
    // (jmin ≤ count: an invalid prefix ends within the row)
    if (j < this.ijmin) {
      this.loc = -1;
      return this.ijmin - j;
    }
    if (j > this.ijmax) {
      this.loc = -1;
      return this.ic - j;
    }
    this.inc = this.iinc;
    return this.limited(this.outer + this.ioff + j * this.iinc, this.iinc, this.ijmax + 1 - j);
  }

  /** A stretch of `n` valid iterations from `loc` under the buffer limit (Infinity when none): locations ≥ limit are invalid. */
  private limited(loc: number, inc: number, n: number): number {
    const lim = this.limit;
    if (inc < 0) {
      // decreasing locations: an invalid prefix, then valid
      if (loc < lim) {
        this.loc = loc;
        return n;
      }
      this.loc = -1;
      return Math.min(n, Math.floor((loc - lim) / -inc) + 1);
    }
    // constant or increasing locations: a valid prefix, then invalid to the end of the stretch
    if (loc >= lim) {
      this.loc = -1;
      return n;
    }
    this.loc = loc;
    return Math.min(n, Math.ceil((lim - loc) / inc));
  }

  /** Moves `n` elements forward. */
  skip(n: number): void {
    const j = this.j + n;
    this.pos += n;
    // fast paths from a valid row (any other move seeks): within the row, or onto the next row without a carry.
    // Skipping a fast path only seeks, to the same position: those mutants are equivalent (the paths save time only).
    // Stryker disable next-line ConditionalExpression,BlockStatement: a fast path not taken seeks (same position)
    if (this.bad < 0) {
      // Stryker disable next-line ConditionalExpression,BlockStatement: a fast path not taken seeks (same position)
      if (j < this.ic) {
        this.j = j;
        return;
      }
      // (one level: q = −1, dig[−1] is undefined and the comparison false)
      // Stryker disable next-line ArithmeticOperator: another q finds no digit (undefined), and the move seeks
      const q = this.K - 2;
      // Stryker disable next-line ConditionalExpression,BlockStatement: a fast path not taken seeks (same position)
      if (j === this.ic && this.dig[q] + 1 < this.cnt[q]) {
        // the row before passed its checks and digits only grow: only the upper bound can fail
        const d = ++this.dig[q];
        this.j = 0;
        this.outer += this.stp[q];
        if (d > this.hi[q]) this.bad = q;
        return;
      }
    }
    this.seek(this.pos);
  }
}
