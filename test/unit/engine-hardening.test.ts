/**
 * Issue #16 items 1, 3, 6 and CR-only line ends: inputs that made the engine run out of memory or
 * time, checked for the located error or the linear work that replaced them (timings are in the
 * bench, not here).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_LIST_ITEMS, parseLayout } from '../../core/layout/parse';
import { analyzeLayout } from '../../core/layout/analyze';
import { scanTensorLines } from '../../core/tprog/lines';
import { analyzeTprog } from '../../core/tprog/analyze';
import { LineIndex, lfLineEnds } from '../../core/common/lineIndex';
import { MACRO_OUTPUT_LIMIT, preprocess as hostPreprocess } from '../../core/sim/host/preprocess';
import { SimError } from '../../core/sim/types';
import { preprocess as pcorePreprocess } from '../../core/pcore/preprocessor';
import { lex as pcoreLex } from '../../core/pcore/lexer';
import { DiagnosticSink } from '../../core/pcore/diagnostics';

// ---- item 1: list lengths in layout specs

const strided = (n: number) => `target host\ntensor x: float32[2,3] = strided(strides=[${Array(n).fill('1').join(',')}])\n`;

test(`a layout list of more than ${MAX_LIST_ITEMS} items is an error at the first item past the bound, and only the bound is kept`, () => {
  const text = strided(MAX_LIST_ITEMS + 1);
  const f = parseLayout(text);
  const e = f.errors.find((x) => /more than 1024 items in one list/.test(x.message));
  assert.ok(e, JSON.stringify(f.errors));
  // the 1025th `1`: after 1024 items and their commas
  const listStart = text.indexOf('[', text.indexOf('strides')) + 1;
  assert.equal(e.span.start, listStart + 2 * MAX_LIST_ITEMS);
  assert.equal(text.slice(e.span.start, e.span.end), '1');
  const call = f.stmts[1].kind === 'tensor' ? f.stmts[1].layout[0] : undefined;
  assert.ok(call && call.kind === 'call');
  const list = call.args[0].value;
  assert.ok(list.kind === 'list');
  assert.equal(list.items.length, MAX_LIST_ITEMS);
  // the statement after the long list is still read
  const after = parseLayout(strided(MAX_LIST_ITEMS + 5) + 'tensor y: float32[4] = strided()\n');
  assert.equal(after.stmts.filter((s) => s.kind === 'tensor').length, 2);
  // the bound error reaches the diagnostics with its line and column
  const a = analyzeLayout(text, 'l.tlayout');
  const d = a.diagnostics.find((x) => /more than 1024 items/.test(x.message));
  assert.ok(d);
  assert.deepEqual(d.range.start, { line: 1, character: a.lines.position(e.span.start).character });
});

test('a list at the bound is not an error (shapes, call arguments and lists alike)', () => {
  const f = parseLayout(strided(MAX_LIST_ITEMS));
  assert.ok(!f.errors.some((x) => /items in one list/.test(x.message)));
  const shape = parseLayout(
    `tensor x: float32[${Array(MAX_LIST_ITEMS + 1)
      .fill('1')
      .join(',')}] = strided()\n`,
  );
  assert.ok(shape.errors.some((x) => /more than 1024 items in one list/.test(x.message)));
});

// ---- item 3: `>` lines scanned in linear time

/** Characters `String.prototype.indexOf` looked at while `f` ran (the searches that ran to the end of the file). */
function indexOfWork(f: () => void): number {
  const proto = String.prototype as { indexOf: (s: string, from?: number) => number };
  const orig = proto.indexOf;
  let work = 0;
  proto.indexOf = function (this: string, s: string, from = 0) {
    const r = orig.call(this, s, from);
    work += (r < 0 ? this.length : r) - Math.max(0, from);
    return r;
  };
  try {
    f();
  } finally {
    proto.indexOf = orig;
  }
  return work;
}

test('scanning `>` lines without comments searches the text a bounded number of times per character (it was once per line)', () => {
  const line = '> DTYPE(INT16)MEM(0)[0:3] <= DTYPE(INT16)MEM(0)[4:7];\n';
  const text = 'void f(void){\n' + line.repeat(2000) + '}\n';
  let scan!: ReturnType<typeof scanTensorLines>;
  const work = indexOfWork(() => (scan = scanTensorLines(text)));
  assert.equal(scan.statements.length, 2000);
  // linear: a few passes over the text; the quadratic search was ~1000 passes
  assert.ok(work < 10 * text.length, `indexOf looked at ${work} characters of a ${text.length}-character text`);
  // comments on `>` lines are still removed
  const withComment = scanTensorLines('void f(void){\n> A[0:3] <= B[0:3]; // note\n> C[0:3] /* x */ <= D[0:3];\n}\n');
  assert.deepEqual(
    withComment.statements.map((s) => s.text),
    ['A[0:3] <= B[0:3];', 'C[0:3]         <= D[0:3];'],
  );
});

test('a block comment left open over many C lines is searched once, not once per line', () => {
  const text = 'void f(void){\n/* open\n' + 'int a;\n'.repeat(3000) + '}\n';
  const work = indexOfWork(() => scanTensorLines(text));
  assert.ok(work < 10 * text.length, `indexOf looked at ${work} characters of a ${text.length}-character text`);
  // and a `>` line inside it is still reported as such
  const inside = scanTensorLines('/* open\n> A[0:3] <= B[0:3];\n');
  assert.ok(inside.problems.some((p) => p.kind === 'in-block-comment'));
});

// ---- CR-only line ends

const LF_PROGRAM = 'void f(void)\n{\n> DTYPE(INT16)MEM(0)[0:3] <= DTYPE(INT16)MEM(0)[4:8];\n}\n';

test('a CR-only tensor program reports a mistake on line 3 where an LF one does (same line, column and message)', () => {
  const diag = (text: string) => analyzeTprog(text, { file: 'x.m' }).diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code}`);
  const lf = diag(LF_PROGRAM);
  assert.ok(
    lf.some((d) => d.startsWith('2:')),
    JSON.stringify(lf),
  );
  assert.deepEqual(diag(LF_PROGRAM.replace(/\n/g, '\r')), lf);
  assert.deepEqual(diag(LF_PROGRAM.replace(/\n/g, '\r\n')), lf);
  // mixed: CR, LF and CRLF in one file
  const lines = LF_PROGRAM.split('\n');
  assert.deepEqual(diag(lines[0] + '\r' + lines[1] + '\r\n' + lines[2] + '\n' + lines[3] + '\r'), lf);
});

test('lfLineEnds keeps lengths and offsets, and LineIndex counts the same lines before and after', () => {
  const t = 'a\rb\r\nc\nd\r\re';
  const u = lfLineEnds(t);
  assert.equal(u, 'a\nb\r\nc\nd\n\ne');
  assert.equal(u.length, t.length);
  assert.deepEqual(new LineIndex(u).starts, new LineIndex(t).starts);
  const plain = 'x\r\ny\n';
  assert.equal(lfLineEnds(plain), plain);
});

test('C directives and comments of a CR-only program end at their line end', () => {
  // the `//` comment on line 1 must not swallow the macro and the statement after it
  const text = '// note\r#define N 4\rvoid f(void)\r{\r> DTYPE(INT16)MEM(0)[0:N-1] <= DTYPE(INT16)MEM(0)[4:8];\r}\r';
  const a = analyzeTprog(text, { file: 'x.m' });
  const d = a.diagnostics.find((x) => x.code === 'tprog.count-mismatch');
  assert.ok(d, JSON.stringify(a.diagnostics.map((x) => x.message)));
  assert.equal(d.range.start.line, 4);
});

// ---- item 6: macro expansion bounded in both preprocessors

const EXPONENTIAL = '#define G(x) x+x+x+x+x+x+x+x+x+x\n#define H(x) G(G(G(G(G(G(G(G(G(x)))))))))\nint z = H(1);\n';

test('the host preprocessor stops an exponential expansion with a compile error at the macro use', () => {
  const run = (text: string) => hostPreprocess({ file: 'x.c', text, units: [], defines: {}, reserved: new Set(), knownHeaders: new Set() });
  let err: unknown;
  try {
    run(EXPONENTIAL);
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof SimError, String(err));
  assert.equal(err.kind, 'compile');
  assert.match(err.message, /macro expansion too large/);
  assert.match(err.message, new RegExp(MACRO_OUTPUT_LIMIT.toLocaleString('en-US')));
  assert.deepEqual(err.loc && { line: err.loc.line, column: err.loc.column }, { line: 3, column: 9 });
  // five levels (10^5 ones) are fine
  const five = run('#define G(x) x+x+x+x+x+x+x+x+x+x\nint z = G(G(G(G(G(1)))));\n');
  assert.equal(five.toks.filter((t) => t.v === '1').length, 100_000);
});

test('the PCORE preprocessor reports an expansion past its bound once, at the macro use, and stops', () => {
  const sink = new DiagnosticSink();
  const r = pcorePreprocess(EXPONENTIAL, pcoreLex(EXPONENTIAL, sink), { file: 'x.p' }, sink);
  const errs = sink.items.filter((d) => /macro expansion is too large/.test(d.message));
  assert.equal(errs.length, 1);
  assert.equal(EXPONENTIAL.slice(errs[0].start, errs[0].start + 1), 'H');
  assert.ok(r.tokens.length < 200_000, `${r.tokens.length} tokens`);
  // four levels (10^4 ones) expand completely, without a diagnostic
  const ok = new DiagnosticSink();
  const src4 = '#define G(x) x+x+x+x+x+x+x+x+x+x\nint z = G(G(G(G(1))));\n';
  const r4 = pcorePreprocess(src4, pcoreLex(src4, ok), { file: 'x.p' }, ok);
  assert.equal(ok.items.length, 0);
  assert.equal(r4.tokens.filter((t) => t.text === '1').length, 10_000);
});
