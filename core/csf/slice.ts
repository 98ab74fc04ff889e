/**
 * A 2-D slice of a `.csfbin` tensor as a dense picture, for the viewer's heatmap: order 1 is one row,
 * order 2 the matrix, order n ≥ 3 the matrix of the last two modes at chosen leading indices. Only the
 * slice's entries are read (its fibers are contiguous, so its entries are one contiguous run of the file),
 * a chunk at a time. A slice wider or taller than `maxSide` cells is downsampled by whole blocks, each
 * cell showing the stored value of largest magnitude in its block (so a lone spike stays visible), never
 * refused: the picture is at most maxSide × maxSide cells.
 *
 * Entries the picture cannot place (an index past the last mode's extent, a second entry at a cell) are
 * counted and reported in `notes`, never dropped silently.
 */
import { CSF_SLICE_MAX_SIDE as SLICE_MAX_SIDE } from '../protocol/webview';
import { formatShape } from './types';
import type { CsfView } from './view';

/** A cell no entry is stored at (an implicit zero). */
export const NO_ENTRY = 0xffffffff;
/** Entries read per chunk (512 KiB). */
const CHUNK_ENTRIES = 1 << 16;

export interface SliceGeometry {
  /** First fiber of the slice; its fibers are [f0, f0 + rows). */
  f0: number;
  rows: number;
  cols: number;
}

/** Where the slice at leading indices `lead` is, or why there is none. */
export function sliceGeometry(shape: readonly number[], lead: readonly number[]): SliceGeometry | string {
  const n = shape.length;
  const want = Math.max(0, n - 2);
  if (lead.length !== want) return `a tensor of order ${n} takes ${want} leading ${want === 1 ? 'index' : 'indices'} for its slice, found ${lead.length}`;
  let f = 0;
  for (let k = 0; k < want; k++) {
    if (!(Number.isSafeInteger(lead[k]) && lead[k] >= 0 && lead[k] < shape[k]))
      return `leading index ${k} is ${lead[k]}, outside [0, ${shape[k]}) of shape ${formatShape(shape)}`;
    f = f * shape[k] + lead[k];
  }
  const rows = n === 1 ? 1 : shape[n - 2];
  const cols = shape[n - 1];
  if (rows === 0 || cols === 0) return `the slice is empty: shape ${formatShape(shape)} has an extent 0`;
  return { f0: f * rows, rows, cols };
}

export interface CsfSlice {
  /** Cells of the picture. */
  rows: number;
  cols: number;
  /** Cells of the slice, and the block each picture cell stands for (1 × 1 unless downsampled). */
  sliceRows: number;
  sliceCols: number;
  blockRows: number;
  blockCols: number;
  /** Row-major values: the stored value (largest magnitude in a block), 0 where nothing is stored. */
  values: Float32Array;
  /** Row-major entry numbers of those values, NO_ENTRY for implicit zeros. */
  entries: Uint32Array;
  /** Cells with a stored entry. */
  stored: number;
  /** What the picture does not show as stored (out-of-range indices, repeated cells). */
  notes: string[];
}

/** Accumulates entries into a slice's picture (also what the unit tests drive directly). */
export class SliceBuilder {
  readonly slice: CsfSlice;
  private outOfRange = 0;
  private firstOut = '';
  private repeated = 0;
  private firstRepeat = '';

  constructor(sliceRows: number, sliceCols: number, maxSide = SLICE_MAX_SIDE) {
    const blockRows = Math.ceil(sliceRows / maxSide);
    const blockCols = Math.ceil(sliceCols / maxSide);
    const rows = Math.ceil(sliceRows / blockRows);
    const cols = Math.ceil(sliceCols / blockCols);
    const entries = new Uint32Array(rows * cols).fill(NO_ENTRY);
    this.slice = { rows, cols, sliceRows, sliceCols, blockRows, blockCols, values: new Float32Array(rows * cols), entries, stored: 0, notes: [] };
  }

  /** Entry `e` (at byte `offset`) of slice row `r`: index and value. */
  add(r: number, e: number, index: number, value: number, offset: number): void {
    const s = this.slice;
    if (index >= s.sliceCols) {
      if (this.outOfRange++ === 0) this.firstOut = `entry ${e} at offset ${offset} has index ${index}, past the last extent ${s.sliceCols}`;
      return;
    }
    const cell = Math.floor(r / s.blockRows) * s.cols + Math.floor(index / s.blockCols);
    const had = s.entries[cell];
    if (had === NO_ENTRY) {
      s.stored++;
    } else if (s.blockRows === 1 && s.blockCols === 1) {
      if (this.repeated++ === 0) this.firstRepeat = `entry ${e} at offset ${offset} is at the cell of entry ${had} (row ${r}, index ${index})`;
    } else {
      // a block keeps its value of largest magnitude; NaN always wins, so it is never hidden
      const cur = s.values[cell];
      if (!(value !== value || Math.abs(value) > Math.abs(cur))) return;
    }
    s.values[cell] = value;
    s.entries[cell] = e;
  }

  finish(): CsfSlice {
    const s = this.slice;
    if (this.outOfRange) s.notes.push(`${this.outOfRange} ${this.outOfRange === 1 ? 'entry is' : 'entries are'} not drawn (V13): ${this.firstOut}`);
    if (this.repeated)
      s.notes.push(`${this.repeated} ${this.repeated === 1 ? 'entry repeats' : 'entries repeat'} a cell, the later drawn (V14): ${this.firstRepeat}`);
    return s;
  }
}

/**
 * The slice of `view` at leading indices `lead` (see the module comment). Throws an Error saying why
 * when the file has no usable fiber index or `lead` does not name a slice.
 */
export async function readSlice(
  view: CsfView,
  lead: readonly number[],
  maxSide = SLICE_MAX_SIDE,
  /** Checked between chunks: true stops the read (a newer slice was asked for), with an Error saying so. */
  cancelled?: () => boolean,
): Promise<CsfSlice> {
  const hd = view.header;
  const ptr = view.pointers;
  if (!hd || !ptr) {
    const p = view.indexProblem;
    throw new Error(
      `the heatmap cannot be drawn: ${p ? `${p.offset !== undefined ? `offset ${p.offset}: ` : ''}${p.message}` : 'the file has no fiber index'}`,
    );
  }
  const g = sliceGeometry(hd.shape, lead);
  if (typeof g === 'string') throw new Error(`no slice to draw: ${g}`);
  const b = new SliceBuilder(g.rows, g.cols, maxSide);
  const e0 = ptr[g.f0];
  const e1 = ptr[g.f0 + g.rows];
  let r = 0;
  for (let at = e0; at < e1; at += CHUNK_ENTRIES) {
    if (cancelled?.()) throw new Error('the slice was not drawn: another slice was asked for');
    const n = Math.min(CHUNK_ENTRIES, e1 - at);
    const bytes = await view.source.read(view.entriesOffset + 8 * at, 8 * n);
    if (bytes.byteLength < 8 * n)
      throw new Error(`the heatmap cannot be drawn: the file ends at offset ${view.size}, inside entry ${at + (bytes.byteLength >> 3)}`);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < n; i++) {
      const e = at + i;
      while (ptr[g.f0 + r + 1] <= e) r++;
      b.add(r, e, dv.getUint32(8 * i, true), dv.getFloat32(8 * i + 4, true), view.entriesOffset + 8 * e);
    }
  }
  return b.finish();
}
