/**
 * The Views pane beside the hex grid: pictures of regions (a named buffer, a dump, a tensor, a C global,
 * the hex selection) as tiles side by side (tile.ts), each an image or a heatmap following the timeline.
 * The bar's controls, Fit, Diff and export act on the selected tile (outlined; a click selects); pictures of
 * the same width × height pan and zoom together while "link" is on, so input and output compare pixel by
 * pixel. `showView` adds a tile, or replaces the tile of the same label (a re-run re-opens its views in
 * place); the region list replaces the selected tile's region; + adds a copy of the selected tile.
 */
import { IMAGE_FORMATS, type ElemType, type ImageFormat, type Region, type TensorView } from '../../../../core/protocol/webview';
import { ELEM_LABEL } from '../../../../core/inspect/decode';
import { h, option, setText } from '../../common/dom';
import type { InspectorView } from '../view';
import type { Picture } from '../../common/picture';
import { RegionReader } from './regionReader';
import { parseSizes, regionChoices, viewOfRegion, type RegionChoice } from './regions';
import { Tile, type TileEvents } from './tile';

/** What the pane uses of the controller: the model (spaces, step, overlays, regions, selection), the extension, the status line. */
export type ViewsHost = Pick<InspectorView, 'model' | 'rpc' | 'say'>;

const HEAT_TYPES: ElemType[] = ['u8', 'i8', 'u16', 'i16', 'w12', 'u32', 'i32', 'f16', 'bf16', 'f32'];
/** More tiles than the protocol's views list would make pictures too small to use. */
const MAX_TILES = 64;

export class ViewsPane {
  readonly el: HTMLElement;
  /** One page cache for every tile: pictures of the same region, or of overlapping ones, read once. */
  readonly reader: RegionReader;
  readonly tiles: Tile[] = [];
  selected: Tile | undefined;
  /** Milliseconds of the last step change's re-render of every tile (bench). */
  lastStepMs = 0;
  private choices: RegionChoice[] = [];
  private readonly tilesEl: HTMLElement;
  private readonly linkIn: HTMLInputElement;
  private readonly regionSel: HTMLSelectElement;
  private readonly modeSel: HTMLSelectElement;
  private readonly formatSel: HTMLSelectElement;
  private readonly typeSel: HTMLSelectElement;
  private readonly shapeIn: HTMLInputElement;
  private readonly widthIn: HTMLInputElement;
  private readonly heightIn: HTMLInputElement;
  private readonly sliceIn: HTMLInputElement;
  private readonly status: HTMLElement;
  private readonly diffInfo: HTMLElement;
  private readonly events: TileEvents = {
    select: (t) => this.select(t),
    close: (t) => this.closeTile(t),
    status: (t) => t === this.selected && this.syncStatus(),
    moved: (t) => this.follow(t),
    painted: (t, first) => first && this.join(t),
  };

  constructor(private readonly host: ViewsHost) {
    this.reader = new RegionReader(host.rpc);
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
    this.linkIn = h('input', {
      id: 'tl-vlink',
      type: 'checkbox',
      checked: true,
      onchange: () => this.linkIn.checked && this.selected && this.follow(this.selected),
    });
    const btn = (id: string, text: string, title: string, onclick: () => void) => h('button', { id, class: 'tl-btn', type: 'button', title, onclick }, text);
    this.status = h('div', { id: 'tl-vstatus', class: 'tl-vstatus', role: 'status' });
    this.diffInfo = h('div', { id: 'tl-vdiffinfo', class: 'tl-vdiffinfo' });
    this.tilesEl = h('div', { id: 'tl-vtiles', class: 'tl-vtiles' });
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
        btn('tl-vadd', '+', 'Add a picture: a copy of the selected one, beside it (then choose its region)', () => this.addCopy()),
        h(
          'label',
          { class: 'tl-field', title: 'Pictures of the same width × height pan and zoom together' },
          this.linkIn,
          h('span', { class: 'tl-label' }, 'link'),
        ),
        btn('tl-vfit', 'Fit', 'Whole picture in view (0); zoom with the wheel or + and −, pan by dragging or with the arrows', () =>
          this.selected?.picture.refit(),
        ),
        btn('tl-vdiff', 'Diff…', 'Difference of the selected picture to a reference file (.npy, .bin)', () => void this.selected?.pickReference()),
        btn('tl-vpng', 'PNG', 'Export the selected picture as PNG', () => void this.selected?.exportPng()),
        btn('tl-vnpy', '.npy', 'Export the selected picture’s elements as .npy', () => void this.selected?.exportNpy()),
        btn('tl-vclose', '×', 'Close the Views pane (every picture)', () => this.close()),
      ),
      this.tilesEl,
      this.diffInfo,
      this.status,
    );
    this.syncControls();
    // the panel resized (tiles wrap differently): each canvas to its new box, views kept
    new ResizeObserver(() => {
      for (const t of this.tiles) if (t.plan) t.picture.draw();
    }).observe(this.tilesEl);
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  /** The selected tile's picture, step and timings (tests, bench). */
  get picture(): Picture | undefined {
    return this.selected?.picture;
  }
  get shownStep(): number {
    return this.selected?.shownStep ?? -2;
  }
  get lastLoadMs(): number {
    return this.selected?.lastLoadMs ?? 0;
  }
  get lastRenderMs(): number {
    return this.selected?.lastRenderMs ?? 0;
  }

  /** Closes one picture (by label) or the whole pane. */
  close(label?: string): void {
    if (label !== undefined) {
      const t = this.tiles.find((x) => x.spec.label === label);
      if (t) this.closeTile(t);
      return;
    }
    for (const t of this.tiles) t.drop();
    this.tiles.length = 0;
    this.tilesEl.replaceChildren();
    this.selected = undefined;
    this.el.hidden = true;
  }

  private closeTile(t: Tile): void {
    const i = this.tiles.indexOf(t);
    if (i < 0) return;
    t.drop();
    this.tiles.splice(i, 1);
    t.el.remove();
    if (!this.tiles.length) return this.close();
    if (this.selected === t) this.select(this.tiles[Math.min(i, this.tiles.length - 1)]);
    this.markFirst();
    // the others grew into the freed space: whole pictures again at their new size
    this.refitAll();
  }

  private select(t: Tile): void {
    if (this.selected === t) return;
    this.selected?.el.classList.remove('tl-selected');
    this.selected = t;
    t.el.classList.add('tl-selected');
    this.syncControls();
    this.fillRegions();
    this.syncStatus();
  }

  /** The first tile's canvas keeps the id tl-vcanvas (every canvas has the class tl-vcanvas and data-label). */
  private markFirst(): void {
    for (const [i, t] of this.tiles.entries()) t.picture.canvas.id = i === 0 ? 'tl-vcanvas' : '';
  }

  /** The regions to choose from changed (hello, overlays of another space). */
  fillRegions(): void {
    this.choices = regionChoices(this.host.model);
    const s = this.selected?.spec;
    const cur = s ? this.choices.findIndex((c) => c.space === s.space && c.offset === s.offset && c.bytes === s.bytes) : -1;
    this.regionSel.replaceChildren(
      option('', s && cur < 0 ? s.label : '— region —', cur < 0),
      ...this.choices.map((c, i) => option(String(i), c.label, i === cur)),
    );
  }

  /** The region list replaces the selected tile's region (a new tile when there is none). */
  private pickRegion(i: number): void {
    const c = this.choices[i];
    if (!c) return;
    const spec = c.view ?? viewOfRegion(c, this.host.model);
    if (!this.selected) return this.show(spec);
    this.selected.setSpec(spec);
    this.syncControls();
    void this.selected.load();
  }

  /** Opens a picture: the tile of the same label shows it anew, else a new tile beside the others; either is selected. */
  show(spec: TensorView): void {
    this.el.hidden = false;
    const same = this.tiles.find((t) => t.spec.label === spec.label);
    const t = same ?? this.add(spec);
    if (!t) return;
    t.setSpec(spec);
    this.select(t);
    this.syncControls();
    this.fillRegions();
    void t.load();
  }

  /** The run configuration's views: exactly these tiles, the first selected. */
  showAll(specs: readonly TensorView[]): void {
    this.close();
    for (const s of specs.slice(0, MAX_TILES)) this.show(s);
    if (this.tiles[0]) this.select(this.tiles[0]);
  }

  private add(spec: TensorView): Tile | undefined {
    if (this.tiles.length >= MAX_TILES) {
      this.host.say(`${spec.label}: the Views pane holds at most ${MAX_TILES} pictures; close one first`);
      return undefined;
    }
    const t = new Tile(this.host, this.reader, this.events, spec);
    this.tiles.push(t);
    this.tilesEl.append(t.el);
    this.markFirst();
    // the tiles before it gave up width: whole pictures again at their new size (the new one fits, or joins them, when painted)
    this.refitAll();
    return t;
  }

  private refitAll(): void {
    for (const x of this.tiles) if (x.plan) x.picture.refit();
  }

  private addCopy(): void {
    const s = this.selected?.spec;
    if (!s) return;
    let n = 2;
    while (this.tiles.some((t) => t.spec.label === `${s.label} (${n})`)) n++;
    this.show({ ...s, label: `${s.label} (${n})` });
  }

  /** Views a region of the model's list (a buffer, a dump, a tensor) by its name. */
  showRegion(r: Region | RegionChoice): void {
    this.show(viewOfRegion({ label: r.name, ...r }, this.host.model));
  }

  /** Pictures of the same size as `t` take its zoom and pan (when linked). */
  private follow(t: Tile): void {
    if (!this.linkIn.checked || !t.plan) return;
    const p = t.picture;
    for (const x of this.tiles) {
      if (x !== t && x.plan && x.plan.width === t.plan.width && x.plan.height === t.plan.height) x.picture.setView(p.zoom, p.centre());
    }
  }

  /** A linked tile's new picture takes the view of one of the same size already shown (the selected first). */
  private join(t: Tile): void {
    if (!this.linkIn.checked || !t.plan) return;
    const same = (x: Tile | undefined) => x && x !== t && x.plan && x.plan.width === t.plan!.width && x.plan.height === t.plan!.height;
    const other = same(this.selected) ? this.selected : this.tiles.find(same);
    if (other) t.picture.setView(other.picture.zoom, other.picture.centre());
  }

  private syncStatus(): void {
    const t = this.selected;
    this.status.classList.toggle('tl-warn', !!t?.error);
    setText(this.status, t?.statusText ?? '');
    this.diffInfo.classList.toggle('tl-warn', !!t?.diffWarn);
    setText(this.diffInfo, t?.diffText ?? '');
  }

  private syncControls(): void {
    const s = this.selected?.spec;
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

  /** The user changed a control: a new spec for the selected tile's region. */
  private fromControls(): void {
    const t = this.selected;
    if (!t) return;
    const s = t.spec;
    try {
      const mode = this.modeSel.value as 'image' | 'heatmap';
      const shape = parseSizes(this.shapeIn.value, 'shape', 1);
      const slice = parseSizes(this.sliceIn.value, 'slice', 0);
      const w = parseSizes(this.widthIn.value, 'width', 1);
      const hh = parseSizes(this.heightIn.value, 'height', 1);
      t.setSpec({
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
      });
    } catch (e) {
      t.fail(e instanceof Error ? e.message : String(e));
      return;
    }
    this.syncControls();
    void t.load();
  }

  /** The memory changed (a new run): re-read every picture. */
  refresh(): void {
    this.reader.clear();
    void this.onStep();
  }

  /** The step changed: every picture after the new step, with what it wrote outlined. */
  async onStep(): Promise<void> {
    if (!this.open || !this.tiles.length) return;
    const t0 = performance.now();
    await Promise.all(this.tiles.map((t) => t.load()));
    this.lastStepMs = performance.now() - t0;
  }

  // -------------------------------------------------------------------------------------------
  // For the tests, the bench and viewDump

  /** The hover text of the selected picture's pixel (x, y). */
  describePixel(x: number, y: number): string {
    return this.selected?.describePixel(x, y) ?? '';
  }

  /** RGBA drawn on the selected tile's visible canvas at the centre of picture pixel (x, y). */
  drawnPixel(x: number, y: number): number[] {
    return this.selected?.drawnPixel(x, y) ?? [];
  }

  /** What the selected tile shows (the extension's tests read it through viewDump). */
  summary(): ReturnType<Tile['summary']> | undefined {
    return this.open ? this.selected?.summary() : undefined;
  }

  /** What every tile shows, in order. */
  summaries(): ReturnType<Tile['summary']>[] | undefined {
    return this.open && this.tiles.length ? this.tiles.map((t) => t.summary()) : undefined;
  }
}
