/**
 * The memory of a debug session at each stop, for the memory inspector (core/inspect/debugSource.ts):
 * which pages changed since the previous stop, and the bytes of any kept stop.
 *
 * No copy of the memories is taken per stop: the simulator's per-step histories (core/sim/history.ts)
 * already keep the old contents of every page a step or host C code wrote. A stop is the number of
 * trace steps done when it happened plus a copy of the pages written since the last step (host C
 * writes, or the batches of a transfer being stepped through), which the history has not committed
 * yet. Stop −1 is the program's start (after initialisers and loads).
 */
import { PAGE_BYTES } from '../../protocol/webview';
import type { SpaceHistory } from '../history';
import type { TraceStep } from '../../protocol/trace';

/** Where and why the program stopped. */
export interface StopInfo {
  reason: string;
  process: 0 | 1;
  file: string;
  line: number;
  column: number;
  /** What the inspector's timeline shows for the stop. */
  text: string;
}

interface Mark extends StopInfo {
  traceLen: number;
  /**
   * Per space, the history key whose state is the stop's (apart from pending pages): the last step,
   * or `traceLen − 0.5` when the host interval before the next step was committed before the stop
   * (a stop inside a `>` statement).
   */
  keys: Map<string, number>;
  /** Space → page → its bytes at the stop (pages the history has pending, i.e. not committed). */
  pending: Map<string, Map<number, Uint8Array>>;
  pendingBytes: number;
  changed?: Record<string, number[]>;
}

/** A stop as the inspector's timeline shows it (a trace step of kind `stop`; `changed`: pages whose contents differ from the previous stop's). */
export type StopRecord = Pick<TraceStep, 'step' | 'file' | 'line' | 'column' | 'endLine' | 'text' | 'process' | 'changed'> & {
  kind: 'stop';
  elements: 0;
  padded: 0;
  skipped: 0;
};

/** Stops kept (older ones cannot be read any more), and the most bytes their page copies may hold. */
export const MAX_STOPS = 256;
export const MAX_STOP_COPY_BYTES = 256 * 1024 * 1024;

const START: Mark = {
  reason: 'start',
  process: 0,
  file: '',
  line: 0,
  column: 0,
  text: 'program start',
  traceLen: 0,
  keys: new Map(),
  pending: new Map(),
  pendingBytes: 0,
};

function asBytes(b: Uint8Array | Int16Array): Uint8Array {
  return b instanceof Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export class StopHistory {
  private readonly marks: Mark[] = [];
  /** Stop number of marks[0]. */
  private first = 0;
  private copyBytes = 0;

  constructor(
    private readonly histories: ReadonlyMap<string, SpaceHistory>,
    private readonly trace: readonly TraceStep[],
    private readonly maxStops = MAX_STOPS,
    private readonly maxCopyBytes = MAX_STOP_COPY_BYTES,
  ) {}

  /** Stops recorded so far (the last is the current one while paused). */
  get count(): number {
    return this.first + this.marks.length;
  }

  /** The oldest stop still readable. */
  get oldest(): number {
    return this.first;
  }

  /** Byte sizes of the spaces. */
  sizes(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, h] of this.histories) out[name] = h.buf.byteLength;
    return out;
  }

  /** Records a stop (call it when the program stops, before anyone reads); returns its number. */
  mark(info: StopInfo): number {
    const pending = new Map<string, Map<number, Uint8Array>>();
    const keys = new Map<string, number>();
    const T = this.trace.length;
    let bytes = 0;
    for (const [name, h] of this.histories) {
      keys.set(name, h.lastCommit >= T - 0.5 ? T - 0.5 : T - 1);
      const f = h.journal.flags;
      const all = asBytes(h.buf);
      let pages: Map<number, Uint8Array> | undefined;
      // the last flag stands for "past the end"
      for (let p = 0; p < f.length - 1; p++) {
        if (!f[p]) continue;
        if (!pages) pending.set(name, (pages = new Map()));
        const copy = all.slice(p * PAGE_BYTES, (p + 1) * PAGE_BYTES);
        pages.set(p, copy);
        bytes += copy.length;
      }
    }
    this.marks.push({ ...info, traceLen: T, keys, pending, pendingBytes: bytes });
    this.copyBytes += bytes;
    while (this.marks.length > 1 && (this.marks.length > this.maxStops || this.copyBytes > this.maxCopyBytes)) {
      this.copyBytes -= this.marks.shift()!.pendingBytes;
      this.first++;
    }
    return this.count - 1;
  }

  private markOf(stop: number): Mark {
    if (stop === -1) return START;
    if (!Number.isInteger(stop) || stop < -1 || stop >= this.count) throw new Error(`no stop ${stop} (${this.count} stops so far)`);
    if (stop < this.first) throw new Error(`stop ${stop} is no longer kept (the oldest kept is ${this.first})`);
    return this.marks[stop - this.first];
  }

  /** Bytes [offset, offset+length) of a space (PCORE and SPU spaces: 2 bytes per word) as they were at `stop`. */
  read(space: string, offset: number, length: number, stop: number): Uint8Array {
    const h = this.histories.get(space);
    if (!h) throw new Error(`no memory space ${space}`);
    const mk = this.markOf(stop);
    const size = h.buf.byteLength;
    const end = Math.min(size, offset + Math.max(0, length));
    if (offset < 0 || end <= offset) return new Uint8Array(0);
    const el = h.buf.BYTES_PER_ELEMENT;
    const e0 = Math.floor(offset / el);
    const e1 = Math.ceil(end / el);
    const words = h.read(e0, e1 - e0, mk.keys.get(space) ?? mk.traceLen - 1);
    const out = new Uint8Array(words.buffer, words.byteOffset, words.byteLength).slice(offset - e0 * el, end - e0 * el);
    const pend = mk.pending.get(space);
    if (pend) {
      for (let p = Math.floor(offset / PAGE_BYTES); p * PAGE_BYTES < end; p++) {
        const copy = pend.get(p);
        if (!copy) continue;
        const a = Math.max(offset, p * PAGE_BYTES);
        const b = Math.min(end, p * PAGE_BYTES + copy.length);
        out.set(copy.subarray(a - p * PAGE_BYTES, b - p * PAGE_BYTES), a - offset);
      }
    }
    return out;
  }

  /** Pages (4 KiB) of each space whose bytes at `stop` differ from those at `stop − 1`. */
  changed(stop: number): Record<string, number[]> {
    const mk = this.markOf(stop);
    if (mk.changed) return mk.changed;
    const prev = stop - 1 < this.first && stop - 1 >= 0 ? undefined : this.markOf(stop - 1);
    const cand = new Map<string, Set<number>>();
    const add = (space: string, pages: Iterable<number>) => {
      let s = cand.get(space);
      if (!s) cand.set(space, (s = new Set()));
      for (const p of pages) s.add(p);
    };
    for (let i = prev?.traceLen ?? 0; i < mk.traceLen; i++) {
      const t = this.trace[i];
      for (const [space, pages] of Object.entries(t.changed)) add(space, pages);
      for (const [space, pages] of Object.entries(t.hostChanged ?? {})) add(space, pages);
    }
    for (const m of prev ? [prev, mk] : [mk]) for (const [space, pages] of m.pending) add(space, pages.keys());
    const out: Record<string, number[]> = {};
    for (const [space, pages] of cand) {
      const list: number[] = [];
      for (const p of [...pages].sort((a, b) => a - b)) {
        const now = this.read(space, p * PAGE_BYTES, PAGE_BYTES, stop);
        // the previous stop evicted: every candidate counts as changed
        if (!prev || !same(now, this.read(space, p * PAGE_BYTES, PAGE_BYTES, stop - 1))) list.push(p);
      }
      if (list.length) out[space] = list;
    }
    mk.changed = out;
    return out;
  }

  /** Stops [from, from+count) as timeline records (an evicted one says so and lists no changes). */
  records(from: number, count: number): StopRecord[] {
    const out: StopRecord[] = [];
    for (let k = Math.max(0, from); k < Math.min(this.count, from + count); k++) {
      const m = k < this.first ? undefined : this.markOf(k);
      const base = { step: k, kind: 'stop' as const, endLine: m?.line ?? 0, elements: 0 as const, padded: 0 as const, skipped: 0 as const };
      if (!m) out.push({ ...base, file: '', line: 0, column: 0, text: `stop ${k} (no longer kept)`, process: 0, changed: {} });
      else out.push({ ...base, file: m.file, line: m.line, column: m.column, text: m.text, process: m.process, changed: this.changed(k) });
    }
    return out;
  }
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
