/**
 * Spyre stride_map layouts (research layouts.md A.7): the dim_map a stride_map is a tiling of (A.7.1 run
 * backwards) and the count of device slots that hold a distinct real host element (isDataSlot of A.7.3).
 * Every expected value is worked out by hand from those rules; the comment of each case says how.
 * The enumeration is tested uncached: the cached entry point would answer a repeated call from memory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countDataSlots, reconstructDimMap } from '../../core/layout/models/spyre';
import { countDataSlotsUncached } from '../../core/layout/models/spyre/dataSlots';

type Case = [what: string, ds: number[], sm: number[], hs: number[], strides: number[], want: number[] | undefined];

test('reconstructDimMap: the dim_map of each tiling, undefined for what no dim_map describes', () => {
  const cases: Case[] = [
    // S1 (A.10): host [128,256,512] row-major (strides 131072,512,1). Right to left: sm 1 = stride of dim 2 → 2 (its running
    // stride becomes 64); 131072 = dim 0's → 0; 64 = dim 2's running stride → 2; 512 = dim 1's → 1.
    ['S1', [256, 8, 128, 64], [512, 64, 131072, 1], [128, 256, 512], [131072, 512, 1], [1, 2, 0, 2]],
    // [60] in 2 tiles: sm 1 → 0 (running 64); 60 is not 64 but it is the clamped form min(64, 1·60) → 0 again
    ['clamped tile stride', [2, 64], [60, 1], [60], [1], [0, 0]],
    ['plain tile stride', [2, 64], [64, 1], [60], [1], [0, 0]],
    // a broadcast (stride 0) over 2 slots repeats data: no dim_map; over 1 slot it is just a size-1 dim → −1
    ['broadcast over 2 slots', [2, 64], [0, 1], [64], [1], undefined],
    // also over an expanded host dim (stride 0, whose running stride 0 would match): a broadcast stays a replica
    ['broadcast over an expanded host dim', [2, 64], [0, 1], [2, 64], [0, 1], undefined],
    ['stride 0 over 1 slot', [1, 64], [0, 1], [64], [1], [-1, 0]],
    // a size-1 device dim carries no host dim, whatever its entry says
    ['size-1 dim with an entry', [1, 64], [7, 1], [64], [1], [-1, 0]],
    // sparse: the stick is −1 (one element per stick), the 3 sticks step host dim 0
    ['sparse stick', [3, 64], [1, -1], [3], [1], [0, -1]],
    // −1 over 2 slots that are not the stick: not a layout
    ['−1 over 2 slots before the stick', [3, 2, 64], [1, -1, -1], [3], [1], undefined],
    // −1 over 1 slot before a sparse stick is fine
    ['−1 over 1 slot before the stick', [1, 3, 64], [-1, 1, -1], [3], [1], [-1, 0, -1]],
    // host [3,64] row-major: sm 1 → dim 1, 64 → dim 0, but 2 slots < 3 rows; dim 1 again (running 64) leaves dim 0 with none
    ['capacity short', [2, 64], [64, 1], [3, 64], [64, 1], undefined],
    // host [1,2] strides [1,1]: the size-1 dim takes no device dim; dim 1 gets sm 1 (running 2) and the second 1 matches
    // nothing (device (0,1) and (1,0) would alias host offset 1)
    ['aliasing next to a size-1 host dim', [2, 2], [1, 1], [1, 2], [1, 1], undefined],
    // host [2,3] strides [1,1]: the first try gives dim 0 the 3 slots of device dim 1 and dim 1 the 2 of device dim 0
    // (2 < 3); backtracking gives dim 1 → 1 and dim 0 → 0, both full
    ['backtracking on capacity', [2, 3], [1, 1], [2, 3], [1, 1], [0, 1]],
    // no device dims: the empty dim_map (nothing to check for a scalar)
    ['no device dims', [], [], [], [], []],
  ];
  for (const [what, ds, sm, hs, strides, want] of cases) assert.deepEqual(reconstructDimMap(ds, sm, hs, strides), want, what);
});

test('reconstructDimMap gives up after 10000 steps of backtracking (the caller then enumerates)', () => {
  // 7 host dims of sizes 2..8 (dim d: d+2), all of stride 1; 7 device dims of the same sizes, all sm 1. A host dim takes at
  // most one device dim (its running stride is then ≥ 2), and the capacities fit only when each device dim has its host
  // dim's size: one permutation. The search (device 6 first, host dims in increasing order) visits whole subtrees before
  // it: a call per node. After i choices a subtree has S = 1957, 326, 65, 16, 5, 2, 1 nodes (i = 1..7); choosing the
  // c-th remaining host dim at level i skips c·S_i nodes, so the leaf is call 8 + Σ c_i·S_i.
  // c = 5,0,3,0,2,1,0: 8 + 5·1957 + 3·65 + 2·5 + 1·2 = 10000, the last call allowed. Host dims chosen for device 6..0:
  // 5 (of 0..6), 0 (of 0,1,2,3,4,6), 4 (of 1,2,3,4,6), 1 (of 1,2,3,6), 6 (of 2,3,6), 3 (of 2,3), 2:
  // dim_map [2,3,6,1,4,0,5], device sizes [4,5,8,3,6,2,7].
  const hs = [2, 3, 4, 5, 6, 7, 8];
  const ones = (k: number) => new Array<number>(k).fill(1);
  assert.deepEqual(reconstructDimMap([4, 5, 8, 3, 6, 2, 7], ones(7), hs, ones(7)), [2, 3, 6, 1, 4, 0, 5]);
  // one size-1 device dim more on the right is one call more before the search: the leaf would be call 10001
  assert.equal(reconstructDimMap([4, 5, 8, 3, 6, 2, 7, 1], ones(8), hs, ones(7)), undefined);
});

type Count = [what: string, ds: number[], sm: number[], hs: number[], strides: number[], want: number];

test('countDataSlots: the device slots holding a distinct real host element', () => {
  const cases: Count[] = [
    // h = 64a + b covers 0..127 once; the real elements are h < 100
    ['padded tiling', [2, 64], [64, 1], [100], [1], 100],
    // h = 32a + b: the canonical slot of h has a = ⌊h/32⌋, so b < 32: 3·32 = 96 slots (h 0..95); offsets 96..127,
    // stored only at a = 2, b ≥ 32, have ⌊h/32⌋ = 3 ≥ 3: no canonical slot
    ['aliasing', [3, 64], [32, 1], [128], [1], 96],
    // A.7.3's non-nesting example [4800] → [3,2,14,64], sm [120,64,360,1]: every host element exactly once
    ['non-nesting strides', [3, 2, 14, 64], [120, 64, 360, 1], [4800], [1], 4800],
    // host [3,5] row-major in [3,8]: h = 5a + b is canonical when b < 5: 15 = numel
    ['two host dims', [3, 8], [5, 1], [3, 5], [5, 1], 15],
    // the same device over the transposed host view [5,3] strides [1,5]: host dims taken largest stride first, 15
    ['transposed host view', [3, 8], [5, 1], [5, 3], [1, 5], 15],
    // device dims given smallest stride first: h = x0 + 5·x1, canonical when x0 < 5: 15
    ['device strides out of order', [8, 3], [1, 5], [3, 5], [5, 1], 15],
    // a broadcast dim is held at 0: 64 slots
    ['broadcast dim', [2, 64], [0, 1], [64], [1], 64],
    // a size-1 device dim is not decomposed into (its entry 5 does not limit h = b to < 5)
    ['size-1 device dim', [1, 64], [5, 1], [64], [1], 64],
    // a size-1 host dim's stride (5) does not limit the offsets: h = b < 64 all real
    ['size-1 host dim', [1, 64], [-1, 1], [64, 1], [1, 5], 64],
    // a host dim of stride 0 (an expanded view) adds no offsets: the 64 of dim 0
    ['host stride 0', [1, 64], [-1, 1], [64, 2], [1, 0], 64],
    // sparse: 3 sticks, one element each
    ['sparse', [3, 64], [1, -1], [3], [1], 3],
    // equal device strides: h = x0 + x1. The later dim is decomposed first, so the canonical slot of h is (0, h) when
    // h < 3: 3 slots; h = 3 (only at (1,2)) has none (as the map's slot classification says)
    ['tied device strides', [2, 3], [1, 1], [6], [1], 3],
    // equal host strides: host [2,3] strides [1,1], the later host dim first: h real when h < 3: 3 of the 8 slots
    ['tied host strides', [8], [1], [2, 3], [1, 1], 3],
  ];
  for (const [what, ds, sm, hs, strides, want] of cases) assert.equal(countDataSlotsUncached(ds, sm, hs, strides), want, what);
});

test('countDataSlots answers from its cache what the enumeration answers, also for keys evicted and computed again', () => {
  // 70 keys (more than the cache keeps), each [m] in [2,64] sticks: h = 64a + b, real when h < m, so m slots; twice over,
  // so the second round meets both evicted and kept keys
  for (let round = 0; round < 2; round++) for (let m = 1; m <= 70; m++) assert.equal(countDataSlots([2, 64], [64, 1], [m], [1]), m, `[${m}] round ${round}`);
});
