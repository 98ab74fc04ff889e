/**
 * Diagnostics: the ztachip compiler's errors (research §7.1), the mistakes it lets through (§7.2) and
 * semantic checks (§7.3). Each case has a faulty statement and its corrected form: the code must be
 * reported on the faulty one and must disappear on the corrected one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, stmts } from '../helpers/tprog';
import { addressRange } from '../../core/tprog/explain';

const P = `
vint16 k::a[4];
int16 k::s;
_share vint16 k::sh[16];
vint32 k::acc;
int k::cnt;
vint16 *k::ptr;
_kernel_ void k::run(_global int g, int16 bias) { _VMASK = -1; }
_kernel_ void k::other() { }
`;

interface Case {
  name: string;
  bad: string;
  good: string;
  code: string;
  message?: RegExp;
  severity?: string;
  /** The token the diagnostic must cover, exactly: its text in `bad` … */
  at: string;
  /** … and which occurrence (0-based) when the text occurs more than once. */
  nth?: number;
}

const cases: Case[] = [
  {
    name: 'guide DDR in compiler dialect',
    bad: '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)DDR(q)[0:7];',
    good: '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];',
    code: 'tprog.guide-ddr',
    message: /Unrecognized memory space/,
    at: 'DDR',
  },
  {
    name: 'unknown memory space',
    bad: '> DTYPE(INT16)MEMM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];',
    good: '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];',
    code: 'tprog.unknown-space',
    message: /did you mean MEM/,
    at: 'MEMM',
  },
  {
    name: 'DTYPE missing',
    bad: '> DTYPE(INT16)MEM(p)[0:7] <= MEM(q)[0:7];',
    good: '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];',
    code: 'tprog.no-dtype',
    at: 'MEM',
    nth: 1,
  },
  {
    name: 'guide cast',
    bad: '> DTYPE(INT16)MEM(p)[0:7] <= (INT16)MEM(q)[0:7];',
    good: '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];',
    code: 'tprog.guide-cast',
    at: '(INT16)',
    nth: 1,
  },
  {
    name: 'SCATTER(0)',
    bad: '> SCATTER(0) DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    good: '> CONCURRENT DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    code: 'tprog.guide-scatter',
    at: 'SCATTER(0)',
  },
  {
    name: 'data types differ',
    bad: '> DTYPE(UINT8)MEM(p)[0:7] <= DTYPE(INT8)MEM(q)[0:7];',
    good: '> DTYPE(UINT8)MEM(p)[0:7] <= DTYPE(UINT8)MEM(q)[0:7];',
    code: 'tprog.dtype-mismatch',
    message: /same data type/,
    at: '<=',
  },
  {
    name: 'MEM index count',
    bad: '> DTYPE(INT16)MEM(p,4,4)[0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    good: '> DTYPE(INT16)MEM(p,4,4)[0][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    code: 'tprog.index-count',
    message: /2 dimensions but 1 index/,
    at: '(p,4,4)',
  },
  {
    name: 'MEM without address',
    bad: '> DTYPE(INT16)MEM[0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    good: '> DTYPE(INT16)MEM(p)[0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    code: 'tprog.no-address',
    at: 'MEM',
    nth: 0,
  },
  {
    name: 'SCRATCH index count',
    bad: '> SCRATCH(0,4,4)[0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    good: '> SCRATCH(0,4,4)[1][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    code: 'tprog.index-count',
    message: /Invalid SRAM reference/,
    at: '(0,4,4)',
  },
  {
    name: 'PCORE without member',
    bad: '> DTYPE(INT16)PCORE(8)[0][0] <= DTYPE(INT16)MEM(q)[0:3];',
    good: '> DTYPE(INT16)PCORE(8)[0][0].k::a[0][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    code: 'tprog.no-member',
    // the term's span, which ends after the space before <=
    at: 'DTYPE(INT16)PCORE(8)[0][0] ',
  },
  {
    name: 'unknown member',
    bad: '> DTYPE(INT16)PCORE(8)[0][0].k::b[0][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    good: '> DTYPE(INT16)PCORE(8)[0][0].k::a[0][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    code: 'tprog.unknown-member',
    message: /Undefined function parameter/,
    at: 'k::b',
  },
  {
    name: 'private without thread index',
    bad: '> DTYPE(INT16)PCORE(8)[0].k::a[0][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    good: '> DTYPE(INT16)PCORE(8)[0].THREAD[0].k::a[0][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    code: 'tprog.pcore-index-count',
    message: /Invalid range for PCORE memory space/,
    at: 'PCORE',
  },
  {
    name: 'shared with thread',
    bad: '> DTYPE(INT16)PCORE(8)[0].THREAD[0].k::sh[0][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    good: '> DTYPE(INT16)PCORE(8)[0].k::sh[0][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    code: 'tprog.shared-thread',
    at: '.THREAD[0]',
  },
  {
    name: 'member index count',
    bad: '> DTYPE(INT16)PCORE(8)[0][0].k::a[0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    good: '> DTYPE(INT16)PCORE(8)[0][0].k::a[0][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    code: 'tprog.member-index-count',
    message: /Invalid parameter reference/,
    // the term's span, which ends after the space before <=
    at: '.k::a[0:3] ',
  },
  {
    name: 'wildcard in member index',
    bad: '> DTYPE(INT16)PCORE(8)[0][0].k::a[*][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    good: '> DTYPE(INT16)PCORE(8)[0][0].k::a[0][0:3] <= DTYPE(INT16)MEM(q)[0:3];',
    code: 'tprog.member-wildcard',
    at: '[*]',
  },
  {
    name: 'accumulator is not memory (S3)',
    bad: '> DTYPE(INT16)PCORE(8)[0][0].k::acc <= DTYPE(INT16)MEM(q)[0:7];',
    good: '> DTYPE(INT16)PCORE(8)[0][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:7];',
    code: 'tprog.not-storage',
    at: 'k::acc',
  },
  {
    name: 'int class variable is not memory (S3)',
    bad: '> DTYPE(INT16)PCORE(8)[0][0].k::cnt <= INT16(3);',
    good: '> DTYPE(INT16)PCORE(8)[0][0].k::s <= INT16(3);',
    code: 'tprog.not-storage',
    at: 'k::cnt',
  },
  {
    name: 'unused FOR (compiler crash)',
    bad: '> FOR(I=0:7) DTYPE(INT16)PCORE(8)[0:7][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    good: '> FOR(I=0:7) DTYPE(INT16)PCORE(8)[I][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    code: 'tprog.for-unused',
    at: 'FOR(I=0:7)',
  },
  {
    name: 'FOR used twice (S4)',
    bad: '> FOR(I=0:7) DTYPE(INT16)PCORE(8)[I][I].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    good: '> FOR(I=0:7) DTYPE(INT16)PCORE(8)[I][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    code: 'tprog.for-twice',
    at: '[I]',
    nth: 1,
  },
  {
    name: 'index that only contains a FOR name (S5)',
    bad: 'int I = 1;\n> FOR(I=0:2) DTYPE(INT16)PCORE(8)[I][0].k::a[I+1][:] <= DTYPE(INT16)MEM(q)[0:23];',
    good: 'int I = 1;\n> FOR(I=0:2) DTYPE(INT16)PCORE(8)[I][0].k::a[1][:] <= DTYPE(INT16)MEM(q)[0:23];',
    code: 'tprog.for-expr',
    at: '[I+1]',
  },
  {
    name: '?: inside an index (S6)',
    bad: '> DTYPE(INT16)MEM(p,8)[c?1:2] <= DTYPE(INT16)MEM(q)[0:0];',
    good: '> DTYPE(INT16)MEM(p,8)[1] <= DTYPE(INT16)MEM(q)[0:0];',
    code: 'tprog.ternary-index',
    at: '[c?1:2]',
  },
  {
    name: 'sizeof as a dimension (S7)',
    bad: '> DTYPE(INT16)MEM(p,sizeof(x))[0:1] <= DTYPE(INT16)MEM(q)[0:1];',
    good: '> DTYPE(INT16)MEM(p,(sizeof(x)))[0:1] <= DTYPE(INT16)MEM(q)[0:1];',
    code: 'tprog.call-dim',
    at: 'sizeof(x)',
  },
  {
    name: 'empty index (S8)',
    bad: '> DTYPE(INT16)PCORE(8)[0][0].k::s[] <= INT16(1);',
    good: '> DTYPE(INT16)PCORE(8)[0][0].k::s <= INT16(1);',
    code: 'tprog.empty-index',
    at: '[]',
  },
  {
    // the compiler loads every word of SPU(n) whatever the index says (mcore.cpp: the SPU term's count is 256·n)
    name: 'indices on SPU are ignored',
    bad: '> SPU[0:7] <= DTYPE(INT16)MEM(p)[0:1023];',
    good: '> SPU <= DTYPE(INT16)MEM(p)[0:1023];',
    code: 'tprog.index-ignored',
    message: /moves all 1024 words/,
    at: '[0:7]',
  },
  {
    name: 'one-argument EXE with a kernel (S9)',
    bad: '> EXE_LOCKSTEP(k::run);',
    good: '> EXE_LOCKSTEP(k::run,NUM_PCORE);',
    code: 'tprog.exe-one-arg',
    at: 'k::run',
  },
  {
    name: 'unknown kernel (S10)',
    bad: '> EXE_LOCKSTEP(k::rnu,8);',
    good: '> EXE_LOCKSTEP(k::run,8);',
    code: 'tprog.unknown-kernel',
    message: /did you mean k::run/,
    at: 'k::rnu',
  },
  { name: 'PCORE count out of range', bad: '> EXE_LOCKSTEP(k::run,9);', good: '> EXE_LOCKSTEP(k::run,8);', code: 'tprog.exe-np', at: '9' },
  { name: 'thread count out of range', bad: '> EXE_LOCKSTEP(k::run,8,17);', good: '> EXE_LOCKSTEP(k::run,8,16);', code: 'tprog.exe-nt', at: '17' },
  {
    name: '$v[x] without placeholder (S11)',
    bad: '> $v := DTYPE(INT16)MEM(q,8,8)[0][:];\n> DTYPE(INT16)MEM(p)[0:7] <= $v[3];',
    good: '> $v := DTYPE(INT16)MEM(q,8,8)[$][:];\n> DTYPE(INT16)MEM(p)[0:7] <= $v[3];',
    code: 'tprog.var-index-ignored',
    at: '[3]',
  },
  {
    name: 'PAD on a destination (S12)',
    bad: '> PAD(1) DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];',
    good: '> DTYPE(INT16)MEM(p)[0:7] <= PAD(1) DTYPE(INT16)MEM(q)[0:7];',
    code: 'tprog.no-effect',
    at: 'PAD',
  },
  {
    name: 'negative destination index (S13)',
    bad: '> DTYPE(INT16)MEM(p,8,8)[-1:0][:] <= DTYPE(INT16)MEM(q)[0:15];',
    good: '> DTYPE(INT16)MEM(p,8,8)[0:1][:] <= DTYPE(INT16)MEM(q)[0:15];',
    code: 'tprog.negative-dest',
    at: '[-1:0]',
  },
  {
    name: 'REMAP stream >= 4 (S17)',
    bad: '> REMAP(5) DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    good: '> REMAP(1) DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    code: 'tprog.remap-range',
    at: '5',
  },
  {
    name: 'REMAP on MEM',
    bad: '> DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= REMAP(1) DTYPE(INT16)MEM(q)[0:63];',
    good: '> REMAP(1) DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    code: 'tprog.remap-space',
    at: 'REMAP(1)',
  },
  {
    name: 'REMAP on both sides',
    bad: '> REMAP(1) DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= REMAP(1) DTYPE(INT16)PCORE(8)[:][1].k::a[0][:];',
    good: '> REMAP(1) DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)PCORE(8)[:][1].k::a[0][:];',
    code: 'tprog.remap-both',
    at: 'REMAP(1)',
    nth: 1,
  },
  {
    name: 'CONCURRENT on MEM',
    bad: '> DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= CONCURRENT DTYPE(INT16)MEM(q)[0:63];',
    good: '> DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    code: 'tprog.concurrent-space',
    message: /SCATTER is only for PCORE/,
    at: 'CONCURRENT DTYPE(INT16)MEM(q)[0:63]',
  },
  {
    name: 'global assignment needs a constant',
    bad: '> k::run.g <= DTYPE(INT16)MEM(q)[0:0];',
    good: '> k::run.g <= INT16(4);',
    code: 'tprog.global-assign',
    at: 'DTYPE(INT16)MEM(q)[0:0]',
  },
  {
    name: 'global assignment to a non-_global parameter',
    bad: '> k::run.bias <= INT16(4);',
    good: '> k::run.g <= INT16(4);',
    code: 'tprog.not-global',
    at: 'k::run.bias',
  },
  {
    name: 'tensor variable not defined',
    bad: '> DTYPE(INT16)MEM(p)[0:7] <= $nope;',
    good: '> $nope := DTYPE(INT16)MEM(q)[0:7];\n> DTYPE(INT16)MEM(p)[0:7] <= $nope;',
    code: 'tprog.undefined-var',
    at: '$nope',
  },
  {
    name: 'more than 7 tensor variables',
    bad: [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `> $v${i} := DTYPE(INT16)MEM(q)[0:7];`).join('\n'),
    good: [1, 2, 3, 4, 5, 6, 7].map((i) => `> $v${i} := DTYPE(INT16)MEM(q)[0:7];`).join('\n'),
    code: 'tprog.too-many-vars',
    at: '$v8',
  },
  {
    name: 'empty range',
    bad: '> DTYPE(INT16)MEM(p)[7:0] <= DTYPE(INT16)MEM(q)[0:7];',
    good: '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];',
    code: 'tprog.empty-range',
    at: '[7:0]',
  },
  {
    name: 'count mismatch',
    bad: '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:3];',
    good: '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];',
    code: 'tprog.count-mismatch',
    message: /receive the PAD value 0/,
    at: '<=',
  },
  {
    name: 'out-of-bound writes',
    bad: '> DTYPE(INT16)MEM(p,4,4)[0:3][2:5] <= DTYPE(INT16)MEM(q)[0:15];',
    good: '> DTYPE(INT16)MEM(p,4,4)[0:3][0:3] <= DTYPE(INT16)MEM(q)[0:15];',
    code: 'tprog.write-skipped',
    message: /8 of 16 destination elements/,
    // the term's span, which ends after the space before <=
    at: 'DTYPE(INT16)MEM(p,4,4)[0:3][2:5] ',
  },
  {
    name: 'PCORE count above 8',
    bad: '> DTYPE(INT16)PCORE(16)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:127];',
    good: '> DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    code: 'tprog.pcore-count',
    at: '(16)',
  },
  {
    name: 'PCORE dims not power of two',
    bad: '> DTYPE(INT16)PCORE(3,2)[:][:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:47];',
    good: '> DTYPE(INT16)PCORE(4,2)[:][:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    code: 'tprog.pcore-pow2',
    at: '(3,2)',
  },
  {
    name: 'THREAD with three dims',
    bad: '> DTYPE(INT16)PCORE(8)[0].THREAD(2,2,4)[0][0][0].k::s <= INT16(1);',
    good: '> DTYPE(INT16)PCORE(8)[0].THREAD(4,4)[0][0].k::s <= INT16(1);',
    code: 'tprog.thread-spec',
    at: '(2,2,4)',
  },
  {
    name: 'range with four parts',
    bad: '> DTYPE(INT16)MEM(p)[0:1:2:3] <= DTYPE(INT16)MEM(q)[0:3];',
    good: '> DTYPE(INT16)MEM(p)[0:1:3] <= DTYPE(INT16)MEM(q)[0:3];',
    code: 'tprog.bad-range',
    at: '0:1:2:3',
  },
  { name: 'missing separator', bad: '> BARRIER BARRIER;', good: '> BARRIER; BARRIER;', code: 'tprog.syntax', at: 'B', nth: 1 },
  {
    name: 'non-transfer joined with a comma',
    bad: '> EXE_LOCKSTEP(k::run,8), BARRIER;',
    good: '> BARRIER, BARRIER;',
    code: 'tprog.concurrent-kind',
    at: 'EXE_LOCKSTEP(k::run,8)',
  },
  { name: 'unclosed comment on a > line', bad: '> BARRIER; /* note', good: '> BARRIER; /* note */', code: 'tprog.invalid-comment', at: '/* note' },
  {
    name: 'names glued across > lines (S2)',
    bad: '> CONCURRENT\n> DTYPE(INT16)PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    good: '> CONCURRENT DTYPE(INT16)\n> PCORE(8)[:][0].k::a[0][:] <= DTYPE(INT16)MEM(q)[0:63];',
    code: 'tprog.glued-names',
    at: 'T\n> D',
  },
  { name: 'unterminated statement (S1)', bad: '> BARRIER', good: '> BARRIER;', code: 'tprog.unterminated', at: '> BARRIER' },
  { name: 'CALLBACK arguments', bad: '> CALLBACK(f);', good: '> CALLBACK(f,1);', code: 'tprog.bad-args', at: 'f' },
];

/** LSP position (line, character) of a character offset of `text`. */
function positionAt(text: string, offset: number): { line: number; character: number } {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
}

const wrap = (body: string) => `#include <stdint.h>\nvoid f(uint32_t p, uint32_t q, int c, int x, int f) {\n${body}\n}\n`;

for (const c of cases) {
  test(`diagnostic: ${c.name}`, () => {
    const bad = analyze(wrap(c.bad), P, 'ztachip');
    const hit = bad.diagnostics.find((d) => d.code === c.code);
    assert.ok(hit, `expected ${c.code}; got ${bad.diagnostics.map((d) => d.code + ': ' + d.message).join(' | ') || 'nothing'}`);
    if (c.message) assert.match(hit.message, c.message);
    // the exact range: start and end of c.at (its nth occurrence) in the wrapped text, as LSP line/character
    const occurrences = c.bad.split(c.at).length - 1;
    assert.ok(c.nth === undefined ? occurrences === 1 : c.nth < occurrences, `'${c.at}' occurs ${occurrences} times in the case: give nth`);
    let k = -1;
    for (let n = 0; n <= (c.nth ?? 0); n++) k = c.bad.indexOf(c.at, k + 1);
    const text = wrap(c.bad);
    const from = text.indexOf(c.bad) + k;
    assert.deepEqual(
      bad.diagnostics.filter((d) => d.code === c.code).map((d) => d.range),
      [{ start: positionAt(text, from), end: positionAt(text, from + c.at.length) }],
      `${c.code} must cover '${c.at}'${c.nth ? ` (occurrence ${c.nth})` : ''}`,
    );
    const good = analyze(wrap(c.good), P, 'ztachip');
    assert.deepEqual(
      good.diagnostics.filter((d) => d.code === c.code).map((d) => d.message),
      [],
      'corrected form is clean',
    );
  });
}

test('one broken statement does not hide the diagnostics of the others', () => {
  const a = analyze(wrap('> DTYPE(INT16)MEM(p)[0:7 <= oops;\n> DTYPE(INT16)MEMM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];\n> EXE_LOCKSTEP(k::run);'), P, 'ztachip');
  const lines = a.diagnostics.map((d) => `${d.range.start.line}:${d.code}`);
  assert.ok(
    lines.some((l) => l.startsWith('2:')),
    lines.join(','),
  );
  assert.ok(lines.includes('3:tprog.unknown-space'), lines.join(','));
  assert.ok(lines.includes('4:tprog.exe-one-arg'), lines.join(','));
});

test('exact range of a diagnostic', () => {
  const a = analyze(wrap('   > DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEMM(q)[0:7];'), P, 'ztachip');
  const d = a.diagnostics.find((x) => x.code === 'tprog.unknown-space')!;
  // line 3 (0-based 2), `MEMM` starts after "   > DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)"
  assert.deepEqual(d.range, { start: { line: 2, character: 44 }, end: { line: 2, character: 48 } });
  assert.deepEqual(d.fixes?.[0].edits[0].newText, 'MEM');
});

test('quick fixes rewrite the guide dialect into the compiler dialect', () => {
  const text = wrap('> DTYPE(INT16)MEM(p)[0:7] <= (INT16)DDR(q)[0:7];');
  const a = analyze(text, P, 'ztachip');
  const edits = a.diagnostics.flatMap((d) => d.fixes?.[0]?.edits ?? []);
  const lines = text.split('\n');
  // apply edits right to left on line 2
  const line = lines[2];
  const sorted = [...edits].sort((x, y) => y.range.start.character - x.range.start.character);
  let fixed = line;
  for (const e of sorted) fixed = fixed.slice(0, e.range.start.character) + e.newText + fixed.slice(e.range.end.character);
  assert.equal(fixed, '> DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(q)[0:7];');
  lines[2] = fixed;
  assert.deepEqual(
    analyze(lines.join('\n'), P, 'ztachip').diagnostics.map((d) => d.code),
    [],
  );
});

test('dialect setting: guide constructs are errors in ztachip mode and hints in guide mode', () => {
  const body = wrap('> PCORE[0].THREAD[0].k::a[0][0:3] <= DDR(q)[0:3];');
  assert.equal(analyze(body, P, 'ztachip').diagnostics.find((d) => d.code === 'tprog.guide-ddr')?.severity, 'error');
  const g = analyze(body, P, 'guide');
  assert.equal(g.diagnostics.find((d) => d.code === 'tprog.guide-ddr')?.severity, 'hint');
  assert.equal(g.diagnostics.filter((d) => d.severity === 'error').length, 0);
  // auto: a file with only guide constructs reads as guide
  assert.equal(analyze(body, P, 'auto').dialect, 'guide');
});

test('tensor variables follow brace scopes; VAR keeps them alive', () => {
  const scoped = analyze(wrap('if (c) {\n> $t := DTYPE(INT16)MEM(q)[0:7];\n}\n> DTYPE(INT16)MEM(p)[0:7] <= $t;'), P, 'ztachip');
  assert.match(scoped.diagnostics.find((d) => d.code === 'tprog.undefined-var')!.message, /scope that has closed/);
  const declared = analyze(wrap('> VAR $t;\nif (c) {\n> $t := DTYPE(INT16)MEM(q)[0:7];\n}\n> DTYPE(INT16)MEM(p)[0:7] <= $t;'), P, 'ztachip');
  assert.equal(declared.diagnostics.filter((d) => d.code === 'tprog.undefined-var').length, 0);
});

test('values from #define, local constants and included headers feed the checks', () => {
  const a = analyze(
    '#define N 4\nvoid f(unsigned p,unsigned q){\nint m = N*2;\n> DTYPE(INT16)MEM(p,N,N)[0:N-1][0:m-1] <= DTYPE(INT16)MEM(q)[0:31];\n}\n',
    P,
    'ztachip',
  );
  assert.match(a.diagnostics.find((d) => d.code === 'tprog.write-skipped')!.message, /16 of 32 destination/);
  // a variable assigned again later is not a constant
  const b = analyze(
    'void f(unsigned p,unsigned q){\nint m = 4;\nm = m + 4;\n> DTYPE(INT16)MEM(p,4,4)[0:3][0:m-1] <= DTYPE(INT16)MEM(q)[0:15];\n}\n',
    P,
    'ztachip',
  );
  assert.equal(b.diagnostics.filter((d) => d.code === 'tprog.write-skipped').length, 0);
});

test('address ranges of MEM terms are shown as 32-bit addresses (a negative constant base wraps)', () => {
  const a = analyze('void k(void) {\n   > DTYPE(INT16)MEM(-16)[0:7] <= DTYPE(INT16)MEM(0x1000)[0:7];\n}\n');
  const [s] = stmts(a);
  // 8 INT16 elements from -16 = 0xfffffff0 (what a 32-bit address register holds) and from 0x1000
  assert.equal(addressRange(s.dst!.desc), 'bytes 0xfffffff0–0xffffffff (16 bytes span)');
  assert.equal(addressRange(s.src!.desc), 'bytes 0x1000–0x100f (16 bytes span)');
});
