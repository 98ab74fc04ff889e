/**
 * C preprocessor of the host interpreter: masks `>` tensor statements (each becomes a
 * `__tl_tensor(<unit>);` placeholder on its first line, the other lines blank, so every C line
 * keeps its line and column), expands object-like and function-like macros (`#`, `##`,
 * `__VA_ARGS__`), reads `#include "..."` through the caller, evaluates `#if/#ifdef/#ifndef/
 * #elif/#else/#endif`, and writes one ASCII text for tree-sitter together with a map from every
 * output token back to its source location (tokens produced by a macro carry the location of
 * the macro's invocation).
 */
import { ConditionStack } from '../../cpp/conditions';
import { evaluateIfExpression } from '../../cpp/ifExpr';
import { collectArguments, fitArguments, parseMacroHead, replaceDefined } from '../../cpp/macros';
import type { TokenView } from '../../cpp/tokens';
import { SimError, type SourceLoc } from '../types';

export type TokKind = 'id' | 'num' | 'str' | 'chr' | 'punct' | 'kernel' | 'other';

export interface SrcFile {
  name: string;
  text: string;
  lineStarts: number[];
}

export interface Token {
  k: TokKind;
  v: string;
  src: SrcFile;
  off: number;
  /** First token of its line (directives). */
  bol: boolean;
  /** White space precedes the token. */
  ws: boolean;
  hide?: Set<string>;
}

export interface Macro {
  name: string;
  params?: string[];
  variadic?: boolean;
  body: Token[];
}

export interface IncludeReader {
  (path: string, fromFile: string): string | { file: string; text: string } | undefined;
}

export interface PreprocessInput {
  file: string;
  text: string;
  units: ReadonlyArray<{ firstLine: number; lastLine: number }>;
  readInclude?: IncludeReader;
  /** Predefined object-like macros (name → replacement text). */
  defines: Record<string, string>;
  /** Function-like predefined macros, as `#define` lines. */
  defineLines?: string[];
  /** Names whose `#define` in headers is ignored (functions the interpreter implements). */
  reserved: ReadonlySet<string>;
  /** Header base names that are silently skipped when the caller cannot read them. */
  knownHeaders: ReadonlySet<string>;
  /**
   * `>` statements of an included file (a driver that includes a kernel file): its units, numbered
   * from `base` in the run's unit table; undefined when the file has none.
   */
  includedUnits?: IncludedUnits;
}

export type IncludedUnits = (file: string, text: string) => { base: number; units: ReadonlyArray<{ firstLine: number; lastLine: number }> } | undefined;

export interface PreprocessOutput {
  /** ASCII text given to tree-sitter. */
  text: string;
  /** Start offset in `text` of every output token (ascending). */
  starts: number[];
  /** Source location of every output token. */
  toks: Token[];
  /** Macro table at each tensor placeholder (by unit index). */
  unitMacros: Map<number, Map<string, Macro>>;
  /** `$cls::kernel` names; the output spells kernel k as identifier `__tlk_<k>`. */
  kernels: string[];
  /** Location of each tensor placeholder (by unit index). */
  unitLocs: Map<number, SourceLoc>;
  macros: Map<string, Macro>;
  /** Source texts of the included files whose `>` statements are units of the run. */
  tensorIncludes: string[];
}

export const PLACEHOLDER = '__tl_tensor';
export const KERNEL_PREFIX = '__tlk_';

export function makeSrc(name: string, text: string): SrcFile {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  return { name, text, lineStarts };
}

export function locOf(src: SrcFile, off: number): SourceLoc {
  const ls = src.lineStarts;
  let lo = 0;
  let hi = ls.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ls[mid] <= off) lo = mid;
    else hi = mid - 1;
  }
  return { file: src.name, line: lo + 1, column: off - ls[lo] + 1 };
}

export function tokLoc(t: Token): SourceLoc {
  return locOf(t.src, t.off);
}

/** Replaces `>` lines: placeholder call on each unit's first line, blanks elsewhere. */
export function maskTensorLines(
  text: string,
  units: ReadonlyArray<{ firstLine: number; lastLine: number }>,
): { text: string; placeholders: Map<number, number> } {
  const first = new Map<number, number>();
  units.forEach((u, i) => {
    if (!first.has(u.firstLine)) first.set(u.firstLine, i);
  });
  const placeholders = new Map<number, number>();
  const lines = text.split('\n');
  let off = 0;
  for (let ln = 0; ln < lines.length; ln++) {
    const line = lines[ln];
    let i = 0;
    while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
    if (i < line.length && line[i] === '>') {
      const cr = line.endsWith('\r') ? '\r' : '';
      const unit = first.get(ln);
      if (unit !== undefined) {
        placeholders.set(off + i, unit);
        lines[ln] = line.slice(0, i) + `${PLACEHOLDER}(${unit});` + cr;
      } else lines[ln] = line.slice(0, i) + cr;
    }
    off += lines[ln].length + 1;
  }
  return { text: lines.join('\n'), placeholders };
}

const PUNCTS = [
  '...',
  '<<=',
  '>>=',
  '->',
  '++',
  '--',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '*=',
  '/=',
  '%=',
  '+=',
  '-=',
  '&=',
  '^=',
  '|=',
  '##',
  '::',
];

const isIdStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isIdChar = (c: number): boolean => isIdStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** Tokenizes a whole source file (comments and line continuations removed). */
export function lexFile(src: SrcFile, from = 0, to = src.text.length): Token[] {
  const s = src.text;
  const out: Token[] = [];
  let i = from;
  let bol = true;
  let ws = false;
  while (i < to) {
    const c = s.charCodeAt(i);
    if (c === 10) {
      bol = true;
      ws = true;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11) {
      ws = true;
      i++;
      continue;
    }
    if (c === 92 /* \ */) {
      let j = i + 1;
      while (j < to && (s.charCodeAt(j) === 32 || s.charCodeAt(j) === 9 || s.charCodeAt(j) === 13)) j++;
      if (j < to && s.charCodeAt(j) === 10) {
        i = j + 1;
        ws = true;
        continue;
      }
    }
    if (c === 47 /* / */ && s.charCodeAt(i + 1) === 47) {
      while (i < to && s.charCodeAt(i) !== 10) {
        if (s.charCodeAt(i) === 92 && s.charCodeAt(i + 1) === 10) i++;
        i++;
      }
      ws = true;
      continue;
    }
    if (c === 47 && s.charCodeAt(i + 1) === 42) {
      const e = s.indexOf('*/', i + 2);
      i = e < 0 || e >= to ? to : e + 2;
      ws = true;
      continue;
    }
    const start = i;
    let k: TokKind;
    if (c === 36 /* $ */ && isIdStart(s.charCodeAt(i + 1))) {
      // $cls::kernel
      let j = i + 1;
      while (j < to && isIdChar(s.charCodeAt(j))) j++;
      if (s.charCodeAt(j) === 58 && s.charCodeAt(j + 1) === 58 && isIdStart(s.charCodeAt(j + 2))) {
        j += 2;
        while (j < to && isIdChar(s.charCodeAt(j))) j++;
        k = 'kernel';
      } else k = 'other';
      i = j;
    } else if (isIdStart(c)) {
      // string/char prefixes
      let j = i + 1;
      while (j < to && isIdChar(s.charCodeAt(j))) j++;
      const word = s.slice(i, j);
      const q = s.charCodeAt(j);
      if ((q === 34 || q === 39) && (word === 'L' || word === 'u' || word === 'U' || word === 'u8')) {
        i = scanQuoted(s, j, to);
        k = q === 34 ? 'str' : 'chr';
      } else {
        i = j;
        k = 'id';
      }
    } else if (isDigit(c) || (c === 46 && isDigit(s.charCodeAt(i + 1)))) {
      let j = i + 1;
      for (;;) {
        const d = s.charCodeAt(j);
        if ((d === 43 || d === 45) && /[eEpP]/.test(s[j - 1])) j++;
        else if (j < to && (isIdChar(d) || d === 46)) j++;
        else break;
      }
      i = j;
      k = 'num';
    } else if (c === 34 || c === 39) {
      i = scanQuoted(s, i, to);
      k = c === 34 ? 'str' : 'chr';
    } else {
      let p: string | undefined;
      for (const cand of PUNCTS) {
        if (s.startsWith(cand, i)) {
          p = cand;
          break;
        }
      }
      if (p) {
        i += p.length;
        k = 'punct';
      } else {
        i++;
        k = '+-*/%<>=!&|^~?:;,.()[]{}#'.includes(s[start]) ? 'punct' : 'other';
      }
    }
    out.push({ k, v: s.slice(start, i).replace(/\\\r?\n/g, ''), src, off: start, bol, ws });
    bol = false;
    ws = false;
  }
  return out;
}

function scanQuoted(s: string, i: number, to: number): number {
  const q = s.charCodeAt(i);
  let j = i + 1;
  while (j < to) {
    const d = s.charCodeAt(j);
    if (d === 92) {
      j += 2;
      continue;
    }
    if (d === q) return j + 1;
    if (d === 10) return j;
    j++;
  }
  return j;
}

// ------------------------------------------------------------------ #if expressions

/** Value of a C integer literal (suffixes ignored); NaN when not an integer. */
export function parseIntLiteral(text: string): number {
  const t = text.replace(/[uUlL]+$/, '');
  if (/^0[xX][0-9a-fA-F]+$/.test(t)) return parseInt(t.slice(2), 16);
  if (/^0[bB][01]+$/.test(t)) return parseInt(t.slice(2), 2);
  if (/^0[0-7]*$/.test(t)) return parseInt(t, 8) || 0;
  if (/^[1-9][0-9]*$/.test(t)) return parseInt(t, 10);
  return NaN;
}

/** Value of a C character literal (first character; escapes decoded). */
export function charLiteralValue(text: string): number {
  const body = text.replace(/^(u8|[LuU])?'/, '').replace(/'$/, '');
  const bytes = decodeEscapes(body);
  return bytes.length === 0 ? 0 : bytes[0];
}

/** Decodes a C string/char body (without quotes) to bytes (UTF-8 for non-ASCII). */
export function decodeEscapes(body: string): number[] {
  const out: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\') {
      const code = body.charCodeAt(i);
      if (code < 128) out.push(code);
      else {
        const cp = body.codePointAt(i)!;
        if (cp > 0xffff) i++;
        for (const b of enc.encode(String.fromCodePoint(cp))) out.push(b);
      }
      continue;
    }
    const e = body[++i];
    switch (e) {
      case 'n':
        out.push(10);
        break;
      case 't':
        out.push(9);
        break;
      case 'r':
        out.push(13);
        break;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7': {
        let v = 0;
        let n = 0;
        while (n < 3 && i < body.length && body[i] >= '0' && body[i] <= '7') {
          v = v * 8 + (body.charCodeAt(i) - 48);
          i++;
          n++;
        }
        i--;
        out.push(v & 255);
        break;
      }
      case 'x': {
        let v = 0;
        i++;
        while (i < body.length && /[0-9a-fA-F]/.test(body[i])) v = v * 16 + parseInt(body[i++], 16);
        i--;
        out.push(v & 255);
        break;
      }
      case 'a':
        out.push(7);
        break;
      case 'b':
        out.push(8);
        break;
      case 'f':
        out.push(12);
        break;
      case 'v':
        out.push(11);
        break;
      case 'e':
        out.push(27);
        break;
      case undefined:
        break;
      default:
        out.push(e.charCodeAt(0) & 255);
    }
  }
  return out;
}

// ------------------------------------------------------------------ the preprocessor

interface FileState {
  src: SrcFile;
  toks: Token[];
  i: number;
}

/** How core/cpp reads these tokens. */
const VIEW: TokenView<Token> = { text: (t) => t.v, isIdent: (t) => t.k === 'id', spaceBefore: (t) => t.ws };
const tokText = (t: Token): string => t.v;

const EXPANSION_LIMIT = 2_000_000;
/**
 * Tokens all macro replacements of a file may produce together (counted again at every level of
 * nesting): far above any real program, far below what exhausts memory. Without it a few nested
 * macros that repeat their argument grow exponentially (10 copies, 9 levels deep: 10^9 tokens).
 */
export const MACRO_OUTPUT_LIMIT = 2_000_000;
const INCLUDE_DEPTH = 64;

export class Preprocessor {
  readonly macros = new Map<string, Macro>();
  private files: FileState[] = [];
  /** One stack across the included files: a group may not span files, but C reports that only at the end. */
  private conds = new ConditionStack<Token>();
  private pending: Token[] = [];
  private onceFiles = new Set<string>();
  private expansions = 0;
  /** Tokens the replacements produced so far (see `MACRO_OUTPUT_LIMIT`). */
  private produced = 0;
  private builtinSrc = makeSrc('<built-in>', '');
  /** Called for every raw token taken from a file (not from a macro body). */
  onRawToken?: (t: Token) => void;

  constructor(private opts: Pick<PreprocessInput, 'readInclude' | 'reserved' | 'knownHeaders' | 'includedUnits'>) {}
  /** Placeholder offsets → unit of every file whose `>` lines were masked (the main file and included tensor programs). */
  readonly placeholders = new Map<SrcFile, Map<number, number>>();
  /** Unmasked texts of included tensor programs. */
  readonly tensorIncludes: string[] = [];

  err(msg: string, t?: Token): never {
    throw new SimError(msg, t ? tokLoc(t) : undefined, [], 'compile');
  }

  define(name: string, body: string): void {
    const src = makeSrc('<built-in>', body);
    this.macros.set(name, { name, body: lexFile(src).map((t) => ({ ...t, bol: false })) });
  }

  defineLine(line: string): void {
    const src = makeSrc('<built-in>', line);
    const toks = lexFile(src);
    this.directive(toks.slice(1), toks[0]);
  }

  pushFile(src: SrcFile): void {
    this.files.push({ src, toks: lexFile(src), i: 0 });
  }

  /** Next raw token with directives processed and inactive regions skipped; undefined at end. */
  private nextRaw(): Token | undefined {
    for (;;) {
      const f = this.files[this.files.length - 1];
      if (!f) return undefined;
      if (f.i >= f.toks.length) {
        this.files.pop();
        if (this.files.length === 0 && this.conds.depth > 0) this.err('unterminated #if', this.conds.unclosed().pop());
        continue;
      }
      const t = f.toks[f.i];
      if (t.bol && t.v === '#' && t.k === 'punct') {
        let j = f.i + 1;
        while (j < f.toks.length && !f.toks[j].bol) j++;
        const line = f.toks.slice(f.i + 1, j);
        f.i = j;
        this.directive(line, t);
        continue;
      }
      f.i++;
      if (!this.conds.active) continue;
      this.onRawToken?.(t);
      return t;
    }
  }

  private directive(line: Token[], hash: Token): void {
    const name = line[0];
    if (!name) return;
    const d = name.v;
    const misplaced = (p: 'without-if' | 'after-else'): never => this.err(p === 'without-if' ? `#${d} without #if` : `#${d} after #else`, name);
    switch (d) {
      case 'if':
      case 'ifdef':
      case 'ifndef':
        this.conds.open(hash, () => {
          if (d === 'if') return this.evalIf(line.slice(1), name) !== 0;
          if (!line[1] || line[1].k !== 'id') this.err(`#${d} needs a macro name`, name);
          return this.macros.has(line[1].v) === (d === 'ifdef');
        });
        return;
      case 'elif':
        this.conds.elif(() => this.evalIf(line.slice(1), name) !== 0, misplaced);
        return;
      case 'else':
        this.conds.else(misplaced);
        return;
      case 'endif':
        if (!this.conds.close()) this.err('#endif without #if', name);
        return;
    }
    if (!this.conds.active) return;
    switch (d) {
      case 'define': {
        const n = line[1];
        if (!n || n.k !== 'id') this.err('#define needs a macro name', name);
        if (this.opts.reserved.has(n.v) && n.src.name !== '<built-in>') return;
        const head = parseMacroHead(line, 2, VIEW, 'lenient');
        if ('error' in head) {
          if (head.error === 'unterminated') this.err(`unterminated parameter list of macro '${n.v}'`, n);
          this.err(`bad parameter '${line[head.at].v}' in macro '${n.v}'`, line[head.at]);
        }
        const m: Macro = { name: n.v, body: line.slice(head.body) };
        if (head.params) m.params = head.params;
        if (head.variadic) m.variadic = true;
        this.macros.set(n.v, m);
        return;
      }
      case 'undef':
        if (line[1]) this.macros.delete(line[1].v);
        return;
      case 'include':
      case 'include_next':
        this.include(line.slice(1), name);
        return;
      case 'error':
        this.err(
          `#error ${line
            .slice(1)
            .map((t) => t.v)
            .join(' ')}`,
          name,
        );
        return;
      case 'pragma':
        if (line[1]?.v === 'once') this.onceFiles.add(name.src.name);
        return;
      default:
        // #line, #warning, #ident, null directive and unknown directives have no effect here
        return;
    }
  }

  private include(rest: Token[], at: Token): void {
    if (rest.length === 0) this.err('#include needs a file name', at);
    let path: string;
    let system = false;
    if (rest[0].k === 'str') path = rest[0].v.slice(1, -1);
    else if (rest[0].v === '<') {
      system = true;
      // reconstruct <...> from the source text
      const last = rest[rest.length - 1];
      path = at.src.text.slice(rest[0].off + 1, last.v === '>' ? last.off : last.off + last.v.length).trim();
    } else {
      const exp = this.expandList(rest);
      if (exp[0]?.k === 'str') path = exp[0].v.slice(1, -1);
      else this.err('#include expects "file" or <file>', at);
    }
    if (system) return; // standard and ztachip system headers: their declarations are built in
    if (this.files.length >= INCLUDE_DEPTH) this.err(`#include nested too deeply (${INCLUDE_DEPTH})`, at);
    const r = this.opts.readInclude?.(path, at.src.name);
    if (r === undefined) {
      const base = path.replace(/^.*[\\/]/, '');
      // ztachip system headers (their declarations are built in) and the generated PCORE image
      if (this.opts.knownHeaders.has(base) || /\.p\.img$/.test(base)) return;
      this.err(`cannot open include file "${path}"`, at);
    }
    const file = typeof r === 'string' ? path : r.file;
    let text = typeof r === 'string' ? r : r.text;
    if (this.onceFiles.has(file)) return;
    // an included tensor program: its `>` lines become placeholders of its own units
    const inc = /^[ \t]*>/m.test(text) ? this.opts.includedUnits?.(file, text) : undefined;
    let marks: Map<number, number> | undefined;
    if (inc) {
      this.tensorIncludes.push(text);
      const masked = maskTensorLines(text, inc.units);
      text = masked.text;
      marks = new Map([...masked.placeholders].map(([off, u]) => [off, u + inc.base]));
    }
    const src = makeSrc(file, text);
    if (marks) this.placeholders.set(src, marks);
    this.pushFile(src);
  }

  private evalIf(toks: Token[], at: Token): number {
    const pre = replaceDefined(
      toks,
      VIEW,
      (n) => this.macros.has(n),
      (t, _last, v) => ({ ...t, k: 'num' as const, v: String(v) }),
      (t) => this.err("'defined' needs a macro name", t),
    );
    const exp = this.expandList(pre);
    if (exp.length === 0) this.err('#if with no expression', at);
    return evaluateIfExpression(exp, {
      text: tokText,
      operand: (t) => this.ifOperand(t),
      fail: (m, t) => this.err(m, t ?? at),
    });
  }

  /** A number, a character or a name (true is 1, any other name 0) of an expanded `#if` line. */
  private ifOperand(t: Token): number {
    if (t.k === 'num') {
      const v = parseIntLiteral(t.v);
      if (Number.isNaN(v)) this.err(`invalid integer '${t.v}' in #if expression`, t);
      return v;
    }
    if (t.k === 'chr') return charLiteralValue(t.v);
    if (t.k === 'id') return t.v === 'true' ? 1 : 0;
    return this.err(`unexpected '${t.v}' in #if expression`, t);
  }

  // -------------------------------------------------------------- expansion
  //
  // Expansion is the host's own, not core/cpp's: it pulls tokens from the file stack as it goes
  // (directives between a macro's name and its `(` are honoured), its tokens keep the source file and
  // offset the tree-sitter location map needs, a mistake stops the compile, and its results differ
  // from PCORE's where a program may see them: arguments inherit the invocation's hide set, an invalid
  // `##` gives one token, GNU `, ## __VA_ARGS__`, `__LINE__`/`__FILE__`, a limit on invocations.
  // Argument splitting and arity are shared (core/cpp/macros.ts).

  /** Next fully expanded token of the file stream. */
  next(): Token | undefined {
    for (;;) {
      const t = this.pending.length > 0 ? this.pending.pop()! : this.nextRaw();
      if (!t) return undefined;
      if (t.k !== 'id') return t;
      const r = this.tryExpand(
        t,
        () => (this.pending.length > 0 ? this.pending.pop() : this.nextRaw()),
        (u) => this.pending.push(u),
      );
      if (!r) return t;
      for (let i = r.length - 1; i >= 0; i--) this.pending.push(r[i]);
    }
  }

  /** Expands a finite token list completely (for #if, #include, arguments and snippets). */
  expandList(toks: Token[]): Token[] {
    const input = toks.slice().reverse();
    const out: Token[] = [];
    for (;;) {
      const t = input.pop();
      if (!t) return out;
      if (t.k !== 'id') {
        out.push(t);
        continue;
      }
      const r = this.tryExpand(
        t,
        () => input.pop(),
        (u) => input.push(u),
      );
      if (!r) out.push(t);
      else for (let i = r.length - 1; i >= 0; i--) input.push(r[i]);
    }
  }

  /** Returns the replacement of macro invocation `t`, or undefined when `t` is not one. */
  private tryExpand(t: Token, take: () => Token | undefined, unread: (t: Token) => void): Token[] | undefined {
    if (t.v === '__LINE__') return [{ ...t, k: 'num', v: String(tokLoc(t).line) }];
    if (t.v === '__FILE__') return [{ ...t, k: 'str', v: JSON.stringify(t.src.name) }];
    const m = this.macros.get(t.v);
    if (!m || t.hide?.has(t.v)) return undefined;
    if (++this.expansions > EXPANSION_LIMIT) this.err('macro expansion too large (recursive macro?)', t);
    const hs = new Set(t.hide ?? []);
    hs.add(m.name);
    if (!m.params) return this.subst(m, [], hs, t);
    const lp = take();
    if (!lp || lp.v !== '(') {
      if (lp) unread(lp);
      return undefined;
    }
    const call = collectArguments(take, tokText, m.params.length, m.variadic === true);
    if (!call) this.err(`unterminated call of macro '${m.name}'`, t);
    const args = call.args.map((a) => a.map((x) => ({ ...x, bol: false })));
    const fit = fitArguments(args, m.params.length, m.variadic === true);
    if (!fit.ok) this.err(`macro '${m.name}' expects ${m.params.length} argument(s), got ${fit.given}`, t);
    return this.subst(m, args, hs, t);
  }

  private subst(m: Macro, args: Token[][], hs: Set<string>, inv: Token): Token[] {
    const params = m.params ?? [];
    const body = m.body;
    const out: Token[] = [];
    const idx = (tk: Token | undefined): number => (tk && tk.k === 'id' && m.params ? params.indexOf(tk.v) : -1);
    const expanded = new Map<number, Token[]>();
    const at = (tk: Token, fromArg: boolean): Token => {
      const h = tk.hide ? new Set([...tk.hide, ...hs]) : hs;
      return fromArg ? { ...tk, hide: h, bol: false } : { ...tk, src: inv.src, off: inv.off, hide: h, bol: false, ws: tk.ws };
    };
    for (let i = 0; i < body.length; i++) {
      const tk = body[i];
      if (tk.v === '#' && m.params && idx(body[i + 1]) >= 0) {
        const a = args[idx(body[i + 1])];
        let s = '';
        a.forEach((x, n) => {
          if (n > 0 && x.ws) s += ' ';
          s += x.k === 'str' || x.k === 'chr' ? x.v.replace(/[\\"]/g, (c) => '\\' + c) : x.v;
        });
        out.push({ ...tk, k: 'str', v: '"' + s + '"', src: inv.src, off: inv.off, hide: hs, bol: false });
        i++;
        continue;
      }
      if (tk.v === '##' && tk.k === 'punct') {
        const nx = body[i + 1];
        i++;
        if (!nx) continue;
        const pi = idx(nx);
        const right = pi >= 0 ? args[pi] : [nx];
        if (pi >= 0 && nx.v === '__VA_ARGS__' && right.length === 0 && out.length > 0 && out[out.length - 1].v === ',') {
          out.pop(); // GNU: , ## __VA_ARGS__ with no variadic arguments
          continue;
        }
        if (right.length === 0) continue;
        const left = out.pop();
        if (!left) {
          right.forEach((x) => out.push(at(x, pi >= 0)));
          continue;
        }
        const glued = left.v + right[0].v;
        const lexed = lexFile(makeSrc(inv.src.name, glued));
        const k = lexed.length === 1 ? lexed[0].k : 'other';
        out.push({ ...left, k, v: glued, hide: left.hide ?? hs });
        for (let r = 1; r < right.length; r++) out.push(at(right[r], pi >= 0));
        continue;
      }
      const pi = idx(tk);
      if (pi >= 0) {
        const a = args[pi];
        if (body[i + 1]?.v === '##') {
          a.forEach((x) => out.push(at(x, true)));
          if (a.length === 0) out.push({ ...tk, k: 'other', v: '', src: inv.src, off: inv.off, hide: hs });
        } else {
          let e = expanded.get(pi);
          if (!e) {
            e = this.expandList(a);
            expanded.set(pi, e);
          }
          this.room(out.length + e.length, inv);
          e.forEach((x, n) => out.push({ ...at(x, true), ws: n === 0 ? tk.ws : x.ws }));
        }
        continue;
      }
      out.push(at(tk, false));
    }
    this.room(out.length, inv);
    this.produced += out.length;
    return out.filter((x) => x.v !== '');
  }

  /** Stops the compile at the macro use `inv` when `n` more tokens would pass `MACRO_OUTPUT_LIMIT`. */
  private room(n: number, inv: Token): void {
    if (this.produced + n > MACRO_OUTPUT_LIMIT)
      this.err(`macro expansion too large: the macros used here produce more than ${MACRO_OUTPUT_LIMIT.toLocaleString('en-US')} tokens`, inv);
  }
}

/** Spelling of a token for tree-sitter (ASCII only: non-ASCII string bytes become octal escapes). */
function spell(t: Token, kernels: string[], kernelIds: Map<string, number>): string {
  if (t.k === 'kernel') {
    const name = t.v.slice(1);
    let id = kernelIds.get(name);
    if (id === undefined) {
      id = kernels.length;
      kernels.push(name);
      kernelIds.set(name, id);
    }
    return KERNEL_PREFIX + id;
  }
  if ((t.k === 'str' || t.k === 'chr') && /[^\x00-\x7f]/.test(t.v)) {
    let s = '';
    for (const ch of t.v) {
      const cp = ch.codePointAt(0)!;
      if (cp < 128) s += ch;
      else for (const b of new TextEncoder().encode(ch)) s += '\\' + b.toString(8).padStart(3, '0');
    }
    return s;
  }
  return t.v;
}

export interface TokenSink {
  text: string;
  starts: number[];
  toks: Token[];
}

/** Writes tokens as text, one line per source line, recording where each token starts. */
export function emitTokens(toks: Iterable<Token>, kernels: string[], kernelIds: Map<string, number>): TokenSink {
  const parts: string[] = [];
  const starts: number[] = [];
  const out: Token[] = [];
  let pos = 0;
  let lastSrc: SrcFile | undefined;
  let lastOff = -1;
  for (const t of toks) {
    const sp = spell(t, kernels, kernelIds);
    let sep = ' ';
    if (t.src !== lastSrc || t.off !== lastOff) {
      // a new line of the source gets a new line of output (readability only)
      if (lastSrc && t.src === lastSrc && t.src.text.lastIndexOf('\n', t.off) >= lastOff) sep = '\n';
    }
    if (pos === 0) sep = '';
    parts.push(sep);
    pos += sep.length;
    starts.push(pos);
    out.push(t);
    parts.push(sp);
    pos += sp.length;
    lastSrc = t.src;
    lastOff = t.off;
  }
  return { text: parts.join(''), starts, toks: out };
}

export function preprocess(inp: PreprocessInput): PreprocessOutput {
  const masked = maskTensorLines(inp.text, inp.units);
  const pp = new Preprocessor(inp);
  for (const [k, v] of Object.entries(inp.defines)) pp.define(k, v);
  for (const l of inp.defineLines ?? []) pp.defineLine(l);
  const main = makeSrc(inp.file, masked.text);
  const unitMacros = new Map<number, Map<string, Macro>>();
  const unitLocs = new Map<number, SourceLoc>();
  pp.placeholders.set(main, masked.placeholders);
  pp.onRawToken = (t) => {
    if (t.k === 'id' && t.v === PLACEHOLDER) {
      const u = pp.placeholders.get(t.src)?.get(t.off);
      if (u !== undefined) {
        unitMacros.set(u, new Map(pp.macros));
        unitLocs.set(u, tokLoc(t));
      }
    }
  };
  pp.pushFile(main);
  const kernels: string[] = [];
  const kernelIds = new Map<string, number>();
  const it: Iterable<Token> = {
    *[Symbol.iterator]() {
      for (;;) {
        const t = pp.next();
        if (!t) return;
        yield t;
      }
    },
  };
  const sink = emitTokens(it, kernels, kernelIds);
  return { text: sink.text, starts: sink.starts, toks: sink.toks, unitMacros, kernels, unitLocs, macros: pp.macros, tensorIncludes: pp.tensorIncludes };
}

/** Location of output offset `off` (the token starting at or before it). */
export function outLoc(starts: number[], toks: Token[], off: number): SourceLoc | undefined {
  if (toks.length === 0) return undefined;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= off) lo = mid;
    else hi = mid - 1;
  }
  return tokLoc(toks[lo]);
}
