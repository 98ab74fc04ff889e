/**
 * Every transfer table of the programmer guide, reproduced element by element from the guide's own
 * statement (seed 003). Rows are [destination component indices..., source indices...].
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, pairs, stmts } from '../helpers/tprog';

const PCORE_P = `
int16 myclass::myvar[64];
_share int16 myclass::shared_var[2];
_kernel_ void myclass::myfunc(int16 var[4]) { var[0] = var[1]; }
`;

function table(statement: string, prelude = ''): { rows: string[]; a: ReturnType<typeof analyze> } {
  const a = analyze(`void f(void) {\n${prelude}\n>${statement}\n}\n`, PCORE_P, 'guide');
  const info = stmts(a).find((s) => s.stmt.kind === 'transfer')!;
  const rows = pairs(info).map((p) => `${p.dst.join(' ')} <= p[${p.src?.join('][') ?? '?'}]${p.srcValid ? '' : ' pad'}${p.dstValid ? '' : ' skip'}`);
  return { rows, a };
}

test('DDR to PCORE private memory (guide table)', () => {
  const { rows, a } = table('PCORE[0:1].THREAD[0:1].myclass::myfunc.var[0:1] <= DDR(p)[0:2*2*2-1];');
  assert.deepEqual(rows, [
    '0 0 0 <= p[0]',
    '0 0 1 <= p[1]',
    '0 1 0 <= p[2]',
    '0 1 1 <= p[3]',
    '1 0 0 <= p[4]',
    '1 0 1 <= p[5]',
    '1 1 0 <= p[6]',
    '1 1 1 <= p[7]',
  ]);
  assert.deepEqual(
    a.diagnostics.filter((d) => d.severity !== 'hint'),
    [],
  );
});

test('DDR to PCORE shared memory (guide table)', () => {
  const { rows } = table('PCORE[0:1].myclass::shared_var[0:1] <= DDR(p)[0:2*2-1];');
  assert.deepEqual(rows, ['0 0 <= p[0]', '0 1 <= p[1]', '1 0 <= p[2]', '1 1 <= p[3]']);
});

test('DDR to SCRATCH, 1-D (guide table)', () => {
  const { rows } = table('SCRATCH(0,100)[0:len-1] <= DDR(p,100)[0:len-1];', 'int len=4;');
  assert.deepEqual(rows, ['0 <= p[0]', '1 <= p[1]', '2 <= p[2]', '3 <= p[3]']);
});

test('DDR to SCRATCH, 2-D (guide table)', () => {
  const { rows } = table('SCRATCH(0,100,200)[0:dy-1][0:dx-1] <= DDR(p,1000,2000)[0:dy-1][0:dx-1];', 'int dx=2;\nint dy=4;');
  assert.deepEqual(rows, [
    '0 0 <= p[0][0]',
    '0 1 <= p[0][1]',
    '1 0 <= p[1][0]',
    '1 1 <= p[1][1]',
    '2 0 <= p[2][0]',
    '2 1 <= p[2][1]',
    '3 0 <= p[3][0]',
    '3 1 <= p[3][1]',
  ]);
});

test('reshape with out-of-bound reads replaced by zero (guide table)', () => {
  const { rows, a } = table('PCORE[0].THREAD[0:2].myclass::myfunc.var[0:3] <= DDR(p,100,2,2)[0][0:2][0:3];');
  assert.deepEqual(rows, [
    '0 0 0 <= p[0][0][0]',
    '0 0 1 <= p[0][0][1]',
    '0 0 2 <= p[0][0][2] pad',
    '0 0 3 <= p[0][0][3] pad',
    '0 1 0 <= p[0][1][0]',
    '0 1 1 <= p[0][1][1]',
    '0 1 2 <= p[0][1][2] pad',
    '0 1 3 <= p[0][1][3] pad',
    '0 2 0 <= p[0][2][0] pad',
    '0 2 1 <= p[0][2][1] pad',
    '0 2 2 <= p[0][2][2] pad',
    '0 2 3 <= p[0][2][3] pad',
  ]);
  const w = a.diagnostics.find((d) => d.code === 'tprog.read-padding');
  assert.ok(w, 'padding warning');
  assert.match(w.message, /8 of 12 source elements/);
});

test('boundary check disabled with + reads every element', () => {
  const { rows } = table('PCORE[0].THREAD[0:2].myclass::myfunc.var[0:3] <= DDR(p,100,2+,2+)[0][0:2][0:3];');
  assert.equal(rows.filter((r) => r.endsWith('pad')).length, 0);
  assert.equal(rows.length, 12);
});

test('FOR reordering: myvar slowest, PCORE fastest (guide table)', () => {
  const { rows } = table('FOR(K=0:3) FOR(I=0:1) PCORE[0:2].THREAD[I].myclass::myvar[K] <= DDR(p)[0:2*3*4-1];');
  const expected: string[] = [];
  let n = 0;
  for (let k = 0; k < 4; k++) for (let i = 0; i < 2; i++) for (let p = 0; p < 3; p++) expected.push(`${k} ${i} ${p} <= p[${n++}]`);
  assert.deepEqual(rows, expected);
});

test('dimension casting keeps the element order', () => {
  const plain = table('PCORE(8)[:].THREAD[0:15].myclass::myvar[0:15] <= DDR(p)[0:8*16*16-1];');
  const cast = table('PCORE(8)[:].THREAD(4,4)[0:3][0:3].myclass::myvar(4,4)[0:3][0:3] <= DDR(p)[0:8*16*16-1];');
  assert.equal(plain.rows.length, 2048);
  assert.equal(cast.rows.length, 2048);
  // element n: pcore n>>8, thread (n>>4)&15 = t0*4+t1, word n&15 = w0*4+w1
  const info = stmts(cast.a).find((s) => s.stmt.kind === 'transfer')!;
  const ps = pairs(info);
  for (const n of [0, 1, 17, 255, 256, 1000, 2047]) {
    const [pc, t0, t1, w0, w1] = ps[n].dst;
    assert.deepEqual([pc, t0 * 4 + t1, w0 * 4 + w1], [n >> 8, (n >> 4) & 15, n & 15], `element ${n}`);
    assert.deepEqual(ps[n].src, [n]);
  }
});

test('overlapped dimension N(R,C): accesses beyond N are padding', () => {
  // DDR(p,1000(100,200)) read as 100x200 but limited to 1000 elements (INT16: 2000 bytes in the compiler's unit)
  const { rows } = table('SCRATCH(0,10,200)[0:9][0:199] <= DDR(p,2000(100,200))[0:9][0:199];');
  assert.equal(rows.length, 2000);
  assert.equal(rows.filter((r) => r.endsWith('pad')).length, 1000);
  assert.equal(rows[999].endsWith('pad'), false);
  assert.equal(rows[1000].endsWith('pad'), true);
});

test('PAD value is reported and used for out-of-bound reads', () => {
  const { a } = table('PCORE[0].THREAD[0:2].myclass::myfunc.var[0:3] <= PAD(0xff) DDR(p,100,2,2)[0][0:2][0:3];');
  const info = stmts(a).find((s) => s.stmt.kind === 'transfer')!;
  assert.equal(info.src!.desc.pad, 255);
  assert.match(a.diagnostics.find((d) => d.code === 'tprog.read-padding')!.message, /padding \(255\)/);
});

test('SCATTER(0) and PROC(n) are read as CONCURRENT and REMAP', () => {
  const { rows, a } = table('SCATTER(0) FOR(I=0:7) PCORE(8)[0:7].THREAD[0:15].myclass::myvar(8,8)[:][I] <= DDR(p)[0:8*16*8*8-1];');
  assert.equal(rows.length, 8192);
  // I outermost: element n = I*1024 + pcore*128 + thread*8 + row
  assert.equal(rows[1], '0 0 0 1 <= p[1]');
  assert.equal(rows[1024], '1 0 0 0 <= p[1024]');
  assert.ok(a.diagnostics.some((d) => d.code === 'tprog.guide-scatter' && d.severity === 'hint'));
});
