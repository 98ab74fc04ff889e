/**
 * PCORE kernel interpreter: semantics (12-bit saturation, _VMASK, comparisons, accumulators, addressing,
 * arrays, pointers, parameters, control flow, helpers) on 8 PCOREs × 16 threads × 8 lanes.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { forEachThread, newPage, pv, rng, sat12, sim, sv } from '../fixtures/pcoresim/harness';

describe('pcoresim: test::add', () => {
  test('Z[l] = sat12(A[l] + 1) on every PCORE, thread and lane', () => {
    const s = sim('add.p');
    const A = s.off('test::_A');
    const Z = s.off('test::_Z');
    assert.deepEqual([A, Z], [0, 8]);
    const r = rng(1);
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) s.page.priv[pv(p, t, A + l)] = r();
    });
    // edge values, including saturation at 2047
    s.page.priv[pv(0, 0, A)] = 2047;
    s.page.priv[pv(0, 0, A + 1)] = 2046;
    s.page.priv[pv(7, 15, A + 7)] = -2048;
    s.page.priv[pv(3, 9, A + 4)] = -1;
    const before = s.page.priv.slice();
    const ops = s.run('test::add');
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) {
        assert.equal(s.page.priv[pv(p, t, Z + l)], sat12(before[pv(p, t, A + l)] + 1), `p${p} t${t} l${l}`);
        assert.equal(s.page.priv[pv(p, t, A + l)], before[pv(p, t, A + l)]);
      }
      // nothing else of the thread is written
      for (let w = 16; w < 256; w++) assert.equal(s.page.priv[pv(p, t, w)], 0);
    });
    assert.equal(s.page.priv[pv(0, 0, Z)], 2047);
    assert.equal(s.page.priv[pv(0, 0, Z + 1)], 2047);
    assert.equal(s.page.priv[pv(7, 15, Z + 7)], -2047);
    assert.equal(s.page.priv[pv(3, 9, Z + 4)], 0);
    // 128 threads × (1 scalar op for _VMASK + 8 lanes of the add)
    assert.equal(ops, 128 * 9);
    assert.ok(s.page.shared.every((x) => x === 0));
  });

  test('budget: one step per statement per thread', () => {
    const s = sim('add.p');
    const budget = { steps: 1000, cancelled: false };
    s.run('test::add', { budget });
    assert.equal(budget.steps, 1000 - 2 * 128);
    const inf = { steps: Infinity, cancelled: false };
    s.run('test::add', { budget: inf });
    assert.equal(inf.steps, Infinity);
  });

  test('numPcore / numThread limit the launch', () => {
    const s = sim('add.p');
    s.page.priv.fill(5);
    s.run('test::add', { np: 2, nt: 3 });
    forEachThread((p, t) => {
      const want = p < 2 && t < 3 ? 6 : 5;
      for (let l = 0; l < 8; l++) assert.equal(s.page.priv[pv(p, t, 8 + l)], want);
    });
  });

  test('property: random pages', () => {
    const s = sim('add.p');
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -2048, max: 2047 }), { minLength: 8, maxLength: 8 }), fc.nat(7), fc.nat(15), (lanes, p, t) => {
        lanes.forEach((v, l) => {
          s.page.priv[pv(p, t, l)] = v;
        });
        s.run('test::add');
        return lanes.every((v, l) => s.page.priv[pv(p, t, 8 + l)] === Math.min(2047, v + 1));
      }),
      { numRuns: 40 },
    );
  });
});

describe('pcoresim: _VMASK', () => {
  const setup = () => {
    const s = sim('mask.p');
    const A = s.off('mask::_A');
    const B = s.off('mask::_B');
    const Z = s.off('mask::_Z');
    return { s, A, B, Z };
  };

  test('masked stores, persistence across launches, per process, reset', () => {
    const { s, A, Z } = setup();
    const r = rng(7);
    const fillA = (): void =>
      forEachThread((p, t) => {
        for (let l = 0; l < 8; l++) s.page.priv[pv(p, t, A + l)] = r();
      });
    const bits = 0b10100101;
    assert.equal(s.runner.vmask(0, 3, 4), -1, 'reset value = all lanes');
    s.run('mask::set', { globals: [bits, 0] });
    assert.equal(s.runner.vmask(0, 3, 4), bits);
    fillA();
    s.run('mask::copy');
    const check = (want: (p: number, t: number, l: number) => number): void =>
      forEachThread((p, t) => {
        for (let l = 0; l < 8; l++) assert.equal(s.page.priv[pv(p, t, Z + l)], want(p, t, l), `p${p} t${t} l${l}`);
      });
    check((p, t, l) => ((bits >> l) & 1 ? s.page.priv[pv(p, t, A + l)] : 0));
    // the mask persists into the next launch of another kernel
    const first = s.page.priv.slice();
    fillA();
    s.run('mask::copy');
    check((p, t, l) => ((bits >> l) & 1 ? s.page.priv[pv(p, t, A + l)] : first[pv(p, t, Z + l)]));
    // process 1 has its own _VMASK
    const page1 = newPage();
    page1.priv.set(s.page.priv);
    s.run('mask::copy', { process: 1, page: page1 });
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) assert.equal(page1.priv[pv(p, t, Z + l)], page1.priv[pv(p, t, A + l)]);
    });
    assert.equal(s.runner.vmask(1, 0, 0), -1);
    // all lanes again
    s.run('mask::all');
    fillA();
    s.run('mask::copy');
    check((p, t, l) => s.page.priv[pv(p, t, A + l)]);
    // tid-dependent mask
    s.page.priv.fill(0);
    fillA();
    s.run('mask::bytid');
    s.run('mask::copy');
    check((p, t, l) => (l === (t & 7) ? s.page.priv[pv(p, t, A + l)] : 0));
    s.runner.reset();
    assert.equal(s.runner.vmask(0, 5, 5), -1);
  });

  test('GE mask then masked store', () => {
    const { s, A, B, Z } = setup();
    const r = rng(3);
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) {
        s.page.priv[pv(p, t, A + l)] = r() >> 6;
        s.page.priv[pv(p, t, B + l)] = r() >> 6;
      }
    });
    s.page.priv[pv(0, 0, A)] = 5;
    s.page.priv[pv(0, 0, B)] = 5;
    s.run('mask::ge');
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) {
        const want = s.page.priv[pv(p, t, A + l)] >= s.page.priv[pv(p, t, B + l)] ? 1 : 0;
        assert.equal(s.page.priv[pv(p, t, Z + l)], want);
      }
      assert.equal(s.runner.vmask(0, p, t), -1);
    });
    assert.equal(s.page.priv[pv(0, 0, Z)], 1, 'equal values are GE');
  });

  test('LT mask: absolute value with saturation of -(-2048)', () => {
    const { s, A, Z } = setup();
    const vals = [-2048, -5, 0, 7, 2047, -1, 1, -2047];
    forEachThread((p, t) =>
      vals.forEach((v, l) => {
        s.page.priv[pv(p, t, A + l)] = v;
      }),
    );
    s.run('mask::absval');
    forEachThread((p, t) => assert.deepEqual([...s.page.priv.slice(pv(p, t, Z), pv(p, t, Z + 8))], [2047, 5, 0, 7, 2047, 1, 1, 2047]));
  });

  test('GE GT LE LT EQ NE give lane masks; int & of masks', () => {
    const { s, A, B, Z } = setup();
    const a = [1, 5, 9, 10, -3, 7, 6, 5];
    const b = [1, 4, 10, 10, -4, 8, 6, 0];
    forEachThread((p, t) => {
      a.forEach((v, l) => {
        s.page.priv[pv(p, t, A + l)] = v;
      });
      b.forEach((v, l) => {
        s.page.priv[pv(p, t, B + l)] = v;
      });
    });
    s.run('mask::masks');
    const m = (f: (x: number, y: number) => boolean): number => a.reduce((acc, x, l) => acc | (f(x, b[l]) ? 1 << l : 0), 0);
    const want = [
      m((x, y) => x >= y),
      m((x, y) => x > y),
      m((x, y) => x <= y),
      m((x, y) => x < y),
      m((x, y) => x === y),
      m((x, y) => x !== y),
      m((x) => x >= 5 && x < 10),
      -1,
    ];
    forEachThread((p, t) => assert.deepEqual([...s.page.priv.slice(pv(p, t, Z), pv(p, t, Z + 8))], want));
    assert.deepEqual(want.slice(0, 3), [0b11011011, 0b10010010, 0b01101101]);
  });

  test('_VMASK also gates accumulator writes', () => {
    const { s, A, Z } = setup();
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) s.page.priv[pv(p, t, A + l)] = 10 * l + t;
    });
    s.run('mask::accmask');
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) assert.equal(s.page.priv[pv(p, t, Z + l)], l < 4 ? 10 * l + t : 1000);
    });
  });
});

describe('pcoresim: accumulators', () => {
  const setup = () => {
    const s = sim('acc.p');
    const o = (n: string): number => s.off(`acc::${n}`);
    return { s, a: o('a'), b: o('b'), out: o('out'), out2: o('out2') };
  };

  test('acc = a*b; out = acc >> 4 saturates to 12 bits', () => {
    const { s, a, b, out } = setup();
    const r = rng(11);
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) {
        s.page.priv[pv(p, t, a + l)] = r();
        s.page.priv[pv(p, t, b + l)] = r();
      }
    });
    s.page.priv[pv(1, 1, a)] = -2048;
    s.page.priv[pv(1, 1, b)] = -2048;
    s.page.priv[pv(1, 1, a + 1)] = 100;
    s.page.priv[pv(1, 1, b + 1)] = -3;
    const ops = s.run('acc::mul');
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) {
        const x = s.page.priv[pv(p, t, a + l)] * s.page.priv[pv(p, t, b + l)];
        assert.equal(s.page.priv[pv(p, t, out + l)], sat12(x >> 4));
      }
    });
    assert.equal(s.page.priv[pv(1, 1, out)], 2047);
    assert.equal(s.page.priv[pv(1, 1, out + 1)], -19, 'arithmetic shift rounds toward -inf (-300 >> 4)');
    assert.deepEqual([...s.runner.accumulator(0, 1, 1, 0, 2)], [4194304, -300], 'accumulators keep 32 bits');
    assert.equal(ops, 128 * 16);
  });

  test('FMA-style += accumulates across launches (persistent, 32-bit); _global selects the accumulator', () => {
    const { s, a, b, out2 } = setup();
    const r = rng(5);
    const A: number[] = [];
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) {
        const v = r();
        s.page.priv[pv(p, t, a + l)] = v;
        A.push(v);
      }
    });
    s.run('acc::start');
    const sum = A.slice();
    for (let round = 0; round < 3; round++) {
      let i = 0;
      forEachThread((p, t) => {
        for (let l = 0; l < 8; l++) {
          const v = r();
          s.page.priv[pv(p, t, b + l)] = v;
          sum[i] += A[i] * v;
          i++;
        }
      });
      s.run('acc::fma', { globals: [0, 0] });
    }
    let i = 0;
    forEachThread((p, t) => {
      assert.deepEqual([...s.runner.accumulator(0, p, t, 0 + 8, 8)], sum.slice(i, i + 8), `sum[0] p${p} t${t}`);
      i += 8;
    });
    s.run('acc::finish', { globals: [0, 2] });
    i = 0;
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++, i++) assert.equal(s.page.priv[pv(p, t, out2 + l)], sat12(sum[i] >> 2));
    });
    // sum[1] was started at 0 and is untouched by fma(0)
    s.run('acc::fma', { globals: [1, 0] });
    s.run('acc::finish', { globals: [1, 0] });
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) {
        const x = s.page.priv[pv(p, t, a + l)] * s.page.priv[pv(p, t, b + l)];
        assert.equal(s.page.priv[pv(p, t, out2 + l)], sat12(x));
      }
    });
  });

  test('out += a*b on a vint16 saturates', () => {
    const { s, a, b, out } = setup();
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) {
        s.page.priv[pv(p, t, a + l)] = l - 4;
        s.page.priv[pv(p, t, b + l)] = 300 + t;
        s.page.priv[pv(p, t, out + l)] = 1000;
      }
    });
    s.run('acc::fmavec');
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) assert.equal(s.page.priv[pv(p, t, out + l)], sat12(1000 + (l - 4) * (300 + t)));
    });
  });

  test('property: wide vector arithmetic saturated on store', () => {
    const s = sim(
      `
vint16 q::a;
vint16 q::b;
vint16 q::z;
vint32 q::acc;
_kernel_ void q::k1() { z = a * b - a; }
_kernel_ void q::k2() { acc = a * b; acc += b; z = acc >> 3; }
_kernel_ void q::k3() { z = (a + b) * 3 + (b << 2); }
_kernel_ void q::k4() { z = -a - (b >> 1); }
`,
      true,
    );
    const refs: [string, (x: number, y: number) => number][] = [
      ['q::k1', (x, y) => x * y - x],
      ['q::k2', (x, y) => (x * y + y) >> 3],
      ['q::k3', (x, y) => (x + y) * 3 + y * 4],
      ['q::k4', (x, y) => -x - (y >> 1)],
    ];
    const lane = fc.integer({ min: -2048, max: 2047 });
    fc.assert(
      fc.property(fc.array(lane, { minLength: 8, maxLength: 8 }), fc.array(lane, { minLength: 8, maxLength: 8 }), fc.nat(3), fc.nat(15), (A, B, k, t) => {
        A.forEach((v, l) => {
          s.page.priv[pv(0, t, l)] = v;
        });
        B.forEach((v, l) => {
          s.page.priv[pv(0, t, 8 + l)] = v;
        });
        const [name, ref] = refs[k];
        s.run(name, { np: 1 });
        return A.every((x, l) => s.page.priv[pv(0, t, 16 + l)] === sat12(ref(x, B[l])));
      }),
      { numRuns: 200 },
    );
  });
});

describe('pcoresim: addressing, arrays, pointers, parameters', () => {
  const setup = () => {
    const s = sim('mem.p');
    const o = (n: string): number => s.off(`mem::${n}`);
    return { s, tile: o('tile'), coef: o('coef'), total: o('total'), row: o('row'), res: o('res'), w: o('w'), scal: o('scal') };
  };

  test('shared vs private: each thread reads its window of the shared tile', () => {
    const { s, tile, res } = setup();
    assert.ok(tile >= 8, 'shared variables start after the constants');
    const r = rng(21);
    for (let p = 0; p < 8; p++) for (let i = 0; i < 32 * 8; i++) s.page.shared[sv(p, tile + i)] = r();
    s.run('mem::window');
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) {
        const want = sat12(s.page.shared[sv(p, tile + t * 8 + l)] + s.page.shared[sv(p, tile + (t + 16) * 8 + l)]);
        assert.equal(s.page.priv[pv(p, t, res + l)], want);
      }
    });
  });

  test('int16 2-D array in nested loops, scalar word arithmetic saturating at each store', () => {
    const { s, coef, scal } = setup();
    const r = rng(4);
    for (let p = 0; p < 8; p++) for (let i = 0; i < 16; i++) s.page.shared[sv(p, coef + i)] = p < 4 ? r() >> 4 : r();
    s.run('mem::coefsum');
    forEachThread((p, t) => {
      let acc = 0;
      for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) acc = sat12(acc + s.page.shared[sv(p, coef + i * 4 + j)] * (i + 1));
      assert.equal(s.page.priv[pv(p, t, scal)], acc, `p${p} t${t}`);
    });
  });

  test('vint16 array with a _global loop bound', () => {
    const { s, row } = setup();
    const r = rng(9);
    forEachThread((p, t) => {
      for (let i = 0; i < 32; i++) s.page.priv[pv(p, t, row + i)] = r();
    });
    const before = s.page.priv.slice();
    s.run('mem::rows', { globals: [3, 0] });
    forEachThread((p, t) => {
      for (let i = 0; i < 4; i++) {
        for (let l = 0; l < 8; l++) {
          const x = before[pv(p, t, row + i * 8 + l)];
          assert.equal(s.page.priv[pv(p, t, row + i * 8 + l)], i < 3 ? sat12(x * 2 - i) : x);
        }
      }
    });
  });

  test('lanes of a vector as words; int16 array stores; tid', () => {
    const { s, res, w } = setup();
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) s.page.priv[pv(p, t, res + l)] = 2040 + l;
    });
    s.run('mem::lanes');
    forEachThread((p, t) => {
      for (let k = 0; k < 6; k++) assert.equal(s.page.priv[pv(p, t, w + k)], sat12(2040 + k + t));
    });
  });

  test('pointers: vector pointer into shared memory, word pointer into private memory, persistent pointer registers', () => {
    const { s, tile, row, res, w } = setup();
    const r = rng(13);
    for (let p = 0; p < 8; p++) for (let i = 0; i < 32 * 8; i++) s.page.shared[sv(p, tile + i)] = r();
    forEachThread((p, t) => {
      for (let i = 0; i < 32; i++) s.page.priv[pv(p, t, row + i)] = r();
    });
    const before = s.page.priv.slice();
    s.run('mem::ptrs');
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) {
        const x = sat12(s.page.shared[sv(p, tile + t * 8 + l)]);
        assert.equal(s.page.priv[pv(p, t, res + l)], sat12(x + s.page.shared[sv(p, tile + (t + 16) * 8 + l)]));
      }
      assert.equal(s.page.priv[pv(p, t, w + 1)], 100);
      assert.equal(s.page.priv[pv(p, t, w + 3)], 200 + t);
    });
    s.run('mem::ptrs2');
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) assert.equal(s.page.priv[pv(p, t, row + 8 + l)], before[pv(p, t, row + 16 + l)], 'row[1] = row[2]');
      assert.equal(s.page.priv[pv(p, t, w + 4)], -7);
    });
  });

  test('vint16* << VECTOR_DEPTH becomes an int16* word index', () => {
    const { s, row } = setup();
    s.run('mem::convert');
    forEachThread((p, t) => {
      assert.equal(s.page.priv[pv(p, t, row + 9)], 1234);
      assert.equal(s.page.priv[pv(p, t, row + 8)], 0);
      assert.equal(s.page.priv[pv(p, t, row + 10)], 0);
    });
  });

  test('int parameter (private shadow word) and int16 parameter; class int persists', () => {
    const { s, scal } = setup();
    const k = s.prog.kernels.get('mem::params');
    assert.ok(k);
    const base = k.params[0].offset;
    const inc = k.params[1].offset;
    assert.ok(base !== undefined && inc !== undefined);
    forEachThread((p, t) => {
      s.page.priv[pv(p, t, base)] = 7 + p;
      s.page.priv[pv(p, t, inc)] = -3;
    });
    s.run('mem::params');
    forEachThread((p, t) => assert.equal(s.page.priv[pv(p, t, scal)], 4 + p + t));
    forEachThread((p, t) => {
      s.page.priv[pv(p, t, scal)] = 0;
    });
    s.run('mem::usen');
    forEachThread((p, t) => assert.equal(s.page.priv[pv(p, t, scal)], 7 + p + t));
  });

  test('_share int16 scalar written by every thread: threads run in order, pid is the PCORE index', () => {
    const { s, total } = setup();
    s.run('mem::sharedscalar');
    for (let p = 0; p < 8; p++) assert.equal(s.page.shared[sv(p, total)], 150 + p);
    s.run('mem::sharedscalar', { nt: 4 });
    for (let p = 0; p < 8; p++) assert.equal(s.page.shared[sv(p, total)], 30 + p);
  });
});

describe('pcoresim: 3x3 box filter over a shared tile', () => {
  test('hand-computed sums and averages', () => {
    const s = sim('box.p');
    const tile = s.off('box::tile');
    const out = s.off('box::out');
    const avg = s.off('box::avg');
    // tile[r][c] lane l = 10 r + c + l + 10 pid
    for (let p = 0; p < 8; p++) {
      for (let r = 0; r < 6; r++)
        for (let c = 0; c < 6; c++) for (let l = 0; l < 8; l++) s.page.shared[sv(p, tile + (r * 6 + c) * 8 + l)] = 10 * r + c + l + 10 * p;
    }
    s.run('box::filter');
    const at = (arr: number, p: number, t: number, l: number): number => s.page.shared[sv(p, arr + t * 8 + l)];
    // hand-computed: sum of the 3x3 neighbourhood = 9 (10y + x + l + 10p) + 99
    assert.equal(at(out, 0, 0, 0), 99);
    assert.equal(at(avg, 0, 0, 0), 11); // 99*57 >> 9
    assert.equal(at(out, 0, 5, 2), 216);
    assert.equal(at(avg, 0, 5, 2), 24);
    assert.equal(at(out, 3, 15, 7), 729);
    assert.equal(at(avg, 3, 15, 7), 81);
    forEachThread((p, t) => {
      const y = t >> 2;
      const x = t & 3;
      for (let l = 0; l < 8; l++) {
        const sum = 9 * (10 * y + x + l + 10 * p) + 99;
        assert.equal(at(out, p, t, l), sum);
        assert.equal(at(avg, p, t, l), (sum * 57) >> 9);
      }
    });
  });
});

describe('pcoresim: control flow and helpers', () => {
  test('while/continue/break, do-while, switch fall-through, helpers, ?:, &&, 13-bit int wrap, return', () => {
    const s = sim('ctrl.p');
    const r = s.off('ctrl::r');
    const v = s.off('ctrl::v');
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) s.page.priv[pv(p, t, v + l)] = 2040 + l - t;
    });
    s.run('ctrl::flow');
    forEachThread((p, t) => {
      const got = [...s.page.priv.slice(pv(p, t, r), pv(p, t, r + 8))];
      const sw = [10, 12, 1, -1][t & 3];
      assert.deepEqual(got, [18, 8, sw, 2 * t + (t > 7 ? 100 : 0), (t & 3) === 3 ? 1 : 0, -2048, 2047, t === 2 ? 0 : 77], `p${p} t${t}`);
      for (let l = 0; l < 8; l++) assert.equal(s.page.priv[pv(p, t, v + l)], sat12(2045 + l - t));
    });
  });
});
