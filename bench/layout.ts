/**
 * Layout-engine benchmarks: batch mapping (`forwardMany`, M coordinates/s) per model and the closed-form
 * summary of a 2^30-element tensor per model.
 * Run standalone with `npx tsx bench/layout.ts`; `benchLayout()` returns the rows for a combined report.
 * `ratio` ≥ 1 means the target is met (measured/target for rates, target/measured for times).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HoverRequest } from 'vscode-languageserver-protocol/node';
import type { LayoutModel } from '../core/layout/model';
import { CellLayout } from '../core/layout/models/cells';
import { SparseLayout } from '../core/layout/models/sparse';
import { SpyreLayout } from '../core/layout/models/spyre';
import { StridedLayout } from '../core/layout/models/strided';
import { TTLayout } from '../core/layout/models/tt';
import { TT_ARCHS, withOverrides } from '../core/layout/models/ttArch';
import { LspClient, ROOT, SERVER_JS } from '../test/lsp/lspClient';
import { runIfMain, type Row } from './rows';

export type { Row } from './rows';

const RATE_TARGET = 50e6;
const SUMMARY_TARGET_MS = 50;
const N = 1_000_000;

/** A deterministic xorshift generator. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

function randomCoords(shape: readonly number[], n: number, seed = 7): Int32Array {
  const r = rng(seed);
  const out = new Int32Array(n * shape.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.floor(r() * shape[i % shape.length]);
  return out;
}

/** Best of a few timed runs of `forwardMany` over N random coordinates. */
function rate(m: LayoutModel): { perSec: number; ms: number } {
  const coords = randomCoords(m.shape, N);
  const out = new Float64Array(N);
  const units = new Int32Array(N);
  m.forwardMany(coords, out, units); // warm up (the JIT optimises the loop during the first passes)
  m.forwardMany(coords, out, units);
  let best = Infinity;
  for (let k = 0; k < 20; k++) {
    const t0 = performance.now();
    m.forwardMany(coords, out, units);
    best = Math.min(best, performance.now() - t0);
  }
  // spot check against forward
  for (let i = 0; i < 1000; i++) {
    const c = Array.from(coords.subarray(i * m.shape.length, (i + 1) * m.shape.length));
    const a = m.forward(c).address;
    if (!(a === out[i] || (Number.isNaN(a) && Number.isNaN(out[i])))) throw new Error(`${m.kind}: forwardMany disagrees with forward at ${c}`);
  }
  return { perSec: N / (best / 1000), ms: best };
}

function summaryTime(make: () => LayoutModel): { ms: number; elements: number } {
  const m = make();
  m.summary();
  let best = Infinity;
  let elements = 0;
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    elements = m.summary().elements;
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: best, elements };
}

/** The machine's speed for this kind of loop: a 3-term linear map written out by hand (no model). */
function reference(): number {
  const shape = [512, 256, 64];
  const coords = randomCoords(shape, N, 11);
  const out = new Float64Array(N);
  const run = () => {
    for (let i = 0, k = 0; i < N; i++, k += 3) {
      const a = coords[k];
      const b = coords[k + 1];
      const c = coords[k + 2];
      out[i] = a >>> 0 < 512 && b >>> 0 < 256 && c >>> 0 < 64 ? a * 128 + b * 65536 + c * 2 : NaN;
    }
  };
  run();
  run();
  let best = Infinity;
  for (let k = 0; k < 20; k++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return N / (best / 1000);
}

export async function benchLayout(): Promise<Row[]> {
  const rows: Row[] = [];
  const ref = reference();
  rows.push({
    name: 'reference: hand-written 3-term linear loop (machine speed, not a model)',
    target: 'information',
    measured: `${(ref / 1e6).toFixed(1)} M/s`,
    ratio: ref / RATE_TARGET,
    pass: true,
  });
  const WH = TT_ARCHS.wormhole_b0;
  const bigL1 = withOverrides(WH, { l1_size: 2 ** 40 });
  const mapped: [string, () => LayoutModel][] = [
    ['strided (permuted, offset)', () => new StridedLayout({ shape: [512, 256, 64], strides: [64, 32768, 1], offset: 5, dtype: 'float16' })],
    [
      'spyre dim_map tiled [128,256,512]',
      () => new SpyreLayout({ shape: [128, 256, 512], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [256, 8, 128, 64], dimMap: [1, 2, 0, 2] } }),
    ],
    ['spyre default [1024,1000]', () => new SpyreLayout({ shape: [1024, 1000], dtype: 'float16', layout: { kind: 'default' } })],
    [
      'tt tile interleaved DRAM',
      () => new TTLayout({ arch: WH, shape: [8, 1024, 1000], dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED' }),
    ],
    [
      'tt row-major interleaved L1',
      () => new TTLayout({ arch: WH, shape: [4096, 1000], dtype: 'bfloat16', layout: 'ROW_MAJOR', buffer: 'L1', memory: 'INTERLEAVED' }),
    ],
    [
      'tt tile ND-sharded round-robin',
      () =>
        new TTLayout({
          arch: bigL1,
          shape: [8, 1024, 1024],
          dtype: 'bfloat16',
          layout: 'TILE',
          buffer: 'L1',
          memory: 'ND_SHARDED',
          shard: [2, 256, 256],
          grid: [{ x0: 0, y0: 0, x1: 7, y1: 0 }],
        }),
    ],
    [
      'tt bfloat8_b interleaved',
      () => new TTLayout({ arch: WH, shape: [4096, 1000], dtype: 'bfloat8_b', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED' }),
    ],
    [
      'tt tile block-sharded 8×8',
      () =>
        new TTLayout({
          arch: bigL1,
          shape: [4096, 4096],
          dtype: 'bfloat16',
          layout: 'TILE',
          buffer: 'L1',
          memory: 'BLOCK_SHARDED',
          shard: [512, 512],
          grid: [{ x0: 0, y0: 0, x1: 7, y1: 7 }],
        }),
    ],
    ['16-byte cells int8 (A,B,C)', () => new CellLayout({ shape: [64, 256, 100], dtype: 'int8' })],
    [
      'fibered sparse (occupancy bitmap)',
      () => {
        const F = 4096;
        const K = 4096;
        const ptr = new Int32Array(F + 1);
        const index: number[] = [];
        const r = rng(3);
        for (let f = 0; f < F; f++) {
          ptr[f] = index.length;
          for (let k = 0; k < K; k += 1 + Math.floor(r() * 8)) index.push(k);
        }
        ptr[F] = index.length;
        return new SparseLayout({
          placement: { shape: [F, K], ptr, index: Int32Array.from(index), mainBase: 0, metaBase: 0 },
          mainCapacity: 2 ** 31,
          metaCapacity: 2 ** 31,
        });
      },
    ],
  ];
  for (const [name, make] of mapped) {
    const m = make();
    const r = rate(m);
    rows.push({
      name: `forwardMany ${name}`,
      target: '≥ 50 M coords/s',
      measured: `${(r.perSec / 1e6).toFixed(1)} M/s`,
      ratio: r.perSec / RATE_TARGET,
      pass: r.perSec >= RATE_TARGET,
    });
  }
  const G = 2 ** 30;
  const summaries: [string, () => LayoutModel][] = [
    ['strided', () => new StridedLayout({ shape: [1024, 1024, 1024], strides: [1, 1024, 1048576], dtype: 'float32' })],
    ['spyre default', () => new SpyreLayout({ shape: [1024, 1024, 1024], dtype: 'float16', layout: { kind: 'default' } })],
    [
      'spyre stride_map (a tiling)',
      () =>
        new SpyreLayout({
          shape: [1024, 1024, 1024],
          dtype: 'float16',
          layout: { kind: 'stride_map', deviceSize: [1024, 16, 1024, 64], strideMap: [1024, 64, 1048576, 1] },
        }),
    ],
    ['tt tile interleaved', () => new TTLayout({ arch: WH, shape: [32768, 32768], dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED' })],
    [
      'tt bfloat4_b interleaved',
      () => new TTLayout({ arch: WH, shape: [32768, 32768], dtype: 'bfloat4_b', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED' }),
    ],
    [
      'tt height-sharded 64 cores',
      () =>
        new TTLayout({
          arch: bigL1,
          shape: [32768, 32768],
          dtype: 'bfloat16',
          layout: 'TILE',
          buffer: 'L1',
          memory: 'HEIGHT_SHARDED',
          shard: [512, 32768],
          grid: [{ x0: 0, y0: 0, x1: 7, y1: 7 }],
        }),
    ],
    [
      'tt ND-sharded (32768 shards)',
      () =>
        new TTLayout({
          arch: bigL1,
          shape: [1024, 1024, 1024],
          dtype: 'bfloat16',
          layout: 'TILE',
          buffer: 'L1',
          memory: 'ND_SHARDED',
          shard: [32, 32, 1024],
          grid: [{ x0: 0, y0: 0, x1: 7, y1: 7 }],
        }),
    ],
    ['16-byte cells', () => new CellLayout({ shape: [1024, 1024, 1024], dtype: 'int8' })],
    [
      'fibered sparse (empty)',
      () => new SparseLayout({ placement: { shape: [32768, 32768], ptr: new Int32Array(32769), index: [], mainBase: 0, metaBase: 0 }, metaCapacity: 2 ** 31 }),
    ],
  ];
  for (const [name, make] of summaries) {
    const s = summaryTime(make);
    if (s.elements !== G) throw new Error(`${name}: ${s.elements} elements`);
    rows.push({
      name: `summary of 2^30 elements, ${name}`,
      target: `< ${SUMMARY_TARGET_MS} ms`,
      measured: `${s.ms.toFixed(2)} ms`,
      ratio: SUMMARY_TARGET_MS / Math.max(s.ms, 1e-3),
      pass: s.ms < SUMMARY_TARGET_MS,
    });
  }
  rows.push(...(await probeHoverOverLsp()));
  return rows;
}

const HOVER_TARGET_MS = 5;

/**
 * Hover on every probe coordinate of the example specs through the real language server over stdio
 * (needs `npm run build`): the p95 of the request round trips after the first check of each file.
 */
async function probeHoverOverLsp(): Promise<Row[]> {
  if (!existsSync(SERVER_JS))
    return [
      { name: 'hover on a probe over LSP (p95)', target: `< ${HOVER_TARGET_MS} ms`, measured: 'skipped: run npm run build first', ratio: 0, pass: false },
    ];
  const c = await LspClient.start();
  try {
    const times: number[] = [];
    let answered = 0;
    for (const f of ['spyre', 'tenstorrent', 'cells', 'strided', 'sparse']) {
      const path = join(ROOT, 'examples', 'layouts', `${f}.tlayout`);
      const text = readFileSync(path, 'utf8');
      const uri = await c.open(path, 'tensor-layout', text);
      await c.diagnostics(uri);
      const probes = text.split('\n').flatMap((l, line) => (/^probe \w+\[/.test(l) ? [{ line, character: l.indexOf('[') + 1 }] : []));
      for (let round = 0; round < 40; round++)
        for (const position of probes) {
          const t0 = performance.now();
          const h = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
          times.push(performance.now() - t0);
          if (h) answered++;
        }
    }
    times.sort((a, b) => a - b);
    const p95 = times[Math.min(times.length - 1, Math.floor(times.length * 0.95))];
    return [
      {
        name: `hover on a probe over LSP, ${times.length} requests (${answered} answered), p95`,
        target: `< ${HOVER_TARGET_MS} ms`,
        measured: `${p95.toFixed(2)} ms`,
        ratio: HOVER_TARGET_MS / Math.max(p95, 1e-3),
        pass: p95 < HOVER_TARGET_MS && answered === times.length,
      },
    ];
  } finally {
    await c.shutdown();
  }
}

runIfMain(import.meta.url, benchLayout);
