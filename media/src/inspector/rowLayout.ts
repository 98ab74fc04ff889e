/**
 * Where the text of each byte sits in a grid row. A row is monospaced text in sections (address, hex
 * bytes with an extra space every 8, typed values, ASCII, tensor names); the header uses the same text
 * layout, so measuring it once per layout change gives the character width and each section's start,
 * from which decorations are placed and the mouse is hit-tested without touching the rows.
 */
import type { ElemType } from '../../../core/protocol/webview';
import { ELEM_BYTES, ELEM_LABEL, byteChars, formatByte, valueChars, type Radix } from '../../../core/inspect/decode';

export interface Geometry {
  /** Characters of a byte in the radix, of a typed value. */
  bc: number;
  vc: number;
  /** Typed values per row, bytes per value. */
  nT: number;
  eb: number;
  /** Character width (px) and the x where the hex, typed and ASCII sections' text starts. */
  cw: number;
  hexX: number;
  typedX: number;
  asciiX: number;
  headH: number;
}

export function newGeometry(type: ElemType, radix: Radix, width: number, rowH: number, cw = 8): Geometry {
  const eb = ELEM_BYTES[type];
  return { bc: byteChars(radix), vc: valueChars(type, radix), nT: Math.floor(width / eb), eb, cw, hexX: 0, typedX: 0, asciiX: 0, headH: rowH };
}

/** Character position of byte j's text in the hex section. */
export function hexPos(g: Geometry, j: number): number {
  return j * (g.bc + 1) + Math.floor(j / 8);
}

/** The hex and typed sections' header text: byte offsets, and the type label then value offsets. */
export function headerTexts(g: Geometry, width: number, type: ElemType, bigEndian: boolean, unitBytes: number): { hex: string; typed: string } {
  const { bc, vc, nT, eb } = g;
  const hexHead: string[] = [];
  for (let j = 0; j < width; j++) hexHead.push((j && j % 8 === 0 ? ' ' : '') + formatByte(j, 'hex').slice(-2).padStart(bc, ' '));
  const label = `${ELEM_LABEL[type]}${eb > 1 ? (bigEndian ? ' BE' : ' LE') : ''}`;
  // the type label from the first cell on, then the offsets of the cells it leaves free
  const head = Array.from({ length: nT * (vc + 1) }, () => ' ');
  for (let i = 0; i < label.length && i + 1 < head.length; i++) head[i + 1] = label[i];
  for (let t = 1; t < nT; t++) {
    const unitOff = (t * eb) / unitBytes;
    let lab = `+${(Number.isInteger(unitOff) ? unitOff : t * eb).toString(16)}`;
    if (lab.length > vc) lab = lab.slice(1);
    const end = (t + 1) * (vc + 1);
    const start = end - lab.length;
    if (start <= label.length + 1) continue;
    for (let i = 0; i < lab.length; i++) head[start + i] = lab[i];
  }
  return { hex: hexHead.join(' '), typed: head.join('') };
}

/** Section widths in characters (CSS variables), so header and rows line up whatever their text. */
export function setSectionWidths(el: HTMLElement, g: Geometry, width: number, addrDigits: number): void {
  const ss = el.style;
  ss.setProperty('--tl-addr-ch', String(addrDigits));
  ss.setProperty('--tl-hex-ch', String(width * g.bc + (width - 1) + Math.floor((width - 1) / 8)));
  ss.setProperty('--tl-typed-ch', String(g.nT * (g.vc + 1)));
  ss.setProperty('--tl-ascii-ch', String(width));
}

/** Character width and where each section's text starts (one forced layout per structure change). */
export function measureGeometry(g: Geometry, header: HTMLElement, viewport: HTMLElement, rowH: number): void {
  const hexEl = header.children[1] as HTMLElement;
  const text = hexEl.firstChild;
  const vp = viewport.getBoundingClientRect();
  if (text && text.textContent) {
    const r = document.createRange();
    r.selectNodeContents(text);
    const rect = r.getBoundingClientRect();
    if (rect.width > 0) g.cw = rect.width / text.textContent.length;
  }
  const startOf = (el: Element) => {
    const rr = el.getBoundingClientRect();
    return rr.left - vp.left + (parseFloat(getComputedStyle(el).paddingLeft) || 0);
  };
  g.hexX = startOf(hexEl);
  g.typedX = startOf(header.children[2]);
  g.asciiX = startOf(header.children[3]);
  const hh = header.getBoundingClientRect().height;
  g.headH = hh > 4 ? hh : rowH;
}

/** The byte (index in the row, unclamped) at x (px from the viewport's left) in section `kind`. */
export function byteAtX(g: Geometry, kind: string, x: number): number {
  if (kind === 'b') {
    const c = (x - g.hexX) / g.cw + 0.5;
    const group = g.bc + 1;
    // undo the extra space every 8 bytes
    const per8 = 8 * group + 1;
    const grp = Math.floor(c / per8);
    return grp * 8 + Math.min(7, Math.max(0, Math.floor((c - grp * per8) / group)));
  }
  if (kind === 'v') return Math.max(0, Math.floor((x - g.typedX) / g.cw / (g.vc + 1))) * g.eb;
  return Math.floor((x - g.asciiX) / g.cw);
}
