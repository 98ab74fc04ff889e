/**
 * Incremental re-analysis: after any sequence of edits, analysing a document through a long-lived
 * Project (parse cache, per-unit memo, reused C context) gives exactly what a fresh analysis of the
 * same text gives. Edits are random (seeded) and biased towards `>` lines, where the reuse paths are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../../core/project/project';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import { confinedEdit, type TprogAnalysis } from '../../core/tprog/analyze';
import { scanTensorLines } from '../../core/tprog/lines';
import { LineIndex } from '../../core/common/lineIndex';
import { mulberry32 as rng } from '../helpers/rng';

const ROOT = join(__dirname, '..', '..');

/** Everything a client sees of an analysis, as plain data. */
function observable(a: TprogAnalysis): unknown {
  return {
    dialect: a.dialect,
    diagnostics: a.diagnostics.map((d) => ({ r: d.range, s: d.severity, c: d.code, m: d.message, f: d.fixes })),
    stmts: a.units.flatMap((u) =>
      u.stmts.map((i) => ({
        kind: i.stmt.kind,
        fn: i.fn,
        at: a.docSpan(u, i.stmt.span),
        dst: i.dst && {
          total: i.dst.desc.total,
          space: i.dst.desc.space,
          levels: i.dst.desc.levels?.length,
          member: i.dst.member?.fullName,
          offset: i.dst.member?.offset,
        },
        src: i.src && {
          total: i.src.desc.total,
          space: i.src.desc.space,
          levels: i.src.desc.levels?.length,
          member: i.src.member?.fullName,
          offset: i.src.member?.offset,
        },
      })),
    ),
    defs: a.varDefs.map((d) => [d.name, d.range, d.slot]),
    uses: a.varUses.map((u) => [u.name, u.range, u.def?.range]),
    functions: a.c.functions.map((f) => [f.name, f.span, f.bodySpan]),
    vars: a.c.vars.map((v) => [v.name, v.nameSpan, v.fn]),
    calls: a.c.calls.map((k) => [k.name, k.span]),
    kernelRefs: a.c.kernelRefs.map((k) => [k.name, k.span]),
    mutated: [...a.c.mutated].map(([fn, names]) => [fn, [...names].sort()]),
  };
}

const PIECES = [
  'a',
  '7',
  ' ',
  '[',
  ']',
  ':',
  ',',
  '(',
  ')',
  '<=',
  ';',
  '$',
  '$x',
  'N',
  '{',
  '}',
  '\n',
  '\n>',
  '//',
  '/*',
  '*/',
  'int n = 3;',
  'FOR(i=0:3)',
  '+',
  '*',
  '"',
  '\\',
];

function randomEdit(text: string, r: () => number): string {
  const lines = text.split('\n');
  let pos: number;
  const tensorLines = lines.map((l, i) => [l, i] as const).filter(([l]) => /^\s*>/.test(l));
  if (tensorLines.length && r() < 0.7) {
    // inside a `>` line, after its marker
    const [l, i] = tensorLines[Math.floor(r() * tensorLines.length)];
    const lineStart = lines.slice(0, i).reduce((s, x) => s + x.length + 1, 0);
    const marker = l.indexOf('>');
    pos = lineStart + marker + 1 + Math.floor(r() * (l.length - marker));
  } else pos = Math.floor(r() * (text.length + 1));
  const op = r();
  if (op < 0.4) {
    const piece = r() < 0.6 ? PIECES[Math.floor(r() * 13)] : PIECES[Math.floor(r() * PIECES.length)];
    return text.slice(0, pos) + piece + text.slice(pos);
  }
  const len = 1 + Math.floor(r() * 3);
  if (op < 0.8) return text.slice(0, pos) + text.slice(pos + len);
  return text.slice(0, pos) + PIECES[Math.floor(r() * 13)] + text.slice(pos + len);
}

const EXAMPLES = ['examples/blur/blur.m', 'examples/test/test.m', 'examples/guide/transfers.m', 'examples/mistakes/mistakes.m'];

for (const [k, rel] of EXAMPLES.entries()) {
  test(`incremental analysis equals a fresh analysis after 150 random edits of ${rel}`, () => {
    const path = join(ROOT, rel);
    const dir = join(path, '..');
    const read = (p: string) => {
      try {
        return readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    };
    const live = new Project({ fs: { read }, loadPcore: loadPcoreView });
    let text = read(path)!;
    live.analyze(path, text);
    const r = rng(1000 + k);
    for (let step = 0; step < 150; step++) {
      text = randomEdit(text, r);
      const inc = live.analyze(path, text)!;
      const fresh = new Project({ fs: { read }, loadPcore: loadPcoreView }).analyze(path, text)!;
      assert.deepEqual(observable(inc), observable(fresh), `after edit ${step + 1} of ${rel} (${dir})`);
      if (step % 10 === 0) {
        // the same text again as another string (a version with no net change): nothing is rebuilt
        const again = live.analyze(path, (' ' + text).slice(1))!;
        assert.deepEqual(observable(again), observable(fresh), `same text again after edit ${step + 1} of ${rel}`);
        assert.ok(
          again.units.every((u, i) => u === inc.units[i]),
          'the units of the previous analysis are reused',
        );
      }
    }
  });
}

test('an edit inside one `>` line that cannot change the C code is recognised; others are not', () => {
  const before = 'int f(void) {\n  int n = 4;\n> MEM(a,n)[0:3] <= PCORE[0:3].k::x;\n}\n';
  const check = (after: string) => {
    const scan = scanTensorLines(after);
    return confinedEdit(before, after, scan, new LineIndex(after));
  };
  const at = before.indexOf('[0:3]') + 3;
  assert.deepEqual(check(before.slice(0, at) + '7' + before.slice(at + 1)), { at, delta: 0 });
  assert.deepEqual(check(before.slice(0, at) + '17' + before.slice(at + 1)), { at, delta: 1 });
  assert.equal(check(before.replace('[0:3] <=', '[0:3] { <=')), undefined, 'a brace changes the C depth');
  assert.equal(check(before.replace('int n = 4;', 'int n = 5;')), undefined, 'a C line');
  assert.equal(check(before.replace('> MEM', 'x MEM')), undefined, 'the marker itself');
  assert.equal(check(before.replace('<= PCORE', '<= /* PCORE')), undefined, 'a comment opener');
  assert.equal(check(before.replace('MEM(a,n)', 'MEM(a,\nn)')), undefined, 'a line break');
  const cont = 'int f(void) {\n#define X 1 \\\n> MEM(a,4)[0:3] <= PCORE[0:3].k::x;\n}\n';
  const ai = cont.indexOf('[0:3]') + 3;
  assert.equal(
    confinedEdit(cont, cont.slice(0, ai) + '2' + cont.slice(ai + 1), scanTensorLines(cont), new LineIndex(cont)),
    undefined,
    'a line continued from a macro',
  );
});

// The C scan never reads a `>` line as C, so an edit inside one cannot change the C context: not after an
// unterminated string or character literal on a C line (it ends at its line), nor after a block comment
// that ends inside a `>` line (the rest of that line is the statement's).
test('after an unterminated literal or a comment ending in a `>` line, edits of `>` lines still equal fresh analyses', () => {
  const docs = [
    'char *s = "abc\nint g(int);\nvoid f(void) {\n  int v = 1;\n> DTYPE(INT16)MEM(v,8)[0:7] <= DTYPE(INT16)MEM(v,8)[0:7];\n  g(v);\n}\n',
    "char c = 'a\nvoid f(void) {\n> DTYPE(INT16)MEM(w,8)[0:7] <= DTYPE(INT16)MEM(w,8)[0:7];\n}\n",
    'int a; /* a comment\n> DTYPE(INT16)MEM(a,8)[0:7] <= DTYPE(INT16)MEM(a,8)[0:7]; */ int q = 2; h(q);\nvoid f(void) { k(); }\n',
  ];
  for (const doc of docs) {
    const read = () => undefined;
    const live = new Project({ fs: { read }, loadPcore: loadPcoreView });
    live.analyze('/w/x.m', doc);
    // identifier characters typed into the `>` line: the reuse path
    for (const typed of ['g(v)', 'q=3', 'x']) {
      const at = doc.indexOf('[0:7]') + 1;
      const next = doc.slice(0, at) + typed + doc.slice(at);
      const inc = live.analyze('/w/x.m', next)!;
      const fresh = new Project({ fs: { read }, loadPcore: loadPcoreView }).analyze('/w/x.m', next)!;
      assert.deepEqual(observable(inc), observable(fresh), `${JSON.stringify(doc)} after typing ${typed}`);
      live.analyze('/w/x.m', doc);
    }
    const a = new Project({ fs: { read }, loadPcore: loadPcoreView }).analyze('/w/x.m', doc)!;
    assert.ok(!a.c.calls.some((k) => k.name === 'MEM' || k.name === 'DTYPE'), `no C call is read from a > line of ${JSON.stringify(doc)}`);
  }
});
