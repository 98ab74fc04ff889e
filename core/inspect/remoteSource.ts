/**
 * An inspector data source over a run that lives elsewhere (the language server's simulator worker):
 * every read is forwarded, asynchronously, to `tensorLens/readMemory`. The extension creates one after a
 * run with `await createRemoteSource({ runId, trace, readMemory: (p) => client.sendRequest(...) })` and
 * hands it to `WebviewHost`.
 */
import type { ReadMemoryParams, ReadMemoryResult } from '../protocol/lspExt';
import type { Overlay, SourceLoc, SpaceInfo } from '../protocol/webview';
import type { TraceStep } from '../protocol/trace';
import { SPACES, SPACE_NAMES, unitBytesOf } from '../sim/spaces';
import { spaceInfo } from './simSource';
import type { ExportFormat } from './export';
import type { InspectorSource, Resolved } from './host';
import { fromBase64 } from '../common/base64';

/** Largest `length` (in units) one `tensorLens/readMemory` request may ask for. */
export const MAX_REMOTE_READ_UNITS = 1 << 20;

/** The simulator's spaces (core/sim/spaces.ts) with the given byte sizes (the default machine's for those not given). */
export function remoteSpaces(bytes: Record<string, number> = {}, history = true): SpaceInfo[] {
  return SPACES.map((s) => spaceInfo(s, bytes[s.name] ?? s.defaultBytes, history));
}

export interface RemoteSourceOptions {
  runId: number;
  title?: string;
  /** Sends `tensorLens/readMemory`. */
  readMemory: (p: ReadMemoryParams) => Promise<ReadMemoryResult>;
  trace?: readonly TraceStep[];
  /** The trace holds only the first steps of the run (the last one is then not the end). */
  traceTruncated?: boolean;
  /** Byte sizes known in advance (else probed with empty reads, else the default machine's). */
  sizes?: Record<string, number>;
  /** Reads in flight at once (default MAX_REMOTE_READS_IN_FLIGHT). */
  maxInFlight?: number;
  /** Per-read timeout (default REMOTE_READ_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Probe the sizes with one empty read per space (default true). */
  probe?: boolean;
  currentStep?: () => number;
  overlays?: Overlay[] | ((space: string) => Overlay[]);
  /** Names typed in “go to” (default: the overlays' names). */
  resolve?: (text: string, space?: string) => Resolved | undefined;
  initial?: () => { space: string; offset: number; length?: number } | undefined;
  save?: (name: string, bytes: Uint8Array, kind: ExportFormat | 'png') => Promise<string | undefined> | string | undefined;
  reveal?: (loc: SourceLoc, preserveFocus?: boolean) => void;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  stepSelected?: (step: number) => void;
}

/** Requests in flight at once (the rest wait, so that other requests to the server are not stuck behind a flood of reads). */
export const MAX_REMOTE_READS_IN_FLIGHT = 4;
/** A read the server has not answered after this long fails (the run it belongs to may be gone). */
export const REMOTE_READ_TIMEOUT_MS = 15_000;

/** Runs at most `limit` calls at a time, in order. */
function limiter(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(f: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await f();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer after ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** An InspectorSource whose reads go to the server; sizes are probed first (unless `probe: false`). */
export async function createRemoteSource(o: RemoteSourceOptions): Promise<InspectorSource> {
  const sizes: Record<string, number> = { ...(o.sizes ?? {}) };
  if (o.probe !== false) {
    await Promise.all(
      SPACE_NAMES.filter((id) => sizes[id] === undefined).map(async (id) => {
        try {
          const r = await withTimeout(o.readMemory({ runId: o.runId, space: id, start: 0, length: 0 }), o.timeoutMs ?? REMOTE_READ_TIMEOUT_MS, `size of ${id}`);
          if (r && r.size > 0) sizes[id] = r.size * (r.unit || unitBytesOf(id));
        } catch (e) {
          o.log?.('warn', `size of ${id}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }),
    );
  }
  const trace = o.trace ?? [];
  const limit = limiter(o.maxInFlight ?? MAX_REMOTE_READS_IN_FLIGHT);
  const timeoutMs = o.timeoutMs ?? REMOTE_READ_TIMEOUT_MS;
  const spaces = remoteSpaces(sizes, trace.length > 0);

  const read = async (space: string, offset: number, length: number, step: number): Promise<Uint8Array> => {
    const info = spaces.find((s) => s.id === space);
    if (!info) throw new Error(`no memory space ${space}`);
    const unit = info.unitBytes;
    const end = Math.min(offset + length, info.bytes);
    if (end <= offset) return new Uint8Array(0);
    const u0 = Math.floor(offset / unit);
    const u1 = Math.ceil(end / unit);
    const out = new Uint8Array((u1 - u0) * unit);
    // the end of the run is read without a step (also when there is no trace at all)
    const stepArg = trace.length === 0 || (step >= trace.length - 1 && !o.traceTruncated) ? undefined : step;
    const chunks: Promise<void>[] = [];
    for (let u = u0; u < u1; u += MAX_REMOTE_READ_UNITS) {
      const n = Math.min(MAX_REMOTE_READ_UNITS, u1 - u);
      chunks.push(
        limit(() =>
          withTimeout(
            o.readMemory({ runId: o.runId, space, start: u, length: n, ...(stepArg === undefined ? {} : { step: stepArg }) }),
            timeoutMs,
            `read ${space} ${u}+${n}`,
          ),
        ).then((r) => {
          const bytes = fromBase64(r.data);
          out.set(bytes.subarray(0, Math.min(bytes.length, n * unit)), (u - u0) * unit);
        }),
      );
    }
    await Promise.all(chunks);
    return out.slice(offset - u0 * unit, end - u0 * unit);
  };

  return {
    title: o.title,
    spaces: () => spaces,
    read,
    steps: () => trace,
    currentStep: o.currentStep,
    overlays: (space) => (typeof o.overlays === 'function' ? o.overlays(space) : (o.overlays ?? []).filter((x) => x.space === space)),
    resolve: o.resolve,
    initial: o.initial,
    save: o.save,
    reveal: o.reveal,
    log: o.log,
    stepSelected: o.stepSelected,
  };
}
