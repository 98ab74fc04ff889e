/**
 * Virtual scrolling of fixed-height rows, for lists of millions of rows: only the visible rows exist in
 * the DOM, and scroll heights beyond `MAX_SCROLL_PX` are scaled (the scrollbar maps proportionally to
 * rows; the wheel and the keys move by exact rows). The memory inspector's grid and the .csfbin viewer's
 * lists both scroll this way.
 *
 * - `ScaledScroll`: the mapping between the first row shown and the scroller's scrollbar, for a view
 *   that draws its own rows (the inspector: a header row, a row pool rebuilt with the row layout,
 *   decorations).
 * - `VirtualList`: a ready list on top of it — scroller, row pool, wheel and keys — for views that only
 *   fill rows (the .csfbin viewer).
 */
import { h } from './dom';

/** Largest scroll height used; taller lists scale the scrollbar (browsers cap element heights). */
export const MAX_SCROLL_PX = 8_000_000;

/** The scrollbar of a virtual list: a spacer of (scaled) height, and the first row ↔ scrollTop. */
export class ScaledScroll {
  /** scrollTop we set ourselves, whose scroll event is not a user's scroll (−1: none). */
  private ignoreAt = -1;

  constructor(
    readonly scroller: HTMLElement,
    private readonly spacer: HTMLElement,
    readonly rowH: number,
    /** Rows that can be the first shown at most (total − rows fully visible). */
    private readonly maxFirst: () => number,
  ) {}

  /** Spacer height: one row height per row the view can scroll by, capped at MAX_SCROLL_PX. */
  spacerPx(): number {
    return Math.min(this.maxFirst() * this.rowH, MAX_SCROLL_PX);
  }

  syncSpacer(): void {
    const px = this.spacerPx();
    if (this.spacer.style.height !== `${px}px`) this.spacer.style.height = `${px}px`;
  }

  /** Moves the scrollbar to where row `first` is the first shown (its scroll event is then ignored). */
  syncScrollbar(first: number): void {
    const mf = this.maxFirst();
    const want = mf ? Math.round((first / mf) * this.spacerPx()) : 0;
    if (Math.abs(this.scroller.scrollTop - want) >= 1) {
      this.ignoreAt = want;
      this.scroller.scrollTop = want;
    }
  }

  /** On a scroll event: the first row the scrollbar now shows, or undefined when we moved it ourselves. */
  firstFromScrollbar(): number | undefined {
    const st = this.scroller.scrollTop;
    if (this.ignoreAt >= 0 && Math.abs(st - this.ignoreAt) < 1.5) {
      this.ignoreAt = -1;
      return undefined;
    }
    this.ignoreAt = -1;
    const px = this.spacerPx();
    return px > 0 ? Math.round((Math.min(st, px) / px) * this.maxFirst()) : 0;
  }

  /** Rows a wheel event asks to scroll by (fractional for pixel deltas); `pageRows` for page deltas. */
  wheelRows(e: WheelEvent, pageRows: number): number {
    return e.deltaMode === 1 ? e.deltaY : e.deltaMode === 2 ? e.deltaY * pageRows : e.deltaY / this.rowH;
  }
}

/** A scroller with a pool of rows filled by `fill(row, el)`; at least one row per wheel notch. */
export class VirtualList {
  readonly scroller: HTMLDivElement;
  private readonly viewport: HTMLDivElement;
  private readonly scroll: ScaledScroll;
  private readonly pool: HTMLDivElement[] = [];
  private total = 0;
  /** First row shown. */
  first = 0;

  constructor(
    id: string,
    label: string,
    private readonly rowH: number,
    private readonly fill: (row: number, el: HTMLDivElement) => void,
    private readonly make: () => HTMLDivElement,
  ) {
    this.viewport = h('div', { class: 'csf-viewport' });
    const spacer = h('div', { class: 'csf-spacer' });
    this.scroller = h(
      'div',
      { id, class: 'csf-scroller', role: 'grid', tabindex: 0, 'aria-label': label },
      h('div', { class: 'csf-sticky' }, this.viewport),
      spacer,
    );
    this.scroll = new ScaledScroll(this.scroller, spacer, rowH, () => this.maxFirst());
    this.scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    this.scroller.addEventListener(
      'wheel',
      (ev: WheelEvent) => {
        if (ev.ctrlKey || Math.abs(ev.deltaY) < Math.abs(ev.deltaX)) return;
        ev.preventDefault();
        const rows = this.scroll.wheelRows(ev, this.visibleFull());
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
    this.scroll.syncSpacer();
    this.scroll.syncScrollbar(this.first);
  }

  private onScroll(): void {
    const first = this.scroll.firstFromScrollbar();
    if (first === undefined) return;
    this.first = first;
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
