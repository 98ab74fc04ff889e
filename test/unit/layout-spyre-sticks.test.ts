/**
 * Spyre sticks (`SpyreLayout`) with a non-zero base: the batch mapping (tables, the loop past the table limit, the
 * stride_map path), inverse, stick fill, summary, regions and placements of a 3×100 float16 tensor in device layout
 * [2, 3, 64] with dim_map [1, 0, 1], worked out here by hand: device coordinate (⌊c/64⌋, r, c mod 64), element
 * offset (x0·3 + x1)·64 + x2, 2 bytes each; 64 float16 per 128-byte stick, so columns 100..127 are padding.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SpyreLayout } from '../../core/layout/models/spyre';

const BASE = 0x1000;
const M = () => new SpyreLayout({ shape: [3, 100], dtype: 'float16', base: BASE, layout: { kind: 'dim_map', deviceSize: [2, 3, 64], dimMap: [1, 0, 1] } });
const addr = (r: number, c: number) => BASE + (((c >> 6) * 3 + r) * 64 + (c % 64)) * 2;

function grid(shape: number[]): number[][] {
  let out: number[][] = [[]];
  for (const n of shape) out = out.flatMap((c) => Array.from({ length: n }, (_, i) => [...c, i]));
  return out;
}

test('3×100 float16 in [2, 3, 64]: forwardMany and forward = 0x1000 + ((⌊c/64⌋·3 + r)·64 + c mod 64)·2', () => {
  const m = M();
  const coords = grid([3, 100]);
  const want = coords.map(([r, c]) => addr(r, c));
  assert.deepEqual([...m.forwardMany(Int32Array.from(coords.flat()))], want);
  for (const [r, c] of [
    [0, 0],
    [2, 63],
    [1, 64],
    [2, 99],
  ])
    assert.equal(m.forward([r, c]).address, addr(r, c));
  const bad = m.forwardMany(Int32Array.from([3, 0, 0, 100, -1, 0, 0, -1]));
  assert.deepEqual([...bad].map(Number.isNaN), [true, true, true, true]);
  // the same placement written as a stride_map (host-element strides of the device dims)
  const s = new SpyreLayout({ shape: [3, 100], dtype: 'float16', base: BASE, layout: { kind: 'stride_map', deviceSize: [2, 3, 64], strideMap: [64, 100, 1] } });
  assert.deepEqual([...s.forwardMany(Int32Array.from(coords.flat()))], want);
});

test('inverse: elements, padding columns 100..127, outside the 768-byte device layout', () => {
  const m = M();
  assert.deepEqual([m.deviceBytes, m.allocBytes], [768, 768]);
  const e = m.inverse(BASE + 711); // (2, 99): device (1, 2, 35), element 5·64 + 35 = 355
  assert.deepEqual([e.kind, e.coord, e.byteInElement], ['element', [2, 99], 1]);
  assert.deepEqual(m.inverse(BASE + 128).coord, [1, 0]);
  assert.deepEqual(m.inverse(BASE + 384).coord, [0, 64]);
  assert.equal(m.inverse(BASE + (3 * 64 + 36) * 2).kind, 'padding');
  assert.equal(m.inverse(BASE + 767).kind, 'padding');
  for (const a of [BASE - 1, BASE + 768, BASE + 0.5]) assert.equal(m.inverse(a).kind, 'outside', `address ${a}`);
  assert.deepEqual(m.deviceProbe([1, 2, 35]).coord, [2, 99]);
  assert.equal(m.deviceProbe([1, 2, 36]).kind, 'padding');
});

test('sticks: three full (columns 0–63 of each row), three with 36 elements; summary and placements', () => {
  const m = M();
  const reg = m.regions();
  assert.deepEqual([reg.slotBytes, reg.units[0].base, reg.units[0].slots], [128, BASE, 6]);
  assert.deepEqual(
    Array.from({ length: 6 }, (_, s) => {
      const sl = reg.slot(0, s);
      return [sl.kind, sl.elements, sl.first];
    }),
    [
      ['data', 64, [0, 0]],
      ['data', 64, [1, 0]],
      ['data', 64, [2, 0]],
      ['partial', 36, [0, 64]],
      ['partial', 36, [1, 64]],
      ['partial', 36, [2, 64]],
    ],
  );
  assert.deepEqual(
    [...reg.runs(0)].map((r) => [r.kind, r.from, r.to]),
    [
      ['data', 0, 3],
      ['partial', 3, 6],
    ],
  );
  assert.deepEqual(reg.inner, { name: 'stick', rows: 1, cols: 64, bytesPerElement: 2 });
  assert.deepEqual(m.stickCounts(), { sticks: 6, data: 6, partial: 3 });
  const s = m.summary();
  assert.deepEqual(
    [s.elements, s.slots, s.paddingSlots, s.bytes, s.breakdown.element, s.breakdown.padding, s.breakdown.replica, s.breakdown.slack, s.blocks?.count],
    [300, 384, 84, 768, 600, 168, 0, 0, 6],
  );
  assert.equal(s.paddingPercent, (100 * 84) / 384);
  const p = m.placements();
  assert.deepEqual(
    p.map((x) => [x.space, x.start, x.end]),
    [['spyre:device', BASE, BASE + 768]],
  );
  assert.deepEqual([m.unitCount(), m.unitIndex(), m.unitLabel()], [1, undefined, 'device memory']);
});

test('past the table limit (2 × 2^21 float16 in [2^15, 2, 64]): the digit loop gives the same addresses', () => {
  const C = 2 ** 21;
  const m = new SpyreLayout({ shape: [2, C], dtype: 'float16', base: BASE, layout: { kind: 'dim_map', deviceSize: [2 ** 15, 2, 64], dimMap: [1, 0, 1] } });
  const at = (r: number, c: number) => BASE + ((Math.floor(c / 64) * 2 + r) * 64 + (c % 64)) * 2;
  const q = [
    [0, 0],
    [1, 0],
    [0, 65],
    [1, C - 1],
    [2, 0],
    [0, C],
    [-1, 0],
  ];
  const got = m.forwardMany(Int32Array.from(q.flat()));
  assert.deepEqual([...got.slice(0, 4)], [at(0, 0), at(1, 0), at(0, 65), at(1, C - 1)]);
  assert.deepEqual([...got.slice(4)].map(Number.isNaN), [true, true, true]);
});
