/**
 * Robustness properties shared by the fuzz unit tests (test/unit/fuzz*.test.ts, bounded runs) and the
 * long fuzzing script (scripts/fuzz.mjs): inputs (random bytes, mutations of the real example
 * programs, token soup), and checks that every engine entry point returns, within a time bound,
 * results whose ranges lie inside the document.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import fc from 'fast-check';
import type { Diagnostic, Position, Range } from '../../core/common/diagnostic';
import { analyzePcore, formatPcoreVariable } from '../../core/pcore';
import type { FileSystem } from '../../core/project/fileSystem';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import { Project } from '../../core/project/project';
import { analyzeTprog, type Dialect, type TprogAnalysis } from '../../core/tprog/analyze';
import { complete } from '../../core/tprog/features/complete';
import { hover } from '../../core/tprog/features/hover';
import { inlayHints } from '../../core/tprog/features/inlay';
import { definition, references } from '../../core/tprog/features/navigate';
import { transferPreview } from '../../core/tprog/features/preview';
import { signatureHelp } from '../../core/tprog/features/signature';
import { documentSymbols, type DocSymbol } from '../../core/tprog/features/symbols';
import { semanticTokens } from '../../core/tprog/features/tokens';

export const ROOT = resolve(__dirname, '..', '..');

export interface Seed {
  /** Path in the in-memory file system (`/w/<dir>/<file>`). */
  path: string;
  text: string;
}

const read = (p: string) => readFileSync(resolve(ROOT, p), 'utf8');

/** Every file of examples/ in an in-memory tree `/w/<dir>/<name>`, so `.m` files pair with their `.p` and headers. */
export const EXAMPLE_FILES: Record<string, string> = {};
for (const dir of readdirSync(resolve(ROOT, 'examples'), { withFileTypes: true })) {
  if (!dir.isDirectory()) continue;
  for (const f of readdirSync(resolve(ROOT, 'examples', dir.name), { withFileTypes: true })) if (f.isFile()) EXAMPLE_FILES[`/w/${dir.name}/${f.name}`] = read(`examples/${dir.name}/${f.name}`);
}

export const TPROG_SEEDS: Seed[] = Object.entries(EXAMPLE_FILES)
  .filter(([p]) => p.endsWith('.m'))
  .map(([path, text]) => ({ path, text }));

export const PCORE_SEEDS: Seed[] = [
  ...Object.entries(EXAMPLE_FILES)
    .filter(([p]) => p.endsWith('.p'))
    .map(([path, text]) => ({ path, text })),
  ...readdirSync(resolve(ROOT, 'test/fixtures/pcore')).filter((f) => f.endsWith('.p')).map((f) => ({ path: `/w/fixtures/${f}`, text: read(`test/fixtures/pcore/${f}`) })),
  { path: '/w/fixtures/broken.p', text: read('test/fixtures/lsp/broken.p') },
];

// ---------------------------------------------------------------------------------------------
// inputs

/** Pieces of the statement language, C and preprocessor, and awkward characters and names. */
export const FRAGMENTS = [
  '>', '> ', '>\t', '<=', ':=', '[', ']', '(', ')', '::', ':', '$', ';', ',', '.', '*', '+', '-', '/', '%', '<<', '>>', '?', '&', '|', '~', '!', '=',
  '\n', '\r\n', '\r', '\\\n', '/*', '*/', '//', '"', "'", '{', '}', '\t', ' ', '  ', '\u00a0', '\u2028', '\ud800', '\udc00', '😀', '\0', '\x7f', '\ufeff',
  '#define N 8\n', '#define F(a,b) ((a)*(b))\n', '#define SELF SELF\n', '#include "test.h"\n', '#include "blur.h"\n', '#include "missing.h"\n', '#if 0\n', '#ifdef X\n', '#else\n', '#endif\n', '#undef N\n',
  'FOR(I=0:7) ', 'FOR(J=0:N-1)', 'FOR(', 'DTYPE(INT16)', 'DTYPE(INT8)', 'DTYPE(UINT8)', 'DTYPE(t)', 'DTYPE(', 'PCORE(NUM_PCORE)', 'PCORE(8)[:]', 'PCORE(2,4)[1][*]', 'PCORE[0:1]', 'PCORE',
  '.THREAD[0:15]', '.THREAD(4,4)[:][:]', 'THREAD', 'MEM(p,16,16)', 'MEM(p)', 'MEM(req->input)', 'MEM(p,(64)(8,8))', 'MEM(p,8+)', 'MEM', 'SCRATCH(0,8)', 'DDR(p)', 'INT16(3)', 'INT8(-1)', 'INT16(',
  'EXE_LOCKSTEP(', 'EXE_LOCKSTEP(test::add,NUM_PCORE);', 'EXE(', 'BARRIER;', 'CALLBACK(f,0);', 'PRINT(1,2);', 'LOG_ON;', 'NOP;', 'EXPORT', 'CONCURRENT ', 'REMAP(1) ', 'LATEST ', 'PAD(0) ', 'REPEAT ', 'SCATTER ', 'PROC(1) ', '(int16)', '(uint8)',
  '[$]', '$v', '$v :=', '$out_pc', '$dst_mem[0]', 'VAR $x;', 'test::_A', 'test::_Z', 'test::add', 'test::add.x', 'calc::in', 'calc::run.gain', 'calc::acc', 'calc::lut', 'blur::win(4,4,8)', 'blur::row3.shift', 'tone::out(2,4,4,8)', 'root.constant', 'x::y::z',
  '[0:7]', '[*]', '[:]', '[-1]', '[0:-1]', '[7:0]', '[0:NUM_PCORE-1]', '[from:to]', '[I]', '[J][J]', '[0][0][0][0][0][0][0][0]', '0', '1', '-1', '8', '0x7fffffff', '0xffffffff', '2147483648', '99999999999999999999', '1e9', '0b101', '010', '1/0', '1%0', '1<<40', '-2147483648/-1',
  'void g(void) {', 'static void h(int p) {', 'int x = 3;', 'int x = x;', 'static int a[4];', 'uint32_t p = (uint32_t)&buf[0];', 'ztaTaskYield();', 'for (int i = 0; i < 8; i++)', 'return;', 'typedef struct { int a; } S;',
  'NaN', 'Infinity', 'undefined', 'null', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'NUM_PCORE', 'VECTOR_WIDTH', 'BUFSZ', 'TILE_H', 'from', 'to', 'req', 'p', 'I', 'J',
];

export const fragmentArb = fc.constantFrom(...FRAGMENTS);

/** Arbitrary text: any UTF-16 code units (lone surrogates included), any code points, ASCII, or a mix with fragments. */
export const textArb = (maxLength = 200): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength }),
    fc.string({ unit: 'grapheme-ascii', maxLength }),
    fc.array(fc.oneof(fragmentArb, fc.string({ maxLength: 4 })), { maxLength: Math.max(1, maxLength >> 2) }).map((a) => a.join('')),
  );

/** Random bytes decoded as Latin-1 (every byte a character, NUL, CR and DEL included) or as UTF-8 (with U+FFFD). */
export const bytesArb = (maxLength = 4000): fc.Arbitrary<string> =>
  fc.tuple(fc.uint8Array({ maxLength }), fc.boolean()).map(([b, latin1]) => Buffer.from(b).toString(latin1 ? 'latin1' : 'utf8'));

type Mutation = (s: string) => string;
const at = (s: string, f: number) => Math.floor(f * (s.length + 1));
const frac = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

export interface MutationLimits {
  /** Longest inserted line, characters. */
  maxLine?: number;
  /** Deepest inserted nesting. */
  maxNest?: number;
}

/** One edit of a text: delete/insert/duplicate/swap/replace characters, unbalanced brackets, very long lines, deep nesting, truncation. */
export const mutationArb = (limits: MutationLimits = {}): fc.Arbitrary<Mutation> => fc.oneof(
  // delete a slice
  fc.tuple(frac, fc.integer({ min: 1, max: 40 })).map(([f, n]): Mutation => (s) => s.slice(0, at(s, f)) + s.slice(at(s, f) + n)),
  // insert fragments
  fc.tuple(frac, fc.array(fragmentArb, { minLength: 1, maxLength: 6 })).map(([f, xs]): Mutation => (s) => s.slice(0, at(s, f)) + xs.join('') + s.slice(at(s, f))),
  // insert random text
  fc.tuple(frac, textArb(30)).map(([f, x]): Mutation => (s) => s.slice(0, at(s, f)) + x + s.slice(at(s, f))),
  // duplicate a slice somewhere else
  fc.tuple(frac, fc.integer({ min: 1, max: 200 }), frac).map(([f, n, g]): Mutation => (s) => {
    const piece = s.slice(at(s, f), at(s, f) + n);
    return s.slice(0, at(s, g)) + piece + s.slice(at(s, g));
  }),
  // swap two characters
  fc.tuple(frac, frac).map(([f, g]): Mutation => (s) => {
    const i = Math.min(at(s, f), s.length - 1);
    const j = Math.min(at(s, g), s.length - 1);
    if (i < 0 || j < 0 || i === j) return s;
    const a = [...s.split('')];
    [a[i], a[j]] = [a[j], a[i]];
    return a.join('');
  }),
  // swap two lines
  fc.tuple(frac, frac).map(([f, g]): Mutation => (s) => {
    const lines = s.split('\n');
    const i = Math.floor(f * lines.length);
    const j = Math.floor(g * lines.length);
    [lines[i], lines[j]] = [lines[j], lines[i]];
    return lines.join('\n');
  }),
  // replace one character
  fc.tuple(frac, fc.oneof(fragmentArb, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }))).map(([f, c]): Mutation => (s) => s.slice(0, at(s, f)) + c + s.slice(at(s, f) + 1)),
  // unbalanced brackets
  fc.tuple(frac, fc.constantFrom('(', ')', '[', ']', '{', '}', '/*', '"'), fc.integer({ min: 1, max: 50 })).map(([f, b, n]): Mutation => (s) => s.slice(0, at(s, f)) + b.repeat(n) + s.slice(at(s, f))),
  // very long line (a statement, C or a comment)
  fc.tuple(frac, fc.constantFrom('> ', '   > DTYPE(INT16)MEM(p)[0:1] <= ', 'int q = ', '// ', ''), fc.oneof(fragmentArb, fc.constantFrom('x', '1+', '[0]', 'FOR(I=0:1) ')), fc.integer({ min: 1000, max: Math.max(1000, limits.maxLine ?? 30000) })).map(
    ([f, head, unit, n]): Mutation =>
      (s) => {
        const i = at(s, f);
        return s.slice(0, i) + '\n' + head + unit.repeat(Math.ceil(n / Math.max(1, unit.length))) + '\n' + s.slice(i);
      },
  ),
  // deep nesting
  fc.tuple(frac, fc.constantFrom<[string, string]>(['(', ')'], ['[', ']'], ['{', '}'], ['MEM(', ')'], ['(1+', ')'], ['F(', ',1)']), fc.integer({ min: 10, max: Math.max(10, limits.maxNest ?? 3000) }), fc.boolean()).map(
    ([f, [o, c], n, closed]): Mutation =>
      (s) =>
        s.slice(0, at(s, f)) + o.repeat(n) + '1' + (closed ? c.repeat(n) : '') + s.slice(at(s, f)),
  ),
  // truncate
  frac.map((f): Mutation => (s) => s.slice(0, at(s, f))),
  // line endings
  fc.constantFrom<Mutation>((s) => s.replace(/\n/g, '\r\n'), (s) => s.replace(/\n/g, '\r'), (s) => s.replace(/\n/g, '\\\n')),
);

export const mutateArb = (seed: string, maxMutations = 6, limits: MutationLimits = {}): fc.Arbitrary<string> => fc.array(mutationArb(limits), { minLength: 1, maxLength: maxMutations }).map((ms) => ms.reduce((s, m) => m(s), seed));

/** A program of random statements built from fragments (reaches the parser and checker more often than random text). */
export const soupArb = (maxStatements = 12): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.array(fc.tuple(fc.array(fragmentArb, { minLength: 1, maxLength: 14 }), fc.boolean()), { minLength: 1, maxLength: maxStatements }),
      fc.constantFrom('', '#include <stdint.h>\n#include "test.h"\n', '#define N 8\nstatic int16_t buf[64];\n'),
      fc.boolean(),
    )
    .map(([stmts, head, inFn]) => `${head}${inFn ? 'void f(int p) {\n   int from = 0, to = 7;\n' : ''}${stmts.map(([s, end]) => `   > ${s.join('')}${end ? ';' : ''}`).join('\n')}\n${inFn ? '}\n' : ''}`);

/** An input for the tensor-program checks: a text analysed at a path of the example tree, optionally with a mutated `.p`. */
export interface TprogInput {
  path: string;
  text: string;
  /** Replacement text of the `.p` beside `path`, if mutated. */
  pcoreText?: string;
  dialect: Dialect;
  /** Fractions of the text length where positional features are asked. */
  at: number[];
}

export const tprogInputArb = (opts: { maxMutations?: number; withBytes?: boolean; limits?: MutationLimits } = {}): fc.Arbitrary<TprogInput> => {
  const seedIdx = fc.integer({ min: 0, max: TPROG_SEEDS.length - 1 });
  const text = fc.oneof(
    { weight: 6, arbitrary: seedIdx.chain((i) => mutateArb(TPROG_SEEDS[i].text, opts.maxMutations, opts.limits).map((t) => ({ i, t }))) },
    { weight: 2, arbitrary: fc.tuple(seedIdx, soupArb()).map(([i, t]) => ({ i, t })) },
    { weight: opts.withBytes === false ? 0 : 1, arbitrary: fc.tuple(seedIdx, fc.oneof(bytesArb(), textArb(2000))).map(([i, t]) => ({ i, t })) },
  );
  return fc
    .record({
      x: text,
      pcoreMutations: fc.option(fc.array(mutationArb(opts.limits), { minLength: 1, maxLength: 3 }), { freq: 5 }),
      dialect: fc.constantFrom<Dialect>('auto', 'auto', 'ztachip', 'guide'),
      at: fc.array(frac, { minLength: 4, maxLength: 24 }),
    })
    .map(({ x, pcoreMutations, dialect, at }) => {
      const path = TPROG_SEEDS[x.i].path;
      const p = EXAMPLE_FILES[path.replace(/\.m$/, '.p')];
      return { path, text: x.t, pcoreText: pcoreMutations && p !== undefined ? pcoreMutations.reduce((s, m) => m(s), p) : undefined, dialect, at };
    });
};

export interface PcoreInput {
  path: string;
  text: string;
  at: number[];
  lookups: string[];
}

export const pcoreInputArb = (opts: { maxMutations?: number; limits?: MutationLimits } = {}): fc.Arbitrary<PcoreInput> => {
  const seedIdx = fc.integer({ min: 0, max: PCORE_SEEDS.length - 1 });
  return fc.record({
    x: fc.oneof(
      { weight: 6, arbitrary: seedIdx.chain((i) => mutateArb(PCORE_SEEDS[i].text, opts.maxMutations, opts.limits).map((t) => ({ i, t }))) },
      { weight: 1, arbitrary: fc.tuple(seedIdx, fc.oneof(bytesArb(), textArb(2000), fc.array(fragmentArb, { maxLength: 80 }).map((a) => a.join(' ')))).map(([i, t]) => ({ i, t })) },
    ),
    at: fc.array(frac, { minLength: 4, maxLength: 24 }),
    lookups: fc.array(fc.oneof(fragmentArb, fc.string({ maxLength: 20 }), fc.constantFrom('test::_A', 'calc::run.gain', 'calc::run.', '::', '.', 'root.constant', 'blur::row3.shift', 'edge::tile', 'a::b.c.d')), { maxLength: 8 }),
  }).map(({ x, at, lookups }) => ({ path: PCORE_SEEDS[x.i].path, text: x.t, at, lookups }));
};

// ---------------------------------------------------------------------------------------------
// checks

export interface Violation {
  /** Which call (e.g. `hover@123`). */
  where: string;
  problem: string;
}

export interface CheckOptions {
  /** Time bound per call, ms. */
  limitMs?: number;
  /** Called with the duration of every call (statistics). */
  onCall?: (where: string, ms: number) => void;
  /** Called before every call (a watchdog can then name the call that hangs). */
  onStart?: (where: string) => void;
}

/** Line lengths (without line breaks) with the LSP line-break rule (\n, \r\n, \r). Independent of core's LineIndex. */
export function lineLengths(text: string): number[] {
  const out: number[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      out.push(i - start);
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
  }
  out.push(text.length - start);
  return out;
}

function posProblem(lens: number[], p: Position | undefined): string | undefined {
  if (!p || typeof p.line !== 'number' || typeof p.character !== 'number' || !Number.isInteger(p.line) || !Number.isInteger(p.character)) return `not a position: ${JSON.stringify(p)}`;
  if (p.line < 0 || p.line >= lens.length) return `line ${p.line} outside the document (${lens.length} lines)`;
  if (p.character < 0 || p.character > lens[p.line]) return `character ${p.character} outside line ${p.line} (length ${lens[p.line]})`;
  return undefined;
}

export function rangeProblem(lens: number[], r: Range | undefined): string | undefined {
  if (!r) return 'no range';
  const e = posProblem(lens, r.start) ?? posProblem(lens, r.end);
  if (e) return e;
  if (r.start.line > r.end.line || (r.start.line === r.end.line && r.start.character > r.end.character)) return `start after end: ${JSON.stringify(r)}`;
  return undefined;
}

class Checker {
  readonly violations: Violation[] = [];
  constructor(
    readonly opts: CheckOptions,
    readonly lens: number[],
  ) {}

  call<T>(where: string, f: () => T): T | undefined {
    this.opts.onStart?.(where);
    const t0 = performance.now();
    let r: T | undefined;
    try {
      r = f();
    } catch (e) {
      this.violations.push({ where, problem: `threw ${(e as Error)?.stack ?? String(e)}` });
    }
    const ms = performance.now() - t0;
    this.opts.onCall?.(where.replace(/@.*/, ''), ms);
    const limit = this.opts.limitMs ?? 2000;
    if (ms > limit) this.violations.push({ where, problem: `took ${ms.toFixed(0)} ms (limit ${limit} ms)` });
    return r;
  }

  range(where: string, r: Range | undefined): void {
    const e = rangeProblem(this.lens, r);
    if (e) this.violations.push({ where, problem: `range ${e}` });
  }

  diagnostics(where: string, ds: Diagnostic[] | undefined): void {
    if (!Array.isArray(ds)) return void this.violations.push({ where, problem: 'diagnostics is not an array' });
    for (const d of ds) {
      const w = `${where} diagnostic ${d.code}`;
      this.range(w, d.range);
      if (!['error', 'warning', 'information', 'hint'].includes(d.severity)) this.violations.push({ where: w, problem: `severity ${d.severity}` });
      if (typeof d.message !== 'string' || !d.message) this.violations.push({ where: w, problem: 'empty message' });
      for (const f of d.fixes ?? []) for (const e of f.edits) this.range(`${w} fix "${f.title}"`, e.range);
    }
  }
}

function memFs(files: Record<string, string>): FileSystem {
  return { read: (p) => (Object.prototype.hasOwnProperty.call(files, p) ? files[p] : undefined) };
}

/**
 * One long-lived project whose file system is the current input's, so the parse cache is exercised
 * across inputs (like the server's across edits of a document).
 */
let warmFiles: Record<string, string> = EXAMPLE_FILES;
const warm = new Project({ fs: { read: (p) => (Object.prototype.hasOwnProperty.call(warmFiles, p) ? warmFiles[p] : undefined) }, loadPcore: loadPcoreView });

const stripFns = (a: TprogAnalysis | undefined) => JSON.stringify(a?.diagnostics ?? null);

/** Runs the whole tensor-program engine on one input; returns what went wrong (empty = fine). */
export function checkTprog(input: TprogInput, opts: CheckOptions = {}): Violation[] {
  const { text, path } = input;
  const lens = lineLengths(text);
  const c = new Checker(opts, lens);
  const files = { ...EXAMPLE_FILES, [path]: text };
  const pPath = path.replace(/\.m$/, '.p');
  if (input.pcoreText !== undefined) files[pPath] = input.pcoreText;
  // through a Project: warm (shared parse cache, edited document) and cold (fresh) must agree
  warmFiles = files;
  warm.setDialect(input.dialect);
  const a = c.call('Project.analyze(warm)', () => warm.analyze(path, text));
  const cold = c.call('Project.analyze(cold)', () => new Project({ fs: memFs(files), loadPcore: loadPcoreView, dialect: input.dialect }).analyze(path, text));
  if (a && cold && stripFns(a) !== stripFns(cold)) c.violations.push({ where: 'Project.analyze', problem: `diagnostics with a warm parse cache differ from a cold analysis:\nwarm ${stripFns(a)}\ncold ${stripFns(cold)}` });
  const bare = c.call('analyzeTprog', () => analyzeTprog(text, { file: path, dialect: input.dialect }));
  c.diagnostics('analyzeTprog', bare?.diagnostics);
  if (!a) {
    c.violations.push({ where: 'Project.analyze', problem: 'returned undefined for an existing text' });
    return c.violations;
  }
  c.diagnostics('Project.analyze', a.diagnostics);
  for (const an of [a, bare]) {
    if (!an) continue;
    const offsets = [0, text.length, ...input.at.map((f) => Math.floor(f * (text.length + 1)))];
    for (const off of offsets) {
      const h = c.call(`hover@${off}`, () => hover(an, off));
      if (h) {
        c.range(`hover@${off}`, h.range);
        if (typeof h.markdown !== 'string') c.violations.push({ where: `hover@${off}`, problem: 'markdown is not a string' });
      }
      c.call(`complete@${off}`, () => complete(an, off));
      c.call(`signatureHelp@${off}`, () => signatureHelp(an, off));
      for (const l of c.call(`definition@${off}`, () => definition(an, off)) ?? []) if (!l.file) c.range(`definition@${off}`, l.range);
      for (const incl of [true, false]) for (const l of c.call(`references@${off}`, () => references(an, off, incl)) ?? []) if (!l.file) c.range(`references@${off}`, l.range);
    }
    for (const h of c.call('inlayHints', () => inlayHints(an, 0, lens.length)) ?? []) c.range('inlayHints', { start: h.position, end: h.position });
    c.call('inlayHints(range)', () => inlayHints(an, Math.floor(lens.length / 2), lens.length + 5));
    const walk = (s: DocSymbol) => {
      c.range(`documentSymbols ${s.name}`, s.range);
      c.range(`documentSymbols ${s.name} selection`, s.selectionRange);
      s.children.forEach(walk);
    };
    c.call('documentSymbols', () => documentSymbols(an))?.forEach(walk);
    for (const t of c.call('semanticTokens', () => semanticTokens(an)) ?? []) {
      c.range('semanticTokens', { start: { line: t.line, character: t.char }, end: { line: t.line, character: t.char + t.length } });
      if (t.type < 0) c.violations.push({ where: 'semanticTokens', problem: `unknown token type at ${t.line}:${t.char}` });
    }
    c.call('transferPreview', () => transferPreview(an, undefined));
    for (const f of an.c.functions.slice(0, 3)) c.call(`transferPreview(${f.name})`, () => transferPreview(an, f.name, 4));
  }
  return c.violations;
}

/** Runs the PCORE analyzer and the view the tensor-program checker uses on one input. */
export function checkPcore(input: PcoreInput, opts: CheckOptions = {}): Violation[] {
  const { text, path } = input;
  const lens = lineLengths(text);
  const c = new Checker(opts, lens);
  const files = { ...EXAMPLE_FILES, [path]: text };
  const readInclude = (inc: string, from: string) => files[resolve(from, '..', inc)];
  const prog = c.call('analyzePcore', () => analyzePcore(text, path, { resolveInclude: readInclude }));
  if (!prog) return c.violations;
  c.diagnostics('analyzePcore', prog.diagnostics);
  for (const r of prog.references ?? []) if (r.start < 0 || r.end > text.length || r.start > r.end) c.violations.push({ where: 'references', problem: `offsets ${r.start}..${r.end} outside 0..${text.length}` });
  for (const off of [0, text.length, ...input.at.map((f) => Math.floor(f * (text.length + 1)))]) c.call(`symbolAt@${off}`, () => prog.symbolAt(off));
  for (const v of prog.variables.values()) {
    c.call(`formatPcoreVariable(${v.fullName})`, () => formatPcoreVariable(v));
    c.range(`variable ${v.fullName}`, v.nameRange);
  }
  for (const k of prog.kernels.values()) c.range(`kernel ${k.fullName}`, k.nameRange);
  const view = c.call('loadPcoreView', () => loadPcoreView(text, path, readInclude));
  if (view) {
    const names = [...input.lookups, ...[...prog.variables.keys()].slice(0, 5), ...[...prog.kernels.values()].slice(0, 3).flatMap((k) => [k.fullName, ...k.params.map((p) => `${k.fullName}.${p.name}`)])];
    for (const n of names) c.call(`lookupMember(${JSON.stringify(n)})`, () => view.lookupMember(n));
    for (const n of names) c.call(`kernel(${JSON.stringify(n)})`, () => view.kernel(n));
    const classes = c.call('classNames', () => view.classNames()) ?? [];
    for (const cls of [...classes, ...input.lookups]) c.call(`members(${JSON.stringify(cls)})`, () => view.members(cls));
    c.call('kernels', () => view.kernels());
  }
  // pairing through a Project: a `.m` beside the PCORE program sees it
  const m = `/w/pcore-fuzz/${basename(path).replace(/\.p$/, '')}.m`;
  const proj = new Project({ fs: memFs({ [m.replace(/\.m$/, '.p')]: text }), loadPcore: loadPcoreView });
  const stmt = names1(prog);
  const a = c.call('Project.analyze(.m beside)', () => proj.analyze(m, `void f(int p) {\n${stmt}\n}\n`));
  if (a) c.call('hover(.m beside)', () => hover(a, a.text.indexOf('::') + 1));
  return c.violations;
}

function names1(prog: ReturnType<typeof analyzePcore>): string {
  const v = [...prog.variables.keys()][0];
  const k = [...prog.kernels.values()].find((x) => x.isKernel)?.fullName;
  return [v ? `   > DTYPE(INT16)PCORE(NUM_PCORE)[:].THREAD[:].${v}[:] <= DTYPE(INT16)MEM(p)[0:1023];` : '', k ? `   > EXE_LOCKSTEP(${k},NUM_PCORE);` : ''].join('\n');
}

export function formatViolations(vs: Violation[], max = 8): string {
  return vs
    .slice(0, max)
    .map((v) => `  ${v.where}: ${v.problem.split('\n').slice(0, 8).join('\n    ')}`)
    .join('\n') + (vs.length > max ? `\n  … ${vs.length - max} more` : '');
}

/** Short printable form of an input (for failure messages). */
export function describeInput(i: { path: string; text: string; pcoreText?: string }): string {
  const t = i.text.length > 600 ? `${JSON.stringify(i.text.slice(0, 600))}… (${i.text.length} chars)` : JSON.stringify(i.text);
  return `${i.path}: ${t}${i.pcoreText !== undefined ? `\n  with mutated .p (${i.pcoreText.length} chars)` : ''}`;
}
