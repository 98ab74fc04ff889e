/**
 * Element enumeration at run time: a resolved descriptor becomes per-level offset/validity tables, then
 * chunks of element locations (−1 for an element that fails a bounds check) in engine order.
 */
import type { Descriptor } from '../../tprog/descriptor';
import { SimError } from '../types';

export class Walker {
  readonly total: number;
  private readonly counts: number[];
  private readonly offs: Int32Array[];
  private readonly oks: Uint8Array[];
  private readonly base: number;
  private readonly limit: number;
  private readonly partial?: { r: number; c: number; rows: number; lastRow: number; rBegin: number; rStep: number; cBegin: number; cStep: number };

  /** `baseLoc`: location of element 0 before level offsets (PCORE: word base; MEM/SCRATCH: 0). */
  constructor(d: Descriptor, what: string) {
    const L = d.levels;
    for (const l of L) {
      if (l.count === undefined || l.begin === undefined || l.step === undefined || l.stride === undefined) {
        throw new SimError(`${what}: the size or range of ${l.label} could not be evaluated`, undefined, [], 'fault');
      }
      if (l.count <= 0 || l.step <= 0) throw new SimError(`${what}: empty or negative range at ${l.label} (count ${l.count}, step ${l.step}); the engine has no zero-length transfer`);
    }
    this.counts = L.map((l) => l.count!);
    let total = 1;
    for (const c of this.counts) total *= c;
    if (total > 2 ** 31) throw new SimError(`${what}: ${total} elements is more than the engine's 2^31 element limit`);
    this.total = total;
    this.offs = L.map((l) => {
      const t = new Int32Array(l.count!);
      for (let j = 0; j < l.count!; j++) t[j] = (l.begin! + j * l.step!) * l.stride!;
      return t;
    });
    this.oks = L.map((l) => {
      const t = new Uint8Array(l.count!);
      for (let j = 0; j < l.count!; j++) {
        const v = l.begin! + j * l.step!;
        t[j] = v >= 0 && (!l.checkHigh || l.size === undefined || v < l.size) ? 1 : 0;
      }
      return t;
    });
    this.base = d.space === 'PCORE' ? (d.base ?? 0) : 0;
    this.limit = d.bufLimit !== undefined && d.space !== 'PCORE' ? Math.floor(d.bufLimit / Math.max(1, d.elemBytes)) : Infinity;
    if (d.partial && d.partial.rows !== undefined && d.partial.lastRow !== undefined) {
      const r = L.findIndex((l) => l.kind === 'dim' && l.dim === d.partial!.rowLevelDim);
      const c = L.findIndex((l) => l.kind === 'dim' && l.dim === d.partial!.colLevelDim);
      if (r >= 0 && c >= 0) this.partial = { r, c, rows: d.partial.rows, lastRow: d.partial.lastRow, rBegin: L[r].begin!, rStep: L[r].step!, cBegin: L[c].begin!, cStep: L[c].step! };
    }
  }

  /**
   * When every element is valid and element n is at `first + n` (a contiguous run), returns `first`;
   * otherwise undefined. Lets raw copies skip per-element work.
   */
  linearStart(): number | undefined {
    if (this.limit !== Infinity || this.partial) return undefined;
    let expect = 1;
    let first = this.base;
    for (let q = this.counts.length - 1; q >= 0; q--) {
      const off = this.offs[q];
      const ok = this.oks[q];
      for (let j = 0; j < ok.length; j++) if (!ok[j]) return undefined;
      if (this.counts[q] > 1 && off[1] - off[0] !== expect) return undefined;
      for (let j = 2; j < off.length; j++) if (off[j] - off[j - 1] !== expect) return undefined;
      first += off[0];
      expect *= this.counts[q];
    }
    return first;
  }

  /** Fills `out[0..n)` with the locations of elements `start..start+n` (n ≤ total − start). */
  fill(start: number, n: number, out: Int32Array): void {
    const k = this.counts.length;
    if (k === 0) {
      for (let i = 0; i < n; i++) out[i] = this.base;
      return;
    }
    const digits = new Array<number>(k);
    let rest = start;
    for (let q = k - 1; q >= 0; q--) {
      digits[q] = rest % this.counts[q];
      rest = Math.floor(rest / this.counts[q]);
    }
    const inner = k - 1;
    const innerOff = this.offs[inner];
    const innerOk = this.oks[inner];
    const innerCount = this.counts[inner];
    let i = 0;
    while (i < n) {
      // outer part
      let outer = this.base;
      let outerOk = 1;
      for (let q = 0; q < inner; q++) {
        outer += this.offs[q][digits[q]];
        outerOk &= this.oks[q][digits[q]];
      }
      let j = digits[inner];
      const stop = Math.min(innerCount, j + (n - i));
      if (outerOk) {
        for (; j < stop; j++, i++) out[i] = innerOk[j] ? outer + innerOff[j] : -1;
      } else {
        for (; j < stop; j++, i++) out[i] = -1;
      }
      digits[inner] = j;
      // carry
      for (let q = inner; q >= 0; q--) {
        if (digits[q] < this.counts[q]) break;
        digits[q] = 0;
        if (q > 0) digits[q - 1]++;
      }
    }
    if (this.limit !== Infinity) for (let x = 0; x < n; x++) if (out[x] >= this.limit) out[x] = -1;
    if (this.partial) this.applyPartial(start, n, out);
  }

  private applyPartial(start: number, n: number, out: Int32Array): void {
    const p = this.partial!;
    const k = this.counts.length;
    for (let x = 0; x < n; x++) {
      let rest = start + x;
      let rIdx = 0;
      let cIdx = 0;
      for (let q = k - 1; q >= 0; q--) {
        const dgt = rest % this.counts[q];
        rest = Math.floor(rest / this.counts[q]);
        if (q === p.r) rIdx = p.rBegin + dgt * p.rStep;
        if (q === p.c) cIdx = p.cBegin + dgt * p.cStep;
      }
      if (rIdx === p.rows - 1 && cIdx >= p.lastRow) out[x] = -1;
    }
  }
}
