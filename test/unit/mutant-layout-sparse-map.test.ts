/**
 * `SparseLayout` forward, inverse (both memories), summary and regions of one fibered tensor, every answer whole
 * (steps and reasons included), worked out by hand from the placement rules (research formats.md A.1, A.7):
 * entry k of the file sits at main entry mainBase + k, bytes 8·(mainBase + k) .. +7 (u32 index, then the f32 value
 * at +4); the header sits at metadata words t (order n), t+1..t+n (shape), t+1+n+f (pointer of fiber f = mainBase +
 * ptr[f]) and t+1+n+F (the end pointer), t = metaBase; fibers are numbered row-major over the leading modes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SparseLayout, type SparsePlacement } from '../../core/layout/models/sparse';
import { emptyBreakdown } from '../../core/layout/model';
import { CoordError } from '../../core/layout/util';

/**
 * 2 × 3 × 5, F = 6 fibers (row-major over [2, 3]):
 *   fiber 0 (0,0): indices 0, 4   → file entries 0, 1
 *   fiber 1 (0,1): empty
 *   fiber 2 (0,2): indices 1, 2, 3 → entries 2, 3, 4
 *   fiber 3 (1,0): index 4         → entry 5
 *   fiber 4 (1,1): empty
 *   fiber 5 (1,2): indices 0, 2    → entries 6, 7
 * ptr = [0, 2, 2, 5, 6, 6, 8], nnz 8; main entries 10..17 (bytes 80..143); header t = 20: 2 + 3 + 6 = 11 words, 20..30.
 */
const P: SparsePlacement = { shape: [2, 3, 5], ptr: [0, 2, 2, 5, 6, 6, 8], index: [0, 4, 1, 2, 3, 4, 0, 2], mainBase: 10, metaBase: 20 };
const STORED: Record<string, number> = { '0,0,0': 0, '0,0,4': 1, '0,2,1': 2, '0,2,2': 3, '0,2,3': 4, '1,0,4': 5, '1,2,0': 6, '1,2,2': 7 };
const m = new SparseLayout({ placement: P });
const MAIN = { kind: 'space', index: 0, label: 'main memory' };
const META = { kind: 'space', index: 1, label: 'metadata memory' };

/** A whole forward result: the five steps' values in order, then the sparse fields. */
const STEPS = ['coordinate', 'fiber', 'fiber pointer', 'fiber entries', 'entry'];
const fwd = (coord: number[], address: number, values: string[], f: Record<string, unknown>) => ({
  model: 'sparse',
  coord,
  address,
  unit: MAIN,
  size: f.stored ? 8 : 0,
  steps: values.map((value, i) => ({ name: STEPS[i], value })),
  ...f,
});

test('forward of a stored element and of an implicit zero in an empty fiber: every field and step', () => {
  // (0, 2, 3): fiber 0·3 + 2 = 2, pointer word 20 + 1 + 3 + 2 = 26 (byte 104 = 0x68); fiber 2 = main 10+2 .. 10+5−1;
  // index 3 is file entry 4 → main entry 14, bytes 112..119 (0x70..0x77), value at 116 (0x74)
  const values = [
    '(0, 2, 3)',
    '2 (row-major over [2, 3])',
    'metadata word 26 = t + 1 + 3 + 2 (byte 0x68)',
    'main 12..14 (3 entries)',
    'main entry 14 (index 3): bytes 0x70..0x77, value at 0x74',
  ];
  const stored = { fiber: 2, pointerWord: 26, fiberStart: 12, fiberEnd: 15, entry: 14, stored: true, valueAddress: 116 };
  assert.deepEqual(m.forward([0, 2, 3]), fwd([0, 2, 3], 112, values, stored));
  // (1, 1, 2): fiber 1·3 + 1 = 4, empty: ptr[4] = ptr[5] = 6 → main 16..15; pointer word 20 + 4 + 4 = 28 (byte 112 = 0x70)
  const zero = { fiber: 4, pointerWord: 28, fiberStart: 16, fiberEnd: 16, entry: undefined, stored: false, valueAddress: undefined };
  assert.deepEqual(
    m.forward([1, 1, 2]),
    fwd(
      [1, 1, 2],
      NaN,
      [
        '(1, 1, 2)',
        '4 (row-major over [2, 3])',
        'metadata word 28 = t + 1 + 3 + 4 (byte 0x70)',
        'main 16..15 (0 entries)',
        'none: index 2 is not stored, the value is 0',
      ],
      zero,
    ),
  );
  // (1, 0, 4): fiber 3, the only entry (file entry 5 → main 15, byte 120 = 0x78); pointer word 27 (byte 108 = 0x6c)
  assert.deepEqual(
    m
      .forward([1, 0, 4])
      .steps.map((s) => s.value)
      .slice(2),
    ['metadata word 27 = t + 1 + 3 + 3 (byte 0x6c)', 'main 15..15 (1 entry)', 'main entry 15 (index 4): bytes 0x78..0x7f, value at 0x7c'],
  );
});

test('forward over every coordinate: the stored ones at main entry 10 + k, the others not stored', () => {
  for (let a = 0; a < 2; a++)
    for (let b = 0; b < 3; b++)
      for (let c = 0; c < 5; c++) {
        const k = STORED[`${a},${b},${c}`];
        const f = m.forward([a, b, c]);
        const want = k === undefined ? [false, undefined, NaN] : [true, 10 + k, (10 + k) * 8];
        assert.deepEqual([f.stored, f.entry, f.address], want, `(${a}, ${b}, ${c})`);
      }
  assert.throws(() => m.forward([0, 3, 0]), CoordError);
  assert.throws(() => m.forward([0, 0]), CoordError);
  assert.equal(m.checkCoord([1, 2, 4]), undefined);
});

test('inverse in main memory: the entry, its fiber found past empty fibers, index or value byte', () => {
  // byte 118 = main entry 14 (file entry 4), byte 6: the value; fiber 2 = last f with ptr[f] ≤ 4 → (0, 2), index 3
  assert.deepEqual(m.inverse(118), {
    model: 'sparse',
    address: 118,
    unit: MAIN,
    kind: 'element',
    coord: [0, 2, 3],
    byteInElement: 6,
    steps: [
      { name: 'main entry', value: '14, byte 6 (f32 value)' },
      { name: 'fiber', value: '2 (0, 2)' },
      { name: 'coordinate', value: '(0, 2, 3)' },
    ],
  });
  // byte 99 = entry 12 (file entry 2), byte 3 of the u32 index: ptr[1] = ptr[2] = 2, the last such fiber is 2
  assert.deepEqual(m.inverse(99).steps, [
    { name: 'main entry', value: '12, byte 3 (u32 index)' },
    { name: 'fiber', value: '2 (0, 2)' },
    { name: 'coordinate', value: '(0, 2, 1)' },
  ]);
  // byte 4 of entry 15 (file entry 5, fiber 3 = (1, 0)): the value's first byte
  assert.deepEqual(m.inverse(124).steps[0], { name: 'main entry', value: '15, byte 4 (f32 value)' });
  // every entry: file entry k → its coordinate; byte 4 (the value's first byte)
  for (const [c, k] of Object.entries(STORED)) {
    const r = m.inverse((10 + k) * 8 + 4);
    assert.deepEqual([r.kind, r.coord, r.byteInElement], ['element', c.split(',').map(Number), 4], c);
  }
});

test('inverse in main memory outside the entries: before, after, a fractional byte', () => {
  const out = (address: number, entry: string) => ({
    model: 'sparse',
    address,
    unit: MAIN,
    kind: 'outside',
    steps: [{ name: 'main entry', value: entry }],
    reason: 'the entries are main 10..17',
  });
  assert.deepEqual(m.inverse(79), out(79, '9, byte 7 (f32 value)')); // entry 9, one below the first
  assert.deepEqual(m.inverse(144), out(144, '18, byte 0 (u32 index)')); // entry 18, one past the last
  assert.deepEqual(m.inverse(100.5), out(100.5, '12, byte 4.5 (f32 value)')); // inside entry 12, but no byte
});

test('inverse in metadata memory: order, shape, fiber pointers with their fiber, end pointer, outside', () => {
  const meta = (address: number, word: string, reason: string, kind = 'metadata') => ({
    model: 'sparse',
    address,
    unit: META,
    kind,
    steps: [{ name: 'metadata word', value: word }],
    reason,
  });
  assert.deepEqual(m.inverse(81, 1), meta(81, '20 (t + 0), byte 1', 'order (3)'));
  assert.deepEqual(m.inverse(84, 1), meta(84, '21 (t + 1), byte 0', 'shape[0] (2)'));
  assert.deepEqual(m.inverse(95, 1), meta(95, '23 (t + 3), byte 3', 'shape[2] (5)'));
  // word 24 = t + 1 + 3 + 0: fiber 0 → main 10 + ptr[0]; word 26: fiber 2 = (0, 2) → 10 + 2; word 29: fiber 5 = (1, 2) → 10 + 6
  assert.deepEqual(m.inverse(96, 1), meta(96, '24 (t + 4), byte 0', 'pointer of fiber 0 (0, 0) → main 10'));
  assert.deepEqual(m.inverse(106, 1), meta(106, '26 (t + 6), byte 2', 'pointer of fiber 2 (0, 2) → main 12'));
  assert.deepEqual(m.inverse(116, 1), meta(116, '29 (t + 9), byte 0', 'pointer of fiber 5 (1, 2) → main 16'));
  // word 30 = t + 10: the end pointer, 10 + ptr[6] = 18
  assert.deepEqual(m.inverse(123, 1), meta(123, '30 (t + 10), byte 3', 'end pointer → main 18'));
  // 3 × 4 (n = 2, F = 3) at t = 0: word 4 = t + 1 + 2 + 1, the pointer of fiber 1 = (1) → main 0 + ptr[1] = 1
  const small = new SparseLayout({ placement: { shape: [3, 4], ptr: [0, 1, 1, 2], index: [0, 3], mainBase: 0, metaBase: 0 } });
  assert.equal(small.inverse(16, 1).reason, 'pointer of fiber 1 (1) → main 1');
  const header = 'the header is metadata words 20..30';
  assert.deepEqual(m.inverse(124, 1), meta(124, '31 (t + 11), byte 0', header, 'outside'));
  assert.deepEqual(m.inverse(79, 1), meta(79, '19 (t + -1), byte 3', header, 'outside'));
  assert.deepEqual(m.inverse(80.5, 1), meta(80.5, '20 (t + 0), byte 0.5', header, 'outside'));
});

test('summary: 8 of 30 stored, 2 empty fibers, 64 B of entries at 0x50 and 11 metadata words', () => {
  // elements 2·3·5 = 30; 8 / 30 = 26.7 %; entries 8 × 8 = 64 B at 10 · 8 = 80 = 0x50; header 11 × 4 = 44 B
  assert.deepEqual(m.summary(), {
    model: 'sparse',
    elements: 30,
    slots: 8,
    paddingSlots: 0,
    bytes: 108,
    breakdown: { ...emptyBreakdown(), element: 64, metadata: 44 },
    paddingPercent: 0,
    units: undefined,
    blocks: { name: 'entry', count: 8, bytes: 8 },
    short: '8 entries (26.7 % dense) · 64 B main + 11 metadata words',
    facts: [
      { name: 'shape', value: '[2, 3, 5]: 6 fibers along the last mode' },
      { name: 'stored', value: '8 of 30 elements (26.7 %), 2 empty fibers' },
      { name: 'main memory', value: 'entries 10..17 × 8 B (u32 index, f32 value) = 64 B at 0x50' },
      { name: 'metadata', value: 'words 20..30: order, shape, 6 fiber pointers and the end pointer (11 words)' },
    ],
  });
  // order 1, all 4 stored: one fiber, none empty, 100 % dense; header 2 + 1 + 1 = 4 words
  const d = new SparseLayout({ placement: { shape: [4], ptr: [0, 4], index: [0, 1, 2, 3], mainBase: 0, metaBase: 0 } }).summary();
  assert.deepEqual(
    [d.short, ...d.facts.map((x) => x.value)],
    [
      '4 entries (100 % dense) · 32 B main + 4 metadata words',
      '[4]: 1 fiber along the last mode',
      '4 of 4 elements (100 %), 0 empty fibers',
      'entries 0..3 × 8 B (u32 index, f32 value) = 32 B at 0x0',
      'words 0..3: order, shape, 1 fiber pointers and the end pointer (4 words)',
    ],
  );
});

test('summary counts the empty fibers of a tensor with more than 2^22 fibers (all of them)', () => {
  // (2^22 + 3) × 1 with nothing stored: every fiber is empty; the header takes 2 + 2 + F words
  const F = 2 ** 22 + 3;
  const big = new SparseLayout({ placement: { shape: [F, 1], ptr: new Int32Array(F + 1), index: [], mainBase: 0, metaBase: 0 }, metaCapacity: F + 4 });
  assert.equal(big.summary().facts[1].value, '0 of 4,194,307 elements (0 %), 4,194,307 empty fibers');
});

test('regions: main entries labelled with their coordinate, header words with their meaning, runs over a range', () => {
  const r = m.regions();
  assert.deepEqual([r.kind, r.unitName, r.slotName, r.slotBytes], ['fibers', 'memory', 'entry', 8]);
  assert.deepEqual(r.units, [
    { label: 'main memory', base: 80, slots: 8 },
    { label: 'metadata memory', base: 80, slots: 11, slotBytes: 4 },
  ]);
  // main slot 5 = entry 15 = (1, 0, 4); metadata slot 6 = word 26, the pointer of fiber 2; slot 0 = the order
  assert.deepEqual(r.slot(0, 5), { kind: 'data', index: 5, elements: 1, first: [1, 0, 4], label: 'entry 15: (1, 0, 4)' });
  assert.deepEqual(r.slot(1, 6), { kind: 'data', index: 6, elements: 0, label: 'pointer of fiber 2 (0, 2) → main 12' });
  assert.deepEqual(r.slot(1, 0), { kind: 'data', index: 0, elements: 0, label: 'order (3)' });
  // past the header (slot 11 = word 31) the reason is the outside one
  assert.equal(r.slot(1, 11).label, 'the header is metadata words 20..30');
  // past the entries no coordinate
  assert.deepEqual(r.slot(0, 8), { kind: 'data', index: 8, elements: 1, first: undefined, label: 'entry 18: ' });
  const runs = (u: number, from?: number, to?: number) => [...r.runs(u, from, to)].map((x) => [x.kind, x.from, x.to]);
  assert.deepEqual(runs(0), [['data', 0, 8]]);
  assert.deepEqual(runs(1), [['data', 0, 11]]);
  assert.deepEqual(runs(0, 3), [['data', 3, 8]]);
  assert.deepEqual(runs(1, 2, 5), [['data', 2, 5]]);
});
