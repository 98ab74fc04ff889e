/**
 * Spyre host ↔ device maps (research layouts.md A.5–A.7), each answer worked out here from the rules: the default
 * layout's edge cases (scalar, rank 1, sparse dim orders, bad dim orders), the stride_map → dim_map heuristic of
 * A.7.2 on the inputs that exercise each of its choices, the mixed-radix maps of A.6 (with the capacity and padding
 * verdicts) and the greedy decomposition of A.7.3.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { devToHost, greedy, hostToDev, spyreDefaultLayout, strideMapOffset, strideMapToDimMap } from '../../core/layout/models/spyre';

test('default layout (A.5): scalar, rank 1, sparse dim orders, and the dim orders it refuses', () => {
  // a scalar is one stick holding one element, with or without the sparse marker
  for (const order of [undefined, [], [-1]]) assert.deepEqual(spyreDefaultLayout([], 64, order), { deviceSize: [1, 64], dimMap: [-1, -1] }, `${order}`);
  // rank 1: dim_map [o0, o0], ⌈100/64⌉ = 2 sticks
  assert.deepEqual(spyreDefaultLayout([100], 64, [0]), { deviceSize: [2, 64], dimMap: [0, 0] });
  // [5] sparse: o = [0, −1] → dim_map [o1, o0, o1] = [−1, 0, −1]; the synthetic stick-count dim has size 1
  assert.deepEqual(spyreDefaultLayout([5], 64, [0, -1]), { deviceSize: [1, 5, 64], dimMap: [-1, 0, -1] });
  // [2, 3] sparse with o = [1, 0, −1]: dim_map [0, −1, 1, −1], device_size [2, 1, 3, 64]
  assert.deepEqual(spyreDefaultLayout([2, 3], 64, [1, 0, -1]), { deviceSize: [2, 1, 3, 64], dimMap: [0, -1, 1, -1] });
  // a dim order must have one entry per dim, or one more that is −1
  for (const [shape, order] of [
    [[], [0]],
    [
      [2, 3],
      [0, 1, 0],
    ],
    [[2, 3], [0]],
    [[2, 3], [-1]],
  ])
    assert.throws(() => spyreDefaultLayout(shape, 64, order), { name: 'Error', message: 'Incompatible host_size and dim_order' }, `${shape} ${order}`);
});

test('stride_map → dim_map (A.7.2): the largest host stride ≤ the entry, then the stick dim copied into the tile slot', () => {
  const cases: [string, number[], number[], number[], number[], number[]][] = [
    // [60] broadcast to device [1, 512, 64]: size-1 and broadcast (0) entries map to −1, the stick to 0; n > 2 and
    // slot n−3 = 0 is −1, so it takes the stick's host dim
    ['broadcast', [1, 512, 64], [64, 0, 1], [60], [1], [0, -1, 0]],
    // [60] in [1, 64]: n = 2 and slot 0 is −1 → the stick's dim
    ['n = 2, tile slot filled', [1, 64], [64, 1], [60], [1], [0, 0]],
    // host [64, 2] with strides [1, 64] (a transposed view): the entry 64 takes host dim 1 (stride 64 > 1), 1 takes 0;
    // n = 2 and slot 0 is mapped: kept
    ['larger stride wins', [2, 64], [64, 1], [64, 2], [1, 64], [1, 0]],
    // host [1, 64]: the size-1 dim (stride 64) is never chosen, so 64 → host dim 1 (stride 1)
    ['size-1 host dim skipped', [2, 64], [64, 1], [1, 64], [64, 1], [1, 1]],
    // host [2, 3, 64] with strides [64, 64, 1]: a tie between dims 0 and 1 keeps the first
    ['tie keeps the first', [2, 64], [64, 1], [2, 3, 64], [64, 64, 1], [0, 2]],
    // host [4, 1] with strides [0, 1]: dim 0 is broadcast (stride 0), dim 1 has size 1: nothing to choose
    ['no candidate', [2, 64], [5, 1], [4, 1], [0, 1], [-1, -1]],
    // host [2, 3] with strides [6, 2]: every host stride exceeds the entry 1
    ['all strides too large', [3, 64], [6, 1], [2, 3], [6, 2], [0, -1]],
    // device dim 0 of size 1 maps to −1 whatever its entry; slot n−3 = 1 is mapped, so nothing is copied
    ['size-1 device dim, slot n−3 mapped', [1, 4, 512, 64], [99999, 64, 256, 1], [512, 256], [256, 1], [-1, 1, 0, 1]],
    // [3, 64] in [3, 1, 64]: slot n−3 = 0 maps to host dim 0, not the stick's dim 1: kept
    ['slot n−3 on another host dim', [3, 1, 64], [64, -1, 1], [3, 64], [64, 1], [0, -1, 1]],
  ];
  for (const [what, ds, sm, hs, strides, want] of cases) assert.deepEqual(strideMapToDimMap(ds, sm, hs, strides), want, what);
});

test('host → device (A.6.2) with its capacity verdict, device → host (A.6.1) with its padding reason', () => {
  // S1: (5, 7, 300) in [256, 8, 128, 64], dim_map [1, 2, 0, 2] → (7, ⌊300/64⌋, 5, 300 mod 64) = (7, 4, 5, 44)
  assert.deepEqual(hostToDev([5, 7, 300], [256, 8, 128, 64], [1, 2, 0, 2]), { x: [7, 4, 5, 44], fits: true });
  // (1, 100) in [2, 64], dim_map [0, 1]: column 100 leaves 100 div 64 = 1 over, row 1 fits
  assert.deepEqual(hostToDev([1, 100], [2, 64], [0, 1]), { x: [1, 36], fits: false });
  // a synthetic dim (dim_map −1) takes no digit
  assert.deepEqual(hostToDev([3], [1, 5, 64], [-1, 0, -1]), { x: [0, 3, 0], fits: true });
  // [2] sparse in [3, 64], dim_map [0, −1]: (2, 5) is off the synthetic 0 and beyond host dim 0; the first reason found
  // (right to left: the synthetic dim) is the one given
  assert.deepEqual(devToHost([2, 5], [3, 64], [0, -1], [2]), {
    h: [2],
    valid: false,
    reason: 'device dim 1 is synthetic (dim_map −1): only coordinate 0 holds data, this is 5',
  });
  assert.deepEqual(devToHost([2, 0], [3, 64], [0, -1], [2]), { h: [2], valid: false, reason: 'host dim 0 would be 2, beyond its size 2' });
  assert.deepEqual(devToHost([1, 0], [3, 64], [0, -1], [2]), { h: [1], valid: true, reason: undefined });
});

test('greedy decomposition (A.7.3) and the host offset of a device slot', () => {
  // strides 120, 64, 360, 1 taken largest first: 4799 = 13·360 + 0·120 + 1·64 + 55
  assert.deepEqual(greedy(4799, [3, 2, 14, 64], [120, 64, 360, 1]), [0, 1, 13, 55]);
  // a size-1 dim takes no digit even when its stride fits: 62 in [1, 64] with the clamped strides [60, 1]
  assert.deepEqual(greedy(62, [1, 64], [60, 1]), [0, 62]);
  // equal strides: the inner (higher) dim is taken first, so 4 in [2, 3] with strides [4, 4] is (0, 1)
  assert.deepEqual(greedy(4, [2, 3], [4, 4]), [0, 1]);
  // 128 in [2, 64] needs digit 2 on a dim of size 2; 3 in [4] with stride 2 leaves 1 over
  assert.equal(greedy(128, [2, 64], [64, 1]), null);
  assert.equal(greedy(3, [4], [2]), null);
  // −1 and 0 (broadcast) entries add nothing: 5·7 = 35
  assert.equal(strideMapOffset([2, 3, 5], [-1, 0, 7]), 35);
  assert.equal(strideMapOffset([1, 2, 3], [100, 10, 1]), 123);
});
