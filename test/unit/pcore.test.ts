import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LineIndex } from '../../core/common/lineIndex';
import type { Diagnostic, Range } from '../../core/common/diagnostic';
import { analyzePcore, formatPcoreVariable, type PcoreProgram, type PcoreParam } from '../../core/pcore/index';
import type * as A from '../../core/pcore/ast';

const FIXTURES = fileURLToPath(new URL('../fixtures/pcore/', import.meta.url));
const fixture = (name: string): string => readFileSync(FIXTURES + name, 'utf8');

function analyze(src: string, opts?: Parameters<typeof analyzePcore>[2]): PcoreProgram {
  return analyzePcore(src, 't.p', opts);
}

/** Range of the nth occurrence of `needle` in `src`. */
function rangeOf(src: string, needle: string, nth = 0): Range {
  let at = -1;
  for (let k = 0; k <= nth; k++) {
    at = src.indexOf(needle, at + 1);
    assert.ok(at >= 0, `\`${needle}\` (#${nth}) not found in source`);
  }
  return new LineIndex(src).range(at, at + needle.length);
}

/** The member part of the first `cls::member` in `src`: where go to definition lands. */
function memberRangeOf(src: string, name: string): Range {
  const at = src.indexOf(name);
  assert.ok(at >= 0, `\`${name}\` not found in source`);
  const member = name.slice(name.indexOf('::') + 2);
  return new LineIndex(src).range(at + name.length - member.length, at + name.length);
}

function show(ds: readonly Diagnostic[]): string {
  return ds.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.severity} ${d.code} ${d.message}`).join('\n');
}

function errors(p: PcoreProgram): Diagnostic[] {
  return p.diagnostics.filter((d) => d.severity === 'error');
}

/** Asserts one diagnostic with `code` at the range of `needle` and returns it. */
function expectDiag(
  src: string,
  code: string,
  needle: string,
  opts?: { nth?: number; severity?: Diagnostic['severity']; message?: RegExp; analyze?: Parameters<typeof analyzePcore>[2] },
): Diagnostic {
  const p = analyze(src, opts?.analyze);
  const want = rangeOf(src, needle, opts?.nth ?? 0);
  const found = p.diagnostics.filter((d) => d.code === code);
  assert.ok(found.length > 0, `expected a ${code} diagnostic, got:\n${show(p.diagnostics)}`);
  const d = found.find((x) => JSON.stringify(x.range) === JSON.stringify(want));
  assert.ok(d, `expected ${code} at \`${needle}\` ${JSON.stringify(want)}, got:\n${show(found)}`);
  assert.equal(d.severity, opts?.severity ?? 'error');
  if (opts?.message) assert.match(d.message, opts.message);
  return d;
}

function kernelBody(p: PcoreProgram, name: string): A.Stmt[] {
  const k = p.kernels.get(name);
  assert.ok(k, `kernel ${name} not found`);
  return k.node.body.body;
}

/** Compact S-expression of an expression (for precedence tests). */
function sx(e: A.Expr): string {
  switch (e.kind) {
    case 'Identifier':
      return e.name;
    case 'NumberLiteral':
      return String(e.value);
    case 'StringLiteral':
      return e.raw;
    case 'Unary':
      return `(${e.op} ${sx(e.argument)})`;
    case 'Update':
      return e.prefix ? `(${e.op}pre ${sx(e.argument)})` : `(${e.op}post ${sx(e.argument)})`;
    case 'Binary':
    case 'Logical':
      return `(${e.op} ${sx(e.left)} ${sx(e.right)})`;
    case 'Assign':
      return `(${e.op} ${sx(e.target)} ${sx(e.value)})`;
    case 'Conditional':
      return `(? ${sx(e.test)} ${sx(e.consequent)} ${sx(e.alternate)})`;
    case 'Call':
      return `(call ${sx(e.callee)}${e.args.map((a) => ' ' + sx(a)).join('')})`;
    case 'Index':
      return `([] ${sx(e.object)} ${sx(e.index)})`;
    case 'Member':
      return `(${e.arrow ? '->' : '.'} ${sx(e.object)} ${e.property})`;
    case 'Cast':
      return `(cast ${e.type.name}${'*'.repeat(e.pointer)} ${sx(e.argument)})`;
    case 'Sizeof':
      return `(sizeof ${e.argument.kind === 'TypeSpec' ? e.argument.name : sx(e.argument)})`;
    case 'Sequence':
      return `(, ${e.expressions.map(sx).join(' ')})`;
    case 'InitList':
      return `{${e.elements.map(sx).join(' ')}}`;
    case 'ErrorExpr':
      return '<error>';
  }
}

function exprOf(src: string): { p: PcoreProgram; e: A.Expr } {
  const full = `vint16 t::a; vint16 t::b; vint16 t::c; vint16 t::d; int t::i; int t::j; int t::k; vint16 *t::p;\n_kernel_ void t::f() {\n  ${src};\n}\n`;
  const p = analyze(full);
  const body = kernelBody(p, 't::f');
  const st = body[0];
  assert.equal(st.kind, 'ExprStmt', show(p.diagnostics));
  return { p, e: (st as A.ExprStmt).expression };
}

// ---------------------------------------------------------------------------------------------
describe('memory allocation (§8.3)', () => {
  test('test::_A and test::_Z are private vint16 at 0 and 8', () => {
    const p = analyze(fixture('add.p'));
    assert.deepEqual(p.diagnostics, []);
    const a = p.variables.get('test::_A')!;
    const z = p.variables.get('test::_Z')!;
    assert.equal(a.storage, 'private');
    assert.equal(a.type, 'vint16');
    assert.equal(a.offset, 0);
    assert.equal(z.offset, 8);
    assert.deepEqual([a.len, a.lanes, a.numDim, a.dims, a.shape], [8, 8, 1, [], [8]]);
    const k = p.kernels.get('test::add')!;
    assert.equal(k.isKernel, true);
    assert.equal(k.params.length, 0);
    assert.equal(p.classes.get('test')!.kernels.get('add'), k);
    assert.equal(p.classes.get('test')!.privateWords, 16);
    // constant approximation: the only vector-operand constant is 1 (`_VMASK = -1` is an integer operation)
    assert.deepEqual(p.constants, [1]);
    assert.equal(p.constantsBase, 8);
  });

  test('edge-detector structure: shared tiles after the constants, int16 tables after the vectors, overlaid classes', () => {
    for (const opts of [{}, { constantsCount: 9 }]) {
      const p = analyze(fixture('edge.p'), opts);
      assert.deepEqual(errors(p), [], show(p.diagnostics));
      assert.equal(p.constantsCount, 9);
      assert.equal(p.constantsBase, 16);
      const off = (n: string): number | undefined => p.variables.get(n)?.offset;
      const len = (n: string): number | undefined => p.variables.get(n)?.len;
      assert.deepEqual([off('edge::tile'), len('edge::tile')], [16, 288]);
      assert.deepEqual([off('edge::grad'), len('edge::grad')], [304, 128]);
      assert.deepEqual([off('edge::slope'), len('edge::slope')], [432, 128]);
      assert.deepEqual([off('edge::sx'), off('edge::sy'), len('edge::sx')], [560, 569, 9]);
      assert.deepEqual(p.variables.get('edge::sx')!.shape, [3, 3]);
      assert.deepEqual([off('edge1::grad'), len('edge1::grad')], [16, 288]);
      assert.deepEqual([off('edge2::low'), off('edge2::high'), len('edge2::low')], [432, 433, 1]);
      // registers are not memory
      assert.equal(p.variables.get('edge::tile_p')!.storage, 'pointer');
      assert.equal(p.variables.get('edge::tile_p')!.offset, undefined);
      assert.equal(p.variables.get('edge::skip')!.storage, 'integer');
      assert.equal(p.variables.get('edge::accx')!.storage, 'accumulator');
      assert.equal(p.variables.get('edge::accx')!.lanes, 8);
    }
  });

  test('the constant approximation finds the nine vector-operand constants of edge.p', () => {
    const p = analyze(fixture('edge.p'));
    assert.deepEqual(p.constants, [-2, -1, 0, 1, 2, 4, 12, 128, 255]);
  });

  test('convolution structure: shared by width, private, then kernel parameters from ROUND8(P)', () => {
    for (const opts of [{}, { constantsCount: 1 }]) {
      const p = analyze(fixture('filt.p'), opts);
      assert.deepEqual(errors(p), [], show(p.diagnostics));
      const off = (n: string): number | undefined => p.variables.get(n)?.offset;
      assert.deepEqual([off('filt::w'), p.variables.get('filt::w')!.len], [8, 392]);
      assert.deepEqual([off('filt::bias_hi'), off('filt::bias_lo')], [400, 408]);
      assert.deepEqual([off('filt::strip'), p.variables.get('filt::strip')!.len], [416, 960]);
      assert.deepEqual([off('filt::out'), p.variables.get('filt::out')!.len], [0, 16]);
      assert.deepEqual([off('filt::gain'), p.variables.get('filt::gain')!.storage], [16, 'private']);
      const setup = p.kernels.get('filt::setup')!;
      assert.deepEqual(
        setup.params.map((x) => [x.name, x.type, x.storage, x.offset]),
        [
          ['step', 'int', 'private', 24],
          ['log_w', 'int', 'private', 25],
          ['core', 'int', 'private', 26],
          ['shift_in', 'int', 'private', 27],
          ['gain_in', 'int16', 'private', 28],
          ['pitch_in', 'int', 'private', 29],
        ],
      );
      assert.equal(setup.privateWords, 30);
      const taps = p.kernels.get('filt::taps3')!;
      assert.deepEqual(
        taps.params.map((x) => [x.name, x.storage, x.global, x.globalSlot, x.intRegister, x.offset]),
        [
          ['k', 'integer', true, 0, 3, undefined],
          ['at', 'integer', true, 1, 2, undefined],
        ],
      );
      assert.deepEqual([off('pw::w'), off('pw::bias_hi'), off('pw::bias_lo')], [8, 40, 48]);
      assert.deepEqual([off('pw::out'), p.variables.get('pw::out')!.len], [56, 1024]);
      assert.deepEqual([off('pw::strip'), p.variables.get('pw::strip')!.len], [1080, 840]);
      assert.deepEqual(
        p.kernels.get('pw::setup')!.params.map((x) => x.offset),
        [0, 1, 2, 3],
      );
    }
  });

  test('the constant approximation finds the single constant of filt.p', () => {
    const p = analyze(fixture('filt.p'));
    assert.deepEqual(p.constants, [1024]);
    assert.equal(p.constantsBase, 8);
  });

  test('constantsCount override moves only shared variables', () => {
    const p0 = analyze(fixture('filt.p'), { constantsCount: 0 });
    const p20 = analyze(fixture('filt.p'), { constantsCount: 20 });
    assert.equal(p0.variables.get('filt::w')!.offset, 0);
    assert.equal(p20.variables.get('filt::w')!.offset, 24);
    assert.equal(p20.variables.get('filt::strip')!.offset, 24 + 392 + 16);
    assert.equal(p0.variables.get('filt::out')!.offset, 0);
    assert.equal(p20.variables.get('filt::gain')!.offset, 16);
    assert.equal(p20.constantsCount, 20);
    assert.deepEqual(p20.constants, []);
  });

  test('vector widths are ordered vint16, float4, float2, int16 and parameters are sorted by width', () => {
    const src = `
_share int16 m::s1;
_share float2 m::s2[3];
_share vint16 m::s3;
_share float4 m::s4;
int16 m::p1[5];
vint16 m::p2;
float2 m::p3;
_kernel_ void m::k(int a, int16 b, vint16 c, float4 d, int16 *e, int f) { }
void m::h(vint16 x) { }
`;
    const p = analyze(src, { constantsCount: 3 });
    assert.deepEqual(errors(p), [], show(p.diagnostics));
    const o = (n: string): number | undefined => p.variables.get(n)!.offset;
    // S = 8: s3 (8 words), s4 (4), s2 (3*2), s1 (1)
    assert.deepEqual([o('m::s3'), o('m::s4'), o('m::s2'), o('m::s1')], [8, 16, 20, 26]);
    assert.equal(p.classes.get('m')!.sharedEnd, 32);
    // P: p2 (8), p3 (2), p1 (5)
    assert.deepEqual([o('m::p2'), o('m::p3'), o('m::p1')], [0, 8, 10]);
    assert.equal(p.classes.get('m')!.privateWords, 15);
    const k = p.kernels.get('m::k')!;
    const byName = new Map(k.params.map((x) => [x.name, x] as [string, PcoreParam]));
    // P' = 16: c (vint16, 8), d (float4, 4), then w=0 in order: a, b, e's shadow, f
    assert.equal(byName.get('c')!.offset, 16);
    assert.equal(byName.get('d')!.offset, 24);
    assert.equal(byName.get('a')!.offset, 28);
    assert.equal(byName.get('b')!.offset, 29);
    assert.equal(byName.get('e')!.storage, 'pointer');
    assert.equal(byName.get('e')!.offset, undefined);
    assert.equal(byName.get('e')!.shadowOffset, 30);
    assert.equal(byName.get('f')!.offset, 31);
    assert.equal(k.privateWords, 32);
    // a helper's parameters also start at ROUND8(P)
    assert.equal(p.kernels.get('m::h')!.params[0].offset, 16);
    assert.equal(p.kernels.get('m::h')!.isKernel, false);
  });

  test('float16 is never allocated (wider than the vector)', () => {
    const p = analyze('float16 w::x;\n_share float16 w::y;\n');
    assert.equal(p.variables.get('w::x')!.offset, undefined);
    assert.equal(p.variables.get('w::y')!.lanes, 16);
    assert.ok(p.diagnostics.some((d) => d.code === 'pcore.float16' && d.severity === 'warning'));
  });

  test('array dimensions that cannot be evaluated make later offsets unknown', () => {
    const p = analyze('#include "app.h"\n_share vint16 u::a[N];\n_share vint16 u::b[2];\nvint16 u::c[3];\n');
    const a = p.variables.get('u::a')!;
    assert.equal(a.sizeKnown, false);
    assert.ok(Number.isNaN(a.len));
    assert.deepEqual(a.dimTexts, ['N']);
    assert.equal(a.offset, 0);
    assert.equal(p.variables.get('u::b')!.offset, undefined);
    assert.equal(p.variables.get('u::c')!.offset, 0);
    const d = p.diagnostics.find((x) => x.code === 'pcore.array-dim')!;
    assert.equal(d.severity, 'information');
    assert.match(d.message, /`N` is not defined/);
  });
});

// ---------------------------------------------------------------------------------------------
describe('symbol index', () => {
  test('lookupMember resolves class variables, parameters and root.constant like the tensor compiler', () => {
    const p = analyze(fixture('filt.p'));
    const v = p.lookupMember('filt::w');
    assert.ok(v.ok && v.via === 'classVar' && v.variable.fullName === 'filt::w');
    const g = p.lookupMember('filt::setup.gain_in');
    assert.ok(g.ok && g.via === 'param' && g.param?.offset === 28 && g.kernel?.fullName === 'filt::setup');
    const k = p.lookupMember(' filt::taps3.k ');
    assert.ok(k.ok && k.param?.global === true && k.param.globalSlot === 0);
    const fb = p.lookupMember('filt::clear.w');
    assert.ok(fb.ok && fb.via === 'classVarViaFunction' && fb.variable.fullName === 'filt::w');
    const root = p.lookupMember('root.constant');
    assert.ok(root.ok && root.via === 'rootConstant' && root.variable.len === 4096 && root.variable.numDim === 1);
    const bad = [
      ['filt::nothing', 'Undefined function parameter'],
      ['filt::nofn.x', 'Undefined function parameter'],
      ['filt::setup.nothing', 'Undefined function parameter'],
      ['plain', 'Invalid function parameter'],
      ['filt::setup.a.b', 'Invalid function parameter'],
      ['filt.x', 'Invalid function parameter'],
    ];
    for (const [text, message] of bad) {
      const r = p.lookupMember(text);
      assert.ok(!r.ok, text);
      assert.equal(r.message, message, text);
    }
  });

  test('variables carry ranges, shapes and GetNumDim', () => {
    const src = fixture('edge.p');
    const p = analyze(src);
    const sx = p.variables.get('edge::sx')!;
    assert.deepEqual(sx.nameRange, memberRangeOf(src, 'edge::sx'));
    assert.deepEqual(sx.range, rangeOf(src, '_share int16 edge::sx[TAPS][TAPS];'));
    assert.deepEqual([sx.dims, sx.dimTexts, sx.numDim, sx.lanes], [[3, 3], ['TAPS', 'TAPS'], 2, 1]);
    const tile = p.variables.get('edge::tile')!;
    assert.deepEqual([tile.dims, tile.numDim, tile.shape], [[36], 2, [36, 8]]);
    const k = p.kernels.get('edge::sobel')!;
    assert.deepEqual(k.nameRange, memberRangeOf(src, 'edge::sobel'));
    assert.deepEqual(
      k.locals.map((l) => l.name),
      ['r', 'c', 'w', 'dx', 'dy', 'big', 'small', 'test'],
    );
    assert.equal(k.locals.find((l) => l.name === 'w')!.storage, 'pointer');
  });

  test('identifiers are resolved (locals, class variables, builtins, intrinsics) and symbolAt works', () => {
    const src = fixture('edge.p');
    const p = analyze(src);
    const idx = src.indexOf('_VMASK = GE(v, high)');
    const atVmask = p.symbolAt(idx + 1);
    assert.deepEqual(atVmask?.symbol, { kind: 'builtin', name: '_VMASK' });
    const atGe = p.symbolAt(src.indexOf('GE(v, high)'));
    assert.deepEqual(atGe?.symbol, { kind: 'intrinsic', name: 'GE' });
    const atHigh = p.symbolAt(src.indexOf('high)'));
    assert.equal(atHigh?.symbol.kind, 'variable');
    assert.equal(atHigh?.symbol.kind === 'variable' && atHigh.symbol.variable.fullName, 'edge2::high');
    const atV = p.symbolAt(src.indexOf('v = peak_p'));
    assert.equal(atV?.symbol.kind, 'local');
    const decl = p.symbolAt(src.indexOf('edge2::low;') + 2);
    assert.equal(decl?.declaration, true);
    // the AST identifier nodes carry the same symbols
    const body = kernelBody(p, 'edge2::hysteresis');
    const assign = (body.find((s) => s.kind === 'ExprStmt') as A.ExprStmt).expression as A.AssignExpr;
    assert.equal((assign.target as A.IndexExpr).object.kind, 'Identifier');
    const target = (assign.target as A.IndexExpr).object as A.Identifier;
    assert.equal(target.symbol?.kind === 'variable' && target.symbol.variable.fullName, 'edge2::mark_p');
  });

  test('formatPcoreVariable gives a one-line summary', () => {
    const p = analyze(fixture('add.p'));
    assert.equal(formatPcoreVariable(p.variables.get('test::_A')!), 'private vint16 test::_A — 8 words (shape [8]) at word offset 0');
    const f = analyze(fixture('filt.p'));
    assert.equal(formatPcoreVariable(f.variables.get('filt::w')!), 'shared vint16 filt::w[49] — 392 words (shape [49,8]) at word offset 8');
    assert.equal(formatPcoreVariable(f.variables.get('filt::gain')!), 'private int16 filt::gain — 1 word (scalar) at word offset 16');
    assert.match(formatPcoreVariable(f.variables.get('filt::acc')!), /^accumulator vint32 filt::acc\[2\] — 16 lanes .*not addressable/);
    assert.match(formatPcoreVariable(f.variables.get('filt::p')!), /^pointer int16 \*filt::p — pointer register/);
    assert.match(formatPcoreVariable(f.variables.get('filt::shift')!), /^integer int filt::shift — integer register/);
    assert.match(formatPcoreVariable(f.kernels.get('filt::taps3')!.params[1]), /^_global int parameter filt::taps3\.at — slot 1 \(integer register 2\)/);
    assert.equal(
      formatPcoreVariable(f.kernels.get('filt::setup')!.params[0]),
      'private parameter int filt::setup.step — 1 word (scalar) (private shadow of an int parameter) at word offset 24',
    );
  });

  test('CRLF line endings give the same index', () => {
    const src = fixture('filt.p').replace(/\r?\n/g, '\r\n');
    const p = analyze(src);
    assert.deepEqual(errors(p), []);
    assert.equal(p.variables.get('filt::strip')!.offset, 416);
    assert.deepEqual(p.variables.get('filt::strip')!.nameRange, memberRangeOf(src, 'filt::strip'));
  });

  test('extern prototypes and _NTn_ class declarations are parsed and ignored', () => {
    const src = `
extern void kernel_run(unsigned int n, const uint8_t *src, int table[4], struct cfg *c);
extern int kernel_count;
_NT16_ class alpha, beta;
_NT4_ class gamma;
vint16 alpha::x;
`;
    const p = analyze(src);
    assert.deepEqual(p.diagnostics, []);
    const kinds = p.ast.items.map((i) => i.kind);
    assert.deepEqual(kinds, ['ExternDecl', 'ExternDecl', 'ClassDecl', 'ClassDecl', 'Declaration']);
    const nt = p.ast.items[2] as A.ClassDecl;
    assert.deepEqual([nt.threads, nt.names.map((n) => n.name)], [16, ['alpha', 'beta']]);
    assert.equal((p.ast.items[0] as A.ExternDecl).name, 'kernel_run');
    assert.equal(p.variables.size, 1);
  });
});

// ---------------------------------------------------------------------------------------------
describe('diagnostics', () => {
  test('syntax error', () => {
    const d = expectDiag('vint16 t::a;\n_kernel_ void t::f() {\n  a = 1 a = 2;\n}\n', 'pcore.syntax', 'a', { nth: 2 });
    assert.match(d.message, /syntax error: expected `;`/);
  });

  test('Undefined variable', () => {
    expectDiag('vint16 t::a;\n_kernel_ void t::f() {\n  a = zz + 1;\n}\n', 'pcore.undefined', 'zz', { message: /Undefined variable `zz`/ });
  });

  test('undefined names are downgraded when an include could not be read', () => {
    expectDiag('#include "app.h"\nvint16 t::a;\n_kernel_ void t::f() {\n  a = LIMIT;\n}\n', 'pcore.undefined', 'LIMIT', { severity: 'information' });
  });

  test('Variable already defined: class variables, locals and parameters', () => {
    expectDiag('vint16 t::a;\nint16 t::a;\n', 'pcore.redefined', 't::a', { nth: 1, message: /Variable already defined/ });
    expectDiag('_kernel_ void t::f() {\n  int count;\n  vint16 count;\n}\n', 'pcore.redefined', 'count', { nth: 1 });
    expectDiag('_kernel_ void t::f(int size) {\n  int size;\n}\n', 'pcore.redefined', 'size', { nth: 1 });
    // a nested block may shadow
    const p = analyze('_kernel_ void t::f() {\n  int i;\n  { int i; i = 1; }\n}\n');
    assert.deepEqual(p.diagnostics, []);
  });

  test('division and modulo are only allowed on constants', () => {
    expectDiag('vint16 t::a;\n_kernel_ void t::f() {\n  a = a / 2;\n}\n', 'pcore.division', '/', { message: /Divide operation is not supported/ });
    expectDiag('_kernel_ void t::f() {\n  int i;\n  i = tid % 4;\n}\n', 'pcore.modulo', '%', { message: /Modulo operation is not supported/ });
    expectDiag('_kernel_ void t::f() {\n  int i;\n  i /= 2;\n}\n', 'pcore.division', '/=');
    const ok = analyze('#define N 10\nvint16 t::a[N/2];\n_kernel_ void t::f() {\n  a[N % 3] = a[(N+2)/4] * (8/2);\n}\n');
    assert.deepEqual(ok.diagnostics, []);
    assert.deepEqual(ok.variables.get('t::a')!.dims, [5]);
  });

  test('Kernel function must return void', () => {
    expectDiag('_kernel_ int t::f() {\n}\n', 'pcore.kernel-return', 'int', { message: /Kernel function must return void/ });
    expectDiag('_kernel_ void t::f() {\n  return 1;\n}\n', 'pcore.return-value', 'return 1;');
    // helpers may return values
    assert.deepEqual(analyze('int16 t::h(int16 x) {\n  return x;\n}\n').diagnostics, []);
  });

  test('Invalid function name and Duplicate function name', () => {
    expectDiag('_kernel_ void run() {\n}\n', 'pcore.function-name', 'run', { message: /Invalid function name: `run` must be written class::name/ });
    assert.equal(analyze('_kernel_ void run() {\n}\n').kernels.size, 0);
    const src = '_kernel_ void t::f() {\n}\n_kernel_ void t::f() {\n}\n';
    expectDiag(src, 'pcore.duplicate-function', 't::f', { nth: 1, message: /Duplicate function name/ });
    assert.equal(analyze(src).kernels.size, 1);
  });

  test('Share variable is only available for global variable', () => {
    expectDiag('_kernel_ void t::f() {\n  _share vint16 x;\n}\n', 'pcore.share-scope', '_share', {
      message: /Share variable is only available for global variable/,
    });
    expectDiag('_kernel_ void t::f(_share int16 x) {\n}\n', 'pcore.share-scope', '_share');
    expectDiag('_share int t::n;\n', 'pcore.share-type', 'int', { message: /Only float are supported for global variables/ });
  });

  test('Integer parameter must be scalar; at most two _global int parameters', () => {
    expectDiag('_kernel_ void t::f(int x[4]) {\n}\n', 'pcore.int-param-scalar', 'x[4]', { message: /Integer parameter must be scalar/ });
    expectDiag('_kernel_ void t::f(_global int x[2]) {\n}\n', 'pcore.int-param-scalar', 'x[2]');
    const src = '_kernel_ void t::f(_global int a, _global int b, _global int c) {\n}\n';
    const d = expectDiag(src, 'pcore.global-params', '_global int c', { message: /at most 2 `_global int` parameters/ });
    assert.match(d.message, /out of integer auto memory/);
    expectDiag('_kernel_ void t::f(_global int16 a) {\n}\n', 'pcore.invalid-specifier', '_global int16 a');
    expectDiag('_kernel_ void t::f(unsigned int a) {\n}\n', 'pcore.invalid-specifier', 'unsigned int');
    expectDiag('_kernel_ void t::f(vint32 a) {\n}\n', 'pcore.param-type', 'vint32');
  });

  test('float, float8, double and vint8 are not types (the message lists the types)', () => {
    for (const t of ['float', 'float8', 'double', 'vint8']) {
      const d = expectDiag(`${t} t::x;\n`, 'pcore.unknown-type', t);
      assert.equal(d.message, `\`${t}\` is not a PCORE type (available types: int16, vint16, int32, vint32, int, unsigned int, float2, float4, float16)`);
      expectDiag(`_kernel_ void t::f() {\n  ${t} y;\n  y = 1;\n}\n`, 'pcore.unknown-type', t);
    }
    expectDiag('char t::c;\n', 'pcore.unknown-type', 'char', { message: /Unsupported variable type `char`/ });
  });

  test('static and const are not supported', () => {
    expectDiag('static vint16 t::x;\n', 'pcore.unsupported-storage', 'static', { message: /Static variable not supported/ });
    expectDiag('const int16 t::x;\n', 'pcore.unsupported-storage', 'const', { message: /Constant variables not supported/ });
    expectDiag('_kernel_ void t::f() {\n  static int i;\n}\n', 'pcore.unsupported-storage', 'static');
  });

  test('out of memory for the pcore memory space', () => {
    // shared alone: 8 (constants) + 2048 > 2048
    expectDiag('_share vint16 big::a[256];\n', 'pcore.out-of-memory', 'big::a', {
      analyze: { constantsCount: 1 },
      message: /out of memory for pcore memory space/,
    });
    // private per thread > 256
    expectDiag('vint16 big::p[33];\n', 'pcore.out-of-memory', 'big::p', { message: /out of memory for private memory space/ });
    // 16*ROUND8(P) + ROUND8(S): 16*64 + 1032 > 2048, reported at the variable that crosses the limit
    const src = '_share int16 big::s[1032];\nvint16 big::p[8];\n';
    expectDiag(src, 'pcore.out-of-memory', 'big::p', { analyze: { constantsCount: 0 } });
    // exactly at the limit is fine: 16*64 + 1024
    assert.deepEqual(analyze('_share int16 big::s[1024];\nvint16 big::p[8];\n', { constantsCount: 0 }).diagnostics, []);
    // kernel parameters push it over: P' = ROUND8(120) + 8 = 128 -> 16*128 + 8 > 2048
    const k = '_share vint16 big::s;\nvint16 big::p[15];\n_kernel_ void big::f(vint16 extra) {\n}\n';
    expectDiag(k, 'pcore.out-of-memory', 'big::f', { analyze: { constantsCount: 0 } });
    // accumulators: 9 vint32 > 64 lanes
    expectDiag('vint32 acc::a[9];\n', 'pcore.out-of-memory', 'acc::a', { message: /accumulator space/ });
  });

  test('reserved names, scalar-only int variables, initializers', () => {
    expectDiag('vint16 t::tid;\n', 'pcore.reserved-name', 't::tid', { message: /reserved name/ });
    expectDiag('_kernel_ void t::f() {\n  vint16 add;\n}\n', 'pcore.reserved-name', 'add');
    expectDiag('int t::n[4];\n', 'pcore.array-not-allowed', 't::n', { message: /Array is not allowed for this variable type/ });
    expectDiag('_kernel_ void t::f() {\n  int i = tid;\n}\n', 'pcore.initializer', 'tid', { nth: 0 });
    assert.deepEqual(analyze('vint16 t::k[2] = {{1,2,3,4,5,6,7,8},{-1,0,0,0,0,0,0,0}};\n').diagnostics, []);
  });

  test('operations the PCORE ALUs do not have', () => {
    expectDiag('vint16 t::a;\n_kernel_ void t::f() {\n  a = a & 3;\n}\n', 'pcore.float-op', '&', { message: /Operation not supported for floating point/ });
    // lane masks are ints: fine
    assert.deepEqual(
      analyze('vint16 t::a;\nvint16 t::b;\n_kernel_ void t::f() {\n  int m;\n  m = GE(a, b);\n  _VMASK = LT(a, 0) & m;\n  _VMASK = -1;\n}\n').diagnostics,
      [],
    );
    expectDiag('_kernel_ void t::f() {\n  break;\n}\n', 'pcore.break-outside', 'break;');
    expectDiag('vint16 t::a;\n_kernel_ void t::f() {\n  a = GE(a);\n}\n', 'pcore.intrinsic-args', 'GE(a)');
    expectDiag('vint16 t::a;\n_kernel_ void t::f() {\n  a = MYSTERY(a);\n}\n', 'pcore.undefined-function', 'MYSTERY', { severity: 'warning' });
    expectDiag('_kernel_ void t::f() {\n  tid = 3;\n}\n', 'pcore.lvalue', 'tid');
    expectDiag('vint16 t::a[4];\n_kernel_ void t::f() {\n  a[4] = 1;\n}\n', 'pcore.index-bounds', '4', { nth: 1, severity: 'warning' });
  });

  test('#pragma unroll must precede a loop', () => {
    const src = '_kernel_ void t::f() {\n  int i;\n#pragma unroll\n  i = 1;\n}\n';
    expectDiag(src, 'pcore.pragma', '#pragma unroll', { severity: 'warning' });
  });
});

// ---------------------------------------------------------------------------------------------
describe('error recovery', () => {
  test('two independent errors are both reported and later kernels are still indexed', () => {
    const src = `vint16 r::a;
_kernel_ void r::one() {
  a = (a + ;
  a = a + 1;
}
_kernel_ void r::two() {
  a = a b;
}
_kernel_ void r::three() {
  a = a * 2;
}
`;
    const p = analyze(src);
    const syn = p.diagnostics.filter((d) => d.code === 'pcore.syntax');
    assert.equal(syn.length, 2, show(p.diagnostics));
    assert.equal(syn[0].range.start.line, 2);
    assert.equal(syn[1].range.start.line, 6);
    assert.deepEqual([...p.kernels.keys()], ['r::one', 'r::two', 'r::three']);
    // the statement after the first error is still in the AST
    const one = kernelBody(p, 'r::one');
    assert.equal(sx((one[one.length - 1] as A.ExprStmt).expression), '(= a (+ a 1))');
  });

  test('a missing `;` at the end of a line does not swallow the next statement', () => {
    const src = 'vint16 r::a;\n_kernel_ void r::f() {\n  a = 1\n  a = 2;\n}\n';
    const p = analyze(src);
    assert.equal(p.diagnostics.length, 1);
    assert.match(p.diagnostics[0].message, /missing `;`/);
    assert.equal(kernelBody(p, 'r::f').length, 2);
  });

  test('an unclosed kernel body does not hide the next kernel', () => {
    const src = 'vint16 r::a;\n_kernel_ void r::f() {\n  a = 1;\n\n_kernel_ void r::g() {\n  a = 2;\n}\n';
    const p = analyze(src);
    assert.ok(p.diagnostics.some((d) => /missing `}`/.test(d.message)));
    assert.ok(p.kernels.has('r::g'));
  });

  test('errors in declarations do not stop the index', () => {
    const src = '_share vint16 r::a[;\nvint16 r::b;\nint16 r::c[2] 3;\nvint16 r::d;\n';
    const p = analyze(src);
    assert.ok(p.variables.has('r::b'));
    assert.ok(p.variables.has('r::d'));
    assert.ok(errors(p).length >= 2);
  });
});

// ---------------------------------------------------------------------------------------------
describe('AST', () => {
  test('binary precedence and associativity follow C', () => {
    const cases: [string, string][] = [
      ['i = i + j * k', '(= i (+ i (* j k)))'],
      ['i = i - j - k', '(= i (- (- i j) k))'],
      ['i = j = k', '(= i (= j k))'],
      ['i += j << 2 + 1', '(+= i (<< j (+ 2 1)))'],
      ['i = i < j == j > k', '(= i (== (< i j) (> j k)))'],
      ['i = i & j ^ k | 1', '(= i (| (^ (& i j) k) 1))'],
      ['i = i || j && k', '(= i (|| i (&& j k)))'],
      ['i = i ? j : k ? 1 : 2', '(= i (? i j (? k 1 2)))'],
      ['i = (i + j) * k', '(= i (* (+ i j) k))'],
      ['i = -j * ~k', '(= i (* (- j) (~ k)))'],
      ['i = !i != j', '(= i (!= (! i) j))'],
      ['a = *p++', '(= a (* (++post p)))'],
      ['p = &a[2]', '(= p (& ([] a 2)))'],
      ['i = ++j + k--', '(= i (+ (++pre j) (--post k)))'],
      ['i = (int)j >> 1', '(= i (>> (cast int j) 1))'],
      ['a = GE(a, b) & c', '(= a (& (call GE a b) c))'],
      ['i = i, j = j', '(, (= i i) (= j j))'],
      ['i %= j <= k >= 1', '(%= i (>= (<= j k) 1))'],
    ];
    for (const [src, want] of cases) {
      const { e } = exprOf(src);
      assert.equal(sx(e), want, src);
    }
  });

  test('every node carries its source range', () => {
    const src = 'vint16 t::a[4];\nint t::i;\n_kernel_ void t::f() {\n  t::a[i + 1] = (a[0] * 3) + GE(a[1], 2);\n}\n';
    const p = analyze(src);
    assert.deepEqual(p.diagnostics, []);
    const st = kernelBody(p, 't::f')[0] as A.ExprStmt;
    const asg = st.expression as A.AssignExpr;
    const slice = (n: { start: number; end: number }): string => src.slice(n.start, n.end);
    assert.equal(slice(st), 't::a[i + 1] = (a[0] * 3) + GE(a[1], 2);');
    assert.equal(slice(asg), 't::a[i + 1] = (a[0] * 3) + GE(a[1], 2)');
    assert.equal(slice(asg.target), 't::a[i + 1]');
    assert.equal(slice((asg.target as A.IndexExpr).index), 'i + 1');
    const plus = asg.value as A.BinaryExpr;
    assert.equal(slice(plus), '(a[0] * 3) + GE(a[1], 2)');
    assert.equal(src[plus.opStart], '+');
    assert.equal(slice(plus.left), 'a[0] * 3');
    assert.equal(src.slice(plus.left.parenStart, plus.left.parenEnd), '(a[0] * 3)');
    assert.equal(slice(plus.right), 'GE(a[1], 2)');
    const id = (asg.target as A.IndexExpr).object as A.Identifier;
    assert.deepEqual([id.name, id.scope, id.member], ['t::a', 't', 'a']);
    const fn = p.kernels.get('t::f')!.node;
    assert.equal(slice(fn), src.slice(src.indexOf('_kernel_'), src.lastIndexOf('}') + 1));
    assert.equal(slice(fn.body), src.slice(src.indexOf('{'), src.lastIndexOf('}') + 1));
  });

  test('statements: if/else, loops, switch, jumps, declarations, pragmas', () => {
    const src = `vint16 s::v[8];
int16 s::h(int16 x) {
  return x;
}
_kernel_ void s::f(_global int n) {
  int i, j;
  vint16 acc;
  if (n) if (tid) acc = 1; else acc = 2;
#pragma unroll
  for (i = 0; i < 8; i++) {
    if (i == 3) continue;
    acc += v[i];
  }
  for (int k = 0; k < n; k++) acc = acc;
  while (j < n) { j++; if (j) break; }
  do j--; while (j > 0);
  switch (n) {
    case 0:
    case 1: acc = 0; break;
    default: acc = s::h(acc);
  }
  return;
}
`;
    const p = analyze(src);
    assert.deepEqual(p.diagnostics, [], show(p.diagnostics));
    const body = kernelBody(p, 's::f');
    assert.deepEqual(
      body.map((s) => s.kind),
      ['DeclStmt', 'DeclStmt', 'If', 'For', 'For', 'While', 'DoWhile', 'Switch', 'Return'],
    );
    const decl = body[0] as A.DeclStmt;
    assert.deepEqual(
      decl.declaration.declarators.map((d) => d.name),
      ['i', 'j'],
    );
    assert.equal(decl.declaration.type.name, 'int');
    // dangling else binds to the inner if
    const outer = body[2] as A.IfStmt;
    assert.equal(outer.alternate, null);
    assert.equal((outer.consequent as A.IfStmt).alternate?.kind, 'ExprStmt');
    const loop = body[3] as A.ForStmt;
    assert.equal(loop.unroll, true);
    assert.equal(loop.pragmas[0].text, 'unroll');
    assert.equal(sx(loop.init as A.Expr), '(= i 0)');
    assert.equal(sx(loop.test!), '(< i 8)');
    assert.equal(sx(loop.update!), '(++post i)');
    assert.deepEqual(
      (loop.body as A.Block).body.map((s) => s.kind),
      ['If', 'ExprStmt'],
    );
    const loop2 = body[4] as A.ForStmt;
    assert.equal(loop2.unroll, false);
    assert.equal(loop2.init?.kind, 'DeclStmt');
    const sw = body[7] as A.SwitchStmt;
    assert.deepEqual(
      sw.cases.map((c) => (c.test ? sx(c.test) : 'default')),
      ['0', '1', 'default'],
    );
    assert.deepEqual(
      sw.cases.map((c) => c.consequent.map((s) => s.kind)),
      [[], ['ExprStmt', 'Break'], ['ExprStmt']],
    );
    const call = ((sw.cases[2].consequent[0] as A.ExprStmt).expression as A.AssignExpr).value as A.CallExpr;
    assert.equal(call.callee.kind === 'Identifier' && call.callee.symbol?.kind, 'function');
    const k = p.kernels.get('s::f')!;
    assert.equal(k.params[0].global, true);
    assert.equal(p.kernels.get('s::h')!.returnType, 'int16');
  });

  test('global declarations keep specifiers, type, pointer and dimension expressions', () => {
    const src = '#define W 4\n_share vint16 g::a[W][2], g::b;\nint16 *g::p;\nunsigned int g::u;\nint32 g::acc;\n';
    const p = analyze(src);
    assert.deepEqual(p.diagnostics, []);
    const d = p.ast.items[0] as A.Declaration;
    assert.deepEqual(
      d.specifiers.map((s) => s.name),
      ['_share'],
    );
    assert.equal(d.type.name, 'vint16');
    assert.equal(d.declarators.length, 2);
    assert.equal(d.declarators[0].dims.length, 2);
    assert.equal(sx(d.declarators[0].dims[0]!), '4');
    assert.equal((d.declarators[0].dims[0] as A.NumberLiteral).macro, 'W');
    assert.deepEqual(p.variables.get('g::a')!.shape, [4, 2, 8]);
    assert.deepEqual([p.variables.get('g::p')!.pointer, p.variables.get('g::p')!.storage], [true, 'pointer']);
    assert.equal(p.variables.get('g::u')!.type, 'unsigned int');
    assert.deepEqual([p.variables.get('g::acc')!.storage, p.variables.get('g::acc')!.lanes], ['accumulator', 8]);
  });
});

// ---------------------------------------------------------------------------------------------
describe('macros and preprocessing', () => {
  test('#define values are used in array dimensions and recorded', () => {
    const src = '#define ROWS 6\n#define SQ(x) ((x)*(x))\n#define AREA (ROWS*SQ(2))\n_share vint16 m::a[AREA];\nint16 m::b[SQ(3)];\n';
    const p = analyze(src);
    assert.deepEqual(p.diagnostics, []);
    assert.deepEqual(p.variables.get('m::a')!.dims, [24]);
    assert.deepEqual(p.variables.get('m::a')!.dimTexts, ['AREA']);
    assert.deepEqual(p.variables.get('m::b')!.dims, [9]);
    const sq = p.defines.get('SQ')!;
    assert.deepEqual(sq.params, ['x']);
    assert.equal(sq.value, '((x)*(x))');
    assert.deepEqual(sq.range, rangeOf(src, '#define SQ(x) ((x)*(x))'));
    assert.deepEqual(sq.nameRange, rangeOf(src, 'SQ'));
    assert.equal(p.defines.get('ROWS')!.value, '6');
    assert.equal(p.defines.get('ROWS')!.file, undefined);
  });

  test('macro expansion in kernels: the AST holds the expanded tokens with the invocation range', () => {
    const src = `#define MARK 255
#define BUMP(hi, lo, x) { lo = lo + (x); _VMASK = GT(lo, 100); hi = hi + 1; lo = lo - 100; _VMASK = -1; }
vint16 c::hi;
vint16 c::lo;
_kernel_ void c::f() {
  hi = MARK;
  BUMP(hi, lo, 7);
}
`;
    const p = analyze(src);
    assert.deepEqual(p.diagnostics, []);
    const body = kernelBody(p, 'c::f');
    const mark = ((body[0] as A.ExprStmt).expression as A.AssignExpr).value as A.NumberLiteral;
    assert.deepEqual([mark.kind, mark.value, mark.macro], ['NumberLiteral', 255, 'MARK']);
    assert.equal(src.slice(mark.start, mark.end), 'MARK');
    const blk = body[1] as A.Block;
    assert.equal(blk.kind, 'Block');
    assert.equal(blk.body.length, 5);
    assert.equal(src.slice(blk.start, blk.end), 'BUMP(hi, lo, 7)');
    // argument tokens keep their own source positions
    const first = (blk.body[0] as A.ExprStmt).expression as A.AssignExpr;
    assert.equal(src.slice(first.target.start, first.target.end), 'lo');
    assert.deepEqual(
      p.constants.sort((a, b) => a - b),
      [1, 7, 100, 255],
    );
  });

  test('conditional compilation', () => {
    const src = `#define LEVEL 3
#if 0
vint16 x::never;
#endif
#ifdef LEVEL
vint16 x::yes1;
#else
vint16 x::no1;
#endif
#ifndef MISSING
vint16 x::yes2;
#endif
#if defined(LEVEL) && LEVEL > 4
vint16 x::no2;
#elif LEVEL == 3
vint16 x::yes3;
#else
vint16 x::no3;
#endif
#if UNKNOWN_NAME
vint16 x::no4;
#endif
#undef LEVEL
#ifdef LEVEL
vint16 x::no5;
#endif
`;
    const p = analyze(src);
    assert.deepEqual(p.diagnostics, []);
    assert.deepEqual([...p.variables.keys()].sort(), ['x::yes1', 'x::yes2', 'x::yes3']);
    assert.equal(p.inactiveRanges.length, 6);
    assert.equal(p.inactiveRanges[0].start.line, 2);
    assert.equal(p.defines.has('LEVEL'), false);
  });

  test('defines option, includes and the zta.h machine constants', () => {
    const src = '#include "../../base/zta.h"\n#include "app.h"\n#include <stdio.h>\n_share vint16 o::a[NUM_THREAD_PER_CORE*TILE];\n';
    const p = analyze(src, { defines: new Map([['TILE', '2']]) });
    assert.deepEqual(p.diagnostics, []);
    assert.deepEqual(p.variables.get('o::a')!.dims, [32]);
    assert.deepEqual(
      p.includes.map((i) => [i.path, i.system, i.resolved]),
      [
        ['../../base/zta.h', false, false],
        ['app.h', false, false],
        ['stdio.h', true, false],
      ],
    );
    assert.deepEqual(p.includes[1].range, rangeOf(src, '#include "app.h"'));
    assert.equal(p.defines.get('TILE')!.file, '<options>');
    assert.equal(p.defines.get('VECTOR_WIDTH')!.file, '<zta.h>');
  });

  test('resolveInclude lets headers provide macros', () => {
    const headers: Record<string, string> = {
      'app.h': '#ifndef APP_H\n#define APP_H\n#include "sizes.h"\n#define TILE (BASE*2)\nextern void kernel_go(int n);\n#endif\n',
      'sizes.h': '#define BASE 3\n',
    };
    const seen: string[] = [];
    const p = analyze('#include "app.h"\nint16 h::a[TILE];\n', {
      resolveInclude: (path, from) => {
        seen.push(`${from}>${path}`);
        return headers[path];
      },
    });
    assert.deepEqual(p.diagnostics, []);
    assert.deepEqual(p.variables.get('h::a')!.dims, [6]);
    assert.deepEqual(seen, ['t.p>app.h', 'app.h>sizes.h']);
    assert.equal(p.defines.get('TILE')!.file, 'app.h');
    assert.equal(p.defines.get('TILE')!.range.start.line, 3);
    assert.equal(p.includes[0].resolved, true);
  });

  test('preprocessor errors', () => {
    expectDiag('#endif\n', 'pcore.preprocessor', '#endif');
    expectDiag('#if 1\nvint16 a::b;\n', 'pcore.preprocessor', '#if 1');
    expectDiag('#define F(a, b) a+b\nint16 a::b[F(1)];\n', 'pcore.preprocessor', 'F(1)', { message: /expects 2 arguments/ });
    expectDiag('#error stop here\n', 'pcore.preprocessor', '#error stop here', { message: /#error stop here/ });
  });
});
