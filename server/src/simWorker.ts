/**
 * Simulator worker (Node worker thread): runs one program at a time off the language server's thread,
 * so the editor never blocks; the server terminates the worker to cancel. The last run's machine and
 * history stay here to answer memory reads.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { Project } from '../../core/project/project';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import { parseDump, parseLoad, SpecError } from '../../core/sim/dump';
import { nodeLoadWasm } from '../../core/sim/host/nodeWasm';
import { runProgram, type RunResult } from '../../core/sim/run';

export interface WorkerRun {
  type: 'run';
  runId: number;
  file: string;
  overlay: Record<string, string>;
  entry?: string;
  args?: number[];
  loads?: string[];
  dumps?: string[];
  memBytes?: number;
  stepBudget?: number;
}
export interface WorkerRead {
  type: 'read';
  id: number;
  space: string;
  start: number;
  length: number;
  step?: number;
}

let last: RunResult | undefined;
const port = parentPort!;

function readDisk(p: string): string | undefined {
  try {
    const st = statSync(p);
    return st.isFile() && st.size < 64 * 1024 * 1024 ? readFileSync(p, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

port.on('message', async (msg: WorkerRun | WorkerRead) => {
  if (msg.type === 'read') {
    port.postMessage({ type: 'read', id: msg.id, ...readSpace(msg) });
    return;
  }
  try {
    const fs = { read: (p: string) => msg.overlay[p] ?? readDisk(p) };
    const project = new Project({ fs, loadPcore: loadPcoreView });
    const base = dirname(msg.file);
    const loads = (msg.loads ?? []).map((t) => {
      const l = parseLoad(t);
      const path = isAbsolute(l.file) ? l.file : join(base, l.file);
      try {
        return { ...l, bytes: new Uint8Array(readFileSync(path)) };
      } catch {
        throw new SpecError(`load ${t}: cannot read ${path}`);
      }
    });
    const dumps = (msg.dumps ?? []).map(parseDump);
    let lastReport = 0;
    const r = await runProgram({
      project,
      file: msg.file,
      text: msg.overlay[msg.file],
      entry: msg.entry,
      args: msg.args,
      loads,
      dumps,
      memBytes: msg.memBytes,
      stepBudget: msg.stepBudget,
      loadWasm: nodeLoadWasm,
      onProgress: (steps) => {
        const now = Date.now();
        if (now - lastReport > 200) {
          lastReport = now;
          port.postMessage({ type: 'progress', runId: msg.runId, statements: steps });
        }
      },
    });
    last = r;
    for (const d of r.dumps) if (d.file && d.bytes) writeFileSync(isAbsolute(d.file) ? d.file : join(base, d.file), d.bytes);
    port.postMessage({
      type: 'done',
      runId: msg.runId,
      entry: r.entry,
      summary: r.summary,
      trace: r.trace.slice(0, 20000),
      traceTruncated: r.trace.length > 20000,
      dumps: r.dumps.map((d) => ({ space: d.space, where: d.where, dtype: d.dtype, values: d.values, file: d.file })),
      output: r.output,
      error: r.error,
      globals: globalsOf(r),
    });
  } catch (e) {
    port.postMessage({ type: 'done', runId: msg.runId, entry: msg.entry ?? '', summary: { steps: 0, statements: 0, bytesMoved: 0, laneOps: 0, timeMs: 0 }, trace: [], traceTruncated: false, dumps: [], output: '', error: { file: msg.file, line: 1, column: 1, message: (e as Error).message, kind: e instanceof SpecError ? 'usage' : 'internal', stack: [] } });
  }
});

/** The host program's C globals with their MEM addresses (the inspector labels them). */
function globalsOf(r: RunResult): { name: string; address: number; size: number; type: string; file?: string; line?: number }[] {
  try {
    const g = r.host?.globals();
    if (!g) return [];
    return [...g.entries()]
      .filter(([name, v]) => /^[A-Za-z_][\w.]*$/.test(name) && v.address >= 0 && v.size > 0)
      .slice(0, 4096)
      .map(([name, v]) => ({ name, address: v.address, size: v.size, type: v.type, file: v.loc?.file, line: v.loc?.line }));
  } catch {
    return [];
  }
}

function readSpace(msg: WorkerRead): { data?: Uint8Array; unit: number; size: number; error?: string } {
  if (!last) return { unit: 1, size: 0, error: 'no run yet' };
  const m = last.machine;
  const bufs: Record<string, Uint8Array | Int16Array> = {
    MEM: m.mem,
    SCRATCH: m.scratch,
    SPU: m.spu,
    PCORE0: m.pages[0].priv,
    PCORE0S: m.pages[0].shared,
    PCORE1: m.pages[1].priv,
    PCORE1S: m.pages[1].shared,
  };
  const buf = bufs[msg.space];
  if (!buf) return { unit: 1, size: 0, error: `no memory space ${msg.space}` };
  const start = Math.max(0, Math.min(msg.start, buf.length));
  const len = Math.max(0, Math.min(msg.length, buf.length - start, 1 << 20));
  const h = last.histories.get(msg.space);
  const part = msg.step === undefined || !h ? buf.slice(start, start + len) : h.read(start, len, msg.step);
  const data = new Uint8Array(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength));
  return { data, unit: buf instanceof Int16Array ? 2 : 1, size: buf.length };
}
