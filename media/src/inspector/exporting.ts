/**
 * Saving what the inspector shows: the selected bytes (.bin, .npy or hex text, written by the
 * extension) and the visible rows as a PNG drawn with the theme's colours.
 */
import { ELEM_BYTES } from '../../../core/inspect/decode';
import { canvasPng } from '../common/dom';
import type { Grid } from './grid';
import type { InspectorView } from './view';

/** What exporting uses of the controller: the model, the extension (which writes the file), the status line. */
export type ExportView = Pick<InspectorView, 'model' | 'rpc' | 'say'>;

/** Asks the extension to save the selection (the cursor's value when nothing is selected). */
export async function exportSelection(view: ExportView, format: 'bin' | 'npy' | 'hex'): Promise<void> {
  const m = view.model;
  const st = m.st;
  const sel = st.anchor === null ? { lo: st.cursor, hi: st.cursor + ELEM_BYTES[st.type] } : m.selection();
  try {
    const r = await view.rpc.request('export', {
      space: m.info.id,
      step: st.step,
      offset: sel.lo,
      length: sel.hi - sel.lo,
      format,
      type: st.type,
      bigEndian: st.bigEndian,
      width: st.width,
    });
    view.say(r.saved ? `Exported ${sel.hi - sel.lo} bytes to ${r.path ?? 'file'}` : 'Export cancelled');
  } catch (e) {
    view.say(`Export failed: ${e instanceof Error ? e.message : e}`, true);
  }
}

/** Draws the grid's visible rows onto a canvas (theme colours) and asks the extension to save it. */
export async function exportPng(view: ExportView, grid: Grid): Promise<void> {
  const m = view.model;
  const c = renderCanvas(grid);
  try {
    const png = await canvasPng(c);
    const r = await view.rpc.request('savePng', { name: `${m.info.id}_${m.fmtAddr(m.window().offset + m.st.top * m.st.width)}`, png });
    view.say(r.saved ? `Saved ${r.path ?? 'PNG'}` : 'PNG not saved');
  } catch (e) {
    view.say(`PNG failed: ${e instanceof Error ? e.message : e}`, true);
  }
}

/** The header and visible rows drawn on a canvas with the theme's colours: decorations, then text. */
export function renderCanvas(grid: Grid): HTMLCanvasElement {
  const rows = [grid.header, ...grid.rows.filter((r) => !r.row.hidden).map((r) => r.row)];
  const origin = grid.header.getBoundingClientRect();
  const last = rows[rows.length - 1].getBoundingClientRect();
  const width = Math.ceil(Math.max(...rows.map((r) => r.scrollWidth)));
  const height = Math.ceil(last.bottom - origin.top);
  const dpr = window.devicePixelRatio || 1;
  const c = document.createElement('canvas');
  c.width = Math.ceil(width * dpr);
  c.height = Math.ceil(height * dpr);
  const ctx = c.getContext('2d')!;
  ctx.scale(dpr, dpr);
  ctx.fillStyle = getComputedStyle(grid.scroller).backgroundColor || '#1e1e1e';
  ctx.fillRect(0, 0, width, height);
  const clear = (col: string) => !col || col === 'transparent' || /rgba\([^)]*,\s*0\)$/.test(col);
  // decorations
  for (const el of grid.decoLayer.els) {
    if (el.hidden || !el.isConnected) continue;
    const r = el.getBoundingClientRect();
    const x = r.left - origin.left;
    const y = r.top - origin.top;
    const cs = getComputedStyle(el);
    if (!clear(cs.backgroundColor)) {
      ctx.fillStyle = cs.backgroundColor;
      ctx.fillRect(x, y, r.width, r.height);
    }
    const bt = parseFloat(cs.borderTopWidth) || 0;
    const bb = parseFloat(cs.borderBottomWidth) || 0;
    if (bt) {
      ctx.fillStyle = cs.borderTopColor;
      ctx.fillRect(x, y, r.width, bt);
    }
    if (bb) {
      ctx.fillStyle = cs.borderBottomColor;
      ctx.fillRect(x, y + r.height - bb, r.width, bb);
    }
    const ow = parseFloat(cs.outlineWidth) || 0;
    if (ow && cs.outlineStyle !== 'none') {
      ctx.strokeStyle = cs.outlineColor;
      ctx.lineWidth = ow;
      ctx.strokeRect(x + ow / 2, y + ow / 2, r.width - ow, r.height - ow);
    }
  }
  // text
  ctx.textBaseline = 'middle';
  for (const row of rows) {
    for (const cell of Array.from(row.children) as HTMLElement[]) {
      if (!cell.textContent) continue;
      const r = cell.getBoundingClientRect();
      const cs = getComputedStyle(cell);
      if (cs.display === 'none') continue;
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      ctx.fillStyle = cs.color;
      const pl = parseFloat(cs.paddingLeft) || 0;
      const pr = parseFloat(cs.paddingRight) || 0;
      const x = r.left - origin.left;
      const y = r.top - origin.top + r.height / 2;
      ctx.save();
      ctx.beginPath();
      ctx.rect(x, r.top - origin.top, r.width, r.height);
      ctx.clip();
      if (cs.textAlign === 'right') {
        ctx.textAlign = 'right';
        ctx.fillText(cell.textContent, x + r.width - pr, y);
      } else {
        ctx.textAlign = 'left';
        ctx.fillText(cell.textContent, x + pl, y);
      }
      ctx.restore();
    }
  }
  return c;
}
