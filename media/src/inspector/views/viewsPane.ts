/**
 * The Views pane beside the hex grid: a region (a named buffer, a dump, a tensor, a C global, the hex
 * selection) drawn as an image or a heatmap (core/inspect/tensorView.ts), following the timeline: the
 * picture is re-read at the selected step through the page cache, and the pixels that step wrote are
 * outlined. Hovering a pixel tells its coordinate, value, address and the statement that last wrote it;
 * a click reveals that statement. Difference to a reference file, export as PNG and `.npy`.
 */
import { IMAGE_FORMATS, touchedBytes, type ElemType, type ImageFormat, type Region, type ResultOf, type TensorView } from '../../../../core/protocol/webview';
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
  scaleRGB,
  valueAt,
  valueRange,
  viewValues,
  SCALE_STEPS,
  type ViewPlan,
} from '../../../../core/inspect/tensorView';
import { ELEM_LABEL } from '../../../../core/inspect/decode';
import { bytesOf } from '../../../../core/protocol/webview';
import { canvasPng, h, option, setText } from '../../common/dom';
import type { InspectorView } from '../view';
import { Picture } from './picture';
import { RegionReader } from './regionReader';
import { parseSizes, regionChoices, viewOfRegion, type RegionChoice } from './regions';

/** What the pane uses of the controller: the model (spaces, step, overlays, regions, selection), the extension, the status line. */
export type ViewsHost = Pick<InspectorView, 'model' | 'rpc' | 'say'>;

const HEAT_TYPES: ElemType[] = ['u8', 'i8', 'u16', 'i16', 'w12', 'u32', 'i32', 'f16', 'bf16', 'f32'];

export class ViewsPane {
  readonly el: HTMLElement;
  readonly picture: Picture;
  readonly reader: RegionReader;
  private spec: TensorView | undefined;
  /** The plan of the shown picture, with `base` 0: `bytes` start at the picture's first element. */
  private plan: ViewPlan | undefined;
  /** Where the picture's first element is in the space (the region's offset + the slice's start). */
  private origin = 0;
  private bytes: Uint8Array | undefined;
  private reference: { name: string; bytes: Uint8Array } | undefined;
  private error: string | undefined;
  private seq = 0;
  private hoverSeq = 0;
  private choices: RegionChoice[] = [];
  /** The step whose bytes the picture shows (−2: none yet). */
  shownStep = -2;
  /** Milliseconds from asking for a picture to its first draw, and of the last step re-render (bench). */
  lastLoadMs = 0;
  /** Of which decoding, colouring and drawing (the rest is reading the region). */
  lastRenderMs = 0;

  private readonly regionSel: HTMLSelectElement;
  private readonly modeSel: HTMLSelectElement;
  private readonly formatSel: HTMLSelectElement;
  private readonly typeSel: HTMLSelectElement;
  private readonly shapeIn: HTMLInputElement;
  private readonly widthIn: HTMLInputElement;
  private readonly heightIn: HTMLInputElement;
  private readonly sliceIn: HTMLInputElement;
  private readonly status: HTMLElement;
  private readonly hover: HTMLElement;
  private readonly diffInfo: HTMLElement;
  private readonly legend: HTMLElement;
  private readonly legendBar: HTMLCanvasElement;
  private readonly legendText: HTMLElement;

  constructor(private readonly host: ViewsHost) {
    this.reader = new RegionReader(host.rpc);
    this.picture = new Picture();
    const change = () => this.fromControls();
    const field = (text: string, control: HTMLElement) => h('label', { class: 'tl-field' }, h('span', { class: 'tl-label' }, text), control);
    this.regionSel = h('select', { id: 'tl-vregion', 'aria-label': 'Region to view', onchange: () => this.pickRegion(Number(this.regionSel.value)) });
    this.modeSel = h('select', { id: 'tl-vmode', 'aria-label': 'View as', onchange: change }, option('image', 'image'), option('heatmap', 'heatmap'));
    this.formatSel = h('select', { id: 'tl-vformat', 'aria-label': 'Image format', onchange: change }, ...IMAGE_FORMATS.map((f) => option(f, f)));
    this.typeSel = h('select', { id: 'tl-vtype', 'aria-label': 'Heatmap element type', onchange: change }, ...HEAT_TYPES.map((t) => option(t, ELEM_LABEL[t])));
    const num = (id: string, label: string) =>
      h('input', { id, type: 'text', inputmode: 'numeric', size: 5, 'aria-label': label, placeholder: label, onchange: change }) as HTMLInputElement;
    this.shapeIn = h('input', { id: 'tl-vshape', type: 'text', size: 11, 'aria-label': 'Shape', placeholder: 'shape 3,h,w', onchange: change });
    this.widthIn = num('tl-vwidth', 'width');
    this.heightIn = num('tl-vheight', 'height');
    this.sliceIn = h('input', {
      id: 'tl-vslice',
      type: 'text',
      size: 6,
      'aria-label': 'Slice of the leading dimensions',
      placeholder: 'slice',
      onchange: change,
    });
    const btn = (id: string, text: string, title: string, onclick: () => void) => h('button', { id, class: 'tl-btn', type: 'button', title, onclick }, text);
    this.status = h('div', { id: 'tl-vstatus', class: 'tl-vstatus', role: 'status' });
    this.hover = h('div', { id: 'tl-vhover', class: 'tl-vhover' });
    this.diffInfo = h('div', { id: 'tl-vdiffinfo', class: 'tl-vdiffinfo' });
    this.legendBar = h('canvas', { class: 'tl-vlegendbar', width: SCALE_STEPS + 1, height: 1 });
    this.legendText = h('span', { id: 'tl-vrange', class: 'tl-vrange' });
    this.legend = h('div', { id: 'tl-vlegend', class: 'tl-vlegend', hidden: true }, this.legendBar, this.legendText);
    this.paintLegend();
    const cv = this.picture.canvas;
    cv.addEventListener('mousemove', (e) => this.onHover(e));
    cv.addEventListener('mouseleave', () => setText(this.hover, ''));
    cv.addEventListener('click', (e) => void this.onClick(e));
    this.el = h(
      'section',
      { id: 'tl-views', class: 'tl-views', 'aria-label': 'Views', hidden: true },
      h(
        'div',
        { class: 'tl-vbar' },
        field('Region', this.regionSel),
        field('As', this.modeSel),
        this.formatSel,
        this.typeSel,
        this.shapeIn,
        this.widthIn,
        this.heightIn,
        this.sliceIn,
        btn('tl-vfit', 'Fit', 'Whole picture in view (0); zoom with the wheel or + and −, pan by dragging or with the arrows', () => {
          this.picture.fit();
          this.picture.draw();
        }),
        btn('tl-vdiff', 'Diff…', 'Difference to a reference file (.npy, .bin)', () => void this.pickReference()),
        btn('tl-vpng', 'PNG', 'Export the picture as PNG', () => void this.exportPng()),
        btn('tl-vnpy', '.npy', 'Export the shown elements as .npy', () => void this.exportNpy()),
        btn('tl-vclose', '×', 'Close the Views pane', () => this.close()),
      ),
      h('div', { class: 'tl-vcanvaswrap' }, cv),
      this.legend,
      this.hover,
      this.diffInfo,
      this.status,
    );
    this.syncControls();
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  close(): void {
    this.el.hidden = true;
    this.spec = undefined;
    this.plan = undefined;
    this.bytes = undefined;
    this.reference = undefined;
  }

  /** The regions to choose from changed (hello, overlays of another space). */
  fillRegions(): void {
    this.choices = regionChoices(this.host.model);
    const cur = this.spec ? this.choices.findIndex((c) => c.space === this.spec!.space && c.offset === this.spec!.offset && c.bytes === this.spec!.bytes) : -1;
    this.regionSel.replaceChildren(
      option('', this.spec && cur < 0 ? this.spec.label : '— region —', cur < 0),
      ...this.choices.map((c, i) => option(String(i), c.label, i === cur)),
    );
  }

  private pickRegion(i: number): void {
    const c = this.choices[i];
    if (!c) return;
    this.show(c.view ?? viewOfRegion(c, this.host.model));
  }

  /** Opens the pane on a picture of a region. */
  show(spec: TensorView): void {
    this.el.hidden = false;
    if (this.spec?.space !== spec.space || this.spec.offset !== spec.offset || this.spec.bytes !== spec.bytes) this.reference = undefined;
    this.spec = { ...spec };
    this.syncControls();
    this.fillRegions();
    void this.load();
  }

  /** Views a region of the model's list (a buffer, a dump, a tensor) by its name. */
  showRegion(r: Region | RegionChoice): void {
    this.show(viewOfRegion({ label: r.name, ...r }, this.host.model));
  }

  private syncControls(): void {
    const s = this.spec;
    const image = !s || s.mode === 'image';
    this.modeSel.value = s?.mode ?? 'image';
    this.formatSel.hidden = !image;
    this.typeSel.hidden = image;
    this.sliceIn.hidden = image;
    this.formatSel.value = s?.format ?? (s?.shape?.length === 3 ? (s.shape[0] === 3 ? 'rgb-planar' : 'rgb-interleaved') : 'grey');
    this.typeSel.value = s?.dtype ?? 'u8';
    this.shapeIn.value = s?.shape?.join(',') ?? '';
    this.widthIn.value = s?.width ? String(s.width) : '';
    this.heightIn.value = s?.height ? String(s.height) : '';
    this.sliceIn.value = s?.slice?.join(',') ?? '';
  }

  /** The user changed a control: a new spec for the same region. */
  private fromControls(): void {
    const s = this.spec;
    if (!s) return;
    try {
      const mode = this.modeSel.value as 'image' | 'heatmap';
      const shape = parseSizes(this.shapeIn.value, 'shape', 1);
      const slice = parseSizes(this.sliceIn.value, 'slice', 0);
      const w = parseSizes(this.widthIn.value, 'width', 1);
      const hh = parseSizes(this.heightIn.value, 'height', 1);
      this.spec = {
        label: s.label,
        space: s.space,
        offset: s.offset,
        bytes: s.bytes,
        mode,
        format: mode === 'image' ? (this.formatSel.value as ImageFormat) : undefined,
        dtype: mode === 'heatmap' ? (this.typeSel.value as ElemType) : undefined,
        shape: shape.length ? shape : undefined,
        width: w[0],
        height: hh[0],
        slice: slice.length ? slice : undefined,
      };
    } catch (e) {
      this.fail(e instanceof Error ? e.message : String(e));
      return;
    }
    this.syncControls();
    void this.load();
  }

  private fail(message: string): void {
    this.error = message;
    this.status.classList.add('tl-warn');
    setText(this.status, message);
  }

  /** The memory changed (a new run): re-read. */
  refresh(): void {
    this.reader.clear();
    if (this.spec && this.open) void this.load();
  }

  /** The step changed: the picture after the new step, with what it wrote outlined. */
  onStep(): void {
    if (this.spec && this.open) void this.load();
  }

  /** Reads the region at the current step and draws it. */
  async load(): Promise<void> {
    const spec = this.spec;
    if (!spec) return;
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
      this.legend.hidden = true;
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
    this.plan = { ...plan, base: 0 };
    this.origin = origin;
    this.bytes = bytes;
    this.shownStep = step;
    this.error = undefined;
    this.render();
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
    let rangeText = '';
    if (p.mode === 'image') {
      this.legend.hidden = true;
      this.picture.setOutline(this.outline());
      this.applyDiff(bytes, false);
      this.picture.setImage(imageRGBA(bytes, p, this.pixels(p)), p.width, p.height);
    } else {
      const vals = heatValues(bytes, p, be);
      const r = valueRange(vals);
      this.legend.hidden = false;
      rangeText = `min ${fmt(r.min)} · max ${fmt(r.max)}${r.nonFinite ? ` · ${r.nonFinite} not finite (magenta)` : ''}`;
      setText(this.legendText, rangeText);
      this.picture.setOutline(this.outline());
      this.applyDiff(bytes, be);
      this.picture.setImage(heatRGBA(vals, r.min, r.max, this.pixels(p), r.nonFinite === 0), p.width, p.height);
    }
    const info = m.spaces.find((x) => x.id === this.spec!.space)!;
    this.status.classList.remove('tl-warn');
    setText(
      this.status,
      `${this.spec!.label}: ${p.describe} at ${info.id} 0x${((info.base ?? 0) + Math.floor(this.origin / info.unitBytes)).toString(16)}` +
        ` · after step ${m.st.step}`,
    );
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
    const info = m.spaces.find((x) => x.id === this.spec!.space);
    if (!rec?.written || !info || rec.written.space !== info.id) return [];
    const w = touchedBytes(rec.written, info.unitBytes);
    return rectsOfBytes(this.plan!, w.lo - this.origin, w.hi - this.origin);
  }

  private applyDiff(bytes: Uint8Array, be: boolean): void {
    const p = this.plan!;
    if (!this.reference) {
      this.picture.setDiff(undefined);
      setText(this.diffInfo, '');
      return;
    }
    try {
      const ref = referenceValues(this.reference.name, this.reference.bytes, p);
      const d = diffMask(p, viewValues(bytes, p, be), ref);
      this.picture.setDiff(d.count ? d.mask : undefined);
      this.diffInfo.classList.toggle('tl-warn', d.count > 0);
      const name = this.reference.name.split(/[\\/]/).pop();
      setText(
        this.diffInfo,
        d.count === 0
          ? `no element differs from ${name} (${p.count} compared)`
          : `${d.count} of ${p.count} elements differ from ${name} (${d.pixels} pixels, red)`,
      );
    } catch (e) {
      this.picture.setDiff(undefined);
      this.diffInfo.classList.add('tl-warn');
      setText(this.diffInfo, e instanceof Error ? e.message : String(e));
    }
  }

  private async pickReference(): Promise<void> {
    if (!this.spec) return;
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
    const info = m.spaces.find((s) => s.id === this.spec!.space)!;
    const off = this.origin + offsetOf(p, x, y);
    const addr = `${info.id} 0x${((info.base ?? 0) + Math.floor(off / info.unitBytes)).toString(16)}`;
    if (p.mode === 'image') {
      if (p.channels === 1) return `(x ${x}, y ${y}) = ${bytes[offsetOf(p, x, y)]} · ${addr}`;
      const [r, g, b] = p.rgb.map((c) => bytes[offsetOf(p, x, y, c)]);
      return `(x ${x}, y ${y}) R ${r} G ${g} B ${b} · ${addr}`;
    }
    const lead = this.spec!.shape && this.spec!.shape.length > 2 ? this.spec!.shape.slice(0, -2).map((_, d) => this.spec!.slice?.[d] ?? 0) : [];
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
    const m = this.host.model;
    try {
      const r = await this.host.rpc.request('hover', { space: this.spec!.space, offset: this.origin + offsetOf(this.plan!, x, y), step: m.st.step });
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

  private async exportPng(): Promise<void> {
    if (!this.plan) return;
    const png = await canvasPng(this.picture.src);
    const r = await this.host.rpc.request('savePng', { name: fileName(this.spec!.label, 'png'), png });
    if (r.saved) this.host.say(`saved ${r.path}`);
  }

  private async exportNpy(): Promise<void> {
    const p = this.plan;
    if (!p) return;
    const r = await this.host.rpc.request('export', {
      space: this.spec!.space,
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

  private paintLegend(): void {
    const ctx = this.legendBar.getContext('2d');
    if (!ctx) return;
    const img = ctx.createImageData(SCALE_STEPS + 1, 1);
    for (let k = 0; k <= SCALE_STEPS; k++) {
      const [r, g, b] = scaleRGB(k / SCALE_STEPS);
      img.data.set([r, g, b, 255], 4 * k);
    }
    ctx.putImageData(img, 0, 0);
  }

  // -------------------------------------------------------------------------------------------
  // For the tests, the bench and viewDump

  /** RGBA drawn on the visible canvas at the centre of picture pixel (x, y). */
  drawnPixel(x: number, y: number): number[] {
    const q = this.picture.cssPointOf(x, y);
    const r = window.devicePixelRatio || 1;
    const d = this.picture.canvas.getContext('2d')!.getImageData(Math.floor(q.x * r), Math.floor(q.y * r), 1, 1).data;
    return [...d];
  }

  /** What the pane shows (the extension's tests read it through viewDump). */
  summary(): { label: string; describe: string; error?: string; pixel0?: number[] } | undefined {
    if (!this.spec || !this.open) return undefined;
    const p = this.plan;
    const pixel0 = p && this.bytes ? [...this.picture.src.getContext('2d')!.getImageData(0, 0, 1, 1).data] : undefined;
    return { label: this.spec.label, describe: p?.describe ?? '', ...(this.error ? { error: this.error } : {}), ...(pixel0 ? { pixel0 } : {}) };
  }
}

/** A value as the hover and legend print it (integers whole, floats to 6 significant digits). */
function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : Number.isFinite(v) ? String(Number(v.toPrecision(6))) : String(v);
}

/** A file name from a view's label (`output` → `output.png`). */
function fileName(label: string, ext: string): string {
  return `${label.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'view'}.${ext}`;
}
