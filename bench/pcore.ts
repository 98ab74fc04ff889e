/**
 * Benchmark of the PCORE kernel interpreter: lane-operations per second for kernels launched on
 * 8 PCOREs × 16 threads × 8 lanes. Target: ≥ 20 M lane-operations/s, measured in process CPU time (the
 * figure a free core gives; wall-clock time on a shared machine is also printed).
 *
 * Standalone: `node --import tsx bench/pcore.ts`.
 */
import { pathToFileURL } from 'node:url';
import { analyzePcore } from '../core/pcore/index';
import { createPcoreRunner } from '../core/sim/pcore/index';
import type { PcorePage } from '../core/sim/types';

export interface Row {
  name: string;
  target: number;
  measured: number;
  ratio: number;
  pass: boolean;
}

const TARGET = 20e6;

/** A 3×3 convolution with ReLU: each thread computes 4 output vectors of a 16×4 tile (conv.p/canny.p idioms). */
const CONV = `
#define TW 18
#define ROWS 4
_share vint16 conv::tile[TW * (ROWS + 2)];
_share int16 conv::k[3][3];
_share vint16 conv::out[16 * ROWS];
vint32 conv::acc;

_kernel_ void conv::run(_global int sh) {
   int dy, dx, i;
   vint16 *p;
   vint16 v;
   for (i = 0; i < ROWS; i++) {
      p = &tile[i * TW + tid];
      acc = 0;
#pragma unroll
      for (dy = 0; dy < 3; dy++) {
#pragma unroll
         for (dx = 0; dx < 3; dx++) {
            acc += p[dx] * k[dy][dx];
         }
         p += TW;
      }
      v = acc >> sh;
      _VMASK = LT(v, 0);
      v = 0;
      _VMASK = -1;
      out[i * 16 + tid] = v;
   }
}
`;

/** The tutorial kernel: one vector add per thread (launch overhead dominated). */
const ADD = `
vint16 test::_A;
vint16 test::_Z;
_kernel_ void test::add() {
   _VMASK = -1;
   _Z = _A + 1;
}
`;

/** Straight-line canny-style gradient/threshold code through pointers and masks. */
const GRAD = `
_share vint16 g::m[64];
vint16 *g::in_p;
vint16 g::out;
_share int16 g::lo;
_share int16 g::hi;

_kernel_ void g::init() {
   in_p = &m[tid];
}

_kernel_ void g::run() {
   int c;
   vint16 v, a, b;
   v = in_p[7];
   a = in_p[0] - in_p[14];
   b = in_p[1] - in_p[13];
   a = a * 3 + b;
   out = 0;
   c = GE(v, lo);
   _VMASK = GE(a, hi) & c;
   out = 255;
   _VMASK = GE(b, hi) & c;
   out = out + v;
   _VMASK = -1;
}
`;

function page(seed: number): PcorePage {
  const pg: PcorePage = { priv: new Int16Array(8 * 4096), shared: new Int16Array(8 * 4096) };
  let s = seed >>> 0;
  const next = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return ((s >>> 8) % 512) - 256;
  };
  for (let i = 0; i < pg.priv.length; i++) pg.priv[i] = next();
  for (let i = 0; i < pg.shared.length; i++) pg.shared[i] = next();
  return pg;
}

function measure(name: string, src: string, kernel: string, globals: [number, number], setup?: string, minMs = 400): Row {
  const prog = analyzePcore(src, `${name}.p`);
  const runner = createPcoreRunner(prog);
  const pg = page(7);
  const at = { file: 'bench.m', line: 1, column: 1 };
  const launch = (k: string): number =>
    runner.launch({
      kernel: k,
      process: 0,
      numPcore: 8,
      numThread: 16,
      globals,
      page: pg,
      budget: { steps: Infinity, cancelled: false },
      at,
    });
  if (setup) launch(setup);
  // warm-up
  for (let i = 0; i < 20; i++) launch(kernel);
  let ops = 0;
  let runs = 0;
  // CPU time of this process, so that other processes on a loaded machine do not distort the figure
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let cpuMs = 0;
  while (cpuMs < minMs) {
    for (let i = 0; i < 10; i++) ops += launch(kernel);
    runs += 10;
    const c = process.cpuUsage(c0);
    cpuMs = (c.user + c.system) / 1000;
  }
  const wallMs = performance.now() - t0;
  const measured = ops / (cpuMs / 1000);
  return {
    name: `pcore ${name}: lane-ops per CPU second (8×16×8, ${runs} launches of ${ops / runs} lane-ops; wall ${(ops / wallMs / 1000).toFixed(1)} M/s)`,
    target: TARGET,
    measured: Math.round(measured),
    ratio: measured / TARGET,
    pass: measured >= TARGET,
  };
}

export async function benchPcore(): Promise<Row[]> {
  return [
    measure('conv3x3+relu', CONV, 'conv::run', [4, 0]),
    measure('canny-threshold', GRAD, 'g::run', [0, 0], 'g::init'),
    measure('test::add', ADD, 'test::add', [0, 0]),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void benchPcore().then((rows) => {
    for (const r of rows) {
      console.log(
        `${r.pass ? 'PASS' : 'FAIL'} ${r.name}: ${(r.measured / 1e6).toFixed(1)} M (target ${(r.target / 1e6).toFixed(0)} M, ×${r.ratio.toFixed(2)})`,
      );
    }
    if (rows.some((r) => !r.pass)) process.exitCode = 1;
  });
}
