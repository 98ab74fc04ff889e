/**
 * The `.csfbin` viewer's Heatmap: the tensor's dense values (0 where no entry is stored) as a 2-D picture,
 * in the memory inspector's blue–white–red scale with its legend and value range. Order 1 is one row,
 * order 2 the matrix, order ≥ 3 the last two modes at leading indices chosen here. The extension densifies
 * only the shown slice (`csf.slice`, core/csf/slice.ts), downsampled above 2048 cells a side. "Show
 * structure" paints implicit zeros grey, so stored zeros and missing entries differ. Hover tells a cell's
 * coordinate, value, entry and byte offset; a click on a stored cell selects its entry in the table and
 * the hex view.
 */
import { heatRGBA, valueRange } from '../../../core/inspect/tensorView';
import { type CsfResultOf } from '../../../core/protocol/webview';
import { h, setText } from '../common/dom';
import { HeatLegend, formatHeatValue } from '../common/heatLegend';
import { Picture } from '../common/picture';
import type { CsfRpc } from './rpc';

/** Colour of implicit zeros when the structure is shown: a grey off the blue–white–red scale. */
export const IMPLICIT_RGB: [number, number, number] = [128, 128, 128];
const NO_ENTRY = 0xffffffff;

type Slice = CsfResultOf<'csf.slice'>;

export interface HeatmapHost {
  shape: number[];
  entriesOffset: number;
  /** Selects entry e in the fiber table and the hex view. */
  selectEntry(e: number): Promise<void>;
  /** The pane was shown or hidden, or its slice or structure changed (the viewer saves its state). */
  changed(): void;
}

/** What the webview's saved state keeps of the heatmap (shown, its slice, the structure toggle). */
export interface HeatmapState {
  lead: number[];
  structure: boolean;
}

export class CsfHeatmap {
  readonly el: HTMLElement;
  /** The cells at one picture pixel each, with the inspector's zoom (wheel, + −, 0 fits) and pan (drag, arrows). */
  readonly picture = new Picture();
  private readonly legend = new HeatLegend('csf-heatlegend');
  private readonly note = h('div', { id: 'csf-heatnote', class: 'csf-note', hidden: true });
  private readonly hover = h('div', { id: 'csf-heathover', class: 'csf-heathover' });
  private readonly leadInputs: HTMLInputElement[] = [];
  private readonly structure: HTMLInputElement;
  slice: Slice | undefined;
  private values = new Float32Array(0);
  private entries = new Uint32Array(0);
  private loading = 0;
  /** Milliseconds from the request to the painted picture (the bench reads it). */
  lastPaintMs = 0;

  constructor(
    private readonly rpc: CsfRpc,
    private readonly host: HeatmapHost,
  ) {
    const shape = host.shape;
    const leads = shape.slice(0, Math.max(0, shape.length - 2)).map((extent, k) => {
      const input = h('input', {
        id: `csf-lead-${k}`,
        type: 'number',
        class: 'tl-input csf-lead',
        min: 0,
        max: Math.max(0, extent - 1),
        value: '0',
        'aria-label': `index of mode ${k} (0 to ${extent - 1})`,
        onchange: () => void this.load(),
      });
      this.leadInputs.push(input);
      return h('label', { class: 'csf-leadlabel' }, `i${k} `, input);
    });
    this.structure = h('input', {
      id: 'csf-structure',
      type: 'checkbox',
      onchange: () => {
        this.paint();
        this.host.changed();
      },
    });
    const modes = shape.length >= 2 ? `modes ${shape.length - 2} × ${shape.length - 1}` : 'mode 0';
    const cv = this.picture.canvas;
    cv.id = 'csf-heatcanvas';
    cv.classList.add('csf-heatcanvas');
    cv.setAttribute('aria-label', 'Heatmap of the tensor');
    cv.addEventListener('mousemove', (e) => this.onHover(e));
    cv.addEventListener('mouseleave', () => setText(this.hover, ''));
    cv.addEventListener('click', (e) => void this.onClick(e));
    new ResizeObserver(() => this.picture.draw()).observe(cv);
    this.el = h(
      'section',
      { id: 'csf-heatpane', class: 'csf-heatpane', 'aria-label': 'Heatmap', hidden: true },
      h(
        'div',
        { class: 'csf-heatbar' },
        h('span', { class: 'tl-label' }, `Heatmap of ${modes}`),
        ...(leads.length ? [h('span', { class: 'csf-leads' }, 'slice x[', ...leads, ', :, :]')] : []),
        h('label', { class: 'csf-leadlabel', title: 'Paint implicit zeros (no stored entry) grey' }, this.structure, ' show structure'),
        this.legend.el,
      ),
      this.note,
      h('div', { class: 'csf-heatwrap' }, cv),
      this.hover,
    );
  }

  get shown(): boolean {
    return !this.el.hidden;
  }

  /** Shows or hides the pane (the first show loads the slice). */
  toggle(on = this.el.hidden): void {
    this.el.hidden = !on;
    if (on && !this.slice && !this.loading) void this.load();
    else if (on) this.picture.draw();
    this.host.changed();
  }

  /** The state to save: undefined while hidden. */
  state(): HeatmapState | undefined {
    if (this.el.hidden) return undefined;
    const lead = this.lead();
    return { lead: typeof lead === 'string' ? [] : lead, structure: this.structure.checked };
  }

  /** Shows the pane as a saved state left it (leading indices that no longer fit are ignored). */
  restore(st: HeatmapState): void {
    if (st.lead.length === this.leadInputs.length && st.lead.every((v, k) => Number.isSafeInteger(v) && v >= 0 && v < this.host.shape[k]))
      st.lead.forEach((v, k) => (this.leadInputs[k].value = String(v)));
    this.structure.checked = st.structure === true;
    this.toggle(true);
  }

  /** The leading indices the inputs name, or why they name none. */
  private lead(): number[] | string {
    const out: number[] = [];
    for (let k = 0; k < this.leadInputs.length; k++) {
      const v = Number(this.leadInputs[k].value);
      const extent = this.host.shape[k];
      if (!Number.isSafeInteger(v) || v < 0 || v >= extent) return `index ${this.leadInputs[k].value || '(empty)'} of mode ${k} is outside [0, ${extent})`;
      out.push(v);
    }
    return out;
  }

  /** Sets leading index k and loads that slice. */
  async setLead(lead: number[]): Promise<void> {
    lead.forEach((v, k) => (this.leadInputs[k].value = String(v)));
    await this.load();
  }

  async load(): Promise<void> {
    const lead = this.lead();
    if (typeof lead === 'string') return this.fail(lead);
    const t0 = performance.now();
    const ticket = ++this.loading;
    document.body.dataset.heatmap = 'loading';
    try {
      const s = await this.rpc.request('csf.slice', { lead });
      if (ticket !== this.loading) return;
      const cells = s.rows * s.cols;
      const values = new Float32Array(s.values as ArrayBuffer);
      const entries = new Uint32Array(s.entries as ArrayBuffer);
      if (values.length !== cells || entries.length !== cells) throw new Error(`the slice's data has ${values.length} values for ${s.rows} × ${s.cols} cells`);
      this.slice = s;
      this.values = values;
      this.entries = entries;
      const notes = [...s.notes];
      if (s.blockRows > 1 || s.blockCols > 1)
        notes.unshift(
          `the ${s.sliceRows} × ${s.sliceCols} slice is drawn as ${s.rows} × ${s.cols} cells: ` +
            `each shows the stored value of largest magnitude in its ${s.blockRows} × ${s.blockCols} block`,
        );
      this.note.hidden = notes.length === 0;
      this.note.classList.remove('tl-warn');
      setText(this.note, notes.join(' · '));
      this.paint();
      this.lastPaintMs = performance.now() - t0;
      document.body.dataset.heatmap = `painted ${lead.join(',')}`;
      this.host.changed();
    } catch (e) {
      if (ticket === this.loading) this.fail(e instanceof Error ? e.message : String(e));
    }
  }

  private fail(why: string): void {
    this.slice = undefined;
    this.picture.src.width = 0;
    this.legend.show(undefined);
    this.note.hidden = false;
    this.note.classList.add('tl-warn');
    setText(this.note, why);
    this.picture.draw();
    document.body.dataset.heatmap = 'failed';
  }

  /** Colours the cells into the offscreen picture and draws it. */
  paint(): void {
    const s = this.slice;
    if (!s) return;
    const r = valueRange(this.values);
    this.legend.show(r);
    const rgba = heatRGBA(this.values, r.min, r.max, undefined, r.nonFinite === 0);
    if (this.structure.checked) {
      const words = new Uint32Array(rgba.buffer);
      const [R, G, B] = IMPLICIT_RGB;
      const grey = ((255 << 24) | (B << 16) | (G << 8) | R) >>> 0;
      for (let i = 0; i < this.entries.length; i++) if (this.entries[i] === NO_ENTRY) words[i] = grey;
    }
    this.picture.setImage(rgba, s.cols, s.rows);
  }

  /** The picture cell under a mouse position. */
  cellAt(clientX: number, clientY: number): { row: number; col: number } | undefined {
    const p = this.slice ? this.picture.pixelAt(clientX, clientY) : undefined;
    return p && { row: p.y, col: p.x };
  }

  /** Where the centre of cell (row, col) is drawn, in CSS pixels from the canvas's top left (tests). */
  cssPointOf(row: number, col: number): { x: number; y: number } {
    return this.picture.cssPointOf(col, row);
  }

  /** What cell (row, col) is, in words. */
  describe(row: number, col: number): string {
    const s = this.slice!;
    const i = row * s.cols + col;
    const e = this.entries[i];
    const v = this.values[i];
    const r0 = row * s.blockRows;
    const c0 = col * s.blockCols;
    const span = (a: number, b: number, n: number) => (b === 1 ? String(a) : `${a}:${Math.min(a + b, n)}`);
    const rowPart = this.host.shape.length === 1 ? [] : [span(r0, s.blockRows, s.sliceRows)];
    const at = `x[${[...s.lead, ...rowPart, span(c0, s.blockCols, s.sliceCols)].join(', ')}]`;
    if (e === NO_ENTRY) return `${at} = 0 · implicit zero (no stored entry)`;
    const off = this.host.entriesOffset + 8 * e;
    const block = s.blockRows > 1 || s.blockCols > 1 ? ' (largest magnitude in the block)' : '';
    return `${at} = ${formatHeatValue(v)}${block} · stored: entry ${e} at offset ${off} (0x${off.toString(16)})`;
  }

  private onHover(ev: MouseEvent): void {
    const c = this.cellAt(ev.clientX, ev.clientY);
    setText(this.hover, c ? this.describe(c.row, c.col) : '');
  }

  private async onClick(ev: MouseEvent): Promise<void> {
    const c = this.picture.dragged ? undefined : this.cellAt(ev.clientX, ev.clientY);
    if (!c || !this.slice) return;
    const e = this.entries[c.row * this.slice.cols + c.col];
    setText(this.hover, this.describe(c.row, c.col));
    if (e !== NO_ENTRY) await this.host.selectEntry(e);
  }

  /** RGBA drawn on the visible canvas at the centre of cell (row, col) (tests). */
  drawnPixel(row: number, col: number): number[] {
    return this.picture.drawnPixel(col, row);
  }
}
