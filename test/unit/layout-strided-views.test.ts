/**
 * PyTorch-style strided views (`StridedLayout`): batch mapping, inverse (greedy and, for overlapping dims, by search),
 * distinct elements, summary, regions and placements, against storage elements worked out here by hand: element
 * offset + Σ cᵢ·strideᵢ, byte address base + element · element size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StridedLayout } from '../../core/layout/models/strided';

function grid(shape: number[]): number[][] {
  let out: number[][] = [[]];
  for (const n of shape) out = out.flatMap((c) => Array.from({ length: n }, (_, i) => [...c, i]));
  return out;
}

// a 4×3 float32 matrix seen transposed (3×4, strides 1, 3), from storage element 2, in a 20-element storage at 0x100
const T = () => new StridedLayout({ shape: [3, 4], dtype: 'float32', strides: [1, 3], offset: 2, storage: 20, base: 0x100 });

test('transposed view: forwardMany = 0x100 + (2 + r + 3c)·4, NaN outside', () => {
  const m = T();
  const coords = grid([3, 4]);
  const got = m.forwardMany(Int32Array.from(coords.flat()));
  assert.deepEqual(
    [...got],
    coords.map(([r, c]) => 0x100 + (2 + r + 3 * c) * 4),
  );
  assert.equal(m.forward([2, 3]).element, 13);
  assert.equal(m.forward([2, 3]).byteOffset, 52);
  const bad = m.forwardMany(Int32Array.from([3, 0, 0, 4, -1, 0, 0, -1]));
  assert.deepEqual([...bad].map(Number.isNaN), [true, true, true, true]);
  assert.deepEqual([m.span, m.reserved, m.numel, m.overlapping, m.isContiguous()], [14, 20, 12, false, false]);
});

test('transposed view: inverse — elements 2..13 in the view, 0–1 before the offset, 14–19 not reached, outside the storage', () => {
  const m = T();
  for (let e = 2; e < 14; e++) {
    const want = [(e - 2) % 3, Math.floor((e - 2) / 3)];
    const r = m.inverse(0x100 + e * 4 + 1);
    assert.deepEqual([r.kind, r.coord, r.byteInElement], ['element', want, 1], `element ${e}`);
  }
  for (const e of [0, 1, 14, 19]) assert.equal(m.inverse(0x100 + e * 4).kind, 'gap', `element ${e}`);
  for (const a of [0xff, 0x100 + 80, 0x100 + 2.5]) assert.equal(m.inverse(a).kind, 'outside', `address ${a}`);
  const s = m.summary();
  assert.deepEqual([s.elements, s.bytes, s.breakdown.element, s.breakdown.gap, s.blocks?.count, s.blocks?.bytes], [12, 80, 48, 32, 20, 4]);
  const reg = m.regions();
  assert.deepEqual([reg.slotBytes, reg.units[0].base, reg.units[0].slots], [4, 0x100, 20]);
  assert.deepEqual([reg.slot(0, 1).kind, reg.slot(0, 5).kind, reg.slot(0, 5).first, reg.slot(0, 14).kind], ['unused', 'data', [0, 1], 'unused']);
  assert.deepEqual(
    [...reg.runs(0)].map((r) => [r.kind, r.from, r.to]),
    [
      ['unused', 0, 2],
      ['data', 2, 14],
      ['unused', 14, 20],
    ],
  );
  assert.deepEqual(
    m.placements().map((p) => [p.space, p.start, p.end]),
    [['host', 0x100, 0x100 + 80]],
  );
  assert.deepEqual([m.unitCount(), m.unitIndex(), m.unitLabel()], [1, undefined, 'storage']);
});

test('dims that may overlap (2×3, strides 3, 2): elements 0 2 4 3 5 7, 4 found by search, 1 and 6 are gaps', () => {
  const m = new StridedLayout({ shape: [2, 3], dtype: 'float32', strides: [3, 2] });
  assert.equal(m.overlapping, true);
  assert.equal(m.span, 8);
  assert.equal(m.distinctElements(), 6);
  assert.deepEqual(m.coordOfElement(5), [1, 1]);
  assert.deepEqual(m.coordOfElement(4), [0, 2]);
  assert.deepEqual(m.coordOfElement(7), [1, 2]);
  assert.equal(m.coordOfElement(6), undefined);
  assert.equal(m.coordOfElement(1), undefined);
  assert.equal(m.coordOfElement(-1), undefined);
  const s = m.summary();
  assert.deepEqual([s.bytes, s.breakdown.element, s.breakdown.gap], [32, 24, 8]);
  assert.deepEqual([...m.forwardMany(Int32Array.from(grid([2, 3]).flat()))], [0, 8, 16, 12, 20, 28]);
});

test('a sliding window (3×3, strides 1, 1) touches 5 elements; a broadcast (4×3, strides 0, 1) touches 3', () => {
  const w = new StridedLayout({ shape: [3, 3], dtype: 'int16', strides: [1, 1] });
  assert.deepEqual([w.overlapping, w.span, w.distinctElements()], [true, 5, 5]);
  assert.deepEqual(w.summary().breakdown.element, 10);
  for (let e = 0; e < 5; e++) {
    const c = w.coordOfElement(e)!;
    assert.equal(c[0] + c[1], e);
  }
  const b = new StridedLayout({ shape: [4, 3], dtype: 'float32', strides: [0, 1] });
  assert.deepEqual([b.overlapping, b.span, b.distinctElements()], [true, 3, 3]);
  assert.deepEqual(
    [...b.forwardMany(Int32Array.from(grid([4, 3]).flat()))],
    grid([4, 3]).map(([, c]) => c * 4),
  );
  assert.deepEqual(b.inverse(8).coord, [0, 2]);
  // contiguous with size-1 dims: canonical form drops them, coalescing merges the rest
  const c = new StridedLayout({ shape: [2, 1, 3], dtype: 'float32' });
  assert.equal(c.isContiguous(), true);
  assert.deepEqual(c.canonical(), { sizes: [2, 3], strides: [3, 1] });
  assert.deepEqual(c.coalesced(), { sizes: [6], strides: [1] });
  assert.deepEqual([c.summary().breakdown.gap, c.distinctElements()], [0, 6]);
});
