/**
 * The inspector's grid: a header row and a pool of rows (one more than fit) over the shown window of the
 * space, scrolled virtually (common/virtualList: rows past 8 M px scale the scrollbar, wheel and keys
 * stay exact). Each frame fills the rows from the page cache — address, hex, typed values, ASCII,
 * tensor names — and turns per-byte marks into decoration boxes. Rows never outnumber the screen, so a
 * frame costs the same for a 4 KiB page as for 64 MiB of DDR.
 */
import { PAGE_BYTES, touchedBytes, type Overlay } from '../../../core/protocol/webview';
import { ELEM_LABEL, RADIXES, asciiChar, byteChars, formatAddress, formatByte, formatValue, type Radix } from '../../../core/inspect/decode';
import { overlayCovers } from '../../../core/inspect/traceOverlays';
import { ScaledScroll } from '../common/virtualList';
import { h, setClass, setText } from '../common/dom';
import { DecoLayer, F_CHG, F_CUR, F_HL, F_MATCH, F_RD, F_SEL, OV_SHIFT, hasOverlay, rowDecos, type Deco } from './decorations';
import { byteAtX, headerTexts, measureGeometry, newGeometry, setSectionWidths, type Geometry } from './rowLayout';
import type { InspectorModel } from './model';
import type { InspectorView } from './view';

interface RowEls {
  row: HTMLDivElement;
  addr: HTMLSpanElement;
  hex: HTMLSpanElement;
  typed: HTMLSpanElement;
  ascii: HTMLSpanElement;
  ov: HTMLSpanElement;
  off: number;
  /** Bytes of the row highlighted as changed (indexes in the row, comma-separated; for viewDump). */
  chg?: string;
}

/** What every row of one frame shares. */
interface Frame {
  winEnd: number;
  width: number;
  step: number;
  /** Step whose bytes changes are shown against (the previous one, or "changes since"), if any. */
  baseStep: number | undefined;
  diff: boolean;
  /** Marked byte ranges [lo, hi, flag]: highlight, search match, selection, read by the step, cursor. */
  ranges: [number, number, number][];
  /** Scratch flags of a row's bytes and typed values. */
  flags: Uint16Array;
  tflags: Uint16Array;
  digits: number;
  decos: Deco[];
}

const BYTE_TEXT = Object.fromEntries(RADIXES.map((r) => [r, Array.from({ length: 256 }, (_, v) => formatByte(v, r))])) as Record<Radix, string[]>;
const PENDING = Object.fromEntries(RADIXES.map((r) => [r, '\u00b7'.repeat(byteChars(r))])) as Record<Radix, string>;
const ASCII = Array.from({ length: 256 }, (_, v) => asciiChar(v));

/** What the grid uses of the controller: the model, frames, saving, the cursor's status line. */
export type GridView = Pick<InspectorView, 'model' | 'schedule' | 'save' | 'announceCursor'>;

export class Grid {
  private readonly model: InspectorModel;
  readonly rowH = 20;
  readonly scroller: HTMLDivElement;
  readonly header: HTMLDivElement;
  readonly viewport: HTMLDivElement;
  readonly decoLayer = new DecoLayer();
  private readonly scroll: ScaledScroll;
  rows: RowEls[] = [];
  geo!: Geometry;
  private structureKey = '';
  private wheelAcc = 0;
  /** Scroller height, read once per frame (reading it after DOM writes would force a layout). */
  private viewH = 0;
  private firstPaintDone = false;
  /** Frame-time samples of render() (ms), for the bench. */
  readonly renderTimes: number[] = [];

  /** `onUserScroll`: the user scrolled the grid (by the scrollbar), e.g. to hide the tooltip. */
  constructor(
    private readonly view: GridView,
    private readonly onUserScroll: () => void,
  ) {
    this.model = view.model;
    this.header = h('div', { class: 'tl-row tl-head', role: 'row' });
    this.viewport = h('div', { class: 'tl-viewport', role: 'rowgroup' });
    const spacer = h('div', { class: 'tl-spacer' });
    this.scroller = h(
      'div',
      { id: 'tl-grid', class: 'tl-scroller', role: 'grid', tabindex: 0, 'aria-label': 'Memory', 'aria-multiselectable': 'true' },
      h('div', { class: 'tl-sticky' }, this.header, this.viewport),
      spacer,
    );
    this.scroll = new ScaledScroll(this.scroller, spacer, this.rowH, () => this.maxTop);
    this.scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    this.scroller.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    new ResizeObserver(() => {
      this.viewH = 0;
      view.schedule();
    }).observe(this.scroller);
  }

  // ---------------------------------------------------------------------------------------------
  // Scrolling

  get totalRows(): number {
    return Math.ceil(this.model.window().length / this.model.st.width);
  }

  /** Rows fully visible below the header. */
  get visibleRows(): number {
    return Math.max(1, Math.floor(((this.viewH || this.scroller.clientHeight) - this.rowH) / this.rowH));
  }

  private get maxTop(): number {
    return Math.max(0, this.totalRows - this.visibleRows);
  }

  /** Sets the top row and the scrollbar to match. */
  setTop(top: number): void {
    const t = Math.max(0, Math.min(this.maxTop, Math.round(top)));
    this.model.st.top = t;
    this.scroll.syncScrollbar(t);
    this.view.save();
    this.view.schedule();
  }

  private onScroll(): void {
    const top = this.scroll.firstFromScrollbar();
    if (top === undefined) return;
    this.model.st.top = top;
    this.onUserScroll();
    this.view.save();
    this.view.schedule();
  }

  /** Wheel: exact rows, fractions of a row (trackpads) accumulated. */
  private onWheel(e: WheelEvent): void {
    if (e.ctrlKey) return;
    e.preventDefault();
    this.wheelAcc += this.scroll.wheelRows(e, this.visibleRows);
    const whole = Math.trunc(this.wheelAcc);
    if (whole) {
      this.wheelAcc -= whole;
      this.setTop(this.model.st.top + whole);
    }
  }

  /** Scrolls so that byte `off` is visible (centred when it was far away). */
  scrollToOffset(off: number, center = false): void {
    const st = this.model.st;
    const row = Math.floor((off - this.model.window().offset) / st.width);
    const vis = this.visibleRows;
    if (center || row < st.top || row >= st.top + vis) {
      this.setTop(center || row < st.top - vis || row >= st.top + 2 * vis ? row - Math.floor(vis / 3) : row < st.top ? row : row - vis + 1);
    }
  }

  /** The row layout changed (width): rebuild header and rows on the next frame. */
  relayout(): void {
    this.structureKey = '';
  }

  // ---------------------------------------------------------------------------------------------
  // Structure: header and row pool, rebuilt when the row layout or the height changes

  private ensureStructure(): void {
    const { st, info } = this.model;
    const vis = this.visibleRows + 1;
    const key = `${st.width}|${st.type}|${st.radix}|${st.ascii}|${vis}|${info?.id}|${st.bigEndian}`;
    if (key === this.structureKey) return;
    this.structureKey = key;
    const g = (this.geo = newGeometry(st.type, st.radix, st.width, this.rowH, this.geo?.cw));
    this.scroller.classList.toggle('tl-noascii', !st.ascii);
    this.scroller.setAttribute('aria-colcount', '5');
    // header: the same text layout as the rows
    const head = headerTexts(g, st.width, st.type, st.bigEndian, info.unitBytes);
    const digits = this.model.addrDigits();
    setSectionWidths(this.scroller, g, st.width, digits);
    this.header.replaceChildren(
      h('span', { class: 'tl-addr', role: 'columnheader' }, info.unitBytes > 1 ? 'Word' : 'Address'.slice(0, Math.max(4, digits))),
      h('span', { class: 'tl-hex', role: 'columnheader', 'aria-label': 'Bytes' }, head.hex),
      h('span', { class: 'tl-typed', role: 'columnheader', 'aria-label': `${ELEM_LABEL[st.type]} values` }, head.typed),
      h('span', { class: 'tl-ascii', role: 'columnheader' }, st.ascii ? 'ASCII' : ''),
      h('span', { class: 'tl-ov', role: 'columnheader' }, 'Tensors'),
    );
    this.rows = [];
    const frag: HTMLElement[] = [];
    for (let i = 0; i < vis; i++) {
      const addr = h('span', { class: 'tl-addr', role: 'rowheader' });
      const hex = h('span', { class: 'tl-hex', role: 'gridcell', 'data-k': 'b' });
      const typed = h('span', { class: 'tl-typed', role: 'gridcell', 'data-k': 'v' });
      const ascii = h('span', { class: 'tl-ascii', role: 'gridcell', 'data-k': 'c' });
      const ov = h('span', { class: 'tl-ov', role: 'gridcell' });
      const row = h('div', { class: 'tl-row', role: 'row' }, addr, hex, typed, ascii, ov);
      this.rows.push({ row, addr, hex, typed, ascii, ov, off: -1 });
      frag.push(row);
    }
    this.viewport.replaceChildren(this.decoLayer.el, ...frag);
    measureGeometry(g, this.header, this.viewport, this.rowH);
  }

  // ---------------------------------------------------------------------------------------------
  // A frame

  /** Renders the visible rows now (normally called once per animation frame). */
  render(): void {
    if (!this.model.info) return;
    const t0 = performance.now();
    const top = this.layoutFrame();
    const f = this.frameMarks();
    this.requestPages(top, f);
    const win = this.model.window();
    const { st } = this.model;
    let complete = true;
    let cursorRow: RowEls | undefined;
    for (let i = 0; i < this.rows.length; i++) {
      const R = this.rows[i];
      const off = win.offset + (top + i) * f.width;
      if (off >= f.winEnd) {
        if (!R.row.hidden) R.row.hidden = true;
        R.off = -1;
        continue;
      }
      if (!this.paintRow(R, i, top, off, f)) complete = false;
      if (st.cursor >= off && st.cursor < off + Math.min(f.width, f.winEnd - off)) cursorRow = R;
    }
    this.decoLayer.sync(f.decos, this.rowH);
    this.markCursorRow(cursorRow);
    this.endFrame(t0, complete);
  }

  /** Height, row pool, top row (clamped) and scroll height of this frame; returns the top row. */
  private layoutFrame(): number {
    const st = this.model.st;
    this.viewH = this.scroller.clientHeight;
    this.ensureStructure();
    const top = Math.max(0, Math.min(this.maxTop, st.top));
    st.top = top;
    this.scroll.syncSpacer();
    this.scroller.setAttribute('aria-rowcount', String(this.totalRows + 1));
    return top;
  }

  /** The frame's step to diff against and its marked ranges. */
  private frameMarks(): Frame {
    const m = this.model;
    const { st, info } = m;
    const win = m.window();
    const step = st.step;
    const baseStep = info.history ? (st.since !== null ? st.since : step - 1) : undefined;
    const diff = baseStep !== undefined && (st.since !== null ? baseStep !== step : step >= 0);
    const rec = m.stepRec();
    const rd = rec?.read && rec.read.space === info.id ? touchedBytes(rec.read, info.unitBytes) : undefined;
    const sel = st.anchor !== null ? m.selection() : undefined;
    const ranges: [number, number, number][] = [];
    if (m.hl) ranges.push([m.hl.lo, m.hl.hi, F_HL]);
    if (m.match) ranges.push([m.match.lo, m.match.hi, F_MATCH]);
    if (sel) ranges.push([sel.lo, sel.hi, F_SEL]);
    if (rd) ranges.push([rd.lo, rd.hi, F_RD]);
    ranges.push([st.cursor, st.cursor + 1, F_CUR]);
    return {
      winEnd: win.offset + win.length,
      width: st.width,
      step,
      baseStep,
      diff,
      ranges,
      flags: new Uint16Array(st.width),
      tflags: new Uint16Array(this.geo.nT),
      digits: m.addrDigits(),
      decos: [],
    };
  }

  /** Starts loading the pages of the rows shown (and of the step diffed against), one page ahead each way. */
  private requestPages(top: number, f: Frame): void {
    const { info, cache } = this.model;
    const hist = !!info.history;
    const a = this.model.window().offset + top * f.width;
    const b = Math.min(f.winEnd, a + this.rows.length * f.width);
    const p0 = Math.floor(a / PAGE_BYTES);
    const p1 = Math.floor(Math.max(a, b - 1) / PAGE_BYTES);
    cache.ensure(info.id, f.step, p0, p1, info.bytes, hist);
    if (f.diff) cache.ensure(info.id, f.baseStep!, p0, p1, info.bytes, hist);
    cache.ensure(info.id, f.step, p0 - 1, p1 + 1, info.bytes, hist);
  }

  /** Fills row i (showing the bytes at `off`) and adds its decorations; false while its bytes load. */
  private paintRow(R: RowEls, i: number, top: number, off: number, f: Frame): boolean {
    const { info, cache, st } = this.model;
    const hist = !!info.history;
    if (R.row.hidden) R.row.hidden = false;
    R.off = off;
    R.row.setAttribute('aria-rowindex', String(top + i + 2));
    const n = Math.min(f.width, f.winEnd - off);
    const page = Math.floor(off / PAGE_BYTES);
    const inPage = off - page * PAGE_BYTES;
    const pg = cache.get(info.id, f.step, page, hist);
    const cur = pg && pg.length >= inPage + n ? pg.subarray(inPage, inPage + n) : undefined;
    const bp = f.diff ? cache.get(info.id, f.baseStep!, page, hist) : undefined;
    const old = bp && bp.length >= inPage + n ? bp.subarray(inPage, inPage + n) : undefined;
    setText(R.addr, formatAddress((info.base ?? 0) + off / info.unitBytes, f.digits));
    this.paintText(R, cur, n);
    const ovs = this.paintOverlays(R, off, n);
    this.markBytes(R, f, cur, old, ovs, off, n);
    const g = this.geo;
    const y = i * this.rowH;
    rowDecos(f.decos, g, f.flags, n, off, y, 'b');
    rowDecos(f.decos, g, f.tflags, Math.min(g.nT, Math.floor(n / g.eb)), off, y, 'v');
    if (st.ascii) rowDecos(f.decos, g, f.flags, n, off, y, 'c');
    return !!cur && (!f.diff || !!old);
  }

  /** The hex, typed and ASCII text of a row (dots while its page loads). */
  private paintText(R: RowEls, cur: Uint8Array | undefined, n: number): void {
    const { st } = this.model;
    const g = this.geo;
    const radix = st.radix;
    const byteText = BYTE_TEXT[radix];
    let hx = '';
    let asc = '';
    for (let j = 0; j < n; j++) {
      if (j) hx += j % 8 === 0 ? '  ' : ' ';
      hx += cur ? byteText[cur[j]] : PENDING[radix];
      asc += cur ? ASCII[cur[j]] : '\u00b7';
    }
    setText(R.hex, hx);
    if (st.ascii) setText(R.ascii, asc);
    let ty = '';
    for (let t = 0; t < g.nT; t++) {
      const j = t * g.eb;
      if (j + g.eb > n) break;
      let v = cur ? formatValue(cur, j, st.type, st.bigEndian, radix) : '\u00b7';
      if (v.length > g.vc) v = v.slice(0, g.vc - 1) + '\u2026';
      ty += ' ' + v.padStart(g.vc);
    }
    setText(R.typed, ty);
    setClass(R.row, cur ? 'tl-row' : 'tl-row tl-pending');
  }

  /** The names (and tooltip) of the tensors over a row; returns them. */
  private paintOverlays(R: RowEls, off: number, n: number): Overlay[] {
    const overlays = this.model.overlays;
    const ovs = overlays.onRow(off, n);
    setText(R.ov, ovs.length ? [...new Set(ovs.map((x) => x.name))].join(', ') : '');
    setClass(R.ov, ovs.length ? `tl-ov tl-t${overlays.color(ovs[0])}` : 'tl-ov');
    if (ovs.length) R.ov.title = ovs.map((x) => `${x.name}${x.detail ? ': ' + x.detail : ''}`).join('\n');
    else if (R.ov.title) R.ov.removeAttribute('title');
    return ovs;
  }

  /** Per-byte marks of a row (changed, ranges, tensor colour) into f.flags, and per typed value into f.tflags. */
  private markBytes(R: RowEls, f: Frame, cur: Uint8Array | undefined, old: Uint8Array | undefined, ovs: Overlay[], off: number, n: number): void {
    const { flags, tflags } = f;
    const g = this.geo;
    flags.fill(0);
    let chg = '';
    if (cur && old)
      for (let j = 0; j < n; j++)
        if (cur[j] !== old[j]) {
          flags[j] |= F_CHG;
          chg += chg ? `,${j}` : String(j);
        }
    R.chg = chg;
    for (const [lo, hi, fl] of f.ranges) {
      if (hi <= off || lo >= off + n) continue;
      for (let j = Math.max(0, lo - off); j < Math.min(n, hi - off); j++) flags[j] |= fl;
    }
    for (const x of ovs) {
      const fl = (this.model.overlays.color(x) + 1) << OV_SHIFT;
      // a strided tensor (a PCORE block, a strided view) colours its elements, not its gaps
      for (let j = Math.max(0, x.offset - off); j < Math.min(n, x.offset + x.length - off); j++)
        if (!hasOverlay(flags[j]) && (!x.strides || overlayCovers(x, off + j))) flags[j] |= fl;
    }
    tflags.fill(0);
    for (let t = 0; t < g.nT; t++) for (let k = 0; k < g.eb && t * g.eb + k < n; k++) tflags[t] |= flags[t * g.eb + k];
  }

  /** a11y: the row holding the cursor is the active descendant; the status line says which byte. */
  private markCursorRow(cursorRow: RowEls | undefined): void {
    const prev = this.viewport.querySelector('#tl-cursor-row');
    if (prev && prev !== cursorRow?.row) prev.removeAttribute('id');
    if (cursorRow) {
      cursorRow.row.id = 'tl-cursor-row';
      this.scroller.setAttribute('aria-activedescendant', 'tl-cursor-row');
    } else this.scroller.removeAttribute('aria-activedescendant');
  }

  /** Frame time for the bench; the first frame with every row's bytes marks first paint (bench, tests). */
  private endFrame(t0: number, complete: boolean): void {
    const dt = performance.now() - t0;
    this.renderTimes.push(dt);
    if (this.renderTimes.length > 2000) this.renderTimes.splice(0, 1000);
    if (complete && !this.firstPaintDone && this.model.ready) {
      this.firstPaintDone = true;
      performance.mark('tl-first-data-paint');
      document.body.dataset.firstPaint = String(Math.round(performance.now()));
      this.view.announceCursor();
    }
    document.body.dataset.complete = complete ? '1' : '0';
  }

  /** The byte under a point of the grid (hex, typed or ASCII section). */
  offsetAt(target: EventTarget | null, clientX: number): { off: number; kind: string } | undefined {
    const el = (target as HTMLElement | null)?.closest?.('[data-k]') as HTMLElement | null;
    if (!el) return undefined;
    const row = this.rows.find((r) => r.row === el.parentElement);
    if (!row || row.off < 0) return undefined;
    const vp = this.viewport.getBoundingClientRect();
    const kind = el.dataset.k ?? 'b';
    const j = Math.max(0, Math.min(this.model.st.width - 1, byteAtX(this.geo, kind, clientX - vp.left)));
    const off = row.off + j;
    const w = this.model.window();
    if (off >= w.offset + w.length) return undefined;
    return { off, kind };
  }
}
