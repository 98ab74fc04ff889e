/**
 * Starts the debug target in a Node worker thread. The bundled extension starts dist/debug/worker.js;
 * tests (run through tsx) start debug/worker.ts with tsx's require hook. `node:worker_threads`
 * is imported when a session starts, so that bundles for the web extension host need not resolve it.
 */
import type { TargetSpawner } from './protocol';

export function nodeSpawner(script: string): TargetSpawner {
  return async (data, transfer) => {
    const { Worker } = await import('node:worker_threads');
    const opts = { workerData: data, transferList: transfer as never[] };
    const w = /\.ts$/.test(script) ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(script)});`, { ...opts, eval: true }) : new Worker(script, opts);
    return w;
  };
}
