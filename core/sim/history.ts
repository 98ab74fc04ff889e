/**
 * Memory history of a run: for every tensor step, the old contents of the pages it changed (copy on
 * first write within the step; unchanged pages are dropped at the end of the step). The state after any
 * step is the current memory with later steps' old pages put back — no full copies are kept.
 */

export const PAGE_BYTES = 4096;

export type Buffer = Uint8Array | Int16Array;

interface Saved {
  step: number;
  page: number;
  old: Buffer;
}

export class SpaceHistory {
  /** Saved pages per page index, in step order. */
  private readonly byPage = new Map<number, Saved[]>();
  private readonly pending = new Map<number, Buffer>();
  private readonly pageElems: number;
  bytesKept = 0;

  constructor(
    readonly name: string,
    readonly buf: Buffer,
  ) {
    this.pageElems = buf instanceof Int16Array ? PAGE_BYTES / 2 : PAGE_BYTES;
  }

  /** Records the old contents of the pages covering elements [from, to] (inclusive) before they are written. */
  touch(from: number, to: number): void {
    if (to < from) return;
    const p0 = Math.floor(from / this.pageElems);
    const p1 = Math.floor(Math.min(to, this.buf.length - 1) / this.pageElems);
    for (let p = p0; p <= p1; p++) {
      if (this.pending.has(p)) continue;
      const s = p * this.pageElems;
      this.pending.set(p, this.buf.slice(s, s + this.pageElems));
    }
  }

  /** Ends a step: keeps the old copies of pages that really changed. Returns the changed page indexes. */
  commit(step: number): number[] {
    const changed: number[] = [];
    for (const [p, old] of this.pending) {
      const s = p * this.pageElems;
      const cur = this.buf.subarray(s, s + this.pageElems);
      let same = true;
      for (let i = 0; i < old.length; i++) {
        if (old[i] !== cur[i]) {
          same = false;
          break;
        }
      }
      if (same) continue;
      changed.push(p);
      let list = this.byPage.get(p);
      if (!list) this.byPage.set(p, (list = []));
      list.push({ step, page: p, old });
      this.bytesKept += old.byteLength;
    }
    this.pending.clear();
    return changed.sort((a, b) => a - b);
  }

  /** Contents of elements [start, start+len) as they were after step `step` (−1 = before the first step). */
  read(start: number, len: number, step: number): Buffer {
    const out = this.buf.slice(start, start + len);
    const p0 = Math.floor(start / this.pageElems);
    const p1 = Math.floor((start + len - 1) / this.pageElems);
    for (let p = p0; p <= p1; p++) {
      const list = this.byPage.get(p);
      if (!list) continue;
      // first save after `step` holds the state after `step`
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid].step <= step) lo = mid + 1;
        else hi = mid;
      }
      if (lo >= list.length) continue;
      const old = list[lo].old;
      const ps = p * this.pageElems;
      const a = Math.max(start, ps);
      const b = Math.min(start + len, ps + this.pageElems);
      for (let i = a; i < b; i++) out[i - start] = old[i - ps];
    }
    return out;
  }
}
