/**
 * Element enumeration at run time: a resolved descriptor becomes, per level, an arithmetic progression of
 * offsets and the closed range of iteration numbers that pass the bounds check; chunks of element
 * locations (−1 for an element that fails a check) are then produced in engine order without tables.
 */
import type { Descriptor } from '../../tprog/descriptor';
import { SimError } from '../types';

interface Lvl {
  count: number;
  /** Offset of iteration 0 and increment per iteration. */
  off0: number;
  inc: number;
  /** Iterations jmin..jmax pass the bounds check (empty when jmin > jmax). */
  jmin: number;
  jmax: number;
}

export class Walker {
  readonly total: number;
  private readonly L: Lvl[];
  private readonly base: number;
  private readonly limit: number;
  private readonly partial?: { r: number; c: number; rows: number; lastRow: number; rBegin: number; rStep: number; cBegin: number; cStep: number };

  constructor(d: Descriptor, what: string) {
    for (const l of d.levels) {
      if (l.count === undefined || l.begin === undefined || l.step === undefined || l.stride === undefined) {
        throw new SimError(`${what}: the size or range of ${l.label} could not be evaluated`, undefined, [], 'fault');
      }
      if (l.count <= 0 || l.step <= 0) throw new SimError(`${what}: empty or negative range at ${l.label} (count ${l.count}, step ${l.step}); the engine has no zero-length transfer`);
    }
    this.L = d.levels.map((l) => {
      const b = l.begin!;
      const s = l.step!;
      const hi = l.checkHigh && l.size !== undefined ? l.size - 1 : Infinity;
      const jmin = Math.max(0, Math.ceil(-b / s));
      const jmax = Math.min(l.count! - 1, hi === Infinity ? l.count! - 1 : Math.floor((hi - b) / s));
      return { count: l.count!, off0: b * l.stride!, inc: s * l.stride!, jmin, jmax };
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
      if (r >= 0 && c >= 0) this.partial = { r, c, rows: d.partial.rows, lastRow: d.partial.lastRow, rBegin: L[r].begin!, rStep: L[r].step!, cBegin: L[c].begin!, cStep: L[c].step! };
    }
  }

  /** When every element is valid and element n is at `first + n`, returns `first`; otherwise undefined. */
  linearStart(): number | undefined {
    if (this.limit !== Infinity || this.partial) return undefined;
    let expect = 1;
    let first = this.base;
    for (let q = this.L.length - 1; q >= 0; q--) {
      const l = this.L[q];
      if (l.jmin !== 0 || l.jmax !== l.count - 1) return undefined;
      if (l.count > 1 && l.inc !== expect) return undefined;
      first += l.off0;
      expect *= l.count;
    }
    return first;
  }

  /** Fills `out[0..n)` with the locations of elements `start..start+n` (n ≤ total − start). */
  fill(start: number, n: number, out: Int32Array): void {
    const L = this.L;
    const k = L.length;
    if (k === 0) {
      out.fill(this.base, 0, n);
      return;
    }
    const digits = new Array<number>(k);
    let rest = start;
    for (let q = k - 1; q >= 0; q--) {
      digits[q] = rest % L[q].count;
      rest = Math.floor(rest / L[q].count);
    }
    const inner = L[k - 1];
    let i = 0;
    while (i < n) {
      let outer = this.base;
      let ok = true;
      for (let q = 0; q < k - 1; q++) {
        const l = L[q];
        const j = digits[q];
        outer += l.off0 + j * l.inc;
        if (j < l.jmin || j > l.jmax) ok = false;
      }
      let j = digits[k - 1];
      const stop = Math.min(inner.count, j + (n - i));
      if (!ok) {
        out.fill(-1, i, i + (stop - j));
        i += stop - j;
      } else {
        const a = Math.min(stop, inner.jmin);
        if (j < a) {
          out.fill(-1, i, i + (a - j));
          i += a - j;
          j = a;
        }
        const b = Math.min(stop, inner.jmax + 1);
        let loc = outer + inner.off0 + j * inner.inc;
        const inc = inner.inc;
        for (; j < b; j++, loc += inc) out[i++] = loc;
        if (j < stop) {
          out.fill(-1, i, i + (stop - j));
          i += stop - j;
          j = stop;
        }
      }
      j = stop;
      digits[k - 1] = j;
      for (let q = k - 1; q >= 0; q--) {
        if (digits[q] < L[q].count) break;
        digits[q] = 0;
        if (q > 0) digits[q - 1]++;
      }
    }
    if (this.limit !== Infinity) for (let x = 0; x < n; x++) if (out[x] >= this.limit) out[x] = -1;
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
