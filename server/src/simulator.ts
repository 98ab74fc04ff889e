/**
 * The language server's handle on the simulator (Node): every run gets its own worker thread, which
 * keeps the run's machine and history afterwards to answer memory reads. The last `KEPT_RUNS` runs stay
 * readable (one inspector panel per run); older workers are terminated and a read of their run gets a
 * clear error. Cancelling a run terminates its worker.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { StatementRun } from '../../core/protocol/trace';
import type { SimRunResult, WorkerRun, WorkerStatements } from './simMessages';

export type { SimRunResult } from './simMessages';

export interface SimReadResult {
  data?: Uint8Array;
  unit: number;
  size: number;
  error?: string;
}

export interface SimulatorHost {
  /**
   * Starts run `req.runId` (the caller numbers runs; readMemory names them by that id). `onStatements`: what
   * each `>` statement did, shortly after the result (not for a cancelled run or a crashed worker).
   */
  run(
    req: Omit<WorkerRun, 'type'>,
    onProgress: (statements: number) => void,
    isCancelled: () => boolean,
    onCancel: (f: () => void) => void,
    onStatements?: (statements: StatementRun[]) => void,
  ): Promise<SimRunResult & { cancelled?: boolean }>;
  /** Bytes of a space of run `runId` (an error when that run is unknown or no longer kept). */
  read(runId: number, space: string, start: number, length: number, step?: number): Promise<SimReadResult>;
  /** Run ids whose memory is still readable, oldest first. */
  kept(): number[];
  dispose(): void;
}

/** Runs whose memories stay readable (each holds its MEM, pages and step history in its worker). */
export const KEPT_RUNS = 3;

interface RunWorker {
  id: number;
  worker: Worker;
  /** True once the run finished without being cancelled (its memory can be read). */
  done: boolean;
  reads: Map<number, (r: SimReadResult) => void>;
}

export function nodeSimulator(dir: string, keep = KEPT_RUNS): SimulatorHost {
  /** Live workers, oldest first. */
  const runs: RunWorker[] = [];
  const evicted = new Set<number>();
  let readId = 0;
  let maxId = 0;

  const drop = (r: RunWorker, why: string) => {
    const i = runs.indexOf(r);
    if (i >= 0) runs.splice(i, 1);
    for (const [, resolve] of r.reads) resolve({ unit: 1, size: 0, error: why });
    r.reads.clear();
    void r.worker.terminate();
  };
  /** Keeps at most `keep` finished runs (the running one does not count). */
  const trim = () => {
    const finished = runs.filter((r) => r.done);
    for (const r of finished.slice(0, Math.max(0, finished.length - keep))) {
      evicted.add(r.id);
      drop(r, gone(r.id));
    }
  };
  const gone = (id: number) => `run ${id} is no longer kept (only the last ${keep} runs stay readable); run the program again to inspect its memory`;

  return {
    run(req, onProgress, isCancelled, onCancel, onStatements) {
      const id = req.runId;
      maxId = Math.max(maxId, id);
      const w = new Worker(join(dir, 'simWorker.js'));
      const rw: RunWorker = { id, worker: w, done: false, reads: new Map() };
      runs.push(rw);
      w.on('message', (m: { type: string; id: number }) => {
        if (m.type === 'read') {
          rw.reads.get(m.id)?.(m as never);
          rw.reads.delete(m.id);
        } else if (m.type === 'statements' && rw.done) onStatements?.((m as unknown as WorkerStatements).statements);
      });
      return new Promise((resolve) => {
        let settled = false;
        const empty = {
          runId: id,
          entry: req.entry ?? '',
          summary: { steps: 0, statements: 0, bytesMoved: 0, laneOps: 0, timeMs: 0 },
          warnings: [],
          trace: [],
          traceTruncated: false,
          dumps: [],
          output: '',
        };
        const finish = (r: SimRunResult & { cancelled?: boolean }, keepIt: boolean) => {
          if (settled) return;
          settled = true;
          if (keepIt) {
            rw.done = true;
            trim();
          } else drop(rw, `run ${id} has no memory to read (${r.cancelled ? 'it was cancelled' : 'the simulator stopped'})`);
          resolve(r);
        };
        onCancel(() => finish({ ...empty, error: null, cancelled: true }, false));
        w.on('message', (m: { type: string; runId: number; statements?: number } & SimRunResult) => {
          if (m.runId !== id) return;
          if (m.type === 'progress') onProgress(m.statements ?? 0);
          else if (m.type === 'done') finish(m, true);
        });
        w.on('error', (e) =>
          finish({ ...empty, error: { file: req.file, line: 1, column: 1, message: `simulator crashed: ${e.message}`, kind: 'internal', stack: [] } }, false),
        );
        w.on('exit', (code) => {
          if (!settled && !isCancelled())
            finish(
              {
                ...empty,
                error: {
                  file: req.file,
                  line: 1,
                  column: 1,
                  message: `simulator stopped (exit ${code}); the program may have used too much memory`,
                  kind: 'internal',
                  stack: [],
                },
              },
              false,
            );
          else if (settled && rw.done && runs.includes(rw)) drop(rw, `run ${id}: the simulator worker stopped (exit ${code})`);
        });
        const msg: WorkerRun = { type: 'run', ...req };
        w.postMessage(msg);
      });
    },
    read(runId, space, start, length, step) {
      const r = runs.find((x) => x.id === runId);
      if (!r) {
        const why = evicted.has(runId)
          ? gone(runId)
          : runId > 0 && runId <= maxId
            ? `run ${runId} has no memory to read (it failed to start, was cancelled or the server restarted)`
            : `no run ${runId}`;
        return Promise.resolve({ unit: 1, size: 0, error: why });
      }
      if (!r.done) return Promise.resolve({ unit: 1, size: 0, error: `run ${runId} is still running` });
      const id = ++readId;
      return new Promise((resolve) => {
        r.reads.set(id, resolve);
        r.worker.postMessage({ type: 'read', id, space, start, length, step });
      });
    },
    kept: () => runs.filter((r) => r.done).map((r) => r.id),
    dispose() {
      for (const r of [...runs]) drop(r, 'the simulator was shut down');
    },
  };
}
