/**
 * Single mistakes in tensor statements that the ztachip compiler rejects (or aborts on), or that it
 * copies into generated C that does not compile — each must be an error with an exact range and a
 * message that says what to write — and real constructs that must stay silent (issue #18, defects 7
 * and 8). The programs are small kernels written for these tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeTprog, ParseCache } from '../../core/tprog/analyze';
import type { Diagnostic } from '../../core/common/diagnostic';
import { analyze } from '../helpers/tprog';

const P = `
int16 k::a[8];
vint16 k::b[8];
_share vint16 k::sh[16];
_kernel_ void k::run() { }
_kernel_ void k::two() { }
`;

/** A host function around `body`: `p` and `q` are addresses, `n` a count, `req` a typedef'd struct pointer. */
const prog = (body: string, prelude = '') => `#include <stdint.h>
typedef struct {
   uint32_t in;
   uint32_t filter[2];
   int filterLen[2];
} Req;
${prelude}
void f(void *_p, uint32_t p, uint32_t q, int n) {
   Req *req=(Req *)_p;
${body}
}
`;

function check(body: string, prelude = ''): { text: string; diags: Diagnostic[] } {
  const text = prog(body, prelude);
  return { text, diags: analyze(text, P, 'ztachip').diagnostics };
}

/** The range of `inner` inside the first `where` of the last `>` line of `text` (the statement under test). */
function rangeOf(text: string, where: string, inner: string) {
  const line = text.lastIndexOf('\n   >');
  const w = text.indexOf(where, line);
  assert.ok(line >= 0 && w >= 0, `${where} not in the statement`);
  const at = w + where.indexOf(inner);
  assert.ok(at >= w, `${inner} not in ${where}`);
  const pos = (o: number) => {
    const before = text.slice(0, o);
    return { line: before.split('\n').length - 1, character: o - before.lastIndexOf('\n') - 1 };
  };
  return { start: pos(at), end: pos(at + inner.length) };
}

/**
 * The only diagnostic of the program, which must have `code`, `severity`, the range of `inner` inside
 * `where` (the whole of `where` when `inner` is not given) and a message matching `message`.
 */
function expectOne(
  r: { text: string; diags: Diagnostic[] },
  code: string,
  severity: string,
  where: string,
  inner: string | undefined,
  message: RegExp,
): Diagnostic {
  assert.deepEqual(
    r.diags.map((d) => d.code),
    [code],
    r.diags.map((d) => d.message).join(' | '),
  );
  const d = r.diags[0];
  assert.equal(d.severity, severity);
  assert.deepEqual(d.range, rangeOf(r.text, where, inner ?? where));
  assert.match(d.message, message);
  return d;
}

const MEM8 = 'DTYPE(INT16)MEM(p)[0:63]';

test('an array of kernel words indexed by a struct field expression is no mistake (resize.m EXE_LOCKSTEP)', () => {
  const r = check('   uint32_t kfunc[2]={$k::run,$k::two};\n   int np=8;\n   >EXE_LOCKSTEP(kfunc[req->filterLen[0]-1],np);');
  assert.deepEqual(r.diags, []);
});

test('locals declared with a typedef type, enum constants, functions and macros are C names', () => {
  const r = check(
    '   Req *r2=req;\n   struct Req2 *r3;\n   >DTYPE(INT16)PCORE(8)[:][0].k::a[ROWS-1] <= DTYPE(INT16)MEM(r2->in,ROWS,8)[:][LAST+base(n)];',
    '#define ROWS 1\nenum { LAST = 0 };\nstatic int base(int x) { return 0; }',
  );
  assert.deepEqual(r.diags, []);
});

test('FOR declared twice, with an index not bound to a FOR: error on the second name (the compiler aborts)', () => {
  const r = check(`   >FOR(K=0:7) FOR(K=0:15) DTYPE(INT16)PCORE(8)[K][0:15].k::a[:] <= DTYPE(INT16)MEM(p)[0:1023];`);
  const d = expectOne(
    r,
    'tprog.for-duplicate',
    'error',
    'FOR(K=0:15)',
    'K',
    /FOR name K is declared twice.*takes the first FOR\(K=0:7\).*aborts.*index < MAX_DP_STRIDE/,
  );
  assert.match(d.message, /`FOR\(K2=0:15\)`.*`\[K2\]`/);
});

test('FOR declared twice, every index bound to an earlier FOR: error, the second range is dropped', () => {
  const r = check(`   >FOR(I=0:7) FOR(J=0:15) FOR(L=0:7) FOR(L=0:3) DTYPE(INT16)PCORE(8)[I][J].k::a[L] <= DTYPE(INT16)MEM(p)[0:1023];`);
  expectOne(r, 'tprog.for-duplicate', 'error', 'FOR(L=0:3)', 'L', /declared twice.*silently drops its range/);
});

test('unused FOR with an index not bound to a FOR: error, the compiler aborts on its assertion', () => {
  const r = check(`   >FOR(K=0:3) DTYPE(INT16)PCORE(8)[:][0:15].k::a[:] <= DTYPE(INT16)MEM(p)[0:1023];`);
  expectOne(
    r,
    'tprog.for-unused',
    'error',
    'FOR(K=0:3)',
    undefined,
    /FOR\(K=0:3\) is not used.*aborts.*assertion `index < MAX_DP_STRIDE` in getStrideRegisterIndex.*Write `\[K\]`/,
  );
});

test('unused FOR before a used one, every index bound: error (the used FOR is pushed past the last register)', () => {
  const r = check(`   >FOR(K=0:3) FOR(I=0:7) FOR(J=0:15) FOR(L=0:7) DTYPE(INT16)PCORE(8)[I][J].k::a[L] <= DTYPE(INT16)MEM(p)[0:1023];`);
  expectOne(r, 'tprog.for-unused', 'error', 'FOR(K=0:3)', undefined, /aborts/);
});

test('unused FOR after every used one, every index bound: a warning, the compiler ignores it', () => {
  const r = check(`   >FOR(I=0:7) FOR(J=0:15) FOR(L=0:7) FOR(K=0:3) DTYPE(INT16)PCORE(8)[I][J].k::a[L] <= DTYPE(INT16)MEM(p)[0:1023];`);
  expectOne(r, 'tprog.for-unused', 'warning', 'FOR(K=0:3)', undefined, /ignores it here because every index follows an earlier FOR/);
});

test('an index name that is neither a FOR of its term nor a C name is an error (a renamed FOR)', () => {
  const r = check(`   >DTYPE(INT16)PCORE(8)[II][0:15].k::a[:] <= DTYPE(INT16)MEM(p)[0:127];`);
  expectOne(r, 'tprog.unknown-name', 'error', '[II]', 'II', /`II` is neither a FOR name of this term nor a C variable.*does not compile/);
  assert.deepEqual(check(`   int II=0;\n   >DTYPE(INT16)PCORE(8)[II][0:15].k::a[:] <= DTYPE(INT16)MEM(p)[0:127];`).diags, []);
});

test('a FOR name used in the other term of the transfer is not declared there', () => {
  const r = check(`   >FOR(I=0:7) DTYPE(INT16)PCORE(8)[I][0].k::a[0] <= DTYPE(INT16)MEM(p,8)[I];`);
  expectOne(r, 'tprog.unknown-name', 'error', 'MEM(p,8)[I]', 'I', /`I` is neither a FOR name of this term/);
});

test('a FOR name inside an index expression, with no C variable of that name, is an error', () => {
  const r = check(`   >FOR(I=0:6) DTYPE(INT16)PCORE(8)[I][0].k::a[I+1] <= DTYPE(INT16)MEM(p)[0:6];`);
  expectOne(r, 'tprog.unknown-name', 'error', 'k::a[I+1]', 'I', /`I` here is not the FOR index I: only an index written exactly `\[I\]`/);
});

test('undeclared names in dimensions, FOR ranges and EXE arguments', () => {
  expectOne(check(`   >DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= DTYPE(INT16)MEM(p,nn)[0:63];`), 'tprog.unknown-name', 'error', 'nn', undefined, /`nn`/);
  expectOne(
    check(`   >FOR(I=0:last) DTYPE(INT16)PCORE(8)[I][0].k::a[:] <= DTYPE(INT16)MEM(p)[0:63];`),
    'tprog.unknown-name',
    'error',
    'last',
    undefined,
    /`last`/,
  );
  expectOne(check(`   >EXE_LOCKSTEP(k::run,npp);`), 'tprog.unknown-name', 'error', 'npp', undefined, /`npp`/);
});

test('a struct field used as a variable (`req-in` for `req->in`): an error, the generated C does not compile', () => {
  // `in` occurs in the C code only as a field of Req and after `->`: neither declares a variable
  const r = check(`   uint32_t x = req->in;\n   >DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= DTYPE(INT16)MEM(req-in)[0:63];`);
  expectOne(r, 'tprog.unknown-name', 'error', 'MEM(req-in)', 'in', /`in` is neither a FOR name of this term nor a C variable/);
  // the same name declared as a variable too is fine
  assert.deepEqual(check(`   uint32_t in = req->in;\n   >DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= DTYPE(INT16)MEM(in)[0:63];`).diags, []);
});

test('a name that may come from a header that was not found is only information', () => {
  const r = check(`   >DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= DTYPE(INT16)MEM(p,HDR_SIZE)[0:63];`, '#include "not_here.h"');
  expectOne(r, 'tprog.unknown-name', 'information', 'HDR_SIZE', undefined, /an included header was not found/);
});

test('an unclosed `[` inside a MEM argument is an error at that bracket', () => {
  const r = check(`   >DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= DTYPE(INT16)MEM(req->filter[[1])[0:63];`);
  expectOne(r, 'tprog.unbalanced', 'error', 'filter[', '[', /this `\[` is not closed before the `\)` that ends the group.*does not compile.*Add its `\]`/);
});

test('a `]` without its `[` inside parentheses, and an unclosed `(` inside an index', () => {
  expectOne(
    check(`   >DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= DTYPE(INT16)MEM(p])[0:63];`),
    'tprog.unbalanced',
    'error',
    'MEM(p])',
    ']',
    /this `\]` has no matching `\[`/,
  );
  expectOne(check(`   >DTYPE(INT16)PCORE(8)[:][0].k::a[0:(7] <= ${MEM8};`), 'tprog.unbalanced', 'error', '(7]', '(', /this `\(` is not closed before the `\]`/);
});

test('a `;` inside brackets is an error', () => {
  expectOne(check(`   >DTYPE(INT16)PCORE(8)[0:7;][0].k::a[:] <= ${MEM8};`), 'tprog.syntax', 'error', '7;]', ';', /a `;` inside `\[ \]`/);
});

test('an expression that ends with an operator is an error', () => {
  expectOne(
    check(`   >DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= DTYPE(INT16)MEM(p)[0:n+];`),
    'tprog.dangling-operator',
    'error',
    'n+]',
    '+',
    /`n\+` ends with `\+`/,
  );
  assert.deepEqual(
    check(`   int i=0;\n   >DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= DTYPE(INT16)MEM(p,64+)[i++:63];`).diags.filter((d) => d.code === 'tprog.dangling-operator'),
    [],
  );
});

test('an empty dimension after a comma is an error at the comma', () => {
  expectOne(check(`   >DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= DTYPE(INT16)MEM(p,)[0:63];`), 'tprog.empty-item', 'error', 'MEM(p,)', ',', /Empty dimension/);
});

test('REMAP twice on a term is an error on the second', () => {
  const r = check(`   >REMAP(0) REMAP(1) DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= ${MEM8};`);
  expectOne(r, 'tprog.multiple', 'error', 'REMAP(1)', undefined, /Invalid REMAP specifier: REMAP is given twice/);
});

test('an undeclared name stops being reported when a later edit declares it elsewhere in C', () => {
  const cache = new ParseCache();
  const stmt = `   >DTYPE(INT16)PCORE(8)[II][0:15].k::a[:] <= DTYPE(INT16)MEM(p)[0:127];`;
  const before = analyzeTprog(prog(stmt), { file: '/t/x.m', cache, dialect: 'ztachip' });
  assert.deepEqual(
    before.diagnostics.map((d) => d.code),
    ['tprog.unknown-name'],
  );
  const after = analyzeTprog(prog(stmt, 'enum { II = 0 };'), { file: '/t/x.m', cache, dialect: 'ztachip' });
  assert.deepEqual(
    after.diagnostics.map((d) => d.code),
    [],
  );
});

test('variables and functions declared in an included header are C names; an unknown name is still an error', async () => {
  const { Project } = await import('../../core/project/project');
  const { loadPcoreView } = await import('../../core/project/pcoreAdapter');
  const files: Record<string, string> = {
    '/w/k.h': '#ifndef K_H\n#define K_H\nextern uint32_t g_len;\nint row_of(int x);\n#endif\n',
    '/w/k.p': P,
    '/w/k.m': prog(
      '   >DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= DTYPE(INT16)MEM(p,g_len)[row_of(n):row_of(n)+7];\n' +
        '   >DTYPE(INT16)PCORE(8)[:][0].k::a[:] <= DTYPE(INT16)MEM(p,g_lem)[0:7];',
      '#include "k.h"',
    ),
  };
  const project = new Project({ fs: { read: (f) => files[f] }, loadPcore: loadPcoreView, dialect: 'ztachip' });
  const a = project.analyze('/w/k.m')!;
  assert.deepEqual(
    a.diagnostics.map((d) => [d.code, d.severity, d.range.start.line]),
    [['tprog.unknown-name', 'error', 10]],
  );
  assert.match(a.diagnostics[0].message, /`g_lem`/);
});
