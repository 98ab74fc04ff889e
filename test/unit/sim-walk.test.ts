/**
 * The engine's element enumeration (core/sim/engine/walk.ts Walker) on hand-built descriptors: each element's
 * location (−1 when clipped by a checked bound, a buffer limit or the partial last row), the linear start of a
 * contiguous walk, the span of valid locations, and the located refusals (unevaluated, empty, too many elements).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Walker } from '../../core/sim/engine/walk';
import type { Descriptor, Level } from '../../core/tprog/descriptor';

type Lv = Partial<Level>;

function desc(levels: Lv[], extra: Partial<Descriptor> = {}): Descriptor {
  return {
    space: 'MEM',
    written: 'MEM',
    elemBytes: 1,
    base: 0,
    levels: levels.map((l, k) => ({ kind: 'dim', label: `p[${k}]`, dim: k, begin: 0, step: 1, count: 1, stride: 1, size: 1 << 20, checkHigh: true, ...l })),
    total: undefined,
    pad: undefined,
    repeat: false,
    problems: [],
    ...extra,
  };
}

function locs(w: Walker, from = 0, n = w.total - from): number[] {
  const out = new Int32Array(n);
  w.fill(from, n, out);
  return [...out];
}

test('locations with clipped elements: rows past a 2-row dimension and columns below 0 are −1', () => {
  // p[0:2][-1:2] of rows 10 elements apart, 2 rows, 8 columns
  const w = new Walker(
    desc([
      { count: 3, stride: 10, size: 2 },
      { count: 4, stride: 1, begin: -1, size: 8 },
    ]),
    'test',
  );
  assert.equal(w.total, 12);
  assert.deepEqual(locs(w), [-1, 0, 1, 2, -1, 10, 11, 12, -1, -1, -1, -1]);
  // from the middle
  assert.deepEqual(locs(w, 5, 3), [10, 11, 12]);
  assert.deepEqual(w.span(), { lo: 0, hi: 12, count: 6 });
  assert.equal(w.linearStart(), undefined);
  // step 2 on a checked column bound of 5: 0, 2, 4, (6 clipped)
  const s = new Walker(desc([{ count: 4, stride: 3, step: 2, size: 5 }]), 'test');
  assert.deepEqual(locs(s), [0, 6, 12, -1]);
  assert.deepEqual(s.span(), { lo: 0, hi: 12, count: 3 });
  // the same bound unchecked (`+`): every element valid
  const u = new Walker(desc([{ count: 4, stride: 3, step: 2, size: 5, checkHigh: false }]), 'test');
  assert.deepEqual(locs(u), [0, 6, 12, 18]);
});

test('linearStart: the first location of a gapless walk, else undefined', () => {
  assert.equal(
    new Walker(
      desc([
        { count: 2, stride: 4 },
        { count: 4, stride: 1 },
      ]),
      't',
    ).linearStart(),
    0,
  );
  // begins shift the start: row 1, column 2 of rows of 4 → 6 (the rows still follow each other)
  const shifted = new Walker(
    desc([
      { count: 2, stride: 4, begin: 1 },
      { count: 4, stride: 1 },
    ]),
    't',
  );
  assert.equal(shifted.linearStart(), 4);
  assert.deepEqual(locs(shifted), [4, 5, 6, 7, 8, 9, 10, 11]);
  // a gap between rows
  assert.equal(
    new Walker(
      desc([
        { count: 2, stride: 5 },
        { count: 4, stride: 1 },
      ]),
      't',
    ).linearStart(),
    undefined,
  );
  // columns 2..5 of rows 4 apart, no bound: 2, 3, …, 9 without a gap
  assert.equal(
    new Walker(
      desc([
        { count: 2, stride: 4 },
        { count: 4, stride: 1, begin: 2 },
      ]),
      't',
    ).linearStart(),
    2,
  );
  // the same in a 5-column dimension: column 5 is clipped
  assert.equal(
    new Walker(
      desc([
        { count: 2, stride: 4 },
        { count: 4, stride: 1, begin: 2, size: 5 },
      ]),
      't',
    ).linearStart(),
    undefined,
  );
  // count-1 levels do not break it; a PCORE walk starts at its base word
  assert.equal(
    new Walker(
      desc(
        [
          { count: 1, stride: 4096, begin: 2 },
          { count: 6, stride: 1 },
        ],
        { space: 'PCORE', base: 0x10 },
      ),
      't',
    ).linearStart(),
    0x10 + 2 * 4096,
  );
  // a buffer limit
  assert.equal(new Walker(desc([{ count: 4, stride: 1 }], { bufLimit: 100 }), 't').linearStart(), undefined);
});

test('a buffer limit (bytes) clips the elements past it', () => {
  // INT16 elements, 10 bytes: elements 0..4
  const w = new Walker(desc([{ count: 8, stride: 1 }], { elemBytes: 2, bufLimit: 10 }), 't');
  assert.equal(w.limit, 5);
  assert.deepEqual(locs(w), [0, 1, 2, 3, 4, -1, -1, -1]);
  assert.equal(w.span(), undefined);
  // PCORE walks have no buffer limit
  assert.equal(new Walker(desc([{ count: 8, stride: 1 }], { space: 'PCORE', bufLimit: 10 }), 't').limit, Infinity);
});

test('refusals: an unevaluated level, an empty or non-positive range, more than 2^31 elements', () => {
  const throwsWith = (d: Descriptor, re: RegExp) => assert.throws(() => new Walker(d, 'source'), re);
  throwsWith(desc([{ count: undefined }]), /source: the size or range of p\[0\] could not be evaluated/);
  throwsWith(desc([{ begin: undefined }]), /could not be evaluated/);
  throwsWith(desc([{ step: undefined }]), /could not be evaluated/);
  throwsWith(desc([{ stride: undefined }]), /could not be evaluated/);
  throwsWith(desc([{ count: 0 }]), /source: empty or negative range at p\[0\] \(count 0, step 1\)/);
  throwsWith(desc([{ count: 3, step: 0 }]), /count 3, step 0/);
  throwsWith(desc([{ count: 3, step: -1 }]), /count 3, step -1/);
  throwsWith(
    desc([
      { count: 2 ** 16, stride: 1 },
      { count: 2 ** 15 + 1, stride: 1 },
    ]),
    /more than the engine's 2\^31 element limit/,
  );
  // exactly 2^31 is accepted
  assert.equal(
    new Walker(
      desc([
        { count: 2 ** 16, stride: 1 },
        { count: 2 ** 15, stride: 1 },
      ]),
      't',
    ).total,
    2 ** 31,
  );
});
