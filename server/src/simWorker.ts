/**
 * Simulator worker (Node worker thread): runs one program at a time off the language server's thread,
 * so the editor never blocks; the server terminates the worker to cancel. The last run's machine and
 * history stay here to answer memory reads.
 */
import { resolve } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { SpecError } from '../../core/sim/dump';
import { spaceBuffer, spaceDef } from '../../core/sim/spaces';
import { prepareRun } from '../../core/sim/prepare';
import { writeFileBytes } from '../../node/files';
import { nodeRunHost } from '../../node/runHost';
import { RunInputs } from '../../node/runInputs';
import { runProgram, type RunResult } from '../../core/sim/run';
import type { SimRunResult, WorkerRead, WorkerRun, WorkerStatements } from './simMessages';

/** What a run posts back when it ends (the server's SimRunResult). */
type WorkerDone = { type: 'done' } & SimRunResult;

let last: RunResult | undefined;
const port = parentPort!;

port.on('message', async (msg: WorkerRun | WorkerRead) => {
  if (msg.type === 'read') {
    // a read never stops the worker: whatever it is asked, it answers (the run stays readable)
    let r: ReturnType<typeof readSpace>;
    try {
      r = readSpace(msg);
    } catch (e) {
      r = { unit: 1, size: 0, error: `read failed: ${(e as Error)?.message ?? String(e)}` };
    }
    port.postMessage({ type: 'read', id: msg.id, ...r });
    return;
  }
  try {
    const { type: _t, runId: _r, file, overlay, ...config } = msg;
    // relative include paths are the server's (its folder is the checker's, the workspace's first folder)
    const includePaths = config.includePaths?.map((p) => resolve(p));
    // no dump over what the run reads (program, headers, .p, loads) nor over a document open in the editor (the overlay's keys)
    const inputs = new RunInputs(Object.keys(overlay ?? {}));
    const prepared = prepareRun({ ...config, includePaths, program: file }, inputs.track(nodeRunHost({ overlay, maxTextBytes: 64 * 1024 * 1024 })));
    const refused = () => {
      for (const d of prepared.options.dumps ?? []) {
        const why = d.file ? inputs.refusal(prepared.dumpPath(d.file), d.file) : undefined;
        if (why) return `dump ${d.text}: ${why}`;
      }
      return undefined;
    };
    // found before the run, a usage error; headers read while compiling are inputs too (checked again after the run)
    const before = refused();
    if (before) throw new SpecError(before);
    let lastReport = 0;
    const r = await runProgram({
      ...prepared.options,
      onProgress: (steps) => {
        const now = Date.now();
        if (now - lastReport > 200) {
          lastReport = now;
          port.postMessage({ type: 'progress', runId: msg.runId, statements: steps });
        }
      },
    });
    last = r;
    // a dump that cannot be written is the run's error, naming the file (the worker goes on)
    let dumpError = refused();
    for (const d of r.dumps)
      if (d.file && d.bytes && !dumpError)
        try {
          writeFileBytes(prepared.dumpPath(d.file), d.bytes);
        } catch (e) {
          dumpError = `dump ${d.space}:${d.where}:${d.dtype}: ${(e as Error).message}`;
        }
    const done: WorkerDone = {
      type: 'done',
      runId: msg.runId,
      entry: r.entry,
      summary: r.summary,
      warnings: r.warnings,
      trace: r.trace.slice(0, 20000),
      traceTruncated: r.trace.length > 20000,
      dumps: r.dumps.map((d) => ({ space: d.space, where: d.where, dtype: d.dtype, values: d.values, file: d.file })),
      output: r.output,
      error: r.error ?? (dumpError ? { file: msg.file, line: 1, column: 1, message: dumpError, kind: 'io', stack: [] } : null),
      globals: globalsOf(r),
      buffers: r.buffers,
    };
    port.postMessage(done);
    // after the result, off its path: the records take a few milliseconds per statement in a fresh worker
    const statements: WorkerStatements = { type: 'statements', runId: msg.runId, statements: r.statements() };
    port.postMessage(statements);
  } catch (e) {
    const failed: WorkerDone = {
      type: 'done',
      runId: msg.runId,
      entry: msg.entry ?? '',
      summary: { steps: 0, statements: 0, bytesMoved: 0, laneOps: 0, timeMs: 0 },
      warnings: [],
      trace: [],
      traceTruncated: false,
      dumps: [],
      output: '',
      error: { file: msg.file, line: 1, column: 1, message: (e as Error).message, kind: e instanceof SpecError ? 'usage' : 'internal', stack: [] },
    };
    port.postMessage(failed);
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
  // the space is looked up in the one table of spaces (a Map): `__proto__` or `toString` are no space
  const def = typeof msg.space === 'string' ? spaceDef(msg.space) : undefined;
  if (!def) return { unit: 1, size: 0, error: `no memory space ${JSON.stringify(String(msg.space)).slice(0, 80)}` };
  if (!Number.isSafeInteger(msg.start) || !Number.isSafeInteger(msg.length)) return { unit: 1, size: 0, error: 'start and length must be integers' };
  if (msg.step !== undefined && !Number.isSafeInteger(msg.step)) return { unit: 1, size: 0, error: 'step must be an integer' };
  const buf = spaceBuffer(last.machine, def.name);
  const start = Math.max(0, Math.min(msg.start, buf.length));
  const len = Math.max(0, Math.min(msg.length, buf.length - start, 1 << 20));
  const h = last.histories.get(def.name);
  const part = msg.step === undefined || !h ? buf.slice(start, start + len) : h.read(start, len, msg.step);
  const data = new Uint8Array(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength));
  return { data, unit: buf instanceof Int16Array ? 2 : 1, size: buf.length };
}
