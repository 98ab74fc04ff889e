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
import { describeFileOffset } from '../../core/csf/address';
import { csfFromFibers, encodeCsf, openCsf, parseCsf } from '../../core/csf/codec';
import { AcceleratorMemory, extractCsf, loadCsf, readTensorMeta, tensorFromMemory } from '../../core/csf/memory';
import { MAX_LAST_EXTENT, type CsfIssue } from '../../core/csf/types';
import { validateCsf, validateCsfChunks, type CsfValidation } from '../../core/csf/validate';
import { bytesSource, CsfView } from '../../core/csf/view';
import { CsfViewHost } from '../../core/csf/viewHost';
import { analyzeLayout } from '../../core/layout/analyze';
import { csfSparseLoader, placementOf } from '../../core/layout/csfLoader';
import { complete as layoutComplete } from '../../core/layout/features/complete';
import { applyEdits, formatLayout } from '../../core/layout/features/format';
import { hover as layoutHover } from '../../core/layout/features/hover';
import { inlayHints as layoutInlayHints } from '../../core/layout/features/inlay';
import { documentSymbols as layoutSymbols } from '../../core/layout/features/symbols';
import { semanticTokens as layoutTokens } from '../../core/layout/features/tokens';
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
import { documentSymbols } from '../../core/tprog/features/symbols';
import type { DocSymbol } from '../../core/common/featureResults';
import { semanticTokens } from '../../core/tprog/features/tokens';
import { explainCsfHostMessage } from '../../core/protocol/webview';

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
  for (const f of readdirSync(resolve(ROOT, 'examples', dir.name), { withFileTypes: true }))
    if (f.isFile()) EXAMPLE_FILES[`/w/${dir.name}/${f.name}`] = read(`examples/${dir.name}/${f.name}`);
}

export const TPROG_SEEDS: Seed[] = Object.entries(EXAMPLE_FILES)
  .filter(([p]) => p.endsWith('.m'))
  .map(([path, text]) => ({ path, text }));

export const PCORE_SEEDS: Seed[] = [
  ...Object.entries(EXAMPLE_FILES)
    .filter(([p]) => p.endsWith('.p'))
    .map(([path, text]) => ({ path, text })),
  ...readdirSync(resolve(ROOT, 'test/fixtures/pcore'))
    .filter((f) => f.endsWith('.p'))
    .map((f) => ({ path: `/w/fixtures/${f}`, text: read(`test/fixtures/pcore/${f}`) })),
  { path: '/w/fixtures/broken.p', text: read('test/fixtures/lsp/broken.p') },
];

// ---------------------------------------------------------------------------------------------
// inputs

/** Pieces of the statement language, C and preprocessor, and awkward characters and names. */
export const FRAGMENTS = [
  '>',
  '> ',
  '>\t',
  '<=',
  ':=',
  '[',
  ']',
  '(',
  ')',
  '::',
  ':',
  '$',
  ';',
  ',',
  '.',
  '*',
  '+',
  '-',
  '/',
  '%',
  '<<',
  '>>',
  '?',
  '&',
  '|',
  '~',
  '!',
  '=',
  '\n',
  '\r\n',
  '\r',
  '\\\n',
  '/*',
  '*/',
  '//',
  '"',
  "'",
  '{',
  '}',
  '\t',
  ' ',
  '  ',
  '\u00a0',
  '\u2028',
  '\ud800',
  '\udc00',
  '😀',
  '\0',
  '\x7f',
  '\ufeff',
  '#define N 8\n',
  '#define F(a,b) ((a)*(b))\n',
  '#define SELF SELF\n',
  '#include "test.h"\n',
  '#include "blur.h"\n',
  '#include "missing.h"\n',
  '#if 0\n',
  '#ifdef X\n',
  '#else\n',
  '#endif\n',
  '#undef N\n',
  'FOR(I=0:7) ',
  'FOR(J=0:N-1)',
  'FOR(',
  'DTYPE(INT16)',
  'DTYPE(INT8)',
  'DTYPE(UINT8)',
  'DTYPE(t)',
  'DTYPE(',
  'PCORE(NUM_PCORE)',
  'PCORE(8)[:]',
  'PCORE(2,4)[1][*]',
  'PCORE[0:1]',
  'PCORE',
  '.THREAD[0:15]',
  '.THREAD(4,4)[:][:]',
  'THREAD',
  'MEM(p,16,16)',
  'MEM(p)',
  'MEM(req->input)',
  'MEM(p,(64)(8,8))',
  'MEM(p,8+)',
  'MEM',
  'SCRATCH(0,8)',
  'DDR(p)',
  'INT16(3)',
  'INT8(-1)',
  'INT16(',
  'EXE_LOCKSTEP(',
  'EXE_LOCKSTEP(test::add,NUM_PCORE);',
  'EXE(',
  'BARRIER;',
  'CALLBACK(f,0);',
  'PRINT(1,2);',
  'LOG_ON;',
  'NOP;',
  'EXPORT',
  'CONCURRENT ',
  'REMAP(1) ',
  'LATEST ',
  'PAD(0) ',
  'REPEAT ',
  'SCATTER ',
  'PROC(1) ',
  '(int16)',
  '(uint8)',
  '[$]',
  '$v',
  '$v :=',
  '$out_pc',
  '$dst_mem[0]',
  'VAR $x;',
  'test::_A',
  'test::_Z',
  'test::add',
  'test::add.x',
  'calc::in',
  'calc::run.gain',
  'calc::acc',
  'calc::lut',
  'blur::win(4,4,8)',
  'blur::row3.shift',
  'tone::out(2,4,4,8)',
  'root.constant',
  'x::y::z',
  '[0:7]',
  '[*]',
  '[:]',
  '[-1]',
  '[0:-1]',
  '[7:0]',
  '[0:NUM_PCORE-1]',
  '[from:to]',
  '[I]',
  '[J][J]',
  '[0][0][0][0][0][0][0][0]',
  '0',
  '1',
  '-1',
  '8',
  '0x7fffffff',
  '0xffffffff',
  '2147483648',
  '99999999999999999999',
  '1e9',
  '0b101',
  '010',
  '1/0',
  '1%0',
  '1<<40',
  '-2147483648/-1',
  'void g(void) {',
  'static void h(int p) {',
  'int x = 3;',
  'int x = x;',
  'static int a[4];',
  'uint32_t p = (uint32_t)&buf[0];',
  'ztaTaskYield();',
  'for (int i = 0; i < 8; i++)',
  'return;',
  'typedef struct { int a; } S;',
  'NaN',
  'Infinity',
  'undefined',
  'null',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  'NUM_PCORE',
  'VECTOR_WIDTH',
  'BUFSZ',
  'TILE_H',
  'from',
  'to',
  'req',
  'p',
  'I',
  'J',
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
  /** Most elements of a generated long list (layout specs). */
  maxList?: number;
}

/** One edit of a text: delete/insert/duplicate/swap/replace characters, unbalanced brackets, very long lines, deep nesting, truncation. */
export const mutationArb = (limits: MutationLimits = {}, fragments: fc.Arbitrary<string> = fragmentArb): fc.Arbitrary<Mutation> =>
  fc.oneof(
    // delete a slice
    fc.tuple(frac, fc.integer({ min: 1, max: 40 })).map(
      ([f, n]): Mutation =>
        (s) =>
          s.slice(0, at(s, f)) + s.slice(at(s, f) + n),
    ),
    // insert fragments
    fc.tuple(frac, fc.array(fragments, { minLength: 1, maxLength: 6 })).map(
      ([f, xs]): Mutation =>
        (s) =>
          s.slice(0, at(s, f)) + xs.join('') + s.slice(at(s, f)),
    ),
    // insert random text
    fc.tuple(frac, textArb(30)).map(
      ([f, x]): Mutation =>
        (s) =>
          s.slice(0, at(s, f)) + x + s.slice(at(s, f)),
    ),
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
    fc.tuple(frac, fc.oneof(fragments, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }))).map(
      ([f, c]): Mutation =>
        (s) =>
          s.slice(0, at(s, f)) + c + s.slice(at(s, f) + 1),
    ),
    // unbalanced brackets
    fc.tuple(frac, fc.constantFrom('(', ')', '[', ']', '{', '}', '/*', '"'), fc.integer({ min: 1, max: 50 })).map(
      ([f, b, n]): Mutation =>
        (s) =>
          s.slice(0, at(s, f)) + b.repeat(n) + s.slice(at(s, f)),
    ),
    // very long line (a statement, C or a comment)
    fc
      .tuple(
        frac,
        fc.constantFrom('> ', '   > DTYPE(INT16)MEM(p)[0:1] <= ', 'int q = ', '// ', ''),
        fc.oneof(fragments, fc.constantFrom('x', '1+', '[0]', 'FOR(I=0:1) ')),
        fc.integer({ min: 1000, max: Math.max(1000, limits.maxLine ?? 30000) }),
      )
      .map(([f, head, unit, n]): Mutation => (s) => {
        const i = at(s, f);
        return s.slice(0, i) + '\n' + head + unit.repeat(Math.ceil(n / Math.max(1, unit.length))) + '\n' + s.slice(i);
      }),
    // deep nesting
    fc
      .tuple(
        frac,
        fc.constantFrom<[string, string]>(['(', ')'], ['[', ']'], ['{', '}'], ['MEM(', ')'], ['(1+', ')'], ['F(', ',1)']),
        fc.integer({ min: 10, max: Math.max(10, limits.maxNest ?? 3000) }),
        fc.boolean(),
      )
      .map(
        ([f, [o, c], n, closed]): Mutation =>
          (s) =>
            s.slice(0, at(s, f)) + o.repeat(n) + '1' + (closed ? c.repeat(n) : '') + s.slice(at(s, f)),
      ),
    // truncate
    frac.map(
      (f): Mutation =>
        (s) =>
          s.slice(0, at(s, f)),
    ),
    // line endings
    fc.constantFrom<Mutation>(
      (s) => s.replace(/\n/g, '\r\n'),
      (s) => s.replace(/\n/g, '\r'),
      (s) => s.replace(/\n/g, '\\\n'),
    ),
  );

export const mutateArb = (seed: string, maxMutations = 6, limits: MutationLimits = {}, fragments: fc.Arbitrary<string> = fragmentArb): fc.Arbitrary<string> =>
  fc.array(mutationArb(limits, fragments), { minLength: 1, maxLength: maxMutations }).map((ms) => ms.reduce((s, m) => m(s), seed));

/** A program of random statements built from fragments (reaches the parser and checker more often than random text). */
export const soupArb = (maxStatements = 12): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.array(fc.tuple(fc.array(fragmentArb, { minLength: 1, maxLength: 14 }), fc.boolean()), { minLength: 1, maxLength: maxStatements }),
      fc.constantFrom('', '#include <stdint.h>\n#include "test.h"\n', '#define N 8\nstatic int16_t buf[64];\n'),
      fc.boolean(),
    )
    .map(
      ([stmts, head, inFn]) =>
        `${head}${inFn ? 'void f(int p) {\n   int from = 0, to = 7;\n' : ''}` +
        `${stmts.map(([s, end]) => `   > ${s.join('')}${end ? ';' : ''}`).join('\n')}\n${inFn ? '}\n' : ''}`,
    );

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
  return fc
    .record({
      x: fc.oneof(
        { weight: 6, arbitrary: seedIdx.chain((i) => mutateArb(PCORE_SEEDS[i].text, opts.maxMutations, opts.limits).map((t) => ({ i, t }))) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(
              seedIdx,
              fc.oneof(
                bytesArb(),
                textArb(2000),
                fc.array(fragmentArb, { maxLength: 80 }).map((a) => a.join(' ')),
              ),
            )
            .map(([i, t]) => ({ i, t })),
        },
      ),
      at: fc.array(frac, { minLength: 4, maxLength: 24 }),
      lookups: fc.array(
        fc.oneof(
          fragmentArb,
          fc.string({ maxLength: 20 }),
          fc.constantFrom('test::_A', 'calc::run.gain', 'calc::run.', '::', '.', 'root.constant', 'blur::row3.shift', 'edge::tile', 'a::b.c.d'),
        ),
        { maxLength: 8 },
      ),
    })
    .map(({ x, at, lookups }) => ({ path: PCORE_SEEDS[x.i].path, text: x.t, at, lookups }));
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
  if (!p || typeof p.line !== 'number' || typeof p.character !== 'number' || !Number.isInteger(p.line) || !Number.isInteger(p.character))
    return `not a position: ${JSON.stringify(p)}`;
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
    const t0 = this.start(where);
    let r: T | undefined;
    try {
      r = f();
    } catch (e) {
      this.threw(where, e);
    }
    this.timed(where, t0);
    return r;
  }

  /** An async call: the time bound covers the whole await. */
  async callAsync<T>(where: string, f: () => Promise<T>): Promise<T | undefined> {
    const t0 = this.start(where);
    let r: T | undefined;
    try {
      r = await f();
    } catch (e) {
      this.threw(where, e);
    }
    this.timed(where, t0);
    return r;
  }

  private start(where: string): number {
    this.opts.onStart?.(where);
    return performance.now();
  }

  private threw(where: string, e: unknown): void {
    this.violations.push({ where, problem: `threw ${(e as Error)?.stack ?? String(e)}` });
  }

  private timed(where: string, t0: number): void {
    const ms = performance.now() - t0;
    this.opts.onCall?.(where.replace(/@.*/, ''), ms);
    const limit = this.opts.limitMs ?? 2000;
    if (ms > limit) this.violations.push({ where, problem: `took ${ms.toFixed(0)} ms (limit ${limit} ms)` });
  }

  /** A hover result, if any: its range inside the document, its markdown a string. */
  hover(where: string, h: { markdown: unknown; range: Range } | undefined): void {
    if (!h) return;
    this.range(where, h.range);
    if (typeof h.markdown !== 'string') this.violations.push({ where, problem: 'markdown is not a string' });
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
  if (a && cold && stripFns(a) !== stripFns(cold))
    c.violations.push({
      where: 'Project.analyze',
      problem: `diagnostics with a warm parse cache differ from a cold analysis:\nwarm ${stripFns(a)}\ncold ${stripFns(cold)}`,
    });
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
      c.hover(
        `hover@${off}`,
        c.call(`hover@${off}`, () => hover(an, off)),
      );
      c.call(`complete@${off}`, () => complete(an, off));
      c.call(`signatureHelp@${off}`, () => signatureHelp(an, off));
      for (const l of c.call(`definition@${off}`, () => definition(an, off)) ?? []) if (!l.file) c.range(`definition@${off}`, l.range);
      for (const incl of [true, false])
        for (const l of c.call(`references@${off}`, () => references(an, off, incl)) ?? []) if (!l.file) c.range(`references@${off}`, l.range);
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
  for (const r of prog.references ?? [])
    if (r.start < 0 || r.end > text.length || r.start > r.end)
      c.violations.push({ where: 'references', problem: `offsets ${r.start}..${r.end} outside 0..${text.length}` });
  for (const off of [0, text.length, ...input.at.map((f) => Math.floor(f * (text.length + 1)))]) c.call(`symbolAt@${off}`, () => prog.symbolAt(off));
  for (const v of prog.variables.values()) {
    c.call(`formatPcoreVariable(${v.fullName})`, () => formatPcoreVariable(v));
    c.range(`variable ${v.fullName}`, v.nameRange);
  }
  for (const k of prog.kernels.values()) c.range(`kernel ${k.fullName}`, k.nameRange);
  const view = c.call('loadPcoreView', () => loadPcoreView(text, path, readInclude));
  if (view) {
    const names = [
      ...input.lookups,
      ...[...prog.variables.keys()].slice(0, 5),
      ...[...prog.kernels.values()].slice(0, 3).flatMap((k) => [k.fullName, ...k.params.map((p) => `${k.fullName}.${p.name}`)]),
    ];
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
  return [v ? `   > DTYPE(INT16)PCORE(NUM_PCORE)[:].THREAD[:].${v}[:] <= DTYPE(INT16)MEM(p)[0:1023];` : '', k ? `   > EXE_LOCKSTEP(${k},NUM_PCORE);` : ''].join(
    '\n',
  );
}

export function formatViolations(vs: Violation[], max = 8): string {
  return (
    vs
      .slice(0, max)
      .map((v) => `  ${v.where}: ${v.problem.split('\n').slice(0, 8).join('\n    ')}`)
      .join('\n') + (vs.length > max ? `\n  … ${vs.length - max} more` : '')
  );
}

/** Short printable form of an input (for failure messages). */
export function describeInput(i: { path: string; text: string; pcoreText?: string }): string {
  const t = i.text.length > 600 ? `${JSON.stringify(i.text.slice(0, 600))}… (${i.text.length} chars)` : JSON.stringify(i.text);
  return `${i.path}: ${t}${i.pcoreText !== undefined ? `\n  with mutated .p (${i.pcoreText.length} chars)` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// layout specs (.tlayout)

/** Every `.csfbin` of examples/ and test/fixtures/csf, as bytes, by in-memory path (`/w/<dir>/<name>`, `/w/fixtures/csf/<name>`). */
export const CSF_FILES: Record<string, Uint8Array> = {};
for (const dir of readdirSync(resolve(ROOT, 'examples'), { withFileTypes: true }))
  if (dir.isDirectory())
    for (const f of readdirSync(resolve(ROOT, 'examples', dir.name)))
      if (f.endsWith('.csfbin')) CSF_FILES[`/w/${dir.name}/${f}`] = new Uint8Array(readFileSync(resolve(ROOT, 'examples', dir.name, f)));
for (const f of readdirSync(resolve(ROOT, 'test/fixtures/csf')))
  if (f.endsWith('.csfbin')) CSF_FILES[`/w/fixtures/csf/${f}`] = new Uint8Array(readFileSync(resolve(ROOT, 'test/fixtures/csf', f)));

export const LAYOUT_SEEDS: Seed[] = [
  ...Object.entries(EXAMPLE_FILES)
    .filter(([p]) => p.endsWith('.tlayout'))
    .map(([path, text]) => ({ path, text })),
  ...readdirSync(resolve(ROOT, 'test/fixtures/layout'))
    .filter((f) => f.endsWith('.tlayout'))
    .map((f) => ({ path: `/w/layouts/fixture-${f}`, text: read(`test/fixtures/layout/${f}`) })),
];

/** Pieces of the layout language (statements, models, arguments, numbers with units) and awkward characters. */
export const LAYOUT_FRAGMENTS = [
  '[',
  ']',
  '(',
  ')',
  '{',
  '}',
  ',',
  '=',
  ':',
  '-',
  '+',
  '*',
  '/',
  '.',
  '#',
  '//',
  '"',
  "'",
  '\n',
  '\r\n',
  '\r',
  ' ',
  '\t',
  '\\',
  '\u0000',
  'ẞ',
  '😀',
  '\ud800',
  '\ufeff',
  'tensor ',
  'probe ',
  'target ',
  'tensor t: float16[4, 4] = ',
  'probe t[1, 2]',
  'probe t address 64',
  'probe t device[0, 1, 0, 3]',
  'probe t address 8 main',
  'probe t address 4 meta',
  ' at ',
  ' at 0x1000',
  'address',
  'device',
  'bank',
  'core',
  'core (1,0)',
  'main',
  'meta',
  'target spyre(memory=128GiB)',
  'target wormhole_b0',
  'target blackhole',
  'target tt(',
  'spyre(',
  'spyre()',
  'tt(',
  'cells(',
  'strided(',
  'fibers(',
  'ttnn.',
  'ttnn.create_sharded_memory_config(',
  'ttnn.CoreGrid(y=2, x=2)',
  'ttnn.ShardStrategy.BLOCK',
  'SpyreTensorLayout(',
  'as_strided(',
  'nd_sharded',
  'device_size=[256, 8, 128, 64]',
  'dim_map=[1, 2, 0, 2]',
  'dim_order=[1, 0]',
  'dim_order=[0, 1, -1]',
  'stride_map=[64, 256, 1]',
  'shape=(64, 64)',
  'size=[4, 4]',
  'stride=[4, 1]',
  'offset=3',
  'ptr=[0, 1, 3]',
  'index=[1, 0, 2]',
  'main=0',
  'meta=0',
  'file="A.csfbin"',
  'file="../sparse/matrix.csfbin"',
  'file="missing.csfbin"',
  'file="x.txt"',
  'file=""',
  'layout=',
  'tile=',
  'grid=',
  'memory=',
  'float16',
  'bfloat16',
  'float32',
  'int8',
  'uint8',
  'bfloat8_b',
  'float16[',
  'float32[2, 3]',
  '[0]',
  '[-1]',
  '[1, 2, 3]',
  '[]',
  '()',
  'True',
  'False',
  'None',
  '0',
  '1',
  '-1',
  '2',
  '4096',
  '0x',
  '0x1_000',
  '0xffffffff',
  '1e',
  '1e9',
  '1.5e3',
  '4KiB',
  '128GiB',
  '32x',
  '32x32',
  '2x2x4',
  '999999999999',
  '99999999999999999999',
  '2147483648',
  '4294967296',
  'NaN',
  'Infinity',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  't',
  'A',
  'B',
  'x',
];

export const layoutFragmentArb = fc.constantFrom(...LAYOUT_FRAGMENTS);

export interface LayoutInput {
  path: string;
  text: string;
  /** Fractions of the text length where positional features are asked. */
  at: number[];
}

export const layoutInputArb = (opts: { maxMutations?: number; maxBytes?: number; limits?: MutationLimits } = {}): fc.Arbitrary<LayoutInput> => {
  const seedIdx = fc.integer({ min: 0, max: LAYOUT_SEEDS.length - 1 });
  const soup = fc
    .array(fc.array(layoutFragmentArb, { minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 16 })
    .map((ls) => ls.map((l) => l.join('')).join('\n'));
  return fc
    .record({
      x: fc.oneof(
        {
          weight: 6,
          arbitrary: seedIdx.chain((i) => mutateArb(LAYOUT_SEEDS[i].text, opts.maxMutations, opts.limits, layoutFragmentArb).map((t) => ({ i, t }))),
        },
        { weight: 2, arbitrary: fc.tuple(seedIdx, soup).map(([i, t]) => ({ i, t })) },
        {
          weight: 1,
          arbitrary: fc.tuple(seedIdx, fc.oneof(bytesArb(opts.maxBytes ?? 4000), textArb(Math.min(2000, opts.maxBytes ?? 2000)))).map(([i, t]) => ({ i, t })),
        },
        // a very long list (shape, ptr, index, strides…) in place of one of a seed's lists
        {
          weight: 1,
          arbitrary: fc
            .tuple(seedIdx, fc.nat(), longListArb(opts.limits?.maxList ?? 20000))
            .map(([i, k, l]) => ({ i, t: withList(LAYOUT_SEEDS[i].text, k, l) })),
        },
      ),
      at: fc.array(frac, { minLength: 4, maxLength: 24 }),
    })
    .map(({ x, at }) => ({ path: LAYOUT_SEEDS[x.i].path, text: x.t, at }));
};

/** Numbers as a spec or a command line may write them: decimal, hex, negative hex, huge, malformed. */
export const numberTextArb: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -5, max: 70000 }).map(String),
  fc.integer({ min: 0, max: 0x7fffffff }).map((n) => `0x${n.toString(16)}`),
  fc.integer({ min: 0, max: 0x7fffffff }).map((n) => `-0x${n.toString(16)}`),
  fc.constantFrom('-0x', '0x', '-0', '0x-1', '-0x8000000000000000', '1e400', '99999999999999999999', '0b101', '-', '+7', '1_000'),
);

/** A list of up to `max` numbers, mostly small (a very long shape or pointer list). */
export const longListArb = (max: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min: 0, max }), fc.oneof(fc.constant('1'), fc.constant('0'), numberTextArb), fc.array(numberTextArb, { maxLength: 8 }))
    .map(([n, fill, odd]) => {
      const items = Array.from({ length: n }, () => fill);
      odd.forEach((v, j) => (items[(j * 7919) % Math.max(1, n)] = v));
      return `[${items.join(', ')}]`;
    });

/** `text` with its `k`-th bracketed list (modulo their count) replaced by `list` (appended as a new tensor when there is none). */
export function withList(text: string, k: number, list: string): string {
  const lists = [...text.matchAll(/\[[^\]\n]*\]/g)];
  if (!lists.length) return `${text}\ntensor long: float32${list}\n`;
  const m = lists[k % lists.length];
  return text.slice(0, m.index) + list + text.slice(m.index! + m[0].length);
}

/** `fibers(file=…)` reads the `.csfbin` files of the tree (A.csfbin beside the example specs). */
const layoutSparse = csfSparseLoader((p) => CSF_FILES[p]);

/** Runs the layout analysis and every layout feature on one input; returns what went wrong (empty = fine). */
export function checkLayout(input: LayoutInput, opts: CheckOptions = {}): Violation[] {
  const { text, path } = input;
  const lens = lineLengths(text);
  const c = new Checker(opts, lens);
  const a = c.call('analyzeLayout', () => analyzeLayout(text, path, { loadSparse: layoutSparse }));
  if (!a) return c.violations;
  c.diagnostics('analyzeLayout', a.diagnostics);
  const offsets = [0, text.length, ...input.at.map((f) => Math.floor(f * (text.length + 1)))];
  for (const off of offsets) {
    c.hover(
      `hover@${off}`,
      c.call(`hover@${off}`, () => layoutHover(a, off)),
    );
    const items = c.call(`complete@${off}`, () => layoutComplete(a, off));
    if (items !== undefined && !Array.isArray(items)) c.violations.push({ where: `complete@${off}`, problem: 'not an array' });
    for (const it of items ?? [])
      if (typeof it.label !== 'string' || (it.documentation !== undefined && typeof it.documentation !== 'string'))
        c.violations.push({ where: `complete@${off}`, problem: `entry ${String(it.label)}: label or documentation is not a string` });
  }
  for (const h of c.call('inlayHints', () => layoutInlayHints(a, 0, lens.length)) ?? []) c.range('inlayHints', { start: h.position, end: h.position });
  const mid = Math.floor(lens.length / 2);
  for (const h of c.call('inlayHints(range)', () => layoutInlayHints(a, mid, lens.length + 5)) ?? [])
    c.range('inlayHints(range)', { start: h.position, end: h.position });
  const walk = (s: DocSymbol) => {
    c.range(`documentSymbols ${s.name}`, s.range);
    c.range(`documentSymbols ${s.name} selection`, s.selectionRange);
    s.children.forEach(walk);
  };
  c.call('documentSymbols', () => layoutSymbols(a))?.forEach(walk);
  for (const t of c.call('semanticTokens', () => layoutTokens(a)) ?? [])
    c.range('semanticTokens', { start: { line: t.line, character: t.char }, end: { line: t.line, character: t.char + t.length } });
  const edits = c.call('formatLayout', () => formatLayout(a)) ?? [];
  for (const e of edits) c.range('formatLayout', e.range);
  if (edits.length) {
    const out = c.call('applyEdits(format)', () => applyEdits(text, edits, a.lines));
    if (out !== undefined) c.call('analyzeLayout(formatted)', () => analyzeLayout(out, path, { loadSparse: layoutSparse }));
  }
  return c.violations;
}

// ---------------------------------------------------------------------------------------------
// .csfbin files

/**
 * A `.csfbin` input: the bytes as a Latin-1 string (one character per byte, so it is JSON-safe and
 * `text.length` is the file size), with fractions choosing the offsets, rows and chunk splits asked.
 */
export interface CsfInput {
  path: string;
  text: string;
  at: number[];
}

export const csfBytes = (i: { text: string }): Uint8Array => new Uint8Array(Buffer.from(i.text, 'latin1'));
const latin1 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

/** A small random tensor written by the codec (order 1–4, extents 0–6; values include NaN, ±0, ±Inf, subnormals). */
export const csfTensorBytesArb = (): fc.Arbitrary<Uint8Array> =>
  fc
    .array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 4 })
    .chain((shape) => {
      const F = shape.slice(0, -1).reduce((a, b) => a * b, 1);
      const last = shape[shape.length - 1];
      const value = fc.oneof(fc.float({ noDefaultInfinity: false }), fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1e-45, 1.5, -2));
      const fiber =
        last === 0
          ? fc.constant([] as [number, number][])
          : fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: last - 1 }), value), { selector: (e) => e[0], maxLength: last });
      return fc.array(fiber, { minLength: F, maxLength: F }).map((fibers) => ({ shape, fibers }));
    })
    .map(({ shape, fibers }) => encodeCsf(csfFromFibers(shape, fibers)));

const CSF_SEED_BYTES = Object.values(CSF_FILES);

type ByteMutation = (b: Uint8Array) => Uint8Array;
/** A position in the file as a fraction, uniform (fast-check's doubles favour 0, which would keep hitting the order word). */
const pos = fc.noBias(fc.nat({ max: 0x3fffffff })).map((n) => n / 0x40000000);
const u32Of = (b: Uint8Array, o: number) => (o + 4 <= b.length ? new DataView(b.buffer, b.byteOffset).getUint32(o, true) : 0);

/** One edit of a file: a byte, a u32 field (word-aligned, to a value that matters to the format), truncation, appending, inserting or deleting words. */
export const byteMutationArb = (): fc.Arbitrary<ByteMutation> =>
  fc.oneof(
    // set a byte
    fc.tuple(pos, fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0, 1, 2, 0x7f, 0x80, 0xff))).map(([f, v]): ByteMutation => (b) => {
      const c = b.slice();
      if (c.length) c[Math.min(c.length - 1, Math.floor(f * c.length))] = v;
      return c;
    }),
    // set a u32 field (aligned: order, shape, nnz, entry index/value, pointer count, pointers) to a value derived from the file or an edge value
    fc
      .tuple(
        pos,
        fc.oneof(
          fc.constantFrom(0, 1, 2, 3, 4, 10, 11, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0x7fc00000, 0xff800000),
          fc.integer({ min: 0, max: 0xffffffff }),
          fc.integer({ min: -3, max: 3 }).map((d) => -1000 - d), // marker: an existing word ± d
        ),
      )
      .map(([f, v]): ByteMutation => (b) => {
        const c = b.slice();
        const words = c.length >> 2;
        if (!words) return c;
        const o = 4 * Math.min(words - 1, Math.floor(f * words));
        const w = v <= -997 ? (u32Of(c, o) + (-1000 - v)) >>> 0 : v;
        new DataView(c.buffer).setUint32(o, w, true);
        return c;
      }),
    // truncate (often to a field boundary)
    fc.tuple(pos, fc.boolean()).map(([f, aligned]): ByteMutation => (b) => {
      const n = Math.floor(f * (b.length + 1));
      return b.slice(0, aligned ? n & ~3 : n);
    }),
    // cut the last few bytes
    fc.integer({ min: 1, max: 9 }).map(
      (k): ByteMutation =>
        (b) =>
          b.slice(0, Math.max(0, b.length - k)),
    ),
    // append random bytes or words
    fc.uint8Array({ minLength: 1, maxLength: 24 }).map((x): ByteMutation => (b) => {
      const c = new Uint8Array(b.length + x.length);
      c.set(b);
      c.set(x, b.length);
      return c;
    }),
    // insert or delete a word (shifts every later field)
    fc.tuple(pos, fc.boolean(), fc.integer({ min: 0, max: 0xffffffff })).map(([f, del, w]): ByteMutation => (b) => {
      const o = 4 * Math.floor(f * ((b.length >> 2) + 1));
      if (del) return new Uint8Array([...b.subarray(0, o), ...b.subarray(o + 4)]);
      const word = new Uint8Array(4);
      new DataView(word.buffer).setUint32(0, w, true);
      return new Uint8Array([...b.subarray(0, o), ...word, ...b.subarray(o)]);
    }),
    // swap two words
    fc.tuple(pos, pos).map(([f, g]): ByteMutation => (b) => {
      const words = b.length >> 2;
      const c = b.slice();
      if (words < 2) return c;
      const i = 4 * Math.floor(f * words);
      const j = 4 * Math.floor(g * words);
      const t = c.slice(i, i + 4);
      c.copyWithin(i, j, j + 4);
      c.set(t, j);
      return c;
    }),
  );

export const csfInputArb = (opts: { maxMutations?: number; maxBytes?: number } = {}): fc.Arbitrary<CsfInput> => {
  const seed = fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...CSF_SEED_BYTES) }, { weight: 2, arbitrary: csfTensorBytesArb() });
  const mutated = fc
    .tuple(seed, fc.array(byteMutationArb(), { minLength: 0, maxLength: opts.maxMutations ?? 6 }))
    .map(([b, ms]) => ms.reduce((x, m) => m(x), b));
  const random = fc.oneof(fc.uint8Array({ maxLength: opts.maxBytes ?? 256 }), fc.uint8Array({ maxLength: 16 }));
  return fc
    .record({
      b: fc.oneof({ weight: 9, arbitrary: mutated }, { weight: 1, arbitrary: random }),
      at: fc.array(fc.oneof(frac, pos), { minLength: 4, maxLength: 16 }),
    })
    .map(({ b, at }) => ({ path: '/w/fuzz.csfbin', text: latin1(b), at }));
};

const issueKey = (i: CsfIssue | undefined) => (i ? `${i.rule ?? i.code}@${i.offset}` : 'none');

/** Runs the validator, the codec, the accelerator load and the viewer model on one file; returns what went wrong (empty = fine). */
export async function checkCsf(input: CsfInput, opts: CheckOptions = {}): Promise<Violation[]> {
  const bytes = csfBytes(input);
  const size = bytes.length;
  const c = new Checker(opts, [0]);
  const pick = (k: number, n: number) => Math.floor((input.at[k % input.at.length] ?? 0) * n);
  const issues = (where: string, list: readonly CsfIssue[] | undefined) => {
    for (const i of list ?? []) {
      if (typeof i.message !== 'string' || !i.message) c.violations.push({ where: `${where} ${i.code}`, problem: 'empty message' });
      if (i.offset === undefined) continue;
      if (!Number.isInteger(i.offset) || i.offset < 0 || i.offset > size)
        c.violations.push({ where: `${where} ${i.code}`, problem: `byte offset ${i.offset} outside the file (0..${size})` });
      else if (i.length !== undefined && (!Number.isInteger(i.length) || i.length < 0 || i.offset + i.length > size))
        c.violations.push({
          where: `${where} ${i.code}`,
          problem: `bytes ${i.offset}..${i.offset + i.length} (length ${i.length}) outside the file (${size} bytes)`,
        });
    }
  };
  // the validator: whole, with every option, and in chunks (must agree with the whole)
  const v = c.call('validateCsf', () => validateCsf(bytes));
  issues('validateCsf', v?.issues);
  const all = c.call('validateCsf(all issues)', () => validateCsf(bytes, { maxIssues: 100, allowTrailing: true, dropEmptySentinel: true, keepPointers: true }));
  issues('validateCsf(all issues)', all?.issues);
  const cuts = [pick(0, size + 1), pick(1, size + 1), pick(2, size + 1)].sort((a, b) => a - b);
  const chunks = [bytes.subarray(0, cuts[0]), bytes.subarray(cuts[0], cuts[1]), bytes.subarray(cuts[1], cuts[2]), bytes.subarray(cuts[2])];
  const vc = c.call('validateCsfChunks', () => validateCsfChunks(chunks, { maxIssues: 100, allowTrailing: true, dropEmptySentinel: true, keepPointers: true }));
  const sameValidation = (x: CsfValidation, y: CsfValidation) =>
    JSON.stringify({ ...x, pointers: x.pointers && [...x.pointers] }) === JSON.stringify({ ...y, pointers: y.pointers && [...y.pointers] });
  if (all && vc && !sameValidation(all, vc))
    c.violations.push({
      where: 'validateCsfChunks',
      problem:
        `chunks split at ${cuts.join(', ')} validate differently from the whole file:\nwhole  ${JSON.stringify(all.issues.map(issueKey))}\n` +
        `chunks ${JSON.stringify(vc.issues.map(issueKey))}`,
    });
  // the lazy reader
  for (const allowTrailing of [false, true]) {
    const w = `openCsf(allowTrailing=${allowTrailing})`;
    const o = c.call(w, () => openCsf(bytes, { allowTrailing }));
    if (!o) continue;
    if (!o.ok) {
      issues(w, o.issues);
      continue;
    }
    const f = o.file;
    issues(w, f.warnings);
    c.call(`${w}.toTensor`, () => f.toTensor());
    for (let k = 0; k < 3 && f.fibers > 0; k++) {
      const fi = pick(k, f.fibers);
      c.call(`${w}.fiber(${fi})`, () => f.fiber(fi));
    }
    for (let k = 0; k < 3 && f.nnz > 0; k++) {
      const e = pick(k + 3, f.nnz);
      c.call(`${w}.fiberOfEntry(${e})`, () => f.fiberOfEntry(e));
    }
    if (f.shape.every((s) => s > 0)) {
      const coord = f.shape.map((s, k) => pick(k + 1, s));
      c.call(`${w}.valueAt([${coord.join(', ')}])`, () => f.valueAt(coord));
    }
    for (let k = 0; k < 4; k++) {
      const off = pick(k, size);
      c.call(`describeFileOffset@${off}`, () => describeFileOffset(f, off));
    }
    issues(`${w}.validate`, c.call(`${w}.validate`, () => f.validate({ allowTrailing }))?.issues);
  }
  // the codec: a file that parses is written back byte for byte, unless it breaks a writer rule only
  // writers have (formats.md §A.5: a last extent above 2^31 is read but not written)
  const writable = (t: { shape: number[] }) => t.shape[t.shape.length - 1] <= MAX_LAST_EXTENT;
  const p = c.call('parseCsf', () => parseCsf(bytes));
  if (p && !p.ok) issues('parseCsf', p.issues);
  if (p?.ok && writable(p.tensor)) {
    const again = c.call('encodeCsf(parsed)', () => encodeCsf(p.tensor));
    if (again && latin1(again) !== input.text)
      c.violations.push({ where: 'encodeCsf(parsed)', problem: `a valid file of ${size} bytes is written back as ${again.length} different bytes` });
  }
  const pd = c.call('parseCsf(dropEmptySentinel, allowTrailing)', () => parseCsf(bytes, { dropEmptySentinel: true, allowTrailing: true }));
  if (pd && !pd.ok) issues('parseCsf(dropEmptySentinel, allowTrailing)', pd.issues);
  if (pd?.ok && writable(pd.tensor)) c.call('encodeCsf(parsed, sentinels dropped)', () => encodeCsf(pd.tensor));
  const pl = c.call('placementOf', () => placementOf(bytes));
  if (pl !== undefined && !(pl instanceof Error) && !p?.ok)
    c.violations.push({ where: 'placementOf', problem: 'gave a placement for a file parseCsf rejects' });
  // the accelerator load: twice (the second tensor at nonzero bases), then back out
  const mem = new AcceleratorMemory({ metaCapacity: 4096, mainCapacity: 1 << 16 });
  for (const k of [0, 1]) {
    const l = c.call(`loadCsf#${k}`, () => loadCsf(mem, bytes, { name: `t${k}`, allowTrailing: k === 1 }));
    if (!l) continue;
    if (!l.ok) {
      issues(`loadCsf#${k}`, l.issues);
      continue;
    }
    const t = l.tensor.t;
    c.call(`readTensorMeta#${k}`, () => readTensorMeta(mem, t));
    const x = c.call(`extractCsf#${k}`, () => extractCsf(mem, t));
    if (x?.ok) {
      const back = c.call(`validateCsf(extracted#${k})`, () => validateCsf(x.bytes));
      if (back && !back.ok) c.violations.push({ where: `extractCsf#${k}`, problem: `the extracted file is invalid: ${back.issues[0]?.message}` });
    } else if (x) c.violations.push({ where: `extractCsf#${k}`, problem: `a loaded tensor does not extract: ${x.issues[0]?.message}` });
    c.call(`tensorFromMemory#${k}`, () => tensorFromMemory(mem, t));
  }
  const o = openCsf(bytes, { allowTrailing: true });
  if (o.ok) c.call('loadCsf(CsfFile)', () => loadCsf(new AcceleratorMemory(), o.file));
  // the viewer model and its host
  const view = await c.callAsync('CsfView.open', () => CsfView.open(bytesSource(bytes)));
  if (!view) return c.violations;
  if (view.indexProblem) issues('CsfView.indexProblem', [view.indexProblem]);
  // the viewer's structural check agrees with the reader's (trailing bytes are the validation's business)
  const structural = o.ok ? undefined : o.issues.find((i) => i.severity === 'error');
  if (issueKey(view.indexProblem) !== issueKey(structural))
    c.violations.push({
      where: 'CsfView.open',
      problem: `index problem ${issueKey(view.indexProblem)} but openCsf (allowTrailing) finds ${issueKey(structural)}`,
    });
  const rows = view.rowCount;
  for (let k = 0; k < 3; k++) {
    const start = pick(k, rows + 2);
    const count = 1 + pick(k + 1, 64);
    const r = await c.callAsync(`CsfView.rows(${start}, ${count})`, () => view.rows(start, count));
    for (const row of r ?? [])
      if (row.kind === 'entry' && (row.offset < 0 || row.offset + 8 > size))
        c.violations.push({ where: `CsfView.rows(${start}, ${count})`, problem: `entry ${row.entry} at byte ${row.offset} outside the file (${size} bytes)` });
  }
  for (let k = 0; k < 3; k++) {
    const off = pick(k + 2, size + 8);
    await c.callAsync(`CsfView.hex@${off}`, () => view.hex(off, 64));
    c.call(`CsfView.rowOfOffset@${off}`, () => view.rowOfOffset(off));
  }
  const posted: unknown[] = [];
  const host = c.call('new CsfViewHost', () => new CsfViewHost(view, (m) => posted.push(m), { title: 'fuzz', maxProblems: 50 }));
  if (!host) return c.violations;
  const fibers = view.header?.fibers ?? 0;
  const nnz = view.header?.nnz ?? 0;
  const requests: [string, unknown][] = [
    ['csf.hello', { protocol: 1 }],
    ['csf.rows', { start: pick(0, rows + 1), count: 50 }],
    ['csf.hex', { offset: pick(1, size + 1), length: 64 }],
    ['csf.locate', { offset: pick(2, size + 1) }],
    ['csf.locate', { fiber: pick(3, fibers + 1) }],
    ['csf.locate', { entry: pick(4, nnz + 1) }],
  ];
  for (const [id, [method, params]] of requests.entries())
    await c.callAsync(`CsfViewHost ${method}#${id}`, () => host.handle({ type: 'request', id, method, params }));
  const info = await c.callAsync('CsfViewHost.validated', () => host.validated);
  host.dispose();
  if (info?.state !== 'done')
    c.violations.push({ where: 'CsfViewHost.validated', problem: `validation ended in state ${info?.state}: ${info && 'error' in info ? info.error : ''}` });
  issues('CsfViewHost.validated', info?.problems as CsfIssue[] | undefined);
  const answers = posted.filter((m) => (m as { type: string }).type === 'response') as { id: number; ok: boolean; error?: string }[];
  for (const [id, [method]] of requests.entries()) {
    const a = answers.find((m) => m.id === id);
    if (!a) c.violations.push({ where: `CsfViewHost ${method}#${id}`, problem: 'no response' });
    else if (!a.ok) c.violations.push({ where: `CsfViewHost ${method}#${id}`, problem: `answered with an error: ${a.error}` });
  }
  for (const m of posted) {
    const why = explainCsfHostMessage(m);
    if (why) c.violations.push({ where: 'CsfViewHost post', problem: `malformed message to the webview: ${why}` });
  }
  return c.violations;
}
