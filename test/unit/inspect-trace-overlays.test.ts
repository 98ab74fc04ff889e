/** Overlays from a run's trace and globals, and the editor term → bytes mapping (core/inspect/traceOverlays). */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  cTypeShape,
  overlayCovers,
  overlayTouches,
  pcoreBlock,
  rangeAtPoint,
  runBytes,
  resolveName,
  sideAt,
  splitTransfer,
  termDtype,
  termName,
  traceOverlays,
} from '../../core/inspect/traceOverlays';
import { coordOf } from '../../core/inspect/host';
import type { TraceStep } from '../../core/protocol/trace';

const FILE = '/w/examples/test/test.m';
const LOAD = 'DTYPE(INT16)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_A[0:7] <= DTYPE(INT16)MEM(req->input)[from:to]';
const STORE = 'DTYPE(INT16)MEM(req->output)[from:to] <= DTYPE(INT16)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_Z[0:7]';
const step = (s: Partial<TraceStep> & Pick<TraceStep, 'step' | 'line' | 'text'>): TraceStep => ({
  kind: 'transfer',
  file: FILE,
  column: 6,
  endLine: s.line,
  process: 0,
  elements: 1024,
  padded: 0,
  skipped: 0,
  changed: {},
  ...s,
});

/** The trace test.m's run gives (as `tensor-lens run --json` prints it), for process 0 and 1. */
const TRACE: TraceStep[] = [
  step({ step: 0, line: 19, text: LOAD, read: { space: 'MEM', lo: 4096, hi: 6143, count: 2048 }, written: { space: 'PCORE0', lo: 0, hi: 32519, count: 1024 } }),
  step({ step: 1, line: 20, kind: 'exe', text: 'EXE_LOCKSTEP(test::add,NUM_PCORE)', elements: 128 }),
  step({
    step: 2,
    line: 19,
    process: 1,
    text: LOAD,
    read: { space: 'MEM', lo: 6144, hi: 8191, count: 2048 },
    written: { space: 'PCORE1', lo: 0, hi: 32519, count: 1024 },
  }),
  step({
    step: 3,
    line: 22,
    text: STORE,
    read: { space: 'PCORE0', lo: 8, hi: 32527, count: 1024 },
    written: { space: 'MEM', lo: 8192, hi: 10239, count: 2048 },
  }),
  step({
    step: 4,
    line: 22,
    process: 1,
    text: STORE,
    read: { space: 'PCORE1', lo: 8, hi: 32527, count: 1024 },
    written: { space: 'MEM', lo: 10240, hi: 12287, count: 2048 },
  }),
];
const GLOBALS = [
  { name: 'inbuf', address: 4096, size: 4096, type: 'int16_t [2048]', file: FILE, line: 6 },
  { name: 'outbuf', address: 8192, size: 4096, type: 'int16_t [2048]', file: FILE, line: 7 },
];

test('splitTransfer finds the top-level <= and both terms', () => {
  const s = splitTransfer('>A[0:3] <= B[x<=y?1:0];')!;
  assert.equal(s.dst, 'A[0:3]');
  assert.equal(s.src, 'B[x<=y?1:0]');
  assert.equal(s.arrow, 8);
  assert.equal(splitTransfer('EXE_LOCKSTEP(test::add,8)'), undefined);
});

test('termName drops DTYPE, casts, FOR and CONCURRENT prefixes; termDtype reads the type', () => {
  assert.equal(termName('DTYPE(INT16)MEM(req->input)[from:to]'), 'MEM(req->input)[from:to]');
  assert.equal(termName('CONCURRENT DTYPE(UINT8) FOR(Z=0:VECTOR_WIDTH-1) FOR(Y=0:BLK_H+1) PCORE(8)[P].b::w[Y]'), 'PCORE(8)[P].b::w[Y]');
  assert.equal(termName('(short)MEM  inbuf[0:1023]'), 'MEM inbuf[0:1023]');
  assert.equal(termName('$A'), '$A');
  assert.equal(termDtype('DTYPE(UINT8)MEM(x)[0:3]'), 'UINT8');
  assert.equal(termDtype('(char)MEM x[0:3]'), 'INT8');
  assert.equal(termDtype('MEM x[0:3]'), 'INT16');
});

test('cTypeShape: C arrays and scalars', () => {
  assert.deepEqual(cTypeShape('int16_t [2048]'), { type: 'i16', shape: [2048] });
  assert.deepEqual(cTypeShape('float [4][4]'), { type: 'f32', shape: [4, 4] });
  assert.deepEqual(cTypeShape('unsigned char'), { type: 'u8', shape: [1] });
  assert.equal(cTypeShape('Request'), undefined);
});

test('traceOverlays: each term range of test.m named by its text, dense ranges as vectors, globals typed', () => {
  const ov = traceOverlays(TRACE, GLOBALS);
  const names = ov.map((o) => `${o.name}@${o.space}:${o.offset}+${o.length}`);
  assert.deepEqual(names, [
    'PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_A[0:7]@PCORE0:0+65040',
    'MEM(req->input)[from:to]@MEM:4096+2048',
    'PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_A[0:7]@PCORE1:0+65040',
    'MEM(req->input)[from:to]@MEM:6144+2048',
    'MEM(req->output)[from:to]@MEM:8192+2048',
    'PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_Z[0:7]@PCORE0:16+65040',
    'MEM(req->output)[from:to]@MEM:10240+2048',
    'PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_Z[0:7]@PCORE1:16+65040',
    'inbuf@MEM:4096+4096',
    'outbuf@MEM:8192+4096',
  ]);
  const input = ov[1];
  assert.equal(input.type, 'i16');
  assert.deepEqual(input.shape, [1024], '2048 bytes of INT16 = 1024 elements');
  assert.match(input.detail!, /read by step 0 \(test\.m:19\), 1024 elements/);
  assert.deepEqual(input.decl, { file: FILE, line: 19, column: 6 });
  // the PCORE range is sparse (1024 of 32520 words): the block of 8 pcores × 16 threads × 8 words of test::_A
  assert.equal(ov[0].type, 'w12');
  assert.deepEqual(
    [ov[0].shape, ov[0].strides],
    [
      [8, 16, 8],
      [4096, 256, 1],
    ],
  );
  assert.match(ov[0].detail!, /written by step 0 \(test\.m:19\), 8×16×8 words \(pcore × thread × word\)/);
  const word = (p: number, t: number, w: number) => 2 * (p * 4096 + t * 256 + w);
  assert.deepEqual(coordOf(ov[0], word(3, 5, 2) + 1), { coord: [3, 5, 2], byteInElement: 1 });
  assert.equal(overlayCovers(ov[0], word(3, 5, 7)), true);
  assert.equal(overlayCovers(ov[0], word(3, 5, 8)), false, 'word 8 of a thread is not test::_A');
  assert.equal(overlayCovers(ov[0], word(7, 15, 7) + 2), false, 'past the end');
  // test::_Z sits at word 8 of each thread
  assert.deepEqual(coordOf(ov[5], word(1, 2, 8 + 3)), { coord: [1, 2, 3], byteInElement: 0 });
  assert.equal(overlayCovers(ov[5], word(1, 2, 3)), false);
  // every range of one term has one colour; different terms differ
  assert.equal(ov[1].color, ov[3].color);
  assert.notEqual(ov[1].color, ov[4].color);
  const outbuf = ov[9];
  assert.equal(outbuf.kind, 'global');
  assert.deepEqual([outbuf.type, outbuf.shape], ['i16', [2048]]);
  // byte 8192 + 2·1030 + 1 of outbuf is element 1030, byte 1; of the process-1 output term element 6
  assert.deepEqual(coordOf(outbuf, 8192 + 2 * 1030 + 1), { coord: [1030], byteInElement: 1 });
  assert.deepEqual(coordOf(ov[6], 8192 + 2 * 1030 + 1), { coord: [6], byteInElement: 1 });
});

test('pcoreBlock: a sparse PCORE range is a pcore × thread × word block only when its count says so', () => {
  assert.deepEqual(pcoreBlock({ space: 'PCORE1', lo: 256 + 4, hi: 4096 + 3 * 256 + 5, count: 2 * 3 * 2 }), {
    shape: [2, 3, 2],
    strides: [4096, 256, 1],
    dims: ['pcore', 'thread', 'word'],
  });
  assert.equal(pcoreBlock({ space: 'PCORE1', lo: 0, hi: 32519, count: 1000 }), undefined, 'not every word of the block');
  assert.deepEqual(pcoreBlock({ space: 'PCORE0S', lo: 10, hi: 3 * 4096 + 13, count: 16 }), { shape: [4, 4], strides: [4096, 1], dims: ['pcore', 'word'] });
  assert.equal(pcoreBlock({ space: 'MEM', lo: 0, hi: 10, count: 5 }), undefined);
  // a strided overlay without gaps in its block colours every element; a C-style view with gaps does not
  const c = { id: 'C', name: 'C', space: 'MEM', offset: 0x4000, length: 24, kind: 'tensor' as const, type: 'f32' as const, shape: [2, 2], strides: [4, 1] };
  assert.deepEqual(Array.from({ length: 24 }, (_, i) => (overlayCovers(c, 0x4000 + i) ? 1 : 0)).join(''), '111111110000000011111111');
});

test('overlayTouches: a row window meets a strided overlay only where an element is', () => {
  // 32 bytes of every 64 (PCORE-block-like): runs of 32 ≥ a 16-byte row, so two probes decide
  const o = { id: 'm', name: 'm', space: 'MEM', offset: 1024, length: 4096, kind: 'tensor' as const, type: 'u8' as const, shape: [64, 32], strides: [64, 1] };
  assert.equal(runBytes(o), 32);
  assert.deepEqual(
    [1024, 1040, 1056, 1072, 1088].map((r) => overlayTouches(o, r, r + 16)),
    [true, true, false, false, true],
  );
  assert.equal(overlayTouches(o, 1050, 1066), true, 'a window across the end of a run');
  assert.equal(overlayTouches(o, 1000, 1024), false, 'before the overlay');
  // short runs (every other byte) are probed byte by byte
  const e = { ...o, shape: [2048], strides: [2] };
  assert.equal(runBytes(e), 1);
  assert.equal(overlayTouches(e, 1025, 1026), false);
  assert.equal(overlayTouches(e, 1025, 1027), true);
  assert.equal(runBytes({ ...o, strides: undefined, shape: undefined }), 4096);
});

test('traceOverlays: repeated executions of one range give one overlay; the cap holds', () => {
  const again = [
    ...TRACE,
    step({
      step: 5,
      line: 19,
      text: LOAD,
      read: { space: 'MEM', lo: 4096, hi: 6143, count: 2048 },
      written: { space: 'PCORE0', lo: 0, hi: 32519, count: 1024 },
    }),
  ];
  assert.equal(traceOverlays(again).length, 8);
  assert.equal(traceOverlays(again, GLOBALS, 3).length, 3);
});

test('resolveName: terms, $variables, globals with +offset, latest range, unknown names', () => {
  const vtrace = [
    ...TRACE,
    step({
      step: 5,
      line: 30,
      text: '$dst[0] <= $src',
      read: { space: 'MEM', lo: 100, hi: 115, count: 16 },
      written: { space: 'MEM', lo: 200, hi: 215, count: 16 },
    }),
  ];
  const ov = traceOverlays(vtrace, GLOBALS);
  assert.deepEqual(resolveName(ov, 'outbuf'), { space: 'MEM', offset: 8192, length: 4096, label: 'outbuf' });
  assert.deepEqual(resolveName(ov, 'outbuf+16'), { space: 'MEM', offset: 8208, length: 1, label: 'outbuf' });
  assert.deepEqual(
    resolveName(ov, 'MEM(req->output)[from:to]'),
    { space: 'MEM', offset: 10240, length: 2048, label: 'MEM(req->output)[from:to]' },
    'the latest range',
  );
  assert.deepEqual(resolveName(ov, '$src'), { space: 'MEM', offset: 100, length: 16, label: '$src' });
  assert.deepEqual(resolveName(ov, '$dst'), { space: 'MEM', offset: 200, length: 16, label: '$dst[0]' }, 'by its variable');
  assert.equal(resolveName(ov, '$nothing'), undefined);
});

test('sideAt and rangeAtPoint: the term under the cursor in test.m → the bytes the run wrote or read', () => {
  const lines = Array.from({ length: 30 }, () => '');
  lines[18] = `   > ${LOAD};`;
  lines[21] = `   > ${STORE};`;
  const arrow = lines[18].indexOf('<=');
  assert.equal(sideAt(lines, 19, 19, 19, 10), 'dst');
  assert.equal(sideAt(lines, 19, 19, 19, arrow + 4), 'src');
  assert.equal(sideAt(lines, 19, 19, 19, arrow + 1), undefined, 'on the arrow itself');
  // cursor on MEM(req->output) in line 22: process 0's output range, or process 1's when the panel is at step 4
  const col = lines[21].indexOf('MEM(req->output)') + 1;
  assert.deepEqual(rangeAtPoint(TRACE, [], lines, { file: FILE, line: 22, column: col }, 3), {
    space: 'MEM',
    offset: 8192,
    length: 2048,
    label: 'MEM(req->output)[from:to] (written by step 3)',
    step: 3,
  });
  assert.equal(rangeAtPoint(TRACE, [], lines, { file: FILE, line: 22, column: col })!.offset, 10240);
  // before the statement ran (panel at step 0): its first execution
  assert.equal(rangeAtPoint(TRACE, [], lines, { file: FILE, line: 22, column: col }, 0)!.offset, 8192);
  // right of <= on line 19: the MEM range read
  const src = rangeAtPoint(TRACE, [], lines, { file: FILE, line: 19, column: lines[18].indexOf('MEM(') + 1 }, 0)!;
  assert.deepEqual([src.space, src.offset, src.length], ['MEM', 4096, 2048]);
  // another file, or a line with no statement: nothing
  assert.equal(rangeAtPoint(TRACE, [], lines, { file: '/w/other.m', line: 22, column: col }), undefined);
  assert.equal(rangeAtPoint(TRACE, [], lines, { file: FILE, line: 5, column: 1 }), undefined);
  // a $variable's definition line: the variable's latest range
  const ov = traceOverlays([
    step({
      step: 0,
      line: 2,
      text: '$dst[0] <= $src',
      read: { space: 'MEM', lo: 100, hi: 115, count: 16 },
      written: { space: 'MEM', lo: 200, hi: 215, count: 16 },
    }),
  ]);
  const vl = ['', '', '   > $src := DTYPE(INT16)MEM(p)[0:7];'];
  assert.deepEqual(rangeAtPoint([], ov, vl, { file: FILE, line: 3, column: vl[2].indexOf('$src') + 2 }), {
    space: 'MEM',
    offset: 100,
    length: 16,
    label: '$src',
  });
});
