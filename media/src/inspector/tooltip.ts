/**
 * What the inspector says about one byte: its address, value in every type, how the step changed it,
 * whether the step read it, the tensors over it and the statement that last wrote it. Shown as the
 * tooltip of the byte under the mouse (the last write is asked from the extension per hovered byte) and,
 * its first lines, in the status line for the cursor.
 */
import { PAGE_BYTES, touchedBytes, type ElemType, type ResultOf } from '../../../core/protocol/webview';
import { ELEM_BYTES, ELEM_LABEL, asciiChar, decode, formatByte, formatValue } from '../../../core/inspect/decode';
import { h } from '../common/dom';
import type { Grid } from './grid';
import type { InspectorModel } from './model';
import type { InspectorView } from './view';

/** What the tooltip uses of the controller: the model, and the extension for the last write of a byte. */
export type TooltipView = Pick<InspectorView, 'model' | 'rpc'>;

export class Tooltip {
  readonly el: HTMLElement;
  private hoverOff = -1;
  private hoverInfo: ResultOf<'hover'> | undefined;
  private hoverSeq = 0;

  private readonly model: InspectorModel;

  constructor(
    private readonly view: TooltipView,
    private readonly grid: Grid,
  ) {
    this.model = view.model;
    this.el = h('div', { id: 'tl-tip', class: 'tl-tip', role: 'tooltip', hidden: true });
  }

  onHover(e: MouseEvent): void {
    const m = this.model;
    const hit = this.grid.offsetAt(e.target, e.clientX);
    if (!hit) {
      this.hide();
      return;
    }
    this.position(e.clientX, e.clientY);
    if (hit.off === this.hoverOff && !this.el.hidden) return;
    this.hoverOff = hit.off;
    this.hoverInfo = undefined;
    this.fill(hit.off);
    this.el.hidden = false;
    const seq = ++this.hoverSeq;
    const space = m.info.id;
    void this.view.rpc.request('hover', { space, offset: hit.off, step: m.st.step }).then(
      (r) => {
        if (seq !== this.hoverSeq || space !== m.info.id) return;
        this.hoverInfo = r;
        this.fill(hit.off);
      },
      () => undefined,
    );
  }

  private position(x: number, y: number): void {
    const s = this.el.style;
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    s.left = `${Math.min(x + 14, vw - 340)}px`;
    s.top = `${y + 18 > vh - 160 ? Math.max(0, y - 170) : y + 18}px`;
  }

  hide(): void {
    if (!this.el.hidden) this.el.hidden = true;
    this.hoverOff = -1;
  }

  /** The step changed: what was asked about the hovered byte no longer holds. */
  forget(): void {
    this.hoverInfo = undefined;
    this.hoverOff = -1;
  }

  /** Refills a shown tooltip (after a frame: its bytes may have arrived). */
  refresh(): void {
    if (this.hoverOff >= 0 && !this.el.hidden) this.fill(this.hoverOff);
  }

  /** Bytes at [off, off+n) from the cache (undefined when not loaded). */
  private bytesAt(off: number, n: number, step: number): Uint8Array | undefined {
    const { info, cache } = this.model;
    const page = Math.floor(off / PAGE_BYTES);
    const pg = cache.get(info.id, step, page, !!info.history);
    const i = off - page * PAGE_BYTES;
    if (!pg || pg.length < i + 1) return undefined;
    return pg.subarray(i, Math.min(pg.length, i + n));
  }

  /** Text describing byte `off` (tooltip and status line). */
  describe(off: number): string[] {
    const m = this.model;
    const { info, st } = m;
    const lines: string[] = [];
    const addr = (info.base ?? 0) + Math.floor(off / info.unitBytes);
    lines.push(`${info.label} ${'0x' + addr.toString(16)}${info.unitBytes > 1 ? ` byte ${off % info.unitBytes}` : ''} (offset ${off})`);
    const b = this.bytesAt(off, 4, st.step);
    if (!b) {
      lines.push('loading…');
      return lines;
    }
    const v = b[0];
    lines.push(`byte 0x${formatByte(v)} = ${v} = '${asciiChar(v)}'`);
    const be = st.bigEndian;
    const fmt = (t: ElemType) => {
      if (b.length < ELEM_BYTES[t]) return '—';
      const text = formatValue(b, 0, t, be, 'dec');
      // fp16/bf16 print like NumPy (shortest text that reads back); also show the exact value
      const exact = t === 'f16' || t === 'bf16' ? String(decode(b, 0, t, be)) : text;
      return exact !== text && !/e|N|I/.test(text) ? `${text} (=${exact})` : text;
    };
    lines.push(`i8 ${fmt('i8')} · u16 ${fmt('u16')} · i16 ${fmt('i16')} · 12-bit ${fmt('w12')}`);
    lines.push(`fp16 ${fmt('f16')} · bf16 ${fmt('bf16')} · i32 ${fmt('i32')} · fp32 ${fmt('f32')}  (${be ? 'BE' : 'LE'})`);
    const eb = ELEM_BYTES[st.type];
    const w = m.window();
    const es = w.offset + Math.floor((off - w.offset) / eb) * eb;
    const hist = !!info.history;
    const baseStep = hist ? (st.since !== null ? st.since : st.step - 1) : undefined;
    if (baseStep !== undefined && (st.since !== null || st.step >= 0)) {
      const ob = this.bytesAt(off, 1, baseStep);
      if (ob && ob[0] !== v) {
        const oe = this.bytesAt(es, eb, baseStep);
        const ne = this.bytesAt(es, eb, st.step);
        const typed =
          eb > 1 && oe && ne && oe.length >= eb
            ? ` (${ELEM_LABEL[st.type]} ${formatValue(oe, 0, st.type, be, st.radix)} → ${formatValue(ne, 0, st.type, be, st.radix)})`
            : '';
        lines.push(`changed ${st.since !== null ? `since step ${baseStep}` : `by step ${st.step}`}: was 0x${formatByte(ob[0])} (${ob[0]})${typed}`);
      }
    }
    const rec = m.stepRec();
    if (rec?.read && rec.read.space === info.id) {
      const r = touchedBytes(rec.read, info.unitBytes);
      if (off >= r.lo && off < r.hi) lines.push(`in the range step ${rec.step} read`);
    }
    const hi = this.hoverInfo;
    const ovs = m.overlays.in(off, off + 1);
    if (hi && this.hoverOff === off) {
      for (const o of hi.overlays) lines.push(`${o.name}${o.coord ? ` [${o.coord.join(', ')}]` : ''}${o.byteInElement ? ` byte ${o.byteInElement}` : ''}`);
      if (hi.lastWrite)
        lines.push(
          `${hi.lastWrite.exact ? 'last written' : 'last written (range)'} by step ` +
            `${hi.lastWrite.step}: ${hi.lastWrite.loc.file.split(/[\\/]/).pop()}:${hi.lastWrite.loc.line} ${hi.lastWrite.text.slice(0, 100)}`,
        );
      else lines.push('not written by any step so far');
    } else if (ovs.length) for (const o of ovs) lines.push(o.name);
    return lines;
  }

  private fill(off: number): void {
    const lines = this.describe(off);
    this.el.replaceChildren(
      ...lines.map((l, i) =>
        h('div', { class: i === 0 ? 'tl-tiphead' : l.startsWith('changed') ? 'tl-tipchg' : l.startsWith('last written') ? 'tl-tipstmt' : '' }, l),
      ),
    );
  }
}
