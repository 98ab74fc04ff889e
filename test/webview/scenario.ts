/**
 * The known memory image and run the webview tests play: a 64 MiB MEM with a computable pattern and
 * typed test values, four traced steps (real SpaceHistory), PCORE/SPU/SCRATCH pages, a CSR `.csfbin`
 * image, tensor overlays, and one layout model of each kind. Used by the browser harness (to answer
 * the webview) and by the Node tests (to know the expected text).
 */
import { SpaceHistory } from '../../core/sim/history';
import type { Overlay } from '../../core/protocol/webview';
import type { TraceStep } from '../../core/protocol/trace';
import { bufferSpace, machineSpaces, type MachineLike, type SpaceData } from '../../core/inspect/simSource';
import { TTLayout } from '../../core/layout/models/tt';
import { TT_ARCHS } from '../../core/layout/models/ttArch';
import { SpyreLayout } from '../../core/layout/models/spyre';
import { CellLayout } from '../../core/layout/models/cells';
import { SparseLayout } from '../../core/layout/models/sparse';
import { StridedLayout } from '../../core/layout/models/strided';
import type { LayoutModel } from '../../core/layout/model';

export const MEM_BYTES = 64 * 1024 * 1024;
export const FILE = 'examples/demo.tprog';

/** Base pattern of MEM (before stamps and specials). Period 64 KiB. */
export const patternByte = (i: number): number => ((i & 0xffff) * 7 + ((i & 0xffff) >>> 8) * 13 + 1) & 0xff;

/** Bytes written on top of the pattern: offset → bytes. */
export const SPECIALS: [number, number[]][] = [
  // fp16: 1, -2, 65504, 0.33325, NaN, -Inf, 5.96e-8 (min subnormal), -0
  [0x100, [0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b, 0x55, 0x35, 0x00, 0x7e, 0x00, 0xfc, 0x01, 0x00, 0x00, 0x80]],
  // bf16: 1, 3.140625, -Inf, 3.3895e38, 0, -0, 0.1, NaN
  [0x110, [0x80, 0x3f, 0x49, 0x40, 0x80, 0xff, 0x7f, 0x7f, 0x00, 0x00, 0x00, 0x80, 0xcd, 0x3d, 0xc0, 0x7f]],
  // fp32: 1.5, -0.1, 3.4028235e38, 1e-45
  [0x120, [0x00, 0x00, 0xc0, 0x3f, 0xcd, 0xcc, 0xcc, 0xbd, 0xff, 0xff, 0x7f, 0x7f, 0x01, 0x00, 0x00, 0x00]],
  // 12-bit words (LE): 0x0fff → -1, 0x07ff → 2047, 0x0800 → -2048, 0xf005 → 5, 0x0001, 0x1234 → 564, 0x0abc → -1348, 0x0000
  [0x130, [0xff, 0x0f, 0xff, 0x07, 0x00, 0x08, 0x05, 0xf0, 0x01, 0x00, 0x34, 0x12, 0xbc, 0x0a, 0x00, 0x00]],
  [0x140, [...'Tensor Lens! :-)'].map((c) => c.charCodeAt(0))],
  [0x3000120, [0x00, 0x00, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00]],
  [MEM_BYTES - 16, [...'LAST ROW 3FFFFF0'].map((c) => c.charCodeAt(0))],
];

/** Every 4 KiB page of MEM starts with its page number (u32 LE), except where a special sits. */
export function memByte(i: number): number {
  for (const [at, bytes] of SPECIALS) if (i >= at && i < at + bytes.length) return bytes[i - at];
  const inPage = i & 4095;
  if (inPage < 4 && i >= 0x10000) return (Math.floor(i / 4096) >>> (8 * inPage)) & 0xff;
  return patternByte(i);
}

function fillMem(mem: Uint8Array): void {
  const n = Math.min(mem.length, 0x10000);
  for (let i = 0; i < n; i++) mem[i] = patternByte(i);
  for (let len = n; len < mem.length; len *= 2) mem.copyWithin(len, 0, Math.min(len, mem.length - len));
  const dv = new DataView(mem.buffer, mem.byteOffset, mem.byteLength);
  for (let p = 16; p < mem.length / 4096; p++) dv.setUint32(p * 4096, p, true);
  for (const [at, bytes] of SPECIALS) if (at + bytes.length <= mem.length) mem.set(bytes, at);
}

const f32Bytes = (vals: number[]) => new Uint8Array(new Float32Array(vals).buffer);

export const A = { offset: 0x1000, shape: [4, 4] };
export const B = { offset: 0x2000, shape: [16] };
export const X = { offset: 0x3000, length: 16 };
/** PCORE0 private words of core 1, thread 2 (byte offset in the space). */
export const W_OFFSET = 2 * (1 * 4096 + 2 * 256);
export const W_VALUES = [-1, 2047, -2048, 5];

export interface Scenario {
  machine: MachineLike;
  spaces: SpaceData[];
  trace: TraceStep[];
  overlays: Overlay[];
  histories: Map<string, SpaceHistory>;
}

/** Builds the image and runs its four steps. */
export function buildScenario(memBytes = MEM_BYTES): Scenario {
  const mem = new Uint8Array(memBytes);
  fillMem(mem);
  const machine: MachineLike = {
    mem,
    scratch: new Uint8Array(32768),
    pages: [
      { priv: new Int16Array(8 * 4096), shared: new Int16Array(8 * 4096) },
      { priv: new Int16Array(8 * 4096), shared: new Int16Array(8 * 4096) },
    ],
    spu: new Int16Array(4 * 256),
  };
  for (let i = 0; i < machine.scratch.length; i++) machine.scratch[i] = (i * 3) & 0xff;
  for (let i = 0; i < machine.spu.length; i++) machine.spu[i] = ((i * 37) % 4096) - 2048;
  for (let i = 0; i < 64; i++) machine.pages[0].shared[i] = i - 32;
  // B holds 0, 0.5, 1, …
  mem.set(f32Bytes(Array.from({ length: 16 }, (_, i) => i * 0.5)), B.offset);
  const histories = new Map<string, SpaceHistory>([
    ['MEM', new SpaceHistory('MEM', mem)],
    ['SCRATCH', new SpaceHistory('SCRATCH', machine.scratch)],
    ['PCORE0', new SpaceHistory('PCORE0', machine.pages[0].priv)],
    ['PCORE0S', new SpaceHistory('PCORE0S', machine.pages[0].shared)],
    ['PCORE1', new SpaceHistory('PCORE1', machine.pages[1].priv)],
    ['PCORE1S', new SpaceHistory('PCORE1S', machine.pages[1].shared)],
    ['SPU', new SpaceHistory('SPU', machine.spu)],
  ]);
  const trace: TraceStep[] = [];
  const commit = (partial: Omit<TraceStep, 'step' | 'changed' | 'file' | 'column' | 'endLine' | 'process' | 'padded' | 'skipped'>) => {
    const step = trace.length;
    const changed: Record<string, number[]> = {};
    for (const [name, h] of histories) {
      const pages = h.commit(step);
      if (pages.length) changed[name] = pages;
    }
    trace.push({ step, file: FILE, column: 1, endLine: partial.line, process: 0, padded: 0, skipped: 0, changed, ...partial });
  };
  const M = histories.get('MEM')!;
  // step 0: A <= B (64 bytes)
  M.touch(A.offset, A.offset + 63);
  mem.copyWithin(A.offset, B.offset, B.offset + 64);
  commit({
    kind: 'transfer',
    line: 10,
    text: '>A[0:3][0:3] <= B[0:15];',
    elements: 16,
    read: { space: 'MEM', lo: B.offset, hi: B.offset + 63, count: 64 },
    written: { space: 'MEM', lo: A.offset, hi: A.offset + 63, count: 64 },
  });
  // step 1: A[0,1] <= 2.5
  M.touch(A.offset + 4, A.offset + 7);
  mem.set(f32Bytes([2.5]), A.offset + 4);
  commit({ kind: 'transfer', line: 11, text: '>A[0][1] <= 2.5;', elements: 1, written: { space: 'MEM', lo: A.offset + 4, hi: A.offset + 7, count: 4 } });
  // step 2: PCORE0 core 1 thread 2 words 0..3 <= A (reads 8 bytes)
  const P = histories.get('PCORE0')!;
  const w0 = W_OFFSET / 2;
  P.touch(w0, w0 + 3);
  machine.pages[0].priv.set(W_VALUES, w0);
  commit({
    kind: 'transfer',
    line: 12,
    text: '>PCORE(1).thread(2).w[0:3] <= A[0][0:3];',
    elements: 4,
    read: { space: 'MEM', lo: A.offset, hi: A.offset + 7, count: 8 },
    written: { space: 'PCORE0', lo: w0, hi: w0 + 3, count: 4 },
  });
  // step 3: $x <= 0xAA (16 bytes)
  M.touch(X.offset, X.offset + 15);
  mem.fill(0xaa, X.offset, X.offset + 16);
  commit({ kind: 'transfer', line: 13, text: '>$x[0:15] <= 0xAA;', elements: 16, written: { space: 'MEM', lo: X.offset, hi: X.offset + 15, count: 16 } });

  // a small CSR tensor image: entries (u32 index, f32 value) and metadata words
  const entries = [
    [1, 1.5],
    [4, -2],
    [0, 3],
    [2, 0.25],
    [5, 7],
    [3, -1],
  ];
  const main = new Uint8Array(entries.length * 8);
  const dvm = new DataView(main.buffer);
  entries.forEach(([idx, v], i) => {
    dvm.setUint32(8 * i, idx, true);
    dvm.setFloat32(8 * i + 4, v, true);
  });
  const metaWords = [2, 4, 6, 0, 2, 2, 5, 6];
  const meta = new Uint8Array(new Uint32Array(metaWords).buffer);

  const spaces = [
    ...machineSpaces(machine, histories),
    bufferSpace('csf:main', 'main memory (entries)', main, { group: 'sparse.csfbin', unitBytes: 8, defaultType: 'u32' }),
    bufferSpace('csf:meta', 'metadata memory (words)', meta, { group: 'sparse.csfbin', unitBytes: 4, defaultType: 'u32' }),
  ];
  const overlays: Overlay[] = [
    {
      id: 'A',
      name: 'A',
      space: 'MEM',
      offset: A.offset,
      length: 64,
      kind: 'tensor',
      type: 'f32',
      shape: A.shape,
      color: 0,
      detail: 'float32[4][4]',
      decl: { file: FILE, line: 3 },
    },
    { id: 'B', name: 'B', space: 'MEM', offset: B.offset, length: 64, kind: 'tensor', type: 'f32', shape: B.shape, color: 1, detail: 'float32[16]' },
    { id: '$x', name: '$x', space: 'MEM', offset: X.offset, length: 16, kind: 'variable', type: 'u8', shape: [16], color: 2 },
    {
      id: 'C',
      name: 'C',
      space: 'MEM',
      offset: 0x4000,
      length: 24,
      kind: 'tensor',
      type: 'f32',
      shape: [2, 2],
      strides: [4, 1],
      color: 3,
      detail: 'strided view',
    },
    { id: 'w', name: 'w', space: 'PCORE0', offset: W_OFFSET, length: 8, kind: 'variable', type: 'w12', shape: [4], color: 4 },
  ];
  return { machine, spaces, trace, overlays, histories };
}

// ---------------------------------------------------------------------------------------------
// Layout models, one per kind

export const LAYOUT_CASES = ['tt-interleaved', 'tt-height', 'tt-block', 'spyre', 'cells', 'sparse', 'strided', 'big'] as const;
export type LayoutCase = (typeof LAYOUT_CASES)[number];

export function layoutModel(c: LayoutCase): LayoutModel {
  const wh = TT_ARCHS.wormhole_b0;
  switch (c) {
    case 'tt-interleaved':
      return new TTLayout({ arch: wh, shape: [100, 200], dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED' });
    case 'tt-height':
      return new TTLayout({
        arch: wh,
        shape: [100, 64],
        dtype: 'bfloat16',
        layout: 'TILE',
        buffer: 'L1',
        memory: 'HEIGHT_SHARDED',
        shard: [64, 64],
        grid: [{ x0: 0, y0: 0, x1: 1, y1: 0 }],
      });
    case 'tt-block':
      return new TTLayout({
        arch: wh,
        shape: [128, 128],
        dtype: 'bfloat16',
        layout: 'TILE',
        buffer: 'L1',
        memory: 'BLOCK_SHARDED',
        shard: [64, 64],
        grid: [{ x0: 0, y0: 0, x1: 1, y1: 1 }],
      });
    case 'spyre':
      return new SpyreLayout({ shape: [3, 100], dtype: 'float16', layout: { kind: 'default' } });
    case 'cells':
      return new CellLayout({ shape: [3, 5, 11], dtype: 'float16' });
    case 'sparse':
      return new SparseLayout({ placement: { shape: [4, 6], ptr: [0, 2, 2, 5, 6], index: [1, 4, 0, 2, 5, 3], mainBase: 0, metaBase: 0 } });
    case 'strided':
      return new StridedLayout({ shape: [4, 5], dtype: 'float32', strides: [8, 1] });
    case 'big':
      // 2^26 elements: 65,536 tiles over 12 DRAM banks
      return new TTLayout({ arch: wh, shape: [8192, 8192], dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED' });
  }
}
