/**
 * The programmer guide's transfer tables executed on the simulator: each guide statement runs on a
 * machine whose DDR buffer p holds p[n] = n % 1500 + 1 (INT16), and every destination element is
 * checked against the table's source element (or zero padding), read back from PCORE or SCRATCH.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import { readI16, runStatic, writeI16 } from '../helpers/sim';

const P = `
int16 myclass::myvar[64];
_share int16 myclass::shared_var[2];
_kernel_ void myclass::myfunc(int16 var[4]) { var[0] = var[1]; }
`;
const BASE = 0x1000;
const val = (n: number) => (n % 1500) + 1;

function run(statement: string, prelude = '') {
  const a = analyze(`void f(void) {\n${prelude}\n>${statement}\n}\n`, P, 'guide');
  const r = runStatic(a, { p: BASE }, { prepare: (m) => writeI16(m, BASE, [...Array(9000).keys()].map(val)) });
  const off = (name: string) => {
    const x = a.pcore!.lookupMember(name);
    assert.ok(x.ok);
    return x.member.offset!;
  };
  return { ...r, off };
}

test('DDR → PCORE private (guide table)', () => {
  const { m, off } = run('PCORE[0:1].THREAD[0:1].myclass::myfunc.var[0:1] <= DDR(p)[0:2*2*2-1];');
  const o = off('myclass::myfunc.var');
  let n = 0;
  for (let pc = 0; pc < 2; pc++) for (let t = 0; t < 2; t++) for (let v = 0; v < 2; v++) assert.equal(m.pages[0].priv[pc * 4096 + t * 256 + o + v], val(n++));
});

test('DDR → PCORE shared (guide table)', () => {
  const { m, off } = run('PCORE[0:1].myclass::shared_var[0:1] <= DDR(p)[0:2*2-1];');
  const o = off('myclass::shared_var');
  assert.deepEqual(
    [m.pages[0].shared[o], m.pages[0].shared[o + 1], m.pages[0].shared[4096 + o], m.pages[0].shared[4096 + o + 1]],
    [val(0), val(1), val(2), val(3)],
  );
});

test('DDR → SCRATCH 1-D and 2-D (guide tables)', () => {
  const one = run('SCRATCH(0,100)[0:len-1] <= DDR(p,100)[0:len-1];', 'int len=4;');
  assert.deepEqual(readI16(one.m.scratch, 0, 4), [val(0), val(1), val(2), val(3)]);
  const two = run('SCRATCH(0,100,200)[0:dy-1][0:dx-1] <= DDR(p,1000,2000)[0:dy-1][0:dx-1];', 'int dx=2;\nint dy=4;');
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 2; j++) assert.equal(readI16(two.m.scratch, 2 * (i * 200 + j), 1)[0], val(i * 2000 + j), `SCRATCH[${i}][${j}]`);
});

test('reshape: out-of-bound reads are zero (guide table)', () => {
  const { m, off } = run('PCORE[0].THREAD[0:2].myclass::myfunc.var[0:3] <= DDR(p,100,2,2)[0][0:2][0:3];');
  const o = off('myclass::myfunc.var');
  for (let t = 0; t < 3; t++)
    for (let v = 0; v < 4; v++) {
      const inside = t < 2 && v < 2;
      assert.equal(m.pages[0].priv[t * 256 + o + v], inside ? val(t * 2 + v) : 0, `THREAD ${t} var ${v}`);
    }
});

test('boundary check disabled with +: the same elements read as if valid', () => {
  const { m, off } = run('PCORE[0].THREAD[0:2].myclass::myfunc.var[0:3] <= DDR(p,100,2+,2+)[0][0:2][0:3];');
  const o = off('myclass::myfunc.var');
  for (let t = 0; t < 3; t++) for (let v = 0; v < 4; v++) assert.equal(m.pages[0].priv[t * 256 + o + v], val(t * 2 + v), `THREAD ${t} var ${v}`);
});

test('PAD(0xff) replaces the out-of-bound reads (guide example)', () => {
  const { m, off } = run('PCORE[0].THREAD[0:2].myclass::myfunc.var[0:3] <= PAD(0xff) DDR(p,100,2,2)[0][0:2][0:3];');
  const o = off('myclass::myfunc.var');
  assert.equal(m.pages[0].priv[o + 2], 0xff);
  assert.equal(m.pages[0].priv[2 * 256 + o], 0xff);
  assert.equal(m.pages[0].priv[o + 1], val(1));
});

test('FOR reordering (guide table): myvar[K] THREAD[I] PCORE, PCORE fastest', () => {
  const { m, off } = run('FOR(K=0:3) FOR(I=0:1) PCORE[0:2].THREAD[I].myclass::myvar[K] <= DDR(p)[0:2*3*4-1];');
  const o = off('myclass::myvar');
  let n = 0;
  for (let k = 0; k < 4; k++) for (let i = 0; i < 2; i++) for (let pc = 0; pc < 3; pc++) assert.equal(m.pages[0].priv[pc * 4096 + i * 256 + o + k], val(n++));
});

test('dimension casting gives the same words as the plain transfer', () => {
  const plain = run('PCORE(8)[:].THREAD[0:15].myclass::myvar[0:15] <= DDR(p)[0:8*16*16-1];');
  const cast = run('PCORE(8)[:].THREAD(4,4)[0:3][0:3].myclass::myvar(4,4)[0:3][0:3] <= DDR(p)[0:8*16*16-1];');
  assert.deepEqual([...cast.m.pages[0].priv], [...plain.m.pages[0].priv]);
  const o = plain.off('myclass::myvar');
  assert.equal(plain.m.pages[0].priv[7 * 4096 + 15 * 256 + o + 15], val(2047));
});

test('overlapped dimension N(R,C): elements beyond N bytes read zero', () => {
  const { m } = run('SCRATCH(0,4,200)[0:3][0:199] <= DDR(p,1000(100,200))[0:3][0:199];');
  const got = readI16(m.scratch, 0, 800);
  // INT16: the 1000-byte limit holds 500 elements
  for (const n of [0, 199, 200, 499]) assert.equal(got[n], val(n), `element ${n}`);
  for (const n of [500, 650, 799]) assert.equal(got[n], 0, `element ${n}`);
});

test('scatter transfer by vector word: SCATTER(0) gives the same result as without it', () => {
  const a = run('SCATTER(0) FOR(I=0:7) PCORE(8)[0:7].THREAD[0:15].myclass::myvar(8,8)[:][I] <= DDR(p)[0:8*16*8*8-1];');
  const b = run('FOR(I=0:7) PCORE(8)[0:7].THREAD[0:15].myclass::myvar(8,8)[:][I] <= DDR(p)[0:8*16*8*8-1];');
  assert.deepEqual([...a.m.pages[0].priv], [...b.m.pages[0].priv]);
  const o = a.off('myclass::myvar');
  // element n = I*1024 + pcore*128 + thread*8 + row lands at myvar[row][I]
  const n = 3 * 1024 + 5 * 128 + 7 * 8 + 2;
  assert.equal(a.m.pages[0].priv[5 * 4096 + 7 * 256 + o + 2 * 8 + 3], val(n));
});
