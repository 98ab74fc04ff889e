/**
 * MEM/SCRATCH terms and the C names inside terms, as mutation testing (npm run mutate -- check) found them
 * unasserted: missing addresses and indices (with the messages that say which space), index counts in both
 * directions, `[*]` and `+` that do nothing, empty items after a space, dangling operators, undeclared names in
 * PAD/REMAP/FOR ranges and in THREAD and member indices, how severe an undeclared name is (compiler, guide, missing
 * header), and the two helpers the checker's modules share (editDistance, hasCode).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import { editDistance, hasCode } from '../../core/tprog/checkCommon';
import type { UnitDiag } from '../../core/tprog/analysis';

const P = `
vint16 k::a[4];
_kernel_ void k::run(_global int g, int16 bias) { _VMASK = -1; }
`;
const program = (body: string) => `#include <stdint.h>\nvoid f(uint32_t p, uint32_t q, int c) {\n${body}\n}\n`;

/** [code, severity, first character, last character + 1] of every diagnostic of a one-line statement (line 2). */
function found(body: string, dialect: 'ztachip' | 'guide' = 'ztachip', prelude = ''): [string, string, number, number][] {
  const a = analyze(prelude + program(body), P, dialect);
  const line = prelude.split('\n').length + 1;
  return a.diagnostics.map((d) => {
    assert.equal(d.range.start.line, line, `${d.code} on line ${d.range.start.line}`);
    return [d.code, d.severity, d.range.start.character, d.range.end.character];
  });
}

const messages = (body: string) => analyze(program(body), P, 'ztachip').diagnostics.map((d) => d.message);

/** Start and end of the nth occurrence of `token` in `body`. */
function at(body: string, token: string, nth = 0): [number, number] {
  let k = -1;
  for (let n = 0; n <= nth; n++) k = body.indexOf(token, k + 1);
  assert.ok(k >= 0, `'${token}' (${nth}) not in ${body}`);
  return [k, k + token.length];
}

test('editDistance is the Levenshtein distance', () => {
  assert.equal(editDistance('', ''), 0);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('abc', ''), 3);
  assert.equal(editDistance('MEM', 'MEM'), 0);
  assert.equal(editDistance('MEM', 'MEMM'), 1);
  assert.equal(editDistance('ab', 'ba'), 2);
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('SCRATCH', 'SCRTACH'), 2);
});

test('hasCode finds a code anywhere in the list, and only that code', () => {
  const d = (code: string): UnitDiag => ({ span: { start: 0, end: 0 }, severity: 'error', code, message: '' });
  assert.equal(hasCode([], 'x'), false);
  assert.equal(hasCode([d('a'), d('b'), d('x')], 'x'), true);
  assert.equal(hasCode([d('x'), d('b')], 'x'), true);
  assert.equal(hasCode([d('a'), d('b')], 'x'), false);
});

test('a MEM or SCRATCH term without an address names its space', () => {
  const s = '> DTYPE(INT16)MEM(p,4)[0:3] <= DTYPE(INT16)SCRATCH()[0:3];';
  assert.deepEqual(found(s), [['tprog.no-address', 'error', ...at(s, 'SCRATCH')]]);
  assert.deepEqual(messages(s), ['Invalid SRAM memory reference: SCRATCH needs an address first, e.g. `SCRATCH(p, 100, 200)`']);
  const m = '> DTYPE(INT16)MEM()[0:3] <= DTYPE(INT16)MEM(q)[0:3];';
  assert.deepEqual(found(m), [['tprog.no-address', 'error', ...at(m, 'MEM')]]);
  assert.deepEqual(messages(m), ['Invalid DDR memory reference: MEM needs an address first, e.g. `MEM(p, 100, 200)`']);
});

test('index counts: none given, one too many, and the messages of each', () => {
  // dimensions but no index: reported over the dimension list
  const dims = '> DTYPE(INT16)MEM(p,4) <= DTYPE(INT16)MEM(q)[0:3];';
  assert.deepEqual(found(dims), [['tprog.index-count', 'error', ...at(dims, '(p,4)')]]);
  assert.deepEqual(messages(dims), ['Invalid DDR memory reference: MEM(p,4) has 1 dimension but 0 indices']);
  // an address only and no index: over the whole term (which ends after the space before <=)
  const bare = '> DTYPE(INT16)MEM(p) <= DTYPE(INT16)MEM(q)[0:3];';
  assert.deepEqual(found(bare), [['tprog.index-count', 'error', ...at(bare, 'DTYPE(INT16)MEM(p) ')]]);
  assert.deepEqual(messages(bare), ['Invalid DDR memory reference: give an index range, e.g. `MEM(p)[0:n-1]`']);
  // three indices for two dimensions: the third index
  const extra = '> DTYPE(INT16)MEM(p,4,4)[0][1][2] <= DTYPE(INT16)MEM(q)[0:0];';
  assert.deepEqual(found(extra), [['tprog.index-count', 'error', ...at(extra, '[2]')]]);
  assert.deepEqual(messages(extra), ['Invalid DDR memory reference: MEM(p,4,4) has 2 dimensions but 3 indices']);
  // a SCRATCH term says SRAM
  assert.deepEqual(messages('> SCRATCH(0,4,4)[0:3] <= DTYPE(INT16)MEM(q)[0:3];'), ['Invalid SRAM reference: SCRATCH(0,4,4) has 2 dimensions but 1 index']);
});

test('`[*]` on MEM and `+` on an address do nothing (warnings); `+` on a dimension is no bound check (fine)', () => {
  const w = '> DTYPE(INT16)MEM(p,8)[*] <= DTYPE(INT16)MEM(q)[0:0];';
  assert.deepEqual(found(w), [['tprog.wildcard-noop', 'warning', ...at(w, '[*]')]]);
  // (reported over the address expression)
  const plus = '> DTYPE(INT16)MEM(p+,8)[0:7] <= DTYPE(INT16)MEM(q,+8)[0:7];';
  assert.deepEqual(found(plus), [['tprog.plus-noop', 'warning', ...at(plus, 'p')]]);
  assert.deepEqual(messages(plus), ['`+` on the address has no effect']);
});

test('sizeof/MAX/MIN as a dimension are groups, not calls; another function name is a call', () => {
  const s = '> DTYPE(INT16)MEM(p,MAX(4,8))[0:3] <= DTYPE(INT16)MEM(q)[0:3];';
  const a = analyze(program(s), P, 'ztachip');
  const d = a.diagnostics.find((x) => x.code === 'tprog.call-dim')!;
  assert.deepEqual([d.range.start.character, d.range.end.character], at(s, 'MAX(4,8)'));
  assert.deepEqual(
    d.fixes?.map((f) => f.edits[0].newText),
    ['(MAX(4,8))'],
  );
  assert.ok(!found('> DTYPE(INT16)MEM(p,foo(4))[0:3] <= DTYPE(INT16)MEM(q)[0:3];').some(([c]) => c === 'tprog.call-dim'));
});

test('an empty item after a space is reported at its comma', () => {
  const s = '> DTYPE(INT16)MEM(p, )[0:3] <= DTYPE(INT16)MEM(q)[0:3];';
  assert.deepEqual(found(s), [['tprog.empty-item', 'error', ...at(s, ',')]]);
});

test('a C text ending with an operator is reported at the operator; a postfix -- is not', () => {
  const s = '> DTYPE(INT16)MEM(p)[0:7-] <= DTYPE(INT16)MEM(q)[0:7];';
  assert.deepEqual(found(s), [['tprog.dangling-operator', 'error', ...at(s, '-')]]);
  assert.match(messages(s)[0], /^Syntax error: `7-` ends with `-`, an operator without its right operand/);
  assert.deepEqual(found('> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[c--:7];'), []);
  assert.deepEqual(found('> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[c++:7];'), []);
  // a single-character text that is an operator has nothing before it
  const one = '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:-];';
  assert.deepEqual(
    found(one).map(([c]) => c),
    ['tprog.dangling-operator'],
  );
});

test('undeclared names in PAD, REMAP, FOR ranges and THREAD/member indices', () => {
  const pad = '> DTYPE(INT16)MEM(p)[0:7] <= PAD(zz) DTYPE(INT16)MEM(q)[0:7];';
  assert.deepEqual(found(pad), [['tprog.unknown-name', 'error', ...at(pad, 'zz')]]);
  const forRange = '> FOR(I=0:zz) DTYPE(INT16)MEM(p,8)[I] <= DTYPE(INT16)MEM(q)[0:7];';
  assert.deepEqual(found(forRange), [['tprog.unknown-name', 'error', ...at(forRange, 'zz')]]);
  const remap = '> REMAP(zz) DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];';
  assert.deepEqual(found(remap), [['tprog.unknown-name', 'error', ...at(remap, 'zz')]]);
  const pc = '> DTYPE(INT16)PCORE(8)[0].THREAD[zz].k::a[yy][0:7] <= DTYPE(INT16)MEM(q)[0:7];';
  assert.deepEqual(found(pc), [
    ['tprog.unknown-name', 'error', ...at(pc, 'zz')],
    ['tprog.unknown-name', 'error', ...at(pc, 'yy')],
  ]);
  // a declared C name is fine everywhere
  assert.deepEqual(found('> DTYPE(INT16)PCORE(8)[0].THREAD[c].k::a[c][0:7] <= PAD(c) DTYPE(INT16)MEM(q)[0:c];'), []);
});

test('how severe an undeclared name is: error (compiler), warning (guide), information (a header is missing)', () => {
  const exe = '> EXE_LOCKSTEP(k::run,zz);';
  assert.deepEqual(found(exe), [['tprog.unknown-name', 'error', ...at(exe, 'zz')]]);
  assert.deepEqual(found(exe, 'guide'), [['tprog.unknown-name', 'warning', ...at(exe, 'zz')]]);
  // the guide's terms are fragments: their names are not checked
  assert.deepEqual(found('> DTYPE(INT16)MEM(zz)[0:3] <= DTYPE(INT16)MEM(q)[0:3];', 'guide'), []);
  // a header that cannot be found may declare it
  assert.deepEqual(found(exe, 'ztachip', '#include "nowhere.h"\n'), [['tprog.unknown-name', 'information', ...at(exe, 'zz')]]);
});
