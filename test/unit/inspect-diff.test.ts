/** core/inspect diff and search: exact changed ranges (word fast path and unaligned views), pattern search over buffers and paged sources. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { changedMask, diffBuffers, inRanges } from '../../core/inspect/diff';
import { findInBuffer, findInSource } from '../../core/inspect/search';

function naiveRanges(a: Uint8Array, b: Uint8Array): number[] {
  const out: number[] = [];
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = i >= a.length || i >= b.length || a[i] !== b[i];
    if (!d) continue;
    if (out.length && out[out.length - 1] === i) out[out.length - 1] = i + 1;
    else out.push(i, i + 1);
  }
  return out;
}

test('diffBuffers: exact byte ranges, same as a byte loop, for aligned and unaligned views', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 0, maxLength: 300 }),
      fc.array(fc.tuple(fc.nat(299), fc.integer({ min: 1, max: 255 })), { maxLength: 20 }),
      fc.nat(3),
      fc.nat(3),
      (base, edits, oa, ob) => {
        const A = new Uint8Array(base.length + 8);
        const B = new Uint8Array(base.length + 8);
        const a = A.subarray(oa, oa + base.length);
        const b = B.subarray(ob, ob + base.length);
        a.set(base);
        b.set(base);
        for (const [i, d] of edits) if (i < b.length) b[i] = (b[i] + d) & 0xff;
        const r = diffBuffers(a, b);
        assert.deepEqual([...r.ranges], naiveRanges(a, b));
        assert.equal(
          r.bytes,
          changedMask(a, b).reduce((s, x) => s + x, 0),
        );
      },
    ),
  );
});

test('diffBuffers: the memcmp block path (≥ 64 KiB) and the word path agree with a byte loop', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(70000 - 1), fc.integer({ min: 1, max: 255 })), { maxLength: 40 }), fc.nat(3), (edits, phase) => {
      const A = new Uint8Array(70000 + 4);
      for (let i = 0; i < A.length; i++) A[i] = (i * 31) & 0xff;
      const a = A.subarray(phase, phase + 70000);
      const b = a.slice();
      for (const [i, d] of edits) b[i] = (b[i] + d) & 0xff;
      assert.deepEqual([...diffBuffers(a, b).ranges], naiveRanges(a, b));
    }),
    { numRuns: 30 },
  );
});

test('diffBuffers: longer tail counts as changed; maxRanges truncates; mergeGap joins', () => {
  const a = new Uint8Array(100);
  const b = new Uint8Array(104);
  b[10] = 1;
  b[12] = 1;
  const r = diffBuffers(a, b);
  assert.deepEqual([...r.ranges], [10, 11, 12, 13, 100, 104]);
  assert.ok(inRanges(r, 12) && !inRanges(r, 11) && inRanges(r, 103) && !inRanges(r, 104));
  assert.deepEqual([...diffBuffers(a, b, { mergeGap: 1 }).ranges], [10, 13, 100, 104]);
  const t = diffBuffers(a, b, { maxRanges: 1 });
  assert.equal(t.truncated, true);
  assert.deepEqual([...t.ranges], [10, 104]);
});

test('diffBuffers: 64 MiB snapshots with scattered changes', () => {
  const n = 64 * 1024 * 1024;
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i += 4096) a[i] = i & 0xff;
  const b = a.slice();
  const at = [0, 1, 4095, 4096, 12345678, n - 1];
  for (const i of at) b[i] ^= 0x5a;
  const r = diffBuffers(a, b);
  assert.deepEqual([...r.ranges], [0, 2, 4095, 4097, 12345678, 12345679, n - 1, n]);
  assert.equal(r.bytes, at.length);
});

test('findInBuffer: forward, backward, alignment, masks', () => {
  const buf = new Uint8Array([1, 2, 3, 1, 2, 3, 9, 1, 2]);
  const p = new Uint8Array([1, 2]);
  assert.equal(findInBuffer(buf, p, 0), 0);
  assert.equal(findInBuffer(buf, p, 1), 3);
  assert.equal(findInBuffer(buf, p, 4), 7);
  assert.equal(findInBuffer(buf, p, 8), -1);
  assert.equal(findInBuffer(buf, p, 8, { backward: true }), 7);
  assert.equal(findInBuffer(buf, p, 6, { backward: true }), 3);
  assert.equal(findInBuffer(buf, p, 1, { align: 7 }), 7);
  assert.equal(findInBuffer(buf, new Uint8Array([3, 0]), 0, { mask: new Uint8Array([0xff, 0]) }), 2);
  assert.equal(findInBuffer(buf, new Uint8Array([0, 9]), 0, { mask: new Uint8Array([0, 0xff]) }), 5);
  assert.equal(findInBuffer(buf, new Uint8Array([1, 2]), 0, { align: 2 }, 1), 3); // base 1: offset 3 is space offset 4
});

test('findInSource: matches across chunk borders, wrap-around, backward', async () => {
  const size = 10000;
  const mem = new Uint8Array(size);
  mem.set([0xde, 0xad, 0xbe, 0xef], 1022); // straddles the 1024-byte chunk border
  mem.set([0xde, 0xad, 0xbe, 0xef], 9000);
  let reads = 0;
  const read = (o: number, l: number) => {
    reads++;
    return mem.subarray(o, o + l);
  };
  const pat = new Uint8Array([0xde, 0xad, 0xbe, 0xef]);
  assert.equal(await findInSource(read, size, pat, 0, { chunk: 1024 }), 1022);
  assert.equal(await findInSource(read, size, pat, 1023, { chunk: 1024 }), 9000);
  assert.equal(await findInSource(read, size, pat, 9001, { chunk: 1024 }), -1);
  assert.equal(await findInSource(read, size, pat, 9001, { chunk: 1024, wrap: true }), 1022);
  assert.equal(await findInSource(read, size, pat, 8999, { chunk: 1024, backward: true }), 1022);
  assert.equal(await findInSource(read, size, pat, 1021, { chunk: 1024, backward: true }), -1);
  assert.equal(await findInSource(read, size, pat, 1021, { chunk: 1024, backward: true, wrap: true }), 9000);
  assert.ok(reads > 5);
});
