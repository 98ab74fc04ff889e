/**
 * Decorations of the grid: changed, read, selected, highlighted, matched and cursor bytes and tensor
 * colours, drawn as absolutely placed boxes behind the row text (one box per run of equal marks) rather
 * than per-byte elements, so a frame touches a few dozen elements whatever the row width.
 */
import { h } from '../common/dom';
import { hexPos, type Geometry } from './rowLayout';

/** Marks of a byte (bit flags), and the tensor colour + 1 in bits 8..11. */
export const F_CHG = 1;
export const F_RD = 2;
export const F_SEL = 4;
export const F_HL = 8;
export const F_MATCH = 16;
export const F_CUR = 32;
export const OV_SHIFT = 8;
const OV_MASK = 0xf << OV_SHIFT;
/** Paint order of decorations (later on top). */
const DECO_KINDS: [number, string][] = [
  [OV_MASK, ''],
  [F_HL, 'tl-hl'],
  [F_MATCH, 'tl-match'],
  [F_SEL, 'tl-sel'],
  [F_CHG, 'tl-chg'],
  [F_RD, 'tl-rd'],
  [F_CUR, 'tl-cur'],
];

/** Whether byte flags `f` already carry a tensor colour. */
export const hasOverlay = (f: number): boolean => (f & OV_MASK) !== 0;

/** A decoration box: a run of cells of one section of one row with one mark. */
export interface Deco {
  cls: string;
  /** b = hex bytes, v = typed values, c = ASCII. */
  sec: 'b' | 'v' | 'c';
  x: number;
  y: number;
  w: number;
  /** Byte offsets [lo, hi) it covers. */
  lo: number;
  hi: number;
}

/** Runs of equal flags in one section of a row → decoration boxes. */
export function rowDecos(out: Deco[], g: Geometry, flags: Uint16Array, n: number, off: number, y: number, sec: 'b' | 'v' | 'c'): void {
  const cw = g.cw;
  const eb = sec === 'v' ? g.eb : 1;
  const box = (j0: number, j1: number): [number, number] => {
    // [x, width] of cells j0..j1 (inclusive)
    if (sec === 'b') return [g.hexX + (hexPos(g, j0) - 0.5) * cw, (hexPos(g, j1) - hexPos(g, j0) + g.bc + 1) * cw];
    if (sec === 'v') return [g.typedX + (j0 * (g.vc + 1) + 0.5) * cw, (j1 - j0 + 1) * (g.vc + 1) * cw];
    return [g.asciiX + j0 * cw, (j1 - j0 + 1) * cw];
  };
  for (const [bit, cls] of DECO_KINDS) {
    let j = 0;
    while (j < n) {
      const f = bit === OV_MASK ? flags[j] & OV_MASK : flags[j] & bit;
      if (!f) {
        j++;
        continue;
      }
      let e = j + 1;
      while (e < n && (bit === OV_MASK ? (flags[e] & OV_MASK) === f : flags[e] & bit)) e++;
      const [x, w] = box(j, e - 1);
      const c = bit === OV_MASK ? `tl-o${(f >> OV_SHIFT) - 1}` : cls;
      out.push({ cls: c, sec, x, y, w, lo: off + j * eb, hi: off + e * eb });
      j = e;
    }
  }
}

/** The layer of decoration boxes: a pool of divs reused from frame to frame. */
export class DecoLayer {
  readonly el: HTMLDivElement;
  readonly els: HTMLDivElement[] = [];
  /** Decorations of the last frame (tests read them). */
  decos: Deco[] = [];

  constructor() {
    this.el = h('div', { class: 'tl-decos', 'aria-hidden': 'true' });
  }

  /** Updates the pool of decoration boxes (absolutely placed, behind the text). */
  sync(decos: Deco[], rowH: number): void {
    this.decos = decos;
    const h0 = rowH;
    for (let i = 0; i < decos.length; i++) {
      let el = this.els[i];
      if (!el) {
        el = document.createElement('div');
        this.els.push(el);
      }
      if (el.parentElement !== this.el) this.el.append(el);
      const d = decos[i];
      const cls = `tl-deco ${d.cls} tl-s${d.sec}`;
      if (el.className !== cls) el.className = cls;
      if (el.hidden) el.hidden = false;
      const st = el.style;
      const l = `${d.x.toFixed(1)}px`;
      const t = `${d.y}px`;
      const w = `${d.w.toFixed(1)}px`;
      if (st.left !== l) st.left = l;
      if (st.top !== t) st.top = t;
      if (st.width !== w) st.width = w;
      if (st.height !== `${h0}px`) st.height = `${h0}px`;
      const lo = String(d.lo);
      const hi = String(d.hi);
      if (el.dataset.lo !== lo) el.dataset.lo = lo;
      if (el.dataset.hi !== hi) el.dataset.hi = hi;
    }
    for (let i = decos.length; i < this.els.length; i++) if (!this.els[i].hidden) this.els[i].hidden = true;
  }
}
