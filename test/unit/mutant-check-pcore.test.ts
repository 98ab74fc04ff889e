/**
 * Prefixes and PCORE terms, as mutation testing (npm run mutate -- check) found them unasserted: two DTYPEs, two
 * CONCURRENTs, two REMAPs, LATEST on a destination, the REMAP stream bound (3 fine, 4 masked), the nearest space
 * offered only within two edits, pointers and registers that are not memory, THREAD counts, `[$]` and `[*]` where
 * they do not belong, shape casts larger than their variable, and member index counts of a scalar.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';

const P = `
vint16 k::a[4];
int16 k::s;
vint16 *k::ptr;
_kernel_ void k::run(_global int g, int16 bias) { _VMASK = -1; }
`;
const program = (body: string) => `#include <stdint.h>\nvoid f(uint32_t p, uint32_t q) {\n${body}\n}\n`;

/** [code, severity, start, end, message] of every diagnostic of a one-line statement (line 2). */
function found(body: string): [string, string, number, number, string][] {
  return analyze(program(body), P, 'ztachip').diagnostics.map((d) => {
    assert.equal(d.range.start.line, 2);
    return [d.code, d.severity, d.range.start.character, d.range.end.character, d.message];
  });
}

/** Start and end of the nth occurrence of `token` in `body`. */
function at(body: string, token: string, nth = 0): [number, number] {
  let k = -1;
  for (let n = 0; n <= nth; n++) k = body.indexOf(token, k + 1);
  assert.ok(k >= 0, `'${token}' (${nth}) not in ${body}`);
  return [k, k + token.length];
}

test('a prefix given twice: DTYPE and CONCURRENT over the term, REMAP at the second REMAP', () => {
  const dt = '> DTYPE(INT16)DTYPE(INT8)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];';
  assert.deepEqual(found(dt), [
    ['tprog.bad-dtype', 'error', ...at(dt, 'DTYPE(INT16)DTYPE(INT8)MEM(p)[0:7] '), 'Invalid dtype syntax: the term has more than one DTYPE'],
  ]);
  const cc = '> CONCURRENT CONCURRENT DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];';
  assert.deepEqual(found(cc), [
    ['tprog.multiple', 'error', ...at(cc, 'CONCURRENT CONCURRENT DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] '), 'Multiple SCATTER: CONCURRENT is given twice'],
  ]);
  const rm = '> REMAP(1) REMAP(2) DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];';
  assert.deepEqual(
    found(rm).map((d) => d.slice(0, 4)),
    [['tprog.multiple', 'error', ...at(rm, 'REMAP(2)')]],
  );
  // one of each is fine
  assert.deepEqual(found('> CONCURRENT REMAP(1) DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];'), []);
});

test('LATEST, like PAD and REPEAT, does nothing on a destination', () => {
  const s = '> LATEST DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];';
  assert.deepEqual(found(s), [['tprog.no-effect', 'warning', ...at(s, 'LATEST'), 'LATEST has no effect on a destination term (it applies to sources only)']]);
  assert.deepEqual(found('> DTYPE(INT16)MEM(p)[0:7] <= LATEST DTYPE(INT16)MEM(q)[0:7];'), []);
});

test('REMAP streams: 3 is the last one, 4 is masked to stream 0', () => {
  assert.deepEqual(found('> REMAP(3) DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];'), []);
  const s = '> REMAP(4) DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];';
  assert.deepEqual(found(s), [
    [
      'tprog.remap-range',
      'warning',
      ...at(s, '4'),
      'REMAP(4) selects stream 0: only streams 0..3 exist and the number is masked with 3 (a negative number disables remapping)',
    ],
  ]);
});

test('an unknown space is offered the nearest known one only within two edits', () => {
  const near = '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)SCRATH(q)[0:7];';
  const a = analyze(program(near), P, 'ztachip').diagnostics;
  assert.deepEqual(
    a.map((d) => [d.code, d.fixes?.map((f) => f.edits[0].newText)]),
    [['tprog.unknown-space', ['SCRATCH']]],
  );
  assert.match(a[0].message, /; did you mean SCRATCH\?$/);
  const far = '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)QQQQQQ(q)[0:7];';
  const b = analyze(program(far), P, 'ztachip').diagnostics;
  assert.deepEqual(
    b.map((d) => [d.code, d.fixes]),
    [['tprog.unknown-space', undefined]],
  );
  assert.equal(b[0].message, 'Unrecognized memory space `QQQQQQ`: expected PCORE, MEM, SCRATCH, SPU, PROG, INT16(v), INT8(v) or a $variable');
});

test('a pointer class variable is not PCORE memory', () => {
  const s = '> DTYPE(INT16)PCORE(8)[0][0].k::ptr <= INT16(1);';
  assert.deepEqual(found(s), [
    ['tprog.not-storage', 'error', ...at(s, 'k::ptr'), 'k::ptr is a vint16 pointer, not PCORE memory: the compiler silently addresses word 0 instead'],
  ]);
});

test('THREAD(a,b) holds at most 16 threads', () => {
  const s = '> DTYPE(INT16)PCORE(8)[0].THREAD(4,8)[0][0].k::s <= INT16(1);';
  assert.deepEqual(found(s), [['tprog.thread-count', 'error', ...at(s, '(4,8)'), 'THREAD(4,8) has 32 threads; a PCORE has 16']]);
  assert.deepEqual(found('> DTYPE(INT16)PCORE(8)[0].THREAD(4,4)[0][0].k::s <= INT16(1);'), []);
  assert.deepEqual(found('> DTYPE(INT16)PCORE(4,2)[0][0].THREAD(2,2)[0][0].k::s <= INT16(1);'), []);
});

test('`[$]` in a member index is an error; `[*]` warns on a source and on a thread index, not on a destination PCORE index', () => {
  const ph = '> DTYPE(INT16)PCORE(8)[0][0].k::a[0][$] <= DTYPE(INT16)MEM(q)[0:0];';
  assert.deepEqual(
    found(ph).map((d) => d.slice(0, 4)),
    [['tprog.placeholder', 'error', ...at(ph, '[$]')]],
  );
  const src = '> DTYPE(INT16)MEM(q)[0:7] <= DTYPE(INT16)PCORE(8)[*][0].k::a[0][0:7];';
  assert.deepEqual(
    found(src).map((d) => d.slice(0, 4)),
    [['tprog.wildcard-noop', 'warning', ...at(src, '[*]')]],
  );
  const thread = '> DTYPE(INT16)PCORE(8)[0].THREAD[*].k::a[0][0:7] <= DTYPE(INT16)MEM(q)[0:7];';
  assert.deepEqual(found(thread), [['tprog.wildcard-noop', 'warning', ...at(thread, '[*]'), '`[*]` on a thread index means thread 0 only']]);
  assert.deepEqual(found('> DTYPE(INT16)PCORE(8)[*][*].k::a[0][0:7] <= DTYPE(INT16)MEM(q)[0:7];'), []);
});

test('a shape cast larger than its variable runs into the next one', () => {
  // k::a is vint16 [4]: 4 × 8 = 32 words; (8,8) is 64
  const s = '> DTYPE(INT16)PCORE(8)[0][0].k::a(8,8)[0][0:7] <= DTYPE(INT16)MEM(q)[0:7];';
  assert.deepEqual(found(s), [
    ['tprog.cast-size', 'warning', ...at(s, '(8,8)'), 'The shape cast (8×8 = 64 words) is larger than k::a (32 words): it runs into the next variable'],
  ]);
  assert.deepEqual(found('> DTYPE(INT16)PCORE(8)[0][0].k::a(4,8)[0][0:7] <= DTYPE(INT16)MEM(q)[0:7];'), []);
});

test('member index counts: a scalar takes none, a vector one per dimension', () => {
  const s = '> DTYPE(INT16)PCORE(8)[0][0].k::s[0][1] <= INT16(1);';
  assert.deepEqual(found(s), [
    ['tprog.member-index-count', 'error', ...at(s, '.k::s[0][1] '), 'Invalid parameter reference: k::s has 0 dimensions (int16) but 2 indices are given'],
  ]);
  const one = '> DTYPE(INT16)PCORE(8)[0][0].k::a[0] <= DTYPE(INT16)MEM(q)[0:7];';
  assert.deepEqual(
    found(one).map((d) => [d[0], d[4]]),
    [['tprog.member-index-count', 'Invalid parameter reference: k::a has 2 dimensions (vint16 [4][8]) but 1 index is given']],
  );
});
