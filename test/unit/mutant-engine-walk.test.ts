/**
 * The engine's element enumeration (core/sim/engine/walk.ts) pinned run by run: which levels enumerate as one
 * progression (the cursor's runs: length, first location, increment), count-1 and empty levels, windows of `fill`
 * smaller than a run, moves across rows and carries, the outermost failing level, buffer limits on increasing,
 * constant and decreasing locations, and the partial last row of `N(R,C)` — every expected value worked out by hand
 * from location = base + Σ index·stride, an index valid when 0 ≤ index (< size when checked), a location valid below
 * the buffer limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Walker } from '../../core/sim/engine/walk';
import { mkSide, type Lv, type SideSpec } from './helpers/mutant-transfer';

/** Byte levels of a MEM side at 0 (begin 0, count 1, stride 1 unless given; no size: only index ≥ 0 is checked). */
function walker(levels: Partial<Lv>[], extra: Partial<SideSpec> = {}): Walker {
  return new Walker(mkSide({ space: 'MEM', dtype: 'UINT8', levels: levels.map((l) => ({ begin: 0, count: 1, stride: 1, ...l })), ...extra }).desc, 't');
}

/** Runs of a cursor from `start` to the end: [length, first location, increment] of a valid run, [length, −1] of an invalid one. */
function runs(w: Walker, start = 0): number[][] {
  const c = w.cursor(start)!;
  const out: number[][] = [];
  while (c.pos < w.total) {
    const n = c.next();
    out.push(c.loc < 0 ? [n, -1] : [n, c.loc, c.inc]);
    c.skip(n);
  }
  return out;
}

function locs(w: Walker, from = 0, n = w.total - from): number[] {
  const out = new Int32Array(n);
  w.fill(from, n, out);
  return [...out];
}

test('levels that form one progression are one run; others a run per row', () => {
  // rows 4 apart of 4 elements: 0..11 in one run, from the middle too
  const rows = walker([
    { count: 3, stride: 4 },
    { count: 4, stride: 1 },
  ]);
  assert.deepEqual(runs(rows), [[12, 0, 1]]);
  assert.deepEqual(runs(rows, 5), [[7, 5, 1]]);
  // rows 5 apart: a gap after each row of 4
  assert.deepEqual(
    runs(
      walker([
        { count: 2, stride: 5 },
        { count: 4, stride: 1 },
      ]),
    ),
    [
      [4, 0, 1],
      [4, 5, 1],
    ],
  );
  // outer indexes −1..2 of a 2-row dimension (rows 3 apart) over full rows of 3: rows 0 and 1 (locations 0..5) in one run
  const clipped = walker([
    { count: 4, stride: 3, begin: -1, size: 2 },
    { count: 3, stride: 1 },
  ]);
  assert.deepEqual(runs(clipped), [
    [3, -1],
    [6, 0, 1],
    [3, -1],
  ]);
  assert.deepEqual(locs(clipped), [-1, -1, -1, 0, 1, 2, 3, 4, 5, -1, -1, -1]);
  assert.deepEqual(clipped.span(), { lo: 0, hi: 5, count: 6 });
  // outer indexes 5, 6 of a 3-row dimension: nothing valid, one invalid run
  const gone = walker([
    { count: 2, stride: 4, begin: 5, size: 3 },
    { count: 4, stride: 1 },
  ]);
  assert.deepEqual(runs(gone), [[8, -1]]);
  assert.equal(gone.span(), undefined);
});

test('count-1 levels: an inner one moves the outer run, a leading one offsets the rows; out of bounds, everything is invalid', () => {
  // p[0:2][2] with rows 10 apart: 2, 12, 22 as one run of increment 10
  const column = walker([
    { count: 3, stride: 10 },
    { count: 1, stride: 1, begin: 2 },
  ]);
  assert.deepEqual(runs(column), [[3, 2, 10]]);
  assert.deepEqual(locs(column), [2, 12, 22]);
  assert.deepEqual(column.span(), { lo: 2, hi: 22, count: 3 });
  // column 5 of a 4-column dimension: the three elements are one invalid run
  const outside = walker([
    { count: 3, stride: 10 },
    { count: 1, stride: 1, begin: 5, size: 4 },
  ]);
  assert.deepEqual(runs(outside), [[3, -1]]);
  assert.equal(outside.span(), undefined);
  // p[2][1:3] with rows 100 apart: 201, 202, 203
  const row = walker([
    { count: 1, stride: 100, begin: 2 },
    { count: 3, stride: 1, begin: 1 },
  ]);
  assert.deepEqual(runs(row), [[3, 201, 1]]);
  assert.deepEqual(locs(row), [201, 202, 203]);
  assert.deepEqual(row.span(), { lo: 201, hi: 203, count: 3 });
});

test('an empty level is one invalid run per row, a single valid iteration is kept', () => {
  // [-3:2:3] in a 1-element dimension: indexes −3, −1, 1, 3, none of them 0; two rows 10 apart
  const w = walker([
    { count: 2, stride: 10 },
    { count: 4, begin: -3, step: 2, size: 1 },
  ]);
  assert.deepEqual(runs(w), [
    [4, -1],
    [4, -1],
  ]);
  assert.deepEqual(locs(w), [-1, -1, -1, -1, -1, -1, -1, -1]);
  // [-2:0] in a 1-element dimension: only index 0 (the third iteration) is valid
  const one = walker([{ count: 3, begin: -2, size: 1 }]);
  assert.deepEqual(locs(one), [-1, -1, 0]);
  assert.deepEqual(one.span(), { lo: 0, hi: 0, count: 1 });
  // p[-5:-3] before two rows: every row's invalid prefix ends with its row
  const before = walker([
    { count: 2, stride: 10 },
    { count: 3, begin: -5 },
  ]);
  assert.deepEqual(runs(before), [
    [3, -1],
    [3, -1],
  ]);
});

test('a dimension with no size is checked at 0 only; a walk of no levels is its base', () => {
  // indexes −1, 0, 1 at stride 2
  const w = walker([{ count: 3, begin: -1, stride: 2 }]);
  assert.deepEqual(locs(w), [-1, 0, 2]);
  const all = walker([{ count: 3, stride: 2 }]);
  assert.deepEqual(locs(all), [0, 2, 4]);
  assert.deepEqual(all.span(), { lo: 0, hi: 4, count: 3 });
  assert.equal(all.linearStart(), undefined);
  assert.equal(walker([{ count: 3 }]).linearStart(), 0);
  // unchecked upper bound (`+`): 0..3 without a gap
  assert.equal(walker([{ count: 4, size: 2, checkHigh: false }]).linearStart(), 0);
  // no level: one element at the base (word 7 of a PCORE walk)
  const scalar = walker([], { space: 'PCORE', base: 7 });
  assert.equal(scalar.total, 1);
  assert.deepEqual(locs(scalar), [7]);
  assert.deepEqual(runs(scalar), [[1, 7, 0]]);
  assert.deepEqual(scalar.span(), { lo: 7, hi: 7, count: 1 });
  assert.equal(scalar.linearStart(), 7);
});

test('fill writes only its window, also when a run goes on past it', () => {
  const out = new Int32Array(6).fill(99);
  // one run 0..11: elements 2..4
  walker([
    { count: 3, stride: 4 },
    { count: 4, stride: 1 },
  ]).fill(2, 3, out);
  assert.deepEqual([...out], [2, 3, 4, 99, 99, 99]);
  // stride 2: elements 1, 2 at 2 and 4
  out.fill(99);
  walker([{ count: 6, stride: 2 }]).fill(1, 2, out);
  assert.deepEqual([...out], [2, 4, 99, 99, 99, 99]);
  // indexes −4..1: the first two of an invalid run of 4
  out.fill(99);
  walker([{ count: 6, begin: -4 }]).fill(0, 2, out);
  assert.deepEqual([...out], [-1, -1, 99, 99, 99, 99]);
  // two windows in a row through the same walker: rows 10 apart of 3
  const w = walker([
    { count: 3, stride: 10 },
    { count: 3, stride: 1 },
  ]);
  out.fill(99);
  // element 2 (a run of 1), then 2 of the next row's run of 3
  w.fill(2, 3, out);
  assert.deepEqual([...out], [2, 10, 11, 99, 99, 99]);
  assert.deepEqual(locs(w, 7, 2), [21, 22]);
});

test('cursor moves: within a row, across rows, with a carry over two outer levels', () => {
  // rows 10 apart of 4
  const w = walker([
    { count: 3, stride: 10 },
    { count: 4, stride: 1 },
  ]);
  const c = w.cursor(1)!;
  assert.deepEqual([c.next(), c.loc, c.inc], [3, 1, 1]);
  // element 6 = row 1, column 2
  c.skip(5);
  assert.deepEqual([c.pos, c.next(), c.loc], [6, 2, 12]);
  c.skip(2);
  assert.deepEqual([c.pos, c.next(), c.loc], [8, 4, 20]);
  // blocks 100 apart of rows 10 apart of 3: the third row carries into block 1
  const blocks = walker([
    { count: 2, stride: 100 },
    { count: 2, stride: 10 },
    { count: 3, stride: 1 },
  ]);
  assert.deepEqual(runs(blocks), [
    [3, 0, 1],
    [3, 10, 1],
    [3, 100, 1],
    [3, 110, 1],
  ]);
  // rows 10 apart in a 2-row dimension: the third row fails its upper bound on the move from row 1
  const high = walker([
    { count: 3, stride: 10, size: 2 },
    { count: 2, stride: 1 },
  ]);
  assert.deepEqual(runs(high), [
    [2, 0, 1],
    [2, 10, 1],
    [2, -1],
  ]);
});

test('an invalid outer level makes its whole block one invalid run, the outermost failing level counting', () => {
  // block index 0..1 of a 1-block dimension (stride 100), row index −1..1 of 10 rows (stride 10), 2 columns:
  // block 0: row −1 invalid, rows 0 and 1 at 0 and 10; block 1 (rows −1, 0, 1 there too): all 6 invalid in one run
  const w = walker([
    { count: 2, stride: 100, size: 1 },
    { count: 3, stride: 10, begin: -1, size: 10 },
    { count: 2, stride: 1 },
  ]);
  assert.deepEqual(runs(w), [
    [2, -1],
    [2, 0, 1],
    [2, 10, 1],
    [6, -1],
  ]);
  assert.deepEqual(locs(w), [-1, -1, 0, 1, 10, 11, -1, -1, -1, -1, -1, -1]);
});

test('buffer limits on increasing, constant and decreasing locations', () => {
  // stride 3 under a 8-byte limit: 0, 3, 6 valid, 9 and 12 past it
  const up = walker([{ count: 5, stride: 3 }], { bufLimit: 8 });
  assert.deepEqual(runs(up), [
    [3, 0, 3],
    [2, -1],
  ]);
  assert.deepEqual(locs(up), [0, 3, 6, -1, -1]);
  // a constant row (stride 0) at 0, then one at 5 = the limit of 5 bytes
  const flat = walker(
    [
      { count: 2, stride: 5 },
      { count: 3, stride: 0 },
    ],
    { bufLimit: 5 },
  );
  assert.deepEqual(runs(flat), [
    [3, 0, 0],
    [3, -1],
  ]);
  // decreasing: 9, 8, …, 4 (row 9, stride −1) under a 7-byte limit: 9, 8, 7 past it, then 6, 5, 4
  const down = (bufLimit: number, step = 1, count = 6) =>
    walker(
      [
        { count: 1, stride: 1, begin: 9 },
        { count, stride: -1, step },
      ],
      { bufLimit },
    );
  assert.deepEqual(runs(down(7)), [
    [3, -1],
    [3, 6, -1],
  ]);
  assert.deepEqual(locs(down(7)), [-1, -1, -1, 6, 5, 4]);
  // all below a limit of 20; all at or above a limit of 2 (the invalid prefix would be 9 − 2 + 1 = 8 long: the row's 6)
  assert.deepEqual(runs(down(20)), [[6, 9, -1]]);
  assert.deepEqual(runs(down(2)), [[6, -1]]);
  // a limit of 9: location 9 itself is past it
  assert.deepEqual(runs(down(9)), [
    [1, -1],
    [5, 8, -1],
  ]);
  // step 2: 9, 7, 5, 3, 1 under a limit of 6: ⌊(9 − 6)/2⌋ + 1 = 2 invalid, then 5, 3, 1
  assert.deepEqual(runs(down(6, 2, 5)), [
    [2, -1],
    [3, 5, -2],
  ]);
});

test('the partial last row of N(R,C): columns from lastRow on in the last row are invalid', () => {
  // MEM(p, 2, 10(3,4)): 2 blocks of N = 10 elements (stride 10), rows of 4 (stride 4); the last row holds 10 − 2·4 = 2
  const partial = { rowLevelDim: 1, colLevelDim: 2, rows: 3, lastRow: 2 };
  const levels: Partial<Lv>[] = [
    { count: 2, stride: 10, size: 2 },
    { count: 3, stride: 4, size: 3 },
    { count: 4, stride: 1, size: 4 },
  ];
  const w = walker(levels, { partial });
  // block b, row r, column c at 10b + 4r + c; r = 2, c ≥ 2 invalid
  assert.deepEqual(locs(w), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, -1, -1]);
  // elements 9..12: row 2 columns 1..3 of block 0, then block 1's first
  assert.deepEqual(locs(w, 9, 4), [9, -1, -1, 10]);
  // a window that ends before the invalid columns writes nothing past itself
  const out = new Int32Array(4).fill(99);
  w.fill(8, 2, out);
  assert.deepEqual([...out], [8, 9, 99, 99]);
  assert.equal(w.cursor(), undefined);
  assert.equal(w.linearStart(), undefined);
  assert.equal(w.span(), undefined);
  // rows 0 and 2 (step 2) by columns 1 and 3 (step 2) of one block: (0,1) 1, (0,3) 3, (2,1) 9, (2,3) past the last row
  const stepped = walker(
    [
      { count: 2, step: 2, stride: 4, size: 3 },
      { count: 2, begin: 1, step: 2, stride: 1, size: 4 },
    ],
    { partial: { rowLevelDim: 0, colLevelDim: 1, rows: 3, lastRow: 2 } },
  );
  assert.deepEqual(locs(stepped), [1, 3, 9, -1]);
  // the rule needs both numbers and both levels: without one of them the walk is plain (and has runs)
  for (const p of [
    { ...partial, rows: undefined },
    { ...partial, lastRow: undefined },
    { ...partial, colLevelDim: 3 },
    { ...partial, rowLevelDim: 3 },
  ]) {
    const plain = walker(levels, { partial: p });
    assert.deepEqual(locs(plain), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21], JSON.stringify(p));
    assert.notEqual(plain.cursor(), undefined);
  }
  // levels of another kind do not carry the rule: the row level, the column level, both
  for (const kinds of [
    ['dim', 'flat', 'dim'],
    ['dim', 'dim', 'flat'],
    ['flat', 'flat', 'flat'],
  ] as const) {
    const flat = walker(
      levels.map((l, k) => ({ ...l, kind: kinds[k] })),
      { partial },
    );
    assert.deepEqual(locs(flat, 8, 4), [8, 9, 10, 11], kinds.join());
  }
  // the column level outside the row level: column c (outer), row r (inner) at c + 4r; row 2 from column 2 on invalid
  const across = walker(
    [
      { count: 4, stride: 1, dim: 1 },
      { count: 3, stride: 4, dim: 0 },
    ],
    { partial: { rowLevelDim: 0, colLevelDim: 1, rows: 3, lastRow: 2 } },
  );
  assert.deepEqual(locs(across), [0, 4, 8, 1, 5, 9, 2, 6, -1, 3, 7, -1]);
});
