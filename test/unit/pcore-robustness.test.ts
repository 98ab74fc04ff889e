import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { analyzePcore, type PcoreProgram } from '../../core/pcore/index';
import { MAX_EXPR_DEPTH } from '../../core/pcore/parser';

const FIXTURES = fileURLToPath(new URL('../fixtures/pcore/', import.meta.url));
const SOURCES = ['add.p', 'edge.p', 'filt.p'].map((f) => readFileSync(FIXTURES + f, 'utf8'));

/** Checks the invariants every analysis result must satisfy. */
function checkProgram(text: string, p: PcoreProgram): void {
  assert.ok(Array.isArray(p.diagnostics));
  const internal = p.diagnostics.find((d) => d.code === 'pcore.internal');
  assert.equal(internal, undefined, internal?.message);
  const lines = p.lineIndex.lineCount;
  for (const d of p.diagnostics) {
    const { start, end } = d.range;
    assert.ok(start.line >= 0 && end.line < lines, `diagnostic line out of range: ${JSON.stringify(d)}`);
    assert.ok(start.line < end.line || (start.line === end.line && start.character <= end.character), `inverted range: ${JSON.stringify(d)}`);
  }
  // every AST node has 0 <= start <= end <= text.length; expression trees stay shallow
  type Item = { node: Record<string, unknown>; depth: number };
  const stack: Item[] = [{ node: p.ast as unknown as Record<string, unknown>, depth: 0 }];
  let maxDepth = 0;
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    const s = node.start as number;
    const e = node.end as number;
    assert.ok(
      Number.isInteger(s) && Number.isInteger(e) && s >= 0 && s <= e && e <= text.length,
      `bad node range ${String(node.kind)} ${s}..${e} (length ${text.length})`,
    );
    if (depth > maxDepth) maxDepth = depth;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'symbol') continue;
      const kids = Array.isArray(value) ? value : [value];
      for (const k of kids) {
        if (k && typeof k === 'object' && typeof (k as { kind?: unknown }).kind === 'string') {
          stack.push({ node: k as Record<string, unknown>, depth: depth + 1 });
        }
      }
    }
  }
  assert.ok(maxDepth < MAX_EXPR_DEPTH + 500, `AST too deep: ${maxDepth}`);
  for (const v of p.variables.values()) {
    assert.ok(v.offset === undefined || (Number.isInteger(v.offset) && v.offset >= 0));
  }
}

function analyzeChecked(text: string): PcoreProgram {
  const p = analyzePcore(text, 'fuzz.p');
  checkProgram(text, p);
  return p;
}

const SOUP = [
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ';',
  ',',
  ':',
  '*',
  '&',
  '|',
  '^',
  '+',
  '-',
  '/',
  '%',
  '<',
  '>',
  '=',
  '!',
  '~',
  '?',
  '.',
  '\n',
  ' ',
  '"',
  "'",
  '\\',
  '#',
  '::',
  '_kernel_ ',
  'void ',
  'int ',
  'int16 ',
  'vint16 ',
  'vint32 ',
  '_share ',
  '_global ',
  'a::b',
  'x',
  'y',
  '0',
  '7',
  '0x1f',
  'for',
  'if',
  'else',
  'while',
  'do',
  'switch',
  'case',
  'default',
  'return',
  'break',
  '/*',
  '*/',
  '//',
  '#define X(a) a\n',
  '#define Y Y\n',
  '#if 0\n',
  '#if 1\n',
  '#else\n',
  '#endif\n',
  '#pragma unroll\n',
  '#include "h.h"\n',
  'GE(',
  '_VMASK',
  'tid',
  'static ',
  'extern ',
  '_NT16_ class ',
];

describe('robustness', () => {
  test('random text never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (s) => {
        analyzeChecked(s);
      }),
      { numRuns: 1500 },
    );
  });

  test('random bytes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        analyzeChecked(String.fromCharCode(...bytes));
      }),
      { numRuns: 800 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        analyzeChecked(s);
      }),
      { numRuns: 500 },
    );
  });

  test('random token soup never throws', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...SOUP), { maxLength: 250 }), (parts) => {
        analyzeChecked(parts.join(''));
      }),
      { numRuns: 1500 },
    );
  });

  test('random mutations of valid programs (delete / insert / duplicate) never throw', () => {
    const op = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom('delete', 'insert', 'duplicate'),
      len: fc.integer({ min: 1, max: 12 }),
      text: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(...SOUP)),
    });
    fc.assert(
      fc.property(fc.constantFrom(...SOURCES), fc.array(op, { minLength: 1, maxLength: 8 }), (src, ops) => {
        let s = src;
        for (const o of ops) {
          const i = o.at % (s.length + 1);
          if (o.kind === 'delete') s = s.slice(0, i) + s.slice(i + o.len);
          else if (o.kind === 'insert') s = s.slice(0, i) + o.text + s.slice(i);
          else s = s.slice(0, i) + s.slice(i, i + o.len) + s.slice(i);
        }
        const p = analyzeChecked(s);
        // determinism
        assert.deepEqual(analyzePcore(s, 'fuzz.p').diagnostics, p.diagnostics);
      }),
      { numRuns: 1500 },
    );
  });

  test('adversarial inputs stay bounded', () => {
    const cases: [string, string][] = [
      ['deep parentheses', '_kernel_ void a::f() { x = ' + '('.repeat(5000) + '1' + ')'.repeat(5000) + '; }'],
      ['deep blocks', '_kernel_ void a::f() ' + '{'.repeat(5000) + '}'.repeat(5000)],
      ['deep if', '_kernel_ void a::f() { ' + 'if (1) '.repeat(5000) + '; }'],
      ['unary chain', 'vint16 a::x; _kernel_ void a::f() { x = ' + '- '.repeat(5000) + '1; }'],
      ['long operator chain', 'vint16 a::x; _kernel_ void a::f() { x = ' + Array.from({ length: 5000 }, () => 'x').join(' + ') + '; }'],
      ['long index chain', 'vint16 a::x; _kernel_ void a::f() { x = x' + '[0]'.repeat(3000) + '; }'],
      ['nested initializer', 'vint16 a::x = ' + '{'.repeat(3000) + '1' + '}'.repeat(3000) + ';'],
      ['macro bomb', '#define A0 x x\n' + Array.from({ length: 40 }, (_, i) => `#define A${i + 1} A${i} A${i}`).join('\n') + '\nint16 a::b[A40];'],
      ['mutual recursion', '#define F(x) G(x) F(x)\n#define G(x) F(x)\nint16 a::b[F(F(1))];'],
      ['nested conditionals', '#if 1\n'.repeat(3000) + '#endif\n'.repeat(3000)],
      ['unterminated everything', '_kernel_ void a::f() { x = ("abc /* '],
      ['only bad characters', '@'.repeat(20000)],
      ['only closing tokens', ') ] } '.repeat(5000)],
    ];
    for (const [name, text] of cases) {
      const t0 = performance.now();
      const p = analyzeChecked(text);
      const dt = performance.now() - t0;
      assert.ok(dt < 5000, `${name} took ${dt.toFixed(0)} ms`);
      assert.ok(p.diagnostics.length > 0 || name === 'nested conditionals', name);
    }
  });
});

/** A realistic 2,000-line PCORE program: many classes with shared/private data and loop kernels. */
function bigProgram(lines: number): string {
  const out: string[] = ['#include "zta.h"', '#define TILE 4', '#define HALO 1', '#define ROW (TILE + 2*HALO)', ''];
  let c = 0;
  while (out.length < lines) {
    const k = `blk${c++}`;
    out.push(
      `_share vint16 ${k}::in[ROW*ROW];`,
      `_share vint16 ${k}::out[TILE*TILE];`,
      `_share int16 ${k}::coef[3][3];`,
      `vint16 ${k}::tmp[2];`,
      `vint16 *${k}::in_p;`,
      `vint16 *${k}::out_p;`,
      `int ${k}::step;`,
      `vint32 ${k}::acc;`,
      '',
      `_kernel_ void ${k}::init(int stride, int16 gain) {`,
      '   int i;',
      '   i = tid;',
      `   in_p = &in[(i & 3) + (i >> 2) * ROW];`,
      `   out_p = &out[i];`,
      '   step = stride;',
      '   tmp[0] = gain;',
      '   coef[0][0] = 1; coef[0][1] = 2; coef[0][2] = 1;',
      '   coef[1][0] = 2; coef[1][1] = 4; coef[1][2] = 2;',
      '   coef[2][0] = 1; coef[2][1] = 2; coef[2][2] = 1;',
      '}',
      '',
      `_kernel_ void ${k}::run(_global int n) {`,
      '   int r, c;',
      '   vint16 *p;',
      '   vint16 v;',
      '   p = in_p;',
      '   acc = 0;',
      '#pragma unroll',
      '   for (r = 0; r < 3; r++) {',
      '#pragma unroll',
      '      for (c = 0; c < 3; c++) {',
      '         acc += p[c] * coef[r][c];',
      '      }',
      '      p += step;',
      '   }',
      '   v = acc >> 4;',
      '   _VMASK = GT(v, 255);',
      '   v = 255;',
      '   _VMASK = -1;',
      '   if (n > 1) {',
      '      v = v + tmp[0];',
      '   }',
      '   out_p[0] = v;',
      '}',
      '',
    );
  }
  return out.join('\n');
}

describe('large programs', () => {
  // Speed is measured by `npm run bench`, not asserted here.
  test('a 2,000-line program analyses without errors', () => {
    const text = bigProgram(2000);
    assert.ok(text.split('\n').length >= 2000);
    const first = analyzePcore(text, 'big.p');
    assert.deepEqual(
      first.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    assert.ok(first.kernels.size > 80);
  });
});
