/**
 * Counts in messages are the real ones: a `.csfbin` header whose fiber count Π shape[0..n−2] is far past
 * 2^60 says the product of the extents read from the file, digit for digit, not a capped or rounded number
 * (the same for a `.npy` shape and a dense array that does not match its shape).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { denseToCsf, openCsf, planContraction, readNpy, validateCsf } from '../../core/csf/index';
import { bytesSource, CsfView } from '../../core/csf/view';
import { encodeNpy } from '../../core/common/npy';

/** Little-endian words → bytes. */
const words = (...ws: number[]) => {
  const b = new Uint8Array(4 * ws.length);
  const dv = new DataView(b.buffer);
  ws.forEach((w, k) => dv.setUint32(4 * k, w >>> 0, true));
  return b;
};
const U32 = 0xffffffff;

test('a .csfbin fiber count past 2^60 is stated exactly (validator, reader and viewer)', async () => {
  // order 3, shape (2^32−1, 2^32−1, 1): F = (2^32−1)^2 = 18446744065119617025
  const file = words(3, U32, U32, 1, 0, 1, 0);
  const want = ((2n ** 32n - 1n) ** 2n).toString();
  const opened = openCsf(file);
  const view = await CsfView.open(bytesSource(file));
  for (const issue of [validateCsf(file).issues[0], opened.ok ? undefined : opened.issues[0], view.indexProblem]) {
    assert.equal(issue?.code, 'csf.count-overflow');
    assert.ok(issue!.message.endsWith(`found ${want}`), issue!.message);
    assert.ok(!issue!.message.includes(String(2 ** 60)), issue!.message);
  }
  // order 10, every extent 2^32−1: F = (2^32−1)^9, 87 digits
  const big = validateCsf(words(10, ...Array(10).fill(U32), 0, 1, 0)).issues[0];
  assert.equal(big.code, 'csf.count-overflow');
  assert.ok(big.message.endsWith(`found ${((2n ** 32n - 1n) ** 9n).toString()}`), big.message);
  // just past the limit: exact too
  const near = validateCsf(words(3, 65535, 65537, 1, 0)).issues[0];
  assert.ok(near.message.endsWith('found 4294967295'), near.message);
});

test('a .npy shape or a dense array too large for its data says the exact size', () => {
  const npy = encodeNpy({ dtype: 'f4', shape: [2 ** 31, 2 ** 31, 2 ** 31], data: new Float32Array(0) });
  const r = readNpy(npy);
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.issues[0].message, new RegExp(`needs ${(4n * 2n ** 93n).toString()} bytes of float32 data`));
  assert.throws(() => denseToCsf(new Float32Array(1), [2 ** 31, 2 ** 31, 2 ** 31]), new RegExp(`has ${(2n ** 93n).toString()} elements, the data has 1`));
});

test('a contraction result past 2^60 elements says how many exactly', () => {
  // C = A[:-1] ++ B[:-1] = 65535×65535×(2^32−1): 65535^2 fibers fit a u32, the elements (about 1.8·10^19) do not fit 2^60
  const want = (65535n * 65535n * (2n ** 32n - 1n)).toString();
  const r = planContraction([65535, 65535, 7], [U32, 7], { metaCapacity: Infinity, mainCapacity: Infinity });
  assert.equal(r.ok, false);
  if (!r.ok)
    assert.equal(r.issues[0].message, `the dense result (shape 65535×65535×4294967295) has ${want} elements, more than the 268435456 this tool materialises`);
  const small = planContraction([65535, 65535, 7], [U32, 7], { metaCapacity: Infinity, mainCapacity: 1000, mainUsed: 10 });
  assert.equal(small.ok, false);
  if (!small.ok)
    assert.match(small.issues[0].message, new RegExp(`needs ${want} main-memory entries after the 10 taken by the operands, ${BigInt(want) + 10n} in all`));
});
