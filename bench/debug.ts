/**
 * Debugger benchmarks (issue: debug adapter), measured in the same run:
 * - running to a breakpoint near the end of a program vs a plain run of the same program (target < 2×):
 *   both through runProgram in this thread (compile included), the debug run with every stop point
 *   compiled in, a breakpoint set and a DebugTarget driven by a scripted channel;
 * - the same through the real adapter (DAP over a socket, target in a worker thread), for information;
 * - stepping one statement: `next` request → `stopped` event through the adapter (target < 50 ms).
 * Runnable alone: `node --import tsx bench/debug.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPcoreView } from '../core/project/pcoreAdapter';
import { Project } from '../core/project/project';
import { DebugTarget, type TargetChannel, type TargetIO } from '../debug/target';
import { RunInputs } from '../node/runInputs';
import { SHARED_INTS, type FromTarget, type ToTarget } from '../debug/protocol';
import { nodeLoadWasm } from '../node/wasm';
import { runProgram } from '../core/sim/run';
import type { Row } from './rows';

export type { Row } from './rows';

const N = 2_000_000;
const SRC = `#include <stdint.h>
static int32_t acc[1024];
static int16_t buf[256];
static int mix(int a, int b) { return (a ^ (b >> 3)) + 1; }
int work(int n) {
   int s = 0;
   for (int i = 0; i < n; i++) {
      s = mix(s, i);
      if (s & 1)
         acc[i & 1023] += s;
      else
         acc[(i >> 1) & 1023] = s - i;
   }
   return s;
}
void kernel_bench(void) {
   int r = work(${N});
   > DTYPE(INT16)MEM((uint32_t)&buf[0])[0:255] <= DTYPE(INT16)MEM((uint32_t)&buf[0])[0:255];
   acc[0] = r;
}
`;
/** 1-based line of `acc[0] = r;`. */
const BP_LINE = SRC.split('\n').findIndex((l) => l.includes('acc[0] = r;')) + 1;

function project(file: string): Project {
  return new Project({ fs: { read: (p) => (p === file ? SRC : undefined) }, loadPcore: loadPcoreView });
}

async function plainRun(file: string): Promise<number> {
  const t0 = performance.now();
  const r = await runProgram({ project: project(file), file, entry: 'kernel_bench', loadWasm: nodeLoadWasm });
  if (r.error) throw new Error(`plain run failed: ${r.error.message}`);
  return performance.now() - t0;
}

/** A debug run in this thread: breakpoint at BP_LINE, resumes at once. Returns ms to the stop and the stop count. */
async function debugRun(file: string): Promise<{ toStop: number; stops: number }> {
  const sab = new SharedArrayBuffer(SHARED_INTS * 4);
  let t0 = 0;
  let toStop = NaN;
  let stops = 0;
  const queue: ToTarget[] = [];
  const ch: TargetChannel = {
    ctl: new Int32Array(sab),
    poll: () => queue.splice(0),
    wait: () => {
      const q = queue.splice(0);
      if (!q.length) throw new Error('bench channel: target waits with nothing to do');
      return q;
    },
    post: (m: FromTarget) => {
      if (m.t === 'ready')
        queue.push(
          { t: 'req', seq: 1, command: 'setBreakpoints', args: { source: { path: file }, breakpoints: [{ line: BP_LINE }] } },
          { t: 'req', seq: 2, command: 'configurationDone', args: {} },
        );
      else if (m.t === 'event' && m.event === 'stopped') {
        stops++;
        toStop = performance.now() - t0;
        queue.push({ t: 'req', seq: 3, command: 'continue', args: { threadId: 1 } });
      } else if (m.t === 'launchError') throw new Error(m.message);
    },
  };
  const io: TargetIO = {
    readText: (p) => (p === file ? SRC : undefined),
    readBytes: () => new Uint8Array(0),
    writeBytes: () => undefined,
    inputs: (open) => new RunInputs(open),
    resolve: (_b, r) => r,
    dirname: () => '/',
    loadWasm: nodeLoadWasm,
    project: () => project(file),
  };
  const t = new DebugTarget({ program: file, entry: 'kernel_bench', trace: false }, ch, io);
  t0 = performance.now();
  await t.run();
  return { toStop, stops };
}

/** Through the adapter: ms from configurationDone to the breakpoint at BP_LINE. */
async function adapterRun(file: string): Promise<{ toStop: number; ok: boolean }> {
  const { startAdapter, stopped } = await import('../test/dap/harness');
  const h = await startAdapter();
  const dc = h.dc;
  try {
    await dc.initializeRequest();
    const launched = dc.launchRequest({ program: file, entry: 'kernel_bench', trace: false } as never);
    await dc.waitForEvent('initialized');
    await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [{ line: BP_LINE }] });
    const t0 = performance.now();
    await dc.configurationDoneRequest();
    await launched;
    const s = await stopped(dc, 120_000);
    return { toStop: performance.now() - t0, ok: s.reason === 'breakpoint' };
  } finally {
    await h.close();
  }
}

/** Through the adapter: stop on entry, then `stepIn` 20 times (into work(), mix() and the loop); ms per step. */
async function adapterSteps(file: string): Promise<number[]> {
  const { startAdapter, stopped } = await import('../test/dap/harness');
  const h = await startAdapter();
  const dc = h.dc;
  try {
    await dc.initializeRequest();
    const launched = dc.launchRequest({ program: file, entry: 'kernel_bench', trace: false, stopOnEntry: true } as never);
    await dc.waitForEvent('initialized');
    await dc.configurationDoneRequest();
    await launched;
    await stopped(dc);
    const steps: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t1 = performance.now();
      const p = stopped(dc);
      await dc.stepInRequest({ threadId: 1 });
      await p;
      steps.push(performance.now() - t1);
      await dc.stackTraceRequest({ threadId: 1 });
    }
    return steps;
  } finally {
    await h.close();
  }
}

export async function benchDebug(): Promise<Row[]> {
  const rows: Row[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'tl-bench-debug-'));
  const file = join(dir, 'bench.m');
  writeFileSync(file, SRC);
  try {
    await plainRun(file); // warm up (wasm, JIT)
    await debugRun(file);
    const plain: number[] = [];
    const debug: number[] = [];
    for (let i = 0; i < 3; i++) {
      plain.push(await plainRun(file));
      const d = await debugRun(file);
      if (d.stops !== 1) throw new Error(`expected one stop at line ${BP_LINE}, got ${d.stops}`);
      debug.push(d.toStop);
    }
    const p = Math.min(...plain);
    const d = Math.min(...debug);
    rows.push({
      name: `debug: run to a breakpoint vs plain run (${N.toLocaleString()}-iteration C loop, in-thread)`,
      target: '< 2×',
      measured: `${d.toFixed(0)} ms vs ${p.toFixed(0)} ms = ${(d / p).toFixed(2)}×`,
      ratio: d / p / 2,
      pass: d / p < 2,
    });
    const a = await adapterRun(file);
    rows.push({
      name: 'debug: same through the adapter (DAP socket + worker thread), configurationDone → stopped',
      target: '< 2× plain',
      measured: `${a.toStop.toFixed(0)} ms (${(a.toStop / p).toFixed(2)}× plain)`,
      ratio: a.toStop / p / 2,
      pass: a.ok && a.toStop / p < 2,
    });
    const steps = await adapterSteps(file);
    const sorted = [...steps].sort((x, y) => x - y);
    const med = sorted[Math.floor(sorted.length / 2)] ?? NaN;
    const max = sorted[sorted.length - 1] ?? NaN;
    rows.push({
      name: `debug: step one statement (stepIn → stopped, through the adapter), ${steps.length} steps`,
      target: '< 50 ms',
      measured: `median ${med.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
      ratio: med / 50,
      pass: steps.length === 20 && med < 50,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (require.main === module) {
  void benchDebug().then((rows) => {
    for (const r of rows) console.log(`${r.pass ? 'PASS' : 'FAIL'}  ${r.name}: ${r.measured} (target ${r.target})`);
  });
}
