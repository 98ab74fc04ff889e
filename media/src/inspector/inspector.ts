/**
 * The memory inspector: a virtual-scrolling hex/typed/ASCII grid over paged reads, a step timeline,
 * change and read marks, tensor overlays, go-to, search, export. The page never holds more than the
 * page cache (a few MiB) of a memory, whatever its size.
 *
 * This class is the controller. What is shown lives in the model (model.ts); the parts of the page are
 * components in their own files (toolbar, timeline, grid with its row layout and decorations, tooltip,
 * navigation, exporting). The controller builds them and wires them to each other and to the
 * extension (hello, steps, overlays, notifications), and makes the state changes that more than one
 * component shows (space, step, width, display options). Components see it only as an InspectorView
 * (view.ts) narrowed to what each uses, so none imports this file.
 */
import { PROTOCOL_VERSION, type HostNotification } from '../../../core/protocol/webview';
import type { Rpc, VsCodeApi } from '../common/rpc';
import { debounce, h, setText } from '../common/dom';
import { PageCache } from './pages';
import { InspectorModel } from './model';
import { restoreState, type InspectorState } from './state';
import type { InspectorView } from './view';
import { Grid } from './grid';
import { Navigation } from './navigation';
import { Timeline } from './timeline';
import { Toolbar } from './toolbar';
import { Tooltip } from './tooltip';
import { ViewsPane } from './views/viewsPane';
import { JumpList } from './views/jumpList';

export type { InspectorState } from './state';

export class Inspector implements InspectorView {
  readonly model: InspectorModel;
  private stepsLoaded = false;
  private frame = 0;

  private readonly title: HTMLElement;
  private readonly status: HTMLElement;
  private readonly grid: Grid;
  private readonly tip: Tooltip;
  private readonly nav: Navigation;
  private readonly toolbar: Toolbar;
  private readonly timeline: Timeline;
  /** The Views pane beside the grid (pictures of regions) and the list of the run's regions to jump to. */
  readonly views: ViewsPane;
  private readonly jump: JumpList;

  constructor(
    private readonly root: HTMLElement,
    readonly rpc: Rpc,
    private readonly api: VsCodeApi<InspectorState>,
  ) {
    const cache = new PageCache(
      rpc,
      () => this.schedule(),
      undefined,
      (msg) => this.say(msg, true),
    );
    this.model = new InspectorModel(restoreState(api.getState()), cache);
    this.title = h('h1', { class: 'tl-title', id: 'tl-title' }, 'Memory');
    this.grid = new Grid(this, () => this.tip.hide());
    this.tip = new Tooltip(this, this.grid);
    this.nav = new Navigation(this, this.grid, this.tip);
    this.views = new ViewsPane(this);
    this.jump = new JumpList(this, this.nav, this.views);
    // the region list goes with "go to", the View button with the exports: no row of its own in a narrow panel
    this.toolbar = new Toolbar(this, this.nav, this.grid, { goTo: [this.jump.sel], export: [this.jump.btn] });
    this.timeline = new Timeline(this, this.nav);
    this.status = h('div', { id: 'tl-status', class: 'tl-status', role: 'status', 'aria-live': 'polite' });
    root.append(
      h('header', { class: 'tl-top' }, this.title, this.toolbar.el),
      this.timeline.el,
      h('div', { class: 'tl-main' }, this.grid.scroller, this.views.el),
      this.status,
      this.tip.el,
    );
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
    const m = this.model;
    const hello = await this.rpc.request('hello', { view: 'inspector', protocol: PROTOCOL_VERSION });
    m.spaces = hello.spaces;
    m.totalSteps = hello.steps;
    m.setRegions(hello.regions, hello.buffers);
    this.setTitle(hello.title);
    const saved = m.spaces.find((s) => s.id === m.st.space);
    if (!saved) {
      // the host's starting place, else the run's first listed region (a dump, a named buffer)
      const first = m.regions[0];
      const init = hello.initial ?? (first ? { space: first.space, offset: first.offset, length: first.bytes } : undefined);
      const sp = (init && m.spaces.find((s) => s.id === init.space)) ?? m.spaces[0];
      m.st.step = hello.step;
      if (sp) this.selectSpace(sp.id, false);
      if (init && sp && init.space === sp.id) this.nav.goToOffset(init.offset, init.length ?? 0, false);
    } else {
      m.st.step = Math.min(m.st.step, hello.steps - 1);
      this.selectSpace(saved.id, true);
    }
    this.toolbar.fillSpaces(m.spaces);
    this.jump.fill();
    this.syncControls();
    m.ready = true;
    m.views = hello.views ?? [];
    if (m.views.length) this.views.showAll(m.views);
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
    const m = this.model;
    m.stepRecs.length = 0;
    this.stepsLoaded = false;
    const total = m.totalSteps;
    for (let from = 0; from < total; from += 10000) {
      const r = await this.rpc.request('steps', { from, count: Math.min(10000, total - from) });
      for (const s of r.steps) m.stepRecs[s.step] = s;
    }
    this.stepsLoaded = true;
    m.cache.index(m.stepRecs.filter(Boolean));
    this.views.reader.index(m.stepRecs.filter(Boolean));
    void this.views.onStep();
    this.timeline.drawTrack();
    this.timeline.updateStepText();
    this.schedule();
  }

  private async loadOverlays(): Promise<void> {
    const m = this.model;
    const space = m.info?.id;
    if (!space) return;
    const r = await this.rpc.request('overlays', { space });
    if (space !== m.info.id) return;
    m.overlays.set(r.overlays);
    this.toolbar.fillOverlays(m.overlays.list);
    this.views.fillRegions();
    this.schedule();
  }

  private onNotify(n: HostNotification): void {
    const m = this.model;
    switch (n.method) {
      case 'refresh':
        m.cache.clear();
        this.views.refresh();
        m.totalSteps = n.params.steps;
        if (n.params.spaces) {
          m.spaces = n.params.spaces;
          this.toolbar.fillSpaces(m.spaces);
          const cur = m.spaces.find((s) => s.id === m.st.space) ?? m.spaces[0];
          if (cur) this.selectSpace(cur.id, true);
        }
        if (n.params.title) this.setTitle(n.params.title);
        if (n.params.regions || n.params.buffers) {
          m.setRegions(n.params.regions, n.params.buffers);
          this.jump.fill();
          this.views.fillRegions();
        }
        this.setStep(n.params.step, false);
        void this.loadSteps();
        void this.loadOverlays();
        break;
      case 'setStep':
        this.setStep(n.params.step, false);
        break;
      case 'highlight': {
        const p = n.params;
        if (!m.spaces.some((s) => s.id === p.space)) return;
        if (p.length === 0) {
          m.hl = undefined;
          this.schedule();
          return;
        }
        if (p.space !== m.info.id) this.selectSpace(p.space, false);
        m.hl = { lo: p.offset, hi: p.offset + p.length, label: p.label };
        this.nav.goToOffset(p.offset, p.length, false);
        this.say(`${p.label ?? 'range'}: ${m.fmtAddr(p.offset)}, ${p.length} bytes`);
        break;
      }
      case 'showLayout':
        break;
      case 'dumpView':
        this.rpc.notify('viewDump', this.viewDump(n.params.token));
        break;
      case 'closeView':
        this.views.close(n.params.label);
        break;
      case 'showView':
        // before the hello is answered the spaces are unknown: the hello's views carry it
        if (m.ready) this.views.show(n.params);
        break;
    }
  }

  /** What the grid shows now: the visible rows' text (the extension's tests and diagnostics ask for it). */
  viewDump(token: number) {
    const { info, st } = this.model;
    if (info && !this.frame) this.renderNow();
    const rows = this.grid.rows
      .filter((r) => !r.row.hidden && r.off >= 0)
      .map((r) => ({
        addr: r.addr.textContent ?? '',
        hex: r.hex.textContent ?? '',
        typed: r.typed.textContent ?? '',
        ascii: r.ascii.textContent ?? '',
        ov: r.ov.textContent ?? '',
        ...(r.chg ? { chg: r.chg } : {}),
      }));
    return {
      token,
      space: info?.id ?? '',
      step: st.step,
      top: st.top,
      cursor: st.cursor,
      complete: document.body.dataset.complete === '1',
      rows,
      status: this.status.textContent ?? '',
      title: this.title.textContent ?? '',
      picture: this.views.summary(),
      pictures: this.views.summaries(),
    };
  }

  // =============================================================================================
  // State changes (the InspectorView the components call)

  private syncControls(): void {
    this.toolbar.sync();
    this.timeline.sync();
    this.grid.scroller.setAttribute('aria-label', `Memory ${this.model.info?.label ?? ''}`);
  }

  update(p: Partial<InspectorState>): void {
    Object.assign(this.model.st, p);
    this.syncControls();
    this.save();
    this.schedule();
  }

  readonly save = debounce(() => this.api.setState(this.model.st), 100);

  selectSpace(id: string, keepPosition: boolean): void {
    const m = this.model;
    const st = m.st;
    const info = m.spaces.find((s) => s.id === id);
    if (!info) return;
    const changed = m.info?.id !== id;
    m.info = info;
    st.space = id;
    if (changed && !keepPosition) {
      st.part = (info.partitions ?? []).map(() => null);
      st.top = 0;
      st.cursor = 0;
      st.anchor = null;
      st.type = info.defaultType ?? (info.unitBytes === 2 ? 'w12' : 'u8');
      st.bigEndian = !!info.bigEndian;
      m.match = undefined;
    }
    this.toolbar.showSpace(info);
    this.syncControls();
    if (changed) {
      m.overlays.clear();
      if (m.ready) void this.loadOverlays();
    }
    this.timeline.drawTrack();
    this.save();
    this.schedule();
    this.announceCursor();
  }

  setPartition(level: number, v: number | null): void {
    const st = this.model.st;
    st.part[level] = v;
    for (let i = level + 1; i < st.part.length; i++) if (v === null) st.part[i] = null;
    this.toolbar.syncPartitions();
    const w = this.model.window();
    st.top = 0;
    st.cursor = w.offset;
    st.anchor = null;
    this.save();
    this.schedule();
  }

  syncPartitions(): void {
    this.toolbar.syncPartitions();
  }

  setWidth(w: number): void {
    const st = this.model.st;
    const cur = st.cursor;
    st.width = w;
    this.grid.relayout();
    this.grid.scrollToOffset(cur, true);
    this.update({});
  }

  setStep(s: number, fromUser: boolean): void {
    const m = this.model;
    const step = Math.max(-1, Math.min(m.totalSteps - 1, s));
    if (step === m.st.step && !fromUser) return;
    m.st.step = step;
    this.tip.forget();
    this.timeline.showStep(step);
    void this.views.onStep();
    this.save();
    this.schedule();
    if (fromUser) this.rpc.notify('stepSelected', { step });
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

  /** Renders the visible rows now (normally called once per animation frame; the bench calls it too). */
  renderNow(): void {
    if (!this.model.info) return;
    this.grid.render();
    this.tip.refresh();
  }

  /** Until when a message from say() stays in the status line. */
  private quietUntil = 0;

  /** The status line describes the cursor's byte (and the selection). */
  readonly announceCursor = debounce(() => {
    const m = this.model;
    if (!m.info || performance.now() < this.quietUntil) return;
    const lines = this.tip.describe(m.st.cursor);
    const sel = m.st.anchor !== null ? m.selection() : undefined;
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
    const { st, cache, info } = this.model;
    const g = this.grid;
    return {
      top: st.top,
      totalRows: g.totalRows,
      visibleRows: g.visibleRows,
      rowH: g.rowH,
      cursor: st.cursor,
      step: st.step,
      cachePages: cache.size,
      requests: cache.requests,
      pending: cache.pending,
      space: info?.id,
      stepsLoaded: this.stepsLoaded,
      window: this.model.window(),
      state: { ...st },
    };
  }
}
