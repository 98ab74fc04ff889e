/**
 * PCORE threads interleaved like the hardware's round-robin issue: a thread's read of shared memory
 * happens before other threads' writes of later statements land, and the writes of one round (one
 * statement or loop test per thread) land together at its end. Expectations are computed here from that
 * model, not by the simulator; kernels that cannot observe the order keep the sequential fast path and
 * give the same memory as the interleaved one.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { threadOrderVisible } from '../../core/sim/pcore/order';
import { expectSimError, newPage, rng, sim, sv } from '../fixtures/pcoresim/harness';

const NEIGHBOURS = `
_share int16 nb::s[16];
_share int16 nb::r[16];

// reads the next thread's slot, then writes its own
_kernel_ void nb::next() {
   r[tid] = s[(tid + 1) & 15];
   s[tid] = 100 + tid;
}

// reads the previous thread's slot, then writes its own
_kernel_ void nb::prev() {
   r[tid] = s[(tid + 15) & 15];
   s[tid] = 100 + tid;
}

// one statement reads the next slot and writes its own
_kernel_ void nb::same() {
   s[tid] = s[(tid + 1) & 15] + 1;
}

// four rounds of "take the next slot plus one", the value kept in a per-thread local between statements
_kernel_ void nb::rotate() {
   int i;
   int16 v;
   for (i = 0; i < 4; i++) {
      v = s[(tid + 1) & 15];
      s[tid] = v + 1;
   }
}

// loops of different lengths per thread: locals stay per thread while threads interleave
_kernel_ void nb::triangle() {
   int i, acc;
   acc = 0;
   for (i = 0; i <= tid; i++) acc = acc + i;
   r[tid] = acc + s[tid];
   s[tid] = 0;
}

// a late thread's reads come after an early thread's writes when it runs more steps first
_kernel_ void nb::late() {
   if (tid == 3) {
      r[0] = 1;
      r[1] = 2;
   }
   r[tid + 4] = s[0];
   s[0] = 7;
}

_kernel_ void nb::forever() {
   while (1) s[tid] = s[(tid + 1) & 15];
}
`;

/** A window sum through a pointer written back in place (the Lucas-Kanade kernel's shape). */
const WINDOW = `
_share int16 win::a[24];

_kernel_ void win::sum() {
   int16 *p;
   int16 v;
   p = &a[tid];
   v = p[0] + p[1];
   v = v + p[2];
   a[tid + 1] = v;
}
`;

/** Reads a shared tile through a pointer, writes a different shared array with _VMASK: cannot observe the order. */
const CONV = `
_share vint16 cv::tile[20 * 3];
_share int16 cv::k[3];
_share vint16 cv::out[16];
vint32 cv::acc;

_kernel_ void cv::run(_global int sh) {
   int dx;
   vint16 *p;
   vint16 v;
   p = &tile[tid];
   acc = 0;
   for (dx = 0; dx < 3; dx++) {
      acc += p[dx] * k[dx];
      p += 20;
   }
   v = acc >> sh;
   _VMASK = LT(v, 0);
   v = 0;
   _VMASK = -1;
   out[tid] = v;
   if (tid > 7) out[tid] = v + 1;
}
`;

function words(s: ReturnType<typeof sim>, name: string, n: number, p = 0): number[] {
  const o = s.off(name);
  return Array.from(s.page.shared.subarray(sv(p, o), sv(p, o) + n));
}

function setWords(s: ReturnType<typeof sim>, name: string, vals: number[], np = 8): void {
  const o = s.off(name);
  for (let p = 0; p < np; p++)
    vals.forEach((v, i) => {
      s.page.shared[sv(p, o + i)] = v;
    });
}

const iota = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('pcoresim: interleaved threads', () => {
  test('a thread reads the next thread’s slot before that thread writes it (the old value, also for thread 15 reading slot 0)', () => {
    const s = sim(NEIGHBOURS, true);
    assert.equal(threadOrderVisible(s.prog, s.prog.kernels.get('nb::next')!), true);
    setWords(s, 'nb::s', iota(16));
    s.run('nb::next');
    for (let p = 0; p < 8; p++) {
      assert.deepEqual(
        words(s, 'nb::r', 16, p),
        iota(16).map((t) => (t + 1) & 15),
        `PCORE ${p}`,
      );
      assert.deepEqual(
        words(s, 'nb::s', 16, p),
        iota(16).map((t) => 100 + t),
      );
    }
  });

  test('a thread reads the previous thread’s slot before its write of the next statement lands', () => {
    const s = sim(NEIGHBOURS, true);
    setWords(s, 'nb::s', iota(16));
    s.run('nb::prev');
    // run thread after thread, r[t] would be 100 + t - 1
    assert.deepEqual(
      words(s, 'nb::r', 16),
      iota(16).map((t) => (t + 15) & 15),
    );
  });

  test('within one statement every thread reads before any thread’s write lands', () => {
    const s = sim(NEIGHBOURS, true);
    setWords(s, 'nb::s', iota(16));
    s.run('nb::same');
    assert.deepEqual(
      words(s, 'nb::s', 16),
      iota(16).map((t) => ((t + 1) & 15) + 1),
    );
  });

  test('rounds of a loop: each iteration sees the previous iteration’s writes of every thread', () => {
    const s = sim(NEIGHBOURS, true);
    const init = [5, -3, 17, 0, 2047, 9, 1, -2048, 33, 4, 4, 8, 100, -1, 6, 12];
    setWords(s, 'nb::s', init);
    s.run('nb::rotate', { nt: 16 });
    let want = init.slice();
    for (let i = 0; i < 4; i++) want = want.map((_, t) => Math.min(2047, want[(t + 1) & 15] + 1));
    assert.deepEqual(words(s, 'nb::s', 16), want);
  });

  test('threads with loops of different lengths keep their own locals', () => {
    const s = sim(NEIGHBOURS, true);
    assert.equal(threadOrderVisible(s.prog, s.prog.kernels.get('nb::triangle')!), true);
    setWords(
      s,
      'nb::s',
      iota(16).map((t) => 1000 + t),
    );
    s.run('nb::triangle');
    assert.deepEqual(
      words(s, 'nb::r', 16),
      iota(16).map((t) => (t * (t + 1)) / 2 + 1000 + t),
    );
    assert.deepEqual(words(s, 'nb::s', 16), new Array(16).fill(0));
  });

  test('threads are not re-aligned after a branch: a thread that took more steps reads later', () => {
    const s = sim(NEIGHBOURS, true);
    setWords(s, 'nb::s', [-5]);
    s.run('nb::late', { nt: 5 });
    // round 1: every thread tests tid == 3; round 2: threads 0-2 and 4 read s[0] (old), thread 3 writes r[0];
    // round 3: threads 0-2 and 4 write s[0] = 7, thread 3 writes r[1]; round 4: thread 3 reads s[0] = 7
    assert.deepEqual(words(s, 'nb::r', 9), [1, 2, 0, 0, -5, -5, -5, 7, -5]);
  });

  test('a window summed through a pointer and written back in place (Lucas-Kanade shape)', () => {
    const s = sim(WINDOW, true);
    const a0 = rng(3);
    const init = iota(24).map(() => a0() >> 2);
    setWords(s, 'win::a', init);
    s.run('win::sum');
    const want = init.slice();
    for (let t = 0; t < 16; t++) want[t + 1] = init[t] + init[t + 1] + init[t + 2];
    assert.deepEqual(words(s, 'win::a', 24), want);
  });

  test('an endless interleaved kernel still stops at the step budget', () => {
    const s = sim(NEIGHBOURS, true);
    const e = expectSimError(() => s.run('nb::forever', { budget: { steps: 5000, cancelled: false } }));
    assert.equal(e.kind, 'budget');
  });

  test('the fast path and the interleaved path give the same memory on a kernel that cannot observe the order', () => {
    const fast = sim(CONV, true);
    assert.equal(threadOrderVisible(fast.prog, fast.prog.kernels.get('cv::run')!), false);
    const slow = sim(CONV, true, { interleave: 'always' });
    const r = rng(11);
    const pg = newPage();
    for (let i = 0; i < pg.shared.length; i++) pg.shared[i] = r();
    for (let i = 0; i < pg.priv.length; i++) pg.priv[i] = r();
    fast.page.shared.set(pg.shared);
    fast.page.priv.set(pg.priv);
    slow.page.shared.set(pg.shared);
    slow.page.priv.set(pg.priv);
    for (const sh of [0, 2, 5]) {
      const a = fast.run('cv::run', { globals: [sh, 0] });
      const b = slow.run('cv::run', { globals: [sh, 0] });
      assert.equal(a, b, 'lane-operations');
      assert.deepEqual(fast.page.shared, slow.page.shared);
      assert.deepEqual(fast.page.priv, slow.page.priv);
      for (let t = 0; t < 16; t++) assert.deepEqual(fast.runner.accumulator(0, 3, t, 0, 8), slow.runner.accumulator(0, 3, t, 0, 8));
    }
  });

  test('forcing the sequential path shows the difference the interleaving makes', () => {
    const s = sim(NEIGHBOURS, true, { interleave: 'never' });
    setWords(s, 'nb::s', iota(16));
    s.run('nb::next');
    // thread 15 reads slot 0 after thread 0 has written it
    assert.equal(words(s, 'nb::r', 16)[15], 100);
  });
});
