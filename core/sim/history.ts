/**
 * Memory history of a run: for every tensor step, the old contents of the pages it changed (copy on
 * first write within the step; unchanged pages are dropped at the end of the step). The state after any
 * step is the current memory with later steps' old pages put back — no full copies are kept.
 *
 * Host C code writes MEM between tensor steps too. Those writes are journaled the same way: a page
 * flag per page says whether the page's old contents are already saved for the current interval, so
 * the host checks one byte per store and calls `touch` only on the first write to a page after a step
 * boundary (`journal`). The host writes made before step N are committed (`commitHost(N)`) under the
 * key N − 0.5, so:
 *   - `read(.., N)`       = the state right after step N (later host writes are not visible);
 *   - `read(.., N - 0.5)` = the state just before step N runs (after the host code preceding it);
 *   - `read(.., -1)`      = the state before any host code or step of the run.
 */

import type { MemJournal } from './types';

export const PAGE_BYTES = 4096;

export type Buffer = Uint8Array | Int16Array;

interface Saved {
  /** Key of the interval whose start state `old` holds (a step number, or N − 0.5 for host code before step N). */
  step: number;
  page: number;
  old: Buffer;
}

export type { MemJournal };

export class SpaceHistory {
  /** Saved pages per page index, in step order. */
  private readonly byPage = new Map<number, Saved[]>();
  private readonly pending = new Map<number, Buffer>();
  private readonly pageElems: number;
  /** 1 while a page's old contents are pending (saved for the current step or host interval). */
  private readonly flags: Uint8Array;
  /** Key of the latest commit (−1: none yet). */
  private last = -1;
  bytesKept = 0;
  /** For the host interpreter: page flags and the slow path of its per-write check. */
  readonly journal: MemJournal;

  constructor(
    readonly name: string,
    readonly buf: Buffer,
  ) {
    this.pageElems = buf instanceof Int16Array ? PAGE_BYTES / 2 : PAGE_BYTES;
    this.flags = new Uint8Array(Math.ceil(buf.length / this.pageElems) + 1);
    this.flags[this.flags.length - 1] = 1; // past the end: never journaled
    this.journal = { flags: this.flags, shift: Math.log2(this.pageElems), mark: (a, b) => this.touch(a, b) };
  }

  /** Records the old contents of the pages covering elements [from, to] (inclusive) before they are written. */
  touch(from: number, to: number): void {
    if (to < from) return;
    const p0 = Math.floor(Math.max(0, from) / this.pageElems);
    const p1 = Math.floor(Math.min(to, this.buf.length - 1) / this.pageElems);
    const f = this.flags;
    const pe = this.pageElems;
    for (let p = p0; p <= p1; p++) {
      if (f[p]) continue;
      // a run of pages not saved yet: one copy, one view per page (kept pages are compacted at commit)
      let q = p;
      while (q < p1 && !f[q + 1]) q++;
      const big = this.buf.slice(p * pe, (q + 1) * pe);
      for (let k = p; k <= q; k++) {
        f[k] = 1;
        this.pending.set(k, q === p ? big : big.subarray((k - p) * pe, (k - p + 1) * pe));
      }
      p = q;
    }
  }

  /** Ends a step: keeps the old copies of pages that really changed. Returns the changed page indexes. */
  commit(step: number): number[] {
    return this.commitAs(step);
  }

  /**
   * Ends the host interval before step `beforeStep`: its changed pages are kept under the key
   * `beforeStep − 0.5`. Returns the changed page indexes. Call it before the step's own writes.
   */
  commitHost(beforeStep: number): number[] {
    return this.pending.size ? this.commitAs(beforeStep - 0.5) : [];
  }

  /** Key of the latest commit (−1 before the first): a step, or N − 0.5 for the host interval before step N. */
  get lastCommit(): number {
    return this.last;
  }

  /** Are there pages written since the last commit (by host code, typically)? */
  get dirty(): boolean {
    return this.pending.size > 0;
  }

  private commitAs(key: number): number[] {
    const changed: number[] = [];
    const f = this.flags;
    for (const [p, old] of this.pending) {
      f[p] = 0;
      const s = p * this.pageElems;
      const cur = this.buf.subarray(s, s + this.pageElems);
      if (same(old, cur)) continue;
      changed.push(p);
      let list = this.byPage.get(p);
      if (!list) this.byPage.set(p, (list = []));
      // a view into a multi-page copy: keep only this page
      const own = old.byteLength === old.buffer.byteLength ? old : old.slice();
      list.push({ step: key, page: p, old: own });
      this.bytesKept += own.byteLength;
    }
    this.pending.clear();
    if (key > this.last) this.last = key;
    return changed.sort((a, b) => a - b);
  }

  /**
   * Contents of elements [start, start+len) as they were after step `step` (−1 = before the first step;
   * N − 0.5 = just before step N, after the host code that preceded it).
   */
  read(start: number, len: number, step: number): Buffer {
    const out = this.buf.slice(start, start + len);
    const p0 = Math.floor(start / this.pageElems);
    const p1 = Math.floor((start + len - 1) / this.pageElems);
    for (let p = p0; p <= p1; p++) {
      const list = this.byPage.get(p);
      let old: Buffer | undefined;
      if (list) {
        // first save after `step` holds the state after `step`
        let lo = 0;
        let hi = list.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (list[mid].step <= step) lo = mid + 1;
          else hi = mid;
        }
        if (lo < list.length) old = list[lo].old;
      }
      // pages written since the last commit (host code after the last step) hold the last commit's state
      if (!old && step <= this.last) old = this.pending.get(p);
      if (!old) continue;
      const ps = p * this.pageElems;
      const a = Math.max(start, ps);
      const b = Math.min(start + len, ps + this.pageElems);
      for (let i = a; i < b; i++) out[i - start] = old[i - ps];
    }
    return out;
  }
}

/** Element-wise equality of two pages (compared 4 bytes at a time when aligned). */
function same(a: Buffer, b: Buffer): boolean {
  const n = a.byteLength;
  if (n === b.byteLength && (n & 3) === 0 && (a.byteOffset & 3) === 0 && (b.byteOffset & 3) === 0) {
    const x = new Int32Array(a.buffer, a.byteOffset, n >> 2);
    const y = new Int32Array(b.buffer, b.byteOffset, n >> 2);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
