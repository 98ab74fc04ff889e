/**
 * The heatmap legend both webviews show (the memory inspector's Views pane, the `.csfbin` viewer): the
 * blue–white–red scale of core/inspect/tensorView.ts as a one-pixel-high bar, and the value range in words.
 */
import { SCALE_STEPS, heatRGBA } from '../../../core/inspect/tensorView';
import { h, setText } from './dom';

/** A value as hovers and legends print it (integers whole, floats to 6 significant digits). */
export function formatHeatValue(v: number): string {
  return Number.isInteger(v) ? String(v) : Number.isFinite(v) ? String(Number(v.toPrecision(6))) : String(v);
}

/** The legend's words for a range (`min −2 · max 3.25`, and how many values are not finite). */
export function heatRangeText(r: { min: number; max: number; nonFinite: number }): string {
  return `min ${formatHeatValue(r.min)} · max ${formatHeatValue(r.max)}${r.nonFinite ? ` · ${r.nonFinite} not finite (magenta)` : ''}`;
}

export class HeatLegend {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;

  /** `id`: the legend's element id (its range text gets `<id>-range`); without one, classes only (several on a page). */
  constructor(id?: string) {
    const bar = h('canvas', { class: 'tl-vlegendbar', width: SCALE_STEPS + 1, height: 1 });
    // the bar is the scale itself: step k of SCALE_STEPS coloured by the same heatRGBA as the pictures
    const ramp = Float32Array.from({ length: SCALE_STEPS + 1 }, (_, k) => k);
    bar.getContext('2d')?.putImageData(new ImageData(heatRGBA(ramp, 0, SCALE_STEPS) as Uint8ClampedArray<ArrayBuffer>, SCALE_STEPS + 1, 1), 0, 0);
    this.text = h('span', { ...(id ? { id: `${id}-range` } : {}), class: 'tl-vrange' });
    this.el = h('div', { ...(id ? { id } : {}), class: 'tl-vlegend', hidden: true }, bar, this.text);
  }

  show(r: { min: number; max: number; nonFinite: number } | undefined): void {
    this.el.hidden = !r;
    setText(this.text, r ? heatRangeText(r) : '');
  }
}
