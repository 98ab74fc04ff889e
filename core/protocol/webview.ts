/**
 * The one message protocol between the extension and the Tensor Lens webviews (memory inspector and
 * layout map). Both sides import this file; every message that crosses the boundary is checked with
 * the validators here before it is used.
 *
 * Envelopes
 * - request      webview → extension  `{ type: 'request', id, method, params }`
 * - response     extension → webview  `{ type: 'response', id, ok: true, result }` or `{ …, ok: false, error }`
 * - notification either direction     `{ type: 'notify', method, params }`
 *
 * The extension only answers; it never sends requests. Binary payloads (memory pages, patterns,
 * exported files, PNGs, per-element colour keys) are ArrayBuffers, never JSON arrays; a receiver also
 * accepts a typed-array view for them (`bytesOf`).
 *
 * Addresses: a memory space is a flat run of bytes. `offset`/`length` are always BYTES from the start
 * of the space. A space whose element is wider than a byte (PCORE and SPU words: 2 bytes, little-endian
 * `int16` holding a 12-bit value) says so with `unitBytes`; the UI shows addresses as
 * `base + offset / unitBytes`, and the trace's `Touched.lo/hi` are in those units (elements).
 *
 * Steps: `step` is the index of the last executed tensor statement whose effect is visible
 * (the contents AFTER step `step`); −1 is the state before the first statement. Spaces without history
 * ignore it.
 *
 * Types are inferred from small schema values (`S.*`, schema.ts), so the validators and the TypeScript
 * types can never disagree. Trace steps are core/protocol/trace.ts's.
 */
import { S, int, isBinaryTag, step, type Binary, type Infer, type Schema } from './schema';
import { TraceStepS, type Touched } from './trace';

export const PROTOCOL_VERSION = 1;

/** Largest `read` the webview asks for, and the page size of its cache. */
export const MAX_READ_BYTES = 1 << 20;
export const PAGE_BYTES = 4096;

/** The bytes of a binary payload, whatever view it arrived in (no copy). */
export function bytesOf(b: Binary | ArrayBufferView): Uint8Array {
  return ArrayBuffer.isView(b) ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : new Uint8Array(b);
}

/** A standalone ArrayBuffer holding exactly `u`'s bytes (copies only when `u` is a window of a larger buffer). */
export function toArrayBuffer(u: ArrayBufferView): ArrayBuffer {
  const whole = u.byteOffset === 0 && u.byteLength === u.buffer.byteLength;
  if (whole && Object.prototype.toString.call(u.buffer) === '[object ArrayBuffer]') return u.buffer as ArrayBuffer;
  return new Uint8Array(u.buffer, u.byteOffset, u.byteLength).slice().buffer;
}

// ---------------------------------------------------------------------------------------------
// Shared value types

/** Element types the inspector decodes. `w12`: a 12-bit signed PCORE word stored in 2 bytes. */
export const ELEM_TYPES = ['u8', 'i8', 'u16', 'i16', 'w12', 'f16', 'bf16', 'u32', 'i32', 'f32'] as const;
export type ElemType = (typeof ELEM_TYPES)[number];
export const ElemTypeS = S.lit(...ELEM_TYPES);

export const SourceLocS = S.obj({ file: S.str(4096), line: int(1), column: S.opt(int(1)), endLine: S.opt(int(1)) });
export type SourceLoc = Infer<typeof SourceLocS>;

/** One level of a space's sub-division the UI offers as a selector (PCORE core, thread). */
export const PartitionS = S.obj({
  name: S.str(64),
  count: int(1, 1 << 16),
  /** Bytes from one index to the next; selecting index i shows bytes [i·stride, (i+1)·stride) of the enclosing selection. */
  strideBytes: int(1),
});
export type Partition = Infer<typeof PartitionS>;

export const SpaceInfoS = S.obj({
  /** Stable id; equals the trace's `Touched.space` name for simulator spaces (MEM, SCRATCH, PCORE0, PCORE0S, PCORE1, PCORE1S, SPU). */
  id: S.str(256),
  label: S.str(256),
  /** Heading the UI groups spaces under (“Memories”, “PCORE process 0”, “sparse.csfbin”). */
  group: S.opt(S.str(256)),
  /** Size in bytes. */
  bytes: int(0),
  /** Bytes per address unit (1 for byte-addressed memories, 2 for PCORE/SPU words). */
  unitBytes: S.lit(1, 2, 4, 8),
  /** Address of byte 0, in units. */
  base: S.opt(int(0)),
  /** Type the typed column starts with (`w12` for PCORE). */
  defaultType: S.opt(ElemTypeS),
  bigEndian: S.opt(S.bool()),
  partitions: S.opt(S.arr(PartitionS, 8)),
  /** True when reads at different steps can differ (the space has history). */
  history: S.opt(S.bool()),
  description: S.opt(S.str(4096)),
});
export type SpaceInfo = Infer<typeof SpaceInfoS>;

/** A named byte range to colour and label (a tensor, a `$` variable, a C global, a buffer). */
export const OverlayS = S.obj({
  id: S.str(256),
  name: S.str(256),
  space: S.str(256),
  offset: int(0),
  length: int(0),
  kind: S.lit('tensor', 'variable', 'global', 'buffer', 'other'),
  /** Element type and shape, when the range is a tensor: the UI then shows a coordinate. */
  type: S.opt(ElemTypeS),
  elemBytes: S.opt(int(1, 64)),
  shape: S.opt(S.arr(int(0), 16)),
  /** Strides in elements (row-major contiguous when absent). */
  strides: S.opt(S.arr(S.num({ int: true }), 16)),
  /** Colour slot (0..7); the UI picks one when absent. */
  color: S.opt(int(0, 7)),
  detail: S.opt(S.str(4096)),
  decl: S.opt(SourceLocS),
});
export type Overlay = Infer<typeof OverlayS>;

export const LastWriteS = S.obj({
  step: int(0),
  text: S.str(1 << 16),
  loc: SourceLocS,
  /** False when the step's written range covers the byte but its value did not change. */
  exact: S.bool(),
});

// ---------------------------------------------------------------------------------------------
// Layout map description (model-agnostic)

/** What a cell or region of a layout picture holds. Values of `LayoutMap.raster.kinds`. */
export const REGION_KINDS = ['none', 'data', 'partial', 'padding', 'unused', 'metadata', 'replica', 'gap', 'mixed', 'frame'] as const;
export type RegionKind = (typeof REGION_KINDS)[number];
export const RegionKindS = S.lit(...REGION_KINDS);
export const regionKindCode = (k: RegionKind): number => REGION_KINDS.indexOf(k);

/**
 * A rectangle of the picture grid: a run of slots of one kind, a unit's panel, a shard, a fiber.
 * `frame` regions are outlined and labelled; the others are filled (from `raster` when present, else by
 * `colorKey`). `padding` regions are hatched.
 */
export const LayoutRegionS = S.obj({
  kind: RegionKindS,
  x: int(0),
  y: int(0),
  w: int(1),
  h: int(1),
  label: S.opt(S.str(1024)),
  /** 0..1 position of the region's first element in logical (row-major) order; absent/null = none (JSON turns NaN into null). */
  colorKey: S.opt(S.nullable(S.anyNum())),
  padding: S.opt(S.bool()),
  /** Byte addresses [lo, hi) inside `unit` (TT: inside the bank/core). */
  addr: S.opt(S.obj({ lo: S.num({ min: 0 }), hi: S.num({ min: 0 }) })),
  unit: S.opt(int(0)),
});
export type LayoutRegion = Infer<typeof LayoutRegionS>;

/** A memory unit's block of the grid (a bank, a core, a memory). Cells are filled row by row, `w` per row. */
export const LayoutPanelS = S.obj({
  unit: int(0),
  label: S.str(256),
  x: int(0),
  y: int(0),
  w: int(1),
  h: int(1),
  /** Slots the unit holds, and slots one grid cell stands for (aggregation, ≥ 1). */
  slots: int(0),
  slotsPerCell: int(1),
  /** Byte address of slot 0 of the unit. */
  base: S.num({ min: 0 }),
});
export type LayoutPanel = Infer<typeof LayoutPanelS>;

export const InnerGridS = S.obj({
  name: S.str(64),
  rows: int(1, 4096),
  cols: int(1, 4096),
  bytesPerElement: S.num({ min: 0 }),
  blocks: S.opt(S.arr(S.obj({ row: int(0), col: int(0), rows: int(1), cols: int(1), offset: int(0), label: S.str(256) }), 4096)),
});
export type InnerGrid = Infer<typeof InnerGridS>;

export const LayoutMapS = S.obj({
  id: S.str(256),
  title: S.str(1024),
  /** Model kind (strided, spyre, tt, cells, sparse, …) — informative only. */
  model: S.str(64),
  shape: S.arr(int(0), 16),
  dtype: S.str(64),
  /** One line for the header (bytes, padding %…). */
  summary: S.opt(S.str(4096)),
  /** Slot naming: `page`, `stick`, `cell`, `entry`, `element`; bytes per slot. */
  slotName: S.str(64),
  slotBytes: S.num({ min: 0 }),
  /** Grid size in cells. */
  cols: int(1, 1 << 16),
  rows: int(1, 1 << 16),
  panels: S.arr(LayoutPanelS, 1 << 16),
  regions: S.arr(LayoutRegionS, 1 << 20),
  /** Per-cell paint (row-major over cols × rows): Float32 colour keys (NaN = none) and Uint8 REGION_KINDS codes. */
  raster: S.opt(S.obj({ keys: S.bin(), kinds: S.bin() })),
  /** Element structure of one slot, for drawing single elements when zoomed in (only when slotsPerCell is 1). */
  inner: S.opt(InnerGridS),
  /** What the colour means (`logical row-major index of the first element`). */
  colorLegend: S.opt(S.str(256)),
  facts: S.opt(S.arr(S.obj({ name: S.str(256), value: S.str(4096) }), 64)),
});
export type LayoutMap = Infer<typeof LayoutMapS>;

export const LayoutHitS = S.obj({
  kind: S.union(RegionKindS, S.lit('element', 'alignment', 'slack', 'outside')),
  lines: S.arr(S.str(4096), 64),
  coord: S.opt(S.arr(S.num({ int: true }), 16)),
  address: S.opt(S.num({ min: 0 })),
  unit: S.opt(int(0)),
  unitLabel: S.opt(S.str(256)),
  /** Where it is drawn: grid cell and, for an element, its row/column inside the slot's inner grid. */
  x: S.opt(int(0)),
  y: S.opt(int(0)),
  innerRow: S.opt(int(0)),
  innerCol: S.opt(int(0)),
});
export type LayoutHit = Infer<typeof LayoutHitS>;

/**
 * A named buffer of a run (`buffers` of tensorlens.run.json, `--buffer NAME=…`): where the simulator placed it in MEM.
 * The run result (LSP and CLI `--json`) and the inspector's hello carry the run's buffers in this shape.
 */
export const RunBufferS = S.obj({ name: S.str(256), address: int(0), bytes: int(0) });
export type RunBuffer = Infer<typeof RunBufferS>;

// ---------------------------------------------------------------------------------------------
// Tensors as pictures (the inspector's Views pane, core/inspect/tensorView.ts)

/** How an image's u8 channels lie in memory: one plane per channel, or the channels of a pixel together. */
export const IMAGE_FORMATS = ['grey', 'rgb-planar', 'rgb-interleaved', 'bgr-planar', 'bgr-interleaved'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export const VIEW_MODES = ['image', 'heatmap'] as const;

/**
 * A region drawn as a picture: `bytes` bytes of `space` from byte `offset`, as an image (`format`, u8) or a
 * heatmap of `dtype`; its size from `shape` (image: [h, w], [c, h, w] planar, [h, w, c] interleaved; heatmap:
 * the last two dimensions, `slice` indexing the leading ones) or `width`/`height`.
 */
export const TensorViewS = S.obj({
  label: S.str(1024),
  space: S.str(256),
  offset: int(0),
  bytes: int(0),
  mode: S.lit(...VIEW_MODES),
  format: S.opt(S.lit(...IMAGE_FORMATS)),
  dtype: S.opt(ElemTypeS),
  shape: S.opt(S.arr(int(0), 16)),
  width: S.opt(int(1, 1 << 16)),
  height: S.opt(int(1, 1 << 16)),
  slice: S.opt(S.arr(int(0), 16)),
});
export type TensorView = Infer<typeof TensorViewS>;

/** What a picture of the Views pane shows (for tests and diagnostics): its label, plan, error, and the RGBA of its pixel (0, 0) once painted. */
const PictureSummaryS = S.obj({ label: S.str(1024), describe: S.str(1024), error: S.opt(S.str(4096)), pixel0: S.opt(S.arr(int(0, 255), 4)) });

/** A region the inspector lists to jump to and to view: a named buffer, a load, a dump, a pointer argument of the entry, a C global. */
export const REGION_KINDS_LISTED = ['buffer', 'load', 'dump', 'argument', 'global'] as const;
export const RegionS = S.obj({
  kind: S.lit(...REGION_KINDS_LISTED),
  name: S.str(1024),
  space: S.str(256),
  offset: int(0),
  bytes: int(0),
  dtype: S.opt(ElemTypeS),
  shape: S.opt(S.arr(int(0), 16)),
});
export type Region = Infer<typeof RegionS>;

// ---------------------------------------------------------------------------------------------
// Requests (webview → extension) with their results

export const VIEW_KINDS = ['inspector', 'layoutMap'] as const;

export const Requests = {
  /** First message of a webview. The result tells it what to show. */
  hello: {
    params: S.obj({ view: S.lit(...VIEW_KINDS), protocol: int(1) }),
    result: S.obj({
      protocol: int(1),
      title: S.str(1024),
      spaces: S.arr(SpaceInfoS, 4096),
      /** Executed steps, and the one the host is at (−1 before the first; steps − 1 after a complete run). */
      steps: int(0),
      step: step(),
      /** Where to start when the webview has no saved state. */
      initial: S.opt(S.obj({ space: S.str(256), offset: int(0), length: S.opt(int(0)) })),
      /** For the layout-map view: the map to draw. */
      layout: S.opt(LayoutMapS),
      /** The run's named buffers in MEM (inspector view), in the order the configuration gives them. */
      buffers: S.opt(S.arr(RunBufferS, 4096)),
      /** Regions to jump to (the run's buffers, loads, dumps, pointer arguments), in the order to list them; the first is where a fresh view starts. */
      regions: S.opt(S.arr(RegionS, 4096)),
      /** Pictures to open in the Views pane (the run configuration's `views`). */
      views: S.opt(S.arr(TensorViewS, 64)),
    }),
  },
  /** Bytes [offset, offset+length) of a space after `step`. The result may be shorter at the end of the space. */
  read: {
    params: S.obj({ space: S.str(256), offset: int(0), length: int(0, MAX_READ_BYTES), step: step() }),
    result: S.obj({ bytes: S.bin() }),
  },
  /** Trace records [from, from+count). */
  steps: {
    params: S.obj({ from: int(0), count: int(0, 100000) }),
    result: S.obj({ total: int(0), steps: S.arr(TraceStepS, 100000) }),
  },
  /** Named ranges of a space. */
  overlays: {
    params: S.obj({ space: S.str(256) }),
    result: S.obj({ overlays: S.arr(OverlayS, 100000) }),
  },
  /** What a byte belongs to and which statement last wrote it (at or before `step`). */
  hover: {
    params: S.obj({ space: S.str(256), offset: int(0), step: step() }),
    result: S.obj({
      overlays: S.arr(S.obj({ id: S.str(256), name: S.str(256), coord: S.opt(S.arr(S.num({ int: true }), 16)), byteInElement: S.opt(int(0)) }), 256),
      lastWrite: S.opt(LastWriteS),
    }),
  },
  /** A name typed in “go to” (`$x`, a tensor, a C global, `name+16`). Null when unknown. */
  resolve: {
    params: S.obj({ text: S.str(1024), space: S.opt(S.str(256)) }),
    result: S.nullable(S.obj({ space: S.str(256), offset: int(0), length: int(0), label: S.str(1024) })),
  },
  /** First occurrence of `pattern` at or after `from` (before, when backward). −1 when none. */
  search: {
    params: S.obj({
      space: S.str(256),
      step: step(),
      pattern: S.bin(),
      from: int(0),
      backward: S.opt(S.bool()),
      /** Only matches at offsets that are multiples of this (the element size). */
      align: S.opt(int(1, 64)),
      /** Bits that must match, byte per pattern byte (all when absent). */
      mask: S.opt(S.bin()),
      /** Wrap around the end of the space. */
      wrap: S.opt(S.bool()),
    }),
    result: S.obj({ offset: S.num({ int: true, min: -1 }) }),
  },
  /** Saves bytes [offset, offset+length) of a space as .bin/.npy/hex text (the extension asks where). */
  export: {
    params: S.obj({
      space: S.str(256),
      step: step(),
      offset: int(0),
      length: int(0),
      format: S.lit('bin', 'npy', 'hex'),
      type: ElemTypeS,
      bigEndian: S.bool(),
      /** Bytes per line for hex text. */
      width: S.opt(int(1, 256)),
      /** `.npy` shape (a picture of the Views pane); 1-D when absent or when its element count differs. */
      shape: S.opt(S.arr(int(0), 16)),
    }),
    result: S.obj({ saved: S.bool(), path: S.opt(S.str(4096)), bytes: S.opt(int(0)) }),
  },
  /** Saves a PNG the webview rendered. */
  savePng: {
    params: S.obj({ name: S.str(256), png: S.bin() }),
    result: S.obj({ saved: S.bool(), path: S.opt(S.str(4096)) }),
  },
  /** A reference file the user picks to compare a picture with (`.npy`, `.bin`); null when cancelled. */
  reference: {
    params: S.obj({ label: S.str(1024) }),
    result: S.nullable(S.obj({ name: S.str(4096), bytes: S.bin() })),
  },
  /** What is at a picture cell (and element inside it, when zoomed in). */
  layoutQuery: {
    params: S.obj({ mapId: S.str(256), x: int(0), y: int(0), innerRow: S.opt(int(0)), innerCol: S.opt(int(0)) }),
    result: LayoutHitS,
  },
  /** Where a coordinate (or an address in a unit) is drawn. Null when not in the tensor. */
  layoutLocate: {
    params: S.obj({ mapId: S.str(256), coord: S.opt(S.arr(S.num({ int: true }), 16)), address: S.opt(S.num({ min: 0 })), unit: S.opt(int(0)) }),
    result: S.nullable(LayoutHitS),
  },
  /** Per-element colour keys for cells [x, x+w) × [y, y+h): Float32 of w·h·inner.rows·inner.cols, cell-major (NaN = padding). */
  layoutDetail: {
    params: S.obj({ mapId: S.str(256), x: int(0), y: int(0), w: int(1, 4096), h: int(1, 4096) }),
    result: S.obj({ keys: S.bin(), kinds: S.bin() }),
  },
} as const;

// ---------------------------------------------------------------------------------------------
// Notifications

/** webview → extension */
export const WebviewNotifications = {
  /** Open the statement (or declaration) at `loc` in an editor. */
  reveal: S.obj({ loc: SourceLocS, preserveFocus: S.opt(S.bool()) }),
  /** For the output channel: malformed messages, errors. */
  log: S.obj({ level: S.lit('info', 'warn', 'error'), message: S.str(1 << 14) }),
  /** The step the user scrubbed to (so the extension can follow in the editor). */
  stepSelected: S.obj({ step: step() }),
  /** Answer to `dumpView`: what the grid shows now (visible rows' text), for tests and diagnostics. */
  viewDump: S.obj({
    token: int(0),
    space: S.str(256),
    step: step(),
    top: int(0),
    cursor: int(0),
    /** Complete when every visible row's bytes are loaded. */
    complete: S.bool(),
    /** `chg`: the row's bytes highlighted as changed since the compared step (indexes in the row, comma-separated). */
    rows: S.arr(S.obj({ addr: S.str(64), hex: S.str(4096), typed: S.str(4096), ascii: S.str(1024), ov: S.str(4096), chg: S.opt(S.str(4096)) }), 1024),
    status: S.str(1 << 14),
    title: S.str(1024),
    /** The Views pane's selected picture, when one is open: what it shows, its error, and the RGBA of its pixel (0, 0) once painted. */
    picture: S.opt(PictureSummaryS),
    /** Every picture of the Views pane, in order (its tiles side by side). */
    pictures: S.opt(S.arr(PictureSummaryS, 64)),
  }),
};

/** extension → webview */
export const HostNotifications = {
  /** Memory or trace changed (a new run, more steps): drop caches, ask `steps`/`overlays` again. */
  refresh: S.obj({
    steps: int(0),
    step: step(),
    spaces: S.opt(S.arr(SpaceInfoS, 4096)),
    title: S.opt(S.str(1024)),
    /** The new source's regions and buffers (as the hello gives them): a debug session's panel lists none of the run's. */
    regions: S.opt(S.arr(RegionS, 4096)),
    buffers: S.opt(S.arr(RunBufferS, 4096)),
  }),
  /** Show the state after `step` (the debugger moved). */
  setStep: S.obj({ step: step() }),
  /** Select and show a range (from the editor: a tensor, a statement's operand). `length` 0 clears. */
  highlight: S.obj({ space: S.str(256), offset: int(0), length: int(0), label: S.opt(S.str(1024)) }),
  /** Draw another layout (layout-map view). */
  showLayout: S.obj({ layout: LayoutMapS }),
  /** Asks the inspector to report what it renders (answered with the `viewDump` notification of the same token). */
  dumpView: S.obj({ token: int(0) }),
  /** Opens the Views pane on a region (a `>` term, a debugger variable, the run configuration's `views`). */
  showView: TensorViewS,
  /** Closes the picture of that label (its tile's ×), or without one the whole Views pane (the bar's ×). */
  closeView: S.obj({ label: S.opt(S.str(1024)) }),
};

// ---------------------------------------------------------------------------------------------
// Message types

export type RequestMethod = keyof typeof Requests;
export type ParamsOf<M extends RequestMethod> = Infer<(typeof Requests)[M]['params']>;
export type ResultOf<M extends RequestMethod> = Infer<(typeof Requests)[M]['result']>;
export type WebviewNotifyMethod = keyof typeof WebviewNotifications;
export type HostNotifyMethod = keyof typeof HostNotifications;
export type WebviewNotifyParams<M extends WebviewNotifyMethod> = Infer<(typeof WebviewNotifications)[M]>;
export type HostNotifyParams<M extends HostNotifyMethod> = Infer<(typeof HostNotifications)[M]>;

export type RequestMessage = { [M in RequestMethod]: { type: 'request'; id: number; method: M; params: ParamsOf<M> } }[RequestMethod];
export type WebviewNotification = { [M in WebviewNotifyMethod]: { type: 'notify'; method: M; params: WebviewNotifyParams<M> } }[WebviewNotifyMethod];
export type HostNotification = { [M in HostNotifyMethod]: { type: 'notify'; method: M; params: HostNotifyParams<M> } }[HostNotifyMethod];
export type ResponseMessage = { type: 'response'; id: number; ok: true; result: unknown } | { type: 'response'; id: number; ok: false; error: string };

/** Everything a webview may send. */
export type WebviewToHost = RequestMessage | WebviewNotification;
/** Everything the extension may send. */
export type HostToWebview = ResponseMessage | HostNotification;
export type AnyMessage = WebviewToHost | HostToWebview;

const OkResponseS = S.obj({ type: S.lit('response'), id: int(0), ok: S.lit(true), result: S.any() });
const ErrResponseS = S.obj({ type: S.lit('response'), id: int(0), ok: S.lit(false), error: S.str(1 << 16) });

function envelope(x: unknown): { type?: unknown; method?: unknown } | undefined {
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as { type?: unknown; method?: unknown }) : undefined;
}

type RequestTable = Record<string, { params: Schema<unknown>; result: Schema<unknown> }>;
type NotifyTable = Record<string, Schema<unknown>>;
const has = (o: object, k: unknown): boolean => typeof k === 'string' && Object.prototype.hasOwnProperty.call(o, k);

/** Why `x` is not a valid webview → extension message of a protocol (its requests and the webview's notifications). */
function explainToHost(x: unknown, requests: RequestTable, notifications: NotifyTable): string | undefined {
  const e = envelope(x);
  if (!e) return 'message: expected an object';
  if (e.type === 'request') {
    if (!has(requests, e.method)) return `request: unknown method ${JSON.stringify(e.method)}`;
    const m = e.method as string;
    return S.obj({ type: S.lit('request'), id: int(0), method: S.str(64), params: requests[m].params }).check(x, `request ${m}`);
  }
  if (e.type === 'notify') return explainNotification(x, e.method, notifications);
  return `message: unknown type ${JSON.stringify(e.type)}`;
}

/**
 * Why `x` is not a valid extension → webview message of a protocol. When `methodOf(id)` is given, a
 * response must answer a pending request and its `result` is checked against that request's method.
 */
function explainToWebview(x: unknown, requests: RequestTable, notifications: NotifyTable, methodOf?: (id: number) => string | undefined): string | undefined {
  const e = envelope(x);
  if (!e) return 'message: expected an object';
  if (e.type === 'response') {
    const err = ((x as { ok?: unknown }).ok === true ? OkResponseS : ErrResponseS).check(x, 'response');
    if (err) return err;
    const r = x as ResponseMessage;
    if (!methodOf) return undefined;
    const m = methodOf(r.id);
    if (!m) return `response: no pending request ${r.id}`;
    return r.ok ? requests[m].result.check(r.result, `response ${m}.result`) : undefined;
  }
  if (e.type === 'notify') return explainNotification(x, e.method, notifications);
  return `message: unknown type ${JSON.stringify(e.type)}`;
}

function explainNotification(x: unknown, method: unknown, notifications: NotifyTable): string | undefined {
  if (!has(notifications, method)) return `notification: unknown method ${JSON.stringify(method)}`;
  const m = method as string;
  return S.obj({ type: S.lit('notify'), method: S.str(64), params: notifications[m] }).check(x, `notify ${m}`);
}

/** Why `x` is not a valid webview → extension message; undefined when it is. */
export function explainWebviewMessage(x: unknown): string | undefined {
  return explainToHost(x, Requests, WebviewNotifications);
}

/**
 * Why `x` is not a valid extension → webview message; undefined when it is. A response's `result` is
 * checked against the method of the request it answers when `methodOf(id)` is given.
 */
export function explainHostMessage(x: unknown, methodOf?: (id: number) => RequestMethod | undefined): string | undefined {
  return explainToWebview(x, Requests, HostNotifications, methodOf);
}

export const isWebviewToHost = (x: unknown): x is WebviewToHost => explainWebviewMessage(x) === undefined;
export const isHostToWebview = (x: unknown): x is HostToWebview => explainHostMessage(x) === undefined;

/**
 * Validates an incoming message. `from: 'webview'` (the extension checking what a webview sent) or
 * `from: 'host'` (a webview checking what the extension sent).
 */
export function validateMessage(x: unknown, from: 'webview'): x is WebviewToHost;
export function validateMessage(x: unknown, from: 'host'): x is HostToWebview;
export function validateMessage(x: unknown, from: 'webview' | 'host'): boolean {
  return from === 'webview' ? isWebviewToHost(x) : isHostToWebview(x);
}

/** Validates the result of a request of `method` (the webview does this for each response). */
export function explainResult<M extends RequestMethod>(method: M, result: unknown): string | undefined {
  return Requests[method].result.check(result, `${method}.result`);
}

/** ArrayBuffers inside a message (for `postMessage(msg, transfer)` where the channel supports it). */
export function transferablesOf(msg: unknown, out: ArrayBuffer[] = [], depth = 0): ArrayBuffer[] {
  if (depth > 8 || typeof msg !== 'object' || msg === null) return out;
  if (isBinaryTag(msg)) {
    if (!out.includes(msg as ArrayBuffer)) out.push(msg as ArrayBuffer);
    return out;
  }
  if (ArrayBuffer.isView(msg)) return out;
  for (const v of Array.isArray(msg) ? msg : Object.values(msg)) transferablesOf(v, out, depth + 1);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Small helpers both sides use

/** Byte range [lo, hi) that a trace step's `Touched` covers in a space of `unitBytes`. */
export function touchedBytes(t: Touched, unitBytes: number): { lo: number; hi: number } {
  return { lo: t.lo * unitBytes, hi: (t.hi + 1) * unitBytes };
}

/** The byte window the partition indexes select (`undefined` entries = “all”, which stops the descent). */
export function partitionWindow(space: SpaceInfo, index: (number | undefined)[]): { offset: number; length: number } {
  let offset = 0;
  let length = space.bytes;
  for (let i = 0; i < (space.partitions?.length ?? 0); i++) {
    const p = space.partitions![i];
    const k = index[i];
    if (k === undefined || k < 0 || k >= p.count) break;
    offset += k * p.strideBytes;
    length = Math.min(p.strideBytes, space.bytes - offset);
  }
  return { offset, length: Math.max(0, length) };
}

// =============================================================================================
// .csfbin viewer (custom editor `tensorLens.csfbin`): its own requests and notifications, in the same
// envelopes as above. The extension holds the file (read lazily); the webview asks for pages of the
// fiber table (`csf.rows`) and of the bytes (`csf.hex`) and never holds the whole file.

/** Rows per `csf.rows` request and bytes per `csf.hex` request, at most. */
export const CSF_MAX_ROWS = 4096;
export const CSF_MAX_HEX = 1 << 16;
/** Largest side of a heatmap slice's picture, in cells (core/csf/slice.ts): 2048 × 2048 is 16 MiB of values and 16 MiB of entry numbers. */
export const CSF_SLICE_MAX_SIDE = 2048;

export const CsfHeaderS = S.obj({ order: int(1), shape: S.arr(int(0), 64), nnz: int(0), fibers: int(0), density: S.num({ min: 0 }) });
export type CsfHeaderInfo = Infer<typeof CsfHeaderS>;

/** A validation problem (a `CsfIssue`): stable code, rule V1–V15, byte offset and length in the file. */
export const CsfProblemS = S.obj({
  code: S.str(64),
  rule: S.opt(S.str(16)),
  severity: S.lit('error', 'warning'),
  offset: S.opt(int(0)),
  length: S.opt(int(0)),
  message: S.str(4096),
});
export type CsfProblem = Infer<typeof CsfProblemS>;

/** Progress and result of the background validation (V1–V15 over the whole file). */
export const CsfValidationS = S.obj({
  state: S.lit('running', 'done', 'failed'),
  checked: int(0),
  total: int(0),
  ok: S.opt(S.bool()),
  problems: S.arr(CsfProblemS, 1000),
  /** Why it failed (a read error), when `state` is `failed`. */
  error: S.opt(S.str(4096)),
});
export type CsfValidationInfo = Infer<typeof CsfValidationS>;

/** One row of the fiber table: a fiber's heading or one of its entries (f32 value as raw bits). */
export const CsfRowS = S.union(
  S.obj({ kind: S.lit('fiber'), row: int(0), fiber: int(0), coord: S.arr(int(0), 64), start: int(0), end: int(0) }),
  S.obj({ kind: S.lit('entry'), row: int(0), entry: int(0), fiber: int(0), index: int(0, 0xffffffff), bits: int(0, 0xffffffff), offset: int(0) }),
);
export type CsfRow = Infer<typeof CsfRowS>;

export const CsfRequests = {
  /** First message of the viewer. */
  'csf.hello': {
    params: S.obj({ protocol: int(1) }),
    result: S.obj({
      protocol: int(1),
      title: S.str(1024),
      /** File size in bytes. */
      size: int(0),
      header: S.nullable(CsfHeaderS),
      entriesOffset: int(0),
      pointersOffset: int(0),
      /** Rows of the fiber table (fibers + entries); 0 when the structure allows none. */
      rows: int(0),
      /** Why there is no fiber table. */
      indexProblem: S.opt(CsfProblemS),
      validation: CsfValidationS,
      /** Whether "Show in accelerator memory" is available. */
      canShowInMemory: S.bool(),
    }),
  },
  /** Rows [start, start+count) of the fiber table (fewer at its end). */
  'csf.rows': {
    params: S.obj({ start: int(0), count: int(0, CSF_MAX_ROWS) }),
    result: S.obj({ start: int(0), rows: S.arr(CsfRowS, CSF_MAX_ROWS) }),
  },
  /** Bytes [offset, offset+length) of the file (shorter at its end). */
  'csf.hex': {
    params: S.obj({ offset: int(0), length: int(0, CSF_MAX_HEX) }),
    result: S.obj({ offset: int(0), bytes: S.bin() }),
  },
  /** The table row of a fiber, an entry or a byte offset (null when none shows it). */
  'csf.locate': {
    params: S.obj({ fiber: S.opt(int(0)), entry: S.opt(int(0)), offset: S.opt(int(0)) }),
    result: S.obj({ row: S.nullable(int(0)) }),
  },
  /**
   * The heatmap's slice (core/csf/slice.ts): the last two modes at leading indices `lead` (none for order ≤ 2),
   * downsampled to at most `maxSide` cells a side. `values` are f32 and `entries` u32 (0xffffffff: implicit zero),
   * row-major, `rows × cols` each; `notes` say what is not drawn.
   */
  'csf.slice': {
    params: S.obj({ lead: S.arr(int(0, 0xffffffff), 64), maxSide: S.opt(int(1, CSF_SLICE_MAX_SIDE)) }),
    result: S.obj({
      lead: S.arr(int(0), 64),
      rows: int(1, CSF_SLICE_MAX_SIDE),
      cols: int(1, CSF_SLICE_MAX_SIDE),
      sliceRows: int(1),
      sliceCols: int(1),
      blockRows: int(1),
      blockCols: int(1),
      values: S.bin(),
      entries: S.bin(),
      stored: int(0),
      notes: S.arr(S.str(1024), 8),
    }),
  },
  /** Loads the file into the accelerator's two banks and opens the memory inspector on them. */
  'csf.showInMemory': {
    params: S.obj({}),
    result: S.obj({ ok: S.bool(), message: S.str(4096) }),
  },
} as const;

/** webview → extension */
export const CsfWebviewNotifications = {
  'csf.log': S.obj({ level: S.lit('info', 'warn', 'error'), message: S.str(1 << 14) }),
};

/** extension → webview */
export const CsfHostNotifications = {
  /** Validation progressed or finished. */
  'csf.validation': CsfValidationS,
};

export type CsfRequestMethod = keyof typeof CsfRequests;
export type CsfParamsOf<M extends CsfRequestMethod> = Infer<(typeof CsfRequests)[M]['params']>;
export type CsfResultOf<M extends CsfRequestMethod> = Infer<(typeof CsfRequests)[M]['result']>;
export type CsfRequestMessage = { [M in CsfRequestMethod]: { type: 'request'; id: number; method: M; params: CsfParamsOf<M> } }[CsfRequestMethod];
export type CsfWebviewNotification = { type: 'notify'; method: 'csf.log'; params: Infer<(typeof CsfWebviewNotifications)['csf.log']> };
export type CsfHostNotification = { type: 'notify'; method: 'csf.validation'; params: CsfValidationInfo };
export type CsfWebviewToHost = CsfRequestMessage | CsfWebviewNotification;
export type CsfHostToWebview = ResponseMessage | CsfHostNotification;

/** Why `x` is not a valid viewer → extension message; undefined when it is. */
export function explainCsfWebviewMessage(x: unknown): string | undefined {
  return explainToHost(x, CsfRequests, CsfWebviewNotifications);
}

/** Why `x` is not a valid extension → viewer message; a response's result is checked against `methodOf(id)`. */
export function explainCsfHostMessage(x: unknown, methodOf?: (id: number) => CsfRequestMethod | undefined): string | undefined {
  return explainToWebview(x, CsfRequests, CsfHostNotifications, methodOf);
}
