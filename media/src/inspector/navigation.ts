/**
 * Moving around the grid: the cursor and selection (keys, mouse), go to an address / `$variable` /
 * tensor, to the bytes a step read or wrote, value search, and revealing in the editor the statement
 * that last wrote a byte.
 */
import { touchedBytes, type ElemType } from '../../../core/protocol/webview';
import { ELEM_BYTES, parseNumber, parseSearch, type SearchMode } from '../../../core/inspect/decode';
import type { Grid } from './grid';
import type { InspectorModel } from './model';
import type { Tooltip } from './tooltip';
import type { InspectorView } from './view';

/** What navigation uses of the controller: the model, frames, the status line, space and step changes. */
export type NavigationView = Pick<
  InspectorView,
  'model' | 'rpc' | 'schedule' | 'save' | 'say' | 'announceCursor' | 'selectSpace' | 'setStep' | 'syncPartitions'
>;

export class Navigation {
  private readonly model: InspectorModel;

  constructor(
    private readonly view: NavigationView,
    private readonly grid: Grid,
    private readonly tip: Pick<Tooltip, 'hide'>,
  ) {
    this.model = view.model;
  }

  moveCursor(to: number, extend: boolean): void {
    const { st } = this.model;
    const w = this.model.window();
    const c = Math.max(w.offset, Math.min(w.offset + w.length - 1, to));
    if (extend) {
      if (st.anchor === null) st.anchor = st.cursor;
    } else st.anchor = null;
    st.cursor = c;
    this.grid.scrollToOffset(c);
    this.view.announceCursor();
    this.view.save();
    this.view.schedule();
  }

  onKey(e: KeyboardEvent): void {
    const { model: m, grid } = this;
    const { st } = m;
    const W = st.width;
    const cur = st.cursor;
    const w = m.window();
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
        this.view.setStep(st.step - 1, true);
        break;
      case ']':
        this.view.setStep(st.step + 1, true);
        break;
      case 'Enter':
        void this.revealAt(cur);
        break;
      case 'Escape':
        st.anchor = null;
        m.hl = undefined;
        m.match = undefined;
        this.tip.hide();
        this.view.schedule();
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  }

  onMouseDown(e: MouseEvent): void {
    const hit = this.grid.offsetAt(e.target, e.clientX);
    if (!hit) return;
    e.preventDefault();
    this.grid.scroller.focus();
    this.moveCursor(hit.off, e.shiftKey);
    if (!e.shiftKey) void this.revealAt(hit.off);
  }

  /** Asks the extension to show the statement that last wrote byte `off`. */
  async revealAt(off: number): Promise<void> {
    const { rpc } = this.view;
    try {
      const r = await rpc.request('hover', { space: this.model.info.id, offset: off, step: this.model.st.step });
      if (r.lastWrite) rpc.notify('reveal', { loc: r.lastWrite.loc, preserveFocus: true });
    } catch {
      /* nothing to reveal */
    }
  }

  /** Go to an address (number), or a `$variable` / tensor the extension resolves. */
  async goTo(text: string): Promise<void> {
    const { model: m, view } = this;
    const t = text.trim();
    if (!t) return;
    const n = parseNumber(t.replace(/^@/, ''));
    if (n !== undefined && Number.isInteger(n)) {
      const off = (n - (m.info.base ?? 0)) * m.info.unitBytes;
      if (off < 0 || off >= m.info.bytes) {
        view.say(`${t} is outside ${m.info.label} (0x${(m.info.base ?? 0).toString(16)}–${m.fmtAddr(m.info.bytes - 1)})`, true);
        return;
      }
      this.goToOffset(off, 0, true);
      this.grid.scroller.focus();
      return;
    }
    try {
      const r = await view.rpc.request('resolve', { text: t, space: m.info.id });
      if (!r) {
        view.say(`${t}: no such address, variable or tensor`, true);
        return;
      }
      if (r.space !== m.info.id) view.selectSpace(r.space, false);
      this.goToOffset(r.offset, r.length, true);
      view.say(`${r.label}: ${m.fmtAddr(r.offset)}, ${r.length} bytes`);
      this.grid.scroller.focus();
    } catch (e) {
      view.say(String(e instanceof Error ? e.message : e), true);
    }
  }

  /** Moves the cursor to `off` (selecting `length` bytes) and scrolls there, adjusting core/thread. */
  goToOffset(off: number, length: number, center: boolean): void {
    const { model: m, view } = this;
    const { st } = m;
    const w = m.window();
    if (off < w.offset || off >= w.offset + w.length) {
      // pick the partition indexes that contain it (keeping the depth the user chose)
      const parts = m.info.partitions ?? [];
      let acc = 0;
      for (let i = 0; i < parts.length; i++) {
        if (st.part[i] === null || st.part[i] === undefined) break;
        const k = Math.floor((off - acc) / parts[i].strideBytes);
        st.part[i] = k;
        acc += k * parts[i].strideBytes;
      }
      view.syncPartitions();
    }
    st.cursor = off;
    // cursor at the start, anchor at the end: the selection covers the range
    st.anchor = length > 1 ? off + length - 1 : null;
    this.grid.scrollToOffset(off, center);
    view.announceCursor();
    view.save();
    view.schedule();
  }

  /** Selects and shows the bytes the current step read or wrote. */
  goToTouched(which: 'read' | 'written'): void {
    const { model: m, view } = this;
    const step = m.st.step;
    const s = m.stepRec();
    const t = s?.[which];
    if (!t) {
      view.say(step < 0 ? 'Pick a step first' : `Step ${step} ${which === 'read' ? 'read' : 'wrote'} no memory`, true);
      return;
    }
    const info = m.spaces.find((x) => x.id === t.space);
    if (!info) {
      view.say(`Step ${step} ${which} ${t.space}, which this view does not show`, true);
      return;
    }
    if (info.id !== m.info.id) view.selectSpace(info.id, false);
    const r = touchedBytes(t, info.unitBytes);
    m.hl = { lo: r.lo, hi: r.hi, label: `${which} by step ${step}` };
    this.goToOffset(r.lo, r.hi - r.lo, true);
    view.say(
      `Step ${step} ${which === 'read' ? 'read' : 'wrote'} ${t.count} ${info.unitBytes > 1 ? 'words' : 'bytes'} of ${info.label} ` +
        `in ${m.fmtAddr(r.lo)}–${m.fmtAddr(r.hi - 1)}`,
    );
  }

  /** Searches the space at the current step for `text` read as `mode`, from the cursor on (or back). */
  async find(text: string, mode: SearchMode, backward: boolean): Promise<void> {
    const { model: m, view } = this;
    const { st } = m;
    st.findText = text;
    let pat;
    try {
      pat = parseSearch(text, mode, st.bigEndian);
    } catch (e) {
      view.say(`Search: ${e instanceof Error ? e.message : e}`, true);
      return;
    }
    const align = mode === 'hex' || mode === 'ascii' ? m.info.unitBytes : Math.max(m.info.unitBytes, ELEM_BYTES[mode as ElemType]);
    const from = backward ? st.cursor - 1 : m.match && m.match.lo === st.cursor ? st.cursor + 1 : st.cursor;
    view.say('Searching…');
    try {
      const r = await view.rpc.request('search', {
        space: m.info.id,
        step: st.step,
        pattern: pat.pattern.slice().buffer,
        mask: pat.mask ? pat.mask.slice().buffer : undefined,
        from: Math.max(0, from),
        backward,
        align,
        wrap: true,
      });
      if (r.offset < 0) {
        m.match = undefined;
        view.say(`${text} not found in ${m.info.label}`, true);
        view.schedule();
        return;
      }
      m.match = { lo: r.offset, hi: r.offset + pat.pattern.length };
      this.goToOffset(r.offset, 0, false);
      view.say(`Found ${text} at ${m.fmtAddr(r.offset)}`);
    } catch (e) {
      view.say(`Search failed: ${e instanceof Error ? e.message : e}`, true);
    }
  }
}
