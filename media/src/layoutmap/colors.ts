/**
 * Colours of the layout map: cell kinds (data, padding, unused, metadata, …) on the theme's palette,
 * data cells on a viridis gradient of their colour key (a logical position, so the picture shows how
 * the tensor's order runs through memory); the one-pixel-per-cell raster drawn from them, and the
 * legend that names them with their counts.
 */
import { REGION_KINDS, type LayoutMap, type RegionKind } from '../../../core/protocol/webview';
import { h } from '../common/dom';

/** Index of each region kind (the `kinds` byte of a cell). */
export const K = Object.fromEntries(REGION_KINDS.map((k, i) => [k, i])) as Record<RegionKind, number>;
const VIRIDIS = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** Colour of a 0..1 key (viridis). */
export function gradient(t: number): [number, number, number] {
  const x = Math.max(0, Math.min(1, t)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const a = VIRIDIS[i];
  const b = VIRIDIS[i + 1];
  return [Math.round(a[0] + (b[0] - a[0]) * f), Math.round(a[1] + (b[1] - a[1]) * f), Math.round(a[2] + (b[2] - a[2]) * f)];
}

function parseColor(css: string, fallback: [number, number, number]): [number, number, number] {
  const m = /^#([0-9a-f]{6})/i.exec(css.trim());
  if (m) return [parseInt(m[1].slice(0, 2), 16), parseInt(m[1].slice(2, 4), 16), parseInt(m[1].slice(4, 6), 16)];
  const r = /rgba?\((\d+)[ ,]+(\d+)[ ,]+(\d+)/.exec(css);
  if (r) return [Number(r[1]), Number(r[2]), Number(r[3])];
  return fallback;
}

export interface Palette {
  bg: [number, number, number];
  padding: [number, number, number];
  hatch: string;
  unused: [number, number, number];
  metadata: [number, number, number];
  gap: [number, number, number];
  frame: string;
  label: string;
  labelBg: string;
  grid: string;
  hover: string;
  located: string;
}

/** The theme's palette (CSS variables of `root`, with dark-theme fallbacks) and the hatch pattern of padding. */
export function readPalette(root: HTMLElement, canvas: HTMLCanvasElement): { pal: Palette; hatch: CanvasPattern | null } {
  const cs = getComputedStyle(root);
  const v = (n: string, f: string) => cs.getPropertyValue(n).trim() || f;
  const pal: Palette = {
    bg: parseColor(v('--lm-bg', '#1e1e1e'), [30, 30, 30]),
    padding: parseColor(v('--lm-padding', '#6b6b6b'), [107, 107, 107]),
    hatch: v('--lm-hatch', '#d0d0d0'),
    unused: parseColor(v('--lm-unused', '#333842'), [51, 56, 66]),
    metadata: parseColor(v('--lm-metadata', '#d18616'), [209, 134, 22]),
    gap: parseColor(v('--lm-gap', '#2a2d2e'), [42, 45, 46]),
    frame: v('--lm-frame', '#c8c8c8'),
    label: v('--lm-label', '#ffffff'),
    labelBg: v('--lm-label-bg', 'rgba(0,0,0,0.6)'),
    grid: v('--lm-grid', 'rgba(0,0,0,0.35)'),
    hover: v('--lm-hover', '#ffffff'),
    located: v('--lm-located', '#ff4081'),
  };
  // hatch pattern: diagonal lines on the padding colour
  const p = document.createElement('canvas');
  p.width = p.height = 8;
  const g = p.getContext('2d')!;
  g.fillStyle = `rgb(${pal.padding.join(',')})`;
  g.fillRect(0, 0, 8, 8);
  g.strokeStyle = pal.hatch;
  g.lineWidth = 1.5;
  g.beginPath();
  g.moveTo(-2, 10);
  g.lineTo(10, -2);
  g.moveTo(-2, 2);
  g.lineTo(2, -2);
  g.moveTo(6, 10);
  g.lineTo(10, 6);
  g.stroke();
  return { pal, hatch: canvas.getContext('2d')!.createPattern(p, 'repeat') };
}

/** RGB of a cell kind with a colour key. */
export function colorOf(P: Palette, kind: number, key: number): [number, number, number] | undefined {
  switch (kind) {
    case K.data:
      return Number.isNaN(key) ? [120, 120, 120] : gradient(key);
    case K.partial: {
      const c = Number.isNaN(key) ? [120, 120, 120] : gradient(key);
      return [Math.round(c[0] * 0.7 + P.padding[0] * 0.3), Math.round(c[1] * 0.7 + P.padding[1] * 0.3), Math.round(c[2] * 0.7 + P.padding[2] * 0.3)];
    }
    case K.replica: {
      const c = Number.isNaN(key) ? [120, 120, 120] : gradient(key);
      return [Math.round(c[0] * 0.55), Math.round(c[1] * 0.55), Math.round(c[2] * 0.55)];
    }
    case K.mixed: {
      const c = Number.isNaN(key) ? [120, 120, 120] : gradient(key);
      return [Math.round(c[0] * 0.5 + P.padding[0] * 0.5), Math.round(c[1] * 0.5 + P.padding[1] * 0.5), Math.round(c[2] * 0.5 + P.padding[2] * 0.5)];
    }
    case K.padding:
      return P.padding;
    case K.unused:
      return P.unused;
    case K.metadata:
      return P.metadata;
    case K.gap:
      return P.gap;
    default:
      return undefined;
  }
}

/** One pixel per cell of the map. */
export function buildRaster(m: LayoutMap, kinds: Uint8Array, keys: Float32Array, pal: Palette): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = m.cols;
  c.height = m.rows;
  const ctx = c.getContext('2d')!;
  const img = ctx.createImageData(m.cols, m.rows);
  const d = img.data;
  const n = m.cols * m.rows;
  for (let i = 0; i < n; i++) {
    const col = colorOf(pal, kinds[i], keys[i]);
    if (!col) continue;
    const o = i * 4;
    d[o] = col[0];
    d[o + 1] = col[1];
    d[o + 2] = col[2];
    d[o + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
  return c;
}

/** Legend items: the gradient, then each kind present with its cell count (and how to see the elements). */
export function legendItems(m: LayoutMap, kinds: Uint8Array, pal: Palette): HTMLElement[] {
  const counts = new Map<number, number>();
  for (let i = 0; i < kinds.length; i++) counts.set(kinds[i], (counts.get(kinds[i]) ?? 0) + 1);
  const k = m.panels[0]?.slotsPerCell ?? 1;
  const what = k > 1 ? `cell (${k} ${m.slotName}s)` : m.slotName;
  const names: Partial<Record<RegionKind, string>> = {
    data: m.inner || k > 1 ? `${what} with elements` : `${what} holding an element`,
    partial: `${what} partly padding`,
    padding: 'padding (hatched)',
    unused: 'reserved, unused',
    metadata: 'metadata',
    replica: 'replica (broadcast)',
    gap: 'gap (not in the view)',
    mixed: 'mixed cell (aggregated)',
  };
  const items: HTMLElement[] = [];
  const grad = h('span', { class: 'lm-grad', 'aria-hidden': 'true' });
  items.push(h('div', { class: 'lm-legitem', role: 'listitem' }, grad, h('span', {}, `colour: ${m.colorLegend ?? 'logical position'} (first → last)`)));
  for (const k of ['data', 'partial', 'padding', 'unused', 'metadata', 'replica', 'gap', 'mixed'] as RegionKind[]) {
    const n = counts.get(K[k]);
    if (!n) continue;
    const sw = h('span', { class: `lm-swatch lm-k-${k}`, 'aria-hidden': 'true' });
    const col = colorOf(pal, K[k], 0.5);
    if (col) sw.style.background = `rgb(${col.join(',')})`;
    items.push(
      h(
        'div',
        { class: 'lm-legitem', role: 'listitem', 'data-kind': k },
        sw,
        h('span', {}, `${names[k]} · ${n.toLocaleString('en-US')} cell${n === 1 ? '' : 's'}`),
      ),
    );
  }
  if (m.inner)
    items.push(
      h(
        'div',
        { class: 'lm-legitem lm-note', role: 'listitem' },
        `zoom in to see the ${m.inner.rows}×${m.inner.cols} elements of each ` +
          `${m.inner.name}${m.inner.blocks?.length ? ` (${m.inner.blocks.length} ${m.inner.blocks[0].label.replace(/\s*\d+$/, '')}s)` : ''}`,
      ),
    );
  return items;
}
