/**
 * The memory inspector: a virtual-scrolling hex/typed/ASCII grid over paged reads, a step timeline,
 * change and read marks, tensor overlays, go-to, search, export. The page never holds more than the
 * page cache (a few MiB) of a memory, whatever its size.
 *
 * This class owns the view's state (what is shown: space, window, step, marks) and its wiring to the
 * extension (hello, steps, overlays, notifications); the parts of the page are components in their own
 * files — toolbar, timeline, grid (rows, decorations, row layout), tooltip, navigation, exporting — that
 * read the state from here and change it through the methods below.
 */
import { PROTOCOL_VERSION, type HostNotification, type SpaceInfo, partitionWindow } from '../../../core/protocol/webview';
import type { TraceStep } from '../../../core/protocol/trace';
import { addressDigits } from '../../../core/inspect/decode';
import type { Rpc, VsCodeApi } from '../common/rpc';
import { debounce, h, setText } from '../common/dom';
import { PageCache } from './pages';
import { OverlayIndex } from './overlays';
import { restoreState, type InspectorState } from './state';
import { Grid } from './grid';
import { Navigation } from './navigation';
import { Timeline } from './timeline';
import { Toolbar } from './toolbar';
import { Tooltip } from './tooltip';

export type { InspectorState } from './state';

export class Inspector {
  spaces: SpaceInfo[] = [];
  info!: SpaceInfo;
  readonly st: InspectorState;
  totalSteps = 0;
  readonly stepRecs: TraceStep[] = [];
  private stepsLoaded = false;
  readonly overlays = new OverlayIndex();
  readonly cache: PageCache;
  /** Bytes highlighted at the extension's request (a term hovered in the editor) or by Read/Written. */
  hl: { lo: number; hi: number; label?: string } | undefined;
  /** The last search match. */
  match: { lo: number; hi: number } | undefined;
  private frame = 0;
  ready = false;

  readonly root: HTMLElement;
  private readonly title: HTMLElement;
  private readonly status: HTMLElement;
  readonly nav = new Navigation(this);
  readonly toolbar: Toolbar;
  readonly timeline: Timeline;
  readonly grid: Grid;
  readonly tip: Tooltip;

  constructor(
    root: HTMLElement,
    readonly rpc: Rpc,
    private readonly api: VsCodeApi<InspectorState>,
  ) {
    this.root = root;
    this.cache = new PageCache(rpc, () => this.schedule(), undefined, (msg) => this.say(msg, true));
    this.st = restoreState(api.getState());
    this.title = h('h1', { class: 'tl-title', id: 'tl-title' }, 'Memory');
    this.toolbar = new Toolbar(this);
    this.timeline = new Timeline(this);
    this.grid = new Grid(this);
    this.status = h('div', { id: 'tl-status', class: 'tl-status', role: 'status', 'aria-live': 'polite' });
    this.tip = new Tooltip(this);
    root.append(h('header', { class: 'tl-top' }, this.title, this.toolbar.el), this.timeline.el, this.grid.scroller, this.status, this.tip.el);
    this.grid.scroller.addEventListener('keydown', (e) => this.nav.onKey(e));
    const vp = this.grid.viewport;
    vp.addEventListener('mousemove', (e) => this.tip.onHover(e));
    vp.addEventListener('mouseleave', () => this.tip.hide());
    vp.addEventListener('mousedown', (e) => this.nav.onMouseDown(e));
    rpc.onNotification((n) => this.onNotify(n));
  }

  // =============================================================================================
  // The extension: startup, step records, overlays, notifications

  async start(): Promise<void> {
    const hello = await this.rpc.request('hello', { view: 'inspector', protocol: PROTOCOL_VERSION });
    this.spaces = hello.spaces;
    this.totalSteps = hello.steps;
    this.setTitle(hello.title);
    const saved = this.spaces.find((s) => s.id === this.st.space);
    if (!saved) {
      const init = hello.initial;
      const sp = (init && this.spaces.find((s) => s.id === init.space)) ?? this.spaces[0];
      this.st.step = hello.step;
      if (sp) this.selectSpace(sp.id, false);
      if (init && sp && init.space === sp.id) this.nav.goToOffset(init.offset, init.length ?? 0, false);
    } else {
      this.st.step = Math.min(this.st.step, hello.steps - 1);
      this.selectSpace(saved.id, true);
    }
    this.toolbar.fillSpaces(this.spaces);
    this.syncControls();
    this.ready = true;
    this.root.setAttribute('aria-busy', 'false');
    void this.loadSteps();
    void this.loadOverlays();
    this.renderNow();
  }

  private setTitle(t: string) {
    setText(this.title, t);
    document.title = t;
  }

  private async loadSteps(): Promise<void> {
    this.stepRecs.length = 0;
    this.stepsLoaded = false;
    const total = this.totalSteps;
    for (let from = 0; from < total; from += 10000) {
      const r = await this.rpc.request('steps', { from, count: Math.min(10000, total - from) });
      for (const s of r.steps) this.stepRecs[s.step] = s;
    }
    this.stepsLoaded = true;
    this.cache.index(this.stepRecs.filter(Boolean));
    this.timeline.drawTrack();
    this.timeline.updateStepText();
    this.schedule();
  }

  private async loadOverlays(): Promise<void> {
    const space = this.info?.id;
    if (!space) return;
    const r = await this.rpc.request('overlays', { space });
    if (space !== this.info.id) return;
    this.overlays.set(r.overlays);
    this.toolbar.fillOverlays(this.overlays.list);
    this.schedule();
  }

  private onNotify(n: HostNotification): void {
    switch (n.method) {
      case 'refresh':
        this.cache.clear();
        this.totalSteps = n.params.steps;
        if (n.params.spaces) {
          this.spaces = n.params.spaces;
          this.toolbar.fillSpaces(this.spaces);
          const cur = this.spaces.find((s) => s.id === this.st.space) ?? this.spaces[0];
          if (cur) this.selectSpace(cur.id, true);
        }
        if (n.params.title) this.setTitle(n.params.title);
        this.setStep(n.params.step, false);
        void this.loadSteps();
        void this.loadOverlays();
        break;
      case 'setStep':
        this.setStep(n.params.step, false);
        break;
      case 'highlight': {
        const p = n.params;
        if (!this.spaces.some((s) => s.id === p.space)) return;
        if (p.length === 0) {
          this.hl = undefined;
          this.schedule();
          return;
        }
        if (p.space !== this.info.id) this.selectSpace(p.space, false);
        this.hl = { lo: p.offset, hi: p.offset + p.length, label: p.label };
        this.nav.goToOffset(p.offset, p.length, false);
        this.say(`${p.label ?? 'range'}: ${this.fmtAddr(p.offset)}, ${p.length} bytes`);
        break;
      }
      case 'showLayout':
        break;
      case 'dumpView':
        this.rpc.notify('viewDump', this.viewDump(n.params.token));
        break;
    }
  }

  /** What the grid shows now: the visible rows' text (the extension's tests and diagnostics ask for it). */
  viewDump(token: number) {
    if (this.info && !this.frame) this.renderNow();
    const rows = this.grid.rows
      .filter((r) => !r.row.hidden && r.off >= 0)
      .map((r) => ({ addr: r.addr.textContent ?? '', hex: r.hex.textContent ?? '', typed: r.typed.textContent ?? '', ascii: r.ascii.textContent ?? '', ov: r.ov.textContent ?? '', ...(r.chg ? { chg: r.chg } : {}) }));
    return { token, space: this.info?.id ?? '', step: this.st.step, top: this.st.top, cursor: this.st.cursor, complete: document.body.dataset.complete === '1', rows, status: this.status.textContent ?? '', title: this.title.textContent ?? '' };
  }

  // =============================================================================================
  // State changes

  private syncControls(): void {
    this.toolbar.sync();
    this.timeline.sync();
    this.grid.scroller.setAttribute('aria-label', `Memory ${this.info?.label ?? ''}`);
  }

  update(p: Partial<InspectorState>): void {
    Object.assign(this.st, p);
    this.syncControls();
    this.save();
    this.schedule();
  }

  readonly save = debounce(() => this.api.setState(this.st), 100);

  selectSpace(id: string, keepPosition: boolean): void {
    const info = this.spaces.find((s) => s.id === id);
    if (!info) return;
    const changed = this.info?.id !== id;
    this.info = info;
    this.st.space = id;
    if (changed && !keepPosition) {
      this.st.part = (info.partitions ?? []).map(() => null);
      this.st.top = 0;
      this.st.cursor = 0;
      this.st.anchor = null;
      this.st.type = info.defaultType ?? (info.unitBytes === 2 ? 'w12' : 'u8');
      this.st.bigEndian = !!info.bigEndian;
      this.match = undefined;
    }
    this.toolbar.showSpace(info);
    this.syncControls();
    if (changed) {
      this.overlays.clear();
      if (this.ready) void this.loadOverlays();
    }
    this.timeline.drawTrack();
    this.save();
    this.schedule();
    this.announceCursor();
  }

  setPartition(level: number, v: number | null): void {
    this.st.part[level] = v;
    for (let i = level + 1; i < this.st.part.length; i++) if (v === null) this.st.part[i] = null;
    this.toolbar.syncPartitions();
    const w = this.window();
    this.st.top = 0;
    this.st.cursor = w.offset;
    this.st.anchor = null;
    this.save();
    this.schedule();
  }

  setWidth(w: number): void {
    const cur = this.st.cursor;
    this.st.width = w;
    this.grid.relayout();
    this.grid.scrollToOffset(cur, true);
    this.update({});
  }

  setStep(s: number, fromUser: boolean): void {
    const step = Math.max(-1, Math.min(this.totalSteps - 1, s));
    if (step === this.st.step && !fromUser) return;
    this.st.step = step;
    this.tip.forget();
    this.timeline.showStep(step);
    this.save();
    this.schedule();
    if (fromUser) this.rpc.notify('stepSelected', { step });
  }

  stepRec(s = this.st.step): TraceStep | undefined {
    return s >= 0 ? this.stepRecs[s] : undefined;
  }

  selection(): { lo: number; hi: number } {
    return this.nav.selection();
  }

  /** The byte window shown (whole space, or the selected core/thread). */
  window(): { offset: number; length: number } {
    return partitionWindow(this.info, this.st.part.map((x) => (x === null ? undefined : x)));
  }

  fmtAddr(offset: number): string {
    const a = (this.info.base ?? 0) + Math.floor(offset / this.info.unitBytes);
    return '0x' + a.toString(16);
  }

  addrDigits(): number {
    return addressDigits((this.info.base ?? 0) + this.info.bytes / this.info.unitBytes);
  }

  // =============================================================================================
  // Frames and the status line

  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderNow();
    });
  }

  /** Renders the visible rows now (normally called once per animation frame). */
  renderNow(): void {
    if (!this.info) return;
    this.grid.render();
    this.tip.refresh();
  }

  /** Until when a message from say() stays in the status line. */
  private quietUntil = 0;

  /** The status line describes the cursor's byte (and the selection). */
  readonly announceCursor = debounce(() => {
    if (!this.info || performance.now() < this.quietUntil) return;
    const lines = this.tip.describe(this.st.cursor);
    const sel = this.st.anchor !== null ? this.selection() : undefined;
    setText(this.status, (sel ? `${sel.hi - sel.lo} bytes selected · ` : '') + lines.slice(0, 2).join(' · '));
  }, 30);

  say(text: string, warn = false): void {
    this.quietUntil = performance.now() + 150;
    setText(this.status, text);
    this.status.classList.toggle('tl-warn', warn);
  }

  // =============================================================================================
  // For the tests and the bench

  /** Decorations of the last frame. */
  get decos() {
    return this.grid.decoLayer.decos;
  }

  get geo() {
    return this.grid.geo;
  }

  get renderTimes(): number[] {
    return this.grid.renderTimes;
  }

  setTop(top: number): void {
    this.grid.setTop(top);
  }

  /** Numbers the tests and the bench read. */
  debugInfo() {
    const g = this.grid;
    return { top: this.st.top, totalRows: g.totalRows, visibleRows: g.visibleRows, rowH: g.rowH, cursor: this.st.cursor, step: this.st.step, cachePages: this.cache.size, requests: this.cache.requests, pending: this.cache.pending, space: this.info?.id, stepsLoaded: this.stepsLoaded, window: this.window(), state: { ...this.st } };
  }
}
