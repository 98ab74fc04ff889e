/**
 * 16-byte cells (research formats.md part B: B.2 encodings, B.3 formula, B.4–B.7 worked examples,
 * the seed document's (2,4,18) int8 table), PyTorch strided views and fibered sparse placements
 * (formats.md A.8.5–A.8.6).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CellLayout, fromHalfBits, toHalfBits, validateCells } from '../../core/layout/models/cells';
import { canonicalForm, coalesce, StridedLayout, validateStrided } from '../../core/layout/models/strided';
import { SparseLayout, validateSparse } from '../../core/layout/models/sparse';

const hexBytes = (b: Uint8Array, from = 0, to = b.length) => [...b.slice(from, to)].map((x) => x.toString(16).padStart(2, '0')).join(' ');
const cellLines = (b: Uint8Array) => Array.from({ length: b.length / 16 }, (_, i) => hexBytes(b, 16 * i, 16 * i + 16));

test('B.4 / seed 001 — int8 (A,B,C) = (2,4,18): 2 cells per (a,b) row, 16 cells, 256 bytes', () => {
  const c = new CellLayout({ shape: [2, 4, 18], names: ['A', 'B', 'C'], dtype: 'int8' });
  assert.deepEqual([c.E, c.R, c.rows, c.totalCells], [16, 2, 8, 16]);
  const s = c.summary();
  assert.equal(s.bytes, 256);
  assert.equal(s.breakdown.element, 8 * 18);
  assert.equal(s.breakdown.padding, 8 * 14);
  const oracles: [number[], number, number, number][] = [
    [[0, 0, 0], 0, 0, 0],
    [[0, 0, 15], 0, 15, 15],
    [[0, 0, 16], 1, 0, 16],
    [[0, 0, 17], 1, 1, 17],
    [[0, 1, 0], 2, 0, 32],
    [[0, 3, 17], 7, 1, 113],
    [[1, 0, 0], 8, 0, 128],
    [[1, 2, 17], 13, 1, 209],
    [[1, 3, 17], 15, 1, 241],
  ];
  for (const [coord, cell, byte, flat] of oracles) {
    const f = c.forward(coord);
    assert.deepEqual([f.cell, f.byte, f.address], [cell, byte, flat], `${coord}`);
    assert.deepEqual(c.inverse(flat).coord, coord);
  }
  // the seed's picture: every (a,b) row is "0 1 2 … 15" then "16 17 0 0 … 0" (element indices, zero padding)
  for (let row = 0; row < 8; row++) {
    const first = Array.from({ length: 16 }, (_, k) => c.inverse(32 * row + k).coord?.[2]);
    const second = Array.from({ length: 16 }, (_, k) => {
      const r = c.inverse(32 * row + 16 + k);
      return r.kind === 'padding' ? 0 : r.coord![2];
    });
    assert.deepEqual(first, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    assert.deepEqual(second, [16, 17, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(c.inverse(32 * row).coord?.slice(0, 2), [Math.floor(row / 4), row % 4]);
  }
  // the full image with v = c+1+32·b (a = 0) and −(c+1+32·b) (a = 1)
  const values: number[] = [];
  for (let a = 0; a < 2; a++) for (let b = 0; b < 4; b++) for (let k = 0; k < 18; k++) values.push((a ? -1 : 1) * (k + 1 + 32 * b));
  const img = c.pack(values);
  assert.deepEqual(cellLines(img), [
    '01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10',
    '11 12 00 00 00 00 00 00 00 00 00 00 00 00 00 00',
    '21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e 2f 30',
    '31 32 00 00 00 00 00 00 00 00 00 00 00 00 00 00',
    '41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50',
    '51 52 00 00 00 00 00 00 00 00 00 00 00 00 00 00',
    '61 62 63 64 65 66 67 68 69 6a 6b 6c 6d 6e 6f 70',
    '71 72 00 00 00 00 00 00 00 00 00 00 00 00 00 00',
    'ff fe fd fc fb fa f9 f8 f7 f6 f5 f4 f3 f2 f1 f0',
    'ef ee 00 00 00 00 00 00 00 00 00 00 00 00 00 00',
    'df de dd dc db da d9 d8 d7 d6 d5 d4 d3 d2 d1 d0',
    'cf ce 00 00 00 00 00 00 00 00 00 00 00 00 00 00',
    'bf be bd bc bb ba b9 b8 b7 b6 b5 b4 b3 b2 b1 b0',
    'af ae 00 00 00 00 00 00 00 00 00 00 00 00 00 00',
    '9f 9e 9d 9c 9b 9a 99 98 97 96 95 94 93 92 91 90',
    '8f 8e 00 00 00 00 00 00 00 00 00 00 00 00 00 00',
  ]);
  assert.deepEqual(c.unpack(img, true), values);
  const dirty = img.slice();
  dirty[20] = 1;
  assert.throws(() => c.unpack(dirty, true), /non-zero padding/);
});

test('B.5 — fp16 (2,10): 4 cells, image and oracles', () => {
  const c = new CellLayout({ shape: [2, 10], dtype: 'float16' });
  assert.deepEqual([c.E, c.R, c.totalCells], [8, 2, 4]);
  for (const [coord, cell, byte, flat] of [
    [[0, 0], 0, 0, 0],
    [[0, 7], 0, 14, 14],
    [[0, 8], 1, 0, 16],
    [[0, 9], 1, 2, 18],
    [[1, 0], 2, 0, 32],
    [[1, 9], 3, 2, 50],
  ] as [number[], number, number, number][]) {
    const f = c.forward(coord);
    assert.deepEqual([f.cell, f.byte, f.address], [cell, byte, flat]);
  }
  const values = [...Array.from({ length: 10 }, (_, i) => i), ...Array.from({ length: 10 }, (_, i) => -10.5 - i)];
  assert.deepEqual(cellLines(c.pack(values)), [
    '00 00 00 3c 00 40 00 42 00 44 00 45 00 46 00 47',
    '00 48 80 48 00 00 00 00 00 00 00 00 00 00 00 00',
    '40 c9 c0 c9 40 ca c0 ca 40 cb c0 cb 20 cc 60 cc',
    'a0 cc e0 cc 00 00 00 00 00 00 00 00 00 00 00 00',
  ]);
  assert.equal(new CellLayout({ shape: [2, 10], dtype: 'int16' }).totalCells, 4, 'int16 has the fp16 geometry');
});

test('B.6 — fp32 (3,5): 6 cells, image (IEEE binary32 little-endian) and oracles', () => {
  const c = new CellLayout({ shape: [3, 5], dtype: 'float32' });
  assert.deepEqual([c.E, c.R, c.totalCells], [4, 2, 6]);
  for (const [coord, cell, byte, flat] of [
    [[0, 3], 0, 12, 12],
    [[0, 4], 1, 0, 16],
    [[1, 4], 3, 0, 48],
    [[2, 4], 5, 0, 80],
  ] as [number[], number, number, number][]) {
    const f = c.forward(coord);
    assert.deepEqual([f.cell, f.byte, f.address], [cell, byte, flat]);
  }
  const values = [1.0, -2.0, 0.5, Math.PI, 2 ** -149, 0.1, -0, 65504, 2 ** -126, 1 / 3, Infinity, -1, 100, -0.5, 7];
  assert.deepEqual(cellLines(c.pack(values)), [
    '00 00 80 3f 00 00 00 c0 00 00 00 3f db 0f 49 40',
    '01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00',
    'cd cc cc 3d 00 00 00 80 00 e0 7f 47 00 00 80 00',
    'ab aa aa 3e 00 00 00 00 00 00 00 00 00 00 00 00',
    '00 00 80 7f 00 00 80 bf 00 00 c8 42 00 00 00 bf',
    '00 00 e0 40 00 00 00 00 00 00 00 00 00 00 00 00',
  ]);
  // byte k of an element is its k-th least significant byte
  assert.equal(c.inverse(3).byteInElement, 3);
  assert.deepEqual(c.forward([0, 1]).bits, [63, 32]);
});

test('B.2 — reference encodings (no bit mirroring)', () => {
  const one = new CellLayout({ shape: [1], dtype: 'float32' }).pack([1.0]);
  assert.equal(hexBytes(one, 0, 4), '00 00 80 3f');
  const f32 = new CellLayout({ shape: [3], dtype: 'float32' }).pack([-2.0, 0.15625, Math.PI]);
  assert.equal(hexBytes(f32, 0, 12), '00 00 00 c0 00 00 20 3e db 0f 49 40');
  const f16 = new CellLayout({ shape: [3], dtype: 'float16' }).pack([1.0, -2.0, 65504]);
  assert.equal(hexBytes(f16, 0, 6), '00 3c 00 c0 ff 7b');
  for (const v of [0, 1, -2, 0.5, 65504, 2 ** -24, -0.333251953125]) assert.equal(fromHalfBits(toHalfBits(v)), v);
  assert.equal(toHalfBits(1e6), 0x7c00);
});

test('B.7 — 4-D fp32 (N,C,H,W) = (1,2,2,3) and 1-D int16 (11)', () => {
  const c = new CellLayout({ shape: [1, 2, 2, 3], names: ['N', 'C', 'H', 'W'], dtype: 'float32' });
  assert.equal(c.totalCells, 4);
  for (const [coord, cell, byte, flat] of [
    [[0, 0, 0, 0], 0, 0, 0],
    [[0, 0, 0, 2], 0, 8, 8],
    [[0, 0, 1, 0], 1, 0, 16],
    [[0, 1, 0, 0], 2, 0, 32],
    [[0, 1, 1, 2], 3, 8, 56],
  ] as [number[], number, number, number][]) {
    const f = c.forward(coord);
    assert.deepEqual([f.cell, f.byte, f.address], [cell, byte, flat]);
  }
  const d = new CellLayout({ shape: [11], dtype: 'int16' });
  assert.deepEqual([d.rows, d.R], [1, 2]);
  assert.deepEqual(
    [0, 7, 8, 10].map((i) => d.forward([i]).address),
    [0, 14, 16, 20],
  );
  for (let b = 22; b < 32; b++) assert.equal(d.inverse(b).kind, 'padding');
  // a storage order other than the written one: NCHW declared, NHWC stored
  const nhwc = new CellLayout({ shape: [1, 3, 2, 2], names: ['N', 'C', 'H', 'W'], dtype: 'int8', order: [0, 2, 3, 1] });
  assert.deepEqual(nhwc.storageShape, [1, 2, 2, 3]);
  assert.equal(nhwc.forward([0, 2, 1, 0]).cell, 2);
  assert.deepEqual(nhwc.inverse(nhwc.forward([0, 2, 1, 1]).address).coord, [0, 2, 1, 1]);
  // base on a cell boundary; (3,16) needs no padding
  assert.equal(new CellLayout({ shape: [3, 16], dtype: 'int8', base: 0x40 }).forward([1, 0]).cell, 5);
  assert.equal(new CellLayout({ shape: [3, 16], dtype: 'int8' }).summary().breakdown.padding, 0);
});

test('B.8 — rules: rank 1..4, documented types, cell-aligned base, storage order', () => {
  const codes = (s: Parameters<typeof validateCells>[0]) => validateCells(s).map((i) => i.code);
  assert.ok(codes({ shape: [1, 1, 1, 1, 2], dtype: 'int8' }).includes('CELL001'));
  assert.ok(!codes({ shape: [1, 1, 1, 1, 2], dtype: 'int8', relaxRank: true }).includes('CELL001'));
  assert.ok(codes({ shape: [4], dtype: 'bfloat16' }).includes('CELL002'));
  assert.ok(codes({ shape: [4], dtype: 'int8', base: 8 }).includes('CELL003'));
  assert.ok(codes({ shape: [4], dtype: 'float32', cellBytes: 6 }).includes('CELL004'));
  assert.ok(codes({ shape: [4, 4], dtype: 'int8', order: [0, 0] }).includes('CELL005'));
  assert.ok(codes({ shape: [4, 1], dtype: 'int8' }).includes('CELL006'));
  assert.equal(validateCells({ shape: [4], dtype: 'int8', base: 8 })[0].fixes?.[0].newText, '0x10');
});

test('PyTorch strided: forward, inverse, canonical and coalesced forms, overlap', () => {
  const t = new StridedLayout({ shape: [4, 5], strides: [1, 4], dtype: 'float32', base: 0x100 });
  const f = t.forward([2, 3]);
  assert.deepEqual([f.element, f.byteOffset, f.address], [14, 56, 0x100 + 56]);
  assert.deepEqual(t.inverse(0x100 + 56).coord, [2, 3]);
  assert.equal(t.isContiguous(), false);
  const v = new StridedLayout({ shape: [512, 1, 256], strides: [256, 256, 1], dtype: 'float16' });
  assert.deepEqual(v.canonical(), { sizes: [512, 256], strides: [256, 1] });
  assert.deepEqual(coalesce([512, 1, 256], [256, 256, 1]), { sizes: [131072], strides: [1] });
  assert.ok(v.isContiguous());
  // a column slice with a gap: offset 1, strides [10, 1], shape [3, 4] inside a 3×10 storage
  const g = new StridedLayout({ shape: [3, 4], strides: [10, 1], offset: 1, dtype: 'int8', storage: 30 });
  const s = g.summary();
  assert.equal(s.bytes, 30);
  assert.equal(s.breakdown.element, 12);
  assert.equal(s.breakdown.gap, 18);
  assert.equal(g.inverse(0).kind, 'gap');
  assert.equal(g.inverse(5).kind, 'gap');
  assert.deepEqual(g.inverse(12).coord, [1, 1]);
  // broadcast (stride 0) views overlap
  assert.ok(validateStrided({ shape: [4, 3], strides: [0, 1], dtype: 'float32' }).some((i) => i.code === 'PT005'));
  assert.equal(new StridedLayout({ shape: [4, 3], strides: [0, 1], dtype: 'float32' }).summary().breakdown.element, 12);
  assert.ok(validateStrided({ shape: [4, 3], strides: [1], dtype: 'float32' }).some((i) => i.code === 'PT001'));
  assert.ok(validateStrided({ shape: [4, 3], strides: [3, -1], dtype: 'float32' }).some((i) => i.code === 'PT002'));
  assert.ok(validateStrided({ shape: [4, 3], dtype: 'float32', storage: 5 }).some((i) => i.code === 'PT004'));
  assert.deepEqual(canonicalForm([1, 1], [1, 1]), { sizes: [], strides: [] });
});

test('fibered sparse: A.8.5 load of A then B, A.8.6 dense result C', () => {
  const A = new SparseLayout({ placement: { shape: [2, 3], ptr: [0, 1, 3], index: [1, 0, 2], mainBase: 0, metaBase: 0 } });
  const Bt = new SparseLayout({ placement: { shape: [2, 3], ptr: [0, 0, 2], index: [0, 2], mainBase: 3, metaBase: 6 } });
  // A, row 1: pointer word 4, entries [1, 3)
  const a = A.forward([1, 2]);
  assert.deepEqual([a.fiber, a.pointerWord, a.fiberStart, a.fiberEnd, a.entry, a.address, a.valueAddress], [1, 4, 1, 3, 2, 16, 20]);
  assert.equal(A.forward([0, 0]).stored, false);
  assert.ok(Number.isNaN(A.forward([0, 0]).address));
  // B, row 0: word 9, empty; row 1: word 10, entries [3, 5)
  const b0 = Bt.forward([0, 1]);
  assert.deepEqual([b0.pointerWord, b0.fiberStart, b0.fiberEnd, b0.stored], [9, 3, 3, false]);
  const b1 = Bt.forward([1, 2]);
  assert.deepEqual([b1.pointerWord, b1.fiberStart, b1.fiberEnd, b1.entry], [10, 3, 5, 4]);
  assert.deepEqual(Bt.inverse(3 * 8, 0).coord, [1, 0]);
  assert.deepEqual(Bt.inverse(4 * 8 + 5, 0).coord, [1, 2]);
  assert.equal(Bt.inverse(2 * 8, 0).kind, 'outside');
  assert.match(Bt.inverse(9 * 4, 1).reason!, /pointer of fiber 0/);
  assert.match(Bt.inverse(11 * 4, 1).reason!, /end pointer → main 5/);
  assert.match(A.inverse(0, 1).reason!, /order/);
  // placements do not overlap
  const [am, at] = A.placements();
  const [bm, bt] = Bt.placements();
  assert.ok(am.end <= bm.start && at.end <= bt.start);
  // C = A·Bᵀ dense at main 5, meta 12: C[1,1] goes to entry meta[16] + 1 = 8
  const C = new SparseLayout({ placement: { shape: [2, 2], ptr: [0, 2, 4], index: [0, 1, 0, 1], mainBase: 5, metaBase: 12 } });
  assert.equal(C.forward([1, 1]).entry, 8);
  assert.equal(C.forward([1, 1]).pointerWord, 16);
  assert.deepEqual(C.summary().breakdown.metadata, 6 * 4);
  // validation
  const codes = (p: Parameters<typeof validateSparse>[0]['placement']) => validateSparse({ placement: p }).map((i) => i.code);
  assert.ok(codes({ shape: [2, 3], ptr: [0, 1], index: [1], mainBase: 0, metaBase: 0 }).includes('CSF002'));
  assert.ok(codes({ shape: [2, 3], ptr: [1, 1, 3], index: [1, 0, 2], mainBase: 0, metaBase: 0 }).includes('CSF003'));
  assert.ok(codes({ shape: [2, 3], ptr: [0, 4, 3], index: [1, 0, 2], mainBase: 0, metaBase: 0 }).includes('CSF003'));
  assert.ok(codes({ shape: [2, 3], ptr: [0, 1, 2], index: [1, 0, 2], mainBase: 0, metaBase: 0 }).includes('CSF004'));
  assert.ok(codes({ shape: [2, 3], ptr: [0, 1, 3], index: [1, 0, 3], mainBase: 0, metaBase: 0 }).includes('CSF005'));
  assert.ok(codes({ shape: [2, 3], ptr: [0, 1, 3], index: [1, 2, 0], mainBase: 0, metaBase: 0 }).includes('CSF005'));
  assert.ok(codes({ shape: [2, 3], ptr: [0, 1, 3], index: [1, 0, 2], mainBase: 0, metaBase: 1020 }).includes('CSF006'));
});
