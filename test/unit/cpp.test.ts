/**
 * The C preprocessor parts both preprocessors share (core/cpp/), and the expansion corner cases both
 * rely on, through each preprocessor: the host's (text for tree-sitter) and PCORE's (tokens for its
 * parser).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConditionStack } from '../../core/cpp/conditions';
import { evaluateIfExpression } from '../../core/cpp/ifExpr';
import { collectArguments, fitArguments, parseMacroHead, replaceDefined } from '../../core/cpp/macros';
import type { TokenView } from '../../core/cpp/tokens';
import { preprocess as hostPreprocess } from '../../core/sim/host/preprocess';
import { preprocess as pcorePreprocess } from '../../core/pcore/preprocessor';
import { lex } from '../../core/pcore/lexer';
import { DiagnosticSink } from '../../core/pcore/diagnostics';

/** Test tokens: a word, with `_` in front meaning "white space before". */
const toks = (s: string): string[] => s.split(' ').filter((x) => x !== '');
const VIEW: TokenView<string> = {
  text: (t) => t.replace(/^_/, ''),
  isIdent: (t) => /^_?[A-Za-z_][\w:]*$/.test(t),
  spaceBefore: (t) => t.startsWith('_'),
};

describe('core/cpp: conditional inclusion', () => {
  test('#if / #elif / #else take one branch; nested groups in a skipped region stay skipped', () => {
    const c = new ConditionStack<string>();
    const problems: string[] = [];
    const report = (p: string): void => void problems.push(p);
    const seen: boolean[] = [];
    c.open('if', () => false);
    seen.push(c.active);
    c.elif(() => true, report);
    seen.push(c.active);
    let evaluated = false;
    c.elif(() => (evaluated = true), report);
    seen.push(c.active);
    c.open('inner', () => (evaluated = true));
    seen.push(c.active);
    c.else(report);
    seen.push(c.active);
    assert.ok(c.close());
    c.else(report);
    seen.push(c.active);
    assert.deepEqual(seen, [false, true, false, false, false, false]);
    assert.equal(evaluated, false, 'no test runs once a branch was taken or in a skipped region');
    assert.deepEqual(c.unclosed(), ['if']);
    c.else(report);
    assert.deepEqual(problems, ['after-else']);
    assert.ok(c.close());
    assert.equal(c.close(), false);
    c.elif(() => true, report);
    assert.deepEqual(problems, ['after-else', 'without-if']);
    assert.equal(c.active, true);
  });
});

describe('core/cpp: macro definitions and calls', () => {
  test('parameter lists: object-like, named and unnamed variadics, both styles', () => {
    assert.deepEqual(parseMacroHead(toks('N _( 1 )'), 1, VIEW, 'strict'), { variadic: false, body: 1 });
    for (const style of ['strict', 'lenient'] as const) {
      assert.deepEqual(parseMacroHead(toks('F ( a , _b ) _a'), 1, VIEW, style), { params: ['a', 'b'], variadic: false, body: 6 });
      assert.deepEqual(parseMacroHead(toks('F ( ) _x'), 1, VIEW, style), { params: [], variadic: false, body: 3 });
      assert.deepEqual(parseMacroHead(toks('F ( a , ... )'), 1, VIEW, style), { params: ['a', '__VA_ARGS__'], variadic: true, body: 6 });
      assert.deepEqual(parseMacroHead(toks('F ( rest ... ) rest'), 1, VIEW, style), { params: ['rest'], variadic: true, body: 5 });
      assert.deepEqual(parseMacroHead(toks('F ( a , 1 )'), 1, VIEW, style), { error: 'bad-parameter', at: 4 });
      assert.deepEqual(parseMacroHead(toks('F ( a ,'), 1, VIEW, style), { error: 'unterminated', at: 4 });
    }
    // the host reads `F(a b)` as two parameters; gcc and PCORE refuse it
    assert.deepEqual(parseMacroHead(toks('F ( a _b )'), 1, VIEW, 'lenient'), { params: ['a', 'b'], variadic: false, body: 5 });
    assert.deepEqual(parseMacroHead(toks('F ( a _b )'), 1, VIEW, 'strict'), { error: 'bad-parameter', at: 3 });
  });

  test('arguments split at top-level commas; the variadic parameter keeps its commas', () => {
    const read = (s: string, n: number, variadic: boolean): string[][] | undefined => {
      const input = toks(s);
      let i = 0;
      return collectArguments(
        () => input[i++],
        (t) => t,
        n,
        variadic,
      )?.args;
    };
    assert.deepEqual(read('a , f ( b , c ) ) tail', 2, false), [['a'], ['f', '(', 'b', ',', 'c', ')']]);
    assert.deepEqual(read('x , y , z )', 2, true), [['x'], ['y', ',', 'z']]);
    assert.equal(read('a , ( b )', 2, false), undefined);
    const none: string[][] = [[]];
    assert.deepEqual(fitArguments(none, 0, false), { ok: true, given: 0 });
    const short = [['x']];
    assert.deepEqual(fitArguments(short, 2, true), { ok: true, given: 1 });
    assert.deepEqual(short, [['x'], []]);
    assert.deepEqual(fitArguments([['x']], 3, false), { ok: false, given: 1 });
    assert.deepEqual(fitArguments([['x'], ['y']], 1, false), { ok: false, given: 2 });
  });

  test('defined X and defined(X), strict and lenient about a missing name', () => {
    const has = (n: string): boolean => n === 'X';
    const make = (_t: string, last: string, v: 0 | 1): string => `${v}@${last}`;
    const fail = (t: string): never => {
      throw new Error(`missing at ${t}`);
    };
    assert.deepEqual(replaceDefined(toks('defined ( X ) && defined Y'), VIEW, has, make, fail), ['1@X', '&&', '0@Y']);
    assert.deepEqual(replaceDefined(toks('defined ( X ) && defined Y'), VIEW, has, make, undefined), ['1@)', '&&', '0@Y']);
    assert.throws(() => replaceDefined(toks('defined + 1'), VIEW, has, make, fail), /missing at defined/);
    assert.deepEqual(replaceDefined(toks('defined + 1'), VIEW, has, make, undefined), ['0@defined', '+', '1']);
  });

  test('#if arithmetic is wider than 32 bits and checks division by zero', () => {
    const ev = (s: string): number =>
      evaluateIfExpression(toks(s), {
        text: (t) => t,
        operand: (t) => (/^\d+$/.test(t) ? Number(t) : 0),
        fail: (m) => {
          throw new Error(m);
        },
      });
    assert.equal(ev('1 << 40'), 2 ** 40);
    assert.equal(ev('2147483647 + 1 > 0'), 1);
    assert.equal(ev('1 ? 2 : 3 ? 4 : 5'), 2);
    assert.equal(ev('- 7 / 2'), -3);
    assert.equal(ev('( 5 & 3 ) | 8'), 9);
    assert.equal(ev('! 0 && ~ 0'), 1);
    assert.throws(() => ev('0 && 1 / 0'), /division by zero in #if expression/);
    assert.throws(() => ev('1 2'), /unexpected '2' in #if expression/);
    assert.throws(() => ev('( 1'), /expected '\)' in #if expression/);
  });
});

/** Host: the C text given to tree-sitter (one space between tokens of a line). */
function host(src: string): string {
  return hostPreprocess({ file: 'x.c', text: src, units: [], defines: {}, reserved: new Set(), knownHeaders: new Set() }).text;
}

/** PCORE: the token texts given to its parser, and the diagnostics. */
function pcore(src: string): { text: string; problems: string[] } {
  const sink = new DiagnosticSink();
  const r = pcorePreprocess(src, lex(src, sink), { file: 'x.p' }, sink);
  return { text: r.tokens.map((t) => t.text).join(' '), problems: sink.items.map((d) => d.message) };
}

describe('expansion corner cases both preprocessors rely on', () => {
  const cases: [string, string, string][] = [
    ['# and ##', '#define S(x) #x\n#define C(a, b) a ## b\nS(a + b) C(x, 1) C(, y) C(z,)', '"a + b" x1 y z'],
    ['nested function-like macros, arguments expanded first', '#define F(x) (x + 1)\n#define G(y) F(F(y))\nG(2)', '( ( 2 + 1 ) + 1 )'],
    ['a macro name produced by an expansion takes its arguments from the text after it', '#define F(x) [x]\n#define H F\nH(3)', '[ 3 ]'],
    ['hide sets: a macro is not expanded inside its own expansion', '#define A B + A\n#define B A * 2\nA', 'A * 2 + A'],
    ['hide sets across arguments', '#define F(x) x\n#define R F(R)\nR', 'R'],
    [
      '__VA_ARGS__ and a named variadic',
      '#define V(f, ...) f(__VA_ARGS__)\n#define W(args...) g(args)\nV(p, 1, 2) V(q) W(3, 4)',
      'p ( 1 , 2 ) q ( ) g ( 3 , 4 )',
    ],
    ['stringizing an argument with a string in it', '#define S(x) #x\nS("a\\\\b" c)', '"\\"a\\\\\\\\b\\" c"'],
    ['#if defined(X) && X > 2', '#define X 3\n#if defined(X) && X > 2\nyes\n#else\nno\n#endif', 'yes'],
    ['#if with an undefined name', '#if defined(Y) && Y > 2\nyes\n#else\nno\n#endif', 'no'],
    ['#elif chains take the first true branch only', '#define L 2\n#if L == 1\none\n#elif L == 2\ntwo\n#elif L >= 2\nmore\n#else\nnone\n#endif', 'two'],
    ['nested groups inside a skipped branch', '#if 0\n#if 1\na\n#else\nb\n#endif\n#elif 1\nc\n#endif', 'c'],
    ['#ifdef / #ifndef / #undef', '#define D\n#ifdef D\nd\n#endif\n#undef D\n#ifndef D\nu\n#endif', 'd u'],
  ];
  for (const [name, src, want] of cases) {
    test(name, () => {
      assert.equal(host(src).replace(/\s+/g, ' ').trim(), want, 'host');
      const p = pcore(src);
      assert.deepEqual(p.problems, [], 'PCORE diagnostics');
      assert.equal(p.text, want, 'PCORE');
    });
  }

  test('mistakes: the host stops with an error, PCORE reports and goes on', () => {
    const mistakes: [string, RegExp, string][] = [
      ['#define F(a, b) a\nF(1)', /macro 'F' expects 2 argument\(s\), got 1/, 'macro `F` expects 2 arguments, but 1 was given'],
      ['#else\n', /#else without #if/, '`#else` without `#if`'],
      ['#if 1\n#else\n#elif 1\n#endif', /#elif after #else/, '`#elif` after `#else`'],
      ['#if 1\nx', /unterminated #if/, 'unterminated conditional directive (missing `#endif`)'],
      ['#define F(a b) a\n', /.^/, 'invalid parameter list in the definition of macro `F`'],
    ];
    for (const [src, hostErr, pcoreMsg] of mistakes) {
      if (hostErr.source === '.^') assert.doesNotThrow(() => host(src));
      else assert.throws(() => host(src), hostErr);
      assert.ok(pcore(src).problems.includes(pcoreMsg), `${JSON.stringify(src)}: ${pcore(src).problems.join('; ')}`);
    }
  });
});
