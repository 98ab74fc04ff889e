/**
 * One picture of the Views pane: a region (core/inspect/tensorView.ts) read at the timeline's step through
 * the pane's page cache, drawn as an image or a heatmap, the pixels the step wrote outlined, the difference
 * to a reference tinted. Its own label and ×, legend (heatmaps) and hover line; the pane's bar acts on the
 * selected tile, whose status and difference lines the pane shows.
 */
import { bytesOf, touchedBytes, type ResultOf, type TensorView } from '../../../../core/protocol/webview';
import {
  ViewError,
  diffMask,
  heatRGBA,
  heatValues,
  imageRGBA,
  offsetOf,
  planView,
  rectsOfBytes,
  referenceValues,
  valueAt,
  valueRange,
  viewValues,
  type ViewPlan,
} from '../../../../core/inspect/tensorView';
import { canvasPng, h, setText } from '../../common/dom';
import { Picture } from '../../common/picture';
import { HeatLegend, formatHeatValue as fmt } from '../../common/heatLegend';
import type { RegionReader } from './regionReader';
import type { ViewsHost } from './viewsPane';

/** What a tile tells its pane: selected (a click), closed (its ×), its status changed, its picture moved (pan or zoom). */
export interface TileEvents {
  select(t: Tile): void;
  close(t: Tile): void;
  status(t: Tile): void;
  moved(t: Tile): void;
  /** Drawn from new bytes; `first`: the first picture of this size in the tile (a linked tile then joins its partners' view). */
  painted(t: Tile, first: boolean): void;
}

export class Tile {
  readonly el: HTMLElement;
  readonly picture: Picture;
  spec: TensorView;
  /** The plan of the shown picture, with `base` 0: `bytes` start at the picture's first element. */
  plan: ViewPlan | undefined;
  /** Where the picture's first element is in the space (the region's offset + the slice's start). */
  private origin = 0;
  private bytes: Uint8Array | undefined;
  private reference: { name: string; bytes: Uint8Array } | undefined;
  error: string | undefined;
  /** The status line (what is shown, or the error) and the difference line, shown by the pane for the selected tile. */
  statusText = '';
  diffText = '';
  diffWarn = false;
  private seq = 0;
  private hoverSeq = 0;
  /** The step whose bytes the picture shows (−2: none yet). */
  shownStep = -2;
  /** Milliseconds from asking for the picture to its draw, and of which decoding, colouring and drawing. */
  lastLoadMs = 0;
  lastRenderMs = 0;
  private readonly title: HTMLElement;
  private readonly hover: HTMLElement;
  private readonly legend = new HeatLegend();

  constructor(
    private readonly host: ViewsHost,
    private readonly reader: RegionReader,
    private readonly events: TileEvents,
    spec: TensorView,
  ) {
    this.spec = { ...spec };
    this.picture = new Picture(undefined, () => this.events.moved(this));
    const cv = this.picture.canvas;
    cv.dataset.label = spec.label;
    cv.addEventListener('mousemove', (e) => this.onHover(e));
    cv.addEventListener('mouseleave', () => setText(this.hover, ''));
    cv.addEventListener('click', (e) => void this.onClick(e));
    this.title = h('span', { class: 'tl-vtitle' }, spec.label);
    this.hover = h('div', { class: 'tl-vhover' });
    const close = h('button', { class: 'tl-btn tl-vtileclose', type: 'button', title: `Close ${spec.label}`, 'aria-label': `Close ${spec.label}` }, '×');
    close.addEventListener('click', (e) => {
      e.stopPropagation();
      this.events.close(this);
    });
    this.el = h(
      'div',
      { class: 'tl-vtile', role: 'group', 'aria-label': spec.label },
      h('div', { class: 'tl-vtilehead' }, this.title, close),
      h('div', { class: 'tl-vcanvaswrap' }, cv),
      this.legend.el,
      this.hover,
    );
    // selecting on mousedown (capture): the bar follows before a drag or a click does anything else
    this.el.addEventListener('mousedown', () => this.events.select(this), true);
    this.el.addEventListener('focusin', () => this.events.select(this));
  }

  /** A new region or new settings (from the bar's controls): a different region drops the reference. */
  setSpec(spec: TensorView): void {
    if (this.spec.space !== spec.space || this.spec.offset !== spec.offset || this.spec.bytes !== spec.bytes) this.reference = undefined;
    this.spec = { ...spec };
    setText(this.title, spec.label);
    this.el.setAttribute('aria-label', spec.label);
    this.picture.canvas.dataset.label = spec.label;
  }

  fail(message: string): void {
    this.error = message;
    this.statusText = message;
    this.el.classList.add('tl-warn');
    this.title.title = message;
    this.events.status(this);
  }

  /** Forgets the bytes (a closed tile's pending read then draws nothing). */
  drop(): void {
    this.seq++;
    this.plan = undefined;
    this.bytes = undefined;
  }

  /** Reads the region at the current step and draws it. */
  async load(): Promise<void> {
    const spec = this.spec;
    const seq = ++this.seq;
    const t0 = performance.now();
    const m = this.host.model;
    const step = m.st.step;
    let plan: ViewPlan;
    try {
      plan = planView(spec);
    } catch (e) {
      this.plan = undefined;
      this.bytes = undefined;
      this.legend.show(undefined);
      this.picture.setImage(new Uint8ClampedArray(4), 1, 1);
      this.fail(e instanceof ViewError ? e.message : String(e));
      return;
    }
    const info = m.spaces.find((x) => x.id === spec.space);
    if (!info) {
      this.fail(`${spec.label}: no memory space ${spec.space}`);
      return;
    }
    const origin = spec.offset + plan.base;
    let bytes: Uint8Array;
    try {
      bytes = await this.reader.read(info, origin, plan.count * plan.elemBytes, step);
    } catch (e) {
      if (seq === this.seq) this.fail(`${spec.label}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (seq !== this.seq) return;
    const t1 = performance.now();
    const first = this.plan?.width !== plan.width || this.plan.height !== plan.height;
    this.plan = { ...plan, base: 0 };
    this.origin = origin;
    this.bytes = bytes;
    this.shownStep = step;
    this.error = undefined;
    this.render();
    this.events.painted(this, first);
    this.lastLoadMs = performance.now() - t0;
    this.lastRenderMs = performance.now() - t1;
    document.body.dataset.viewPainted = String(Number(document.body.dataset.viewPainted ?? 0) + 1);
  }

  /** Draws the picture from the bytes read, the step's outline and the difference to the reference. */
  private render(): void {
    const p = this.plan!;
    const bytes = this.bytes!;
    const m = this.host.model;
    const be = m.st.bigEndian && p.mode === 'heatmap';
    this.picture.setOutline(this.outline());
    this.applyDiff(bytes, be);
    if (p.mode === 'image') {
      this.legend.show(undefined);
      this.picture.setImage(imageRGBA(bytes, p, this.pixels(p)), p.width, p.height);
    } else {
      const vals = heatValues(bytes, p, be);
      const r = valueRange(vals);
      this.legend.show(r);
      this.picture.setImage(heatRGBA(vals, r.min, r.max, this.pixels(p), r.nonFinite === 0), p.width, p.height);
    }
    const info = m.spaces.find((x) => x.id === this.spec.space)!;
    this.el.classList.remove('tl-warn');
    this.title.title = '';
    this.statusText =
      `${this.spec.label}: ${p.describe} at ${info.id} 0x${((info.base ?? 0) + Math.floor(this.origin / info.unitBytes)).toString(16)}` +
      ` · after step ${m.st.step}`;
    this.events.status(this);
  }

  private rgba: Uint8ClampedArray<ArrayBuffer> | undefined;
  /** The RGBA buffer of a picture's size, kept from one render to the next (a step change redraws the same size). */
  private pixels(p: ViewPlan): Uint8ClampedArray<ArrayBuffer> {
    const n = p.width * p.height * 4;
    if (this.rgba?.length !== n) this.rgba = new Uint8ClampedArray(n);
    return this.rgba;
  }

  /** Rectangles of the pixels the shown step wrote. */
  private outline() {
    const m = this.host.model;
    const rec = m.stepRec();
    const info = m.spaces.find((x) => x.id === this.spec.space);
    if (!rec?.written || !info || rec.written.space !== info.id) return [];
    const w = touchedBytes(rec.written, info.unitBytes);
    return rectsOfBytes(this.plan!, w.lo - this.origin, w.hi - this.origin);
  }

  private applyDiff(bytes: Uint8Array, be: boolean): void {
    const p = this.plan!;
    this.diffWarn = false;
    this.diffText = '';
    if (!this.reference) {
      this.picture.setDiff(undefined);
      return;
    }
    try {
      const ref = referenceValues(this.reference.name, this.reference.bytes, p);
      const d = diffMask(p, viewValues(bytes, p, be), ref);
      this.picture.setDiff(d.count ? d.mask : undefined);
      this.diffWarn = d.count > 0;
      const name = this.reference.name.split(/[\\/]/).pop();
      this.diffText =
        d.count === 0
          ? `no element differs from ${name} (${p.count} compared)`
          : `${d.count} of ${p.count} elements differ from ${name} (${d.pixels} pixels, red)`;
    } catch (e) {
      this.picture.setDiff(undefined);
      this.diffWarn = true;
      this.diffText = e instanceof Error ? e.message : String(e);
    }
  }

  async pickReference(): Promise<void> {
    const r = await this.host.rpc.request('reference', { label: this.spec.label }).catch((e) => {
      this.fail(`reference: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    });
    if (!r) return;
    this.reference = { name: r.name, bytes: bytesOf(r.bytes) };
    if (this.plan && this.bytes) this.render();
  }

  /** The text of the hover line for picture pixel (x, y): coordinate, value(s), address. */
  describePixel(x: number, y: number): string {
    const p = this.plan!;
    const bytes = this.bytes!;
    const m = this.host.model;
    const info = m.spaces.find((s) => s.id === this.spec.space)!;
    const off = this.origin + offsetOf(p, x, y);
    const addr = `${info.id} 0x${((info.base ?? 0) + Math.floor(off / info.unitBytes)).toString(16)}`;
    if (p.mode === 'image') {
      if (p.channels === 1) return `(x ${x}, y ${y}) = ${bytes[offsetOf(p, x, y)]} · ${addr}`;
      const [r, g, b] = p.rgb.map((c) => bytes[offsetOf(p, x, y, c)]);
      return `(x ${x}, y ${y}) R ${r} G ${g} B ${b} · ${addr}`;
    }
    const s = this.spec;
    const lead = s.shape && s.shape.length > 2 ? s.shape.slice(0, -2).map((_, d) => s.slice?.[d] ?? 0) : [];
    const v = valueAt(bytes, p, x, y, 0, m.st.bigEndian);
    return `[${[...lead, y, x].join(', ')}] = ${fmt(v)} (${p.dtype}) · ${addr}`;
  }

  private onHover(e: MouseEvent): void {
    if (!this.plan || !this.bytes) return;
    const px = this.picture.pixelAt(e.clientX, e.clientY);
    if (!px) {
      setText(this.hover, '');
      return;
    }
    const text = this.describePixel(px.x, px.y);
    setText(this.hover, text);
    const seq = ++this.hoverSeq;
    void this.lastWrite(px.x, px.y).then((w) => {
      if (seq !== this.hoverSeq) return;
      const by = w
        ? `last written by step ${w.step}: ${w.loc.file.split(/[\\/]/).pop()}:${w.loc.line} ${w.text.slice(0, 60)}`
        : 'not written by any step so far';
      setText(this.hover, `${text} · ${by}`);
    });
  }

  /** The statement that last wrote the first byte of pixel (x, y), from the extension (the grid's hover request). */
  private async lastWrite(x: number, y: number): Promise<ResultOf<'hover'>['lastWrite']> {
    try {
      const r = await this.host.rpc.request('hover', {
        space: this.spec.space,
        offset: this.origin + offsetOf(this.plan!, x, y),
        step: this.host.model.st.step,
      });
      return r.lastWrite;
    } catch {
      return undefined;
    }
  }

  private async onClick(e: MouseEvent): Promise<void> {
    if (!this.plan || this.picture.dragged) return;
    const px = this.picture.pixelAt(e.clientX, e.clientY);
    if (!px) return;
    const w = await this.lastWrite(px.x, px.y);
    if (w) this.host.rpc.notify('reveal', { loc: w.loc, preserveFocus: true });
    else this.host.say(`(x ${px.x}, y ${px.y}): not written by any step so far`);
  }

  async exportPng(): Promise<void> {
    if (!this.plan) return;
    const png = await canvasPng(this.picture.src);
    const r = await this.host.rpc.request('savePng', { name: fileName(this.spec.label, 'png'), png });
    if (r.saved) this.host.say(`saved ${r.path}`);
  }

  async exportNpy(): Promise<void> {
    const p = this.plan;
    if (!p) return;
    const r = await this.host.rpc.request('export', {
      space: this.spec.space,
      step: this.host.model.st.step,
      offset: this.origin,
      length: p.count * p.elemBytes,
      format: 'npy',
      type: p.dtype,
      bigEndian: this.host.model.st.bigEndian && p.mode === 'heatmap',
      shape: p.mode === 'image' ? p.shape : [p.height, p.width],
    });
    if (r.saved) this.host.say(`saved ${r.path}`);
  }

  /** RGBA drawn on the visible canvas at the centre of picture pixel (x, y) (tests, bench). */
  drawnPixel(x: number, y: number): number[] {
    return this.picture.drawnPixel(x, y);
  }

  /** What the tile shows (the extension's tests read it through viewDump). */
  summary(): { label: string; describe: string; error?: string; pixel0?: number[] } {
    const p = this.plan;
    const pixel0 = p && this.bytes ? [...this.picture.src.getContext('2d')!.getImageData(0, 0, 1, 1).data] : undefined;
    return { label: this.spec.label, describe: p?.describe ?? '', ...(this.error ? { error: this.error } : {}), ...(pixel0 ? { pixel0 } : {}) };
  }
}

/** A file name from a view's label (`output` → `output.png`). */
function fileName(label: string, ext: string): string {
  return `${label.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'view'}.${ext}`;
}
