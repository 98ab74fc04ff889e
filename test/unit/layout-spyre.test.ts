/**
 * Spyre layouts: every worked example of research layouts.md A.10 (S1–S11, with the doc typo of A.11
 * corrected: device (a,b,c,d) ↔ host (c, a, 64·b + d)), the default-layout algorithm (A.5), the
 * stride_map derivations (A.7) and each rule of the A.8 catalogue.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SpyreLayout, type SpyreSpec, validateSpyre, spyreDefaultLayout, dimMapToStrideMap, strideMapToDimMap } from '../../core/layout/models/spyre';
import type { DType } from '../../core/layout/dtypes';
import { analyzeLayout } from '../../core/layout/index';

const dm = (shape: number[], deviceSize: number[], dimMap: number[], dtype: DType = 'float16') =>
  new SpyreLayout({ shape, dtype, layout: { kind: 'dim_map', deviceSize, dimMap } });
const def = (shape: number[], dimOrder?: number[], dtype: DType = 'float16') => new SpyreLayout({ shape, dtype, layout: { kind: 'default', dimOrder } });
const sm = (shape: number[], deviceSize: number[], strideMap: number[], dtype: DType = 'float16') =>
  new SpyreLayout({ shape, dtype, layout: { kind: 'stride_map', deviceSize, strideMap } });
const codes = (spec: SpyreSpec) => validateSpyre(spec).map((i) => i.code);

test('S1 — the seed document tiled example [128,256,512], dim_map [1,2,0,2]', () => {
  const s = dm([128, 256, 512], [256, 8, 128, 64], [1, 2, 0, 2]);
  assert.deepEqual(s.devStrides, [65536, 8192, 64, 1]);
  const sum = s.summary();
  assert.equal(sum.slots, 16_777_216);
  assert.equal(sum.elements, 16_777_216);
  assert.equal(sum.paddingSlots, 0);
  assert.equal(sum.bytes, 33_554_432);
  assert.deepEqual(s.strideMap, [512, 64, 131072, 1]);
  const f = s.forward([5, 7, 300]);
  assert.deepEqual(f.device, [7, 4, 5, 44]);
  assert.equal(f.elemOffset, 491_884);
  assert.equal(f.byteOffset, 983_768);
  assert.equal(f.stick, 7_685);
  assert.equal(f.stickByte, 88);
  assert.equal(f.address, 983_768);
  // device (a,b,c,d) → host (c, a, 64·b + d): the design doc's "(c, a, b*d)" is a typo
  const r = s.deviceProbe([3, 2, 10, 5]);
  assert.equal(r.kind, 'element');
  assert.deepEqual(r.coord, [10, 3, 133]);
  for (const [a, b, c, d] of [
    [0, 0, 0, 0],
    [255, 7, 127, 63],
    [17, 3, 99, 12],
  ])
    assert.deepEqual(s.deviceProbe([a, b, c, d]).coord, [c, a, 64 * b + d]);
  assert.deepEqual(s.inverse(983_768).coord, [5, 7, 300]);
  // the same layout given as the stride_map the current runtime prints
  const v2 = sm([128, 256, 512], [256, 8, 128, 64], [512, 64, 131072, 1]);
  assert.deepEqual(v2.dimMap, [1, 2, 0, 2]);
  assert.equal(v2.forward([5, 7, 300]).address, 983_768);
});

test('S2 — the same layout used for a padded host [100,200,500]', () => {
  const s = dm([100, 200, 500], [256, 8, 128, 64], [1, 2, 0, 2]);
  const sum = s.summary();
  assert.equal(sum.elements, 10_000_000);
  assert.equal(sum.slots, 16_777_216);
  assert.equal(sum.paddingSlots, 16_777_216 - 10_000_000);
  assert.equal(((100 * 10_000_000) / 16_777_216).toFixed(1), '59.6');
  const f = s.forward([99, 199, 499]);
  assert.deepEqual(f.device, [199, 7, 99, 51]);
  assert.equal(f.elemOffset, 13_105_395);
  assert.equal(f.byteOffset, 26_210_790);
  for (const x of [
    [0, 7, 0, 52],
    [200, 0, 0, 0],
    [0, 0, 100, 0],
  ])
    assert.equal(s.deviceProbe(x).kind, 'padding', `device ${x}`);
  assert.match(s.deviceProbe([0, 7, 0, 52]).reason!, /host dim 2 would be 500/);
  // stride_map of a contiguous [100,200,500] host is not the user guide's [512,64,131072,1] (A.11 #4)
  assert.deepEqual(s.strideMap, [500, 64, 100000, 1]);
  const view = new SpyreLayout({
    shape: [100, 200, 500],
    dtype: 'float16',
    hostStrides: [131072, 512, 1],
    layout: { kind: 'dim_map', deviceSize: [256, 8, 128, 64], dimMap: [1, 2, 0, 2] },
  });
  assert.deepEqual(view.strideMap, [512, 64, 131072, 1]);
});

test('S3 — sparse [512,256] with dim_order [0,1,-1]', () => {
  const s = def([512, 256], [0, 1, -1]);
  assert.deepEqual(s.dimMap, [1, -1, 0, -1]);
  assert.deepEqual(s.deviceSize, [256, 1, 512, 64]);
  assert.deepEqual(s.strideMap, [1, -1, 256, -1]);
  assert.deepEqual(s.devStrides, [32768, 32768, 64, 1]);
  assert.equal(s.deviceBytes, 16_777_216);
  assert.ok(s.sparse);
  const f = s.forward([3, 5]);
  assert.deepEqual(f.device, [5, 0, 3, 0]);
  assert.equal(f.elemOffset, 164_032);
  assert.equal(f.byteOffset, 328_064);
  assert.equal(f.stick, 2_563);
  assert.equal(f.slot, 0);
  assert.equal(s.deviceProbe([5, 0, 3, 1]).kind, 'padding');
  assert.deepEqual(s.stickCounts(), { sticks: 131072, data: 131072, partial: 131072 });
  assert.ok(codes({ shape: [512, 256], dtype: 'float16', layout: { kind: 'default', dimOrder: [0, 1, -1] } }).includes('SPY012'));
});

test('S4 — 1-D default [100]; [120] and [128] give the same device size', () => {
  const s = def([100]);
  assert.deepEqual(s.dimMap, [0, 0]);
  assert.deepEqual(s.deviceSize, [2, 64]);
  assert.deepEqual(s.strideMap, [64, 1]);
  assert.equal(s.summary().bytes, 256);
  const f = s.forward([70]);
  assert.deepEqual(f.device, [1, 6]);
  assert.equal(f.elemOffset, 70);
  const p = s.deviceProbe([1, 36]);
  assert.equal(p.kind, 'padding');
  for (const n of [120, 128]) {
    assert.deepEqual(def([n]).deviceSize, [2, 64]);
    assert.deepEqual(def([n]).strideMap, [64, 1]);
  }
});

test('S5 — 2-D default [1024,256]', () => {
  const s = def([1024, 256]);
  assert.deepEqual(s.dimMap, [1, 0, 1]);
  assert.deepEqual(s.deviceSize, [4, 1024, 64]);
  assert.deepEqual(s.strideMap, [64, 256, 1]);
  assert.equal(s.summary().bytes, 512 * 1024);
  const f = s.forward([10, 130]);
  assert.deepEqual(f.device, [2, 10, 2]);
  assert.equal(f.elemOffset, 131_714);
  assert.equal(f.byteOffset, 263_428);
  // 4 column tiles, each 1024 consecutive sticks
  assert.equal(s.forward([0, 64]).stick, 1024);
  assert.equal(s.forward([1023, 63]).stick, 1023);
});

test('S6 — 3-D default with stick padding [5,100,150]', () => {
  const s = def([5, 100, 150]);
  assert.deepEqual(s.deviceSize, [100, 3, 5, 64]);
  assert.deepEqual(s.strideMap, [150, 64, 15000, 1]);
  assert.equal(s.deviceBytes, 192_000);
  const f = s.forward([4, 99, 149]);
  assert.deepEqual(f.device, [99, 2, 4, 21]);
  assert.equal(f.elemOffset, 95_957);
  const p = s.deviceProbe([0, 2, 0, 22]);
  assert.equal(p.kind, 'padding');
  assert.match(p.reason!, /host dim 2 would be 150/);
  const o = def([5, 100, 150], [1, 0, 2]);
  assert.deepEqual(o.deviceSize, [5, 3, 100, 64]);
  assert.deepEqual(o.strideMap, [15000, 64, 150, 1]);
  assert.ok(validateSpyre({ shape: [5, 100, 150], dtype: 'float16', layout: { kind: 'default' } }).some((i) => i.code === 'SPY012' && /150/.test(i.message)));
});

test('S7 — column sticks: [512,256] with dim_order [1,0]', () => {
  const s = def([512, 256], [1, 0]);
  assert.deepEqual(s.dimMap, [0, 1, 0]);
  assert.deepEqual(s.deviceSize, [8, 256, 64]);
  assert.deepEqual(s.strideMap, [16384, 1, 256]);
  for (const [r, c] of [
    [0, 0],
    [100, 7],
    [511, 255],
  ])
    assert.deepEqual(s.forward([r, c]).device, [Math.floor(r / 64), c, r % 64]);
});

test('S8 — other default shapes (tested values)', () => {
  const cases: [number[], number[], number[], DType?][] = [
    [
      [512, 8, 256],
      [8, 4, 512, 64],
      [256, 64, 2048, 1],
    ],
    [
      [512, 240],
      [4, 512, 64],
      [64, 240, 1],
    ],
    [
      [512, 8, 240],
      [8, 4, 512, 64],
      [240, 64, 1920, 1],
    ],
    [
      [2, 3, 4, 100],
      [3, 4, 2, 2, 64],
      [400, 100, 64, 1200, 1],
    ],
    [[512, 256], [8, 512, 32], [32, 256, 1], 'float32'],
  ];
  for (const [shape, ds, strides, dtype] of cases) {
    const s = def(shape, undefined, dtype);
    assert.deepEqual(s.deviceSize, ds, `${shape}`);
    assert.deepEqual(s.strideMap, strides, `${shape}`);
  }
  assert.deepEqual(def([3, 5, 128]).deviceSize, [5, 2, 3, 64]);
  assert.deepEqual(def([2, 3, 4, 100]).dimMap, [1, 2, 3, 0, 3]);
});

test('S9 — size-1 dims', () => {
  const a = def([512, 1, 256]);
  assert.deepEqual(a.dimMap, [1, 2, 0, 2]);
  assert.deepEqual(a.deviceSize, [1, 4, 512, 64]);
  assert.deepEqual(a.strideMap, [-1, 64, 256, 1]);
  const b = def([512, 256]);
  assert.equal(a.deviceBytes, b.deviceBytes);
  for (const [r, c] of [
    [0, 0],
    [300, 200],
    [511, 255],
  ])
    assert.equal(a.forward([r, 0, c]).address, b.forward([r, c]).address);
  const c = def([512, 256, 1]);
  assert.deepEqual(c.deviceSize, [256, 1, 512, 64]);
  assert.deepEqual(c.strideMap, [1, -1, 256, -1]);
  assert.equal(c.deviceBytes, 16 * 2 ** 20);
  assert.ok(validateSpyre({ shape: [512, 256, 1], dtype: 'float16', layout: { kind: 'default' } }).some((i) => i.code === 'SPY011'));
  assert.deepEqual(def([512, 1]).deviceSize, [1, 512, 64]);
  assert.equal(def([512, 1]).deviceBytes, 64 * 1024);
  assert.deepEqual(def([512]).deviceSize, [8, 64]);
  assert.equal(def([512]).deviceBytes, 1024);
});

test('S10 — scalar', () => {
  const s = def([]);
  assert.deepEqual(s.deviceSize, [1, 64]);
  assert.deepEqual(s.dimMap, [-1, -1]);
  assert.deepEqual(s.strideMap, [-1, -1]);
  const f = s.forward([]);
  assert.equal(f.slot, 0);
  assert.equal(f.address, 0);
  assert.equal(s.summary().bytes, 128);
  assert.equal(s.inverse(2).kind, 'padding');
});

test('S11 — non-nested explicit stride_map [4800] → [3,2,14,64], stride_map [120,64,360,1]', () => {
  const s = sm([4800], [3, 2, 14, 64], [120, 64, 360, 1]);
  assert.equal(s.dimMap, undefined, 'not a tiling: mapped through stride_map');
  const sum = s.summary();
  assert.equal(sum.elements, 4800);
  assert.equal(sum.slots, 5376);
  assert.equal(sum.paddingSlots, 576);
  const a = s.deviceProbe([0, 1, 13, 55]);
  assert.equal(a.kind, 'element');
  assert.deepEqual(a.coord, [4799]);
  const b = s.deviceProbe([0, 1, 0, 60]);
  assert.equal(b.kind, 'padding');
  assert.match(b.reason!, /host offset 124 is already stored at device \(1, 0, 0, 4\)/);
  const c = s.deviceProbe([2, 1, 13, 55]);
  assert.equal(c.kind, 'padding');
  assert.match(c.reason!, /5039/);
  // forward agrees with the inverse on every element
  for (let h = 0; h < 4800; h += 7) assert.deepEqual(s.inverse(s.forward([h]).address).coord, [h]);
  assert.deepEqual(codes({ shape: [4800], dtype: 'float16', layout: { kind: 'stride_map', deviceSize: [3, 2, 14, 64], strideMap: [120, 64, 360, 1] } }), []);
});

test('A.7 — dim_map ↔ stride_map, clamped form, broadcast dims', () => {
  assert.deepEqual(dimMapToStrideMap([256, 8, 128, 64], [1, 2, 0, 2], [128, 256, 512], [131072, 512, 1]), [512, 64, 131072, 1]);
  assert.deepEqual(strideMapToDimMap([256, 8, 128, 64], [512, 64, 131072, 1], [128, 256, 512], [131072, 512, 1]), [1, 2, 0, 2]);
  // [60] → [1, 64]: the newest runtime clamps the tile dim of extent 1 to 60
  assert.deepEqual(dimMapToStrideMap([1, 64], [0, 0], [60], [1]), [64, 1]);
  assert.deepEqual(dimMapToStrideMap([1, 64], [0, 0], [60], [1], true), [60, 1]);
  for (const form of [
    [64, 1],
    [60, 1],
  ])
    assert.deepEqual(
      validateSpyre({ shape: [60], dtype: 'float16', layout: { kind: 'stride_map', deviceSize: [1, 64], strideMap: form } }).filter(
        (i) => i.severity === 'error',
      ),
      [],
    );
  // broadcast: [60] → device [1,512,64], stride_map [64,0,1]
  const b = sm([60], [1, 512, 64], [64, 0, 1]);
  const sum = b.summary();
  assert.equal(sum.breakdown.replica, 60 * 511 * 2);
  assert.equal(b.deviceProbe([0, 3, 5]).kind, 'replica');
  assert.deepEqual(b.deviceProbe([0, 3, 5]).coord, [5]);
  assert.equal(
    sum.bytes,
    Object.values(sum.breakdown).reduce((x, y) => x + y, 0),
  );
});

test('A.3 — device formats, allocation = max(device, host)', () => {
  const i64 = def([64], undefined, 'int64');
  assert.equal(i64.info.device, 'IEEE_INT32');
  assert.equal(i64.deviceBytes, 256);
  assert.equal(i64.allocBytes, 512);
  assert.equal(i64.summary().breakdown.slack, 256);
  assert.equal(i64.inverse(300).kind, 'slack');
  assert.equal(def([128], undefined, 'int8').deviceSize[1], 128);
  assert.equal(def([128], undefined, 'bfloat16').info.device, 'SEN169_FP16');
  const c = codes({ shape: [64], dtype: 'int64', layout: { kind: 'default' } });
  assert.ok(c.includes('SPY013') && c.includes('SPY018'));
});

test('A.8 — every catalogue rule fires on its case', () => {
  const cases: [string, SpyreSpec][] = [
    ['SPY001', { shape: [64], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [1, 64], dimMap: [0, 0, 0] } }],
    ['SPY002', { shape: [64], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [2, 32], dimMap: [0, 0] } }],
    ['SPY003', { shape: [64, 2], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [2, 1, 64], dimMap: [1, 2, 0] } }],
    ['SPY004', { shape: [64, 2], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [1, 64], dimMap: [0, 0] } }],
    ['SPY005', { shape: [64], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [1, 1, 64], dimMap: [0, -1, 0] } }],
    ['SPY005', { shape: [64], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [64, 2, 64], dimMap: [0, -1, -1] } }],
    ['SPY006', { shape: [100], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [1, 64], dimMap: [0, 0] } }],
    ['SPY007', { shape: [64], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [0, 64], dimMap: [0, 0] } }],
    ['SPY008', { shape: [64, 2], dtype: 'float16', layout: { kind: 'default', dimOrder: [0, 0] } }],
    ['SPY009', { shape: [64], dtype: 'complex64', layout: { kind: 'default' } }],
    ['SPY009', { shape: [64], dtype: 'uint8', layout: { kind: 'default' } }],
    ['SPY010', { shape: [100], dtype: 'float16', layout: { kind: 'stride_map', deviceSize: [1, 64], strideMap: [64, 1] } }],
    ['SPY010', { shape: [100], dtype: 'float16', layout: { kind: 'stride_map', deviceSize: [2, 64], strideMap: [64, -2] } }],
    ['SPY011', { shape: [512, 1], dtype: 'float16', layout: { kind: 'default' } }],
    ['SPY012', { shape: [8, 2], dtype: 'float16', layout: { kind: 'default' } }],
    ['SPY013', { shape: [64], dtype: 'int64', layout: { kind: 'default' } }],
    ['SPY014', { shape: [64], dtype: 'float32', elementArrangement: 'DL16_TO_FP32', layout: { kind: 'default' } }],
    ['SPY015', { shape: [2, 2, 2, 2, 2, 2, 64], dtype: 'float16', layout: { kind: 'default' } }],
    ['SPY016', { shape: [16384, 16384], dtype: 'float16', layout: { kind: 'default' } }],
    ['SPY019', { shape: [64], dtype: 'float16', deviceDtype: 'DataFormats.IEEE_FP32', layout: { kind: 'default' } }],
    ['SPY021', { shape: [64], dtype: 'float16', base: 100, layout: { kind: 'default' } }],
  ];
  for (const [code, spec] of cases) assert.ok(codes(spec).includes(code), `${code}: ${JSON.stringify(spec)} → ${codes(spec)}`);
  // a quick fix that has one right answer
  const i = validateSpyre(cases[1][1]).find((x) => x.code === 'SPY002')!;
  assert.deepEqual(i.fixes?.[0], { title: 'Set the stick size to 64', field: 'device_size', index: 1, newText: '64', preferred: true });
  // [100] in device_size [1, 64]: the outer tile digit must hold ⌈100/64⌉ = 2
  const u = validateSpyre(cases[6][1]).find((x) => x.code === 'SPY006')!;
  assert.deepEqual([u.fixes?.[0].index, u.fixes?.[0].newText], [0, '2']);
  // valid layouts report no errors; invalid ones refuse to build
  assert.ok(
    !validateSpyre({ shape: [128, 256, 512], dtype: 'float16', layout: { kind: 'dim_map', deviceSize: [256, 8, 128, 64], dimMap: [1, 2, 0, 2] } }).some(
      (x) => x.severity === 'error',
    ),
  );
  assert.throws(() => new SpyreLayout(cases[1][1]), /device_size\[1\] must be 64/);
});

test('A.5 — default layout algorithm, element arrangement, summaries of 2^30 elements by closed form', () => {
  assert.deepEqual(spyreDefaultLayout([7], 64), { deviceSize: [1, 64], dimMap: [0, 0] });
  assert.throws(() => spyreDefaultLayout([2, 3], 64, [0]), /Incompatible host_size and dim_order/);
  const ea = new SpyreLayout({ shape: [64], dtype: 'float32', elementArrangement: 'FP32_TO_DL16', layout: { kind: 'default' } });
  assert.equal(ea.forward([5]).slot, undefined);
  assert.equal(ea.forward([5]).stick, 0);
  const big = def([1024, 1024, 1024]);
  let best = Infinity;
  let sum = big.summary();
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    sum = big.summary();
    best = Math.min(best, performance.now() - t0);
  }
  assert.ok(best < 50, `${best} ms`);
  assert.equal(sum.elements, 2 ** 30);
  assert.equal(sum.bytes, 2 ** 31);
});

test('a non-zero base: address = base + byte offset, forward and inverse, in every form (spec, dim_map, stride_map, the .tlayout text)', () => {
  // float16 [3, 100] in device_size [2, 3, 64], dim_map [1, 0, 1]: (i, j) → device (⌊j/64⌋, i, j mod 64),
  // element offset 192·⌊j/64⌋ + 64·i + j mod 64, 2 bytes each; the tensor starts at 0x1000 (a stick boundary)
  const base = 0x1000;
  const spec = (layout: SpyreSpec['layout']): SpyreSpec => ({ shape: [3, 100], dtype: 'float16', base, layout });
  const byHand: [number[], number[], number][] = [
    [[0, 0], [0, 0, 0], 0x1000],
    [[2, 5], [0, 2, 5], 0x1000 + 2 * 133],
    [[1, 70], [1, 1, 6], 0x1000 + 2 * 262],
    [[2, 99], [1, 2, 35], 0x1000 + 2 * 355],
  ];
  const analysis = analyzeLayout('tensor a: float16[3, 100] = spyre(device_size=[2, 3, 64], dim_map=[1, 0, 1]) at 0x1000\n', '/t/base.tlayout');
  assert.deepEqual(
    analysis.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  const fromText = analysis.tensors[0].model as SpyreLayout;
  const forms: [string, SpyreLayout][] = [
    ['dim_map', new SpyreLayout(spec({ kind: 'dim_map', deviceSize: [2, 3, 64], dimMap: [1, 0, 1] }))],
    ['stride_map', new SpyreLayout(spec({ kind: 'stride_map', deviceSize: [2, 3, 64], strideMap: [64, 100, 1] }))],
    ['.tlayout text', fromText],
  ];
  for (const [form, s] of forms) {
    assert.equal(s.base, base, form);
    for (const [coord, device, address] of byHand) {
      const f = s.forward(coord);
      assert.deepEqual(f.device, device, `${form} ${coord}`);
      assert.equal(f.byteOffset, address - base, `${form} ${coord}`);
      assert.equal(f.address, address, `${form} ${coord}`);
      assert.equal(f.steps.at(-1)?.value, `0x${address.toString(16)}`, `${form} ${coord}`);
      const r = s.inverse(address);
      assert.deepEqual([r.kind, r.coord, r.byteInElement], ['element', coord, 0], `${form} inverse 0x${address.toString(16)}`);
      assert.deepEqual([s.inverse(address + 1).coord, s.inverse(address + 1).byteInElement], [coord, 1], form);
      assert.equal(s.deviceProbe(device).address, address, `${form} device ${device}`);
      assert.deepEqual(s.deviceProbe(device).coord, coord, `${form} device ${device}`);
    }
    const many = s.forwardMany(Int32Array.from(byHand.flatMap(([c]) => c)));
    assert.deepEqual(
      Array.from(many),
      byHand.map(([, , a]) => a),
      `${form} forwardMany`,
    );
    // the offsets alone (base dropped) are not in the tensor: 768 bytes from 0x1000
    assert.equal(s.inverse(2 * 133).kind, 'outside', form);
    assert.equal(s.inverse(base - 1).kind, 'outside', form);
    assert.equal(s.inverse(base + 767).kind, 'padding', form);
    assert.equal(s.inverse(base + 768).kind, 'outside', form);
    assert.match(s.inverse(base + 768).reason!, /0x1000\.\.0x12ff/);
  }
});
