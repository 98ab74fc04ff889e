/** The tensor engine's transfers on the simulated machine, checked element by element against hand-computed results. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import { readI16, runStatic, writeI16 } from '../helpers/sim';

const P = `
vint16 t::a[4];
int16 t::s[16];
_share vint16 t::sh[4];
_kernel_ void t::k(int16 var[4]) { }
`;
const prog = (body: string) => `void f(void) {\n${body}\n}\n`;
const P0 = 0x1000;

test('guide reshape: PCORE words receive p[...] or zero padding', () => {
  const a = analyze(prog('>PCORE[0].THREAD[0:2].t::k.var[0:3] <= DDR(p,100,2,2)[0][0:2][0:3];'), P, 'guide');
  const { m, steps } = runStatic(a, { p: P0 }, { prepare: (mm) => writeI16(mm, P0, [11, 12, 13, 14, 15, 16]) });
  const off = a.pcore!.lookupMember('t::k.var');
  assert.ok(off.ok);
  const base = off.member.offset!;
  const words = (t: number) => [...m.pages[0].priv.subarray(t * 256 + base, t * 256 + base + 4)];
  // p[0][0][0..1] = 11,12; p[0][1][0..1] = 13,14; the rest out of bound -> 0
  assert.deepEqual(words(0), [11, 12, 0, 0]);
  assert.deepEqual(words(1), [13, 14, 0, 0]);
  assert.deepEqual(words(2), [0, 0, 0, 0]);
  assert.equal(steps[0].padded, 8);
  assert.equal(steps[0].elements, 12);
});

test('FOR reordering on the machine matches the guide table', () => {
  const a = analyze(prog('>FOR(K=0:3) FOR(I=0:1) PCORE[0:2].THREAD[I].t::s[K] <= DDR(p)[0:2*3*4-1];'), P, 'guide');
  const { m } = runStatic(
    a,
    { p: P0 },
    {
      prepare: (mm) =>
        writeI16(
          mm,
          P0,
          [...Array(24).keys()].map((i) => 100 + i),
        ),
    },
  );
  const r = a.pcore!.lookupMember('t::s');
  assert.ok(r.ok);
  let n = 0;
  for (let k = 0; k < 4; k++)
    for (let i = 0; i < 2; i++) for (let p = 0; p < 3; p++) assert.equal(m.pages[0].priv[p * 4096 + i * 256 + r.member.offset! + k], 100 + n++);
});

test('INT16 → 12-bit keeps the sign bit and the low 11 bits; back to MEM sign-extends', () => {
  const a = analyze(
    prog('> DTYPE(INT16)PCORE(8)[0][0].t::a[0][:] <= DTYPE(INT16)MEM(p)[0:7];\n> DTYPE(INT16)MEM(q)[0:7] <= DTYPE(INT16)PCORE(8)[0][0].t::a[0][:];'),
    P,
    'ztachip',
  );
  const vals = [0, 1, -1, 2047, 2048, -2048, -2049, 0x7fff];
  const { m } = runStatic(a, { p: P0, q: 0x2000 }, { prepare: (mm) => writeI16(mm, P0, vals) });
  // 2048 = 0x0800: sign 0, low 11 bits 0 -> 0; -2049 = 0xF7FF: sign 1, low 11 bits 0x7FF -> -1; 0x7fff -> 2047
  assert.deepEqual(readI16(m.mem, 0x2000, 8), [0, 1, -1, 2047, 0, -2048, -1, 2047]);
});

test('UINT8 zero-extends, INT8 sign-extends, PCORE → 8-bit keeps the low byte', () => {
  const a = analyze(
    prog(
      '> DTYPE(UINT8)PCORE(8)[0][0].t::a[0][:] <= DTYPE(UINT8)MEM(p)[0:7];\n' +
        '> DTYPE(INT8)PCORE(8)[0][1].t::a[0][:] <= DTYPE(INT8)MEM(p)[0:7];\n' +
        '> DTYPE(UINT8)MEM(q)[0:7] <= DTYPE(UINT8)PCORE(8)[0][1].t::a[0][:];',
    ),
    P,
    'ztachip',
  );
  const bytes = [0, 1, 127, 128, 200, 255, 3, 4];
  const { m } = runStatic(a, { p: P0, q: 0x2000 }, { prepare: (mm) => mm.mem.set(bytes, P0) });
  const off = (a.pcore!.lookupMember('t::a') as { ok: true; member: { offset: number } }).member.offset;
  assert.deepEqual([...m.pages[0].priv.subarray(off, off + 8)], [0, 1, 127, 128, 200, 255, 3, 4]);
  assert.deepEqual([...m.pages[0].priv.subarray(256 + off, 256 + off + 8)], [0, 1, 127, -128, -56, -1, 3, 4]);
  assert.deepEqual([...m.mem.subarray(0x2000, 0x2008)], bytes);
});

test('[*] broadcast writes every PCORE; a constant source fills', () => {
  const a = analyze(prog('> DTYPE(INT16)PCORE(8)[*].t::sh[1][:] <= INT16(5);'), P, 'ztachip');
  const { m, steps } = runStatic(a, {});
  const off = (a.pcore!.lookupMember('t::sh') as { ok: true; member: { offset: number } }).member.offset;
  for (let p = 0; p < 8; p++)
    assert.deepEqual([...m.pages[0].shared.subarray(p * 4096 + off + 8, p * 4096 + off + 16)], [5, 5, 5, 5, 5, 5, 5, 5], `pcore ${p}`);
  assert.equal(steps[0].elements, 8);
});

test('source exhausted reads PAD; out-of-bound writes are skipped', () => {
  const a = analyze(prog('> DTYPE(INT16)MEM(q,2,4)[0:1][2:5] <= PAD(9) DTYPE(INT16)MEM(p)[0:5];'), P, 'ztachip');
  const { m, steps } = runStatic(a, { p: P0, q: 0x2000 }, { prepare: (mm) => writeI16(mm, P0, [1, 2, 3, 4, 5, 6]) });
  // dst elements (r,c): (0,2)(0,3)(0,4x)(0,5x)(1,2)(1,3)(1,4x)(1,5x); src ordinals 0..5 then PAD 9
  assert.deepEqual(readI16(m.mem, 0x2000, 8), [0, 0, 1, 2, 0, 0, 5, 6]);
  assert.equal(steps[0].skipped, 4);
  assert.equal(steps[0].padded, 2);
});

test('REPEAT restarts the source', () => {
  const a = analyze(prog('> DTYPE(INT16)MEM(q)[0:5] <= REPEAT DTYPE(INT16)MEM(p)[0:1];'), P, 'ztachip');
  const { m } = runStatic(a, { p: P0, q: 0x2000 }, { prepare: (mm) => writeI16(mm, P0, [7, 8]) });
  assert.deepEqual(readI16(m.mem, 0x2000, 6), [7, 8, 7, 8, 7, 8]);
});

test('buffer limit N(R,C) in bytes pads beyond N; + disables a dimension bound', () => {
  const a = analyze(
    prog('> DTYPE(INT16)MEM(q)[0:5] <= DTYPE(INT16)MEM(p,8(2,3))[0:1][0:2];\n> DTYPE(INT16)MEM(r)[0:3] <= DTYPE(INT16)MEM(p,2,2+)[0:1][1:2];'),
    P,
    'ztachip',
  );
  const { m } = runStatic(a, { p: P0, q: 0x2000, r: 0x3000 }, { prepare: (mm) => writeI16(mm, P0, [1, 2, 3, 4, 5, 6]) });
  assert.deepEqual(readI16(m.mem, 0x2000, 6), [1, 2, 3, 4, 0, 0]);
  // rows of 2, column index 1..2 unbounded: p[0][1]=2, p[0][2]=3, p[1][1]=4, p[1][2]=5
  assert.deepEqual(readI16(m.mem, 0x3000, 4), [2, 3, 4, 5]);
});

test('contiguous MEM copy takes the raw fast path and records its ranges', () => {
  const a = analyze(prog('> DTYPE(UINT8)MEM(q)[0:4095] <= DTYPE(UINT8)MEM(p)[0:4095];'), P, 'ztachip');
  const src = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7) & 255);
  const { m, steps } = runStatic(a, { p: P0, q: 0x8000 }, { prepare: (mm) => mm.mem.set(src, P0) });
  assert.deepEqual(m.mem.subarray(0x8000, 0x9000), src);
  assert.deepEqual(steps[0].written, { space: 'MEM', lo: 0x8000, hi: 0x8fff, count: 4096 });
  assert.deepEqual(steps[0].changed.MEM, [8]);
});

test('history gives the memory after any step', () => {
  const a = analyze(
    prog('> DTYPE(INT16)MEM(q)[0:1] <= INT16(1);\n> DTYPE(INT16)MEM(q)[0:1] <= INT16(2);\n> DTYPE(INT16)MEM(q)[1:1] <= INT16(3);'),
    P,
    'ztachip',
  );
  const { histories } = runStatic(a, { q: 0x2000 });
  const h = histories.get('MEM')!;
  const at = (step: number) => readI16(h.read(0x2000, 4, step) as Uint8Array, 0, 2);
  assert.deepEqual(at(-1), [0, 0]);
  assert.deepEqual(at(0), [1, 1]);
  assert.deepEqual(at(1), [2, 2]);
  assert.deepEqual(at(2), [2, 3]);
});

test('tensor variables with a [$] placeholder substitute the index at each use', () => {
  const a = analyze(
    prog('> $src := DTYPE(INT16)MEM(p,4,3)[$][:];\n> DTYPE(INT16)MEM(q)[0:2] <= $src[2];\n> DTYPE(INT16)MEM(r)[0:2] <= $src[0];'),
    P,
    'ztachip',
  );
  const { m } = runStatic(a, { p: P0, q: 0x2000, r: 0x3000 }, { prepare: (mm) => writeI16(mm, P0, [...Array(12).keys()]) });
  assert.deepEqual(readI16(m.mem, 0x2000, 3), [6, 7, 8]);
  assert.deepEqual(readI16(m.mem, 0x3000, 3), [0, 1, 2]);
});

test('CONCURRENT gives the same result and clobbers SCRATCH from address 0', () => {
  const a = analyze(prog('> CONCURRENT DTYPE(INT16)PCORE(8)[0:1][0].t::a[0][:] <= DTYPE(INT16)MEM(p)[0:15];'), P, 'ztachip');
  const { m } = runStatic(
    a,
    { p: P0 },
    {
      prepare: (mm) => {
        writeI16(
          mm,
          P0,
          [...Array(16).keys()].map((i) => i + 1),
        );
        mm.scratch.fill(0xee);
      },
    },
  );
  const off = (a.pcore!.lookupMember('t::a') as { ok: true; member: { offset: number } }).member.offset;
  assert.deepEqual([...m.pages[0].priv.subarray(off, off + 8)], [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual([...m.pages[0].priv.subarray(4096 + off, 4096 + off + 8)], [9, 10, 11, 12, 13, 14, 15, 16]);
  assert.deepEqual(
    readI16(m.scratch, 0, 16),
    [...Array(16).keys()].map((i) => i + 1),
  );
  assert.equal(m.scratch[32], 0xee);
});

test('REMAP passes PCORE-side values through the SPU table', () => {
  // table 1: value = 100 + k, slope = 32 (so +1 per unit of r within a 32-wide segment)
  const spu = [...Array(512).keys()].map(() => 0);
  for (let k = 0; k < 128; k++) {
    spu[256 + 2 * k] = 32;
    spu[256 + 2 * k + 1] = 100 + k;
  }
  const a = analyze(
    prog('> SPU <= DTYPE(INT16)MEM(lut,512)[:];\n> REMAP(1) DTYPE(INT16)PCORE(8)[0][0].t::a[0][0:3] <= DTYPE(INT16)MEM(p)[0:3];'),
    P,
    'ztachip',
  );
  const { m } = runStatic(
    a,
    { p: P0, lut: 0x4000 },
    {
      prepare: (mm) => {
        writeI16(mm, 0x4000, spu);
        writeI16(mm, P0, [0, 5, 33, 64]);
      },
    },
  );
  const off = (a.pcore!.lookupMember('t::a') as { ok: true; member: { offset: number } }).member.offset;
  // x=0: k0 r0 -> 100; x=5: 100 + (32*5+16)>>5 = 105; x=33: k1 r1 -> 101+1 = 102; x=64: k2 -> 102
  assert.deepEqual([...m.pages[0].priv.subarray(off, off + 4)], [100, 105, 102, 102]);
});
