import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import {
  AcceleratorMemory,
  contractCsf,
  contractInMemory,
  csfFromFibers,
  csfToDense,
  denseToCsf,
  encodeCsf,
  extractCsf,
  loadCsf,
  makeTensor,
  tensorFromMemory,
  type CsfTensor,
} from '../../core/csf/index';

const FIXTURES = fileURLToPath(new URL('../fixtures/csf/', import.meta.url));
const oracles = JSON.parse(readFileSync(FIXTURES + 'oracles.json', 'utf8'));
const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const prod = (s: number[]) => s.reduce((a, b) => a * b, 1);
const bitsOf = (v: number) => new Uint32Array(new Float32Array([v]).buffer)[0];
const f32 = (bits: number) => new Float32Array(new Uint32Array([bits]).buffer)[0];

/** Independent dense reference: Σ over every k in ascending order, acc = fl32(acc + fl32(a·b)) from +0. Bit-exact for finite inputs. */
function denseReference(a: Float32Array, aShape: number[], b: Float32Array, bShape: number[]): Float32Array {
  const K = aShape[aShape.length - 1];
  const FA = prod(aShape.slice(0, -1));
  const FB = prod(bShape.slice(0, -1));
  const out = new Float32Array(FA * FB);
  for (let i = 0; i < FA; i++)
    for (let j = 0; j < FB; j++) {
      let acc = 0;
      for (let k = 0; k < K; k++) acc = Math.fround(acc + Math.fround(a[i * K + k] * b[j * K + k]));
      out[i * FB + j] = acc;
    }
  return out;
}

/** Independent bit-level model of one PE job: merge-join, x86 NaN rules, empty fiber fed as (0, +0). */
function peReference(a: CsfTensor, i: number, b: CsfTensor, j: number, quirk: boolean): number {
  const isNaN = (x: number) => (x & 0x7fffffff) > 0x7f800000;
  const op = (x: number, y: number, f: (p: number, q: number) => number) => {
    if (isNaN(x)) return (x | 0x400000) >>> 0;
    if (isNaN(y)) return (y | 0x400000) >>> 0;
    const r = Math.fround(f(f32(x), f32(y)));
    return Number.isNaN(r) ? 0xffc00000 : bitsOf(r);
  };
  const fiber = (t: CsfTensor, f: number) => {
    const list: [number, number][] = [];
    for (let e = t.ptr[f]; e < t.ptr[f + 1]; e++) list.push([t.indices[e], t.bits[e]]);
    return list.length === 0 && quirk ? [[0, 0] as [number, number]] : list;
  };
  const fa = fiber(a, i);
  const fb = fiber(b, j);
  let acc = 0;
  for (const [k, va] of fa) {
    const hit = fb.find(([kb]) => kb === k);
    if (hit)
      acc = op(
        acc,
        op(va, hit[1], (p, q) => p * q),
        (p, q) => p + q,
      );
  }
  return acc;
}

const A = hex(oracles.valid.A.hex);
const B = hex(oracles.valid.B.hex);

function contractBits(a: CsfTensor, b: CsfTensor, quirk = true): Uint32Array {
  const r = contractCsf(a, b, { emptyFiberQuirk: quirk, metaCapacity: Infinity, mainCapacity: Infinity });
  assert.ok(r.ok, JSON.stringify(!r.ok && r.issues));
  return r.tensor.bits;
}
const one = (pairsA: [number, number][], pairsB: [number, number][], K: number, quirk = true) => {
  const a = csfFromFibers([1, K], [pairsA]);
  const b = csfFromFibers([1, K], [pairsB]);
  return contractBits(a, b, quirk)[0];
};
const raw = (shape: number[], fibers: [number, number][][]): CsfTensor => {
  const ptr = [0];
  const idx: number[] = [];
  const bits: number[] = [];
  for (const f of fibers) {
    for (const [i, v] of f) {
      idx.push(i);
      bits.push(v);
    }
    ptr.push(idx.length);
  }
  return makeTensor(shape, new Uint32Array(ptr), new Uint32Array(idx), new Uint32Array(bits));
};

describe('contraction: the worked example (§A.8.6)', () => {
  test('C = A·Bᵀ inside the memories: tC = 12, dense fibers at 5 and 7, the extracted file', () => {
    const mem = new AcceleratorMemory();
    const a = loadCsf(mem, A);
    const b = loadCsf(mem, B);
    assert.ok(a.ok && b.ok);
    const c = contractInMemory(mem, a.tensor.t, b.tensor.t);
    assert.ok(c.ok);
    assert.equal(c.tensor.t, 12);
    assert.deepEqual([c.tensor.mainBase, c.tensor.mainEnd, c.tensor.metaEnd], [5, 9, 18]);
    assert.deepEqual(Array.from(mem.metaWords()), oracles.contract.metaWords);
    assert.equal(toHex(mem.mainImage()), oracles.contract.mainHex);
    assert.equal(mem.mainBits(8), 0xc0cc0000, 'C[1,1] = -6.375 at dest = meta[16] + 1 = 8');
    const x = extractCsf(mem, 12);
    assert.ok(x.ok);
    assert.equal(toHex(x.bytes), oracles.valid.C_AxBt.hex);
    assert.equal(c.multiplyAdds, 3);
  });

  test('the same result from the tensors alone, and from the dense reference', () => {
    const a = denseToCsf(new Float32Array([0, 1.5, 0, -2, 0, 3.25]), [2, 3]);
    const b = denseToCsf(new Float32Array([0, 0, 0, 4, 0, 0.5]), [2, 3]);
    const r = contractCsf(a, b);
    assert.ok(r.ok);
    assert.equal(toHex(encodeCsf(r.tensor)), oracles.valid.C_AxBt.hex);
    assert.deepEqual(csfToDense(r.tensor), denseReference(csfToDense(a), [2, 3], csfToDense(b), [2, 3]));
    assert.deepEqual(r.warnings, []);
  });
});

describe('contraction: shapes and orders (measured pairs)', () => {
  const pairs: [number[], number[], number[]][] = [
    [
      [3, 4],
      [2, 4],
      [3, 2],
    ],
    [
      [3, 4, 8],
      [5, 8],
      [3, 4, 5],
    ],
    [
      [4, 8],
      [2, 3, 8],
      [4, 2, 3],
    ],
    [
      [2, 3, 5],
      [3, 2, 5],
      [2, 3, 3, 2],
    ],
    [
      [2, 2, 2, 6],
      [3, 6],
      [2, 2, 2, 3],
    ],
    [
      [3, 6],
      [2, 2, 3, 6],
      [3, 2, 2, 3],
    ],
    [
      [2, 2, 2, 4],
      [2, 1, 3, 4],
      [2, 2, 2, 2, 1, 3],
    ],
    [
      [2, 1, 9],
      [1, 3, 2, 9],
      [2, 1, 1, 3, 2],
    ],
    [
      [1, 1],
      [1, 1],
      [1, 1],
    ],
    [[12], [10, 12], [10]],
    [[7, 9], [9], [7]],
    [[6], [3, 4, 6], [3, 4]],
    [[5], [2, 3, 2, 5], [2, 3, 2]],
    [[2, 3, 2, 5], [5], [2, 3, 2]],
  ];
  let seed = 7;
  const rnd = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  for (const [sa, sb, sc] of pairs)
    test(`(${sa}) · (${sb}) → (${sc}), dense, bit-exact vs the dense reference`, () => {
      const da = new Float32Array(prod(sa)).map(() => (rnd() < 0.5 ? 0 : Math.fround((rnd() - 0.5) * 2 ** (rnd() * 20 - 10))));
      const db = new Float32Array(prod(sb)).map(() => (rnd() < 0.5 ? 0 : Math.fround((rnd() - 0.5) * 2 ** (rnd() * 20 - 10))));
      const r = contractCsf(denseToCsf(da, sa), denseToCsf(db, sb));
      assert.ok(r.ok);
      assert.deepEqual(r.tensor.shape, sc);
      const L = sc[sc.length - 1];
      assert.equal(r.tensor.indices.length, prod(sc), 'nnz = Π shape(C)');
      assert.deepEqual(
        Array.from(r.tensor.ptr),
        Array.from({ length: prod(sc) / L + 1 }, (_, i) => i * L),
      );
      assert.deepEqual(
        Array.from(r.tensor.indices),
        Array.from({ length: prod(sc) }, (_, e) => e % L),
      );
      assert.deepEqual(new Uint32Array(csfToDense(r.tensor).buffer), new Uint32Array(denseReference(da, sa, db, sb).buffer));
      assert.deepEqual(
        r.warnings.map((w) => w.code),
        sa.length === 1 || sb.length === 1 ? ['csf.contract-order1-operand'] : [],
      );
    });

  test('refusals: unequal final extents, scalar result, result order above 10', () => {
    const t = (shape: number[]) => denseToCsf(new Float32Array(prod(shape)).fill(1), shape);
    const code = (a: number[], b: number[]) => {
      const r = contractCsf(t(a), t(b));
      return r.ok ? 'ok' : r.issues[0].code;
    };
    assert.equal(code([3, 4], [2, 5]), 'csf.contract-extent-mismatch');
    assert.equal(code([4], [4]), 'csf.contract-scalar-result');
    assert.equal(code([1, 1, 1, 1, 1, 1, 2], [1, 1, 1, 1, 1, 2]), 'csf.contract-order-too-large');
    assert.equal(code([1, 1, 1, 1, 1, 2], [1, 1, 1, 1, 1, 2]), 'ok', 'order 10 works');
  });

  test('memory limits: exactly 1024 metadata words work ((505,8)·(2,8)), 1026 do not', () => {
    const t = (shape: number[]) => denseToCsf(new Float32Array(prod(shape)).fill(1), shape);
    assert.equal(contractCsf(t([505, 8]), t([2, 8])).ok, true);
    const r = contractCsf(t([506, 8]), t([2, 8]));
    assert.equal(!r.ok && r.issues[0].code, 'csf.meta-capacity');
    assert.match(!r.ok ? r.issues[0].message : '', /1026 in all, but the metadata memory holds 1024 words/);
    assert.equal(contractCsf(t([506, 8]), t([2, 8]), { metaCapacity: Infinity }).ok, true);
    const m = contractCsf(t([3, 8]), t([2, 8]), { mainCapacity: 24 + 16 + 5 });
    assert.equal(!m.ok && m.issues[0].code, 'csf.main-capacity');
    const mem = new AcceleratorMemory({ metaCapacity: 17 });
    const la = loadCsf(mem, A);
    const lb = loadCsf(mem, B);
    assert.ok(la.ok && lb.ok);
    const c = contractInMemory(mem, 0, 6);
    assert.equal(!c.ok && c.issues[0].code, 'csf.meta-capacity');
    assert.deepEqual([mem.metaTop, mem.mainTop, mem.tensors.length], [12, 5, 2], 'unchanged after the error');
  });
});

describe('contraction: float32 arithmetic, bit for bit', () => {
  const INF = 0x7f800000;
  const NINF = 0xff800000;
  test('empty-fiber quirk: an empty fiber meets Inf or NaN at index 0 → NaN (exact mode: 0)', () => {
    const a = raw([1, 3], [[]]);
    const b = raw(
      [3, 3],
      [
        [[0, INF]],
        [
          [0, NINF],
          [2, bitsOf(5)],
        ],
        [[1, INF]],
      ],
    );
    assert.deepEqual(Array.from(contractBits(a, b)), [0xffc00000, 0xffc00000, 0]);
    assert.deepEqual(Array.from(contractBits(a, b, false)), [0, 0, 0]);
    assert.deepEqual(Array.from(contractBits(b, a)), [0xffc00000, 0xffc00000, 0]);
    const nanB = raw([1, 3], [[[0, 0x7fa00001]]]);
    assert.equal(contractBits(a, nanB)[0], 0x7fe00001, '0 · sNaN gives the quieted NaN');
    const both = raw([1, 3], [[]]);
    assert.equal(contractBits(a, both)[0], 0, 'two empty fibers: 0 · 0 = +0');
  });

  test('Inf − Inf and 0 · Inf give the default NaN 0xFFC00000; explicit zeros take part', () => {
    assert.equal(
      one(
        [
          [0, Infinity],
          [1, 1],
        ],
        [
          [0, 1],
          [1, -Infinity],
        ],
        2,
      ),
      0xffc00000,
    );
    const zeros = denseToCsf(new Float32Array([0, 2]), [1, 2], { keepZeros: true });
    const inf = denseToCsf(new Float32Array([Infinity, 1]), [1, 2]);
    assert.equal(contractBits(zeros, inf)[0], 0xffc00000);
    assert.equal(contractBits(denseToCsf(new Float32Array([0, 2]), [1, 2]), inf)[0], bitsOf(2), 'a dropped zero does not');
  });

  test('NaN operands propagate quieted; the lhs wins a product, the accumulator wins a sum', () => {
    const a = raw(
      [1, 2],
      [
        [
          [0, 0x7fa00001],
          [1, bitsOf(1)],
        ],
      ],
    );
    const b = raw(
      [1, 2],
      [
        [
          [0, 0xffc00007],
          [1, 0x7fc00009],
        ],
      ],
    );
    assert.equal(contractBits(a, b)[0], 0x7fe00001);
    const a2 = raw(
      [1, 2],
      [
        [
          [0, bitsOf(1)],
          [1, 0x7fc00005],
        ],
      ],
    );
    const b2 = raw(
      [1, 2],
      [
        [
          [0, 0xff800001],
          [1, 0xffc00007],
        ],
      ],
    );
    assert.equal(contractBits(a2, b2)[0], 0xffc00001);
    assert.equal(contractBits(b2, a2)[0], 0xffc00001);
  });

  test('sequential ascending summation: (1 + 1e8) − 1e8 = 0, though the exact sum is 1', () => {
    assert.equal(
      one(
        [
          [0, 1],
          [1, 1e8],
          [2, -1e8],
        ],
        [
          [0, 1],
          [1, 1],
          [2, 1],
        ],
        3,
      ),
      0,
    );
    assert.equal(
      one(
        [
          [0, 1e8],
          [1, -1e8],
          [2, 1],
        ],
        [
          [0, 1],
          [1, 1],
          [2, 1],
        ],
        3,
      ),
      bitsOf(1),
    );
  });

  test('never −0.0; subnormals kept; overflow to Inf', () => {
    const neg = denseToCsf(new Float32Array([-1]), [1, 1]);
    const zero = denseToCsf(new Float32Array([0]), [1, 1], { keepZeros: true });
    assert.equal(contractBits(neg, zero)[0], 0, '+0 + (−1 · 0) = +0');
    assert.equal(one([[0, 2 ** -140]], [[0, 2 ** -5]], 1), 16, '2^-145 is 16 subnormal steps');
    assert.equal(
      one(
        [
          [0, 3e38],
          [1, -3e38],
        ],
        [
          [0, 10],
          [1, 10],
        ],
        2,
      ),
      0xffc00000,
      'Inf + (−Inf)',
    );
    assert.equal(one([[0, 3e38]], [[0, 10]], 1), INF);
  });

  test('a huge final extent (2^31, few entries) takes the sparse-column path and agrees with the PE model', () => {
    const K = 2 ** 31;
    const a = raw(
      [3, K],
      [
        [
          [5, bitsOf(2)],
          [K - 1, bitsOf(3)],
        ],
        [],
        [[0, INF]],
      ],
    );
    const b = raw(
      [2, K],
      [
        [
          [0, bitsOf(1)],
          [5, bitsOf(-1)],
          [K - 1, bitsOf(0.5)],
        ],
        [],
      ],
    );
    for (const quirk of [true, false]) {
      const bits = contractBits(a, b, quirk);
      assert.equal(bits.length, 6);
      for (let i = 0; i < 3; i++) for (let j = 0; j < 2; j++) assert.equal(bits[i * 2 + j], peReference(a, i, b, j, quirk), `C[${i},${j}] quirk=${quirk}`);
    }
    assert.deepEqual(Array.from(contractBits(a, b)), [bitsOf(-0.5), 0, 0, 0, bitsOf(Infinity), 0xffc00000]);
  });

  test('random tensors with special values: every element equals the PE model (property)', () => {
    const special = fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: -4, max: 4 }).map((v) => bitsOf(v)) },
      { weight: 1, arbitrary: fc.constantFrom(INF, NINF, 0x7fc00000, 0xffc00000, 0x7fa00001, 0x7f800003, 0x80000000, 1, 0x7f7fffff) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffffffff }) },
    );
    const fibersArb = (F: number, K: number) =>
      fc
        .array(fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: K - 1 }), special), { selector: (x) => x[0], maxLength: K }), { minLength: F, maxLength: F })
        .map((fs) => fs.map((f) => f.sort((x, y) => x[0] - y[0])));
    fc.assert(
      fc.property(
        fc
          .record({ FA: fc.integer({ min: 1, max: 4 }), FB: fc.integer({ min: 1, max: 4 }), K: fc.integer({ min: 1, max: 6 }) })
          .chain(({ FA, FB, K }) => fc.tuple(fc.constant(K), fibersArb(FA, K), fibersArb(FB, K), fc.boolean())),
        ([K, fa, fb, quirk]) => {
          const a = raw([fa.length, K], fa);
          const b = raw([fb.length, K], fb);
          const bits = contractBits(a, b, quirk);
          for (let i = 0; i < fa.length; i++)
            for (let j = 0; j < fb.length; j++) assert.equal(bits[i * fb.length + j], peReference(a, i, b, j, quirk), `C[${i},${j}]`);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('random finite sparse tensors of orders 1–4: bit-exact vs the dense reference; in memory too (property)', () => {
    const side = fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: 3 });
    fc.assert(
      fc.property(side, side, fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.boolean(), (la, lb, K, seed0, keep) => {
        if (la.length + lb.length === 0) return;
        let s = seed0;
        const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
        const sa = [...la, K];
        const sb = [...lb, K];
        const val = () => (rnd() < 0.6 ? 0 : Math.fround((rnd() - 0.5) * 2 ** Math.floor(rnd() * 40 - 20)));
        const da = new Float32Array(prod(sa)).map(val);
        const db = new Float32Array(prod(sb)).map(val);
        const ta = denseToCsf(da, sa, { keepZeros: keep });
        const tb = denseToCsf(db, sb);
        const r = contractCsf(ta, tb, { metaCapacity: Infinity });
        assert.ok(r.ok);
        const want = denseReference(da, sa, db, sb);
        assert.deepEqual(new Uint32Array(csfToDense(r.tensor).buffer), new Uint32Array(want.buffer));
        const mem = new AcceleratorMemory({ metaCapacity: Infinity });
        const a = loadCsf(mem, ta);
        const b = loadCsf(mem, tb);
        assert.ok(a.ok && b.ok);
        const c = contractInMemory(mem, a.tensor.t, b.tensor.t);
        assert.ok(c.ok);
        const back = tensorFromMemory(mem, c.tensor.t);
        assert.ok(back.ok);
        assert.deepEqual(encodeCsf(back.tensor), encodeCsf(r.tensor));
        assert.equal(c.multiplyAdds, r.multiplyAdds);
      }),
      { numRuns: 200 },
    );
  });
});
