/**
 * Inspector data sources over the simulator (core/sim): its memories, their step histories and the
 * trace, plus any other named byte images (a `.csfbin`'s main/metadata banks). The extension builds one
 * of these after a run and hands it to `WebviewHost`.
 */
import type { SpaceHistory } from '../sim/history';
import type { Overlay, SourceLoc, SpaceInfo, StepRecord } from '../protocol/webview';
import type { InspectorSource, LayoutMapProvider, Resolved } from './host';
import type { ExportFormat } from './export';

/** What `createSource` needs of the simulator's Machine (structural, so tests can pass plain arrays). */
export interface MachineLike {
  mem: Uint8Array;
  scratch: Uint8Array;
  pages: [{ priv: Int16Array; shared: Int16Array }, { priv: Int16Array; shared: Int16Array }];
  spu: Int16Array;
}

/** One space: its description and its current contents (bytes or 16-bit words). */
export interface SpaceData {
  info: SpaceInfo;
  buf: Uint8Array | Int16Array | Uint16Array | Uint32Array | Int32Array | Float32Array;
  history?: SpaceHistory;
}

const PCORE_PARTS = (shared: boolean) =>
  shared
    ? [{ name: 'core', count: 8, strideBytes: 4096 * 2 }]
    : [
        { name: 'core', count: 8, strideBytes: 4096 * 2 },
        { name: 'thread', count: 16, strideBytes: 256 * 2 },
      ];

/** The simulator's spaces, named as in its trace (MEM, SCRATCH, PCORE0, PCORE0S, PCORE1, PCORE1S, SPU). */
export function machineSpaces(m: MachineLike, histories?: Map<string, SpaceHistory>): SpaceData[] {
  const h = (id: string) => histories?.get(id);
  const pc = (p: 0 | 1, shared: boolean): SpaceData => {
    const id = `PCORE${p}${shared ? 'S' : ''}`;
    const buf = shared ? m.pages[p].shared : m.pages[p].priv;
    return {
      info: {
        id,
        label: `PCORE process ${p} ${shared ? 'shared' : 'private'}`,
        group: `PCORE process ${p}`,
        bytes: buf.byteLength,
        unitBytes: 2,
        defaultType: 'w12',
        partitions: PCORE_PARTS(shared),
        history: !!h(id),
        description: shared ? 'shared words of the 8 PCOREs: word = pcore·4096 + word' : 'private words: word = pcore·4096 + thread·256 + word',
      },
      buf,
      history: h(id),
    };
  };
  return [
    { info: { id: 'MEM', label: 'MEM (DDR)', group: 'Memories', bytes: m.mem.byteLength, unitBytes: 1, defaultType: 'u8', history: !!h('MEM') }, buf: m.mem, history: h('MEM') },
    { info: { id: 'SCRATCH', label: 'SCRATCH', group: 'Memories', bytes: m.scratch.byteLength, unitBytes: 1, defaultType: 'u8', history: !!h('SCRATCH') }, buf: m.scratch, history: h('SCRATCH') },
    pc(0, false),
    pc(0, true),
    pc(1, false),
    pc(1, true),
    { info: { id: 'SPU', label: 'SPU tables', group: 'Memories', bytes: m.spu.byteLength, unitBytes: 2, defaultType: 'w12', partitions: [{ name: 'stream', count: 4, strideBytes: 512 }], history: !!h('SPU') }, buf: m.spu, history: h('SPU') },
  ];
}

/** A named byte image (e.g. `bufferSpace('csf:main', 'main memory', mem.mainImage(), { unitBytes: 8, group: 'sparse.csfbin' })`). */
export function bufferSpace(id: string, label: string, bytes: Uint8Array, opts: Partial<Omit<SpaceInfo, 'id' | 'label' | 'bytes'>> = {}): SpaceData {
  return { info: { id, label, bytes: bytes.byteLength, unitBytes: 1, ...opts }, buf: bytes };
}

function asBytes(b: SpaceData['buf']): Uint8Array {
  return b instanceof Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Bytes [offset, offset+length) of a space after `step`, through its history when it has one. */
export function readSpace(d: SpaceData, offset: number, length: number, step: number): Uint8Array {
  const end = Math.min(offset + length, d.buf.byteLength);
  if (end <= offset) return new Uint8Array(0);
  const hist = d.history;
  if (!hist) return asBytes(d.buf).slice(offset, end);
  const el = hist.buf.BYTES_PER_ELEMENT;
  const e0 = Math.floor(offset / el);
  const e1 = Math.ceil(end / el);
  const words = hist.read(e0, e1 - e0, step);
  const bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
  return bytes.slice(offset - e0 * el, end - e0 * el);
}

export interface SourceOptions {
  title?: string;
  spaces: SpaceData[];
  trace?: readonly StepRecord[] | (() => readonly StepRecord[]);
  currentStep?: () => number;
  /** Tensor/variable ranges: a list, or a function of the space id. */
  overlays?: Overlay[] | ((space: string) => Overlay[]);
  resolve?: (text: string, space?: string) => Resolved | undefined;
  initial?: () => { space: string; offset: number; length?: number } | undefined;
  save?: (name: string, bytes: Uint8Array, kind: ExportFormat | 'png') => Promise<string | undefined> | string | undefined;
  reveal?: (loc: SourceLoc, preserveFocus?: boolean) => void;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  stepSelected?: (step: number) => void;
  layout?: () => LayoutMapProvider | undefined;
}

/** An InspectorSource over a list of spaces (simulator memories and/or plain images). */
export function createSource(o: SourceOptions): InspectorSource {
  const byId = new Map(o.spaces.map((s) => [s.info.id, s]));
  const trace = typeof o.trace === 'function' ? o.trace : () => (o.trace as readonly StepRecord[] | undefined) ?? [];
  return {
    title: o.title,
    spaces: () => o.spaces.map((s) => s.info),
    read: (space, offset, length, step) => {
      const d = byId.get(space);
      if (!d) throw new Error(`no memory space ${space}`);
      return readSpace(d, offset, length, step);
    },
    steps: trace,
    currentStep: o.currentStep,
    overlays: (space) => (typeof o.overlays === 'function' ? o.overlays(space) : (o.overlays ?? []).filter((x) => x.space === space)),
    resolve: o.resolve,
    initial: o.initial,
    save: o.save,
    reveal: o.reveal,
    log: o.log,
    stepSelected: o.stepSelected,
    layout: o.layout,
  };
}
