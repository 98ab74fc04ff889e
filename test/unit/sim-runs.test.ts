/**
 * The run-based transfer path (core/sim/engine/walk.ts Cursor, transfer.ts byteRuns): element
 * enumeration and byte/halfword transfers checked element by element against hand-computed results
 * (padding, PAD, skipped writes, `+` bound suppression, overlapped dimensions N(R,C), REPEAT,
 * exhaustion, constants, `[*]` broadcast), and against a naive per-element model of research §6.3–§6.4
 * on random descriptors.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import { readI16, runStatic, writeI16 } from '../helpers/sim';
import { Walker } from '../../core/sim/engine/walk';
import { runTransfer, type Side } from '../../core/sim/engine/transfer';
import { SteppedTransfer } from '../../core/sim/engine/stepped';
import { Machine } from '../../core/sim/machine';
import { SpaceHistory } from '../../core/sim/history';
import type { Descriptor, Level } from '../../core/tprog/descriptor';
import { mulberry32 as rng } from '../helpers/rng';

const P = `
vint16 t::a[4];
_share vint16 t::sh[4];
_kernel_ void t::k(int16 var[4]) { }
`;
const prog = (body: string) => `void f(void) {\n${body}\n}\n`;
const PA = 0x1000;
const QA = 0x3000;
/** Byte i of buffer p. */
const pb = (i: number) => (i * 7 + 3) & 0xff;
/** INT16 element i of buffer p. */
const pw = (i: number) => ((i * 389 + 11) % 4000) - 2000;
const bytesOf = (m: Machine, at: number, n: number) => [...m.mem.subarray(at, at + n)];

function runBytes(stmt: string, sentinel = 0xee) {
  const a = analyze(prog(stmt), P, 'ztachip');
  return runStatic(
    a,
    { p: PA, q: QA },
    {
      prepare: (m) => {
        for (let i = 0; i < 256; i++) m.mem[PA + i] = pb(i);
        m.mem.fill(sentinel, QA, QA + 256);
      },
    },
  );
}

function runWords(stmt: string, sentinel = 0x1111) {
  const a = analyze(prog(stmt), P, 'ztachip');
  const r = runStatic(
    a,
    { p: PA, q: QA },
    {
      prepare: (m) => {
        writeI16(m, PA, [...Array(128).keys()].map(pw));
        writeI16(m, QA, Array(128).fill(sentinel));
      },
    },
  );
  return { ...r, a };
}

describe('run-based transfers, hand-computed', () => {
  test('UINT8 gather with padding: columns past the row read 0', () => {
    // p as 4 rows of 5 bytes; rows 0..1, columns 3..8: columns 3,4 valid, 5..8 outside the row
    const { m, steps } = runBytes('> DTYPE(UINT8)MEM(q)[0:11] <= DTYPE(UINT8)MEM(p,4,5)[0:1][3:8];');
    assert.deepEqual(bytesOf(m, QA, 13), [pb(3), pb(4), 0, 0, 0, 0, pb(8), pb(9), 0, 0, 0, 0, 0xee]);
    assert.equal(steps[0].elements, 12);
    assert.equal(steps[0].padded, 8);
    assert.equal(steps[0].skipped, 0);
    assert.deepEqual(steps[0].read, { space: 'MEM', lo: PA + 3, hi: PA + 9, count: 4 });
    assert.deepEqual(steps[0].written, { space: 'MEM', lo: QA, hi: QA + 11, count: 12 });
  });

  test('INT16 gather with PAD(-2)', () => {
    const { m, steps } = runWords('> DTYPE(INT16)MEM(q)[0:5] <= PAD(-2) DTYPE(INT16)MEM(p,3,4)[1:2][2:4];');
    assert.deepEqual(readI16(m.mem, QA, 7), [pw(6), pw(7), -2, pw(10), pw(11), -2, 0x1111]);
    assert.equal(steps[0].padded, 2);
  });

  test('INT16 scatter: writes outside the destination bounds are skipped', () => {
    // destination 3 rows × 4; rows 0..3 (row 3 outside), columns 2..4 (column 4 outside)
    const { m, steps } = runWords('> DTYPE(INT16)MEM(q,3,4)[0:3][2:4] <= DTYPE(INT16)MEM(p)[0:11];');
    const want = Array(16).fill(0x1111);
    for (let n = 0; n < 12; n++) {
      const r = Math.floor(n / 3);
      const c = 2 + (n % 3);
      if (r < 3 && c < 4) want[r * 4 + c] = pw(n);
    }
    assert.deepEqual(readI16(m.mem, QA, 16), want);
    assert.equal(steps[0].skipped, 6);
    assert.equal(steps[0].padded, 0);
    assert.deepEqual(steps[0].written, { space: 'MEM', lo: QA + 2 * 2, hi: QA + 2 * 11 + 1, count: 12 });
    assert.deepEqual(steps[0].read, { space: 'MEM', lo: PA, hi: PA + 23, count: 24 });
  });

  test('+ suppresses the bound check of its dimension, on either side', () => {
    // source rows 0..2 of size 2 (row 2 padded), columns 1..3 of size 3+ (column 3 read as if valid);
    // destination rows of size 2+ (row 2 written)
    const { m, steps } = runBytes('> DTYPE(UINT8)MEM(q,2+,3)[0:2][0:2] <= DTYPE(UINT8)MEM(p,2,3+)[0:2][1:3];');
    assert.deepEqual(bytesOf(m, QA, 10), [pb(1), pb(2), pb(3), pb(4), pb(5), pb(6), 0, 0, 0, 0xee]);
    assert.equal(steps[0].padded, 3);
    assert.equal(steps[0].skipped, 0);
  });

  test('overlapped dimension N(R,C): the linear limit pads reads and skips writes', () => {
    const rd = runBytes('> DTYPE(UINT8)MEM(q)[0:15] <= DTYPE(UINT8)MEM(p,12(2,8))[0:1][0:7];');
    assert.deepEqual(bytesOf(rd.m, QA, 16), [...[...Array(12).keys()].map(pb), 0, 0, 0, 0]);
    assert.equal(rd.steps[0].padded, 4);
    const wr = runBytes('> DTYPE(UINT8)MEM(q,10(2,8))[0:1][0:7] <= DTYPE(UINT8)MEM(p)[0:15];');
    assert.deepEqual(bytesOf(wr.m, QA, 17), [...[...Array(10).keys()].map(pb), ...Array(7).fill(0xee)]);
    assert.equal(wr.steps[0].skipped, 6);
    // INT16: 20 bytes = 10 elements
    const w16 = runWords('> DTYPE(INT16)MEM(q)[0:15] <= DTYPE(INT16)MEM(p,20(2,8))[0:1][0:7];');
    assert.deepEqual(readI16(w16.m.mem, QA, 16), [...[...Array(10).keys()].map(pw), 0, 0, 0, 0, 0, 0]);
  });

  test('REPEAT restarts a padded source; without it the exhausted source pads', () => {
    const rep = runBytes('> DTYPE(UINT8)MEM(q)[0:9] <= REPEAT DTYPE(UINT8)MEM(p,2,3)[0:1][1:3];');
    assert.deepEqual(bytesOf(rep.m, QA, 11), [pb(1), pb(2), 0, pb(4), pb(5), 0, pb(1), pb(2), 0, pb(4), 0xee]);
    assert.equal(rep.steps[0].padded, 3);
    const ex = runBytes('> DTYPE(UINT8)MEM(q)[0:9] <= DTYPE(UINT8)MEM(p,2,3)[0:1][1:3];');
    assert.deepEqual(bytesOf(ex.m, QA, 11), [pb(1), pb(2), 0, pb(4), pb(5), 0, 0, 0, 0, 0, 0xee]);
    assert.equal(ex.steps[0].padded, 6);
    assert.deepEqual(ex.steps[0].read, { space: 'MEM', lo: PA + 1, hi: PA + 5, count: 4 });
  });

  test('a constant fills a strided destination', () => {
    const { m, steps } = runWords('> DTYPE(INT16)MEM(q,4,4)[0:3][1:2] <= INT16(-7);');
    const want = Array(16).fill(0x1111);
    for (let r = 0; r < 4; r++) want[r * 4 + 1] = want[r * 4 + 2] = -7;
    assert.deepEqual(readI16(m.mem, QA, 16), want);
    assert.equal(steps[0].padded, 0);
    assert.equal(steps[0].read, undefined);
  });

  test('source and destination in the same buffer copy element by element in ordinal order', () => {
    // each row: p[1..7] <= p[0..6], element n read after element n-1 was written
    const { m } = runBytes('> DTYPE(UINT8)MEM(p,2,8)[0:1][1:7] <= DTYPE(UINT8)MEM(p,2,8)[0:1][0:6];');
    assert.deepEqual(bytesOf(m, PA, 16), [...Array(8).fill(pb(0)), ...Array(8).fill(pb(8))]);
  });

  test('[*] broadcast of a padded MEM row to every PCORE', () => {
    const { m, a } = runWords('> DTYPE(INT16)PCORE(8)[*].t::sh[1][:] <= DTYPE(INT16)MEM(p,6)[2:9];');
    const r = a.pcore!.lookupMember('t::sh');
    assert.ok(r.ok);
    const o = r.member.offset! + 8;
    for (let pc = 0; pc < 8; pc++)
      assert.deepEqual([...m.pages[0].shared.subarray(pc * 4096 + o, pc * 4096 + o + 8)], [pw(2), pw(3), pw(4), pw(5), 0, 0, 0, 0], `PCORE ${pc}`);
  });

  test('history: a strided write keeps exactly the changed pages', () => {
    // three rows 8 KiB apart: pages 0x1000-based 3, 5 and 7 of q's region change
    const a = analyze(prog('> DTYPE(UINT8)MEM(q,3,8192)[0:2][0:3] <= DTYPE(UINT8)MEM(p)[0:11];'), P, 'ztachip');
    const { m, steps, histories } = runStatic(
      a,
      { p: PA, q: QA },
      { prepare: (mm) => mm.mem.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], PA), m: new Machine({ memBytes: 1 << 16 }) },
    );
    assert.deepEqual(steps[0].changed.MEM, [3, 5, 7]);
    assert.deepEqual([...m.mem.subarray(QA + 8192, QA + 8196)], [5, 6, 7, 8]);
    assert.deepEqual([...histories.get('MEM')!.read(QA + 8192, 4, -1)], [0, 0, 0, 0]);
  });
});

describe('both dialects, the same semantics', () => {
  const G = `
int16 myclass::myvar[64];
_kernel_ void myclass::myfunc(int16 var[4]) { }
`;
  const pairs: [string, string][] = [
    [
      'PCORE[0].THREAD[0:2].myclass::myfunc.var[0:3] <= DDR(p,100,2,2)[0][0:2][0:3];',
      'DTYPE(INT16)PCORE(8)[0].THREAD[0:2].myclass::myfunc.var[0:3] <= DTYPE(INT16)MEM(p,100,2,2)[0][0:2][0:3];',
    ],
    [
      'PCORE[0:1].THREAD[0:1].myclass::myvar[0:5] <= PAD(7) DDR(p,4+,5)[0:3][2:4];',
      'DTYPE(INT16)PCORE(8)[0:1].THREAD[0:1].myclass::myvar[0:5] <= PAD(7) DTYPE(INT16)MEM(p,4+,5)[0:3][2:4];',
    ],
    [
      'FOR(K=0:3) FOR(I=0:1) PCORE[0:2].THREAD[I].myclass::myvar[K] <= DDR(p)[0:2*3*4-1];',
      'FOR(K=0:3) FOR(I=0:1) DTYPE(INT16)PCORE(8)[0:2].THREAD[I].myclass::myvar[K] <= DTYPE(INT16)MEM(p)[0:2*3*4-1];',
    ],
  ];
  for (const [guide, zta] of pairs)
    test(guide, () => {
      const exec = (stmt: string, dialect: 'guide' | 'ztachip') => {
        // `p` is a C parameter: the ztachip dialect's compiler copies it into C, so it must be declared
        const a = analyze(`void f(uint32_t p) {\n>${stmt}\n}\n`, G, dialect);
        assert.equal(a.diagnostics.filter((d) => d.severity === 'error').length, 0, `${dialect}: ${a.diagnostics.map((d) => d.message).join('; ')}`);
        return runStatic(a, { p: PA }, { prepare: (m) => writeI16(m, PA, [...Array(200).keys()].map(pw)) });
      };
      const g = exec(guide, 'guide');
      const z = exec(zta, 'ztachip');
      assert.ok(g.m.pages[0].priv.some((w) => w !== 0));
      assert.deepEqual([...g.m.pages[0].priv], [...z.m.pages[0].priv]);
      assert.deepEqual({ ...g.steps[0], text: '', column: 0 }, { ...z.steps[0], text: '', column: 0 });
    });
});

// ------------------------------------------------------------------ naive model on random descriptors

interface Spec {
  base: number;
  levels: { begin: number; step: number; count: number; stride: number; size: number; check: boolean }[];
  limit?: number;
}

function descOf(s: Spec, elemBytes: number): Descriptor {
  const levels: Level[] = s.levels.map((l, k) => ({
    kind: 'dim',
    label: `d${k}`,
    dim: k,
    begin: l.begin,
    step: l.step,
    count: l.count,
    stride: l.stride,
    size: l.size,
    checkHigh: l.check,
  }));
  return {
    space: 'MEM',
    written: 'MEM',
    elemBytes,
    base: s.base,
    levels,
    total: levels.reduce((x, l) => x * l.count!, 1),
    bufLimit: s.limit,
    pad: undefined,
    repeat: false,
    problems: [],
  };
}

/** Research §6.3: element n's index per level, valid when every index is ≥ 0 and (checked) < size, and the offset is under the limit. */
function naiveLocs(s: Spec, elemBytes: number): number[] {
  const total = s.levels.reduce((x, l) => x * l.count, 1);
  const out: number[] = [];
  for (let n = 0; n < total; n++) {
    let rest = n;
    let loc = 0;
    let ok = true;
    for (let q = s.levels.length - 1; q >= 0; q--) {
      const l = s.levels[q];
      const j = rest % l.count;
      rest = Math.floor(rest / l.count);
      const idx = l.begin + j * l.step;
      if (idx < 0 || (l.check && idx >= l.size)) ok = false;
      loc += idx * l.stride;
    }
    if (s.limit !== undefined && loc >= Math.floor(s.limit / elemBytes)) ok = false;
    out.push(ok ? loc : -1);
  }
  return out;
}

function randomSpec(r: () => number, maxElems: number): Spec {
  const k = 1 + Math.floor(r() * 4);
  const levels: Spec['levels'] = [];
  let total = 1;
  const sizes = Array.from({ length: k }, () => 1 + Math.floor(r() * 6));
  // row-major strides of the declared sizes, sometimes a level with a gap or a repeated (stride 0) level
  for (let q = 0; q < k; q++) {
    let stride = 1;
    for (let z = q + 1; z < k; z++) stride *= sizes[z];
    if (r() < 0.15) stride += 1;
    if (r() < 0.05) stride = 0;
    const count = Math.max(1, Math.min(1 + Math.floor(r() * 7), Math.floor(maxElems / total)));
    total *= count;
    const begin = Math.floor(r() * 5) - 1;
    const step = r() < 0.8 ? 1 : 2;
    levels.push({ begin, step, count, stride, size: sizes[q], check: r() < 0.85 });
  }
  const span = sizes.reduce((x, y) => x * y, 1);
  return { base: 0, levels, limit: r() < 0.2 ? Math.floor(r() * span * 2) : undefined };
}

describe('run-based enumeration matches the naive model', () => {
  test('Walker.fill and the cursor runs, 400 random descriptors, every start offset', () => {
    const r = rng(12345);
    for (let iter = 0; iter < 400; iter++) {
      const s = randomSpec(r, 300);
      const el = r() < 0.5 ? 1 : 2;
      const want = naiveLocs(s, el);
      const w = new Walker(descOf(s, el), 'test');
      assert.equal(w.total, want.length);
      const got = new Int32Array(want.length);
      w.fill(0, want.length, got);
      assert.deepEqual([...got], want, `fill, case ${iter}: ${JSON.stringify(s)}`);
      // partial fills from every start
      const start = Math.floor(r() * want.length);
      const part = new Int32Array(want.length - start);
      w.fill(start, part.length, part);
      assert.deepEqual([...part], want.slice(start), `fill from ${start}, case ${iter}`);
      // cursor runs expanded
      const c = w.cursor()!;
      const runs: number[] = [];
      while (c.pos < w.total) {
        const n = c.next();
        assert.ok(n >= 1 && c.pos + n <= w.total, `run length ${n} at ${c.pos}`);
        for (let i = 0; i < n; i++) runs.push(c.loc < 0 ? -1 : c.loc + i * c.inc);
        c.skip(n);
      }
      assert.deepEqual(runs, want, `cursor, case ${iter}`);
      // the span is the range of the valid locations
      const valid = want.filter((x) => x >= 0);
      const sp = w.span();
      if (s.limit === undefined && valid.length) assert.deepEqual(sp, { lo: Math.min(...valid), hi: Math.max(...valid), count: valid.length });
    }
  });

  test('byte and INT16 transfers, 300 random pairs, against a per-element reference', () => {
    const r = rng(777);
    for (let iter = 0; iter < 300; iter++) {
      const el = r() < 0.5 ? 1 : 2;
      const dtype = el === 1 ? (r() < 0.5 ? 'UINT8' : 'INT8') : 'INT16';
      const ds = randomSpec(r, 200);
      const ss = randomSpec(r, 200);
      ds.base = 0x800;
      ss.base = 0x4000;
      const repeat = r() < 0.3;
      const pad = Math.floor(r() * 70000) - 35000;
      const m = new Machine({ memBytes: 1 << 16 });
      for (let i = 0; i < 0x8000; i++) m.mem[0x4000 + i] = (i * 13 + 5) & 0xff;
      const ref = m.mem.slice();
      const dl = naiveLocs(ds, el);
      const sl = naiveLocs(ss, el);
      // reference: pairing by ordinal, destination count as length, PAD, REPEAT, skipped writes
      const padRaw = el === 2 ? (pad << 16) >> 16 : dtype === 'INT8' ? (pad << 24) >> 24 : pad & 0xff;
      let padded = 0;
      let skipped = 0;
      for (let n = 0; n < dl.length; n++) {
        const so = repeat ? n % sl.length : n;
        const s = so < sl.length ? sl[so] : -2;
        const bytes: number[] = [];
        if (s < 0) {
          padded++;
          for (let b = 0; b < el; b++) bytes.push((padRaw >> (8 * b)) & 0xff);
        } else for (let b = 0; b < el; b++) bytes.push(ref[ss.base + s * el + b]);
        if (dl[n] < 0) {
          skipped++;
          continue;
        }
        for (let b = 0; b < el; b++) ref[ds.base + dl[n] * el + b] = bytes[b];
      }
      const h = new SpaceHistory('MEM', m.mem);
      const dst: Side = { desc: descOf(ds, el), space: 'MEM', dtype };
      const src: Side = { desc: descOf(ss, el), space: 'MEM', dtype };
      const st = runTransfer({ m, process: 0, history: () => h }, dst, src, pad, repeat);
      assert.equal(st.padded, padded, `padded, case ${iter}`);
      assert.equal(st.skipped, skipped, `skipped, case ${iter}`);
      assert.ok(
        m.mem.every((v, i) => v === ref[i]),
        `memory, case ${iter}: ${JSON.stringify({ ds, ss, repeat, el })}`,
      );
      const wrote = dl.filter((x) => x >= 0);
      if (wrote.length)
        assert.deepEqual(st.written, {
          space: 'MEM',
          lo: ds.base + Math.min(...wrote) * el,
          hi: ds.base + Math.max(...wrote) * el + el - 1,
          count: wrote.length * el,
        });
      else assert.equal(st.written, undefined);
      const readLocs = dl
        .map((_, n) => (repeat ? n % sl.length : n))
        .filter((so) => so < sl.length && sl[so] >= 0)
        .map((so) => sl[so]);
      if (readLocs.length)
        assert.deepEqual(st.read, {
          space: 'MEM',
          lo: ss.base + Math.min(...readLocs) * el,
          hi: ss.base + Math.max(...readLocs) * el + el - 1,
          count: readLocs.length * el,
        });
      // the history restores the state before the transfer
      h.commit(0);
      const before = h.read(0, 0x4000, -1);
      for (let i = 0; i < 0x4000; i++) if (i < 0x800 || i >= 0x800 + 0x3000) assert.equal(before[i], 0);
      assert.ok(
        before.every((v) => v === 0),
        `history before, case ${iter}`,
      );
    }
  });

  test("stepped transfers (the debugger's batches) end exactly as one runTransfer call, 300 random pairs and overlapping copies", () => {
    const r = rng(4242);
    for (let iter = 0; iter < 300; iter++) {
      const el = r() < 0.5 ? 1 : 2;
      const dtype = el === 1 ? 'UINT8' : 'INT16';
      const ds = randomSpec(r, 200);
      const ss =
        iter % 3 === 0
          ? { base: 0, levels: [{ begin: 0, step: 1, count: ds.levels.reduce((x, l) => x * l.count, 1), stride: 1, size: 1 << 14, check: true }] }
          : randomSpec(r, 200);
      ds.base = 0x800;
      // every third case a contiguous source overlapping the destination (in-place moves, both directions)
      ss.base = iter % 3 === 0 ? 0x800 + (Math.floor(r() * 9) - 4) * el : 0x4000;
      const repeat = r() < 0.3;
      const pad = Math.floor(r() * 500);
      const side = (s: typeof ds): Side => ({ desc: descOf(s, el), space: 'MEM', dtype });
      const run = (stepped: boolean) => {
        const m = new Machine({ memBytes: 1 << 16 });
        for (let i = 0; i < 0x8000; i++) m.mem[0x400 + i] = (i * 13 + 5) & 0xff;
        const h = new SpaceHistory('MEM', m.mem);
        const ctx = { m, process: 0 as const, history: () => h };
        if (!stepped) return { mem: m.mem, st: runTransfer(ctx, side(ds), side(ss), pad, repeat) };
        const t = new SteppedTransfer(ctx, side(ds), side(ss), pad, repeat);
        let batches = 0;
        while (!t.finished) {
          const n = batches++ % 2 ? t.nextBatch() : 1 + Math.floor(r() * 40);
          t.run(n);
          assert.ok(t.done <= t.total);
        }
        return { mem: m.mem, st: t.stats };
      };
      const a = run(false);
      const b = run(true);
      assert.deepEqual(b.st, a.st, `stats, case ${iter}: ${JSON.stringify({ ds, ss, repeat, el })}`);
      assert.ok(
        a.mem.every((v, i) => v === b.mem[i]),
        `memory, case ${iter}: ${JSON.stringify({ ds, ss, repeat, el })}`,
      );
    }
  });
});
