/**
 * Spyre sticks (`SpyreLayout`, research layouts.md part A), whole answers pinned with every explanation step: forward
 * and inverse under a dim_map, a stride_map that is no tiling (S11), a broadcast stride_map and a non-STANDARD element
 * arrangement; the slack of an int64 allocation; the stick counts and summaries (closed form and stick by stick); the
 * batch mapping's other paths. Each expected value is worked out here from A.6: element offset Σ device·device stride,
 * stick ⌊offset / eps⌋, byte offset offset·bytes (STANDARD) or stick·128 (other arrangements), address base + bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SpyreLayout, type SpyreSpec } from '../../core/layout/models/spyre';

const spyre = (spec: SpyreSpec) => new SpyreLayout(spec);
// float16 [3, 100] at 0x1000 in device [2, 3, 64], dim_map [1, 0, 1]: (r, c) → device (⌊c/64⌋, r, c mod 64),
// device strides [192, 64, 1], 6 sticks = 768 B
const A = () => spyre({ shape: [3, 100], dtype: 'float16', base: 0x1000, layout: { kind: 'dim_map', deviceSize: [2, 3, 64], dimMap: [1, 0, 1] } });
// S11 at 0x800: float16 [4800] in [3, 2, 14, 64], stride_map [120, 64, 360, 1] (no tiling), device strides [1792, 896, 64, 1]
const S11 = () =>
  spyre({ shape: [4800], dtype: 'float16', base: 0x800, layout: { kind: 'stride_map', deviceSize: [3, 2, 14, 64], strideMap: [120, 64, 360, 1] } });
const NO_BREAKDOWN = { element: 0, padding: 0, alignment: 0, unused: 0, metadata: 0, replica: 0, slack: 0, gap: 0 };

test('dim_map forward and inverse: every step, the byte inside an element, padding, outside, bad coordinates', () => {
  const m = A();
  // (1, 70): device (1, 1, 6), element 192 + 64 + 6 = 262, stick ⌊262/64⌋ = 4, slot 6 (byte 12), 524 B, 0x1000 + 524 = 0x120c;
  // host offset 1·100 + 70 = 170 (no step: a dim_map does not go through it)
  assert.deepEqual(m.forward([1, 70]), {
    model: 'spyre',
    coord: [1, 70],
    address: 0x120c,
    size: 2,
    steps: [
      { name: 'host coordinate', value: '(1, 70)' },
      { name: 'device coordinate', value: '(1, 1, 6)' },
      { name: 'element offset (Σ device·device stride)', value: '262' },
      { name: 'stick', value: '4 (128 B each)' },
      { name: 'offset in stick', value: 'slot 6, byte 12' },
      { name: 'byte offset', value: '524' },
      { name: 'address', value: '0x120c' },
    ],
    hostOffset: 170,
    device: [1, 1, 6],
    elemOffset: 262,
    byteOffset: 524,
    stick: 4,
    slot: 6,
    stickByte: 12,
  });
  // one byte further: byte 525 = stick 4 byte 13, element 262, its byte 1
  assert.deepEqual(m.inverse(0x120d), {
    model: 'spyre',
    address: 0x120d,
    kind: 'element',
    coord: [1, 70],
    byteInElement: 1,
    steps: [
      { name: 'byte offset', value: '525' },
      { name: 'stick', value: '4, byte 13 in it' },
      { name: 'slot in stick', value: '6' },
      { name: 'element offset', value: '262' },
      { name: 'device coordinate', value: '(1, 1, 6)' },
      { name: 'host coordinate', value: '(1, 70)' },
    ],
    reason: undefined,
  });
  // device (1, 0, 36) = element 192 + 36 = 228, byte 456 (stick 3, byte 72): column 64 + 36 = 100 is past the row
  assert.deepEqual(m.inverse(0x1000 + 456), {
    model: 'spyre',
    address: 0x1000 + 456,
    kind: 'padding',
    steps: [
      { name: 'byte offset', value: '456' },
      { name: 'stick', value: '3, byte 72 in it' },
      { name: 'slot in stick', value: '36' },
      { name: 'element offset', value: '228' },
      { name: 'device coordinate', value: '(1, 0, 36)' },
    ],
    reason: 'host dim 1 would be 100, beyond its size 100',
  });
  assert.deepEqual(m.inverse(0x1300), {
    model: 'spyre',
    address: 0x1300,
    kind: 'outside',
    steps: [{ name: 'byte offset', value: '768' }],
    reason: 'the tensor occupies 0x1000..0x12ff',
  });
  assert.throws(() => m.forward([3, 0]), { name: 'RangeError', message: 'index 3 is out of range for dimension 0: valid is 0..2' });
  assert.throws(() => m.deviceProbe([0, 0]), { name: 'RangeError', message: 'the device layout has 3 dimensions but 2 indices were given' });
});

test('S11 (no tiling) forward and inverse go through the host offset, and step it', () => {
  const m = S11();
  // 4799 = 13·360 + 0·120 + 1·64 + 55 → device (0, 1, 13, 55), element 896 + 832 + 55 = 1783, stick 27 slot 55,
  // 3566 B, 0x800 + 3566 = 0x15ee
  assert.deepEqual(m.forward([4799]), {
    model: 'spyre',
    coord: [4799],
    address: 0x15ee,
    size: 2,
    steps: [
      { name: 'host coordinate', value: '(4799)' },
      { name: 'host offset (Σ coord·host stride)', value: '4,799' },
      { name: 'device coordinate', value: '(0, 1, 13, 55)' },
      { name: 'element offset (Σ device·device stride)', value: '1,783' },
      { name: 'stick', value: '27 (128 B each)' },
      { name: 'offset in stick', value: 'slot 55, byte 110' },
      { name: 'byte offset', value: '3,566' },
      { name: 'address', value: '0x15ee' },
    ],
    hostOffset: 4799,
    device: [0, 1, 13, 55],
    elemOffset: 1783,
    byteOffset: 3566,
    stick: 27,
    slot: 55,
    stickByte: 110,
  });
  assert.deepEqual(m.inverse(0x15ef), {
    model: 'spyre',
    address: 0x15ef,
    kind: 'element',
    coord: [4799],
    byteInElement: 1,
    steps: [
      { name: 'byte offset', value: '3,567' },
      { name: 'stick', value: '27, byte 111 in it' },
      { name: 'slot in stick', value: '55' },
      { name: 'element offset', value: '1,783' },
      { name: 'device coordinate', value: '(0, 1, 13, 55)' },
      { name: 'host offset', value: '4,799' },
      { name: 'host coordinate', value: '(4799)' },
    ],
    reason: undefined,
  });
});

test('S11 in a batch: each address as forward gives it, NaN outside', () => {
  // 0 → device (0, 0, 0, 0): 0x800; 4799 → 0x15ee (above); 124 = 0·360 + 1·120 + 0·64 + 4 → device (1, 0, 0, 4),
  // element 1792 + 4 = 1796 → 0x800 + 3592; a longer buffer keeps its tail
  const out = new Float64Array(5).fill(-1);
  S11().forwardMany(Int32Array.from([0, 4799, 124, 4800]), out);
  assert.deepEqual([...out], [0x800, 0x15ee, 0x800 + 3592, NaN, -1]);
  // a scalar with a non-STANDARD arrangement: one coordinate of rank 0, stick 0 at the base
  const scalar = spyre({ shape: [], dtype: 'float32', elementArrangement: 'FP32_TO_DL16', base: 0x80, layout: { kind: 'default' } });
  assert.deepEqual([...scalar.forwardMany(new Int32Array(0))], [0x80]);
});

test('S11 sticks: 40 full, 40 with 56 elements, 4 empty; regions, runs and the summary agree', () => {
  // slot (a, b, c, d) holds host 360c + 120a + 64b + d exactly when the greedy split gives it back: 64b + d < 120, so
  // b = 0 sticks hold 64 elements and b = 1 sticks 56; for c = 13 the offset must stay below 4800 − 4680 = 120,
  // which leaves a = 0 only. Stick index = 28a + 14b + c.
  const m = S11();
  assert.deepEqual(m.stickCounts(), { sticks: 84, data: 80, partial: 40 });
  const reg = m.regions();
  assert.deepEqual(
    [0, 13, 14, 27, 28, 41].map((s) => reg.slot(0, s)),
    [
      { kind: 'data', index: 0, elements: 64, first: [0], label: 'stick 0: 64/64 elements, first (0)' },
      { kind: 'data', index: 13, elements: 64, first: [4680], label: 'stick 13: 64/64 elements, first (4680)' },
      { kind: 'partial', index: 14, elements: 56, first: [64], label: 'stick 14: 56/64 elements, first (64)' },
      { kind: 'partial', index: 27, elements: 56, first: [4744], label: 'stick 27: 56/64 elements, first (4744)' },
      { kind: 'data', index: 28, elements: 64, first: [120], label: 'stick 28: 64/64 elements, first (120)' },
      { kind: 'padding', index: 41, elements: 0, first: undefined, label: 'stick 41: 0/64 elements' },
    ],
  );
  assert.deepEqual(
    [...reg.runs(0)].map((r) => [r.kind, r.from, r.to]),
    [
      ['data', 0, 14],
      ['partial', 14, 28],
      ['data', 28, 41],
      ['padding', 41, 42],
      ['partial', 42, 55],
      ['padding', 55, 56],
      ['data', 56, 69],
      ['padding', 69, 70],
      ['partial', 70, 83],
      ['padding', 83, 84],
    ],
  );
  // 5376 slots for 4800 elements; 84 sticks = 10,752 B (10.5 KiB) against 9,600 B of host data
  assert.deepEqual(m.summary(), {
    model: 'spyre',
    elements: 4800,
    slots: 5376,
    paddingSlots: 576,
    bytes: 10752,
    breakdown: { ...NO_BREAKDOWN, element: 9600, padding: 1152 },
    paddingPercent: (100 * 576) / 5376,
    blocks: { name: 'stick', count: 84, bytes: 128 },
    short: '10.5 KiB · 84 sticks · 10.7 % padding',
    facts: [
      { name: 'dtype', value: 'float16 → SEN169_FP16, 64 elements per 128-byte stick' },
      { name: 'host size', value: '[4800], strides [1]' },
      { name: 'device_size', value: '[3, 2, 14, 64]' },
      { name: 'stride_map', value: '[120, 64, 360, 1]' },
      { name: 'device strides', value: '[1792, 896, 64, 1]' },
      { name: 'sticks', value: '84 (80 with data, 40 partly filled)' },
      { name: 'device bytes', value: '10.5 KiB (10,752 B)' },
      { name: 'allocation', value: '10.5 KiB = max(device 10.5 KiB, host 9,600 B)' },
      { name: 'utilisation', value: '4,800 of 5,376 slots (89.3 %)' },
      { name: 'address range', value: '0x800..0x31ff' },
    ],
  });
});

test('a stride_map −1 dim of size 2 in front of S11: only its coordinate 0 holds data', () => {
  const m = spyre({ shape: [4800], dtype: 'float16', layout: { kind: 'stride_map', deviceSize: [2, 3, 2, 14, 64], strideMap: [-1, 120, 64, 360, 1] } });
  // device (1, 0, 0, 0, 0) = element 3·2·14·64 = 5376, byte 10752 = stick 84
  assert.deepEqual(m.deviceProbe([1, 0, 0, 0, 0]), {
    model: 'spyre',
    address: 10752,
    kind: 'padding',
    steps: [
      { name: 'byte offset', value: '10,752' },
      { name: 'stick', value: '84, byte 0 in it' },
      { name: 'slot in stick', value: '0' },
      { name: 'element offset', value: '5,376' },
      { name: 'device coordinate', value: '(1, 0, 0, 0, 0)' },
    ],
    reason: 'device dim 0 carries no host data (stride_map −1): only coordinate 0 is used, this is 1',
  });
  const e = m.deviceProbe([0, 0, 0, 0, 5]);
  assert.deepEqual([e.kind, e.coord, e.address], ['element', [5], 10]);
});

test('broadcast [60] → [1, 512, 64], stride_map [64, 0, 1]: replicas, one stick with data, the summary', () => {
  const m = spyre({ shape: [60], dtype: 'float16', layout: { kind: 'stride_map', deviceSize: [1, 512, 64], strideMap: [64, 0, 1] } });
  // device (0, 3, 5) = element 3·64 + 5 = 197, byte 394 (stick 3, byte 10): a copy of element 5
  assert.deepEqual(m.inverse(394), {
    model: 'spyre',
    address: 394,
    kind: 'replica',
    coord: [5],
    byteInElement: 0,
    steps: [
      { name: 'byte offset', value: '394' },
      { name: 'stick', value: '3, byte 10 in it' },
      { name: 'slot in stick', value: '5' },
      { name: 'element offset', value: '197' },
      { name: 'device coordinate', value: '(0, 3, 5)' },
      { name: 'host offset', value: '5' },
      { name: 'host coordinate', value: '(5)' },
    ],
    reason: 'broadcast copy (stride_map 0)',
  });
  assert.equal(m.inverse(10).reason, undefined, 'stick 0 holds the elements themselves');
  // 512 sticks of 64 slots: 60 elements, 60·511 = 30,660 replicas, 32,768 − 60 − 30,660 = 2048 padding slots;
  // slots counted without replicas: 2108. Only stick 0 holds elements (60 of 64); the others hold copies.
  assert.deepEqual(m.stickCounts(), { sticks: 512, data: 1, partial: 1 });
  assert.deepEqual(m.summary(), {
    model: 'spyre',
    elements: 60,
    slots: 2108,
    paddingSlots: 2048,
    bytes: 65536,
    breakdown: { ...NO_BREAKDOWN, element: 120, replica: 61320, padding: 4096 },
    paddingPercent: (100 * 2048) / 2108,
    blocks: { name: 'stick', count: 512, bytes: 128 },
    short: '64 KiB · 512 sticks · 97.2 % padding',
    facts: [
      { name: 'dtype', value: 'float16 → SEN169_FP16, 64 elements per 128-byte stick' },
      { name: 'host size', value: '[60], strides [1]' },
      { name: 'device_size', value: '[1, 512, 64]' },
      { name: 'stride_map', value: '[64, 0, 1]' },
      { name: 'device strides', value: '[32768, 64, 1]' },
      { name: 'sticks', value: '512 (1 with data, 1 partly filled)' },
      { name: 'device bytes', value: '64 KiB (65,536 B)' },
      { name: 'allocation', value: '64 KiB = max(device 64 KiB, host 120 B)' },
      { name: 'utilisation', value: '60 of 32,768 slots (0.18 %), 30,660 broadcast replicas' },
      { name: 'address range', value: '0x0..0xffff' },
    ],
  });
});

test('summary facts of a dim_map and of the same layout given as a stride_map', () => {
  // A: 300 elements in 384 slots, 84 padding (21.875 %); sticks: 3 columns-0..63 sticks full, 3 with 36 elements
  assert.deepEqual(A().summary(), {
    model: 'spyre',
    elements: 300,
    slots: 384,
    paddingSlots: 84,
    bytes: 768,
    breakdown: { ...NO_BREAKDOWN, element: 600, padding: 168 },
    paddingPercent: (100 * 84) / 384,
    blocks: { name: 'stick', count: 6, bytes: 128 },
    short: '768 B · 6 sticks · 21.9 % padding',
    facts: [
      { name: 'dtype', value: 'float16 → SEN169_FP16, 64 elements per 128-byte stick' },
      { name: 'host size', value: '[3, 100]' },
      { name: 'device_size', value: '[2, 3, 64]' },
      { name: 'dim_map', value: '[1, 0, 1]' },
      // A.7.1: the stick digit gets host stride 1, the row 100, the column-tile digit 1·64
      { name: 'stride_map', value: '[64, 100, 1]' },
      { name: 'device strides', value: '[192, 64, 1]' },
      { name: 'sticks', value: '6 (6 with data, 3 partly filled)' },
      { name: 'device bytes', value: '768 B (768 B)' },
      { name: 'allocation', value: '768 B = max(device 768 B, host 600 B)' },
      { name: 'utilisation', value: '300 of 384 slots (78.1 %)' },
      { name: 'address range', value: '0x1000..0x12ff' },
    ],
  });
  // the stride_map form is a tiling (dim_map [1, 0, 1] reconstructed): host strides are stated, the dim_map is not
  const v2 = spyre({ shape: [3, 100], dtype: 'float16', base: 0x1000, layout: { kind: 'stride_map', deviceSize: [2, 3, 64], strideMap: [64, 100, 1] } });
  assert.deepEqual(v2.dimMap, [1, 0, 1]);
  assert.deepEqual(v2.summary().facts.slice(1, 5), [
    { name: 'host size', value: '[3, 100], strides [100, 1]' },
    { name: 'device_size', value: '[2, 3, 64]' },
    { name: 'stride_map', value: '[64, 100, 1]' },
    { name: 'device strides', value: '[192, 64, 1]' },
  ]);
});

test('int64 [64]: 256 device bytes (IEEE_INT32), 512 allocated (8 B per host element): the slack', () => {
  const m = spyre({ shape: [64], dtype: 'int64', layout: { kind: 'default' } });
  // default [64] at 32 per stick: device [2, 32]; byte 255 = element 63 (device (1, 31)), its byte 3
  const e = m.inverse(255);
  assert.deepEqual([e.kind, e.coord, e.byteInElement], ['element', [63], 3]);
  for (const a of [256, 300, 511])
    assert.deepEqual(m.inverse(a), {
      model: 'spyre',
      address: a,
      kind: 'slack',
      steps: [{ name: 'byte offset', value: String(a) }],
      reason: 'allocation beyond the 256 B device layout (allocation = max(device, host) = 512 B)',
    });
  assert.equal(m.inverse(512).kind, 'outside');
  const s = m.summary();
  assert.deepEqual([s.bytes, s.breakdown.element, s.breakdown.padding, s.breakdown.slack], [512, 256, 0, 256]);
  assert.deepEqual(s.facts[8], { name: 'allocation', value: '512 B = max(device 256 B, host 512 B)' });
  assert.deepEqual(s.facts[10], { name: 'address range', value: '0x0..0x1ff' });
});

test('FP32_TO_DL16 (written with its enum prefix, in lower case): addresses of sticks, the slot unspecified', () => {
  // float32 [3, 100] by default: 32 per stick, device [4, 3, 32], dim_map [1, 0, 1], strides [96, 32, 1]; at 0x100
  const m = spyre({ shape: [3, 100], dtype: 'float32', elementArrangement: 'ElementArrangement.fp32_to_dl16', base: 0x100, layout: { kind: 'default' } });
  // (2, 99): device (3, 2, 3), element 288 + 64 + 3 = 355, stick 11 → 0x100 + 11·128 = 0x680
  assert.deepEqual(m.forward([2, 99]), {
    model: 'spyre',
    coord: [2, 99],
    address: 0x680,
    size: 4,
    steps: [
      { name: 'host coordinate', value: '(2, 99)' },
      { name: 'device coordinate', value: '(3, 2, 3)' },
      { name: 'element offset (Σ device·device stride)', value: '355' },
      { name: 'stick', value: '11 (128 B each)' },
      { name: 'offset in stick', value: 'unspecified (FP32_TO_DL16)' },
      { name: 'byte offset', value: '1,408' },
      { name: 'address', value: '0x680' },
    ],
    hostOffset: 299,
    device: [3, 2, 3],
    elemOffset: 355,
    byteOffset: 1420,
    stick: 11,
    slot: undefined,
    stickByte: undefined,
  });
  assert.deepEqual(m.inverse(0x685), {
    model: 'spyre',
    address: 0x685,
    kind: 'element',
    steps: [
      { name: 'byte offset', value: '1,413' },
      { name: 'stick', value: '11, byte 5 in it' },
      { name: 'offset in stick', value: 'unspecified (FP32_TO_DL16)' },
    ],
    reason: 'the order inside a stick is hardware-defined for FP32_TO_DL16',
  });
  // the batch gives the same stick addresses (not the STANDARD byte addresses); a longer buffer keeps its tail
  const out = new Float64Array(4).fill(-1);
  // (0, 33): device (1, 0, 1), element 97, stick 3
  m.forwardMany(Int32Array.from([2, 99, 0, 33, 3, 0]), out);
  assert.deepEqual([...out], [0x680, 0x100 + 3 * 128, NaN, -1]);
  // which elements a stick holds does not depend on the arrangement: columns 96..99 of each row share a stick
  assert.deepEqual(m.stickCounts(), { sticks: 12, data: 12, partial: 3 });
  assert.deepEqual(m.regions().slot(0, 11), { kind: 'partial', index: 11, elements: 4, first: [2, 96], label: 'stick 11: 4/32 elements, first (2, 96)' });
  // with a prefix and STANDARD the slot is given
  const std = spyre({ shape: [64], dtype: 'float32', elementArrangement: 'x.standard', layout: { kind: 'default' } });
  assert.deepEqual([std.arrangement, std.forward([40]).slot, std.forward([40]).address], ['STANDARD', 8, 160]);
});

test('stick fill of a padded row dim and of a sparse layout with a padded tile', () => {
  // float16 [3, 100] in [2, 4, 64], dim_map [1, 0, 1]: stick (t, r) holds row r < 3, columns 64t..; row 3 is padding
  const rows = spyre({ shape: [3, 100], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [2, 4, 64], dimMap: [1, 0, 1] } });
  const reg = rows.regions();
  assert.deepEqual(
    Array.from({ length: 8 }, (_, s) => [reg.slot(0, s).kind, reg.slot(0, s).elements, reg.slot(0, s).first]),
    [
      ['data', 64, [0, 0]],
      ['data', 64, [1, 0]],
      ['data', 64, [2, 0]],
      ['padding', 0, undefined],
      ['partial', 36, [0, 64]],
      ['partial', 36, [1, 64]],
      ['partial', 36, [2, 64]],
      ['padding', 0, undefined],
    ],
  );
  assert.deepEqual(rows.stickCounts(), { sticks: 8, data: 6, partial: 3 });
  // sparse [3, 2] in [3, 1, 3, 64], dim_map [1, −1, 0, −1]: stick 3x + z holds host (z, x) at slot 0 when x < 2
  const sp = spyre({ shape: [3, 2], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [3, 1, 3, 64], dimMap: [1, -1, 0, -1] } });
  const r2 = sp.regions();
  assert.deepEqual(
    [4, 7].map((s) => r2.slot(0, s)),
    [
      { kind: 'partial', index: 4, elements: 1, first: [1, 1], label: 'stick 4: 1/64 elements, first (1, 1)' },
      { kind: 'padding', index: 7, elements: 0, first: undefined, label: 'stick 7: 0/64 elements' },
    ],
  );
});

test('stick counts at the edges: a stick dim that fills whole sticks; exactly 2^18 slots is still enumerated', () => {
  // float16 [2, 128] by default: [2, 2, 64], two full sticks per row, none partly filled
  assert.deepEqual(spyre({ shape: [2, 128], dtype: 'float16', layout: { kind: 'default' } }).stickCounts(), { sticks: 4, data: 4, partial: 0 });
  // [64] in [4096, 64] with stride_map [1, 1] (no tiling): 4096·64 = 2^18 slots, the enumeration limit itself. Slot
  // (a, b) holds host offset a + b; greedy takes the inner dim first on equal strides, so offset h < 64 sits at (0, h):
  // stick 0 holds all 64 elements, every other slot aliases one of them
  const m = spyre({ shape: [64], dtype: 'float16', layout: { kind: 'stride_map', deviceSize: [4096, 64], strideMap: [1, 1] } });
  assert.deepEqual(m.stickCounts(), { sticks: 4096, data: 1, partial: 0 });
  assert.deepEqual(m.summary().facts[5], { name: 'sticks', value: '4,096 (1 with data)' });
});

test('batch mapping past the table limit writes only its own entries; a host element with no device slot', () => {
  // float16 [2, 2^21] in [2^15, 2, 64], dim_map [1, 0, 1]: (1, 100) → device (1, 1, 36), element (1·2 + 1)·64 + 36 = 228
  const m = spyre({ shape: [2, 2 ** 21], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [2 ** 15, 2, 64], dimMap: [1, 0, 1] } });
  const out = new Float64Array(2).fill(-1);
  m.forwardMany(Int32Array.from([1, 100]), out);
  assert.deepEqual([...out], [456, -1]);
  // S11 stretched to 700 column tiles holds host offsets up to 699·360 + 359 = 251,999; a host of 252,100 is accepted
  // unverified (268,800 slots is over the enumeration limit), and its element 252,050 has nowhere to go
  const big = spyre({ shape: [252100], dtype: 'float16', layout: { kind: 'stride_map', deviceSize: [3, 2, 700, 64], strideMap: [120, 64, 360, 1] } });
  assert.throws(() => big.forward([252050]), { name: 'RangeError', message: 'host element (252050) has no device position under this stride_map' });
  assert.deepEqual(big.stickCounts(), { sticks: 4200 });
  assert.deepEqual(big.summary().facts[5], { name: 'sticks', value: '4,200 (not counted: over 262,144 slots to enumerate)' });
});
