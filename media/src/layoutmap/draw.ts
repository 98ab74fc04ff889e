/**
 * Drawing of the layout map: one frame of the picture on a canvas from a `Scene` (the description,
 * its raster, the elements fetched so far, the view transform and the marks). It keeps no state:
 * `LayoutMapView` owns the scene, schedules frames and fetches the element detail a frame asks for.
 */
import type { LayoutMap } from '../../../core/protocol/webview';
import { K, colorOf, type Palette } from './colors';

/** Elements of one grid cell (its `inner` rows × cols, row-major). */
export interface Detail {
  keys: Float32Array;
  kinds: Uint8Array;
}

/** A marked cell, or an element inside it (`ir`, `ic`). */
export interface Mark {
  x: number;
  y: number;
  ir?: number;
  ic?: number;
}

/** What a frame draws, and where: cell (x, y) is at (ox + x·scale, oy + y·scale) CSS px. */
export interface Scene {
  map: LayoutMap;
  /** One pixel per grid cell. */
  raster: HTMLCanvasElement;
  /** The `kinds` byte of each grid cell. */
  kinds: Uint8Array;
  /** Elements of the cells fetched so far, by `x,y`. */
  detail: ReadonlyMap<string, Detail>;
  pal: Palette;
  hatch: CanvasPattern | null;
  scale: number;
  ox: number;
  oy: number;
  /** Canvas size in CSS px. */
  width: number;
  height: number;
  /** The element whose label font (`--tl-ui`) labels use. */
  root: Element;
  located?: Mark;
  /** The hovered cell, or the keyboard focus (drawn alike). */
  hover?: Mark;
}

/** Cells [x0, x1) × [y0, y1) whose elements a frame needs but `detail` does not have. */
export interface DetailRequest {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Size in CSS px of one element of a cell (0 without elements). */
export function elementPx(m: LayoutMap | undefined, scale: number): number {
  if (!m?.inner) return 0;
  return scale / Math.max(m.inner.cols, m.inner.rows);
}

/** Draws a frame (the canvas transform is set for `dpr`); returns the element detail it missed, if any. */
export function drawScene(ctx: CanvasRenderingContext2D, sc: Scene, dpr: number): DetailRequest | undefined {
  const m = sc.map;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = `rgb(${sc.pal.bg.join(',')})`;
  ctx.fillRect(0, 0, sc.width, sc.height);
  const s = sc.scale;
  let request: DetailRequest | undefined;
  // visible cells
  const x0 = Math.max(0, Math.floor(-sc.ox / s));
  const y0 = Math.max(0, Math.floor(-sc.oy / s));
  const x1 = Math.min(m.cols, Math.ceil((sc.width - sc.ox) / s));
  const y1 = Math.min(m.rows, Math.ceil((sc.height - sc.oy) / s));
  if (x1 > x0 && y1 > y0) {
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(sc.raster, x0, y0, x1 - x0, y1 - y0, sc.ox + x0 * s, sc.oy + y0 * s, (x1 - x0) * s, (y1 - y0) * s);
    hatchPadding(ctx, sc, x0, y0, x1, y1);
    const ep = elementPx(m, s);
    if (m.inner && ep >= 3) request = drawElements(ctx, sc, x0, y0, x1, y1);
    else if (s >= 6) gridLines(ctx, sc, x0, y0, x1, y1);
  }
  drawFrames(ctx, sc);
  drawMarks(ctx, sc);
  return request;
}

function hatchPadding(ctx: CanvasRenderingContext2D, sc: Scene, x0: number, y0: number, x1: number, y1: number): void {
  if (!sc.hatch) return;
  const m = sc.map;
  const kinds = sc.kinds;
  const s = sc.scale;
  ctx.fillStyle = sc.hatch;
  // pattern in screen space: runs of padding per row (merged vertically when the cell is < 1 px)
  const step = s < 1 ? Math.ceil(1 / s) : 1;
  for (let y = y0; y < y1; y += step) {
    let x = x0;
    while (x < x1) {
      let pad = false;
      for (let yy = y; yy < Math.min(y1, y + step) && !pad; yy++) pad = kinds[yy * m.cols + x] === K.padding;
      if (!pad) {
        x++;
        continue;
      }
      let e = x + 1;
      while (e < x1) {
        let p2 = false;
        for (let yy = y; yy < Math.min(y1, y + step) && !p2; yy++) p2 = kinds[yy * m.cols + e] === K.padding;
        if (!p2) break;
        e++;
      }
      ctx.fillRect(sc.ox + x * s, sc.oy + y * s, (e - x) * s, Math.max(1, step * s));
      x = e;
    }
  }
}

function gridLines(ctx: CanvasRenderingContext2D, sc: Scene, x0: number, y0: number, x1: number, y1: number): void {
  const s = sc.scale;
  ctx.strokeStyle = sc.pal.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let x = x0; x <= x1; x++) {
    const X = Math.round(sc.ox + x * s) + 0.5;
    ctx.moveTo(X, sc.oy + y0 * s);
    ctx.lineTo(X, sc.oy + y1 * s);
  }
  for (let y = y0; y <= y1; y++) {
    const Y = Math.round(sc.oy + y * s) + 0.5;
    ctx.moveTo(sc.ox + x0 * s, Y);
    ctx.lineTo(sc.ox + x1 * s, Y);
  }
  ctx.stroke();
}

function drawElements(ctx: CanvasRenderingContext2D, sc: Scene, x0: number, y0: number, x1: number, y1: number): DetailRequest | undefined {
  const m = sc.map;
  const g = m.inner!;
  const s = sc.scale;
  const ew = s / g.cols;
  const eh = s / g.rows;
  let missing = false;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const kd = sc.kinds[y * m.cols + x];
      if (kd === K.none) continue;
      const d = sc.detail.get(`${x},${y}`);
      const cx = sc.ox + x * s;
      const cy = sc.oy + y * s;
      if (!d) {
        missing = true;
        continue;
      }
      for (let r = 0; r < g.rows; r++) {
        for (let c = 0; c < g.cols; c++) {
          const i = r * g.cols + c;
          const k = d.kinds[i];
          if (k === K.padding || k === K.none) {
            if (sc.hatch) ctx.fillStyle = sc.hatch;
          } else {
            const col = colorOf(sc.pal, k, d.keys[i]);
            if (!col) continue;
            ctx.fillStyle = `rgb(${col[0]},${col[1]},${col[2]})`;
          }
          ctx.fillRect(cx + c * ew, cy + r * eh, Math.ceil(ew), Math.ceil(eh));
        }
      }
      // element grid and face blocks
      if (ew >= 6) {
        ctx.strokeStyle = sc.pal.grid;
        ctx.lineWidth = 1;
        ctx.beginPath();
        for (let c = 1; c < g.cols; c++) {
          const X = Math.round(cx + c * ew) + 0.5;
          ctx.moveTo(X, cy);
          ctx.lineTo(X, cy + s);
        }
        for (let r = 1; r < g.rows; r++) {
          const Y = Math.round(cy + r * eh) + 0.5;
          ctx.moveTo(cx, Y);
          ctx.lineTo(cx + s, Y);
        }
        ctx.stroke();
      }
      if (g.blocks && g.blocks.length > 1) {
        ctx.strokeStyle = sc.pal.frame;
        ctx.lineWidth = 1;
        for (const b of g.blocks) {
          ctx.strokeRect(cx + b.col * ew + 0.5, cy + b.row * eh + 0.5, b.cols * ew - 1, b.rows * eh - 1);
          if (b.cols * ew > 60) labelAt(ctx, sc, b.label, cx + b.col * ew + 3, cy + b.row * eh + 3);
        }
      }
      ctx.strokeStyle = sc.pal.frame;
      ctx.strokeRect(cx + 0.5, cy + 0.5, s - 1, s - 1);
    }
  }
  if (!missing) return undefined;
  // ask for the visible cells in one request (bounded)
  const maxCells = Math.max(1, Math.floor(16384 / (g.rows * g.cols)));
  let w = x1 - x0;
  let hh = y1 - y0;
  while (w * hh > maxCells) {
    if (w >= hh) w = Math.ceil(w / 2);
    else hh = Math.ceil(hh / 2);
  }
  // the part of the view around its centre first
  const cxCell = Math.floor((sc.width / 2 - sc.ox) / s);
  const cyCell = Math.floor((sc.height / 2 - sc.oy) / s);
  let ax = Math.max(x0, Math.min(x1 - w, cxCell - Math.floor(w / 2)));
  let ay = Math.max(y0, Math.min(y1 - hh, cyCell - Math.floor(hh / 2)));
  // skip ahead to a missing block
  outer: for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++)
      if (!sc.detail.has(`${x},${y}`) && sc.kinds[y * m.cols + x] !== K.none) {
        if (sc.detail.has(`${ax},${ay}`)) {
          ax = Math.max(x0, Math.min(x, x1 - w));
          ay = Math.max(y0, Math.min(y, y1 - hh));
        }
        break outer;
      }
  return { x0: ax, y0: ay, x1: ax + w, y1: ay + hh };
}

function labelAt(ctx: CanvasRenderingContext2D, sc: Scene, text: string, x: number, y: number): void {
  ctx.font = '11px ' + (getComputedStyle(sc.root).getPropertyValue('--tl-ui').trim() || 'sans-serif');
  const w = ctx.measureText(text).width;
  ctx.fillStyle = sc.pal.labelBg;
  ctx.fillRect(x - 2, y - 1, w + 4, 14);
  ctx.fillStyle = sc.pal.label;
  ctx.textBaseline = 'top';
  ctx.fillText(text, x, y);
}

function drawFrames(ctx: CanvasRenderingContext2D, sc: Scene): void {
  const m = sc.map;
  const s = sc.scale;
  ctx.lineWidth = 1;
  for (const r of m.regions) {
    if (r.kind !== 'frame') continue;
    const X = sc.ox + r.x * s;
    const Y = sc.oy + r.y * s;
    const W = r.w * s;
    const H = r.h * s;
    if (X > sc.width || Y > sc.height || X + W < 0 || Y + H < 0) continue;
    if (W < 2 && H < 2) continue;
    ctx.strokeStyle = sc.pal.frame;
    ctx.strokeRect(Math.round(X) + 0.5, Math.round(Y) + 0.5, Math.max(1, Math.round(W) - 1), Math.max(1, Math.round(H) - 1));
    const isPanel = m.panels.some((p) => p.x === r.x && p.y === r.y && p.w === r.w && p.h === r.h);
    if (!isPanel && r.label && W > 70 && H >= 16) labelAt(ctx, sc, r.label, Math.max(X, 0) + 3, Y + H - 16);
  }
  // unit labels where there is room
  for (const p of m.panels) {
    const X = sc.ox + p.x * s;
    const Y = sc.oy + p.y * s;
    if (p.w * s > 70 && X < sc.width && Y < sc.height && X + p.w * s > 0 && Y + p.h * s > 0 && (p.h * s >= 16 || m.panels.length <= 64))
      labelAt(ctx, sc, p.label, Math.max(X, 0) + 3, Math.max(Y, 0) + 3);
  }
}

function drawMarks(ctx: CanvasRenderingContext2D, sc: Scene): void {
  const m = sc.map;
  const s = sc.scale;
  const mark = (k: Mark, color: string, wide: boolean) => {
    let X = sc.ox + k.x * s;
    let Y = sc.oy + k.y * s;
    let W = s;
    let H = s;
    if (m.inner && k.ir !== undefined && k.ic !== undefined && elementPx(m, s) >= 2) {
      W = s / m.inner.cols;
      H = s / m.inner.rows;
      X += k.ic * W;
      Y += k.ir * H;
    }
    ctx.strokeStyle = color;
    ctx.lineWidth = wide ? 2 : 1.5;
    const pad = W < 4 ? 3 : 0;
    ctx.strokeRect(X - pad + 0.5, Y - pad + 0.5, Math.max(2, W + 2 * pad - 1), Math.max(2, H + 2 * pad - 1));
  };
  if (sc.located) mark(sc.located, sc.pal.located, true);
  if (sc.hover) mark(sc.hover, sc.pal.hover, false);
}
