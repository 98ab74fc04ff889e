/**
 * `validateSparse` and the `SparseLayout` constructor: every rule of a fibered placement (research formats.md A.1, A.7)
 * with its exact finding (code, message, field, index). The rules, written out here from the format:
 * - shape: order n ≥ 1, every extent an integer ≥ 1 (CSF001, all bad extents reported, then stop);
 * - dtype: entries hold f32 values (CSF007);
 * - ptr: F + 1 pointers, F = Π shape[0..n-2] (CSF002, then stop); ptr[0] = 0, never decreasing, integers (CSF003, the first
 *   bad one); ptr[F] = number of entries (CSF004); any pointer finding stops before the indices are read;
 * - index: 0 ≤ index < last extent, integer, strictly increasing inside a fiber (CSF005, the first bad entry);
 * - main: base an integer ≥ 0, base + nnz ≤ capacity (entries), base + ptr[F] ≤ 2^32 − 1 (the pointer words are u32) (CSF006);
 * - meta: base an integer ≥ 0, base + 2 + n + F ≤ capacity (words: order, n extents, F + 1 pointers) (CSF006).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SparseLayout, validateSparse, type SparsePlacement, type SparseSpec } from '../../core/layout/models/sparse';
import { LayoutError } from '../../core/layout/util';

/** A finding as `issue()` builds it: every key present. */
const E = (code: string, message: string, field: string, index?: number) => ({ code, severity: 'error', message, field, index, fixes: undefined });

/** 2 × 3 with entries (0,1), (1,0), (1,2): F = 2, ptr [0, 1, 3], the header takes 2 + 2 + 2 = 6 metadata words. */
const OK: SparsePlacement = { shape: [2, 3], ptr: [0, 1, 3], index: [1, 0, 2], mainBase: 0, metaBase: 0 };
const v = (p: Partial<SparsePlacement>, extra: Omit<SparseSpec, 'placement'> = {}) => validateSparse({ placement: { ...OK, ...p }, ...extra });

test('a valid placement, with float32 or no dtype, has no finding', () => {
  assert.deepEqual(v({}), []);
  assert.deepEqual(v({}, { dtype: 'float32' }), []);
  // one entry in the only fiber of an order-1 tensor: F = 1, ptr [0, 1]
  assert.deepEqual(v({ shape: [5], ptr: [0, 1], index: [4] }), []);
});

test('shape: order 0, and every extent that is not an integer ≥ 1, then nothing else', () => {
  // order 0 would have F = 1 and want 2 pointers; the shape finding stops before that
  assert.deepEqual(v({ shape: [], ptr: [0], index: [] }), [E('CSF001', 'a fibered tensor has order ≥ 1', '@shape')]);
  // 0 is an integer below 1, 1.5 is not an integer, -1 is both; 2 is fine. ptr would be wrong for any F: not reported.
  assert.deepEqual(v({ shape: [2, 0, 1.5, -1], ptr: [5] }), [
    E('CSF001', 'shape[1] is 0; extents are integers ≥ 1', '@shape', 1),
    E('CSF001', 'shape[2] is 1.5; extents are integers ≥ 1', '@shape', 2),
    E('CSF001', 'shape[3] is -1; extents are integers ≥ 1', '@shape', 3),
  ]);
});

test('dtype: anything but float32 is an error of its own', () => {
  assert.deepEqual(v({}, { dtype: 'int8' }), [E('CSF007', 'entries hold f32 values; int8 is not stored by this format', '@dtype')]);
});

test('ptr: F + 1 pointers (F = 2·3 = 6 for 2×3×4), reported after the dtype and alone', () => {
  // 3 pointers for 6 fibers; the bad index 9 is not read
  assert.deepEqual(v({ shape: [2, 3, 4], ptr: [0, 1, 9], index: [9] }, { dtype: 'uint8' }), [
    E('CSF007', 'entries hold f32 values; uint8 is not stored by this format', '@dtype'),
    E('CSF002', '3 fiber pointers for 6 fibers: there must be F+1 = 7 (one per fiber, row-major over [2, 3], plus the end)', 'ptr'),
  ]);
  // order 1: F = 1 (the empty product), so 2 pointers, over [] (no leading mode)
  assert.deepEqual(v({ shape: [4], ptr: [0], index: [] }), [
    E('CSF002', '1 fiber pointers for 1 fibers: there must be F+1 = 2 (one per fiber, row-major over [], plus the end)', 'ptr'),
  ]);
});

test('ptr: the first pointer, the first decrease only, non-integers, the end pointer; indices then not read', () => {
  // ptr[0] = 1: the end pointer 3 matches 3 entries; index 7 (outside 0..2) is not checked after a pointer finding
  assert.deepEqual(v({ ptr: [1, 2, 3], index: [0, 7, 2] }), [E('CSF003', 'ptr[0] is 1; the first fiber starts at entry 0', 'ptr', 0)]);
  // 4×5, F = 4: ptr[2] = 1 < ptr[1] = 2 is reported; ptr[3] = 0 < ptr[2] is not (the first only); ptr[4] = 3 = nnz
  assert.deepEqual(v({ shape: [4, 5], ptr: [0, 2, 1, 0, 3], index: [0, 1, 2] }), [
    E('CSF003', 'ptr[2] = 1 is below ptr[1] = 2: pointers never decrease', 'ptr', 2),
  ]);
  // a decrease into the end pointer: ptr[2] = 0 < ptr[1] = 1, and ptr[2] = 0 is not the 3 entries either
  assert.deepEqual(v({ ptr: [0, 1, 0] }), [
    E('CSF003', 'ptr[2] = 0 is below ptr[1] = 1: pointers never decrease', 'ptr', 2),
    E('CSF004', 'the end pointer ptr[2] = 0 must equal the number of entries (3)', 'ptr', 2),
  ]);
  // 1.5 does not decrease from 0 but is no entry offset
  assert.deepEqual(v({ ptr: [0, 1.5, 3] }), [E('CSF003', 'ptr[1] = 1.5 is not an entry offset (an integer ≥ ptr[0] = 0)', 'ptr', 1)]);
  // a fractional ptr[0] is reported, and ptr[1] equal to it: not below it, but no entry offset either
  assert.deepEqual(v({ ptr: [0.5, 0.5, 3] }), [
    E('CSF003', 'ptr[0] is 0.5; the first fiber starts at entry 0', 'ptr', 0),
    E('CSF003', 'ptr[1] = 0.5 is not an entry offset (an integer ≥ ptr[0] = 0.5)', 'ptr', 1),
  ]);
  // equal pointers (an empty fiber) are fine; the end pointer 2 is not the 3 entries
  assert.deepEqual(v({ ptr: [0, 0, 2] }), [E('CSF004', 'the end pointer ptr[2] = 2 must equal the number of entries (3)', 'ptr', 2)]);
});

test('index: outside 0..last−1 (above, negative, fractional), not increasing inside a fiber; the first bad entry only', () => {
  // fiber 1 = entries 1..2; entry 1 (index 0) is below entry 0 (index 1) of fiber 0: fine, another fiber
  assert.deepEqual(v({ index: [1, 0, 3] }), [E('CSF005', 'entry 2 (fiber 1) has index 3, outside 0..2', 'index', 2)]);
  assert.deepEqual(v({ index: [-1, 9, 9] }), [E('CSF005', 'entry 0 (fiber 0) has index -1, outside 0..2', 'index', 0)]);
  assert.deepEqual(v({ index: [1, 0.5, 2] }), [E('CSF005', 'entry 1 (fiber 1) has index 0.5, not an integer in 0..2', 'index', 1)]);
  // equal indices in fiber 1 (entries 1, 2): not strictly increasing
  assert.deepEqual(v({ index: [1, 2, 2] }), [
    E('CSF005', 'fiber 1: index 2 at entry 2 does not follow 2; indices in a fiber are strictly increasing (the merge-join needs it)', 'index', 2),
  ]);
  assert.deepEqual(v({ index: [1, 2, 1] }), [
    E('CSF005', 'fiber 1: index 1 at entry 2 does not follow 2; indices in a fiber are strictly increasing (the merge-join needs it)', 'index', 2),
  ]);
});

test('main memory: base, capacity (entries, 10,000,000 by default) and the u32 end pointer', () => {
  const main = (mainBase: number, extra: Omit<SparseSpec, 'placement'> = {}) => v({ mainBase }, extra);
  assert.deepEqual(main(-1), [E('CSF006', 'main base -1 must be an entry address ≥ 0', 'main')]);
  assert.deepEqual(main(2.5), [E('CSF006', 'main base 2.5 must be an entry address ≥ 0', 'main')]);
  // 3 entries at 7 end at entry 9, the last of 10; at 8 they pass it
  assert.deepEqual(main(7, { mainCapacity: 10 }), []);
  assert.deepEqual(main(8, { mainCapacity: 10 }), [E('CSF006', "3 entries at main address 8 pass the main memory's 10 entries", 'main')]);
  assert.deepEqual(main(9_999_997), []);
  assert.deepEqual(main(9_999_998), [E('CSF006', "3 entries at main address 9999998 pass the main memory's 10,000,000 entries", 'main')]);
  // a capacity past 2^32: the end pointer base + 3 must still fit a u32 (≤ 2^32 − 1)
  assert.deepEqual(main(2 ** 32 - 4, { mainCapacity: 2 ** 33 }), []);
  assert.deepEqual(main(2 ** 32 - 3, { mainCapacity: 2 ** 33 }), [E('CSF006', 'pointer + main base overflows a u32', 'main')]);
});

test('metadata memory: base and capacity (words, 1024 by default); both memories reported together', () => {
  const meta = (metaBase: number, extra: Omit<SparseSpec, 'placement'> = {}) => v({ metaBase }, extra);
  assert.deepEqual(meta(-1), [E('CSF006', 'metadata base -1 must be a word address ≥ 0', 'meta')]);
  assert.deepEqual(meta(0.5), [E('CSF006', 'metadata base 0.5 must be a word address ≥ 0', 'meta')]);
  // 6 words at 4 are words 4..9 of 10; at 5 they pass it
  assert.deepEqual(meta(4, { metaCapacity: 10 }), []);
  assert.deepEqual(meta(5, { metaCapacity: 10 }), [
    E('CSF006', "the header and 3 pointers (6 words) at metadata address 5 pass the metadata memory's 10 words", 'meta'),
  ]);
  assert.deepEqual(meta(1018), []);
  assert.deepEqual(meta(1019), [E('CSF006', "the header and 3 pointers (6 words) at metadata address 1019 pass the metadata memory's 1,024 words", 'meta')]);
  assert.deepEqual(v({ mainBase: -2, metaBase: -3 }), [
    E('CSF006', 'main base -2 must be an entry address ≥ 0', 'main'),
    E('CSF006', 'metadata base -3 must be a word address ≥ 0', 'meta'),
  ]);
});

test('the constructor throws the findings joined, unless told the spec is validated', () => {
  const bad = { ...OK, mainBase: -2, metaBase: -3 };
  assert.throws(
    () => new SparseLayout({ placement: bad }),
    (e: unknown) => {
      assert.ok(e instanceof LayoutError);
      assert.equal(e.message, 'main base -2 must be an entry address ≥ 0; metadata base -3 must be a word address ≥ 0');
      return true;
    },
  );
  // validated: no check (the checker has reported the findings); the header still starts at word −3
  assert.equal(new SparseLayout({ placement: bad }, true).placements()[1].start, -12);
  assert.equal(new SparseLayout({ placement: OK }).nnz, 3);
});
