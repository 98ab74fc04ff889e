import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { lex, type Token } from '../../core/pcore/lexer';
import { preprocess } from '../../core/pcore/preprocessor';
import { DiagnosticSink } from '../../core/pcore/diagnostics';

function kinds(toks: readonly Token[]): string[] {
  return toks.map((t) => `${t.kind}:${t.text}`);
}

function lexOk(src: string): Token[] {
  const sink = new DiagnosticSink();
  const toks = lex(src, sink);
  assert.deepEqual(sink.items, []);
  return toks;
}

function pp(src: string, defines?: Map<string, string>): { tokens: Token[]; sink: DiagnosticSink } {
  const sink = new DiagnosticSink();
  const res = preprocess(src, lex(src, sink), { file: 'x.p', defines }, sink);
  return { tokens: res.tokens, sink };
}

describe('PCORE lexer', () => {
  test('scoped identifiers are single tokens', () => {
    const toks = lexOk('test::_A = conv1x1::exe8 + a :: b;');
    assert.deepEqual(kinds(toks), ['ident:test::_A', 'punct:=', 'ident:conv1x1::exe8', 'punct:+', 'ident:a', 'punct:::', 'ident:b', 'punct:;']);
    assert.deepEqual([toks[0].start, toks[0].end], [0, 8]);
    // `a::1` is not a scoped identifier
    assert.deepEqual(kinds(lexOk('a::1')), ['ident:a', 'punct:::', 'number:1']);
  });

  test('numbers: decimal, hex, octal, suffixes, floats and characters', () => {
    const toks = lexOk("12 0x1F 0X10u 017 0 42UL 1.5 .5e1 2e3f 'a' '\\n' '\\x41'");
    assert.deepEqual(
      toks.map((t) => t.value),
      [12, 31, 16, 15, 0, 42, 1.5, 5, 2000, 97, 10, 65],
    );
    assert.deepEqual(
      toks.map((t) => !!t.isFloat),
      [false, false, false, false, false, false, true, true, true, false, false, false],
    );
    const sink = new DiagnosticSink();
    lex('09 1abc', sink);
    assert.equal(sink.items.length, 2);
    assert.match(sink.items[0].message, /invalid numeric constant `09`/);
  });

  test('operators use the longest match', () => {
    assert.deepEqual(
      kinds(lexOk('a>>=b<<=c>>d->e&&f||g==h!=i<=j>=k++ --l...')).filter((k) => k.startsWith('punct')),
      [
        'punct:>>=',
        'punct:<<=',
        'punct:>>',
        'punct:->',
        'punct:&&',
        'punct:||',
        'punct:==',
        'punct:!=',
        'punct:<=',
        'punct:>=',
        'punct:++',
        'punct:--',
        'punct:...',
      ],
    );
  });

  test('comments are skipped and unterminated ones are reported', () => {
    assert.deepEqual(kinds(lexOk('a /* x\n y */ b // c\nd')), ['ident:a', 'ident:b', 'ident:d']);
    const sink = new DiagnosticSink();
    lex('a /* never closed', sink);
    assert.equal(sink.items[0].message, 'unterminated comment');
    assert.deepEqual([sink.items[0].start, sink.items[0].end], [2, 17]);
  });

  test('bad characters are reported once per run and skipped', () => {
    const sink = new DiagnosticSink();
    const toks = lex('a @@@ b $ c', sink);
    assert.deepEqual(kinds(toks), ['ident:a', 'ident:b', 'ident:c']);
    assert.equal(sink.items.length, 2);
    assert.deepEqual([sink.items[0].start, sink.items[0].end], [2, 5]);
    assert.equal(sink.items[0].severity, 'warning');
  });

  test('directives are whole logical lines; `#` elsewhere is a token', () => {
    const toks = lexOk('#define A(x) \\\n  ((x) + 1) /* c */\n  # pragma unroll\nint a; # b');
    assert.equal(toks[0].kind, 'directive');
    assert.equal(toks[0].directive!.name, 'define');
    assert.deepEqual(
      toks[0].directive!.tokens.map((t) => t.text),
      ['A', '(', 'x', ')', '(', '(', 'x', ')', '+', '1', ')'],
    );
    assert.equal(toks[1].kind, 'directive');
    assert.equal(toks[1].directive!.name, 'pragma');
    assert.deepEqual(kinds(toks.slice(2)), ['ident:int', 'ident:a', 'punct:;', 'punct:#', 'ident:b']);
    assert.equal(toks[2].bol, true);
  });
});

describe('PCORE preprocessor', () => {
  test('object-like and function-like macros, nested, with # and ##', () => {
    const src = '#define N 4\n#define TWICE(x) (2*(x))\n#define CAT(a, b) a ## b\n#define STR(a) #a\nTWICE(N) CAT(var, 1) STR(a + b) N';
    const { tokens, sink } = pp(src);
    assert.deepEqual(sink.items, []);
    assert.deepEqual(
      tokens.map((t) => t.text),
      ['(', '2', '*', '(', '4', ')', ')', 'var1', '"a + b"', '4'],
    );
    // body tokens carry the invocation range and the macro name
    const inv = src.indexOf('TWICE(N)');
    assert.deepEqual([tokens[0].start, tokens[0].end, tokens[0].macro], [inv, inv + 'TWICE(N)'.length, 'TWICE']);
    assert.equal(tokens[4].macro, 'TWICE');
    const last = tokens[tokens.length - 1];
    assert.deepEqual([last.start, last.end, last.macro], [src.length - 1, src.length, 'N']);
  });

  test('a function-like macro name without arguments is left alone; self-reference does not loop', () => {
    const { tokens } = pp('#define F(x) x\n#define SELF SELF + 1\nF + SELF');
    assert.deepEqual(
      tokens.map((t) => t.text),
      ['F', '+', 'SELF', '+', '1'],
    );
  });

  test('variadic macros', () => {
    const { tokens } = pp('#define CALL(f, ...) f(__VA_ARGS__)\nCALL(g, 1, 2)');
    assert.deepEqual(
      tokens.map((t) => t.text),
      ['g', '(', '1', ',', '2', ')'],
    );
  });

  test('#pragma lines become pragma tokens in order', () => {
    const { tokens } = pp('a;\n#pragma unroll\nfor');
    assert.deepEqual(kinds(tokens), ['ident:a', 'punct:;', 'pragma:unroll', 'ident:for']);
  });

  test('defines option (object-like and function-like)', () => {
    const { tokens } = pp(
      'W H(3)',
      new Map([
        ['W', '8'],
        ['H(v)', 'v*v'],
      ]),
    );
    assert.deepEqual(
      tokens.map((t) => t.text),
      ['8', '3', '*', '3'],
    );
  });

  test('conditional directives nest and skip inactive regions, including their directives', () => {
    const src = '#if 0\n#define X 1\n#if 1\na\n#endif\n#else\nb\n#endif\n#ifdef X\nc\n#endif\n';
    const { tokens, sink } = pp(src);
    assert.deepEqual(sink.items, []);
    assert.deepEqual(
      tokens.map((t) => t.text),
      ['b'],
    );
  });

  test('#if expressions use C integer arithmetic and defined()', () => {
    const src = '#define A 6\n#if (A / 4) == 1 && defined A && !defined(B) && (A % 4 == 2) && (1 << 3) == 8\nyes\n#endif';
    assert.deepEqual(
      pp(src).tokens.map((t) => t.text),
      ['yes'],
    );
    const bad = pp('#if 1 +\nx\n#endif');
    assert.equal(bad.sink.items.length, 1);
    assert.match(bad.sink.items[0].message, /invalid `#if` expression/);
  });

  test('macro redefinition with a different body is a warning', () => {
    const { sink } = pp('#define A 1\n#define A 1\n#define A 2\n');
    assert.equal(sink.items.length, 1);
    assert.equal(sink.items[0].severity, 'warning');
  });
});
