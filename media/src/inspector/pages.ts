/**
 * Page cache of the memory inspector: 4 KiB pages of (space, version) read on demand with coalesced
 * `read` requests, least recently used pages dropped. A page's version is the last step at or before
 * the viewed step that changed it (from the trace's `changed` lists), so scrubbing through steps that
 * do not touch a page reuses it.
 */
import { PAGE_BYTES, bytesOf } from '../../../core/protocol/webview';
import type { TraceStep } from '../../../core/protocol/trace';
import type { Rpc } from '../common/rpc';

const FAILED = new Uint8Array(0);

export class PageCache {
  private readonly pages = new Map<string, Uint8Array>();
  private readonly inflight = new Set<string>();
  /** space → page → ascending steps that changed it. */
  private changes = new Map<string, Map<number, number[]>>();
  private indexed = false;
  private generation = 0;
  requests = 0;

  constructor(
    private readonly rpc: Rpc,
    private readonly onLoad: () => void,
    private readonly maxPages = 2048,
    /** A read failed (e.g. the run is no longer kept): the message to show. */
    private readonly onError?: (message: string) => void,
    /** Pages per `read` request at most (the grid's few rows: 16; a whole picture: up to MAX_READ_BYTES). */
    private readonly runPages = 16,
  ) {}

  /** Builds the page-change index from the complete trace (until then every step is its own version). */
  index(steps: readonly TraceStep[]): void {
    const m = new Map<string, Map<number, number[]>>();
    const add = (space: string, pages: number[], at: number) => {
      let sp = m.get(space);
      if (!sp) m.set(space, (sp = new Map()));
      for (const p of pages) {
        let l = sp.get(p);
        if (!l) sp.set(p, (l = []));
        l.push(at);
      }
    };
    for (const s of steps) {
      // host C writes before step s: a version between s − 1 and s (so viewing step s does not reuse step s − 1's page)
      if (s.hostChanged) for (const [space, pages] of Object.entries(s.hostChanged)) add(space, pages, s.step - 0.5);
      for (const [space, pages] of Object.entries(s.changed)) add(space, pages, s.step);
    }
    this.changes = m;
    this.indexed = true;
  }

  /** Content version of a page at `step`: the last changing step ≤ step, or −1; `step` itself when unknown. */
  version(space: string, page: number, step: number, history: boolean): number {
    if (!history) return 0;
    if (!this.indexed) return step;
    const l = this.changes.get(space)?.get(page);
    if (!l || l.length === 0 || l[0] > step) return -1;
    let lo = 0;
    let hi = l.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (l[mid] <= step) lo = mid + 1;
      else hi = mid;
    }
    return l[lo - 1];
  }

  private key(space: string, version: number, page: number): string {
    return `${space}\u0000${version}\u0000${page}`;
  }

  /** A loaded page, or undefined (not loaded yet, or the read failed). */
  get(space: string, step: number, page: number, history: boolean): Uint8Array | undefined {
    const k = this.key(space, this.version(space, page, step, history), page);
    const p = this.pages.get(k);
    if (!p || p === FAILED) return undefined;
    // LRU: move to the end
    this.pages.delete(k);
    this.pages.set(k, p);
    return p;
  }

  /** A loaded page without refreshing its place in the LRU order (a whole picture's 16,384 pages: no churn of the map). */
  peek(space: string, step: number, page: number, history: boolean): Uint8Array | undefined {
    const p = this.pages.get(this.key(space, this.version(space, page, step, history), page));
    return p && p !== FAILED ? p : undefined;
  }

  /** Starts loading pages [p0, p1] of a space at `step` that are not cached or in flight. */
  ensure(space: string, step: number, p0: number, p1: number, spaceBytes: number, history: boolean): void {
    const last = Math.floor((spaceBytes - 1) / PAGE_BYTES);
    p0 = Math.max(0, p0);
    p1 = Math.min(last, p1);
    let runStart = -1;
    const flush = (end: number) => {
      if (runStart < 0) return;
      this.fetch(space, step, runStart, end, spaceBytes, history);
      runStart = -1;
    };
    for (let p = p0; p <= p1; p++) {
      const k = this.key(space, this.version(space, p, step, history), p);
      const missing = !this.pages.has(k) && !this.inflight.has(k);
      if (missing) {
        if (runStart < 0) runStart = p;
        if (p - runStart >= this.runPages - 1) flush(p);
      } else flush(p - 1);
    }
    flush(p1);
  }

  private fetch(space: string, step: number, p0: number, p1: number, spaceBytes: number, history: boolean): void {
    const keys: string[] = [];
    for (let p = p0; p <= p1; p++) {
      const k = this.key(space, this.version(space, p, step, history), p);
      keys.push(k);
      this.inflight.add(k);
    }
    const offset = p0 * PAGE_BYTES;
    const length = Math.min(spaceBytes, (p1 + 1) * PAGE_BYTES) - offset;
    const gen = this.generation;
    this.requests++;
    this.rpc.request('read', { space, offset, length, step }).then(
      (r) => {
        if (gen !== this.generation) return;
        const b = bytesOf(r.bytes);
        keys.forEach((k, i) => {
          this.inflight.delete(k);
          this.pages.set(k, b.subarray(i * PAGE_BYTES, Math.min(b.length, (i + 1) * PAGE_BYTES)));
        });
        this.trim();
        this.onLoad();
      },
      (e) => {
        if (gen !== this.generation) return;
        for (const k of keys) {
          this.inflight.delete(k);
          this.pages.set(k, FAILED);
        }
        const msg = e instanceof Error ? e.message : String(e);
        console.warn(`[tensor-lens] read ${space} ${offset}+${length}: ${msg}`);
        this.onError?.(`Cannot read ${space}: ${msg}`);
        this.onLoad();
      },
    );
  }

  private trim(): void {
    while (this.pages.size > this.maxPages) {
      const first = this.pages.keys().next().value as string;
      this.pages.delete(first);
    }
  }

  /** Drops everything (memory changed). */
  clear(): void {
    this.pages.clear();
    this.inflight.clear();
    this.indexed = false;
    this.changes.clear();
    this.generation++;
  }

  get size(): number {
    return this.pages.size;
  }

  get pending(): number {
    return this.inflight.size;
  }
}
