/**
 * The layout map: a canvas picture of where a tensor lives (banks × pages, core grids with shards,
 * tiles and faces, sticks, 16-byte cells, CSR fibers, strided storage) from a model-agnostic
 * `LayoutMap` description. One raster pixel per grid cell when zoomed out (so a 2^26-element tensor
 * costs a putImageData), single elements with exact coordinates when zoomed in.
 */
import { PROTOCOL_VERSION, REGION_KINDS, bytesOf, type LayoutHit, type LayoutMap, type LayoutPanel } from '../../../core/protocol/webview';
import { Rpc, type VsCodeApi } from '../common/rpc';
import { canvasPng, debounce, h, setText } from '../common/dom';
import { K, buildRaster, legendItems, readPalette, type Palette } from './colors';
import { drawScene, elementPx, type Detail } from './draw';

export interface LayoutMapState {
  v: 1;
  mapId: string;
  scale: number;
  ox: number;
  oy: number;
}

export class LayoutMapView {
  private map: LayoutMap | undefined;
  private keys = new Float32Array(0);
  private kinds = new Uint8Array(0);
  private raster: HTMLCanvasElement | undefined;
  private pal!: Palette;
  private hatch: CanvasPattern | null = null;
  private scale = 1;
  private ox = 0;
  private oy = 0;
  private frame = 0;
  private hover: { x: number; y: number; ir?: number; ic?: number } | undefined;
  private focus = { x: 0, y: 0 };
  private located: LayoutHit | undefined;
  private readonly detail = new Map<string, Detail>();
  private detailPending = new Set<string>();
  private hoverSeq = 0;
  private drag: { x: number; y: number; ox: number; oy: number; moved: boolean } | undefined;
  /** Draw times (ms) for the bench. */
  readonly drawTimes: number[] = [];
  drawn = 0;
  /** performance.now() at the end of the last draw. */
  lastDrawAt = 0;

  readonly root: HTMLElement;
  private canvas!: HTMLCanvasElement;
  private wrap!: HTMLDivElement;
  private titleEl!: HTMLElement;
  private summaryEl!: HTMLElement;
  private legend!: HTMLElement;
  private facts!: HTMLElement;
  private info!: HTMLElement;
  private status!: HTMLElement;
  private tip!: HTMLElement;
  private zoomText!: HTMLElement;
  private coordInput!: HTMLInputElement;
  private addrInput!: HTMLInputElement;
  private unitSel!: HTMLSelectElement;

  constructor(
    root: HTMLElement,
    private readonly rpc: Rpc,
    private readonly api: VsCodeApi<LayoutMapState>,
  ) {
    this.root = root;
    this.build();
    rpc.onNotification((n) => {
      if (n.method === 'showLayout') {
        // the same tensor redrawn (its spec was edited): keep the zoom and position
        const same = this.map?.id === n.params.layout.id;
        const view = { scale: this.scale, ox: this.ox, oy: this.oy };
        this.status.classList.remove('tl-warn');
        setText(this.status, '');
        this.setMap(n.params.layout, false);
        if (same) {
          this.scale = view.scale;
          this.ox = view.ox;
          this.oy = view.oy;
          this.changed();
        }
      } else if (n.method === 'refresh') {
        // the extension says why the tensor cannot be drawn now (the last picture stays)
        const why = n.params.title;
        void this.start().then(() => {
          if (why) {
            setText(this.status, why);
            this.status.classList.add('tl-warn');
          }
        });
      }
    });
  }

  async start(): Promise<void> {
    const hello = await this.rpc.request('hello', { view: 'layoutMap', protocol: PROTOCOL_VERSION });
    if (hello.layout) this.setMap(hello.layout, true);
    else {
      setText(this.titleEl, hello.title);
      setText(this.status, 'No layout to show yet.');
    }
    this.root.setAttribute('aria-busy', 'false');
  }

  // ---------------------------------------------------------------------------------------------

  private build(): void {
    this.titleEl = h('h1', { class: 'tl-title', id: 'lm-title' }, 'Layout map');
    this.summaryEl = h('span', { class: 'lm-summary', id: 'lm-summary' });
    this.zoomText = h('span', { class: 'lm-zoom', id: 'lm-zoom', 'aria-live': 'polite' });
    this.coordInput = h('input', {
      id: 'lm-coord',
      class: 'tl-input',
      type: 'text',
      placeholder: 'coordinate (1, 2, 3)',
      'aria-label': 'Go to tensor coordinate',
      spellcheck: 'false',
      onkeydown: (e: KeyboardEvent) => {
        if (e.key === 'Enter') void this.locateCoord(this.coordInput.value);
      },
    });
    this.addrInput = h('input', {
      id: 'lm-addr',
      class: 'tl-input',
      type: 'text',
      placeholder: 'address 0x…',
      'aria-label': 'Go to address',
      spellcheck: 'false',
      onkeydown: (e: KeyboardEvent) => {
        if (e.key === 'Enter') void this.locateAddress(this.addrInput.value);
      },
    });
    this.unitSel = h('select', { id: 'lm-unit', 'aria-label': 'Memory unit of the address' });
    const btn = (id: string, text: string, label: string, f: () => void) =>
      h('button', { id, class: 'tl-btn', type: 'button', 'aria-label': label, title: label, onclick: f }, text);
    const toolbar = h(
      'div',
      { class: 'tl-toolbar', role: 'toolbar', 'aria-label': 'Layout map' },
      h(
        'div',
        { class: 'tl-group' },
        btn('lm-fit', 'Fit', 'Fit the whole tensor (0)', () => this.fit()),
        btn('lm-out', '−', 'Zoom out (-)', () => this.zoomAt(1 / 1.5)),
        btn('lm-in', '+', 'Zoom in (+)', () => this.zoomAt(1.5)),
        this.zoomText,
      ),
      h('div', { class: 'tl-group' }, this.coordInput),
      h('div', { class: 'tl-group' }, this.addrInput, this.unitSel),
      h(
        'div',
        { class: 'tl-group' },
        btn('lm-png', 'PNG', 'Save the picture as PNG', () => void this.exportPng()),
      ),
    );
    this.canvas = h('canvas', { id: 'lm-canvas', class: 'lm-canvas', tabindex: 0, role: 'img', 'aria-label': 'Layout map' });
    this.wrap = h('div', { class: 'lm-canvaswrap' }, this.canvas);
    this.legend = h('div', { class: 'lm-legend', id: 'lm-legend', role: 'list', 'aria-label': 'Legend' });
    this.info = h('div', { class: 'lm-info', id: 'lm-info', 'aria-live': 'polite' });
    this.facts = h('dl', { class: 'lm-facts', id: 'lm-facts' });
    const side = h(
      'aside',
      { class: 'lm-side', 'aria-label': 'Legend and details' },
      h('h2', {}, 'Legend'),
      this.legend,
      h('h2', {}, 'Here'),
      this.info,
      h('h2', {}, 'Facts'),
      this.facts,
    );
    this.status = h('div', { id: 'lm-status', class: 'tl-status', role: 'status', 'aria-live': 'polite' });
    this.tip = h('div', { id: 'lm-tip', class: 'tl-tip', role: 'tooltip', hidden: true });
    this.root.append(
      h('header', { class: 'tl-top' }, this.titleEl, this.summaryEl, toolbar),
      h('div', { class: 'lm-body' }, this.wrap, side),
      this.status,
      this.tip,
    );

    const c = this.canvas;
    c.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const r = c.getBoundingClientRect();
        this.zoomAt(Math.pow(1.0015, -e.deltaY * (e.deltaMode === 1 ? 30 : 1)), e.clientX - r.left, e.clientY - r.top);
      },
      { passive: false },
    );
    c.addEventListener('mousedown', (e) => {
      this.drag = { x: e.clientX, y: e.clientY, ox: this.ox, oy: this.oy, moved: false };
      c.focus();
    });
    window.addEventListener('mousemove', (e) => {
      if (this.drag && e.buttons & 1) {
        const dx = e.clientX - this.drag.x;
        const dy = e.clientY - this.drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) this.drag.moved = true;
        if (this.drag.moved) {
          this.ox = this.drag.ox + dx;
          this.oy = this.drag.oy + dy;
          this.hideTip();
          this.changed();
        }
      }
    });
    window.addEventListener('mouseup', (e) => {
      const d = this.drag;
      this.drag = undefined;
      if (d && !d.moved && e.target === c) this.onClick(e);
    });
    c.addEventListener('mousemove', (e) => {
      if (this.drag?.moved) return;
      this.onHover(e);
    });
    c.addEventListener('mouseleave', () => this.hideTip());
    c.addEventListener('keydown', (e) => this.onKey(e));
    new ResizeObserver(() => this.resize()).observe(this.wrap);
  }

  // ---------------------------------------------------------------------------------------------

  setMap(map: LayoutMap, restore: boolean): void {
    this.map = map;
    this.detail.clear();
    this.detailPending.clear();
    this.located = undefined;
    this.keys = map.raster ? new Float32Array(bytesOf(map.raster.keys).slice().buffer) : new Float32Array(map.cols * map.rows).fill(NaN);
    this.kinds = map.raster ? bytesOf(map.raster.kinds).slice() : new Uint8Array(map.cols * map.rows);
    if (!map.raster) this.rasterFromRegions(map);
    setText(this.titleEl, map.title);
    document.title = map.title;
    setText(this.summaryEl, map.summary ?? '');
    this.canvas.setAttribute(
      'aria-label',
      `Layout map of ${map.title}${map.summary ? ': ' + map.summary : ''}. Arrow keys move between ${map.slotName}s, + and − zoom.`,
    );
    this.unitSel.replaceChildren(...map.panels.map((p) => h('option', { value: p.unit }, p.label)));
    this.unitSel.hidden = map.panels.length < 2;
    ({ pal: this.pal, hatch: this.hatch } = readPalette(this.root, this.canvas));
    this.raster = buildRaster(map, this.kinds, this.keys, this.pal);
    this.legend.replaceChildren(...legendItems(map, this.kinds, this.pal));
    this.facts.replaceChildren(...(map.facts ?? []).flatMap((f) => [h('dt', {}, f.name), h('dd', {}, f.value)]));
    const saved = this.api.getState();
    this.resize(false);
    if (restore && saved && saved.v === 1 && saved.mapId === map.id) {
      this.scale = saved.scale;
      this.ox = saved.ox;
      this.oy = saved.oy;
      this.changed();
    } else this.fit();
  }

  /** Paints cells from the region list when the description has no raster. */
  private rasterFromRegions(map: LayoutMap): void {
    for (const r of map.regions) {
      if (r.kind === 'frame') continue;
      for (let y = r.y; y < r.y + r.h && y < map.rows; y++) {
        for (let x = r.x; x < r.x + r.w && x < map.cols; x++) {
          this.kinds[y * map.cols + x] = K[r.kind];
          if (typeof r.colorKey === 'number') this.keys[y * map.cols + x] = r.colorKey;
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // View transform

  private resize(draw = true): void {
    const r = this.wrap.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.floor(r.width));
    const hh = Math.max(1, Math.floor(r.height));
    if (this.canvas.width !== Math.floor(w * dpr) || this.canvas.height !== Math.floor(hh * dpr)) {
      this.canvas.width = Math.floor(w * dpr);
      this.canvas.height = Math.floor(hh * dpr);
      this.canvas.style.width = `${w}px`;
      this.canvas.style.height = `${hh}px`;
    }
    if (draw) this.schedule();
  }

  private get cssW(): number {
    return this.canvas.width / (window.devicePixelRatio || 1);
  }

  private get cssH(): number {
    return this.canvas.height / (window.devicePixelRatio || 1);
  }

  fit(): void {
    const m = this.map;
    if (!m) return;
    const pad = 24;
    this.scale = Math.max(1e-4, Math.min((this.cssW - 2 * pad) / m.cols, (this.cssH - 2 * pad) / m.rows));
    this.ox = (this.cssW - m.cols * this.scale) / 2;
    this.oy = (this.cssH - m.rows * this.scale) / 2;
    this.changed();
  }

  /** Zooms by `f` keeping the point (px, py) (default: the centre) in place. */
  zoomAt(f: number, px = this.cssW / 2, py = this.cssH / 2): void {
    const m = this.map;
    if (!m) return;
    const max = Math.max(512, 64 * Math.max(1, m.inner ? Math.max(m.inner.cols, m.inner.rows) : 1));
    const s = Math.max(1e-4, Math.min(max, this.scale * f));
    this.ox = px - ((px - this.ox) * s) / this.scale;
    this.oy = py - ((py - this.oy) * s) / this.scale;
    this.scale = s;
    this.changed();
  }

  /** Centres cell (x, y) at `scale` px per cell. */
  centerOn(x: number, y: number, scale = this.scale): void {
    this.scale = scale;
    this.ox = this.cssW / 2 - (x + 0.5) * scale;
    this.oy = this.cssH / 2 - (y + 0.5) * scale;
    this.changed();
  }

  private changed(): void {
    const k = this.map?.panels[0]?.slotsPerCell ?? 1;
    setText(
      this.zoomText,
      `${this.scale >= 1 ? this.scale.toFixed(this.scale < 10 ? 1 : 0) : this.scale.toPrecision(2)} px/${k > 1 ? 'cell' : (this.map?.slotName ?? 'cell')}`,
    );
    this.saveState();
    this.schedule();
  }

  private saveState = debounce(() => {
    if (this.map) this.api.setState({ v: 1, mapId: this.map.id, scale: this.scale, ox: this.ox, oy: this.oy });
  }, 100);

  /** Grid cell (and element inside it when zoomed in) under a canvas point. */
  hitTest(px: number, py: number): { x: number; y: number; innerRow?: number; innerCol?: number } | undefined {
    const m = this.map;
    if (!m) return undefined;
    const gx = (px - this.ox) / this.scale;
    const gy = (py - this.oy) / this.scale;
    const x = Math.floor(gx);
    const y = Math.floor(gy);
    if (x < 0 || y < 0 || x >= m.cols || y >= m.rows) return undefined;
    const out: { x: number; y: number; innerRow?: number; innerCol?: number } = { x, y };
    if (m.inner && elementPx(m, this.scale) >= 2) {
      out.innerRow = Math.min(m.inner.rows - 1, Math.floor((gy - y) * m.inner.rows));
      out.innerCol = Math.min(m.inner.cols - 1, Math.floor((gx - x) * m.inner.cols));
    }
    return out;
  }

  /** Canvas point of the centre of a cell (or of an element inside it). */
  toScreen(x: number, y: number, innerRow?: number, innerCol?: number): { px: number; py: number } {
    const m = this.map!;
    let fx = x + 0.5;
    let fy = y + 0.5;
    if (m.inner && innerRow !== undefined && innerCol !== undefined) {
      fx = x + (innerCol + 0.5) / m.inner.cols;
      fy = y + (innerRow + 0.5) / m.inner.rows;
    }
    return { px: this.ox + fx * this.scale, py: this.oy + fy * this.scale };
  }

  private panelOf(x: number, y: number): LayoutPanel | undefined {
    return this.map?.panels.find((p) => x >= p.x && x < p.x + p.w && y >= p.y && y < p.y + p.h);
  }

  // ---------------------------------------------------------------------------------------------
  // Drawing

  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  draw(): void {
    const m = this.map;
    const ctx = this.canvas.getContext('2d');
    if (!ctx || !m || !this.raster) return;
    const t0 = performance.now();
    const located = this.located && this.located.x !== undefined && this.located.y !== undefined ? this.located : undefined;
    const want = drawScene(
      ctx,
      {
        map: m,
        raster: this.raster,
        kinds: this.kinds,
        detail: this.detail,
        pal: this.pal,
        hatch: this.hatch,
        scale: this.scale,
        ox: this.ox,
        oy: this.oy,
        width: this.cssW,
        height: this.cssH,
        root: this.root,
        located: located && { x: located.x!, y: located.y!, ir: located.innerRow, ic: located.innerCol },
        hover: this.hover ?? (document.activeElement === this.canvas ? { x: this.focus.x, y: this.focus.y } : undefined),
      },
      window.devicePixelRatio || 1,
    );
    if (want) this.requestDetail(want.x0, want.y0, want.x1, want.y1);
    const dt = performance.now() - t0;
    this.drawTimes.push(dt);
    if (this.drawTimes.length > 1000) this.drawTimes.splice(0, 500);
    this.drawn++;
    this.lastDrawAt = performance.now();
    document.body.dataset.drawn = String(this.drawn);
  }

  private requestDetail = debounce((x0: number, y0: number, x1: number, y1: number) => {
    const m = this.map;
    if (!m?.inner) return;
    const id = m.id;
    const w = x1 - x0;
    const hh = y1 - y0;
    const key = `${x0},${y0},${w},${hh}`;
    if (this.detailPending.has(key)) return;
    this.detailPending.add(key);
    const per = m.inner.rows * m.inner.cols;
    this.rpc.request('layoutDetail', { mapId: id, x: x0, y: y0, w, h: hh }).then(
      (r) => {
        this.detailPending.delete(key);
        if (this.map?.id !== id) return;
        const keys = new Float32Array(bytesOf(r.keys).slice().buffer);
        const kinds = bytesOf(r.kinds);
        for (let cy = 0; cy < hh; cy++)
          for (let cx = 0; cx < w; cx++) {
            const o = (cy * w + cx) * per;
            this.detail.set(`${x0 + cx},${y0 + cy}`, { keys: keys.subarray(o, o + per), kinds: kinds.subarray(o, o + per) });
          }
        if (this.detail.size > 4096) {
          const drop = [...this.detail.keys()].slice(0, this.detail.size - 4096);
          for (const k of drop) this.detail.delete(k);
        }
        this.schedule();
      },
      (e) => {
        this.detailPending.delete(key);
        console.warn('[tensor-lens] layoutDetail:', e instanceof Error ? e.message : e);
      },
    );
  }, 60);

  // ---------------------------------------------------------------------------------------------
  // Interaction

  private localText(x: number, y: number): string[] {
    const m = this.map!;
    const p = this.panelOf(x, y);
    if (!p) return ['(empty)'];
    const c = (y - p.y) * p.w + (x - p.x);
    const s0 = c * p.slotsPerCell;
    if (s0 >= p.slots) return [`${p.label}: past the last ${m.slotName}`];
    return [
      `${p.label} · ${m.slotName} ${s0}${p.slotsPerCell > 1 ? `–${Math.min(p.slots, s0 + p.slotsPerCell) - 1}` : ''}`,
      REGION_KINDS[this.kinds[y * m.cols + x]],
    ];
  }

  private onHover(e: MouseEvent): void {
    const r = this.canvas.getBoundingClientRect();
    const hit = this.hitTest(e.clientX - r.left, e.clientY - r.top);
    if (!hit) {
      this.hideTip();
      return;
    }
    const same = this.hover && this.hover.x === hit.x && this.hover.y === hit.y && this.hover.ir === hit.innerRow && this.hover.ic === hit.innerCol;
    this.tip.style.left = `${Math.min(e.clientX + 14, window.innerWidth - 360)}px`;
    this.tip.style.top = `${e.clientY + 18 > window.innerHeight - 140 ? Math.max(0, e.clientY - 140) : e.clientY + 18}px`;
    if (same) return;
    this.hover = { x: hit.x, y: hit.y, ir: hit.innerRow, ic: hit.innerCol };
    this.showLines(this.localText(hit.x, hit.y));
    this.tip.hidden = false;
    this.schedule();
    void this.query(hit);
  }

  private async query(hit: { x: number; y: number; innerRow?: number; innerCol?: number }, toStatus = false): Promise<LayoutHit | undefined> {
    const m = this.map;
    if (!m) return undefined;
    const seq = ++this.hoverSeq;
    try {
      const r = await this.rpc.request('layoutQuery', { mapId: m.id, x: hit.x, y: hit.y, innerRow: hit.innerRow, innerCol: hit.innerCol });
      if (seq !== this.hoverSeq) return r;
      this.showLines(r.lines, toStatus);
      return r;
    } catch (e) {
      if (seq === this.hoverSeq) this.showLines([...this.localText(hit.x, hit.y), String(e instanceof Error ? e.message : e)], toStatus);
      return undefined;
    }
  }

  private showLines(lines: string[], toStatus = false): void {
    this.tip.replaceChildren(...lines.map((l, i) => h('div', { class: i === 0 ? 'tl-tiphead' : '' }, l)));
    this.info.replaceChildren(...lines.map((l) => h('div', {}, l)));
    if (toStatus) setText(this.status, lines.join(' · '));
  }

  private hideTip(): void {
    if (!this.tip.hidden) this.tip.hidden = true;
    if (this.hover) {
      this.hover = undefined;
      this.schedule();
    }
  }

  private onClick(e: MouseEvent): void {
    const r = this.canvas.getBoundingClientRect();
    const hit = this.hitTest(e.clientX - r.left, e.clientY - r.top);
    if (!hit) return;
    this.focus = { x: hit.x, y: hit.y };
    void this.query(hit, true);
  }

  private onKey(e: KeyboardEvent): void {
    const m = this.map;
    if (!m) return;
    let handled = true;
    const moveFocus = (dx: number, dy: number) => {
      this.focus.x = Math.max(0, Math.min(m.cols - 1, this.focus.x + dx));
      this.focus.y = Math.max(0, Math.min(m.rows - 1, this.focus.y + dy));
      const p = this.toScreen(this.focus.x, this.focus.y);
      if (p.px < 0 || p.py < 0 || p.px > this.cssW || p.py > this.cssH) this.centerOn(this.focus.x, this.focus.y);
      this.hover = undefined;
      this.schedule();
      void this.query({ x: this.focus.x, y: this.focus.y }, true);
    };
    const pan = 60;
    switch (e.key) {
      case 'ArrowLeft':
        if (e.shiftKey) this.pan(pan, 0);
        else moveFocus(-1, 0);
        break;
      case 'ArrowRight':
        if (e.shiftKey) this.pan(-pan, 0);
        else moveFocus(1, 0);
        break;
      case 'ArrowUp':
        if (e.shiftKey) this.pan(0, pan);
        else moveFocus(0, -1);
        break;
      case 'ArrowDown':
        if (e.shiftKey) this.pan(0, -pan);
        else moveFocus(0, 1);
        break;
      case '+':
      case '=':
        this.zoomAt(1.5);
        break;
      case '-':
        this.zoomAt(1 / 1.5);
        break;
      case '0':
        this.fit();
        break;
      case 'Enter': {
        const p = this.toScreen(this.focus.x, this.focus.y);
        this.centerOn(this.focus.x, this.focus.y, Math.max(this.scale, 24));
        void p;
        break;
      }
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  }

  private pan(dx: number, dy: number): void {
    this.ox += dx;
    this.oy += dy;
    this.changed();
  }

  private async locateCoord(text: string): Promise<void> {
    const m = this.map;
    if (!m) return;
    const nums = text
      .replace(/[()[\]]/g, ' ')
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (nums.length !== m.shape.length || nums.some((n) => !Number.isInteger(n))) {
      setText(this.status, `Give ${m.shape.length} integer${m.shape.length === 1 ? '' : 's'} for a coordinate of shape (${m.shape.join(', ')})`);
      return;
    }
    await this.locate({ coord: nums });
  }

  private async locateAddress(text: string): Promise<void> {
    const t = text.trim();
    const a = /^0x[0-9a-f]+$/i.test(t) ? parseInt(t.slice(2), 16) : /^\d+$/.test(t) ? Number(t) : NaN;
    if (!Number.isFinite(a)) {
      setText(this.status, `${t} is not an address`);
      return;
    }
    await this.locate({ address: a, unit: this.unitSel.hidden ? undefined : Number(this.unitSel.value) });
  }

  /** Finds and marks where a coordinate or address is drawn, zooming in to the element. */
  async locate(q: { coord?: number[]; address?: number; unit?: number }): Promise<LayoutHit | null> {
    const m = this.map;
    if (!m) return null;
    try {
      const r = await this.rpc.request('layoutLocate', { mapId: m.id, ...q });
      if (!r || r.x === undefined || r.y === undefined) {
        setText(this.status, q.coord ? `(${q.coord.join(', ')}) is not in the tensor` : `address is not part of the tensor`);
        this.located = undefined;
        this.schedule();
        return null;
      }
      this.located = r;
      this.focus = { x: r.x, y: r.y };
      const want = m.inner ? Math.max(this.scale, Math.min(48 * m.inner.cols, 8 * Math.max(m.inner.cols, m.inner.rows))) : Math.max(this.scale, 24);
      this.centerOn(r.x, r.y, want);
      this.showLines(r.lines, true);
      return r;
    } catch (e) {
      setText(this.status, String(e instanceof Error ? e.message : e));
      return null;
    }
  }

  async exportPng(): Promise<void> {
    try {
      const png = await canvasPng(this.canvas);
      const r = await this.rpc.request('savePng', { name: `layout_${(this.map?.id ?? 'map').replace(/[^\w.-]+/g, '_')}`, png });
      setText(this.status, r.saved ? `Saved ${r.path ?? 'PNG'}` : 'PNG not saved');
    } catch (e) {
      setText(this.status, `PNG failed: ${e instanceof Error ? e.message : e}`);
    }
  }

  debugInfo() {
    return {
      scale: this.scale,
      ox: this.ox,
      oy: this.oy,
      cols: this.map?.cols,
      rows: this.map?.rows,
      mapId: this.map?.id,
      drawn: this.drawn,
      detail: this.detail.size,
    };
  }
}
