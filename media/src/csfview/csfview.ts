/**
 * The `.csfbin` viewer: header facts, the fiber table (each fiber's heading followed by its entries,
 * virtualized and fetched in pages), the validation problems (each linked to its byte offset), a hex
 * view of the whole file (paged) and "Show in accelerator memory". It holds only the pages on screen
 * (plus a small cache), never the whole file.
 */
import { bitsToF32, formatF32, formatShape, hex32 } from '../../../core/csf/types';
import { formatDensity } from '../../../core/csf/view';
import {
  CSF_MAX_ROWS,
  PROTOCOL_VERSION,
  bytesOf,
  type CsfProblem,
  type CsfResultOf,
  type CsfRow,
  type CsfValidationInfo,
} from '../../../core/protocol/webview';
import { h, setClass, setText } from '../common/dom';
import type { VsCodeApi } from '../common/rpc';
import type { CsfRpc } from './rpc';
import { VirtualList } from '../common/virtualList';
import { PagedList } from './pagedList';
import { CsfHeatmap, type HeatmapState } from './heatmap';

const ROW_H = 20;
const TABLE_PAGE = 256;
const HEX_PAGE = 4096;
const BYTES_PER_ROW = 16;

export interface CsfViewState {
  tableFirst?: number;
  hexFirst?: number;
  /** The heatmap, when shown. */
  heat?: HeatmapState;
}

type Hello = CsfResultOf<'csf.hello'>;

const hexOff = (n: number) => n.toString(16).padStart(8, '0');

export class CsfViewer {
  info!: Hello;
  private table!: VirtualList;
  private hexList!: VirtualList;
  private rows!: PagedList<CsfRow>;
  private hexPages!: PagedList<number>;
  private readonly status = h('div', { id: 'csf-status', class: 'tl-status', role: 'status' });
  private readonly valState = h('span', { id: 'csf-valstate' });
  private readonly problemList = h('ol', { id: 'csf-problems', class: 'csf-problems' });
  private readonly tableNote = h('p', { id: 'csf-tablenote', class: 'csf-note', hidden: true });
  /** Highlighted bytes [lo, hi) of the hex view, and the selected table row. */
  hl: { lo: number; hi: number } | undefined;
  selectedRow: number | undefined;
  private validation!: CsfValidationInfo;
  /** The Heatmap pane (absent without a readable header). */
  heatmap: CsfHeatmap | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly rpc: CsfRpc,
    private readonly api: VsCodeApi<CsfViewState>,
  ) {}

  async start(): Promise<void> {
    this.info = await this.rpc.request('csf.hello', { protocol: PROTOCOL_VERSION });
    this.rpc.onNotification((n) => {
      if (n.method === 'csf.validation') this.showValidation(n.params);
    });
    this.build();
    this.showValidation(this.info.validation);
    const st = this.api.getState();
    this.table.setTotal(this.info.rows);
    this.hexList.setTotal(Math.ceil(this.info.size / BYTES_PER_ROW));
    if (st?.tableFirst) this.table.scrollTo(st.tableFirst);
    if (st?.hexFirst) this.hexList.scrollTo(st.hexFirst);
    if (st?.heat && typeof st.heat === 'object' && Array.isArray(st.heat.lead)) this.heatmap?.restore(st.heat);
    this.root.setAttribute('aria-busy', 'false');
    document.body.dataset.ready = '1';
  }

  // ------------------------------------------------------------------ layout

  private build(): void {
    const i = this.info;
    const hd = i.header;
    const fact = (id: string, label: string, value: string) =>
      h('span', { class: 'csf-fact' }, h('span', { class: 'tl-label' }, label + ' '), h('span', { id, class: 'csf-val' }, value));
    const facts = hd
      ? [
          fact('csf-order', 'order', String(hd.order)),
          fact('csf-shape', 'shape', formatShape(hd.shape)),
          fact('csf-nnz', 'nnz', hd.nnz.toLocaleString('en-US')),
          fact('csf-fibers', 'fibers', hd.fibers.toLocaleString('en-US')),
          fact('csf-density', 'density', formatDensity(hd.density)),
          fact('csf-size', 'size', `${i.size.toLocaleString('en-US')} bytes`),
        ]
      : [
          h('span', { id: 'csf-noheader', class: 'csf-fact tl-warn' }, 'no readable header'),
          fact('csf-size', 'size', `${i.size.toLocaleString('en-US')} bytes`),
        ];
    const show = h(
      'button',
      {
        id: 'csf-show',
        class: 'tl-btn',
        disabled: !i.canShowInMemory,
        title: 'Load the tensor into the accelerator’s main-memory and metadata banks (at the bases in the settings) and open the memory inspector',
        onclick: () => void this.showInMemory(),
      },
      'Show in accelerator memory',
    );
    const go = h('input', {
      id: 'csf-goto',
      type: 'text',
      class: 'tl-input csf-goto',
      placeholder: 'fiber 3, entry 10, 0x20',
      'aria-label': 'Go to a fiber, an entry or a byte offset',
    });
    go.addEventListener('keydown', (ev: KeyboardEvent) => {
      if (ev.key === 'Enter') void this.goTo(go.value);
    });
    const heatBtn = h(
      'button',
      {
        id: 'csf-heatbtn',
        class: 'tl-btn',
        disabled: !hd,
        'aria-pressed': 'false',
        title: 'Show the tensor’s values as a heatmap (a 2-D slice for order 3 and more)',
        onclick: () => this.heatmap!.toggle(),
      },
      'Heatmap',
    );
    if (hd)
      this.heatmap = new CsfHeatmap(this.rpc, {
        shape: hd.shape,
        entriesOffset: i.entriesOffset,
        selectEntry: (e) => this.selectEntry(e),
        changed: () => {
          heatBtn.setAttribute('aria-pressed', String(!!this.heatmap?.shown));
          this.saveState();
        },
      });
    const top = h(
      'div',
      { class: 'tl-top' },
      h('h1', { class: 'tl-title', title: i.title }, i.title),
      h('div', { id: 'csf-header', class: 'csf-facts' }, ...facts),
      h('div', { class: 'tl-toolbar' }, go, heatBtn, show),
    );

    this.rows = new PagedList<CsfRow>(
      TABLE_PAGE,
      64,
      async (p) => (await this.rpc.request('csf.rows', { start: p * TABLE_PAGE, count: Math.min(TABLE_PAGE, CSF_MAX_ROWS) })).rows,
      () => this.table.render(),
    );
    this.hexPages = new PagedList<number>(
      HEX_PAGE,
      64,
      async (p) => [...bytesOf((await this.rpc.request('csf.hex', { offset: p * HEX_PAGE, length: HEX_PAGE })).bytes)],
      () => this.hexList.render(),
    );

    this.table = new VirtualList(
      'csf-table',
      'Fibers and entries',
      ROW_H,
      (r, el) => this.fillRow(r, el),
      () => this.makeRow(),
    );
    this.table.scroller.addEventListener('click', (ev) => {
      const el = (ev.target as HTMLElement).closest<HTMLElement>('.csf-row');
      if (el?.dataset.row) this.selectRow(Number(el.dataset.row));
    });
    this.table.scroller.addEventListener('scroll', () => this.saveState(), { passive: true });
    const thead = h(
      'div',
      { class: 'csf-row csf-thead' },
      h('span', { class: 'c-num' }, 'fiber / entry'),
      h('span', { class: 'c-coord' }, 'coordinate'),
      h('span', { class: 'c-val' }, 'value'),
      h('span', { class: 'c-bits' }, 'bits'),
      h('span', { class: 'c-off' }, 'offset'),
    );
    // the header is clipped to the pane and follows the rows when they scroll sideways
    this.table.scroller.addEventListener(
      'scroll',
      () => {
        thead.style.transform = `translateX(${-this.table.scroller.scrollLeft}px)`;
      },
      { passive: true },
    );
    if (i.rows === 0) {
      this.tableNote.hidden = false;
      this.tableNote.textContent = i.indexProblem
        ? `No fiber table: ${i.indexProblem.message}`
        : hd && hd.fibers === 0
          ? 'The tensor has no fibers (a leading extent is 0).'
          : 'No fiber table.';
    }
    const tablePane = h(
      'section',
      { class: 'csf-pane csf-tablepane', 'aria-label': 'Fiber table' },
      h('h2', { class: 'csf-h2' }, 'Fibers and entries'),
      this.tableNote,
      thead,
      this.table.scroller,
    );

    this.hexList = new VirtualList(
      'csf-hex',
      'Bytes of the file',
      ROW_H,
      (r, el) => this.fillHex(r, el),
      () => this.makeHexRow(),
    );
    this.hexList.scroller.addEventListener('mousemove', (ev) => {
      const o = (ev.target as HTMLElement).dataset?.o;
      if (o !== undefined && o !== '') this.setStatus(this.describe(Number(o)));
    });
    this.hexList.scroller.addEventListener('scroll', () => this.saveState(), { passive: true });
    const hexHead = h(
      'div',
      { class: 'csf-hexrow csf-thead' },
      h('span', { class: 'h-off' }, 'offset'),
      ...Array.from({ length: BYTES_PER_ROW }, (_, k) => h('span', { class: (k & 3) === 3 ? 'h-b h-word' : 'h-b' }, k.toString(16).padStart(2, '0'))),
      h('span', { class: 'h-asc' }, 'ascii'),
    );
    const hexPane = h(
      'section',
      { class: 'csf-pane csf-hexpane', 'aria-label': 'Hex view' },
      h(
        'h2',
        { class: 'csf-h2' },
        'Bytes ',
        ...(hd
          ? (
              [
                ['s-head', 'header'],
                ['s-idx', 'index'],
                ['s-val', 'value'],
                ['s-pcount', 'P'],
                ['s-ptr', 'pointers'],
              ] as const
            ).map(([c, t]) => h('span', { class: `csf-legend ${c}` }, t))
          : []),
      ),
      hexHead,
      this.hexList.scroller,
    );

    const probPane = h(
      'section',
      { class: 'csf-probpane', 'aria-label': 'Validation problems' },
      h('h2', { class: 'csf-h2' }, 'Validation — ', this.valState),
      this.problemList,
    );
    this.root.append(
      top,
      ...(this.heatmap ? [this.heatmap.el] : []),
      h('div', { class: 'csf-main' }, h('div', { class: 'csf-split' }, tablePane, hexPane)),
      probPane,
      this.status,
    );
  }

  private makeRow(): HTMLDivElement {
    return h(
      'div',
      { class: 'csf-row', role: 'row' },
      h('span', { class: 'c-num' }),
      h('span', { class: 'c-coord' }),
      h('span', { class: 'c-val' }),
      h('span', { class: 'c-bits' }),
      h('span', { class: 'c-off' }),
    );
  }

  private makeHexRow(): HTMLDivElement {
    const el = h('div', { class: 'csf-hexrow', role: 'row' }, h('span', { class: 'h-off' }));
    for (let k = 0; k < BYTES_PER_ROW; k++) el.append(h('span', { class: 'h-b' }));
    el.append(h('span', { class: 'h-asc' }));
    return el;
  }

  // ------------------------------------------------------------------ table

  private fillRow(r: number, el: HTMLDivElement): void {
    const row = this.rows.get(r);
    const k = el.children as HTMLCollectionOf<HTMLElement>;
    const [num, coord, val, bits, off] = [k[0], k[1], k[2], k[3], k[4]];
    el.dataset.row = String(r);
    const sel = this.selectedRow === r ? ' csf-selected' : '';
    if (!row) {
      setClass(el, 'csf-row tl-pending' + sel);
      setText(num, '…');
      for (const c of [coord, val, bits, off]) setText(c, '');
      return;
    }
    const shape = this.info.header!.shape;
    if (row.kind === 'fiber') {
      setClass(el, 'csf-row csf-fiberrow' + sel);
      setText(num, `fiber ${row.fiber}`);
      setText(coord, `x[${[...row.coord, ':'].join(', ')}]`);
      const n = row.end - row.start;
      setText(val, n === 0 ? 'empty' : `${n.toLocaleString('en-US')} ${n === 1 ? 'entry' : 'entries'}`);
      setText(bits, `[${row.start}, ${row.end})`);
      setText(off, `ptr @${hexOff(this.info.pointersOffset + 4 * row.fiber)}`);
      return;
    }
    const bad = row.index >= shape[shape.length - 1];
    setClass(el, 'csf-row csf-entryrow' + (bad ? ' csf-bad' : '') + sel);
    setText(num, `entry ${row.entry}`);
    const lead = this.fiberCoord(row.fiber);
    setText(coord, `x[${[...lead, row.index === 0xffffffff ? 'empty' : String(row.index)].join(', ')}]`);
    setText(val, formatF32(bitsToF32(row.bits)));
    setText(bits, hex32(row.bits));
    setText(off, `@${hexOff(row.offset)}`);
  }

  private fiberCoord(f: number): number[] {
    const shape = this.info.header!.shape;
    const out: number[] = [];
    for (let k = shape.length - 2; k >= 0; k--) {
      const s = shape[k];
      out.unshift(s === 0 ? 0 : f % s);
      f = s === 0 ? 0 : Math.floor(f / s);
    }
    return out;
  }

  /** Selects table row r: highlights its bytes (entry) or its pointer (fiber) in the hex view. */
  selectRow(r: number): void {
    this.selectedRow = r;
    this.table.reveal(r);
    const row = this.rows.get(r);
    if (row?.kind === 'entry') this.revealBytes(row.offset, 8, false);
    else if (row?.kind === 'fiber') this.revealBytes(this.info.pointersOffset + 4 * row.fiber, 4, false);
  }

  /** Selects entry e in the table and its 8 bytes in the hex view (a click on the heatmap). */
  async selectEntry(e: number): Promise<void> {
    const res = await this.rpc.request('csf.locate', { entry: e });
    if (res.row !== null) {
      this.selectedRow = res.row;
      this.table.reveal(res.row);
    }
    this.revealBytes(this.info.entriesOffset + 8 * e, 8, false);
  }

  // ------------------------------------------------------------------ hex

  /** CSS class of the file section a byte belongs to. */
  private section(o: number): string {
    const i = this.info;
    const hd = i.header;
    if (!hd) return '';
    if (o < i.entriesOffset) return 's-head';
    const entriesEnd = i.entriesOffset + 8 * hd.nnz;
    if (o < entriesEnd) return (o - i.entriesOffset) % 8 < 4 ? 's-idx' : 's-val';
    if (o < i.pointersOffset) return 's-pcount';
    if (o < i.pointersOffset + 4 * (hd.fibers + 1)) return 's-ptr';
    return 's-trail';
  }

  private fillHex(r: number, el: HTMLDivElement): void {
    const base = r * BYTES_PER_ROW;
    const kids = el.children as HTMLCollectionOf<HTMLElement>;
    setText(kids[0], hexOff(base));
    el.dataset.off = String(base);
    let ascii = '';
    let pending = false;
    for (let k = 0; k < BYTES_PER_ROW; k++) {
      const o = base + k;
      const cell = kids[1 + k];
      if (o >= this.info.size) {
        setText(cell, '');
        cell.dataset.o = '';
        setClass(cell, (o & 3) === 3 ? 'h-b h-word' : 'h-b');
        continue;
      }
      const b = this.hexPages.get(o);
      cell.dataset.o = String(o);
      const hl = this.hl && o >= this.hl.lo && o < this.hl.hi ? ' csf-hl' : '';
      setClass(cell, `h-b ${this.section(o)}${hl}${(o & 3) === 3 ? ' h-word' : ''}`);
      if (b === undefined) {
        pending = true;
        setText(cell, '··');
        ascii += ' ';
      } else {
        setText(cell, b.toString(16).padStart(2, '0'));
        ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
      }
    }
    setText(kids[1 + BYTES_PER_ROW], ascii);
    setClass(el, pending ? 'csf-hexrow tl-pending' : 'csf-hexrow');
  }

  /** Scrolls the hex view to `offset` and highlights [offset, offset+length). */
  revealBytes(offset: number, length: number, alsoTable = true): void {
    this.hl = { lo: offset, hi: offset + Math.max(1, length) };
    const row = Math.floor(offset / BYTES_PER_ROW);
    this.hexList.reveal(row);
    this.hexList.render();
    this.setStatus(this.describe(offset));
    if (alsoTable && this.info.rows > 0)
      void this.rpc.request('csf.locate', { offset }).then((res) => {
        if (res.row !== null) {
          this.selectedRow = res.row;
          this.table.reveal(res.row);
        }
      });
    else this.table.render();
  }

  /** What byte `o` is (for the status line). */
  describe(o: number): string {
    const i = this.info;
    const hd = i.header;
    const at = `offset ${o} (0x${o.toString(16)})`;
    if (!hd) return at;
    if (o < 4) return `${at}: order`;
    if (o < 4 + 4 * hd.order) return `${at}: shape[${Math.floor((o - 4) / 4)}]`;
    if (o < i.entriesOffset) return `${at}: nnz`;
    const entriesEnd = i.entriesOffset + 8 * hd.nnz;
    if (o < entriesEnd) {
      const e = Math.floor((o - i.entriesOffset) / 8);
      return `${at}: entry ${e}, ${(o - i.entriesOffset) % 8 < 4 ? 'index (u32)' : 'value (f32)'}`;
    }
    if (o < i.pointersOffset) return `${at}: pointer count P`;
    const p = Math.floor((o - i.pointersOffset) / 4);
    if (p <= hd.fibers) return `${at}: ${p === hd.fibers ? 'end pointer' : 'pointer'} ptr[${p}]`;
    return `${at}: trailing byte`;
  }

  // ------------------------------------------------------------------ problems

  private showValidation(v: CsfValidationInfo): void {
    this.validation = v;
    const pct = v.total === 0 ? 100 : Math.floor((100 * v.checked) / v.total);
    if (v.state === 'running') setText(this.valState, `checking… ${pct}%`);
    else if (v.state === 'failed') setText(this.valState, `could not finish: ${v.error ?? 'read error'}`);
    else {
      const errors = v.problems.filter((p) => p.severity === 'error').length;
      setText(
        this.valState,
        v.ok
          ? v.problems.length
            ? `valid, ${v.problems.length} warning${v.problems.length === 1 ? '' : 's'}`
            : 'valid: every rule V1–V15 holds'
          : `${errors} problem${errors === 1 ? '' : 's'}`,
      );
    }
    document.body.dataset.validation = v.state;
    this.problemList.replaceChildren(...v.problems.map((p) => this.problemItem(p)));
  }

  private problemItem(p: CsfProblem): HTMLLIElement {
    const where = p.offset === undefined ? '' : `offset ${p.offset} (0x${p.offset.toString(16)})`;
    const body = [
      h('span', { class: `csf-sev csf-${p.severity}` }, p.severity),
      ' ',
      h('span', { class: 'csf-code' }, `${p.rule ? p.rule + ' ' : ''}${p.code}`),
      ' ',
      h('span', { class: 'csf-msg' }, p.message),
    ];
    if (p.offset === undefined) return h('li', { class: 'csf-problem' }, ...body);
    const link = h(
      'button',
      {
        class: 'csf-link',
        'data-offset': p.offset,
        'data-length': p.length ?? 0,
        title: 'Show these bytes in the hex view',
        onclick: () => this.revealBytes(p.offset!, Math.min(p.length ?? 1, 1 << 20)),
      },
      where,
    );
    return h('li', { class: 'csf-problem' }, link, ' ', ...body);
  }

  // ------------------------------------------------------------------ commands

  async goTo(text: string): Promise<void> {
    const t = text.trim().toLowerCase();
    let m: RegExpExecArray | null;
    if ((m = /^(fiber|entry)\s*(\d+)$/.exec(t))) {
      const n = Number(m[2]);
      const res = await this.rpc.request('csf.locate', m[1] === 'fiber' ? { fiber: n } : { entry: n });
      if (res.row === null) return this.setStatus(`There is no ${m[1]} ${n}.`, true);
      this.selectRow(res.row);
      return;
    }
    if ((m = /^@?(0x[0-9a-f]+|\d+)$/.exec(t))) {
      const o = Number(m[1]);
      if (o >= this.info.size) return this.setStatus(`Offset ${o} is past the end of the file (${this.info.size} bytes).`, true);
      this.revealBytes(o, 1);
      return;
    }
    this.setStatus('Go to: type “fiber N”, “entry N” or a byte offset (decimal or 0x…).', true);
  }

  async showInMemory(): Promise<void> {
    this.setStatus('Loading into accelerator memory…');
    try {
      const r = await this.rpc.request('csf.showInMemory', {});
      this.setStatus(r.message, !r.ok);
    } catch (e) {
      this.setStatus(e instanceof Error ? e.message : String(e), true);
    }
  }

  setStatus(text: string, warn = false): void {
    setText(this.status, text);
    setClass(this.status, warn ? 'tl-status tl-warn' : 'tl-status');
  }

  private saveState(): void {
    if (!this.table) return;
    this.api.setState({ tableFirst: this.table.first, hexFirst: this.hexList.first, heat: this.heatmap?.state() });
  }

  /** For tests: pages held and requests in flight. */
  debugInfo(): { tablePages: number; hexPages: number; pending: number; inFlight: number; tableFirst: number; hexFirst: number; validation: string } {
    return {
      tablePages: this.rows.held,
      hexPages: this.hexPages.held,
      pending: this.rows.pending + this.hexPages.pending,
      inFlight: this.rpc.inFlight,
      tableFirst: this.table.first,
      hexFirst: this.hexList.first,
      validation: this.validation.state,
    };
  }
}
