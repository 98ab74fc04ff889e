/**
 * Browser harness: plays the extension side of the webview protocol. Loaded (with the page's nonce)
 * before the view's bundle, it defines `acquireVsCodeApi`, runs the real `WebviewHost` over the known
 * memory image of scenario.ts, and records everything for the tests in `window.harness`.
 *
 * URL parameters: `mem=<bytes>` (MEM size, default 64 MiB), `layout=<case>` (layout map case),
 * `latency=<ms>` (delay of each answer), `state=fresh` (ignore saved state).
 */
import { WebviewHost, type LayoutMapProvider } from '../../core/inspect/host';
import { createSource } from '../../core/inspect/simSource';
import { layoutMapFromModel } from '../../core/inspect/layoutMap';
import { resolveName, traceOverlays } from '../../core/inspect/traceOverlays';
import { bytesOf, type HostToWebview, type Overlay, type Region, type SourceLoc, type TensorView } from '../../core/protocol/webview';
import { encodeNpy, type NpyDtype } from '../../core/common/npy';
import { encode as encodePng } from 'fast-png';
import { buildScenario, layoutModel, LAYOUT_CASES, MEM_BYTES, type LayoutCase } from './scenario';

const params = new URLSearchParams(location.search);
const t0 = performance.now();
const scenario = buildScenario(Number(params.get('mem') ?? MEM_BYTES));
const buildMs = performance.now() - t0;
const latency = Number(params.get('latency') ?? 0);
/** `json=1`: messages cross as VS Code sends them, JSON with ArrayBuffers passed aside (NaN → null, undefined dropped). */
const jsonChannel = params.get('json') === '1';

function viaJson<T>(m: T): T {
  const buffers: ArrayBuffer[] = [];
  const text = JSON.stringify(m, (_k, v) => {
    if (v instanceof ArrayBuffer) {
      buffers.push(v.slice(0));
      return { $buffer: buffers.length - 1 };
    }
    if (ArrayBuffer.isView(v)) {
      buffers.push(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer);
      return { $buffer: buffers.length - 1 };
    }
    return v;
  });
  return JSON.parse(text, (_k, v) => (v && typeof v === 'object' && typeof v.$buffer === 'number' ? buffers[v.$buffer] : v));
}

interface Saved {
  name: string;
  kind: string;
  bytes: Uint8Array;
}

const harness = {
  /** Messages the webview posted (as sent). */
  sent: [] as unknown[],
  /** Messages the host posted to the webview. */
  received: [] as HostToWebview[],
  log: [] as string[],
  saved: [] as Saved[],
  revealed: [] as SourceLoc[],
  stepsSelected: [] as number[],
  state: undefined as unknown,
  buildMs,
  layoutMs: 0,
  failReads: '',
  host: undefined as unknown as WebviewHost,
  scenario,
  /** The file the next "Diff…" gets (undefined: the user cancels). */
  reference: undefined as { name: string; bytes: Uint8Array } | undefined,
  /** Sets that file: a `.npy` of `values`, a PNG of `shape` [h, w, channels] 8-bit pixels, or raw bytes for another name. */
  setReference(name: string, values: number[], dtype: NpyDtype = 'u1', shape?: number[]) {
    const data = Uint8Array.from(values);
    harness.reference = {
      name,
      bytes: name.endsWith('.npy')
        ? encodeNpy({ dtype, shape: shape ?? [values.length], data: values })
        : name.endsWith('.png')
          ? encodePng({ width: shape![1], height: shape![0], channels: shape![2], depth: 8, data })
          : data,
    };
  },
  /** Opens the Views pane on a region as the extension does (a term, a debugger variable). */
  showView(v: TensorView) {
    harness.host.showView(v);
  },
  /** Posts a raw message to the webview as the extension would (tests use it for malformed messages). */
  post(msg: unknown) {
    window.postMessage(msg, '*');
  },
  bytesOfSaved(i: number): number[] {
    return [...this.saved[i].bytes];
  },
  layoutCase(name: LayoutCase, opts?: { maxCells?: number }): LayoutMapProvider {
    const t = performance.now();
    const p = layoutMapFromModel(layoutModel(name), { id: name, ...opts });
    harness.layoutMs = performance.now() - t;
    return p;
  },
};
(window as any).harness = harness;

const stateKey = `tl-state:${document.body?.dataset.view ?? location.pathname}`;
if (params.get('state') === 'fresh') sessionStorage.removeItem(stateKey);

const layoutName = params.get('layout') as LayoutCase | null;
let layout: LayoutMapProvider | undefined;
if (layoutName) {
  if (!(LAYOUT_CASES as readonly string[]).includes(layoutName)) throw new Error(`unknown layout case ${layoutName}`);
  layout = harness.layoutCase(layoutName);
}

/** `overlays=trace`: the overlays the extension builds from a run (trace terms and C globals), as in VS Code. */
const fromTrace = params.get('overlays') === 'trace';
const traceOv = fromTrace
  ? traceOverlays(scenario.trace, [{ name: 'table', address: 0x5000, size: 32, type: 'int16_t [4][4]', file: 'examples/demo.tprog', line: 2 }])
  : [];
/** `overlays=many` (bench): 4096 overlapping strided tensors of 16 MiB each over MEM (32 bytes of every 64, like PCORE blocks), ~1000 on every row. */
const manyOv: Overlay[] =
  params.get('overlays') === 'many'
    ? Array.from({ length: 4096 }, (_, k) => {
        const length = Math.max(64, Math.min(16 << 20, scenario.machine.mem.length - k * 16384)) & ~63;
        return {
          id: `m${k}`,
          name: `T${k}`,
          space: 'MEM',
          offset: k * 16384,
          length,
          kind: 'tensor' as const,
          type: 'u8' as const,
          shape: [length / 64, 32],
          strides: [64, 1],
          color: k % 8,
        };
      }).filter((o) => o.offset < scenario.machine.mem.length)
    : [];
const source = createSource({
  title: 'demo.tprog — memory',
  spaces: scenario.spaces,
  trace: scenario.trace,
  overlays: fromTrace ? traceOv : manyOv.length ? manyOv : scenario.overlays,
  resolve: fromTrace ? (text, space) => resolveName(traceOv, text, space) : undefined,
  initial: () => ({ space: 'MEM', offset: 0 }),
  save: (name, bytes, kind) => {
    harness.saved.push({ name, kind, bytes: bytes.slice() });
    return `/tmp/${name}`;
  },
  reveal: (loc) => {
    harness.revealed.push(loc);
  },
  log: (level, message) => {
    harness.log.push(`${level}: ${message}`);
  },
  stepSelected: (s) => {
    harness.stepsSelected.push(s);
  },
  layout: () => layout,
});

/** `regions=1`: the run lists a dump, a named buffer and a pointer argument (section 4's jump list; the first is where a fresh view starts). */
const REGIONS: Region[] = [
  { kind: 'dump', name: 'out', space: 'MEM', offset: 0x2000, bytes: 64, dtype: 'f32', shape: [4, 4] },
  { kind: 'buffer', name: 'input', space: 'MEM', offset: 0x8000, bytes: 3 * 16 * 8, dtype: 'u8', shape: [3, 8, 16] },
  { kind: 'argument', name: 'arg 1 (table)', space: 'MEM', offset: 0x5000, bytes: 32 },
];
if (params.get('regions') === '1') {
  source.regions = () => REGIONS;
  // no starting place of the host's own: the view starts at the first listed region
  source.initial = undefined;
}
/** `view=<json>`: the run configuration lists this view, or these views (a JSON array; the pane opens on them). */
const viewParam = params.get('view');
if (viewParam) {
  const v = JSON.parse(viewParam) as TensorView | TensorView[];
  source.views = () => (Array.isArray(v) ? v : [v]);
}
source.pickReference = () => harness.reference;

const deliver = (m: HostToWebview) => {
  harness.received.push(m);
  // structured clone (ArrayBuffers are copied, not shared), or VS Code's JSON channel
  const send = () => window.postMessage(jsonChannel ? viaJson(m) : m, '*');
  if (latency > 0) setTimeout(send, latency);
  else send();
};
// `harness.failReads = 'why'` makes every read fail with that message (an evicted run)
const readOk = source.read;
source.read = (space, offset, length, step) => {
  if (harness.failReads) throw new Error(harness.failReads);
  return readOk(space, offset, length, step);
};
/**
 * `restore=1`: the page starts as a panel VS Code restores after a reload (the serializer): a host with
 * no memory; `harness.attachRun()` then plays the next run taking the panel over (new host + refresh).
 */
const restoring = params.get('restore') === '1';
let host = restoring
  ? new WebviewHost({ title: 'Memory: demo.tprog — run the program again to see its memory', spaces: () => [], read: () => new Uint8Array(0) }, deliver)
  : new WebviewHost(source, deliver);
harness.host = host;
(harness as any).attachRun = () => {
  host = new WebviewHost(source, deliver);
  harness.host = host;
  host.refresh();
};

(window as any).acquireVsCodeApi = () => ({
  postMessage(msg: unknown) {
    harness.sent.push(msg);
    let copy: unknown;
    try {
      copy = jsonChannel ? viaJson(msg) : structuredClone(msg);
    } catch (e) {
      harness.log.push(`error: webview posted an uncloneable message: ${e}`);
      return;
    }
    queueMicrotask(() => void host.handle(copy));
  },
  getState() {
    const s = sessionStorage.getItem(stateKey);
    return s ? JSON.parse(s) : undefined;
  },
  setState(s: unknown) {
    harness.state = s;
    sessionStorage.setItem(stateKey, JSON.stringify(s));
  },
});

export { bytesOf };
