/**
 * Contraction C = tensordot(A, B, axes=(-1, -1)) where mutation testing (npm run mutate -- csf) found it held loosely:
 * a small case computed by hand (values, multiply-adds with and without the empty-fiber quirk), the same case with a
 * last extent above 2^24 (the sparse column table), the fast path agreeing bit for bit with the merge-join reference on
 * every element pair of seeded random tensors, and planContraction's limits at their exact values.
 *
 *   A: shape 2×4 — fiber 0: k0 = 1, k2 = 2; fiber 1 empty
 *   B: shape 3×4 — fiber 0: k2 = 3; fiber 1: k0 = 4, k2 = 0.5; fiber 2 empty
 *   C = A·Bᵀ (2×3): row 0 = [2·3, 1·4 + 2·0.5, 0] = [6, 5, 0]; row 1 = [0, 0, 0]
 *   multiply-adds with the quirk (an empty fiber is read as one entry (0, +0.0)): A0·k0 meets B1 and B2's (0, 0): 2;
 *   A0·k2 meets B0 and B1: 2; the empty A1 as (0, 0) meets B1 and B2: 2 — 6 in all. Without the quirk: 1 + 2 + 0 = 3.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractCsf, contractValues, dotFibersExact, planContraction, MAX_RESULT_ELEMENTS } from '../../core/csf/contract';
import { csfFromFibers } from '../../core/csf/codec';
import { mulberry32 } from '../helpers/rng';

const A = (K = 4, k2 = 2) =>
  csfFromFibers(
    [2, K],
    [
      [
        [0, 1],
        [k2, 2],
      ],
      [],
    ],
  );
const B = (K = 4, k2 = 2) =>
  csfFromFibers(
    [3, K],
    [
      [[k2, 3]],
      [
        [0, 4],
        [k2, 0.5],
      ],
      [],
    ],
  );

test('a hand-computed contraction, with and without the empty-fiber quirk', () => {
  const q = contractValues(A(), B());
  assert.deepEqual([...q.out], [6, 5, 0, 0, 0, 0]);
  assert.equal(q.multiplyAdds, 6);
  const plain = contractValues(A(), B(), false);
  assert.deepEqual([...plain.out], [6, 5, 0, 0, 0, 0]);
  assert.equal(plain.multiplyAdds, 3);
  const c = contractCsf(A(), B());
  assert.ok(c.ok);
  assert.deepEqual(c.tensor.shape, [2, 3]);
  assert.deepEqual([...c.tensor.ptr], [0, 3, 6]);
  assert.deepEqual([...c.tensor.indices], [0, 1, 2, 0, 1, 2]);
  assert.deepEqual([...c.tensor.values], [6, 5, 0, 0, 0, 0]);
  assert.equal(c.multiplyAdds, 6);
  const noQuirk = contractCsf(A(), B(), { emptyFiberQuirk: false });
  assert.ok(noQuirk.ok);
  assert.equal(noQuirk.multiplyAdds, 3);
});

test('a last extent above 2^24 (sparse column table) gives the same result', () => {
  const K = 2 ** 25;
  const far = K - 1;
  const q = contractValues(A(K, far), B(K, far));
  assert.deepEqual([...q.out], [6, 5, 0, 0, 0, 0]);
  assert.equal(q.multiplyAdds, 6);
  const plain = contractValues(A(K, far), B(K, far), false);
  assert.deepEqual([...plain.out], [6, 5, 0, 0, 0, 0]);
  assert.equal(plain.multiplyAdds, 3);
});

test('the fast path agrees bit for bit with the merge-join on every element pair', () => {
  const r = mulberry32(1616);
  const rand = (n: number) => Math.floor(r() * n);
  const values = [0, -0, 1, -1.5, 3.25, 1e30, -1e30, 1e-40, Infinity, -Infinity, NaN];
  const random = (F: number, K: number) =>
    csfFromFibers(
      [F, K],
      Array.from({ length: F }, () => {
        const picked = new Set<number>();
        const n = rand(4) === 0 ? 0 : rand(K + 1);
        while (picked.size < n) picked.add(rand(K));
        return [...picked].map((k) => [k, values[rand(values.length)]] as const);
      }),
    );
  for (let round = 0; round < 40; round++) {
    const K = 1 + rand(6);
    const a = random(1 + rand(4), K);
    const b = random(1 + rand(4), K);
    for (const quirk of [true, false]) {
      const { bits } = contractValues(a, b, quirk);
      const FB = b.ptr.length - 1;
      for (let i = 0; i < a.ptr.length - 1; i++)
        for (let j = 0; j < FB; j++) assert.equal(bits[i * FB + j], dotFibersExact(a, i, b, j, quirk), `round ${round}, C[${i}][${j}], quirk ${quirk}`);
    }
  }
});

test('planContraction: extents, orders and capacities at their exact limits', () => {
  const why = (a: number[], b: number[], o = {}) => {
    const p = planContraction(a, b, o);
    return p.ok ? 'ok' : `${p.issues[0].code}: ${p.issues[0].message}`;
  };
  assert.equal(why([2, 4], [3, 5]), 'csf.contract-extent-mismatch: the final extents must be equal: lhs shape 2×4 ends in 4, rhs shape 3×5 ends in 5');
  assert.match(why([4], [4]), /^csf\.contract-scalar-result: contracting two order-1 tensors \(shapes 4 and 4\)/);
  // result order p + q − 2: 2 + 3 − 2 = 3
  assert.equal(why([2, 4], [3, 2, 4], { maxOrder: 3 }), 'ok');
  assert.equal(
    why([2, 4], [3, 2, 4], { maxOrder: 2 }),
    'csf.contract-order-too-large: the result would have order 2 + 3 − 2 = 3 (shape 2×3×2), more than the maximum 2',
  );
  // C = 2×3: 2 + 2 + 2 = 6 metadata words and 6 entries
  assert.equal(why([2, 4], [3, 4], { metaCapacity: 10, metaUsed: 4 }), 'ok');
  assert.equal(
    why([2, 4], [3, 4], { metaCapacity: 9, metaUsed: 4 }),
    'csf.meta-capacity: the result (shape 2×3, 2 fibers) needs 6 metadata words after the 4 taken by the operands, 10 in all, ' +
      'but the metadata memory holds 9 words',
  );
  assert.equal(why([2, 4], [3, 4], { mainCapacity: 10, mainUsed: 4 }), 'ok');
  assert.equal(
    why([2, 4], [3, 4], { mainCapacity: 9, mainUsed: 4 }),
    'csf.main-capacity: the dense result (shape 2×3) needs 6 main-memory entries after the 4 taken by the operands, 10 in all, ' +
      'but the main memory holds 9 entries',
  );
  // the largest result materialised: 2^28 elements
  const big = { mainCapacity: 2 ** 40, metaCapacity: 2 ** 20 };
  assert.equal(why([2 ** 14, 4], [2 ** 14, 4], big), 'ok');
  assert.equal(
    why([2 ** 14, 4], [2 ** 14 + 1, 4], big),
    `csf.main-capacity: the dense result (shape 16384×16385) has ${2 ** 28 + 2 ** 14} elements, more than the ${MAX_RESULT_ELEMENTS} this tool materialises`,
  );
  // an order-1 operand: a warning naming the side
  const lhs = planContraction([4], [3, 4]);
  assert.ok(lhs.ok);
  assert.deepEqual(
    lhs.warnings.map((w) => [w.code, w.message.slice(0, 23)]),
    [['csf.contract-order1-operand', 'the lhs has order 1: th']],
  );
  const rhs = planContraction([3, 4], [4]);
  assert.ok(rhs.ok);
  assert.equal(rhs.warnings[0].message.slice(0, 7), 'the rhs');
  const none = planContraction([3, 4], [2, 4]);
  assert.ok(none.ok);
  assert.deepEqual([none.shape, none.fibers, none.elements, none.warnings], [[3, 2], 3, 6, []]);
});
