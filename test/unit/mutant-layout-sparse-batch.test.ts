/**
 * `SparseLayout.forwardMany` (the batch mapping of layout maps and properties) on dense occupancy patterns, against
 * the format's rule written out here: the entries of a fibered tensor are stored fiber by fiber (row-major over the
 * leading modes), by increasing index inside a fiber, so the element at row-major position p of the full tensor, when
 * stored, is file entry k = (number of stored positions before p), at byte 8 · (mainBase + k).
 *
 * The patterns fill whole 32-position words (bit 31 included) and leave others sparse, over several 128-position
 * records, so every word's count enters the ranks; coordinates outside the tensor are built to land on stored
 * positions if a bound were not checked (one past an extent, −1, and 2^30 rows, 2^30 · 300 ≡ 0 mod 2^32).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SparseLayout, type SparsePlacement } from '../../core/layout/models/sparse';

/** Stored positions: the first 64 of every 128, every 7th from 3 on, and the last of every 32. */
const storedAt = (p: number) => p % 128 < 64 || p % 7 === 3 || p % 32 === 31;

/** The placement of `shape` holding exactly the positions `storedAt` picks. */
function placementOf(shape: number[], mainBase: number, at = storedAt): SparsePlacement {
  const K = shape[shape.length - 1];
  const F = shape.slice(0, -1).reduce((a, b) => a * b, 1);
  const ptr = [0];
  const index: number[] = [];
  for (let f = 0; f < F; f++) {
    for (let i = 0; i < K; i++) if (at(f * K + i)) index.push(i);
    ptr.push(index.length);
  }
  return { shape, ptr, index, mainBase, metaBase: 0 };
}

/** Every coordinate of `shape`, row-major. */
function allCoords(shape: number[]): number[][] {
  let out: number[][] = [[]];
  for (const n of shape) out = out.flatMap((c) => Array.from({ length: n }, (_, i) => [...c, i]));
  return out;
}

/** forwardMany over every coordinate equals 8 · (mainBase + rank of its position), NaN where not stored. */
function checkInside(shape: number[], mainBase: number, at = storedAt): void {
  const m = new SparseLayout({ placement: placementOf(shape, mainBase, at) });
  const coords = allCoords(shape);
  const got = m.forwardMany(Int32Array.from(coords.flat()));
  let k = 0;
  coords.forEach((c, p) => {
    const want = at(p) ? (mainBase + k++) * 8 : NaN;
    if (!Object.is(got[p], want)) assert.fail(`${JSON.stringify(c)} (position ${p}): got ${got[p]}, want ${want}`);
  });
}

/** forwardMany of coordinates outside `shape`: every one NaN. */
function checkOutside(shape: number[], coords: number[][]): void {
  const m = new SparseLayout({ placement: placementOf(shape, 3) });
  const got = m.forwardMany(Int32Array.from(coords.flat()));
  coords.forEach((c, i) => assert.ok(Number.isNaN(got[i]), `${JSON.stringify(c)} is outside ${JSON.stringify(shape)}: got ${got[i]}`));
}

/** For every inside coordinate and mode d, the coordinate with mode d moved one extent up and one down. */
function shifted(shape: number[]): number[][] {
  const out: number[][] = [];
  for (const c of allCoords(shape))
    for (let d = 0; d < shape.length; d++)
      for (const s of [shape[d], -shape[d]]) {
        const x = [...c];
        x[d] += s;
        out.push(x);
      }
  return out;
}

test('rank 2 (3 × 300: 900 positions, 8 records), rank 1 (300) and rank 3 (2 × 3 × 150): every element', () => {
  checkInside([3, 300], 7);
  checkInside([300], 0);
  checkInside([2, 3, 150], 11);
  // a record of one full word only, and a tensor of a single position
  checkInside([1, 33], 2, (p) => p < 32);
  checkInside([1], 5, () => true);
});

test('sparse patterns: one stored element per record at each word and bit, all else empty', () => {
  // positions 0, 33, 66, 99 (words 0–3 of record 0), 159 (word 0 bit 31 of record 1), 255 (word 3 bit 31) …
  const picks = new Set([0, 33, 66, 99, 159, 255, 300, 383, 511]);
  checkInside([4, 128], 1, (p) => picks.has(p));
  checkInside([512], 1, (p) => picks.has(p));
  checkInside([2, 2, 128], 1, (p) => picks.has(p));
});

test('outside coordinates that would alias stored positions are NaN, in every path', () => {
  checkOutside([3, 300], shifted([3, 300]));
  checkOutside([300], shifted([300]));
  checkOutside([2, 3, 150], shifted([2, 3, 150]));
  // 2^30 · 300 = 75 · 2^32: position 0 (stored) modulo 2^32; the same for rank 3 through the leading modes
  checkOutside(
    [3, 300],
    [
      [2 ** 30, 0],
      [-(2 ** 30), 0],
    ],
  );
  checkOutside(
    [2, 3, 150],
    [
      [2 ** 30, 0, 0],
      [0, 2 ** 31 - 1, 0],
    ],
  );
});

test('the result array and the units given are filled: the first count units set to 0, the rest kept', () => {
  const m = new SparseLayout({ placement: placementOf([3, 300], 7) });
  const out = new Float64Array(2).fill(-1);
  const units = new Int32Array(3).fill(9);
  // (0, 1): position 1, rank 1 → 8 · 8; (0, 64): not stored (64 % 7 = 1, 64 % 32 = 0)
  const got = m.forwardMany(Int32Array.from([0, 1, 0, 64]), out, units);
  assert.equal(got, out);
  assert.ok(Object.is(out[0], 64) && Number.isNaN(out[1]));
  assert.deepEqual([...units], [0, 0, 9]);
  // the bitmap built by the first call serves the second
  assert.deepEqual([...m.forwardMany(Int32Array.from([2, 299, 0, 0]))], [(7 + m.nnz - 1) * 8, 56]);
});

test('a result array longer than the coordinates keeps its tail, in every path', () => {
  const K = 2 ** 25;
  const search = { shape: [2, 2, K], ptr: [0, 1, 1, 1, 1], index: [0], mainBase: 0, metaBase: 0 };
  // the first element (0, …, 0) of each is stored at main entry mainBase → byte 8 · mainBase
  for (const [p, want] of [
    [placementOf([3, 300], 7), 56],
    [placementOf([300], 7), 56],
    [placementOf([2, 3, 150], 7), 56],
    [search, 0],
  ] as const) {
    const out = new Float64Array(3).fill(-1);
    new SparseLayout({ placement: p }).forwardMany(new Int32Array(2 * p.shape.length), out);
    assert.deepEqual([...out], [want, want, -1], JSON.stringify(p.shape));
  }
});

test('past the bitmap limit (2 × 2 × 2^25 positions): the search with leading coordinates that alias other fibers', () => {
  const K = 2 ** 25;
  // fibers (0,0): 1, K−1; (0,1): empty; (1,0): 0, 3; (1,1): 7 → file entries 0..4 at main 2..6
  const m = new SparseLayout({ placement: { shape: [2, 2, K], ptr: [0, 2, 2, 4, 5], index: [1, K - 1, 0, 3, 7], mainBase: 2, metaBase: 0 } });
  const inside = [
    [0, 0, 1],
    [0, 0, K - 1],
    [1, 0, 0],
    [1, 0, 3],
    [1, 1, 7],
    [0, 1, 0],
    [1, 1, 6],
  ];
  assert.deepEqual([...m.forwardMany(Int32Array.from(inside.flat()))], [16, 24, 32, 40, 48, NaN, NaN]);
  // (0, 2, 3) would be fiber 0·2 + 2 = 2 = (1, 0), which holds 3; (1, −2, 1) fiber 1·2 − 2 = 0, which holds 1; (2, 0, 1)
  // fiber 4, past the last; (0, 0, K) and (0, 0, −1) are no index of fiber 0
  const outside = [
    [0, 2, 3],
    [1, -2, 1],
    [2, 0, 1],
    [0, 0, K],
    [0, 0, -1],
  ];
  assert.deepEqual([...m.forwardMany(Int32Array.from(outside.flat()))], [NaN, NaN, NaN, NaN, NaN]);
});
