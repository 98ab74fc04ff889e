/**
 * A picture's bytes, read the way the hex grid reads them: through a PageCache (the same `read` requests,
 * the same page versions per step, so a step that did not touch the picture's pages costs no request).
 * The Views pane has its own cache instance, sized for a whole picture and asking for up to MAX_READ_BYTES
 * per request, so that a 64 MiB heatmap neither evicts the grid's pages nor takes 16,000 round trips.
 */
import { MAX_READ_BYTES, PAGE_BYTES, type SpaceInfo } from '../../../../core/protocol/webview';
import type { TraceStep } from '../../../../core/protocol/trace';
import type { Rpc } from '../../common/rpc';
import { PageCache } from '../pages';

/** Largest region the Views pane reads (a 4096 × 4096 f32 heatmap). */
export const MAX_VIEW_BYTES = 64 * 1024 * 1024;

export class RegionReader {
  private readonly cache: PageCache;
  private waiting: (() => void)[] = [];
  private failure: string | undefined;

  constructor(rpc: Rpc) {
    this.cache = new PageCache(
      rpc,
      () => this.wake(),
      MAX_VIEW_BYTES / PAGE_BYTES + 64,
      (msg) => {
        this.failure = msg;
        this.wake();
      },
      MAX_READ_BYTES / PAGE_BYTES,
    );
  }

  /** Reads answered: the waiting picture looks again once none is in flight (not at each of its 64 answers: a look walks every page). */
  private wake(): void {
    if (this.cache.pending > 0 && !this.failure) return;
    const w = this.waiting;
    this.waiting = [];
    for (const f of w) f();
  }

  /** Page versions from the complete trace (as the grid's cache has them). */
  index(steps: readonly TraceStep[]): void {
    this.cache.index(steps);
  }

  /** The memory changed (a new run): nothing cached holds. */
  clear(): void {
    this.cache.clear();
    this.failure = undefined;
  }

  /** Requests in flight (tests wait for none). */
  get pending(): number {
    return this.cache.pending;
  }

  /**
   * Bytes [offset, offset + length) of a space after `step`, assembled from pages. Rejects with the read's
   * error (an evicted run), or when the region is past the end of the space.
   */
  async read(info: SpaceInfo, offset: number, length: number, step: number): Promise<Uint8Array> {
    if (length > MAX_VIEW_BYTES) throw new Error(`${length} bytes is more than a picture reads (${MAX_VIEW_BYTES})`);
    if (offset + length > info.bytes) throw new Error(`bytes ${offset}..${offset + length} are past the end of ${info.label} (${info.bytes} bytes)`);
    const out = new Uint8Array(length);
    if (length === 0) return out;
    const p0 = Math.floor(offset / PAGE_BYTES);
    const p1 = Math.floor((offset + length - 1) / PAGE_BYTES);
    const hist = !!info.history;
    this.failure = undefined;
    const pages: Uint8Array[] = new Array(p1 - p0 + 1);
    for (;;) {
      // one pass: the pages at hand; from the first missing one on, ask for the rest and wait for all answers
      let missing = -1;
      for (let p = p0; p <= p1; p++) {
        // the pane's own cache: its LRU order does not matter while one picture fills it
        const page = this.cache.peek(info.id, step, p, hist);
        if (!page) {
          missing = p;
          break;
        }
        pages[p - p0] = page;
      }
      if (missing < 0) break;
      if (this.failure) throw new Error(this.failure);
      this.cache.ensure(info.id, step, missing, p1, info.bytes, hist);
      if (this.cache.pending === 0) throw new Error(`cannot read ${info.label} bytes ${offset}..${offset + length}`);
      await new Promise<void>((r) => this.waiting.push(r));
    }
    for (let p = p0; p <= p1; p++) {
      const page = pages[p - p0];
      const start = p * PAGE_BYTES;
      const from = Math.max(offset, start);
      const to = Math.min(offset + length, start + page.length);
      if (to > from) out.set(page.subarray(from - start, to - start), from - offset);
    }
    return out;
  }
}
