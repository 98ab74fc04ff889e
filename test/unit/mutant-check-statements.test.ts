/**
 * Checker paths that mutation testing (npm run mutate -- check) found unexercised or unasserted: EXPORT, PRINT and
 * CALLBACK argument counts, every EXE_LOCKSTEP branch (no argument, `cls:kernel`, unknown class, the order of the
 * suggestions, the PCORE and thread count bounds, extra arguments), REPEAT and fork-space prefixes, PROC and HALF,
 * steps, count mismatches both ways, empty dimension items, PCORE index counts of shared variables and of THREAD
 * blocks, the guide dialect's `class.var` and PROC rewrites, and when an unused FOR makes the compiler abort.
 * Each expectation (code, severity, the exact token covered, the message) is worked out by hand from the statement.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import type { Diagnostic } from '../../core/common/diagnostic';

// kernels declared in this order: k::abcde before k::abc (the suggestions must be sorted by distance, not declared order)
const P = `
vint16 k::a[4];
int16 k::s;
_share vint16 k::sh[16];
_kernel_ void k::abcde() { }
_kernel_ void k::abc() { }
_kernel_ void k::run(_global int g, int16 bias) { _VMASK = -1; }
`;

/** The statement is line 2 (0-based) of the program. */
const program = (body: string) => `#include <stdint.h>\nvoid f(uint32_t p, uint32_t q, int c, int x, int f) {\n${body}\n}\n`;

function diags(body: string, dialect: 'ztachip' | 'guide' = 'ztachip'): Diagnostic[] {
  return analyze(program(body), P, dialect).diagnostics;
}

/** The range of the nth occurrence of `token` in a one-line statement (line 2 of the program). */
function on(body: string, token: string, nth = 0): Diagnostic['range'] {
  let at = -1;
  for (let n = 0; n <= nth; n++) at = body.indexOf(token, at + 1);
  assert.ok(at >= 0, `'${token}' not in ${body}`);
  return { start: { line: 2, character: at }, end: { line: 2, character: at + token.length } };
}

/** A zero-width range at column `character` of line 2. */
const point = (character: number): Diagnostic['range'] => ({ start: { line: 2, character }, end: { line: 2, character } });

/** The one diagnostic of `code`, with its severity, range and message. */
function only(body: string, code: string, dialect: 'ztachip' | 'guide' = 'ztachip') {
  const all = diags(body, dialect);
  const hits = all.filter((d) => d.code === code);
  assert.equal(hits.length, 1, `one ${code} expected in ${body}; got ${all.map((d) => d.code).join(', ') || 'nothing'}`);
  return hits[0];
}

function clean(body: string, dialect: 'ztachip' | 'guide' = 'ztachip'): void {
  assert.deepEqual(
    diags(body, dialect).map((d) => `${d.code}: ${d.message}`),
    [],
  );
}

test('EXPORT takes exactly one name: two or none are reported over the arguments', () => {
  const two = '> EXPORT(a,b);';
  const d = only(two, 'tprog.bad-args');
  assert.deepEqual([d.severity, d.range, d.message], ['error', on(two, 'a,b'), 'Invalid export: EXPORT takes exactly one name']);
  // no argument: an empty range just inside the parentheses ("> EXPORT(" is 9 characters)
  assert.deepEqual(only('> EXPORT();', 'tprog.bad-args').range, point(9));
  clean('> EXPORT(a);');
});

test('PRINT and CALLBACK take exactly two arguments, each saying what they are', () => {
  const print = '> PRINT(1);';
  const p = only(print, 'tprog.bad-args');
  assert.deepEqual([p.severity, p.range], ['error', on(print, '1')]);
  assert.equal(p.message, 'Invalid parameters: PRINT takes exactly two arguments (two integers)');
  const cb = '> CALLBACK(f,1,2);';
  const c = only(cb, 'tprog.bad-args');
  assert.deepEqual(c.range, on(cb, 'f,1,2'));
  assert.equal(c.message, 'Invalid parameters: CALLBACK takes exactly two arguments (function, parameter)');
  clean('> PRINT(1,2);');
  clean('> CALLBACK(f,1);');
});

test('EXE_LOCKSTEP with no argument is a syntax error at the empty argument list', () => {
  const d = only('> EXE_LOCKSTEP();', 'tprog.syntax');
  // "> EXE_LOCKSTEP(" is 15 characters
  assert.deepEqual([d.severity, d.range], ['error', point(15)]);
  assert.match(d.message, /needs a kernel and the number of PCOREs/);
});

test('a kernel written cls:kernel gets a fix to cls::kernel', () => {
  const s = '> EXE_LOCKSTEP(k:run,8);';
  const d = only(s, 'tprog.kernel-syntax');
  assert.deepEqual([d.severity, d.range], ['error', on(s, 'k:run')]);
  assert.deepEqual(
    d.fixes?.map((f) => [f.title, f.edits[0].newText, f.edits[0].range, f.preferred]),
    [['Use `::`', 'k::run', on(s, 'k:run'), true]],
  );
  assert.deepEqual(
    diags(s).map((d) => d.code),
    ['tprog.kernel-syntax'],
    'not also an unknown kernel',
  );
});

test('an unknown kernel names a missing class and suggests the nearest kernels, nearest first', () => {
  const s = '> EXE_LOCKSTEP(x::run,8);';
  const d = only(s, 'tprog.unknown-kernel');
  assert.deepEqual(d.range, on(s, 'x::run'));
  assert.equal(d.message, 'Undefined function name: x::run is not a kernel of x.p (no class `x`); did you mean k::run?');
  // k::ab: k::abc is 1 edit away, k::abcde 3 (declared first) and k::run 3 (a→r, b→u, +n)
  const near = only('> EXE_LOCKSTEP(k::ab,8);', 'tprog.unknown-kernel');
  assert.equal(near.message, 'Undefined function name: k::ab is not a kernel of x.p; did you mean k::abc?');
  assert.deepEqual(
    near.fixes?.map((f) => [f.title, f.edits[0].newText, f.preferred]),
    [
      ['Change to k::abc', 'k::abc', true],
      ['Change to k::abcde', 'k::abcde', false],
      ['Change to k::run', 'k::run', false],
    ],
  );
  // nothing within 3 edits: no suggestion, no fix
  const far = only('> EXE_LOCKSTEP(k::zzzzzz,8);', 'tprog.unknown-kernel');
  assert.equal(far.message, 'Undefined function name: k::zzzzzz is not a kernel of x.p');
  assert.equal(far.fixes, undefined);
});

test('EXE_LOCKSTEP counts: PCOREs 1..8, threads 1..16, boundaries included; extra arguments warned', () => {
  for (const ok of ['> EXE_LOCKSTEP(k::run,1);', '> EXE_LOCKSTEP(k::run,8);', '> EXE_LOCKSTEP(k::run,1,1);', '> EXE_LOCKSTEP(k::run,8,16);']) clean(ok);
  const np = '> EXE_LOCKSTEP(k::run,0);';
  const n = only(np, 'tprog.exe-np');
  assert.deepEqual([n.severity, n.range, n.message], ['error', on(np, '0'), 'The PCORE count must be 1..8; 0 is 0']);
  const nt = '> EXE_LOCKSTEP(k::run,8,0);';
  const t = only(nt, 'tprog.exe-nt');
  assert.deepEqual([t.severity, t.range, t.message], ['error', on(nt, '0'), 'The thread count must be 1..16; 0 is 0']);
  const extra = '> EXE_LOCKSTEP(k::run,8,16,3);';
  const e = only(extra, 'tprog.exe-extra');
  assert.deepEqual([e.severity, e.range], ['warning', on(extra, '3')]);
  assert.deepEqual(
    diags(extra).map((d) => d.code),
    ['tprog.exe-extra'],
  );
});

test('REPEAT twice on a source is an error over the term; REPEAT on a destination has no effect', () => {
  const twice = '> DTYPE(INT16)MEM(p)[0:7] <= REPEAT REPEAT DTYPE(INT16)MEM(q)[0:7];';
  const d = only(twice, 'tprog.multiple');
  assert.deepEqual([d.severity, d.range, d.message], ['error', on(twice, 'REPEAT REPEAT DTYPE(INT16)MEM(q)[0:7]'), 'Multiple REPEAT: REPEAT is given twice']);
  clean('> DTYPE(INT16)MEM(p)[0:7] <= REPEAT DTYPE(INT16)MEM(q)[0:7];');
  const dst = '> REPEAT DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];';
  const r = only(dst, 'tprog.no-effect');
  assert.deepEqual([r.severity, r.range, r.message], ['warning', on(dst, 'REPEAT'), 'REPEAT has no effect on a destination term (it applies to sources only)']);
});

test('legacy fork spaces, PROC as a space and HALF constants', () => {
  for (const sp of ['PCORES', 'MEMS', 'SCRATCHS']) {
    const s = `> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)${sp}(q)[0:7];`;
    const d = only(s, 'tprog.fork');
    assert.deepEqual([d.severity, d.range], ['warning', on(s, sp)]);
    assert.equal(d.message, `${sp} is a legacy "fork" space that the hardware does not support (fork count 1)`);
  }
  const proc = '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)PROC(q)[0:7];';
  const p = only(proc, 'tprog.unknown-space');
  assert.deepEqual([p.severity, p.range], ['error', on(proc, 'PROC')]);
  assert.match(p.message, /^Unrecognized memory space: PROC\(n\) is only meaningful between two `<=`/);
  const half = '> DTYPE(INT16)MEM(p)[0:7] <= HALF(1);';
  const h = only(half, 'tprog.unknown-space');
  assert.deepEqual([h.severity, h.range], ['error', on(half, 'HALF')]);
  assert.match(h.message, /HALF\(\.\.\.\) constants are not supported/);
  const conc = '> DTYPE(INT16)MEM(p)[0:7] <= CONCURRENT INT16(1);';
  const c = only(conc, 'tprog.concurrent-space');
  assert.deepEqual([c.range, c.message], [on(conc, 'CONCURRENT INT16(1)'), 'SCATTER is only for PCORE: CONCURRENT cannot apply to a constant']);
});

test('a zero step is reported at the step, not the range', () => {
  // [begin:step:end]
  const s = '> DTYPE(INT16)MEM(p)[0:0:7] <= DTYPE(INT16)MEM(q)[0:7];';
  const d = only(s, 'tprog.bad-step');
  assert.deepEqual([d.severity, d.range, d.message], ['error', on(s, '0', 1), 'The step of a range must be positive (it is 0)']);
  clean('> DTYPE(INT16)MEM(p)[0:1:7] <= DTYPE(INT16)MEM(q)[0:7];');
  // a single-element range is not empty
  clean('> DTYPE(INT16)MEM(p)[3:3] <= DTYPE(INT16)MEM(q)[0:0];');
});

test('count mismatch: a longer source loses its last elements, a shorter one pads', () => {
  const longer = '> DTYPE(INT16)MEM(p)[0:3] <= DTYPE(INT16)MEM(q)[0:7];';
  const l = only(longer, 'tprog.count-mismatch');
  assert.deepEqual([l.severity, l.range], ['warning', on(longer, '<=')]);
  // 8 source elements, 4 destination elements: 8 - 4 = 4 are not transferred
  assert.equal(
    l.message,
    'The source has 8 elements but the destination only 4: the last 4 source elements are not transferred (the destination count is the transfer length)',
  );
  const shorter = '> DTYPE(INT16)MEM(p)[0:9] <= PAD(7) DTYPE(INT16)MEM(q)[0:2];';
  assert.equal(
    only(shorter, 'tprog.count-mismatch').message,
    'The source has 3 elements but the destination 10: the last 7 destination elements receive the PAD value 7',
  );
});

test('an empty dimension item is reported at its comma', () => {
  const s = '> DTYPE(INT16)MEM(p,)[0:3] <= DTYPE(INT16)MEM(q)[0:3];';
  const d = only(s, 'tprog.empty-item');
  assert.deepEqual([d.severity, d.range], ['error', on(s, ',')]);
  assert.match(d.message, /^Empty dimension: nothing follows this `,`/);
});

test('PCORE index counts of shared variables and THREAD blocks', () => {
  // shared: PCORE(8) has 1 dimension, so 1 PCORE index; [0][0] gives 2 and the second is reported
  const one = '> DTYPE(INT16)PCORE(8)[0][0].k::sh[1][0:3] <= DTYPE(INT16)MEM(q)[0:3];';
  const a = only(one, 'tprog.pcore-index-count');
  assert.deepEqual(a.range, on(one, '[0]', 1));
  assert.equal(a.message, 'Invalid range for PCORE memory space: the shared variable k::sh needs 1 PCORE index and no thread index (found 2)');
  clean('> DTYPE(INT16)PCORE(8)[0].k::sh[1][0:3] <= DTYPE(INT16)MEM(q)[0:3];');
  // PCORE(4,2) has 2 dimensions; with one index there is no second index to point at: the space name
  const two = '> DTYPE(INT16)PCORE(4,2)[0].k::sh[1][0:3] <= DTYPE(INT16)MEM(q)[0:3];';
  const b = only(two, 'tprog.pcore-index-count');
  assert.deepEqual(b.range, on(two, 'PCORE'));
  assert.equal(b.message, 'Invalid range for PCORE memory space: the shared variable k::sh needs 2 PCORE indices and no thread index (found 1)');
  const before = '> DTYPE(INT16)PCORE(4,2)[0].THREAD[0].k::s <= INT16(1);';
  assert.equal(only(before, 'tprog.pcore-index-count').message, 'Invalid range for PCORE memory space: 2 PCORE indices expected before .THREAD (found 1)');
  clean('> DTYPE(INT16)PCORE(4,2)[0][1].THREAD[0].k::s <= INT16(1);');
  const spec = '> DTYPE(INT16)PCORE(8)[0].THREAD(4,4)[0].k::s <= INT16(1);';
  const c = only(spec, 'tprog.pcore-index-count');
  assert.deepEqual([c.range, c.message], [on(spec, '.THREAD(4,4)[0]'), 'Invalid range for PCORE memory space: .THREAD(2 dims) needs 2 indices']);
  const plain = '> DTYPE(INT16)PCORE(8)[0].THREAD[0][1].k::s <= INT16(1);';
  assert.equal(only(plain, 'tprog.pcore-index-count').message, 'Invalid range for PCORE memory space: .THREAD needs 1 index');
});

test('guide dialect: class.var is a hint with a fix when the member exists, an error when it does not', () => {
  const s = '> DTYPE(INT16)PCORE(8)[0][0].k.a[0][:] <= DTYPE(INT16)MEM(q)[0:7];';
  const g = only(s, 'tprog.guide-member', 'guide');
  assert.deepEqual([g.severity, g.range, g.message], ['hint', on(s, 'k.a'), 'Guide dialect: the compiler writes `k::a`']);
  assert.deepEqual(
    g.fixes?.map((f) => [f.edits[0].newText, f.edits[0].range]),
    [['k::a', on(s, 'k.a')]],
  );
  // the hint resolves the member: no other diagnostic on the statement
  assert.deepEqual(
    diags(s, 'guide').map((d) => d.code),
    ['tprog.guide-member'],
  );
  // the compiler's dialect: an error, still with the fix
  const z = only(s, 'tprog.bad-member');
  assert.deepEqual([z.severity, z.fixes?.map((f) => f.edits[0].newText)], ['error', ['k::a']]);
  // no such member: an error and no fix
  const missing = '> DTYPE(INT16)PCORE(8)[0][0].k.zz[0][:] <= DTYPE(INT16)MEM(q)[0:7];';
  const m = only(missing, 'tprog.bad-member', 'guide');
  assert.deepEqual([m.severity, m.range, m.fixes], ['error', on(missing, 'k.zz'), undefined]);
});

test('guide PROC(n) becomes REMAP(n) on the PCORE term, source or destination', () => {
  const src = '> DDR(p)[0:63] <= PROC(1) <= PCORE(8)[:][0].k::a[0][:];';
  const a = only(src, 'tprog.guide-proc', 'guide');
  // the edit replaces "PROC(1) <= " (up to the source) with "REMAP(1) "
  assert.deepEqual(
    a.fixes?.map((f) => [f.title, f.edits[0].newText, f.edits[0].range]),
    [['Use REMAP(1) on the PCORE source', 'REMAP(1) ', { start: on(src, 'PROC').start, end: on(src, 'PCORE').start }]],
  );
  const dst = '> PCORE(8)[:][0].k::a[0][:] <= PROC(1) <= DDR(p)[0:63];';
  const b = only(dst, 'tprog.guide-proc', 'guide');
  // from the destination to the source, rewritten as "REMAP(1) <destination term> <= " (the term keeps its trailing space)
  assert.deepEqual(
    b.fixes?.map((f) => [f.title, f.edits[0].newText, f.edits[0].range]),
    [['Use REMAP(1) on the PCORE destination', 'REMAP(1) PCORE(8)[:][0].k::a[0][:]  <= ', { start: on(dst, 'PCORE').start, end: on(dst, 'DDR').start }]],
  );
});

test('an unused FOR aborts the compiler exactly when some level is bound to no FOR', () => {
  const severity = (s: string) => only(s, 'tprog.for-unused').severity;
  // MEM, every index a FOR, the unused FOR last: ignored by the compiler (warning)
  assert.equal(severity('> FOR(I=0:3) FOR(J=0:1) DTYPE(INT16)MEM(p,4)[I] <= DTYPE(INT16)MEM(q)[0:3];'), 'warning');
  // a thread index that is no FOR: abort (error)
  assert.equal(severity('> FOR(I=0:7) FOR(J=0:1) DTYPE(INT16)PCORE(8)[I].THREAD[0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];'), 'error');
  // PCORE, main and thread indices FORs, the member range a FOR: warning
  assert.equal(
    severity('> FOR(I=0:7) FOR(T=0:15) FOR(K=0:7) FOR(J=0:1) DTYPE(INT16)PCORE(8)[I].THREAD[T].k::a[0][K] <= DTYPE(INT16)MEM(q)[0:1023];'),
    'warning',
  );
  // ... but a member range that is no FOR: error
  assert.equal(
    severity('> FOR(I=0:7) FOR(T=0:15) FOR(K=0:7) FOR(J=0:1) DTYPE(INT16)PCORE(8)[I].THREAD[T].k::a[1:2][K] <= DTYPE(INT16)MEM(q)[0:2047];'),
    'error',
  );
  // ... and a member with no range at all takes a level of its own: error
  assert.equal(severity('> FOR(I=0:7) FOR(T=0:15) FOR(J=0:1) DTYPE(INT16)PCORE(8)[I].THREAD[T].k::s <= DTYPE(INT16)MEM(q)[0:127];'), 'error');
  // a member part on a MEM term whose index is no FOR: error (besides member-space)
  assert.equal(severity('> FOR(I=0:3) FOR(J=0:1) DTYPE(INT16)MEM(p,4)[I].k::a[0:1] <= DTYPE(INT16)MEM(q)[0:3];'), 'error');
  // the unused FOR before a used one: error even when every index is a FOR
  assert.equal(severity('> FOR(J=0:1) FOR(I=0:3) DTYPE(INT16)MEM(p,4)[I] <= DTYPE(INT16)MEM(q)[0:3];'), 'error');
});
