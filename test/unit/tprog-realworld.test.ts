/**
 * The real-world bar: statements in the style of ztachip's kernels (the constructs listed in the
 * research notes §9.4, written for this project) are accepted with no error and no false warning.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, stmts } from '../helpers/tprog';
import { enumerate } from '../../core/tprog/descriptor';

const P = `
#define BLK_W 4
#define BLK_H 6
_share vint16 blur::win[8][6];
vint16 dot::w[4];
_share vint16 tone::out[2][4][4];
_share vint16 mix::buf[16][4];
_share int16 filter::w[16][4];
_share int16 filter::x[16][4];
vint16 pool::acc[4];
_kernel_ void pool::prep(int win) { }
_kernel_ void pool::run(_global int phase, _global int idx) { }
_kernel_ void scale::run(vint16 a) { }
_kernel_ void blur::row5() { }
`;

const M = [
  '',
  '#include <stdint.h>',
  '#define BLK_W 4',
  '#define BLK_H 6',
  '#define GRID_R 2',
  '#define GRID_C 4',
  '#define OUT_WORDS 64',
  '#define BUF_WORDS 64',
  '#define NB 4',
  '#define CHUNK 4',
  'typedef struct { int window; int ncore; uint32_t w; int rows; uint32_t src[2]; int n; int mode; } Cfg;',
  'static uint32_t kernels[4];',
  'void k(Cfg cfg, uint32_t img, int imgBytes, int planes, int img_w, int z0, int x0, int n, uint32_t dst, int out_w, int out_h,',
  '       int r0, int nr, int c0, int nc, int row0, int nrows, int col0, int ncols, int img_h, uint32_t src, int ngrp, int grpsz, int nrow,',
  '       int nthr, int wfmt, int row, int ncols2, int ncore, uint32_t const_tbl, int nconst, uint32_t code, int code_words, uint32_t lut, int nlut,',
  '       int dt, int k2, int chunk, uint32_t wts, int nout, int ntap, int t0, int taps, int xfmt, int nch, int h, int w, int y0, ' +
    'int ny, int nx, int c, int o, uint32_t kw) {',
  '   int kk = $blur::row5;',
  '   >CONCURRENT DTYPE(UINT8) FOR(Z=0:VECTOR_WIDTH-1) FOR(Y=0:BLK_H+1) FOR(P=0:NUM_PCORE-1) FOR(X=1:BLK_W) ' +
    'PCORE(NUM_PCORE)[P].blur::win(BLK_H+2,BLK_W+2,VECTOR_WIDTH)[Y][X][Z] <=',
  '   >DTYPE(UINT8)MEM(img,imgBytes(planes,BLK_H+,img_w))[z0:z0+VECTOR_WIDTH-1][0:BLK_H+1][x0:x0+NUM_PCORE*BLK_W-1];',
  '   >DTYPE(UINT8)PCORE(NUM_PCORE)[0:n-2].blur::win(BLK_H+2,BLK_W+2,VECTOR_WIDTH)[:][BLK_W+1:BLK_W+1][:] <=',
  '   >DTYPE(UINT8)LATEST PCORE(NUM_PCORE)[1:n-1].blur::win(BLK_H+2,BLK_W+2,VECTOR_WIDTH)[:][1:1][:];',
  '   >DTYPE(INT8)PCORE(NUM_PCORE)[*].blur::win(BLK_H+2,BLK_W+2,VECTOR_WIDTH)[BLK_H+1][:][:] <= INT8(0);',
  '   > DTYPE(UINT8)MEM(dst,(out_w*out_h)(out_h,out_w))[r0:r0+nr-1][c0:c0+nc-1] <= REMAP(1) DTYPE(UINT8) CONCURRENT ' +
    'FOR(R=0:GRID_R-1) FOR(V=0:VECTOR_WIDTH-1) FOR(C=0:GRID_C-1) PCORE(GRID_R,GRID_C)[R][C].tone::out(2,OUT_WORDS/16,4,8)[1][:][:][V];',
  '   > DTYPE(UINT8)PCORE(GRID_R,GRID_C)[:][:].mix::buf(4,BUF_WORDS/(4*NB),NB,8)[0][:][:][:] <= DTYPE(UINT8) ' +
    'FOR(Y=row0:row0+nrows-1) FOR(K=0:3) MEM(src,4,img_h,img_w)[K][Y][col0:col0+ncols-1];',
  '   > DTYPE(INT16)PCORE(ncore)[*][:].pool::prep.win <= INT16(cfg.window);',
  '   > pool::run.phase <= INT16(1);',
  '   > EXE_LOCKSTEP(kw);',
  '   > EXE_LOCKSTEP(kernels[cfg.mode],ncore);',
  '   >DTYPE(INT16) CONCURRENT FOR(G=0:ngrp-1) FOR(V=0:VECTOR_WIDTH-1) FOR(R=0:nrow-1) ' +
    'PCORE(ngrp,grpsz)[G][:].THREAD(4,4)[:][:].pool::acc[R][V] <= DTYPE(INT16)MEM(dst)[0:n-1];',
  '   > FOR(P=0:cfg.ncore-1) FOR(T=0:nthr-1) FOR(R=0:CHUNK-1) FOR(V=0:VECTOR_WIDTH-1)',
  '   > REMAP(1) DTYPE(wfmt)PCORE[P][T].dot::w[R][V] <= DTYPE(wfmt)MEM(cfg.w,cfg.rows,ncols)[row][c0:c0+n-1];',
  '   > DTYPE(INT16) PCORE[*].root.constant[0:nconst-1] <= DTYPE(INT16)MEM((uint32_t)const_tbl)[0:nconst-1];',
  '   > PROG((code_words/2)) <= DTYPE(INT16)MEM((uint32_t)code,(code_words/2)*4)[:];',
  '   > SPU <= DTYPE(INT16)MEM(lut,nlut*SPU_LOOKUP_SIZE)[:];',
  '   > REMAP(3) DTYPE(dt)PCORE(ncore)[:].THREAD[:].scale::run.a <= DTYPE(dt)MEM(cfg.src[1],cfg.n(cfg.n))[k2:k2+chunk-1];',
  '   > $w_pc := REMAP(1) DTYPE(wfmt)PCORE(ngrp,grpsz)[:][*].filter::w[0:taps-1][:];',
  '   > $w_mem := DTYPE(wfmt)MEM(wts,nout,ntap)[$][t0:t0+taps-1];',
  '   > $x_pc := DTYPE(xfmt)PCORE(ngrp,grpsz)[:][*].filter::x[:][:];',
  '   > $x_mem := PAD(-cfg.n) DTYPE(xfmt)MEM(src,nch,h,w)[$][y0:y0+ny-1][x0:x0+nx-1];',
  '   > $x_pc <= $x_mem[c];',
  '   > $w_pc <= $w_mem[o];',
  '   >BARRIER; EXE_LOCKSTEP(blur::row5,8);',
  '   > CALLBACK(0,n);',
  '}',
  '',
].join('\n');

test('real-kernel constructs: no error and no warning', () => {
  const a = analyze(M, P, 'ztachip');
  const noisy = a.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
  assert.deepEqual(
    noisy.map((d) => `${d.range.start.line + 1}: ${d.code} ${d.message}`),
    [],
  );
  const kinds = stmts(a).map((s) => s.stmt.kind);
  assert.equal(kinds.filter((k) => k === 'transfer').length, 15);
  assert.equal(kinds.filter((k) => k === 'vardef').length, 4);
  assert.equal(kinds.filter((k) => k === 'exe').length, 3);
  assert.ok(kinds.includes('barrier') && kinds.includes('callback'));
});

test('multi-line statements map back to every physical line', () => {
  const a = analyze(M, P, 'ztachip');
  const multi = a.units.filter((u) => u.buf.lastLine > u.buf.firstLine);
  assert.equal(multi.length, 3);
  assert.equal(multi[0].buf.segments.length, 2);
});

test('a FOR prefix line on its own is joined with the next `>` line', () => {
  const a = analyze(M, P, 'ztachip');
  const u = a.units.find((x) => x.buf.text.startsWith('FOR(P=0:cfg.ncore-1)'))!;
  const info = u.stmts[0];
  assert.deepEqual(
    info.dst!.desc.levels.map((l) => l.forName),
    ['P', 'T', 'R', 'V'],
  );
});

test('the test-kernel transfer resolves to 8 x 16 x 8 words and its address mapping (research §6.10)', () => {
  const a = analyze(
    '#define BUFSZ 2048\n' +
      'void f(int pid,int from,int to,unsigned in_p){\n' +
      '> DTYPE(INT16)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_A[0:7] <= DTYPE(INT16)MEM(in_p)[from:to];\n' +
      '}\n',
    'vint16 test::_A;\nvint16 test::_Z;\n_kernel_ void test::add(){ _VMASK=-1; _Z=_A+1; }\n',
    'ztachip',
  );
  const d = stmts(a)[0].dst!.desc;
  assert.equal(d.total, 1024);
  assert.deepEqual(
    d.levels.map((l) => [l.label, l.count, l.stride]),
    [
      ['PCORE', 8, 4096],
      ['THREAD', 16, 256],
      ['_A', 8, 1],
    ],
  );
  assert.equal(d.base, 0);
  // element n -> PCORE n>>7, thread (n>>3)&15, word n&7
  const els = enumerate(d, 1024);
  for (const n of [0, 7, 8, 127, 128, 1023]) assert.equal(els[n].loc, (n >> 7) * 4096 + ((n >> 3) & 15) * 256 + (n & 7));
  assert.deepEqual(
    a.diagnostics.filter((x) => x.severity === 'error'),
    [],
  );
});
