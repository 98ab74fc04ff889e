/**
 * A picture of the webviews (the memory inspector's Views pane, the `.csfbin` viewer's heatmap): the
 * full-resolution image in an offscreen canvas, drawn into the visible canvas at a zoom and pan
 * (nearest-neighbour, so single pixels show with crisp edges), with the step's changed pixels outlined and
 * the pixels that differ from a reference tinted. A pan or zoom frame is one drawImage of the picture plus
 * the outlines; the picture itself is rebuilt only when its bytes change.
 */
import type { Rect } from '../../../core/inspect/tensorView';
import { h } from './dom';

export const MIN_ZOOM = 1 / 64;
export const MAX_ZOOM = 64;

export class Picture {
  readonly canvas: HTMLCanvasElement;
  /** The picture at one canvas pixel per picture pixel. */
  readonly src: HTMLCanvasElement = document.createElement('canvas');
  /** Pixels that differ from the reference (red, half transparent), same size as `src`. */
  private diff: HTMLCanvasElement | undefined;
  private outline: Rect[] = [];
  /** Canvas pixels per picture pixel, and where picture pixel (0, 0) lands (canvas pixels). */
  zoom = 1;
  panX = 0;
  panY = 0;
  private fitted = false;
  private drag: { x: number; y: number; px: number; py: number; moved: boolean } | undefined;
  /** Milliseconds of each draw (the bench reads them). */
  readonly drawTimes: number[] = [];

  /** `onMove`: the user panned or zoomed (the pane moves linked pictures along); not called by `setView`. */
  constructor(
    private readonly onDraw?: () => void,
    private readonly onMove?: () => void,
  ) {
    this.canvas = h('canvas', { class: 'tl-vcanvas', tabindex: 0, 'aria-label': 'Picture of the region' });
    this.canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    // the window's listeners only for the drag: a closed tile's picture leaves none behind
    this.canvas.addEventListener('mousedown', (e) => {
      if (e.button !== 0) return;
      this.drag = { x: e.clientX, y: e.clientY, px: this.panX, py: this.panY, moved: false };
      const move = (ev: MouseEvent) => {
        const d = this.drag;
        if (!d) return;
        const r = this.ratio();
        if (Math.abs(ev.clientX - d.x) + Math.abs(ev.clientY - d.y) > 3) d.moved = true;
        if (d.moved) this.panTo(d.px + (ev.clientX - d.x) * r, d.py + (ev.clientY - d.y) * r);
      };
      const up = () => {
        window.removeEventListener('mousemove', move);
        window.removeEventListener('mouseup', up);
        setTimeout(() => (this.drag = undefined));
      };
      window.addEventListener('mousemove', move);
      window.addEventListener('mouseup', up);
    });
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
  }

  /** True while (or just after) the mouse dragged the picture: a click then is no click. */
  get dragged(): boolean {
    return !!this.drag?.moved;
  }

  /** Device pixels per CSS pixel of the canvas. */
  private ratio(): number {
    return window.devicePixelRatio || 1;
  }

  /** Replaces the picture (same size keeps zoom and pan; a new size fits it into the canvas). */
  setImage(rgba: Uint8ClampedArray, width: number, height: number): void {
    const resized = this.src.width !== width || this.src.height !== height;
    if (resized) {
      this.src.width = width;
      this.src.height = height;
      this.fitted = false;
      this.diff = undefined;
    }
    this.src.getContext('2d')!.putImageData(new ImageData(rgba as Uint8ClampedArray<ArrayBuffer>, width, height), 0, 0);
    this.draw();
  }

  setOutline(rects: Rect[]): void {
    this.outline = rects;
  }

  /** The outlined rectangles (picture pixels). */
  get outlined(): Rect[] {
    return this.outline;
  }

  /** Tints the pixels where `mask` is 1 (undefined clears). */
  setDiff(mask: Uint8Array | undefined): void {
    if (!mask) {
      this.diff = undefined;
      return;
    }
    const w = this.src.width;
    const hgt = this.src.height;
    const c = (this.diff ??= document.createElement('canvas'));
    c.width = w;
    c.height = hgt;
    const img = new ImageData(w, hgt);
    const words = new Uint32Array(img.data.buffer);
    const red = (160 << 24) | (0 << 16) | (0 << 8) | 255;
    for (let i = 0; i < mask.length; i++) if (mask[i]) words[i] = red;
    c.getContext('2d')!.putImageData(img, 0, 0);
  }

  /** Sizes the canvas to its box (device pixels) and fits the picture the first time. */
  private size(): void {
    const r = this.ratio();
    const box = this.canvas.getBoundingClientRect();
    const w = Math.max(1, Math.round(box.width * r));
    const hgt = Math.max(1, Math.round(box.height * r));
    if (this.canvas.width !== w || this.canvas.height !== hgt) {
      this.canvas.width = w;
      this.canvas.height = hgt;
    }
    if (!this.fitted && this.src.width > 0 && box.width > 0) {
      this.fit();
      this.fitted = true;
    }
  }

  /** Whole picture in view, integer zoom when it is at least 1 (every pixel the same size). */
  fit(): void {
    const cw = this.canvas.width;
    const ch = this.canvas.height;
    const z = Math.min(cw / this.src.width, ch / this.src.height);
    this.zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, z >= 1 ? Math.floor(z) : z));
    this.panX = Math.round((cw - this.src.width * this.zoom) / 2);
    this.panY = Math.round((ch - this.src.height * this.zoom) / 2);
  }

  /** Zooms by `factor` keeping canvas point (cx, cy) (device pixels) over the same picture point. */
  zoomAt(factor: number, cx = this.canvas.width / 2, cy = this.canvas.height / 2): void {
    const z = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, this.zoom * factor));
    const px = (cx - this.panX) / this.zoom;
    const py = (cy - this.panY) / this.zoom;
    this.zoom = z;
    this.panTo(cx - px * z, cy - py * z);
  }

  panTo(x: number, y: number): void {
    this.panX = Math.round(x);
    this.panY = Math.round(y);
    this.draw();
    this.onMove?.();
  }

  /** Whole picture in view and drawn, as the user asked (Fit, the 0 key). */
  refit(): void {
    this.size();
    this.fit();
    this.draw();
    this.onMove?.();
  }

  /** The picture point at the canvas's centre (what linked pictures share, with the zoom: their canvases may differ in size). */
  centre(): { x: number; y: number } {
    return { x: (this.canvas.width / 2 - this.panX) / this.zoom, y: (this.canvas.height / 2 - this.panY) / this.zoom };
  }

  /** Zoom `zoom` with picture point `c` at the canvas's centre (a linked picture's view), without telling `onMove`. */
  setView(zoom: number, c: { x: number; y: number }): void {
    this.size();
    this.fitted = true;
    this.zoom = zoom;
    this.panX = Math.round(this.canvas.width / 2 - c.x * zoom);
    this.panY = Math.round(this.canvas.height / 2 - c.y * zoom);
    this.draw();
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const r = this.ratio();
    const box = this.canvas.getBoundingClientRect();
    if (e.ctrlKey || e.metaKey || !e.shiftKey) this.zoomAt(e.deltaY < 0 ? 1.25 : 0.8, (e.clientX - box.left) * r, (e.clientY - box.top) * r);
    else this.panTo(this.panX - e.deltaY, this.panY);
  }

  private onKey(e: KeyboardEvent): void {
    const step = 32;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => this.panTo(this.panX + step, this.panY),
      ArrowRight: () => this.panTo(this.panX - step, this.panY),
      ArrowUp: () => this.panTo(this.panX, this.panY + step),
      ArrowDown: () => this.panTo(this.panX, this.panY - step),
      '+': () => this.zoomAt(2),
      '=': () => this.zoomAt(2),
      '-': () => this.zoomAt(0.5),
      '0': () => this.refit(),
    };
    const f = keys[e.key];
    if (f) {
      e.preventDefault();
      f();
    }
  }

  /** The picture pixel under a mouse position (undefined outside the picture). */
  pixelAt(clientX: number, clientY: number): { x: number; y: number } | undefined {
    const box = this.canvas.getBoundingClientRect();
    const r = this.ratio();
    const x = Math.floor(((clientX - box.left) * r - this.panX) / this.zoom);
    const y = Math.floor(((clientY - box.top) * r - this.panY) / this.zoom);
    return x >= 0 && y >= 0 && x < this.src.width && y < this.src.height ? { x, y } : undefined;
  }

  /** Where the centre of picture pixel (x, y) is drawn, in CSS pixels from the canvas's top left. */
  cssPointOf(x: number, y: number): { x: number; y: number } {
    const r = this.ratio();
    return { x: (this.panX + (x + 0.5) * this.zoom) / r, y: (this.panY + (y + 0.5) * this.zoom) / r };
  }

  /** RGBA drawn on the visible canvas at the centre of picture pixel (x, y) (tests, bench). */
  drawnPixel(x: number, y: number): number[] {
    const q = this.cssPointOf(x, y);
    const r = this.ratio();
    return [...this.canvas.getContext('2d')!.getImageData(Math.floor(q.x * r), Math.floor(q.y * r), 1, 1).data];
  }

  draw(): void {
    const t0 = performance.now();
    this.size();
    const ctx = this.canvas.getContext('2d')!;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    if (this.src.width === 0) return;
    ctx.imageSmoothingEnabled = false;
    ctx.setTransform(this.zoom, 0, 0, this.zoom, this.panX, this.panY);
    ctx.drawImage(this.src, 0, 0);
    if (this.diff) ctx.drawImage(this.diff, 0, 0);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (this.outline.length) {
      // outlines in canvas pixels (a picture pixel's edge, 2 device pixels wide, light over dark)
      ctx.lineWidth = 2;
      for (const [colour, inset] of [
        ['#000', 0],
        ['#ffd400', 2],
      ] as const) {
        ctx.strokeStyle = colour;
        ctx.beginPath();
        for (const q of this.outline) {
          const x = this.panX + q.x * this.zoom;
          const y = this.panY + q.y * this.zoom;
          ctx.rect(x - 1 + inset, y - 1 + inset, Math.max(1, q.w * this.zoom + 2 - 2 * inset), Math.max(1, q.h * this.zoom + 2 - 2 * inset));
        }
        ctx.stroke();
      }
    }
    this.drawTimes.push(performance.now() - t0);
    if (this.drawTimes.length > 1000) this.drawTimes.splice(0, 500);
    this.onDraw?.();
  }
}
