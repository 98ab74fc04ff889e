/**
 * Moving around the grid: the cursor and selection (keys, mouse), go to an address / `$variable` /
 * tensor, to the bytes a step read or wrote, value search, and revealing in the editor the statement
 * that last wrote a byte.
 */
import { touchedBytes, type ElemType } from '../../../core/protocol/webview';
import { ELEM_BYTES, parseNumber, parseSearch, type SearchMode } from '../../../core/inspect/decode';
import type { Inspector } from './inspector';

export class Navigation {
  constructor(private readonly insp: Inspector) {}

  /** The selected bytes [lo, hi) (the cursor byte when nothing is selected). */
  selection(): { lo: number; hi: number } {
    const st = this.insp.st;
    const a = st.anchor ?? st.cursor;
    return { lo: Math.min(a, st.cursor), hi: Math.max(a, st.cursor) + 1 };
  }

  moveCursor(to: number, extend: boolean): void {
    const { st } = this.insp;
    const w = this.insp.window();
    const c = Math.max(w.offset, Math.min(w.offset + w.length - 1, to));
    if (extend) {
      if (st.anchor === null) st.anchor = st.cursor;
    } else st.anchor = null;
    st.cursor = c;
    this.insp.grid.scrollToOffset(c);
    this.insp.announceCursor();
    this.insp.save();
    this.insp.schedule();
  }

  onKey(e: KeyboardEvent): void {
    const insp = this.insp;
    const { st, grid } = insp;
    const W = st.width;
    const cur = st.cursor;
    const w = insp.window();
    const page = grid.visibleRows * W;
    const ext = e.shiftKey;
    const mod = e.ctrlKey || e.metaKey;
    let handled = true;
    switch (e.key) {
      case 'ArrowLeft':
        this.moveCursor(cur - 1, ext);
        break;
      case 'ArrowRight':
        this.moveCursor(cur + 1, ext);
        break;
      case 'ArrowUp':
        this.moveCursor(cur - W, ext);
        break;
      case 'ArrowDown':
        this.moveCursor(cur + W, ext);
        break;
      case 'PageUp':
        grid.setTop(st.top - grid.visibleRows);
        this.moveCursor(cur - page, ext);
        break;
      case 'PageDown':
        grid.setTop(st.top + grid.visibleRows);
        this.moveCursor(cur + page, ext);
        break;
      case 'Home':
        this.moveCursor(mod ? w.offset : cur - ((cur - w.offset) % W), ext);
        break;
      case 'End':
        this.moveCursor(mod ? w.offset + w.length - 1 : cur - ((cur - w.offset) % W) + W - 1, ext);
        break;
      case '[':
        insp.setStep(st.step - 1, true);
        break;
      case ']':
        insp.setStep(st.step + 1, true);
        break;
      case 'Enter':
        void this.revealAt(cur);
        break;
      case 'Escape':
        st.anchor = null;
        insp.hl = undefined;
        insp.match = undefined;
        insp.tip.hide();
        insp.schedule();
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  }

  onMouseDown(e: MouseEvent): void {
    const hit = this.insp.grid.offsetAt(e.target, e.clientX);
    if (!hit) return;
    e.preventDefault();
    this.insp.grid.scroller.focus();
    this.moveCursor(hit.off, e.shiftKey);
    if (!e.shiftKey) void this.revealAt(hit.off);
  }

  /** Asks the extension to show the statement that last wrote byte `off`. */
  async revealAt(off: number): Promise<void> {
    const insp = this.insp;
    try {
      const r = await insp.rpc.request('hover', { space: insp.info.id, offset: off, step: insp.st.step });
      if (r.lastWrite) insp.rpc.notify('reveal', { loc: r.lastWrite.loc, preserveFocus: true });
    } catch {
      /* nothing to reveal */
    }
  }

  /** Go to an address (number), or a `$variable` / tensor the extension resolves. */
  async goTo(text: string): Promise<void> {
    const insp = this.insp;
    const t = text.trim();
    if (!t) return;
    const n = parseNumber(t.replace(/^@/, ''));
    if (n !== undefined && Number.isInteger(n)) {
      const off = (n - (insp.info.base ?? 0)) * insp.info.unitBytes;
      if (off < 0 || off >= insp.info.bytes) {
        insp.say(`${t} is outside ${insp.info.label} (0x${(insp.info.base ?? 0).toString(16)}–${insp.fmtAddr(insp.info.bytes - 1)})`, true);
        return;
      }
      this.goToOffset(off, 0, true);
      insp.grid.scroller.focus();
      return;
    }
    try {
      const r = await insp.rpc.request('resolve', { text: t, space: insp.info.id });
      if (!r) {
        insp.say(`${t}: no such address, variable or tensor`, true);
        return;
      }
      if (r.space !== insp.info.id) insp.selectSpace(r.space, false);
      this.goToOffset(r.offset, r.length, true);
      insp.say(`${r.label}: ${insp.fmtAddr(r.offset)}, ${r.length} bytes`);
      insp.grid.scroller.focus();
    } catch (e) {
      insp.say(String(e instanceof Error ? e.message : e), true);
    }
  }

  /** Moves the cursor to `off` (selecting `length` bytes) and scrolls there, adjusting core/thread. */
  goToOffset(off: number, length: number, center: boolean): void {
    const insp = this.insp;
    const { st } = insp;
    const w = insp.window();
    if (off < w.offset || off >= w.offset + w.length) {
      // pick the partition indexes that contain it (keeping the depth the user chose)
      const parts = insp.info.partitions ?? [];
      let acc = 0;
      for (let i = 0; i < parts.length; i++) {
        if (st.part[i] === null || st.part[i] === undefined) break;
        const k = Math.floor((off - acc) / parts[i].strideBytes);
        st.part[i] = k;
        acc += k * parts[i].strideBytes;
      }
      insp.toolbar.syncPartitions();
    }
    st.cursor = off;
    // cursor at the start, anchor at the end: the selection covers the range
    st.anchor = length > 1 ? off + length - 1 : null;
    insp.grid.scrollToOffset(off, center);
    insp.announceCursor();
    insp.save();
    insp.schedule();
  }

  /** Selects and shows the bytes the current step read or wrote. */
  goToTouched(which: 'read' | 'written'): void {
    const insp = this.insp;
    const step = insp.st.step;
    const s = insp.stepRec();
    const t = s?.[which];
    if (!t) {
      insp.say(step < 0 ? 'Pick a step first' : `Step ${step} ${which === 'read' ? 'read' : 'wrote'} no memory`, true);
      return;
    }
    const info = insp.spaces.find((x) => x.id === t.space);
    if (!info) {
      insp.say(`Step ${step} ${which} ${t.space}, which this view does not show`, true);
      return;
    }
    if (info.id !== insp.info.id) insp.selectSpace(info.id, false);
    const r = touchedBytes(t, info.unitBytes);
    insp.hl = { lo: r.lo, hi: r.hi, label: `${which} by step ${step}` };
    this.goToOffset(r.lo, r.hi - r.lo, true);
    insp.say(`Step ${step} ${which === 'read' ? 'read' : 'wrote'} ${t.count} ${info.unitBytes > 1 ? 'words' : 'bytes'} of ${info.label} in ${insp.fmtAddr(r.lo)}–${insp.fmtAddr(r.hi - 1)}`);
  }

  /** Searches the space at the current step for the toolbar's value, from the cursor on (or back). */
  async find(backward: boolean): Promise<void> {
    const insp = this.insp;
    const { st, toolbar } = insp;
    const text = toolbar.findInput.value;
    st.findText = text;
    const mode = toolbar.findMode.value as SearchMode;
    let pat;
    try {
      pat = parseSearch(text, mode, st.bigEndian);
    } catch (e) {
      insp.say(`Search: ${e instanceof Error ? e.message : e}`, true);
      return;
    }
    const align = mode === 'hex' || mode === 'ascii' ? insp.info.unitBytes : Math.max(insp.info.unitBytes, ELEM_BYTES[mode as ElemType]);
    const from = backward ? st.cursor - 1 : insp.match && insp.match.lo === st.cursor ? st.cursor + 1 : st.cursor;
    insp.say('Searching…');
    try {
      const r = await insp.rpc.request('search', {
        space: insp.info.id,
        step: st.step,
        pattern: pat.pattern.slice().buffer,
        mask: pat.mask ? pat.mask.slice().buffer : undefined,
        from: Math.max(0, from),
        backward,
        align,
        wrap: true,
      });
      if (r.offset < 0) {
        insp.match = undefined;
        insp.say(`${text} not found in ${insp.info.label}`, true);
        insp.schedule();
        return;
      }
      insp.match = { lo: r.offset, hi: r.offset + pat.pattern.length };
      this.goToOffset(r.offset, 0, false);
      insp.say(`Found ${text} at ${insp.fmtAddr(r.offset)}`);
    } catch (e) {
      insp.say(`Search failed: ${e instanceof Error ? e.message : e}`, true);
    }
  }
}
