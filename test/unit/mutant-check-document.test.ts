/**
 * checkDocument's own paths, found unasserted by mutation testing (npm run mutate -- check): the physical-layer
 * problems (a `>` line inside a block comment, a line longer than the compiler reads), the unterminated statement's
 * quick fix and that it is not also reported as a missing `;`, tensor-variable definitions (their term is checked,
 * one `[$]` only), and the per-unit memo: a statement whose diagnostics name an undeclared C name is checked again
 * when the C code declares it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import { Project } from '../../core/project/project';
import { loadPcoreView } from '../../core/project/pcoreAdapter';

const inFunction = (body: string) => `void f(int q) {\n${body}\n}\n`;

test('a > line inside a C block comment is a warning over that line', () => {
  const a = analyze(inFunction('/*\n> BARRIER;\n*/'));
  // line 2 is "> BARRIER;" (10 characters)
  assert.deepEqual(
    a.diagnostics.map((d) => [d.code, d.severity, d.range]),
    [['tprog.in-comment', 'warning', { start: { line: 2, character: 0 }, end: { line: 2, character: 10 } }]],
  );
  assert.match(a.diagnostics[0].message, /inside a C block comment, but the ztachip compiler still compiles it/);
});

test('a > line longer than 8000 characters is an error over the whole line', () => {
  const line = '> BARRIER; //' + 'x'.repeat(8000);
  const a = analyze(inFunction(line));
  const d = a.diagnostics.find((x) => x.code === 'tprog.line-too-long');
  assert.ok(d, a.diagnostics.map((x) => x.code).join(', '));
  assert.deepEqual([d.severity, d.range], ['error', { start: { line: 1, character: 0 }, end: { line: 1, character: line.length } }]);
  assert.equal(d.message, 'input file line too long: the ztachip compiler reads at most 8000 characters per line');
  // the scanner flags a line of 8000 characters or more (a buffer of 8000 holds 7999 and the terminator)
  assert.ok(analyze(inFunction('> BARRIER; //' + 'x'.repeat(8000 - 13))).diagnostics.some((x) => x.code === 'tprog.line-too-long'));
  const fits = '> BARRIER; //' + 'x'.repeat(7999 - 13);
  assert.equal(fits.length, 7999);
  assert.deepEqual(
    analyze(inFunction(fits)).diagnostics.map((x) => x.code),
    [],
  );
});

test('an unterminated statement: one diagnostic, not also a missing `;`, and a fix that appends `;` at its end', () => {
  const a = analyze(inFunction('> BARRIER'));
  assert.deepEqual(
    a.diagnostics.map((d) => d.code),
    ['tprog.unterminated'],
  );
  const d = a.diagnostics[0];
  const end = { line: 1, character: 9 };
  assert.deepEqual(d.range, { start: { line: 1, character: 0 }, end });
  assert.deepEqual(d.fixes, [{ title: 'Add `;`', edits: [{ range: { start: end, end }, newText: ';' }], preferred: true }]);
  // over two joined > lines the fix goes at the end of the last one
  const two = analyze(inFunction('> DTYPE(INT16)MEM(q)[0:7] <=\n>   DTYPE(INT16)MEM(q)[8:15]'));
  const u = two.diagnostics.find((x) => x.code === 'tprog.unterminated')!;
  const end2 = { line: 2, character: '>   DTYPE(INT16)MEM(q)[8:15]'.length };
  assert.deepEqual(u.range, { start: { line: 1, character: 0 }, end: end2 });
  assert.deepEqual(u.fixes?.[0].edits, [{ range: { start: end2, end: end2 }, newText: ';' }]);
});

test("a tensor-variable definition's term is checked, and it takes one `[$]` only", () => {
  const bad = analyze(inFunction('> $v := DTYPE(INT16)MEMM(q)[0:7];'));
  const u = bad.diagnostics.find((d) => d.code === 'tprog.unknown-space');
  assert.ok(u, bad.diagnostics.map((d) => d.code).join(', '));
  // "> $v := DTYPE(INT16)" is 20 characters
  assert.deepEqual(u.range, { start: { line: 1, character: 20 }, end: { line: 1, character: 24 } });
  const two = analyze(inFunction('> $v := DTYPE(INT16)MEM(q,8,8)[$][$];'));
  const p = two.diagnostics.filter((d) => d.code === 'tprog.placeholder');
  // the second [$], at 33..36
  assert.deepEqual(
    p.map((d) => [d.severity, d.range]),
    [['error', { start: { line: 1, character: 33 }, end: { line: 1, character: 36 } }]],
  );
  assert.deepEqual(
    analyze(inFunction('> $v := DTYPE(INT16)MEM(q,8,8)[$][:];')).diagnostics.map((d) => d.code),
    [],
  );
});

test('a statement naming an undeclared C name is checked again once the C code declares it', () => {
  const stmt = '> DTYPE(INT16)MEM(zz)[0:7] <= DTYPE(INT16)MEM(q)[0:7];';
  const before = inFunction(stmt);
  const after = 'int zz;\n' + before;
  const read = () => undefined;
  const live = new Project({ fs: { read }, loadPcore: loadPcoreView });
  assert.deepEqual(
    live.analyze('/w/x.m', before)!.diagnostics.map((d) => d.code),
    ['tprog.unknown-name'],
  );
  assert.deepEqual(
    live.analyze('/w/x.m', after)!.diagnostics.map((d) => d.code),
    [],
  );
  // and back: reported again
  assert.deepEqual(
    live.analyze('/w/x.m', before)!.diagnostics.map((d) => d.code),
    ['tprog.unknown-name'],
  );
});
