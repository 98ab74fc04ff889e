/**
 * PyTorch strided views, whole answers pinned: the rule messages (PT001–PT007) with fields, indices and fixes, the
 * canonical and coalesced forms and the nesting test, forward and inverse with every explanation step, the summary
 * facts, and the distinct-element count with its limits. Every expected value is worked out here from the rules:
 * storage element = offset + Σ cᵢ·strideᵢ, byte address = base + element · element size, span = offset +
 * Σ (sizeᵢ − 1)·strideᵢ + 1 elements.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalForm, coalesce, nonOverlapping, overlapOf, StridedLayout, type StridedSpec, validateStrided } from '../../core/layout/models/strided';
import type { Issue } from '../../core/layout/issues';
import { CoordError, LayoutError } from '../../core/layout/util';

const spec = (s: Partial<StridedSpec> & { shape: number[] }): StridedSpec => ({ dtype: 'float32', ...s });
const iss = (code: string, severity: Issue['severity'], message: string, field: string, index?: number, fixes?: Issue['fixes']): Issue => ({
  code,
  severity,
  message,
  field,
  index,
  fixes,
});
const SIZE = (i: number, s: number) => iss('PT007', 'error', `size[${i}] is ${s}; sizes must be integers ≥ 1`, '@shape', i);
const OVERLAP = (why: string, a: string, b: string, element: number) =>
  iss(
    'PT005',
    'warning',
    `dims overlap in memory (${why}): coordinates ${a} and ${b} share storage element ${element}, so writes through this view race`,
    'strides',
  );
const FORMS = (cs: string, co: string) => iss('PT006', 'information', `canonical form (size-1 dims dropped): ${cs}; coalesced: ${co}`, '@shape');

test('rules: sizes, stride count and values, offset — each error with its field and index; errors stop the checks', () => {
  // 0 and 2.5 are not sizes; 1 is
  assert.deepEqual(validateStrided(spec({ shape: [0, 2.5, 1] })), [SIZE(0, 0), SIZE(1, 2.5)]);
  // [0, 3] alone: had the checks gone on, coalescing (3 == 3·1) would add a PT006 of sizes [0]
  assert.deepEqual(validateStrided(spec({ shape: [0, 3] })), [SIZE(0, 0)]);
  // 3 strides for rank 2: contiguous strides of [4, 3] are [3, 1]; a stride of 0 is allowed, -1 and 0.5 are not
  assert.deepEqual(validateStrided(spec({ shape: [4, 3], strides: [0, -1, 0.5] })), [
    iss('PT001', 'error', '3 strides for a rank-2 tensor; give one stride per dim (contiguous: [3, 1])', 'strides', undefined, [
      { title: 'Use contiguous strides [3, 1]', field: 'strides', newText: '[3, 1]', preferred: true },
    ]),
    iss('PT002', 'error', 'stride[1] is -1; PyTorch strides are integers ≥ 0', 'strides', 1),
    iss('PT002', 'error', 'stride[2] is 0.5; PyTorch strides are integers ≥ 0', 'strides', 2),
  ]);
  for (const offset of [-1, 1.5])
    assert.deepEqual(validateStrided(spec({ shape: [2], offset })), [iss('PT003', 'error', `storage offset ${offset} must be an integer ≥ 0`, 'offset')]);
  assert.deepEqual(validateStrided(spec({ shape: [2], offset: 0 })), []);
});

test('rules: storage too small (PT004 with its fix), overlap (PT005, why), canonical and coalesced forms (PT006)', () => {
  // [4, 3] strides [1, 4] from offset 2: span = 2 + 3·1 + 2·4 + 1 = 14 elements, the last one is element 13
  const view = spec({ shape: [4, 3], strides: [1, 4], offset: 2 });
  assert.deepEqual(validateStrided({ ...view, storage: 13 }), [
    iss('PT004', 'error', 'the view reaches storage element 13 but the storage has 13 elements (needs ≥ 14)', 'storage', undefined, [
      { title: 'Set storage to 14', field: 'storage', newText: '14', preferred: true },
    ]),
  ]);
  // 14 is enough; the dims nest (1·3 + 1 = 4 ≤ 4) and do not merge (4 ≠ 3·1): nothing to say
  assert.deepEqual(validateStrided({ ...view, storage: 14 }), []);
  // a stride 0 on a dim of 4 broadcasts; [4, 3] does not coalesce (0 ≠ 3·1)
  assert.deepEqual(validateStrided(spec({ shape: [4, 3], strides: [0, 1] })), [OVERLAP('a stride 0 broadcasts', '(0, 0)', '(1, 0)', 0)]);
  // a sliding window (offsets a + b) interleaves: (0, 1) and (1, 0) both reach element 1 (from offset 5: element 6); so does
  // it behind a size-1 dim of stride 0, which broadcasts nothing
  assert.deepEqual(validateStrided(spec({ shape: [3, 3], strides: [1, 1] })), [OVERLAP('strides interleave', '(0, 1)', '(1, 0)', 1)]);
  assert.deepEqual(validateStrided(spec({ shape: [3, 3], strides: [1, 1], offset: 5 })), [OVERLAP('strides interleave', '(0, 1)', '(1, 0)', 6)]);
  assert.deepEqual(validateStrided(spec({ shape: [1, 3, 3], strides: [0, 1, 1] })), [
    OVERLAP('strides interleave', '(0, 0, 1)', '(0, 1, 0)', 1),
    FORMS('sizes [3, 3], strides [1, 1]', 'sizes [3, 3], strides [1, 1]'),
  ]);
  // contiguous [2, 3] (strides 3, 1) nests and coalesces to one dim of 6
  assert.deepEqual(validateStrided(spec({ shape: [2, 3] })), [FORMS('sizes [2, 3], strides [3, 1]', 'sizes [6], strides [1]')]);
  // rows of 4 at a pitch of 8: nested (1·3 + 1 = 4 ≤ 8), not mergeable (8 ≠ 4·1)
  assert.deepEqual(validateStrided(spec({ shape: [3, 4], strides: [8, 1] })), []);
});

test('canonical form, coalescing and the nesting test', () => {
  assert.deepEqual(canonicalForm([1, 5, 1], [7, 2, 9]), { sizes: [5], strides: [2] });
  // [3, 1, 2, 4] strides [16, 5, 8, 1] → canonical [3, 2, 4] / [16, 8, 1]; 16 = 2·8 merges to 6 of stride 8; 8 ≠ 4·1
  assert.deepEqual(coalesce([3, 1, 2, 4], [16, 5, 8, 1]), { sizes: [6, 4], strides: [8, 1] });
  // [2, 3, 2] strides [12, 4, 2]: 12 = 3·4, then 4 = 2·2 → one dim of 12, stride 2
  assert.deepEqual(coalesce([2, 3, 2], [12, 4, 2]), { sizes: [12], strides: [2] });
  assert.deepEqual(coalesce([1, 1], [5, 7]), { sizes: [], strides: [] });
  // sorted by stride, each stride must reach past the span of the smaller ones: span = stride·(size − 1) + span
  const cases: [number[], number[], boolean][] = [
    [[2, 3], [3, 1], true], // 1 ≥ 1 → span 3; 3 ≥ 3
    [[3, 3], [1, 3], true], // 1 ≥ 1 → span 3; 3 ≥ 3
    [[4, 3], [1, 4], true], // 1 ≥ 1 → span 4; 4 ≥ 4
    [[3, 3], [1, 2], false], // span 3 after stride 1; 2 < 3 (0 + 2·1 = 2·1 + 0)
    [[2, 3], [3, 2], false], // span 5 after stride 2; 3 < 5 (conservative: 0 2 4 3 5 7 are distinct)
    [[5, 1], [1, 0], true], // the size-1 dim is dropped before the test
    [[4, 3], [0, 1], false], // stride 0 < span 1
  ];
  for (const [shape, strides, want] of cases) assert.equal(nonOverlapping(shape, strides), want, `${shape} / ${strides}`);
});

test('a spec with errors does not build (every error in the message); warnings build', () => {
  assert.throws(
    () => new StridedLayout(spec({ shape: [0, 2.5] })),
    (e: unknown) => e instanceof LayoutError && e.message === 'size[0] is 0; sizes must be integers ≥ 1; size[1] is 2.5; sizes must be integers ≥ 1',
  );
  assert.equal(new StridedLayout(spec({ shape: [4, 3], strides: [0, 1] })).numel, 12);
  // storage 13 for a span of 14 is an error; a caller that has reported it (validated) gets the view, reserving 14
  const short = spec({ shape: [4, 3], strides: [1, 4], offset: 2, storage: 13 });
  assert.throws(() => new StridedLayout(short), /needs ≥ 14/);
  assert.equal(new StridedLayout(short, true).reserved, 14);
});

// a 4×3 float32 matrix seen transposed (3×4, strides 1, 3), from storage element 2, in a 20-element storage at 0x100
const T = () => new StridedLayout(spec({ shape: [3, 4], strides: [1, 3], offset: 2, storage: 20, base: 0x100 }));

test('forward: the whole answer with its steps; the offset term only when there is one; rank 0; bad coordinates', () => {
  // (2, 3): element 2 + 2·1 + 3·3 = 13, byte 13·4 = 52, address 0x100 + 52 = 0x134
  assert.deepEqual(T().forward([2, 3]), {
    model: 'strided',
    coord: [2, 3],
    address: 0x134,
    size: 4,
    steps: [
      { name: 'coordinate', value: '(2, 3)' },
      { name: 'storage element', value: '13 = 2 + 2·1 + 3·3' },
      { name: 'byte offset', value: '52 = 13 · 4 B' },
      { name: 'address', value: '0x134' },
    ],
    element: 13,
    byteOffset: 52,
  });
  // contiguous int32 [2000] at 0x40: element 1500, byte 6000, address 0x40 + 6000 = 0x17b0; no "0 + "
  assert.deepEqual(new StridedLayout({ shape: [2000], dtype: 'int32', base: 0x40 }).forward([1500]).steps, [
    { name: 'coordinate', value: '(1500)' },
    { name: 'storage element', value: '1,500 = 1500·1' },
    { name: 'byte offset', value: '6,000 = 1,500 · 4 B' },
    { name: 'address', value: '0x17b0' },
  ]);
  // a rank-0 view is its offset: element 7 = 7 + 0 (empty sum)
  const s = new StridedLayout({ shape: [], dtype: 'int8', offset: 7 });
  assert.deepEqual(
    s.forward([]).steps.map((x) => x.value),
    ['()', '7 = 7 + 0', '7 = 7 · 1 B', '0x7'],
  );
  const bad = (c: number[], msg: string) =>
    assert.throws(
      () => T().forward(c),
      (e: unknown) => e instanceof CoordError && e.message === msg,
    );
  bad([3, 0], 'index 3 is out of range for dimension 0: valid is 0..2');
  bad([0], 'the tensor has 2 dimensions but 1 index were given');
});

test('inverse: element with its byte, gaps before the offset and past the view, outside the storage — whole answers', () => {
  const m = T();
  const steps = (off: string, e?: string, c?: string) => [
    { name: 'byte offset', value: off },
    ...(e ? [{ name: 'storage element', value: e }] : []),
    ...(c ? [{ name: 'coordinate', value: c }] : []),
  ];
  // 0x135: byte 53 = element 13, byte 1; 13 − 2 = 11 = 2·1 + 3·3 → (2, 3)
  assert.deepEqual(m.inverse(0x135), {
    model: 'strided',
    address: 0x135,
    kind: 'element',
    coord: [2, 3],
    byteInElement: 1,
    steps: steps('53', '13, byte 1', '(2, 3)'),
  });
  // element 2 is the offset itself: (0, 0)
  assert.deepEqual(m.inverse(0x108).coord, [0, 0]);
  // 0x107: element 1, before the offset 2
  assert.deepEqual(m.inverse(0x107), {
    model: 'strided',
    address: 0x107,
    kind: 'gap',
    steps: steps('7', '1, byte 3'),
    reason: "storage before the view's offset 2",
  });
  // element 14 (0x138) and the last element 19 (0x14f, byte 3): past the span of 14, inside the 20-element storage
  for (const [a, off, e] of [
    [0x138, '56', '14, byte 0'],
    [0x14f, '79', '19, byte 3'],
  ] as const)
    assert.deepEqual(m.inverse(a), { model: 'strided', address: a, kind: 'gap', steps: steps(off, e), reason: 'storage element not reached by this view' });
  // the storage is 20·4 = 80 bytes: 0x100..0x14f
  for (const [a, off] of [
    [0x150, '80'],
    [0xff, '-1'],
    [0x100 + 2.5, '2.5'],
  ] as const)
    assert.deepEqual(m.inverse(a), { model: 'strided', address: a, kind: 'outside', steps: steps(off), reason: 'the storage occupies 0x100..0x14f' });
});

test('summary of the transposed view: 20 elements × 4 B, 12 touched, 40 % gaps; the labels of five kinds of view', () => {
  // 12 of 20 elements → 48 B of 80, gap 32 B = 40.0 %; nothing coalesces (1 ≠ 4·3); storage 0x100..0x100 + 79
  assert.deepEqual(T().summary(), {
    model: 'strided',
    elements: 12,
    slots: 12,
    paddingSlots: 0,
    bytes: 80,
    breakdown: { element: 48, padding: 0, alignment: 0, unused: 0, metadata: 0, replica: 0, slack: 0, gap: 32 },
    paddingPercent: 0,
    blocks: { name: 'storage element', count: 20, bytes: 4 },
    short: '80 B storage · 40.0 % gaps',
    facts: [
      { name: 'sizes', value: '[3, 4]' },
      { name: 'strides', value: '[1, 3] elements' },
      { name: 'storage offset', value: '2' },
      { name: 'canonical form', value: 'sizes [3, 4], strides [1, 3]' },
      { name: 'coalesced', value: 'sizes [3, 4], strides [1, 3]' },
      { name: 'storage', value: '20 elements × 4 B = 80 B; the view touches 12 of them' },
      { name: 'address', value: '0x100..0x14f' },
    ],
  });
  const label = (shape: number[], strides?: number[]) => {
    const s = new StridedLayout(spec({ shape, strides })).summary();
    return [s.short, s.facts[1].value, s.facts[5].value];
  };
  // contiguous [2, 1, 3]: strides 3, 3, 1; 6 elements, 24 B
  assert.deepEqual(label([2, 1, 3]), ['24 B storage · contiguous', '[3, 3, 1] elements (contiguous)', '6 elements × 4 B = 24 B; the view touches 6 of them']);
  // rows of 4 at a pitch of 8: span 2·8 + 3 + 1 = 20 elements, 12 touched → 32 B of 80 are gaps; the last stride alone
  // is contiguous, the first is not
  assert.deepEqual(label([3, 4], [8, 1]), ['80 B storage · 40.0 % gaps', '[8, 1] elements', '20 elements × 4 B = 80 B; the view touches 12 of them']);
  // transposed from 0: span 2 + 9 + 1 = 12 = every element, permuted
  assert.deepEqual(label([3, 4], [1, 3]), ['48 B storage · permuted, no gaps', '[1, 3] elements', '12 elements × 4 B = 48 B; the view touches 12 of them']);
  // a broadcast of 3 elements 4 times: span 3, touched 3
  assert.deepEqual(label([4, 3], [0, 1]), [
    '12 B storage · permuted, no gaps · overlapping',
    '[0, 1] elements',
    '3 elements × 4 B = 12 B; the view touches 3 of them (dims overlap)',
  ]);
});

test('regions and placements of the transposed view: one storage unit of 20 elements from 0x100', () => {
  const m = T();
  const r = m.regions();
  assert.deepEqual(
    [r.kind, r.unitName, r.slotName, r.slotBytes, r.units],
    ['storage', 'storage', 'element', 4, [{ label: 'storage', base: 0x100, slots: 20 }]],
  );
  // element 13 = 2 + 2·1 + 3·3 is (2, 3); element 1 is before the offset
  assert.deepEqual(r.slot(0, 13), { kind: 'data', index: 13, elements: 1, first: [2, 3], label: 'storage element 13: (2, 3)' });
  assert.deepEqual(r.slot(0, 1), { kind: 'unused', index: 1, elements: 0, label: 'storage element 1: not in the view' });
  assert.deepEqual(
    [...r.runs(0, 1, 15)].map((x) => [x.kind, x.from, x.to]),
    [
      ['unused', 1, 2],
      ['data', 2, 14],
      ['unused', 14, 15],
    ],
  );
  assert.deepEqual(m.placements(), [{ space: 'host', start: 0x100, end: 0x150, what: 'host storage' }]);
  assert.deepEqual([m.unitKind, m.unitCount(), m.unitIndex(), m.unitLabel()], [undefined, 1, undefined, 'storage']);
  // forwardMany into a given array: 0x100 + (2 + r + 3c)·4 → (0, 0) 0x108, (2, 3) 0x134, (1, 1) 0x100 + 6·4 = 0x118
  const out = new Float64Array(3);
  assert.equal(m.forwardMany(Int32Array.from([0, 0, 2, 3, 1, 1]), out), out);
  assert.deepEqual([...out], [0x108, 0x134, 0x118]);
});

test('distinct elements: counted where dims interleave, bounded past 2^22 coordinates, broadcast dims skipped', () => {
  const distinct = (shape: number[], strides: number[], offset = 0) => new StridedLayout({ shape, strides, offset, dtype: 'int8' }).distinctElements();
  // 2a + 4b, a < 3, b < 2: 0 2 4 | 4 6 8 → 5 (the span, 9, and the count, 6, are both more)
  assert.equal(distinct([3, 2], [2, 4]), 5);
  // 0 2 4 | 3 5 7: not nested but all distinct
  assert.equal(distinct([2, 3], [3, 2]), 6);
  // 2^22 coordinates are still counted: 2(a + b) for a, b < 2048 takes the 4095 even values 0..8188 (the bound, the
  // span 2·2047·2 + 1 = 8189, would be wrong)
  assert.equal(distinct([2048, 2048], [2, 2]), 4095);
  // 2^23 coordinates of a sliding window are not counted: at most the span from the offset, 4095 + 2047 + 1 = 6143
  // (the storage offset 10 does not add reachable elements)
  assert.equal(distinct([4096, 2048], [1, 1], 10), 6143);
  // 2^40 coordinates: 2^21 − 1 offsets, at once
  assert.equal(distinct([2 ** 20, 2 ** 20], [1, 1]), 2 ** 21 - 1);
  // a row of 3 at stride 2, broadcast 2^23 times: 3 elements (not the span of 5)
  assert.equal(distinct([2 ** 23, 3], [0, 2]), 3);
});

test('coordinate of a storage element: greedy over nested dims, searched where dims interleave, never past 2^22', () => {
  const at = (shape: number[], strides: number[], e: number) => new StridedLayout({ shape, strides, dtype: 'int8' }).coordOfElement(e);
  // 3a + 2b over a, b < 3: 7 = 3·1 + 2·2 only (the greedy pass takes a = 2, leaving 1); 10 = 3·2 + 2·2 greedily; 1 never
  assert.deepEqual(at([3, 3], [3, 2], 7), [1, 2]);
  assert.deepEqual(at([3, 3], [3, 2], 10), [2, 2]);
  assert.equal(at([3, 3], [3, 2], 1), undefined);
  // exactly 2^22 coordinates are still searched: 4 = 3·0 + 2·2, the third coordinate in row-major order
  assert.deepEqual(at([2, 2 ** 21], [3, 2], 4), [0, 2]);
  // 2^40 coordinates: 3a + 2b = 1 has no answer, and no search looks for one
  assert.equal(at([2 ** 20, 2 ** 20], [3, 2], 1), undefined);
  // nested dims of 2^40 coordinates (row pitch 2^21, stride 2): an odd element is a gap, found without a search
  const big = new StridedLayout({ shape: [2 ** 20, 2 ** 20], strides: [2 ** 21, 2], dtype: 'int8' });
  assert.equal(big.inverse(1).reason, 'storage element not reached by this view');
  assert.deepEqual(big.coordOfElement(2 ** 21 + 6), [1, 3]);
  // a window broadcast over a last dim of 2: the greedy pass gives the first dim all it can, (2, 0, 0), not (0, 2, 0)
  assert.deepEqual(at([3, 3, 2], [1, 1, 0], 2), [2, 0, 0]);
});

test('PT005 and the summary say overlap only when two coordinates really share storage; "may" when too many to check', () => {
  const sum = (shape: number[], strides: number[]) => {
    const s = new StridedLayout(spec({ shape, strides })).summary();
    return [s.short, s.facts[5].value];
  };
  // 2×3, strides 3, 2: the dims do not nest (2 < 1 + 2·2) but the offsets 0 2 4 3 5 7 are distinct: nothing to warn about;
  // span 8 elements of 4 B, 6 touched: 8 of 32 B are gaps
  assert.deepEqual(validateStrided(spec({ shape: [2, 3], strides: [3, 2] })), []);
  assert.deepEqual(sum([2, 3], [3, 2]), ['32 B storage · 25.0 % gaps', '8 elements × 4 B = 32 B; the view touches 6 of them']);
  // 3×25,000, strides 2, 3: 2a + 3b = 2a' + 3b' needs 3 | a − a', so no two coordinates share (75,000 distinct), but
  // 75,000 coordinates are more than the rules check one by one
  assert.deepEqual(validateStrided(spec({ shape: [3, 25000], strides: [2, 3] })), [
    iss(
      'PT005',
      'information',
      'strides interleave: coordinates may share an address (not checked: 75,000 coordinates, more than 65,536); writes through this view race if they do',
      'strides',
    ),
  ]);
  // the summary counts them (up to 2^22): 75,000 distinct = every coordinate, no overlap; span 2·2 + 3·24,999 + 1 = 75,002
  assert.deepEqual(sum([3, 25000], [2, 3]), ['292.98 KiB storage · 0.00 % gaps', '75,002 elements × 4 B = 292.98 KiB; the view touches 75,000 of them']);
  // a 300×300 sliding window: 90,000 coordinates on 599 elements, counted: overlapping
  assert.deepEqual(sum([300, 300], [1, 1]), [
    '2,396 B storage · permuted, no gaps · overlapping',
    '599 elements × 4 B = 2,396 B; the view touches 599 of them (dims overlap)',
  ]);
  // exactly 65,536 coordinates are still checked one by one: 2×32,768 with strides 3, 2 do not nest (3 < 2·32,767 + 1) but
  // 3a + 2b = 3a' + 2b' needs 2 | a − a', so a = a' (injective)
  assert.deepEqual(validateStrided(spec({ shape: [2, 32768], strides: [3, 2] })), []);
  assert.equal(nonOverlapping([2, 32768], [3, 2]), false);
  // nested dims need no enumeration, however many coordinates: contiguous 300×300 coalesces (PT006 only)
  assert.deepEqual(
    validateStrided(spec({ shape: [300, 300] })).map((i) => i.code),
    ['PT006'],
  );
  // the pair found first in row-major order, relative to the offset
  assert.deepEqual(overlapOf([2, 3], [3, 1]), { kind: 'none' });
  assert.deepEqual(overlapOf([2, 3], [3, 2]), { kind: 'none' });
  assert.deepEqual(overlapOf([2, 3], [2, 1]), { kind: 'shared', a: [0, 2], b: [1, 0], element: 2, broadcast: false });
  assert.deepEqual(overlapOf([2, 1, 3], [1, 0, 0]), { kind: 'shared', a: [0, 0, 0], b: [0, 0, 1], element: 0, broadcast: true });
  assert.deepEqual(overlapOf([300, 300], [1, 1]), { kind: 'unknown', coordinates: 90000 });
  // a sliding window of 3 × 2^21: a bound of 2^21 + 2 elements below 6,291,456 coordinates: they overlap (pigeonhole)
  assert.deepEqual(sum([3, 2 ** 21], [1, 1])[1], '2,097,154 elements × 4 B = 8 MiB; the view touches at most 2,097,154 of them (dims overlap)');
  // 3 × 2^21 (6,291,456 coordinates) past the counting limit: the count is a bound, the overlap unknown
  assert.deepEqual(
    sum([3, 2 ** 21], [2, 3])[1],
    '6,291,458 elements × 4 B = 24 MiB; the view touches at most 6,291,456 of them (dims may overlap; too many coordinates to count)',
  );
});
