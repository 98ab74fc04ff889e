/**
 * The extension side of the webview protocol, independent of VS Code: give it a data source and a
 * `post` function, feed it every message the webview sends, and it answers. The extension wires it as
 *
 *   const host = new WebviewHost(source, (m) => panel.webview.postMessage(m));
 *   panel.webview.onDidReceiveMessage((m) => host.handle(m));
 *
 * and calls `host.refresh()` / `host.setStep(n)` / `host.highlight(...)` / `host.showLayout(p)` when the
 * run, the debugger position or the editor selection changes. The test harness runs the same class in
 * the browser against a known memory image.
 */
import {
  PROTOCOL_VERSION,
  type HostNotifyMethod,
  type HostNotifyParams,
  type HostToWebview,
  type LayoutHit,
  type LayoutMap,
  type Overlay,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
  type Region,
  type RunBuffer,
  type TensorView,
  type SourceLoc,
  type SpaceInfo,
  type WebviewNotifyParams,
  bytesOf,
  explainWebviewMessage,
  toArrayBuffer,
} from '../protocol/webview';
import type { TraceStep } from '../protocol/trace';
import { ELEM_BYTES } from './decode';
import { exportBytes, exportName, type ExportFormat } from './export';
import { findInSource } from './search';

/** A layout picture and the answers to hover / locate / zoom queries on it (see layoutMap.ts). */
export interface LayoutMapProvider {
  readonly map: LayoutMap;
  query(x: number, y: number, innerRow?: number, innerCol?: number): LayoutHit;
  locate(q: { coord?: number[]; address?: number; unit?: number }): LayoutHit | null;
  detail?(x: number, y: number, w: number, h: number): { keys: Float32Array; kinds: Uint8Array };
}

export interface Resolved {
  space: string;
  offset: number;
  length: number;
  label: string;
}

/** What the inspector shows. Only `spaces` and `read` are required. */
export interface InspectorSource {
  title?: string;
  spaces(): SpaceInfo[];
  /** Bytes [offset, offset+length) of a space after `step` (shorter at the end of the space). */
  read(space: string, offset: number, length: number, step: number): Uint8Array | Promise<Uint8Array>;
  /** Executed tensor statements, as the simulator recorded them. */
  steps?(): readonly TraceStep[];
  /** The step the run/debugger is at (default: the last). */
  currentStep?(): number;
  overlays?(space: string): Overlay[];
  /** Names typed in “go to”; the default looks the name up among the overlays. */
  resolve?(text: string, space?: string): Resolved | undefined;
  /** Where a fresh view starts. */
  initial?(): { space: string; offset: number; length?: number } | undefined;
  /** The run's named buffers in MEM (name, address, bytes). */
  buffers?(): RunBuffer[];
  /** Regions to jump to (buffers, loads, dumps, pointer arguments); the first is where a fresh view starts. */
  regions?(): Region[];
  /** Pictures the Views pane opens at the start (the run configuration's `views`). */
  views?(): TensorView[];
  /** Asks the user for a reference file to compare a picture with; undefined when cancelled. */
  pickReference?(label: string): Promise<{ name: string; bytes: Uint8Array } | undefined> | { name: string; bytes: Uint8Array } | undefined;
  /** Writes an exported file (asks the user where); returns the path, undefined when cancelled. */
  save?(suggestedName: string, bytes: Uint8Array, kind: ExportFormat | 'png'): Promise<string | undefined> | string | undefined;
  reveal?(loc: SourceLoc, preserveFocus?: boolean): void;
  log?(level: 'info' | 'warn' | 'error', message: string): void;
  stepSelected?(step: number): void;
  /** For the layout-map view. */
  layout?(): LayoutMapProvider | undefined;
}

type Handlers = { [M in RequestMethod]: (p: ParamsOf<M>) => Promise<ResultOf<M>> | ResultOf<M> };

/** Largest export the host assembles in memory. */
export const MAX_EXPORT_BYTES = 512 * 1024 * 1024;

/** What the inspector view reports it renders (`viewDump`). */
export type ViewDump = WebviewNotifyParams<'viewDump'>;

export class WebviewHost {
  private layoutProvider: LayoutMapProvider | undefined;
  private lastSelected: number | undefined;
  private dumpToken = 0;
  private readonly dumpWaiters = new Map<number, (d: ViewDump) => void>();

  constructor(
    private readonly src: InspectorSource,
    private readonly post: (m: HostToWebview) => unknown,
  ) {
    this.layoutProvider = src.layout?.();
  }

  /** Handles one message from the webview (anything: invalid messages are logged and dropped). */
  async handle(msg: unknown): Promise<void> {
    const why = explainWebviewMessage(msg);
    if (why) {
      this.src.log?.('warn', `webview message ignored: ${why}`);
      const m = msg as { type?: unknown; id?: unknown };
      if (m && typeof m === 'object' && m.type === 'request' && Number.isSafeInteger(m.id))
        this.post({ type: 'response', id: m.id as number, ok: false, error: why });
      return;
    }
    const m = msg as import('../protocol/webview').WebviewToHost;
    if (m.type === 'notify') {
      switch (m.method) {
        case 'reveal':
          this.src.reveal?.(m.params.loc, m.params.preserveFocus);
          break;
        case 'log':
          this.src.log?.(m.params.level, m.params.message);
          break;
        case 'stepSelected':
          this.lastSelected = m.params.step;
          this.src.stepSelected?.(m.params.step);
          break;
        case 'viewDump': {
          const w = this.dumpWaiters.get(m.params.token);
          if (w) {
            this.dumpWaiters.delete(m.params.token);
            w(m.params);
          }
          break;
        }
      }
      return;
    }
    try {
      const h = this.handlers[m.method] as (p: unknown) => unknown;
      const result = await h(m.params);
      this.post({ type: 'response', id: m.id, ok: true, result });
    } catch (e) {
      this.post({ type: 'response', id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  }

  notify<M extends HostNotifyMethod>(method: M, params: HostNotifyParams<M>): void {
    this.post({ type: 'notify', method, params } as HostToWebview);
  }

  /** The run or the memory changed: the webview drops its caches and asks again. */
  refresh(): void {
    this.notify('refresh', {
      steps: this.steps().length,
      step: this.current(),
      spaces: this.src.spaces(),
      title: this.src.title,
      regions: this.src.regions?.() ?? [],
      buffers: this.src.buffers?.() ?? [],
    });
  }

  setStep(step: number): void {
    this.notify('setStep', { step });
  }

  highlight(space: string, offset: number, length: number, label?: string): void {
    this.notify('highlight', { space, offset, length, label });
  }

  /** The step the user last picked in the view (undefined until they do). */
  get selectedStep(): number | undefined {
    return this.lastSelected;
  }

  /** Asks the view what it renders now (visible rows' text); rejects after `timeoutMs`. */
  dumpView(timeoutMs = 5000): Promise<ViewDump> {
    const token = ++this.dumpToken;
    return new Promise<ViewDump>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.dumpWaiters.delete(token);
        reject(new Error(`the memory inspector view did not answer dumpView in ${timeoutMs} ms`));
      }, timeoutMs);
      this.dumpWaiters.set(token, (d) => {
        clearTimeout(timer);
        resolve(d);
      });
      this.notify('dumpView', { token });
    });
  }

  /** The last picture asked for: a page that starts later (a panel still loading) opens on it. */
  private lastView: TensorView | undefined;

  /** Opens the Views pane on a region (a term, a debugger variable, a configured view). */
  showView(v: TensorView): void {
    this.lastView = v;
    this.notify('showView', v);
  }

  /** Closes the Views pane; a page that starts later opens none. */
  closeView(): void {
    this.lastView = undefined;
    this.notify('closeView', {});
  }

  showLayout(p: LayoutMapProvider): void {
    this.layoutProvider = p;
    this.notify('showLayout', { layout: p.map });
  }

  // -------------------------------------------------------------------------------------------

  private steps(): readonly TraceStep[] {
    return this.src.steps?.() ?? [];
  }

  private current(): number {
    return this.src.currentStep?.() ?? this.steps().length - 1;
  }

  private space(id: string): SpaceInfo {
    const s = this.src.spaces().find((x) => x.id === id);
    if (!s) throw new Error(`no memory space ${id}`);
    return s;
  }

  private async bytes(space: string, offset: number, length: number, step: number): Promise<Uint8Array> {
    const info = this.space(space);
    const len = Math.max(0, Math.min(length, info.bytes - offset));
    if (len === 0) return new Uint8Array(0);
    return await this.src.read(space, offset, len, step);
  }

  /** The overlays of a known space (the name comes from a webview: an unknown one is an error, not a lookup). */
  private overlaysOf(space: string): Overlay[] {
    this.space(space);
    return this.src.overlays?.(space) ?? [];
  }

  private get layout(): LayoutMapProvider {
    if (!this.layoutProvider) throw new Error('no layout map');
    return this.layoutProvider;
  }

  private readonly handlers: Handlers = {
    hello: (p) => ({
      protocol: PROTOCOL_VERSION,
      title: this.src.title ?? (p.view === 'layoutMap' ? 'Layout map' : 'Memory'),
      spaces: this.src.spaces(),
      steps: this.steps().length,
      step: this.current(),
      initial: this.src.initial?.(),
      layout: p.view === 'layoutMap' ? this.layoutProvider?.map : undefined,
      buffers: p.view === 'inspector' ? this.src.buffers?.() : undefined,
      regions: p.view === 'inspector' ? this.src.regions?.() : undefined,
      views: p.view === 'inspector' ? (this.lastView ? [this.lastView] : this.src.views?.()) : undefined,
    }),
    read: async (p) => ({ bytes: toArrayBuffer(await this.bytes(p.space, p.offset, p.length, p.step)) }),
    steps: (p) => {
      const all = this.steps();
      return { total: all.length, steps: all.slice(p.from, p.from + p.count) };
    },
    overlays: (p) => ({ overlays: this.overlaysOf(p.space) }),
    hover: async (p) => {
      const overlays = this.overlaysOf(p.space)
        .filter((o) => p.offset >= o.offset && p.offset < o.offset + o.length)
        .map((o) => ({ id: o.id, name: o.name, ...coordOf(o, p.offset) }));
      return { overlays, lastWrite: await this.lastWrite(p.space, p.offset, p.step) };
    },
    resolve: (p) => (this.src.resolve ? (this.src.resolve(p.text, p.space) ?? null) : this.resolveOverlay(p.text, p.space)),
    search: async (p) => {
      const info = this.space(p.space);
      const offset = await findInSource((o, l) => this.bytes(p.space, o, l, p.step), info.bytes, bytesOf(p.pattern), p.from, {
        backward: p.backward,
        align: p.align,
        mask: p.mask ? bytesOf(p.mask) : undefined,
        wrap: p.wrap,
      });
      return { offset };
    },
    export: async (p) => {
      const info = this.space(p.space);
      if (p.length > MAX_EXPORT_BYTES) throw new Error(`export of ${p.length} bytes is larger than ${MAX_EXPORT_BYTES}`);
      const data = await this.bytes(p.space, p.offset, p.length, p.step);
      const unit = info.unitBytes;
      const address = (info.base ?? 0) + p.offset / unit;
      const file = exportBytes(data, p.format, { type: p.type, bigEndian: p.bigEndian, address, width: p.width, unitBytes: unit, shape: p.shape });
      if (!this.src.save) return { saved: false };
      const path = await this.src.save(exportName(p.space, address, data.length, p.format, p.type), file, p.format);
      return { saved: !!path, path: path ?? undefined, bytes: file.length };
    },
    savePng: async (p) => {
      if (!this.src.save) return { saved: false };
      const path = await this.src.save(p.name.endsWith('.png') ? p.name : `${p.name}.png`, bytesOf(p.png), 'png');
      return { saved: !!path, path: path ?? undefined };
    },
    reference: async (p) => {
      const r = await this.src.pickReference?.(p.label);
      return r ? { name: r.name, bytes: toArrayBuffer(r.bytes) } : null;
    },
    layoutQuery: (p) => this.layout.query(p.x, p.y, p.innerRow, p.innerCol),
    layoutLocate: (p) => this.layout.locate({ coord: p.coord, address: p.address, unit: p.unit }),
    layoutDetail: (p) => {
      if (!this.layout.detail) throw new Error('this layout map has no element detail');
      const d = this.layout.detail(p.x, p.y, p.w, p.h);
      return { keys: toArrayBuffer(d.keys), kinds: toArrayBuffer(d.kinds) };
    },
  };

  /**
   * The statement that last wrote the byte at or before `step`: the last step with a dense written range
   * covering it or that changed its value; else the last whose (sparse) written range covers it (`exact: false`).
   */
  private async lastWrite(space: string, offset: number, step: number) {
    const steps = this.steps();
    const info = this.space(space);
    const unit = info.unitBytes;
    const page = Math.floor(offset / 4096);
    const elem = Math.floor(offset / unit);
    let covering: TraceStep | undefined;
    for (let s = Math.min(step, steps.length - 1); s >= 0; s--) {
      const st = steps[s];
      const w = st.written;
      const covers = !!w && w.space === space && elem >= w.lo && elem <= w.hi;
      // a dense write (every element of its range) certainly wrote the byte, even with the same value
      if (covers && w!.count >= w!.hi - w!.lo + 1)
        return {
          step: st.step,
          text: st.text,
          loc: { file: st.file, line: Math.max(1, st.line), column: Math.max(1, st.column), endLine: Math.max(1, st.line, st.endLine) },
          exact: true,
        };
      if (covers && !covering) covering = st;
      const pages = Object.hasOwn(st.changed, space) ? st.changed[space] : undefined;
      if (!pages || !pages.includes(page)) continue;
      const [after, before] = await Promise.all([this.bytes(space, offset, 1, s), this.bytes(space, offset, 1, s - 1)]);
      if (after[0] !== before[0])
        return {
          step: st.step,
          text: st.text,
          loc: { file: st.file, line: Math.max(1, st.line), column: Math.max(1, st.column), endLine: Math.max(1, st.line, st.endLine) },
          exact: true,
        };
    }
    if (covering)
      return {
        step: covering.step,
        text: covering.text,
        loc: {
          file: covering.file,
          line: Math.max(1, covering.line),
          column: Math.max(1, covering.column),
          endLine: Math.max(1, covering.line, covering.endLine),
        },
        exact: false,
      };
    return undefined;
  }

  private resolveOverlay(text: string, space?: string): Resolved | null {
    const m = /^\s*(\$?[\w.:[\]]+)\s*(?:\+\s*(0x[0-9a-f]+|\d+))?\s*$/i.exec(text);
    if (!m) return null;
    const name = m[1];
    const plus = m[2] ? Number(m[2]) : 0;
    const spaces = this.src.spaces();
    const order = space && spaces.some((s) => s.id === space) ? [space, ...spaces.map((s) => s.id).filter((s) => s !== space)] : spaces.map((s) => s.id);
    for (const id of order) {
      const o = this.overlaysOf(id).find((x) => x.name === name || x.id === name || (!name.startsWith('$') && x.name === `$${name}`));
      if (o) {
        const unit = spaces.find((s) => s.id === id)?.unitBytes ?? 1;
        return { space: o.space, offset: o.offset + plus * unit, length: plus ? unit : o.length, label: o.name };
      }
    }
    return null;
  }
}

/** Coordinate of the element of a tensor overlay holding byte `offset` (none for gaps of a strided tensor). */
export function coordOf(o: Overlay, offset: number): { coord?: number[]; byteInElement?: number } {
  if (!o.shape) return {};
  const el = o.elemBytes ?? (o.type ? ELEM_BYTES[o.type] : 1);
  const rel = offset - o.offset;
  if (rel < 0) return {};
  const index = Math.floor(rel / el);
  const byteInElement = rel % el;
  const shape = o.shape;
  if (!o.strides) {
    const total = shape.reduce((a, b) => a * b, 1);
    if (index >= total) return {};
    const coord = new Array<number>(shape.length);
    let r = index;
    for (let d = shape.length - 1; d >= 0; d--) {
      coord[d] = r % shape[d];
      r = Math.floor(r / shape[d]);
    }
    return { coord, byteInElement };
  }
  // strided: peel dimensions by decreasing stride
  const dims = shape.map((_, d) => d).sort((a, b) => Math.abs(o.strides![b]) - Math.abs(o.strides![a]));
  const coord = new Array<number>(shape.length).fill(0);
  let rem = index;
  for (const d of dims) {
    const st = o.strides[d];
    if (st <= 0) continue;
    const c = Math.min(shape[d] - 1, Math.floor(rem / st));
    coord[d] = c;
    rem -= c * st;
  }
  return rem === 0 ? { coord, byteInElement } : {};
}
