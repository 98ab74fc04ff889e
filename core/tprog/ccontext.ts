/**
 * A light scan of the C host code around `>` lines: macros, includes, functions, simple integer
 * variables with constant initialisers, `$cls::kernel` address tokens. It is deliberately not a full
 * C parser: it only has to be fast and tolerant, and to give the checker the values it can know.
 */
import type { Span } from './ast';
import type { LineSetView } from './lines';
import { lfLineEnds } from '../common/lineIndex';

export interface MacroDef {
  name: string;
  value: string;
  params?: string[];
  /** Document offsets of the name. */
  nameSpan: Span;
  span: Span;
  file: string;
  /** Line/character range of the name (filled for headers, whose text the analysis does not keep). */
  nameRange?: import('../common/diagnostic').Range;
}

export interface IncludeRef {
  path: string;
  system: boolean;
  span: Span;
}

/** (A new optional field must also be copied by `shiftCContext` in analyze.ts.) */
export interface CFunction {
  name: string;
  nameSpan: Span;
  /** From the return type to the closing brace. */
  span: Span;
  bodySpan: Span;
}

/** (A new optional field must also be copied by `shiftCContext` in analyze.ts.) */
export interface CVar {
  name: string;
  init?: string;
  nameSpan: Span;
  /** Index of the enclosing function, -1 for globals. */
  fn: number;
  isArray: boolean;
  type: string;
}

export interface KernelRef {
  name: string;
  span: Span;
}

export interface CContext {
  macros: MacroDef[];
  includes: IncludeRef[];
  functions: CFunction[];
  vars: CVar[];
  /** Names assigned (=, op=, ++, --, &x) per function index ('-1' = global scope). */
  mutated: Map<number, Set<string>>;
  kernelRefs: KernelRef[];
  /** Function calls by name (for navigation and run lenses). */
  calls: { name: string; span: Span; fn: number }[];
  /** Bodies of struct and union definitions: their declarations are fields, not variables. */
  recordBodies: Span[];
}

const TYPE_WORDS = new Set([
  'int',
  'unsigned',
  'signed',
  'short',
  'long',
  'char',
  'bool',
  'const',
  'static',
  'volatile',
  'register',
  'int8_t',
  'int16_t',
  'int32_t',
  'int64_t',
  'uint8_t',
  'uint16_t',
  'uint32_t',
  'uint64_t',
  'size_t',
  'float',
  'double',
  'void',
]);
const KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'return',
  'sizeof',
  'do',
  'else',
  'case',
  'goto',
  'break',
  'continue',
  'default',
  'typedef',
  'struct',
  'union',
  'enum',
]);

const TWO_OPS = ['++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '==', '!=', '<=', '>=', '->', '&&', '||', '<<', '>>'];
const TWO_CHAR = new Set(TWO_OPS.map((o) => o.charCodeAt(0)));
const isIdStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isIdPart = (c: number) => isIdStart(c) || (c >= 48 && c <= 57);

/**
 * Token kinds: a punctuation character is its character code, a two-character operator
 * 0x10000 + its two codes; the others are negative.
 */
const K_ID = -1;
const K_NUM = -2;
const K_STR = -3;
const K_CHR = -4;
/** `$cls::kernel` (an address: a number to the C code). */
const K_KREF = -5;
const op = (o: string) => (o.length === 1 ? o.charCodeAt(0) : 0x10000 + o.charCodeAt(0) * 256 + o.charCodeAt(1));
const TWO_CODES = new Set(TWO_OPS.map(op));
const [LPAREN, RPAREN, LBRACK, RBRACK, LBRACE, RBRACE, SEMI, COMMA, STAR, DOT, AMP, ASSIGN, ARROW, INC, DEC] = [
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ';',
  ',',
  '*',
  '.',
  '&',
  '=',
  '->',
  '++',
  '--',
].map(op);
const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '++', '--'].map(op));
/** Word classes of identifiers. */
const W_TYPE = 1;
const W_KEYWORD = 2;
/** Type words and keywords are lower-case and short: other identifiers are not sliced to be looked up. */
const MAX_WORD = Math.max(...[...TYPE_WORDS, ...KEYWORDS].map((w) => w.length));
const isLower = (c: number) => c >= 97 && c <= 122;
const WORDS = new Map<string, number>([...[...TYPE_WORDS].map((w) => [w, W_TYPE] as const), ...[...KEYWORDS].map((w) => [w, W_KEYWORD] as const)]);

/** Most tokens whose arrays are kept between scans (13 MiB; a larger document's arrays are dropped after its scan). */
const SCRATCH_MAX = 1 << 20;
const scratch: { k: Int32Array; s: Int32Array; e: Int32Array; w: Uint8Array; close: Int32Array } = {
  k: new Int32Array(1024),
  s: new Int32Array(1024),
  e: new Int32Array(1024),
  w: new Uint8Array(1024),
  close: new Int32Array(1024),
};

/**
 * Tokens as parallel typed arrays (one object or string per token made the scan allocation-bound):
 * kind, start, end and the class of identifiers; texts are sliced from the document when needed.
 */
class Toks {
  k: Int32Array;
  s: Int32Array;
  e: Int32Array;
  w: Uint8Array;
  length = 0;
  constructor(readonly text: string) {
    // the arrays of the previous scan are reused (a scan keeps no token after it returns; large
    // typed arrays allocated afresh for every document cost page faults, not only copying)
    ({ k: this.k, s: this.s, e: this.e, w: this.w } = scratch);
  }
  /** Hands the (possibly grown) arrays back for the next scan, unless they grew past SCRATCH_MAX. */
  release(): void {
    if (this.k.length > SCRATCH_MAX) return;
    scratch.k = this.k;
    scratch.s = this.s;
    scratch.e = this.e;
    scratch.w = this.w;
  }
  push(kind: number, s: number, e: number, word = 0): void {
    const n = this.length;
    if (n === this.k.length) {
      const grow = <A extends Int32Array | Uint8Array>(a: A): A => {
        const b = new (a.constructor as new (n: number) => A)(n * 2);
        b.set(a);
        return b;
      };
      this.k = grow(this.k);
      this.s = grow(this.s);
      this.e = grow(this.e);
      this.w = grow(this.w);
    }
    this.k[n] = kind;
    this.s[n] = s;
    this.e[n] = e;
    this.w[n] = word;
    this.length = n + 1;
  }
  /** Kind of token `q` (0 outside the list). */
  kind(q: number): number {
    return q >= 0 && q < this.length ? this.k[q] : 0;
  }
  /** Text of token `q` as the scan reads it (string and character literals and `$` references abstracted). */
  str(q: number): string {
    const k = this.k[q];
    return k === K_STR ? '"str"' : k === K_CHR ? "'c'" : k === K_KREF ? '0' : this.text.slice(this.s[q], this.e[q]);
  }
  isType(q: number): boolean {
    return q >= 0 && q < this.length && this.w[q] === W_TYPE;
  }
  isKeyword(q: number): boolean {
    return q >= 0 && q < this.length && this.w[q] === W_KEYWORD;
  }
}

export function scanC(text: string, tensorLines: LineSetView, file = ''): CContext {
  text = lfLineEnds(text);
  const ctx: CContext = { macros: [], includes: [], functions: [], vars: [], mutated: new Map(), kernelRefs: [], calls: [], recordBodies: [] };
  const toks = new Toks(text);
  let line = 0;
  let i = 0;
  const n = text.length;
  let lineStart = true;
  while (i < n) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
      lineStart = true;
      continue;
    }
    if (lineStart) {
      let k = i;
      while (k < n && (text[k] === ' ' || text[k] === '\t')) k++;
      lineStart = false;
      if (tensorLines.has(line)) {
        const e = text.indexOf('\n', k);
        i = e < 0 ? n : e;
        continue;
      }
      if (text[k] === '#') {
        // preprocessor line (with continuations)
        let e = k;
        for (;;) {
          const nl = text.indexOf('\n', e);
          if (nl < 0) {
            e = n;
            break;
          }
          const body = text.slice(e, nl).replace(/\r$/, '');
          if (body.endsWith('\\')) {
            e = nl + 1;
            line++;
            continue;
          }
          e = nl;
          break;
        }
        directive(text, k, e > k && text.charCodeAt(e - 1) === 13 ? e - 1 : e, ctx, file);
        i = e;
        continue;
      }
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const e = text.indexOf('\n', i);
      i = e < 0 ? n : e;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      const stop = e < 0 ? n : e + 2;
      const startLine = line;
      for (let k = i; k < stop; k++) if (text.charCodeAt(k) === 10) line++;
      i = stop;
      // a comment that ends inside a `>` line: the rest of that line is the tensor statement's, not C
      if (line !== startLine && tensorLines.has(line)) {
        const nl = text.indexOf('\n', i);
        i = nl < 0 ? n : nl;
      }
      continue;
    }
    if (c === '"' || c === "'") {
      // a literal ends at its quote, or (unterminated) before the end of its line; a backslash-newline
      // inside it continues it on the next line, which is counted
      let k = i + 1;
      while (k < n && text[k] !== c && text[k] !== '\n') {
        if (text[k] === '\\' && text[k + 1] === '\n') line++;
        k += text[k] === '\\' ? 2 : 1;
      }
      const closed = k < n && text[k] === c;
      toks.push(c === '"' ? K_STR : K_CHR, i, closed ? k + 1 : k);
      i = closed ? k + 1 : k;
      continue;
    }
    if (c === '$') {
      let k = i + 1;
      while (k < n && /[A-Za-z0-9_.:$]/.test(text[k])) k++;
      ctx.kernelRefs.push({ name: text.slice(i + 1, k), span: { start: i, end: k } });
      toks.push(K_KREF, i, k);
      i = k;
      continue;
    }
    const cc = text.charCodeAt(i);
    if (isIdStart(cc)) {
      let k = i + 1;
      while (k < n && isIdPart(text.charCodeAt(k))) k++;
      toks.push(K_ID, i, k, k - i <= MAX_WORD && isLower(text.charCodeAt(i)) ? (WORDS.get(text.slice(i, k)) ?? 0) : 0);
      i = k;
      continue;
    }
    if (cc >= 48 && cc <= 57) {
      let k = i + 1;
      while (k < n && (isIdPart(text.charCodeAt(k)) || text.charCodeAt(k) === 46)) k++;
      toks.push(K_NUM, i, k);
      i = k;
      continue;
    }
    if (TWO_CHAR.has(cc) && i + 1 < n) {
      const two = 0x10000 + cc * 256 + text.charCodeAt(i + 1);
      if (TWO_CODES.has(two)) {
        toks.push(two, i, i + 2);
        i += 2;
        continue;
      }
    }
    toks.push(cc, i, i + 1);
    i++;
  }
  structure(toks, ctx);
  toks.release();
  return ctx;
}

function directive(text: string, start: number, end: number, ctx: CContext, file: string): void {
  const body = text.slice(start, end);
  const inc = /^#\s*include\s*(["<])([^">]+)[">]/.exec(body);
  if (inc) {
    ctx.includes.push({ path: inc[2], system: inc[1] === '<', span: { start, end } });
    return;
  }
  const def = /^#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)(\(([^)]*)\))?/.exec(body);
  if (def) {
    const nameStart = start + body.indexOf(def[1], body.indexOf('define') + 6);
    let value = body.slice(def[0].length).replace(/\\\r?\n/g, ' ');
    value = value
      .replace(/\/\*.*?\*\//g, ' ')
      .replace(/\/\/.*$/, '')
      .trim();
    ctx.macros.push({
      name: def[1],
      value,
      params: def[2]
        ? def[3]
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined,
      nameSpan: { start: nameStart, end: nameStart + def[1].length },
      span: { start, end },
      file,
    });
  }
}

function structure(toks: Toks, ctx: CContext): void {
  // matching ')' of every '(' in one pass (unclosed ones match nothing)
  let close = scratch.close;
  if (close.length < toks.length) {
    close = new Int32Array(Math.max(toks.length, close.length * 2));
    if (close.length <= SCRATCH_MAX) scratch.close = close;
  }
  close.fill(-1, 0, toks.length);
  const open: number[] = [];
  for (let q = 0; q < toks.length; q++) {
    if (toks.k[q] === LPAREN) open.push(q);
    else if (toks.k[q] === RPAREN && open.length) close[open.pop()!] = q;
  }
  let depth = 0;
  let fn = -1;
  let fnDepth = 0;
  const mutated = (name: string) => {
    let set = ctx.mutated.get(fn);
    if (!set) ctx.mutated.set(fn, (set = new Set()));
    set.add(name);
  };
  const span = (q: number): Span => ({ start: toks.s[q], end: toks.e[q] });
  // open struct/union bodies: brace depth and start offset of each (innermost last)
  const records: { depth: number; start: number }[] = [];
  const isRecord = (q: number) => q >= 0 && toks.k[q] === K_ID && (toks.str(q) === 'struct' || toks.str(q) === 'union');
  for (let k = 0; k < toks.length; k++) {
    const kk = toks.k[k];
    if (kk === LBRACE) {
      depth++;
      // `struct {`, `struct Name {`: a record body
      if (isRecord(k - 1) || (k >= 2 && toks.k[k - 1] === K_ID && isRecord(k - 2))) records.push({ depth, start: toks.s[k] });
      continue;
    }
    if (kk === RBRACE) {
      const r = records[records.length - 1];
      if (r && r.depth === depth) {
        records.pop();
        ctx.recordBodies.push({ start: r.start, end: toks.e[k] });
      }
      depth--;
      if (fn >= 0 && depth === fnDepth) {
        ctx.functions[fn].span.end = toks.e[k];
        ctx.functions[fn].bodySpan.end = toks.e[k];
        fn = -1;
      }
      continue;
    }
    if (kk !== K_ID) continue;
    const next = toks.kind(k + 1);
    // function definition at top level: type words, name '(' ... ')' '{'
    if (fn < 0 && depth === 0 && next === LPAREN && !toks.isKeyword(k)) {
      const j = close[k + 1];
      if (j > 0 && toks.kind(j + 1) === LBRACE) {
        let b = k;
        while (b > 0 && (toks.k[b - 1] === K_ID || toks.k[b - 1] === STAR) && !toks.isKeyword(b - 1)) b--;
        ctx.functions.push({ name: toks.str(k), nameSpan: span(k), span: { start: toks.s[b], end: toks.e[j + 1] }, bodySpan: span(j + 1) });
        fn = ctx.functions.length - 1;
        fnDepth = depth;
        // parameters are variables of unknown value
        for (let q = k + 2; q < j; q++) {
          const after = toks.kind(q + 1);
          if (toks.k[q] === K_ID && !toks.isType(q) && (after === COMMA || after === RPAREN || after === LBRACK)) {
            const name = toks.str(q);
            ctx.vars.push({ name, nameSpan: span(q), fn, isArray: after === LBRACK, type: 'param' });
            mutated(name);
          }
        }
        k = j + 1;
        depth++;
        continue;
      }
    }
    if (next === LPAREN && !toks.isKeyword(k) && !toks.isType(k)) {
      ctx.calls.push({ name: toks.str(k), span: span(k), fn });
      continue;
    }
    const prev = toks.kind(k - 1);
    // declaration: type words then name
    if (toks.isType(k)) continue;
    const userType = k > 0 && !toks.isType(k - 1) && prev !== COMMA ? userTypeAt(toks, k, next) : -1;
    const declared = k > 0 && (toks.isType(k - 1) || (prev === STAR && k >= 2 && toks.isType(k - 2)) || (prev === COMMA && inDecl(toks, k)) || userType >= 0);
    // a field of a struct or union being defined is not a variable
    if (declared && records.length) continue;
    if (declared && prev !== DOT && prev !== ARROW) {
      const type = userType >= 0 ? userTypeText(toks, userType, k) : declType(toks, k);
      const isArray = next === LBRACK;
      let init: string | undefined;
      if (next === ASSIGN) {
        let d = 0;
        let j = k + 2;
        const from = j;
        for (; j < toks.length; j++) {
          const x = toks.k[j];
          if (x === LPAREN || x === LBRACK || x === LBRACE) d++;
          else if (x === RPAREN || x === RBRACK || x === RBRACE) d--;
          if (d < 0 || (d === 0 && (x === SEMI || x === COMMA))) break;
        }
        const parts: string[] = [];
        for (let q = from; q < j; q++) parts.push(toks.str(q));
        init = parts.join(' ');
      }
      ctx.vars.push({ name: toks.str(k), init, nameSpan: span(k), fn, isArray, type });
      continue;
    }
    if (ASSIGN_OPS.has(next) && prev !== DOT && prev !== ARROW) mutated(toks.str(k));
    else if (prev === INC || prev === DEC || prev === AMP) mutated(toks.str(k));
  }
}

/**
 * The token of the type name when `k` is declared with a type the scan has no word for: `Name x`,
 * `Name *x`, `struct Name *x` (or after `const`/`static`) at the start of a statement and followed
 * by `=`, `;`, `,` or `[` — typedefs of the file or its headers (`RequestBoxResize *req=(...)_p;`).
 * -1 otherwise.
 */
function userTypeAt(toks: Toks, k: number, next: number): number {
  if (next !== ASSIGN && next !== SEMI && next !== COMMA && next !== LBRACK) return -1;
  let j = k - 1;
  while (j >= 0 && toks.k[j] === STAR) j--;
  if (j < 0 || toks.k[j] !== K_ID || toks.w[j] !== 0) return -1;
  let b = j - 1;
  if (toks.isKeyword(b)) {
    const w = toks.str(b);
    if (w !== 'struct' && w !== 'union' && w !== 'enum') return -1;
    b--;
  }
  const before = toks.kind(b);
  return b < 0 || before === SEMI || before === LBRACE || before === RBRACE || toks.isType(b) ? j : -1;
}

function userTypeText(toks: Toks, j: number, k: number): string {
  let t = toks.str(j);
  for (let q = j + 1; q < k; q++) t += '*';
  return t;
}

function inDecl(toks: Toks, k: number): boolean {
  // walk back over `name = expr ,` pieces to a type word at statement start
  let d = 0;
  for (let j = k - 1; j >= 0; j--) {
    const x = toks.k[j];
    if (x === RPAREN || x === RBRACK) d++;
    else if (x === LPAREN || x === LBRACK) d--;
    if (d < 0) return false;
    if (d === 0 && (x === SEMI || x === LBRACE || x === RBRACE)) return false;
    if (d === 0 && toks.isType(j)) {
      const before = toks.kind(j - 1);
      if (j === 0 || before === SEMI || before === LBRACE || before === RBRACE || before === LPAREN || before === COMMA || toks.isType(j - 1)) return true;
    }
  }
  return false;
}

function declType(toks: Toks, k: number): string {
  const words: string[] = [];
  for (let j = k - 1; j >= 0 && (toks.isType(j) || toks.k[j] === STAR); j--) words.unshift(toks.str(j));
  return words.join(' ') || 'int';
}
