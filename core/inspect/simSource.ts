/**
 * Inspector data sources over the simulator (core/sim): its memories, their step histories and the
 * trace, plus any other named byte images (a `.csfbin`'s main/metadata banks). The extension builds one
 * of these after a run and hands it to `WebviewHost`.
 */
import type { SpaceHistory } from '../sim/history';
import { SPACES, spaceBuffer, type SpaceDef, type SpaceMemories } from '../sim/spaces';
import type { Overlay, SourceLoc, SpaceInfo } from '../protocol/webview';
import type { TraceStep } from '../protocol/trace';
import type { InspectorSource, LayoutMapProvider, Resolved } from './host';
import type { ExportFormat } from './export';

/** What `createSource` needs of the simulator's Machine (structural, so tests can pass plain arrays). */
export type MachineLike = SpaceMemories;

/** One space: its description and its current contents (bytes or 16-bit words). */
export interface SpaceData {
  info: SpaceInfo;
  buf: Uint8Array | Int16Array | Uint16Array | Uint32Array | Int32Array | Float32Array;
  history?: SpaceHistory;
}

/** The simulator's spaces, named as in its trace (core/sim/spaces.ts), with their contents and histories. */
export function machineSpaces(m: MachineLike, histories?: Map<string, SpaceHistory>): SpaceData[] {
  return SPACES.map((s) => {
    const buf = spaceBuffer(m, s.name);
    const history = histories?.get(s.name);
    return { info: spaceInfo(s, buf.byteLength, !!history), buf, history };
  });
}

/** The inspector's description of a simulator space of `bytes` bytes. */
export function spaceInfo(s: SpaceDef, bytes: number, history: boolean): SpaceInfo {
  const info: SpaceInfo = { id: s.name, label: s.label, group: s.group, bytes, unitBytes: s.unitBytes, defaultType: s.defaultType, history };
  if (s.partitions) info.partitions = s.partitions;
  if (s.description) info.description = s.description;
  return info;
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
  // the history's answer is already a copy: cut it only when the range does not start and end on elements
  const lo = offset - e0 * el;
  const hi = end - e0 * el;
  return lo === 0 && hi === bytes.length ? bytes : bytes.slice(lo, hi);
}

export interface SourceOptions {
  title?: string;
  spaces: SpaceData[];
  trace?: readonly TraceStep[] | (() => readonly TraceStep[]);
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
  const steps = o.trace;
  const trace = typeof steps === 'function' ? steps : () => steps ?? [];
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
