/**
 * The `.csfbin` codec where mutation testing (npm run mutate -- csf) found it held loosely: every accessor of an opened
 * file at its bounds (and the RangeErrors past them), find at the first and last index of a fiber, the writer rules of
 * checkTensor one by one with their messages and limits (order, extents, the last extent's 2^31, pointers, values,
 * indices: sentinel, range, repeats, order — per fiber), encoding back to the same bytes, csfFromFibers, and
 * dropping empty-slot sentinels. The file is the hand-built B of the other mutant-csf tests:
 *
 *   order 3, shape 2×2×4, F = 4, nnz 4, pointers [0, 2, 2, 2, 4]; entries at 20, 28, 36, 44; pointers at 56..75
 *   fiber 0: index 1 = 1.0, index 3 = 2.0; fibers 1, 2 empty; fiber 3: index 0 = 3.0, index 2 = −1.5
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTensor, csfFromFibers, encodeCsf, openCsf, parseCsf } from '../../core/csf/codec';
import { CsfError, type CsfTensor } from '../../core/csf/types';

const F32 = { 1: 0x3f800000, 2: 0x40000000, 3: 0x40400000, '-1.5': 0xbfc00000 };

function bytesOf(words: number[]): Uint8Array {
  const b = new Uint8Array(4 * words.length);
  const dv = new DataView(b.buffer);
  words.forEach((w, i) => dv.setUint32(4 * i, w >>> 0, true));
  return b;
}

const B = bytesOf([3, 2, 2, 4, 4, 1, F32[1], 3, F32[2], 0, F32[3], 2, F32['-1.5'], 5, 0, 2, 2, 2, 4]);

function opened(bytes = B) {
  const o = openCsf(bytes);
  assert.ok(o.ok, JSON.stringify(o));
  return o.file;
}

/** B as an in-memory tensor, with parts replaced to break a rule. */
function tensor(o: { shape?: number[]; ptr?: number[]; indices?: number[]; bits?: number[] } = {}): CsfTensor {
  const bits = new Uint32Array(o.bits ?? [F32[1], F32[2], F32[3], F32['-1.5']]);
  return {
    shape: o.shape ?? [2, 2, 4],
    ptr: new Uint32Array(o.ptr ?? [0, 2, 2, 2, 4]),
    indices: new Uint32Array(o.indices ?? [1, 3, 0, 2]),
    bits,
    values: new Float32Array(bits.buffer),
  };
}

test('an opened file: pointers, fiber ranges, entries, fibers, at every index', () => {
  const f = opened();
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((i) => f.pointer(i)),
    [0, 2, 2, 2, 4],
  );
  assert.deepEqual(
    [0, 1, 4].map((i) => f.pointerOffset(i)),
    [56, 60, 72],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((k) => f.fiberRange(k)),
    [
      [0, 2],
      [2, 2],
      [2, 2],
      [2, 4],
    ],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((k) => f.fiberLength(k)),
    [2, 0, 0, 2],
  );
  assert.deepEqual(
    [0, 3, 4].map((e) => f.entryOffset(e)),
    [20, 44, 52],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((e) => [f.entryIndex(e), f.entryBits(e), f.entryValue(e)]),
    [
      [1, F32[1], 1],
      [3, F32[2], 2],
      [0, F32[3], 3],
      [2, F32['-1.5'], -1.5],
    ],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((e) => f.fiberOfEntry(e)),
    [0, 0, 3, 3],
  );
  const last = f.fiber(3);
  assert.deepEqual(
    [last.fiber, last.coord, last.start, last.end, [...last.indices], [...last.bits], [...last.values]],
    [3, [1, 1], 2, 4, [0, 2], [F32[3], F32['-1.5']], [3, -1.5]],
  );
  const empty = f.fiber(1);
  assert.deepEqual([empty.coord, empty.start, empty.end, empty.indices.length], [[0, 1], 2, 2, 0]);
});

test('fibers and entries past the file are RangeErrors that say how many there are', () => {
  const f = opened();
  for (const k of [-1, 4, 1.5]) assert.throws(() => f.fiberRange(k), { name: 'RangeError', message: `fiber ${k} does not exist (the file has 4)` });
  for (const e of [-1, 4, 0.5]) {
    assert.throws(() => f.entryIndex(e), { name: 'RangeError', message: `entry ${e} does not exist (the file has 4)` });
    assert.throws(() => f.entryBits(e), RangeError);
    assert.throws(() => f.entryValue(e), RangeError);
    assert.throws(() => f.fiberOfEntry(e), RangeError);
  }
  assert.throws(() => f.find([0, 0]), { name: 'RangeError', message: 'expected 3 coordinates, got 2' });
  for (const c of [
    [0, 0, 4],
    [0, 0, -1],
    [2, 0, 0],
    [0, 0, 0.5],
  ])
    assert.throws(() => f.find(c), { name: 'RangeError', message: `coordinates [${c.join(', ')}] are outside the shape 2×2×4` });
});

test('find and valueAt: first and last index of a fiber, gaps, empty fibers', () => {
  const f = opened();
  const at = (c: number[]) => [f.find(c), f.valueAt(c)];
  assert.deepEqual(at([0, 0, 1]), [0, 1]);
  assert.deepEqual(at([0, 0, 3]), [1, 2]);
  assert.deepEqual(at([0, 0, 0]), [-1, 0]);
  assert.deepEqual(at([0, 0, 2]), [-1, 0]);
  assert.deepEqual(at([1, 1, 0]), [2, 3]);
  assert.deepEqual(at([1, 1, 2]), [3, -1.5]);
  assert.deepEqual(at([1, 1, 3]), [-1, 0]);
  assert.deepEqual(at([0, 1, 0]), [-1, 0]);
  assert.deepEqual(at([1, 0, 3]), [-1, 0]);
});

test('toTensor reads the same tensor from aligned and unaligned bytes', () => {
  const copy = new Uint8Array(B.byteLength + 1);
  copy.set(B, 1);
  for (const f of [opened(), opened(copy.subarray(1))]) {
    const t = f.toTensor();
    assert.deepEqual(t.shape, [2, 2, 4]);
    assert.deepEqual([...t.ptr], [0, 2, 2, 2, 4]);
    assert.deepEqual([...t.indices], [1, 3, 0, 2]);
    assert.deepEqual([...t.bits], [F32[1], F32[2], F32[3], F32['-1.5']]);
  }
});

test('encodeCsf writes the bytes a hand-built file has; csfFromFibers sorts each fiber', () => {
  assert.deepEqual([...encodeCsf(tensor())], [...B]);
  const t = csfFromFibers(
    [2, 2, 4],
    [
      [
        [3, 2],
        [1, 1],
      ],
      [],
      [],
      [
        [2, -1.5],
        [0, 3],
      ],
    ],
  );
  assert.deepEqual([...encodeCsf(t)], [...B]);
  assert.throws(() => csfFromFibers([2, 2, 4], [[], [], []]), { name: 'CsfError', message: 'shape 2×2×4 has 4 fibers, 3 given' });
  for (const i of [-1, 1.5, 0xffffffff])
    assert.throws(() => csfFromFibers([2, 4], [[[i, 1]], []]), { name: 'CsfError', message: `fiber 0 has index ${i}, expected a whole number in 0..3` });
  // passes the index check, then the writer rules
  assert.throws(() => csfFromFibers([2, 4], [[[4, 1]], []]), { name: 'CsfError', message: 'entry 0 (fiber 0) has index 4, expected an index below 4' });
  assert.throws(() => encodeCsf(tensor({ ptr: [0, 2, 2, 2, 3] })), CsfError);
});

test('checkTensor: each writer rule, with its message, and the values just inside its limits', () => {
  const why = (t: CsfTensor, maxOrder?: number) => checkTensor(t, { maxOrder }).map((i) => `${i.code}: ${i.message}`);
  assert.deepEqual(why(tensor()), []);
  const empty = (shape: number[]) => tensor({ shape, ptr: [0, 0], indices: [], bits: [] });
  assert.deepEqual(why(empty([])), ['csf.bad-shape: a tensor must have order at least 1, found order 0']);
  assert.deepEqual(why(tensor(), 2), ['csf.bad-shape: order must be at most 2, found 3']);
  assert.deepEqual(why(tensor(), 3), []);
  assert.deepEqual(why(empty([1, -1])), ['csf.bad-shape: shape[1] must be an integer in 0..4294967295, found -1']);
  assert.deepEqual(why(empty([1, 1.5])), ['csf.bad-shape: shape[1] must be an integer in 0..4294967295, found 1.5']);
  assert.deepEqual(why(empty([2 ** 32, 1])), ['csf.bad-shape: shape[0] must be an integer in 0..4294967295, found 4294967296']);
  // the last extent: 2^31 is the largest
  assert.deepEqual(why(empty([1, 2 ** 31])), []);
  assert.deepEqual(why(empty([1, 2 ** 31 + 1])), [
    'csf.bad-shape: the last extent must be at most 2^31 (indices are written as signed 32-bit by the Python tools), found 2147483649',
  ]);
  assert.deepEqual(why(empty([0xffffffff, 1])), ['csf.count-overflow: shape 4294967295×1 has more than 4294967294 fibers']);
  assert.deepEqual(why(tensor({ ptr: [0, 2, 2, 4] })), ['csf.bad-tensor: expected 5 pointers for 4 fibers, found 4']);
  assert.deepEqual(why(tensor({ bits: [1, 2, 3] })), ['csf.bad-tensor: expected 4 values (one per index), found 3']);
  assert.deepEqual(why(tensor({ ptr: [1, 2, 2, 2, 4] })), ['csf.first-pointer-nonzero: ptr[0] must be 0, found 1']);
  assert.deepEqual(why(tensor({ ptr: [0, 2, 2, 2, 3] })), ['csf.last-pointer-mismatch: ptr[4] must equal nnz = 4, found 3']);
  assert.deepEqual(why(tensor({ ptr: [0, 2, 1, 2, 4] })), ['csf.non-monotone-pointers: pointers must not decrease: ptr[2] = 1 < ptr[1] = 2']);
  assert.deepEqual(why(tensor({ indices: [1, 0xffffffff, 0, 2] })), [
    'csf.empty-sentinel: entry 1 (fiber 0) has the empty-slot marker 0xFFFFFFFF as its index',
  ]);
  assert.deepEqual(why(tensor({ indices: [1, 4, 0, 2] })), ['csf.index-out-of-range: entry 1 (fiber 0) has index 4, expected an index below 4']);
  assert.deepEqual(why(tensor({ indices: [1, 1, 0, 2] })), ['csf.duplicate-index: entry 1 (fiber 0) repeats index 1']);
  assert.deepEqual(why(tensor({ indices: [1, 0, 0, 2] })), ['csf.unsorted-index: entry 1 (fiber 0) has index 0 after 1: indices within a fiber must increase']);
  assert.deepEqual(why(tensor({ indices: [1, 3, 2, 2] })), ['csf.duplicate-index: entry 3 (fiber 3) repeats index 2']);
  // each fiber starts afresh: fiber 3 may start below where fiber 0 ended
  assert.deepEqual(why(tensor({ indices: [2, 3, 0, 1] })), []);
});

test('parseCsf refuses empty-slot sentinels unless asked to drop them, then rewrites the pointers', () => {
  // order 2, shape 2×4: fiber 0 = index 1 (1.0), then a sentinel slot (entry 1, bytes 24..31); fiber 1 = index 2 (3.0); pointers [0, 2, 3]
  const bytes = bytesOf([2, 2, 4, 3, 1, F32[1], 0xffffffff, 0, 2, F32[3], 3, 0, 2, 3]);
  const refused = parseCsf(bytes);
  assert.deepEqual(refused.ok ? [] : refused.issues.map((i) => [i.rule, i.code, i.offset, i.length]), [['V13', 'csf.empty-sentinel', 24, 8]]);
  const dropped = parseCsf(bytes, { dropEmptySentinel: true });
  assert.ok(dropped.ok, JSON.stringify(dropped));
  assert.deepEqual([...dropped.tensor.indices], [1, 2]);
  assert.deepEqual([...dropped.tensor.bits], [F32[1], F32[3]]);
  assert.deepEqual([...dropped.tensor.ptr], [0, 1, 2]);
  // nothing to drop: the same tensor
  const plain = parseCsf(B, { dropEmptySentinel: true });
  assert.ok(plain.ok);
  assert.deepEqual([...plain.tensor.ptr], [0, 2, 2, 2, 4]);
  assert.deepEqual([...plain.tensor.indices], [1, 3, 0, 2]);
});
