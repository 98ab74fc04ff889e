/**
 * A virtual list of fixed-height rows for millions of rows: only the visible rows exist in the DOM,
 * and scroll heights beyond `MAX_SCROLL_PX` are scaled (the scrollbar maps proportionally to rows; the
 * wheel moves by exact rows).
 */
import { h } from '../common/dom';

const MAX_SCROLL_PX = 8_000_000;

export class VirtualList {
  readonly scroller: HTMLDivElement;
  private readonly viewport: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly pool: HTMLDivElement[] = [];
  private total = 0;
  /** First row shown. */
  first = 0;
  private ignoreScroll = false;

  constructor(
    id: string,
    label: string,
    private readonly rowH: number,
    private readonly fill: (row: number, el: HTMLDivElement) => void,
    private readonly make: () => HTMLDivElement,
  ) {
    this.viewport = h('div', { class: 'csf-viewport' });
    this.spacer = h('div', { class: 'csf-spacer' });
    this.scroller = h('div', { id, class: 'csf-scroller', role: 'grid', tabindex: 0, 'aria-label': label }, h('div', { class: 'csf-sticky' }, this.viewport), this.spacer);
    this.scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    this.scroller.addEventListener(
      'wheel',
      (ev: WheelEvent) => {
        if (ev.ctrlKey || Math.abs(ev.deltaY) < Math.abs(ev.deltaX)) return;
        ev.preventDefault();
        const rows = ev.deltaMode === 1 ? ev.deltaY : ev.deltaMode === 2 ? ev.deltaY * this.visibleFull() : ev.deltaY / this.rowH;
        this.scrollTo(this.first + Math.round(rows === 0 ? 0 : Math.sign(rows) * Math.max(1, Math.abs(rows))));
      },
      { passive: false },
    );
    this.scroller.addEventListener('keydown', (ev: KeyboardEvent) => {
      const page = Math.max(1, this.visibleFull() - 1);
      const to: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
      if (ev.key in to) this.scrollTo(this.first + to[ev.key]);
      else if (ev.key === 'Home') this.scrollTo(0);
      else if (ev.key === 'End') this.scrollTo(this.total);
      else return;
      ev.preventDefault();
    });
    new ResizeObserver(() => this.render()).observe(this.scroller);
  }

  get rowCount(): number {
    return this.total;
  }

  setTotal(n: number): void {
    this.total = n;
    this.scroller.setAttribute('aria-rowcount', String(n));
    this.first = Math.min(this.first, this.maxFirst());
    this.syncScroll();
    this.render();
  }

  /** Rows fully visible. */
  visibleFull(): number {
    return Math.max(1, Math.floor(this.scroller.clientHeight / this.rowH));
  }

  private maxFirst(): number {
    return Math.max(0, this.total - this.visibleFull());
  }

  private spacerPx(): number {
    return Math.min(this.maxFirst() * this.rowH, MAX_SCROLL_PX);
  }

  /** Shows row `r` at the top (clamped). */
  scrollTo(r: number): void {
    this.first = Math.max(0, Math.min(this.maxFirst(), Math.round(r)));
    this.syncScroll();
    this.render();
  }

  /** Scrolls so that row `r` is visible (a third from the top when it was not). */
  reveal(r: number): void {
    if (r >= this.first && r < this.first + this.visibleFull()) return this.render();
    this.scrollTo(r - Math.floor(this.visibleFull() / 3));
  }

  private syncScroll(): void {
    const px = this.spacerPx();
    if (this.spacer.style.height !== `${px}px`) this.spacer.style.height = `${px}px`;
    const mf = this.maxFirst();
    const want = mf === 0 ? 0 : Math.round((this.first / mf) * px);
    if (Math.abs(this.scroller.scrollTop - want) >= 1) {
      this.ignoreScroll = true;
      this.scroller.scrollTop = want;
    }
  }

  private onScroll(): void {
    if (this.ignoreScroll) {
      this.ignoreScroll = false;
      return;
    }
    const px = this.spacerPx();
    const mf = this.maxFirst();
    const st = Math.min(this.scroller.scrollTop, px);
    this.first = px === 0 ? 0 : Math.round((st / px) * mf);
    this.render();
  }

  /** Rows currently shown: [first, last]. */
  range(): [number, number] {
    const n = Math.ceil(this.scroller.clientHeight / this.rowH);
    return [this.first, Math.min(this.total, this.first + n) - 1];
  }

  render(): void {
    const n = Math.ceil(this.scroller.clientHeight / this.rowH);
    while (this.pool.length < n) {
      const el = this.make();
      this.pool.push(el);
      this.viewport.append(el);
    }
    for (let i = 0; i < this.pool.length; i++) {
      const el = this.pool[i];
      const r = this.first + i;
      if (i >= n || r >= this.total) {
        if (!el.hidden) el.hidden = true;
        continue;
      }
      if (el.hidden) el.hidden = false;
      el.setAttribute('aria-rowindex', String(r + 1));
      this.fill(r, el);
    }
  }
}

/** Pages of a remote list: loads on demand, keeps at most `maxPages`, calls `changed` when a page arrives. */
export class PageCache<T> {
  private readonly pages = new Map<number, T[]>();
  private readonly loading = new Set<number>();
  private failed = new Set<number>();

  constructor(
    readonly pageSize: number,
    private readonly maxPages: number,
    private readonly load: (page: number) => Promise<T[]>,
    private readonly changed: () => void,
  ) {}

  get pending(): number {
    return this.loading.size;
  }

  /** Item i, or undefined while its page loads (the load is started). */
  get(i: number): T | undefined {
    const p = Math.floor(i / this.pageSize);
    const page = this.pages.get(p);
    if (page) {
      // most recently used last
      this.pages.delete(p);
      this.pages.set(p, page);
      return page[i - p * this.pageSize];
    }
    if (!this.loading.has(p) && !this.failed.has(p)) {
      this.loading.add(p);
      this.load(p).then(
        (items) => {
          this.loading.delete(p);
          this.pages.set(p, items);
          while (this.pages.size > this.maxPages) this.pages.delete(this.pages.keys().next().value as number);
          this.changed();
        },
        () => {
          this.loading.delete(p);
          this.failed.add(p);
          this.changed();
        },
      );
    }
    return undefined;
  }

  /** Pages held (tests check the view never holds the whole file). */
  get held(): number {
    return this.pages.size;
  }

  clear(): void {
    this.pages.clear();
    this.failed.clear();
  }
}
