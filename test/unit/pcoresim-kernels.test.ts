/**
 * PCORE kernel interpreter: less common constructs, an equalize-style histogram, and the realistic
 * `test/fixtures/pcore/edge.p` edge detector checked against a JS reference of the same algorithm.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { forEachThread, pv, rng, sat12, sim, sv } from '../fixtures/pcoresim/harness';

describe('pcoresim: operators, locals, casts, intrinsics', () => {
  test('misc::ops', () => {
    const s = sim('misc.p');
    const a = s.off('misc::a');
    const b = s.off('misc::b');
    const r = s.off('misc::r');
    forEachThread((p, t) => {
      for (let l = 0; l < 8; l++) {
        s.page.priv[pv(p, t, a + l)] = 10 * l - t;
        s.page.priv[pv(p, t, b + l)] = l + p;
      }
    });
    s.run('misc::ops');
    forEachThread((p, t) => {
      const got = [...s.page.priv.slice(pv(p, t, r), pv(p, t, r + 15))];
      assert.deepEqual(got, [30, -31, 0, 1, 2047, 32, 10, 8, 30 - t, 1, 31, -2048, 8, 43, p * 100 + t], `p${p} t${t}`);
      for (let l = 0; l < 8; l++) {
        const a0 = 10 * l - t;
        const b0 = l + p;
        assert.equal(s.page.priv[pv(p, t, a + l)], t > 7 ? b0 : a0 + t, 'vector ?:');
        const b1 = b0 + 2;
        assert.equal(s.page.priv[pv(p, t, b + l)], sat12(b1 * (b1 - 1)));
      }
    });
  });
});

describe('pcoresim: equalize-style histogram', () => {
  test('ASN_RAW table indexing, vint16* << VECTOR_DEPTH, shared int16 strip, lane indexing in conditions', () => {
    const s = sim('eq.p');
    const inOff = s.off('eq::in');
    const hist = s.off('eq::histogram');
    const lo = s.off('eq::histogram_lo');
    const r = rng(77);
    for (let p = 0; p < 8; p++) for (let i = 0; i < 8 * 16; i++) s.page.shared[sv(p, inOff + i)] = Math.abs(r()) % 2048;
    forEachThread((p, t) => {
      for (let i = 0; i < 32; i++) s.page.priv[pv(p, t, hist + i)] = 99;
    });
    s.run('eq::init');
    s.run('eq::exe');
    s.run('eq::exe');
    forEachThread((p, t) => {
      const counts = [0, 0, 0, 0];
      for (let i = 0; i < 8; i++) counts[s.page.shared[sv(p, inOff + t * 8 + i)] >> 9] += 2;
      assert.deepEqual([...s.page.priv.slice(pv(p, t, hist), pv(p, t, hist + 4))], counts, `p${p} t${t}`);
      for (let i = 4; i < 32; i++) assert.equal(s.page.priv[pv(p, t, hist + i)], 0);
    });
    // adjust (one thread per PCORE)
    const setLo = (p: number, v0: number, v4: number): void => {
      s.page.shared[sv(p, lo)] = v0;
      s.page.shared[sv(p, lo + 4 * 8)] = v4;
    };
    setLo(0, 5, 10);
    setLo(1, 20, 5);
    s.run('eq::adjust', { np: 2, nt: 1 });
    assert.equal(s.page.shared[sv(0, lo)], 995);
    assert.equal(s.page.shared[sv(1, lo)], 15);
  });
});

describe('pcoresim: edge detector (test/fixtures/pcore/edge.p)', () => {
  const file = fileURLToPath(new URL('../fixtures/pcore/edge.p', import.meta.url));
  const text = readFileSync(file, 'utf8');

  test('prepare + sobel match a JS reference; overlay classes reuse memory and registers', () => {
    const s = sim(text, true);
    const tile = s.off('edge::tile');
    const grad = s.off('edge::grad');
    const slope = s.off('edge::slope');
    const r = rng(2024);
    for (let p = 0; p < 8; p++) for (let i = 0; i < 36 * 8; i++) s.page.shared[sv(p, tile + i)] = p < 4 ? r() >> 3 : r();
    s.run('edge::prepare');
    s.run('edge::sobel');
    const sx = [
      [-1, 0, 1],
      [-2, 0, 2],
      [-1, 0, 1],
    ];
    const sy = [
      [-1, -2, -1],
      [0, 0, 0],
      [1, 2, 1],
    ];
    forEachThread((p, t) => {
      const y = t >> 2;
      const x = t & 3;
      for (let l = 0; l < 8; l++) {
        let ax = 0;
        let ay = 0;
        for (let i = 0; i < 3; i++) {
          for (let j = 0; j < 3; j++) {
            const v = s.page.shared[sv(p, tile + ((y + i) * 6 + x + j) * 8 + l)];
            ax += v * sx[i][j];
            ay += v * sy[i][j];
          }
        }
        let dx = sat12(ax);
        let dy = sat12(ay);
        if (dx < 0) dx = sat12(-dx);
        if (dy < 0) dy = sat12(-dy);
        let big = dx;
        let small = dy;
        if (dy > dx) {
          big = dy;
          small = dx;
        }
        let sl = 128;
        if (sat12(dy * 4 - dx) > 0) sl = 255;
        if (sat12(dy - dx * 12) > 0) sl = 0;
        assert.equal(s.page.shared[sv(p, grad + t * 8 + l)], sat12(big + (small >> 1)), `grad p${p} t${t} l${l}`);
        assert.equal(s.page.shared[sv(p, slope + t * 8 + l)], sl, `slope p${p} t${t} l${l}`);
      }
      assert.equal(s.runner.vmask(0, p, t), -1);
    });
    // edge2 overlays edge: peak is the memory of tile, peak_p the register of tile_p
    const peak = s.off('edge2::peak');
    const mark = s.off('edge2::mark');
    const low = s.off('edge2::low');
    const high = s.off('edge2::high');
    assert.equal(peak, tile);
    for (let p = 0; p < 8; p++) {
      s.page.shared[sv(p, low)] = -100 + p;
      s.page.shared[sv(p, high)] = 50 * p;
    }
    s.run('edge2::prepare');
    s.run('edge2::hysteresis');
    forEachThread((p, t) => {
      const y = t >> 2;
      const x = t & 3;
      for (let l = 0; l < 8; l++) {
        const v = s.page.shared[sv(p, peak + ((y + 1) * 6 + x + 1) * 8 + l)];
        const want = v >= 50 * p && v >= -100 + p ? 255 : 0;
        assert.equal(s.page.shared[sv(p, mark + t * 8 + l)], want, `mark p${p} t${t} l${l}`);
      }
    });
  });
});
