/**
 * An inspector data source over a paused `tensor-lens` debug session: each stop of the program is a
 * step of the inspector's timeline, so the view shows (and highlights) the bytes that changed since
 * the previous stop. The current stop is read live through the adapter's `readMemory`; earlier stops
 * (and stop −1, the program's start, which the first stop is compared with) through the custom
 * request `memoryAtStop`; the stop list with the pages each changed comes from `memoryStops`
 * (core/sim/debug/stops.ts answers both in the debug target).
 *
 * No `vscode` import: the extension passes `(command, args) => session.customRequest(command, args)`
 * and calls `update()` whenever the session stops.
 */
import { PAGE_BYTES, type SourceLoc } from '../protocol/webview';
import type { TraceStep } from '../protocol/trace';
import { diffBuffers } from './diff';
import type { InspectorSource } from './host';
import { fromBase64 } from '../common/base64';
import { remoteSpaces } from './remoteSource';
import { resolveName, traceOverlays, type RunGlobal } from './traceOverlays';

/** Sends a request to the debug session (`session.customRequest`). */
export type DebugRequest = (command: string, args: Record<string, unknown>) => Promise<unknown>;

/** The `memoryStops` answer of the debug target. */
export interface MemoryStops {
  total: number;
  oldest: number;
  paused: boolean;
  sizes: Record<string, number>;
  globals: RunGlobal[];
  stops: TraceStep[];
}

export interface DebugSourceOptions {
  request: DebugRequest;
  title: string;
  reveal?: (loc: SourceLoc, preserveFocus?: boolean) => void;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  stepSelected?: (step: number) => void;
}

/** Largest read sent in one request (bytes). */
export const MAX_DEBUG_READ = 4 << 20;

export interface DebugSource extends InspectorSource {
  /** Fetches the stops (new ones since the last call) after the session stopped; true when there is one. */
  update(): Promise<boolean>;
  /** The session has ended: reads fail with a clear message. */
  end(): void;
  /**
   * The bytes stop `stop` changed since the previous stop, from the first to the last changed byte of
   * the first run of changed pages (MEM first, else the first space with changes); undefined when none.
   */
  changedRange(stop: number): Promise<{ space: string; offset: number; length: number } | undefined>;
}

export function createDebugSource(o: DebugSourceOptions): DebugSource {
  let stops: TraceStep[] = [];
  let sizes: Record<string, number> = {};
  let globals: RunGlobal[] = [];
  let current = -1;
  let ended = false;
  let spaces = remoteSpaces({}, true);
  let overlays = traceOverlays([], []);

  const live = async (space: string, offset: number, length: number): Promise<Uint8Array> => {
    const out = new Uint8Array(length);
    for (let at = 0; at < length; at += MAX_DEBUG_READ) {
      const n = Math.min(MAX_DEBUG_READ, length - at);
      const r = (await o.request('readMemory', { memoryReference: space, offset: offset + at, count: n })) as { data?: string; unreadableBytes?: number };
      const b = fromBase64(r?.data ?? '');
      out.set(b.subarray(0, n), at);
    }
    return out;
  };
  const atStop = async (space: string, offset: number, length: number, stop: number): Promise<Uint8Array> => {
    const out = new Uint8Array(length);
    for (let at = 0; at < length; at += MAX_DEBUG_READ) {
      const n = Math.min(MAX_DEBUG_READ, length - at);
      const r = (await o.request('memoryAtStop', { space, offset: offset + at, length: n, stop })) as { data?: string };
      out.set(fromBase64(r?.data ?? '').subarray(0, n), at);
    }
    return out;
  };

  let start: { space: string; offset: number; length?: number } | undefined;
  const source: DebugSource = {
    title: o.title,
    spaces: () => spaces,
    async read(space, offset, length, step) {
      if (ended) throw new Error('the debug session has ended');
      // the space comes from a webview: looked up in the known set, never on a plain object's prototype
      const info = spaces.find((s) => s.id === space);
      if (!info) throw new Error(`no memory space ${space}`);
      const size = Object.hasOwn(sizes, space) ? sizes[space] : info.bytes;
      const len = Math.max(0, Math.min(length, size - offset));
      if (len === 0) return new Uint8Array(0);
      // the stop the program is at: its live memory (the adapter's readMemory)
      if (step === current && step >= 0) return live(space, offset, len);
      return atStop(space, offset, len, step);
    },
    steps: () => stops,
    currentStep: () => current,
    overlays: (space) => overlays.filter((x) => x.space === space),
    resolve: (text, space) => resolveName(overlays, text, space),
    initial: () => {
      // what the current stop changed, else the first C global (the program's data), else MEM 0
      if (start) return start;
      const g = overlays.find((x) => x.space === 'MEM' && x.kind === 'global');
      return g ? { space: 'MEM', offset: g.offset } : { space: 'MEM', offset: 0 };
    },
    reveal: o.reveal,
    log: o.log,
    stepSelected: o.stepSelected,
    async update() {
      const r = (await o.request('memoryStops', { from: stops.length, count: 100_000 })) as MemoryStops;
      if (Object.keys(sizes).length === 0) {
        sizes = r.sizes;
        spaces = remoteSpaces(sizes, true);
      }
      if (globals.length === 0 && r.globals.length) {
        globals = r.globals;
        overlays = traceOverlays([], globals);
      }
      stops = stops.concat(r.stops);
      current = r.paused ? r.total - 1 : -1;
      start = current >= 0 ? await source.changedRange(current) : undefined;
      return r.paused && r.total > 0;
    },
    end() {
      ended = true;
    },
    async changedRange(stop) {
      const ch = stops[stop]?.changed ?? {};
      const space = ch.MEM?.length ? 'MEM' : Object.keys(ch).find((k) => ch[k].length);
      if (!space) return undefined;
      const pages = ch[space];
      let last = 0;
      while (last + 1 < pages.length && pages[last + 1] === pages[last] + 1) last++;
      const offset = pages[0] * PAGE_BYTES;
      const length = (pages[last] + 1) * PAGE_BYTES - offset;
      const [now, before] = await Promise.all([source.read(space, offset, length, stop), source.read(space, offset, length, stop - 1)]);
      const d = diffBuffers(now, before);
      if (d.count === 0) return undefined;
      const lo = d.ranges[0];
      const hi = d.ranges[2 * d.count - 1];
      return { space, offset: offset + lo, length: hi - lo };
    },
  };
  return source;
}
