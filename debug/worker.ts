/**
 * Debug target worker (Node worker thread; bundled as dist/debug/worker.js). Runs one program under
 * the debugger: reads the adapter's messages synchronously with `receiveMessageOnPort` and sleeps
 * with `Atomics.wait` while paused (protocol.ts), so it never needs its event loop once running.
 */
import { writeFileSync } from 'node:fs';
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { workerData } from 'node:worker_threads';
import { loadPcoreView } from '../core/project/pcoreAdapter';
import { Project } from '../core/project/project';
import { nodeRunHost } from '../node/runHost';
import { RunInputs } from '../node/runInputs';
import { CTL, MSG, WAKE, type FromTarget, type TargetWorkerData, type ToTarget } from './protocol';
import { runTarget, type TargetChannel, type TargetIO } from './target';

const data = workerData as TargetWorkerData;
const port = data.port as MessagePort;
const sh = new Int32Array(data.sab);

const ch: TargetChannel = {
  ctl: sh,
  poll(): ToTarget[] {
    Atomics.and(sh, CTL, ~MSG);
    const out: ToTarget[] = [];
    for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) out.push(m.message as ToTarget);
    return out;
  },
  wait(): ToTarget[] {
    for (;;) {
      const seen = Atomics.load(sh, WAKE);
      const ms = ch.poll();
      if (ms.length) return ms;
      Atomics.wait(sh, WAKE, seen);
    }
  },
  post(m: FromTarget): void {
    port.postMessage(m);
  },
};

const io: TargetIO = {
  ...nodeRunHost({ maxTextBytes: 64 * 1024 * 1024 }),
  writeBytes: (p, d) => writeFileSync(p, d),
  inputs: (open) => new RunInputs(open),
  project: (read) => new Project({ fs: { read }, loadPcore: loadPcoreView }),
};

// the adapter terminates this worker after `end`
void runTarget(data.launch, ch, io).catch((e: unknown) =>
  ch.post({ t: 'launchError', message: `debug target failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` }),
);
