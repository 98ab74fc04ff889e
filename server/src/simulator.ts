/** The language server's handle on the simulator worker (Node): start runs, cancel them, read memory. */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkerRun } from './simWorker';

export interface SimRunResult {
  runId: number;
  entry: string;
  summary: { steps: number; statements: number; bytesMoved: number; laneOps: number; timeMs: number };
  trace: never[] | object[];
  traceTruncated: boolean;
  dumps: object[];
  output: string;
  error: { file: string; line: number; column: number; message: string; kind: string; stack: string[] } | null;
}

export interface SimulatorHost {
  run(req: Omit<WorkerRun, 'type' | 'runId'>, onProgress: (statements: number) => void, isCancelled: () => boolean, onCancel: (f: () => void) => void): Promise<SimRunResult & { cancelled?: boolean }>;
  read(space: string, start: number, length: number, step?: number): Promise<{ data?: Uint8Array; unit: number; size: number; error?: string }>;
  dispose(): void;
}

export function nodeSimulator(dir: string): SimulatorHost {
  let worker: Worker | undefined;
  let runId = 0;
  let readId = 0;
  const reads = new Map<number, (r: { data?: Uint8Array; unit: number; size: number; error?: string }) => void>();
  const fresh = () => {
    worker?.terminate();
    worker = new Worker(join(dir, 'simWorker.js'));
    worker.on('message', (m: { type: string; id: number }) => {
      if (m.type === 'read') {
        reads.get(m.id)?.(m as never);
        reads.delete(m.id);
      }
    });
    return worker;
  };
  return {
    run(req, onProgress, isCancelled, onCancel) {
      const w = fresh();
      const id = ++runId;
      return new Promise((resolve) => {
        let settled = false;
        const finish = (r: SimRunResult & { cancelled?: boolean }) => {
          if (settled) return;
          settled = true;
          resolve(r);
        };
        onCancel(() => {
          void w.terminate();
          if (worker === w) worker = undefined;
          finish({ runId: id, entry: req.entry ?? '', summary: { steps: 0, statements: 0, bytesMoved: 0, laneOps: 0, timeMs: 0 }, trace: [], traceTruncated: false, dumps: [], output: '', error: null, cancelled: true });
        });
        w.on('message', (m: { type: string; runId: number; statements?: number } & SimRunResult) => {
          if (m.runId !== id) return;
          if (m.type === 'progress') onProgress(m.statements ?? 0);
          else if (m.type === 'done') finish(m);
        });
        w.on('error', (e) => finish({ runId: id, entry: '', summary: { steps: 0, statements: 0, bytesMoved: 0, laneOps: 0, timeMs: 0 }, trace: [], traceTruncated: false, dumps: [], output: '', error: { file: req.file, line: 1, column: 1, message: `simulator crashed: ${e.message}`, kind: 'internal', stack: [] } }));
        w.on('exit', (code) => {
          if (!settled && !isCancelled()) finish({ runId: id, entry: '', summary: { steps: 0, statements: 0, bytesMoved: 0, laneOps: 0, timeMs: 0 }, trace: [], traceTruncated: false, dumps: [], output: '', error: { file: req.file, line: 1, column: 1, message: `simulator stopped (exit ${code}); the program may have used too much memory`, kind: 'internal', stack: [] } });
        });
        const msg: WorkerRun = { type: 'run', runId: id, ...req };
        w.postMessage(msg);
      });
    },
    read(space, start, length, step) {
      if (!worker) return Promise.resolve({ unit: 1, size: 0, error: 'no run' });
      const id = ++readId;
      return new Promise((resolve) => {
        reads.set(id, resolve);
        worker!.postMessage({ type: 'read', id, space, start, length, step });
      });
    },
    dispose() {
      void worker?.terminate();
    },
  };
}
