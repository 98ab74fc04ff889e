/**
 * 16-byte Core Memory cells: the batch mapping (`forwardMany`, its table path and its loop past the table limit),
 * inverse, regions, placements, summary and the rule codes, against addresses computed here by hand: an innermost row
 * of n elements of s bytes takes R = ⌈n·s / 16⌉ cells, element j of row q sits at cell q·R + ⌊j / E⌋ (E = 16 / s),
 * byte (j mod E)·s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CellLayout, type CellSpec, validateCells } from '../../core/layout/models/cells';

/** Every coordinate of `shape`, row-major. */
function allCoords(shape: number[]): number[][] {
  let out: number[][] = [[]];
  for (const n of shape) out = out.flatMap((c) => Array.from({ length: n }, (_, i) => [...c, i]));
  return out;
}

function batch(m: CellLayout, coords: number[][]): Float64Array {
  return m.forwardMany(Int32Array.from(coords.flat()));
}

test('int16 (3, 10) at 0x20: 2 cells per row, address = 32 + (row·2 + ⌊c/8⌋)·16 + (c mod 8)·2', () => {
  const m = new CellLayout({ shape: [3, 10], dtype: 'int16', base: 32 });
  assert.deepEqual([m.E, m.R, m.rows, m.totalCells, m.baseCell], [8, 2, 3, 6, 2]);
  const coords = allCoords([3, 10]);
  const want = coords.map(([r, c]) => 32 + (r * 2 + (c >> 3)) * 16 + (c % 8) * 2);
  assert.deepEqual([...batch(m, coords)], want);
  for (let i = 0; i < coords.length; i++) assert.equal(m.forward(coords[i]).address, want[i]);
  const f = m.forward([1, 9]);
  assert.deepEqual([f.row, f.cell, f.byte, f.bits, f.storage], [1, 2 + 3, 2, [31, 16], [1, 9]]);
  // outside: NaN
  const bad = batch(m, [
    [3, 0],
    [0, 10],
    [-1, 0],
    [0, -1],
    [2, 9],
  ]);
  assert.deepEqual([...bad.slice(0, 4)].map(Number.isNaN), [true, true, true, true]);
  assert.equal(bad[4], 32 + 5 * 16 + 2);
  // into a given buffer
  const out = new Float64Array(30);
  assert.equal(m.forwardMany(Int32Array.from(coords.flat()), out), out);
  assert.deepEqual([...out], want);
});

test('inverse of int16 (3, 10) at 0x20: elements, the byte inside an element, padding, outside', () => {
  const m = new CellLayout({ shape: [3, 10], dtype: 'int16', base: 32 });
  const el = m.inverse(50);
  assert.deepEqual([el.kind, el.coord, el.byteInElement], ['element', [0, 9], 0]);
  assert.deepEqual([m.inverse(51).coord, m.inverse(51).byteInElement], [[0, 9], 1]);
  assert.deepEqual([m.inverse(115).coord, m.inverse(115).byteInElement], [[2, 9], 1]);
  assert.deepEqual(m.inverse(32).coord, [0, 0]);
  assert.deepEqual(m.inverse(48).coord, [0, 8]);
  assert.deepEqual(m.inverse(64).coord, [1, 0]);
  assert.equal(m.inverse(52).kind, 'padding');
  assert.equal(m.inverse(127).kind, 'padding');
  assert.equal(m.inverse(31).kind, 'outside');
  assert.equal(m.inverse(128).kind, 'outside');
  assert.equal(m.inverse(40.5).kind, 'outside');
});

test('storage order: int8 (4, 3) stored as (3, 4) — each cell holds one logical column', () => {
  const m = new CellLayout({ shape: [4, 3], dtype: 'int8', order: [1, 0], base: 0x100 });
  assert.deepEqual([m.E, m.R, m.rows, m.totalCells], [16, 1, 3, 3]);
  const coords = allCoords([4, 3]);
  const want = coords.map(([a, b]) => 0x100 + b * 16 + a);
  assert.deepEqual([...batch(m, coords)], want);
  assert.deepEqual(m.forward([2, 1]).storage, [1, 2]);
  assert.deepEqual(m.inverse(0x100 + 16 + 3).coord, [3, 1]);
  assert.equal(m.inverse(0x100 + 16 + 4).kind, 'padding');
  const reg = m.regions();
  assert.equal(reg.slotBytes, 16);
  assert.equal(reg.units[0].slots, 3);
  const s1 = reg.slot(0, 1);
  assert.deepEqual([s1.kind, s1.index, s1.elements, s1.first], ['partial', 0x10 + 1, 4, [0, 1]]);
});

test('int32 (2, 3, 5) in 8-byte cells: 2 elements per cell, 3 cells per row', () => {
  const m = new CellLayout({ shape: [2, 3, 5], dtype: 'int32', cellBytes: 8 });
  assert.deepEqual([m.E, m.R, m.rows, m.totalCells], [2, 3, 6, 18]);
  const coords = allCoords([2, 3, 5]);
  assert.deepEqual(
    [...batch(m, coords)],
    coords.map(([a, b, c]) => ((a * 3 + b) * 3 + (c >> 1)) * 8 + (c % 2) * 4),
  );
  const s = m.summary();
  assert.deepEqual(
    [s.elements, s.slots, s.paddingSlots, s.bytes, s.breakdown.element, s.breakdown.padding, s.blocks?.count, s.blocks?.bytes],
    [30, 36, 6, 144, 120, 24, 18, 8],
  );
  assert.equal(s.paddingPercent, (100 * 24) / 144);
  // a 3-D storage order (c, a, b): rows are (c, a) pairs, b innermost (3 int32 → 2 cells of 8 B)
  const p = new CellLayout({ shape: [2, 3, 5], dtype: 'int32', cellBytes: 8, order: [2, 0, 1] });
  assert.deepEqual([p.R, p.rows], [2, 10]);
  assert.deepEqual(
    [...batch(p, coords)],
    coords.map(([a, b, c]) => ((c * 2 + a) * 2 + (b >> 1)) * 8 + (b % 2) * 4),
  );
});

test('past the table limit (2 × 2^21 int8): the loop gives the same addresses, NaN outside', () => {
  const n = 2 ** 21 + 5;
  const m = new CellLayout({ shape: [2, n], dtype: 'int8', base: 16 });
  const R = Math.ceil(n / 16);
  const coords = [
    [0, 0],
    [0, 17],
    [1, 0],
    [1, n - 1],
    [0, n],
    [2, 0],
    [-1, 3],
    [1, -1],
  ];
  const got = batch(m, coords);
  assert.deepEqual([...got.slice(0, 4)], [16, 16 + 17, 16 + R * 16, 16 + (R + ((n - 1) >> 4)) * 16 + ((n - 1) % 16)]);
  assert.deepEqual([...got.slice(4)].map(Number.isNaN), [true, true, true, true]);
  // storage order swapped, past the limit too: (n, 2) stored as (2, n)
  const t = new CellLayout({ shape: [n, 2], dtype: 'int16', order: [1, 0] });
  const R2 = Math.ceil((n * 2) / 16);
  assert.deepEqual(
    [
      ...batch(t, [
        [9, 1],
        [n - 1, 0],
      ]),
    ],
    [R2 * 16 + 1 * 16 + 1 * 2, ((n - 1) >> 3) * 16 + ((n - 1) % 8) * 2],
  );
});

test('regions and placements of int16 (3, 10) at 0x20: a full cell then a partial one per row', () => {
  const m = new CellLayout({ shape: [3, 10], dtype: 'int16', base: 32, capacity: 4096 });
  const reg = m.regions();
  assert.deepEqual([reg.kind, reg.slotName, reg.slotBytes, reg.units.length, reg.units[0].base, reg.units[0].slots], ['cells', 'cell', 16, 1, 32, 6]);
  const kinds = Array.from({ length: 6 }, (_, s) => reg.slot(0, s));
  assert.deepEqual(
    kinds.map((s) => [s.kind, s.index, s.elements, s.first]),
    [
      ['data', 2, 8, [0, 0]],
      ['partial', 3, 2, [0, 8]],
      ['data', 4, 8, [1, 0]],
      ['partial', 5, 2, [1, 8]],
      ['data', 6, 8, [2, 0]],
      ['partial', 7, 2, [2, 8]],
    ],
  );
  assert.deepEqual(reg.inner, { name: 'cell', rows: 1, cols: 8, bytesPerElement: 2 });
  assert.deepEqual(
    [...reg.runs(0)].map((r) => [r.kind, r.from, r.to]),
    [0, 1, 2, 3, 4, 5].map((s) => [s % 2 ? 'partial' : 'data', s, s + 1]),
  );
  assert.deepEqual(m.placements(), [{ space: 'cells:core', start: 32, end: 128, capacity: 4096, what: 'Core Memory' }]);
  assert.deepEqual([m.unitCount(), m.unitIndex(), m.unitLabel()], [1, undefined, 'Core Memory']);
});

test('rule codes and severities: CELL001–CELL006', () => {
  const codes = (s: Partial<CellSpec>) =>
    validateCells({ shape: [2, 16], dtype: 'int8', ...s })
      .map((i) => `${i.code}:${i.severity}`)
      .sort();
  assert.deepEqual(codes({}), []);
  assert.deepEqual(codes({ dtype: 'bfloat16' }), ['CELL002:error']);
  assert.deepEqual(codes({ shape: [] }), ['CELL001:error']);
  assert.deepEqual(codes({ shape: [1, 1, 1, 1, 16] }), ['CELL001:error']);
  assert.deepEqual(codes({ shape: [1, 1, 1, 1, 16], relaxRank: true }), []);
  assert.deepEqual(codes({ shape: [2, 0] }), ['CELL001:error']);
  assert.deepEqual(codes({ shape: [2, 1.5] }), ['CELL001:error']);
  assert.deepEqual(codes({ cellBytes: 0 }), ['CELL004:error']);
  assert.deepEqual(codes({ cellBytes: 6, dtype: 'int32' }), ['CELL004:error']);
  assert.deepEqual(codes({ cellBytes: 8, dtype: 'int32', shape: [2, 2] }), []);
  assert.deepEqual(codes({ order: [0, 0] }), ['CELL005:error']);
  assert.deepEqual(codes({ order: [0] }), ['CELL005:error']);
  assert.deepEqual(codes({ order: [1, 0] }), ['CELL006:warning']); // rows of 2 int8: 14 zero bytes of 16
  assert.deepEqual(codes({ base: 8 }), ['CELL003:error']);
  assert.deepEqual(codes({ base: 48 }), []);
  // 17 int8 per row: 15 zero bytes of 32 (46.9 %) is information; 1 int8 per row: 15 of 16 is a warning
  assert.deepEqual(codes({ shape: [4, 17] }), ['CELL006:information']);
  assert.deepEqual(codes({ shape: [4, 1] }), ['CELL006:warning']);
  assert.deepEqual(codes({ shape: [4, 8] }), ['CELL006:information']); // exactly 50 %: not more than half
  const fix = validateCells({ shape: [2, 16], dtype: 'int8', base: 40 })[0].fixes?.[0];
  assert.equal(fix?.newText, '0x30');
  assert.throws(() => new CellLayout({ shape: [2, 16], dtype: 'int8', base: 8 }), /cell boundary/);
});

test('pack and unpack: little-endian values, zero padding, strict padding check', () => {
  const m = new CellLayout({ shape: [2, 3], dtype: 'int16' });
  const b = m.pack([1, -2, 3, 0x1234, 5, -1]);
  assert.equal(b.length, 32);
  assert.deepEqual([...b.slice(0, 8)], [1, 0, 0xfe, 0xff, 3, 0, 0, 0]);
  assert.deepEqual([...b.slice(16, 24)], [0x34, 0x12, 5, 0, 0xff, 0xff, 0, 0]);
  assert.deepEqual(m.unpack(b, true), [1, -2, 3, 0x1234, 5, -1]);
  b[6] = 7;
  assert.deepEqual(m.unpack(b), [1, -2, 3, 0x1234, 5, -1]);
  assert.throws(() => m.unpack(b, true), /offset 6/);
  assert.throws(() => m.pack([1]), RangeError);
});
