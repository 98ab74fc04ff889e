/**
 * Per-step cost of the simulator's tensor statements through a whole run (runProgram: executor, trace,
 * memory history), as the language server's worker runs a program: 150,000 small transfers in a C loop.
 * Measures what a trace step and its bookkeeping cost (the per-statement table of run values included),
 * wall time and heap growth. Runnable alone: `node --import tsx bench/steps.ts`.
 */
import { Project } from '../core/project/project';
import { loadPcoreView } from '../core/project/pcoreAdapter';
import { runProgram } from '../core/sim/run';
import { nodeLoadWasm } from '../node/wasm';
import { runIfMain, type Row } from './rows';

const STEPS = Number(process.env.BENCH_STEPS ?? 150_000);

const SRC = `
#include <stdint.h>
static int16_t a[1024];
static int16_t b[1024];
void kernel_steps(void) {
   for (int i = 0; i < ${STEPS}; i++) {
      int o = i & 1023;
      int n = (i & 7) + 1;
      > DTYPE(INT16)MEM((uint32_t)&a[0],1024)[o:o+n-1] <= DTYPE(INT16)MEM((uint32_t)&b[0],1024)[o:o+n-1];
   }
}
`;

async function once(): Promise<{ ms: number; cpu: number; heapMiB: number }> {
  const file = '/bench/steps.m';
  const project = new Project({ fs: { read: (p) => (p === file ? SRC : undefined) }, loadPcore: loadPcoreView });
  global.gc?.();
  const h0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await runProgram({ project, file, entry: 'kernel_steps', loadWasm: nodeLoadWasm, maxTraceSteps: STEPS + 10 });
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1000;
  if (r.error) throw new Error(`steps run failed: ${r.error.message}`);
  global.gc?.();
  const heapMiB = (process.memoryUsage().heapUsed - h0) / 2 ** 20;
  if (r.trace.length !== STEPS) throw new Error(`expected ${STEPS} steps, got ${r.trace.length}`);
  return { ms, cpu, heapMiB };
}

export async function benchSteps(): Promise<Row[]> {
  const runs: { ms: number; cpu: number; heapMiB: number }[] = [];
  for (let i = 0; i < 5; i++) runs.push(await once());
  const ms = runs.map((r) => r.ms).sort((x, y) => x - y);
  const cpu = runs.map((r) => r.cpu).sort((x, y) => x - y);
  const heap = runs.map((r) => r.heapMiB).sort((x, y) => x - y);
  const perStep = (cpu[0] / STEPS) * 1000;
  return [
    {
      // on a shared machine the wall clock mostly measures the scheduler: the best CPU time is the figure to compare
      name: `run of ${STEPS.toLocaleString('en-US')} small transfers (trace and history kept), best of 5`,
      target: '–',
      measured:
        `${cpu[0].toFixed(0)} ms CPU (${perStep.toFixed(2)} µs/step; CPU ${cpu.map((x) => x.toFixed(0)).join(', ')} ms; wall ` +
        `${ms.map((x) => x.toFixed(0)).join(', ')} ms); heap kept ${heap[2].toFixed(1)} MiB`,
      ratio: 0,
      pass: true,
    },
  ];
}

runIfMain(import.meta.url, benchSteps);
