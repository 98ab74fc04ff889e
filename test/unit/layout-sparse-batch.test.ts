/**
 * Fibered sparse placements (`SparseLayout`): the batch mapping (occupancy bitmap for ranks 1, 2 and ≥ 3, and the
 * binary search past the bitmap limit), forward, inverse in both memories, summary, regions and placements, against
 * values written here by hand: entry k of the file sits at main entry mainBase + k (8 bytes: u32 index, f32 value),
 * the header at metadata words t (order), t+1..t+n (shape), t+1+n+f (pointer of fiber f) and the end pointer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SparseLayout, type SparsePlacement } from '../../core/layout/models/sparse';

const layout = (p: SparsePlacement) => new SparseLayout({ placement: p });

/** forwardMany over every coordinate of `shape` (and six outside) against `stored`: "coord" → file entry k. */
function checkAll(m: SparseLayout, shape: number[], stored: Record<string, number>, mainBase: number): void {
  let coords: number[][] = [[]];
  for (const n of shape) coords = coords.flatMap((c) => Array.from({ length: n }, (_, i) => [...c, i]));
  const bad: number[][] = [];
  for (let d = 0; d < shape.length; d++)
    for (const v of [shape[d], -1, 2 ** 31 - 1]) {
      const c = shape.map(() => 0);
      c[d] = v;
      bad.push(c);
    }
  const all = [...coords, ...bad];
  const units = new Int32Array(all.length).fill(7);
  const got = m.forwardMany(Int32Array.from(all.flat()), undefined, units);
  let hits = 0;
  coords.forEach((c, i) => {
    const k = stored[c.join(',')];
    const want = k === undefined ? NaN : (mainBase + k) * 8;
    if (k !== undefined) hits++;
    if (!Object.is(got[i], want)) assert.fail(`${JSON.stringify(c)}: got ${got[i]}, want ${want}`);
  });
  assert.equal(hits, Object.keys(stored).length);
  for (let i = coords.length; i < all.length; i++) assert.ok(Number.isNaN(got[i]), `${JSON.stringify(all[i])} outside`);
  assert.ok(
    units.every((u) => u === 0),
    'every entry is in main memory (unit 0)',
  );
}

// 3 fibers of 200: fiber 0 holds 0, 31, 32 (two bitmap words), fiber 1 is empty, fiber 2 holds 5, 64, 127, 199
const P2: SparsePlacement = { shape: [3, 200], ptr: [0, 3, 3, 7], index: [0, 31, 32, 5, 64, 127, 199], mainBase: 100, metaBase: 10 };
const S2 = { '0,0': 0, '0,31': 1, '0,32': 2, '2,5': 3, '2,64': 4, '2,127': 5, '2,199': 6 };

test('forwardMany with the bitmap: rank 2 (3×200, an empty fiber), rank 1 and rank 3', () => {
  checkAll(layout(P2), [3, 200], S2, 100);
  checkAll(layout({ shape: [300], ptr: [0, 3], index: [0, 150, 299], mainBase: 0, metaBase: 0 }), [300], { '0': 0, '150': 1, '299': 2 }, 0);
  checkAll(
    layout({ shape: [2, 2, 40], ptr: [0, 1, 1, 3, 4], index: [39, 0, 38, 7], mainBase: 5, metaBase: 0 }),
    [2, 2, 40],
    { '0,0,39': 0, '1,0,0': 1, '1,0,38': 2, '1,1,7': 3 },
    5,
  );
});

test('forwardMany past the bitmap limit (2 × 2^26 positions): binary search in each fiber', () => {
  const K = 2 ** 26;
  const m = layout({ shape: [2, K], ptr: [0, 2, 5], index: [5, K - 1, 0, 12345, K - 2], mainBase: 1, metaBase: 0 });
  const q = [
    [0, 5],
    [0, K - 1],
    [1, 0],
    [1, 12345],
    [1, K - 2],
    [0, 6],
    [1, 5],
    [1, K - 1],
    [2, 0],
    [0, K],
    [-1, 5],
    [0, -1],
  ];
  const got = m.forwardMany(Int32Array.from(q.flat()));
  assert.deepEqual([...got.slice(0, 5)], [8, 16, 24, 32, 40]);
  assert.deepEqual([...got.slice(5)].map(Number.isNaN), [true, true, true, true, true, true, true]);
  const m3 = layout({ shape: [2, 1, K], ptr: [0, 1, 3], index: [K - 1, 3, 4], mainBase: 0, metaBase: 0 });
  const g3 = m3.forwardMany(
    Int32Array.from(
      [
        [0, 0, K - 1],
        [1, 0, 3],
        [1, 0, 4],
        [1, 0, 5],
        [0, 1, 0],
        [0, 0, K],
      ].flat(),
    ),
  );
  assert.deepEqual([...g3.slice(0, 3)], [0, 8, 16]);
  assert.deepEqual([...g3.slice(3)].map(Number.isNaN), [true, true, true]);
});

test('forward: fiber, pointer word t + 1 + n + f, fiber entry range, stored entry and value address', () => {
  const m = layout(P2);
  const f = m.forward([2, 64]);
  assert.deepEqual(
    [f.fiber, f.pointerWord, f.fiberStart, f.fiberEnd, f.entry, f.stored, f.address, f.valueAddress, f.size],
    [2, 15, 103, 107, 104, true, 832, 836, 8],
  );
  const z = m.forward([1, 5]);
  assert.deepEqual([z.fiber, z.pointerWord, z.fiberStart, z.fiberEnd, z.entry, z.stored, z.size], [1, 14, 103, 103, undefined, false, 0]);
  assert.ok(Number.isNaN(z.address));
  assert.equal(m.forward([0, 32]).entry, 102);
  assert.equal(m.forward([0, 33]).stored, false);
  assert.equal(m.forward([2, 199]).address, 106 * 8);
  assert.throws(() => m.forward([3, 0]));
});

test('inverse: main entries (through an empty fiber), metadata words, outside both', () => {
  const m = layout(P2);
  const e = m.inverse(104 * 8 + 5);
  assert.deepEqual([e.kind, e.coord, e.byteInElement], ['element', [2, 64], 5]);
  assert.deepEqual(m.inverse(103 * 8).coord, [2, 5]);
  assert.deepEqual(m.inverse(102 * 8 + 7).coord, [0, 32]);
  assert.deepEqual(m.inverse(100 * 8).coord, [0, 0]);
  assert.deepEqual(m.inverse(106 * 8 + 4).coord, [2, 199]);
  for (const a of [799, 107 * 8, 801.5]) assert.equal(m.inverse(a).kind, 'outside', `main ${a}`);
  // metadata: words 10 (order), 11–12 (shape), 13–15 (fiber pointers), 16 (end pointer)
  assert.equal(m.metaWords, 7);
  for (const w of [10, 11, 12, 13, 14, 15, 16]) assert.equal(m.inverse(w * 4 + 3, 1).kind, 'metadata', `word ${w}`);
  for (const a of [39, 68, 41.5]) assert.equal(m.inverse(a, 1).kind, 'outside', `meta ${a}`);
});

test('summary, regions, units and placements of 3×200 with 7 entries', () => {
  const m = layout(P2);
  assert.deepEqual([m.F, m.nnz, m.base], [3, 7, 800]);
  const s = m.summary();
  assert.deepEqual(
    [s.elements, s.slots, s.paddingSlots, s.bytes, s.breakdown.element, s.breakdown.metadata, s.blocks?.count, s.blocks?.bytes],
    [600, 7, 0, 84, 56, 28, 7, 8],
  );
  const reg = m.regions();
  assert.deepEqual(
    reg.units.map((u) => [u.label, u.base, u.slots, u.slotBytes]),
    [
      ['main memory', 800, 7, undefined],
      ['metadata memory', 40, 7, 4],
    ],
  );
  const sl = reg.slot(0, 4);
  assert.deepEqual([sl.kind, sl.index, sl.elements, sl.first], ['data', 4, 1, [2, 64]]);
  assert.deepEqual([reg.slot(1, 2).kind, reg.slot(1, 2).elements], ['data', 0]);
  assert.deepEqual(
    [...reg.runs(0)].map((r) => [r.kind, r.from, r.to]),
    [['data', 0, 7]],
  );
  assert.deepEqual(
    [...reg.runs(1)].map((r) => [r.kind, r.from, r.to]),
    [['data', 0, 7]],
  );
  assert.deepEqual(
    m.placements().map((p) => [p.space, p.start, p.end, p.capacity]),
    [
      ['csf:main', 800, 856, 80_000_000],
      ['csf:meta', 40, 68, 4096],
    ],
  );
  const small = new SparseLayout({ placement: P2, mainCapacity: 200, metaCapacity: 20 });
  assert.deepEqual(
    small.placements().map((p) => p.capacity),
    [1600, 80],
  );
  assert.deepEqual([m.unitCount(), m.unitLabel(0), m.unitLabel(1)], [2, 'main memory', 'metadata memory']);
  assert.deepEqual(
    ['main', 'META', 'meta', '0', '1', '2', 'x', [0, 1]].map((t) => m.unitIndex(t)),
    [0, 1, 1, 0, 1, undefined, undefined, undefined],
  );
});
