/**
 * The tensors (trace overlays) of the shown space: the terms of the run's transfers and C globals, each
 * a byte range (strided for PCORE blocks and strided views) with a name and a colour. Kept sorted by
 * offset with a prefix maximum of their ends, so the overlays over a row are found by a binary search
 * however many the trace has.
 */
import type { Overlay } from '../../../core/protocol/webview';
import { overlayTouches } from '../../../core/inspect/traceOverlays';

const OVERLAY_COLORS = 8;
/** Overlays a row colours and names, at most. */
const MAX_ROW_OVERLAYS = 16;
const MAX_ROW_CANDIDATES = 256;

export class OverlayIndex {
  /** Sorted by offset. */
  list: Overlay[] = [];
  private prefixEnd: number[] = [];

  set(overlays: readonly Overlay[]): void {
    this.list = overlays.slice().sort((a, b) => a.offset - b.offset);
    let m = -1;
    this.prefixEnd = this.list.map((o) => (m = Math.max(m, o.offset + o.length)));
  }

  clear(): void {
    this.list = [];
    this.prefixEnd = [];
  }

  /** Overlays whose range meets [lo, hi), in offset order. */
  in(lo: number, hi: number): Overlay[] {
    // overlays sorted by offset; prefix max of ends lets us stop early
    const list = this.list;
    if (!list.length) return [];
    let a = 0;
    let b = list.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (list[m].offset < hi) a = m + 1;
      else b = m;
    }
    const out: Overlay[] = [];
    for (let i = a - 1; i >= 0 && this.prefixEnd[i] > lo; i--) if (list[i].offset + list[i].length > lo) out.push(list[i]);
    return out.reverse();
  }

  /** The overlays a row [off, off+n) colours and names. */
  onRow(off: number, n: number): Overlay[] {
    // at most MAX_ROW_OVERLAYS per row, of the first MAX_ROW_CANDIDATES ranges over it (a long trace can stack many)
    const ovs: Overlay[] = [];
    const cands = this.in(off, off + n);
    for (let k = 0; k < cands.length && k < MAX_ROW_CANDIDATES && ovs.length < MAX_ROW_OVERLAYS; k++) {
      const x = cands[k];
      if (!x.strides || overlayTouches(x, off, off + n)) ovs.push(x);
    }
    return ovs;
  }

  /** Colour index (0..7) of an overlay: its own, else by its position. */
  color(o: Overlay): number {
    return o.color ?? this.list.indexOf(o) % OVERLAY_COLORS;
  }
}
