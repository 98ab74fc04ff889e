/**
 * A light scan of the C host code around `>` lines: macros, includes, functions, simple integer
 * variables with constant initialisers, `$cls::kernel` address tokens. It is deliberately not a full
 * C parser: it only has to be fast and tolerant, and to give the checker the values it can know.
 */
import type { Span } from './ast';

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

export interface CFunction {
  name: string;
  nameSpan: Span;
  /** From the return type to the closing brace. */
  span: Span;
  bodySpan: Span;
}

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
}

const TYPE_WORDS = new Set([
  'int', 'unsigned', 'signed', 'short', 'long', 'char', 'bool', 'const', 'static', 'volatile', 'register',
  'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t', 'size_t', 'float', 'double', 'void',
]);
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else', 'case', 'goto', 'break', 'continue', 'default', 'typedef', 'struct', 'union', 'enum']);

const TWO_OPS = new Set(['++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '==', '!=', '<=', '>=', '->', '&&', '||', '<<', '>>']);
const TWO_CHAR = new Set([...TWO_OPS].map((o) => o.charCodeAt(0)));
const isIdStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isIdPart = (c: number) => isIdStart(c) || (c >= 48 && c <= 57);

/** Tokens as parallel arrays (one object per token made the scan allocation-bound). */
class Toks {
  readonly t: string[] = [];
  readonly s: number[] = [];
  readonly e: number[] = [];
  readonly id: boolean[] = [];
  get length(): number {
    return this.t.length;
  }
  push(t: string, s: number, e: number, id: boolean): void {
    this.t.push(t);
    this.s.push(s);
    this.e.push(e);
    this.id.push(id);
  }
}

export function scanC(text: string, tensorLines: Set<number>, file = ''): CContext {
  const ctx: CContext = { macros: [], includes: [], functions: [], vars: [], mutated: new Map(), kernelRefs: [], calls: [] };
  const toks = new Toks();
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
      for (let k = i; k < stop; k++) if (text.charCodeAt(k) === 10) line++;
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < n && text[k] !== c && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
      toks.push(c === '"' ? '"str"' : "'c'", i, k + 1, false);
      i = k + 1;
      continue;
    }
    if (c === '$') {
      let k = i + 1;
      while (k < n && /[A-Za-z0-9_.:$]/.test(text[k])) k++;
      ctx.kernelRefs.push({ name: text.slice(i + 1, k), span: { start: i, end: k } });
      toks.push('0', i, k, false);
      i = k;
      continue;
    }
    const cc = text.charCodeAt(i);
    if (isIdStart(cc)) {
      let k = i + 1;
      while (k < n && isIdPart(text.charCodeAt(k))) k++;
      toks.push(text.slice(i, k), i, k, true);
      i = k;
      continue;
    }
    if (cc >= 48 && cc <= 57) {
      let k = i + 1;
      while (k < n && (isIdPart(text.charCodeAt(k)) || text.charCodeAt(k) === 46)) k++;
      toks.push(text.slice(i, k), i, k, false);
      i = k;
      continue;
    }
    const two = TWO_CHAR.has(cc) ? text.slice(i, i + 2) : '';
    if (two && TWO_OPS.has(two)) {
      toks.push(two, i, i + 2, false);
      i += 2;
      continue;
    }
    toks.push(c, i, i + 1, false);
    i++;
  }
  structure(toks, ctx);
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
    value = value.replace(/\/\*.*?\*\//g, ' ').replace(/\/\/.*$/, '').trim();
    ctx.macros.push({
      name: def[1],
      value,
      params: def[2] ? def[3].split(',').map((s) => s.trim()).filter(Boolean) : undefined,
      nameSpan: { start: nameStart, end: nameStart + def[1].length },
      span: { start, end },
      file,
    });
  }
}

const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '++', '--']);

function structure(toks: Toks, ctx: CContext): void {
  // matching ')' of every '(' in one pass (unclosed ones match nothing)
  const close = new Int32Array(toks.length).fill(-1);
  const open: number[] = [];
  for (let q = 0; q < toks.length; q++) {
    if (toks.t[q] === '(') open.push(q);
    else if (toks.t[q] === ')' && open.length) close[open.pop()!] = q;
  }
  let depth = 0;
  let fn = -1;
  let fnDepth = 0;
  const mutated = (name: string) => {
    let set = ctx.mutated.get(fn);
    if (!set) ctx.mutated.set(fn, (set = new Set()));
    set.add(name);
  };
  for (let k = 0; k < toks.length; k++) {
    const tt = toks.t[k];
    if (tt === '{') {
      depth++;
      continue;
    }
    if (tt === '}') {
      depth--;
      if (fn >= 0 && depth === fnDepth) {
        ctx.functions[fn].span.end = toks.e[k];
        ctx.functions[fn].bodySpan.end = toks.e[k];
        fn = -1;
      }
      continue;
    }
    if (!toks.id[k]) continue;
    const next = toks.t[k + 1] as string | undefined;
    // function definition at top level: type words, name '(' ... ')' '{'
    if (fn < 0 && depth === 0 && next === '(' && !KEYWORDS.has(tt)) {
      const j = close[k + 1];
      if (j > 0 && toks.t[j + 1] === '{') {
        let b = k;
        while (b > 0 && (toks.id[b - 1] || toks.t[b - 1] === '*') && !KEYWORDS.has(toks.t[b - 1])) b--;
        ctx.functions.push({ name: tt, nameSpan: { start: toks.s[k], end: toks.e[k] }, span: { start: toks.s[b], end: toks.e[j + 1] }, bodySpan: { start: toks.s[j + 1], end: toks.e[j + 1] } });
        fn = ctx.functions.length - 1;
        fnDepth = depth;
        // parameters are variables of unknown value
        for (let q = k + 2; q < j; q++) {
          if (toks.id[q] && !TYPE_WORDS.has(toks.t[q]) && (toks.t[q + 1] === ',' || toks.t[q + 1] === ')' || toks.t[q + 1] === '[')) {
            ctx.vars.push({ name: toks.t[q], nameSpan: { start: toks.s[q], end: toks.e[q] }, fn, isArray: toks.t[q + 1] === '[', type: 'param' });
            mutated(toks.t[q]);
          }
        }
        k = j + 1;
        depth++;
        continue;
      }
    }
    if (next === '(' && !KEYWORDS.has(tt) && !TYPE_WORDS.has(tt)) {
      ctx.calls.push({ name: tt, span: { start: toks.s[k], end: toks.e[k] }, fn });
      continue;
    }
    const prev = k > 0 ? toks.t[k - 1] : undefined;
    // declaration: type words then name
    if (TYPE_WORDS.has(tt)) continue;
    const declared = prev !== undefined && (TYPE_WORDS.has(prev) || (prev === '*' && k >= 2 && TYPE_WORDS.has(toks.t[k - 2])) || (prev === ',' && inDecl(toks, k)));
    if (declared && prev !== '.' && prev !== '->') {
      const type = declType(toks, k);
      const isArray = next === '[';
      let init: string | undefined;
      if (next === '=') {
        let d = 0;
        let j = k + 2;
        const from = j;
        for (; j < toks.length; j++) {
          const x = toks.t[j];
          if (x === '(' || x === '[' || x === '{') d++;
          else if (x === ')' || x === ']' || x === '}') d--;
          if (d < 0 || (d === 0 && (x === ';' || x === ','))) break;
        }
        init = toks.t.slice(from, j).join(' ');
      }
      ctx.vars.push({ name: tt, init, nameSpan: { start: toks.s[k], end: toks.e[k] }, fn, isArray, type });
      continue;
    }
    if (next !== undefined && ASSIGN_OPS.has(next) && prev !== '.' && prev !== '->') mutated(tt);
    else if (prev === '++' || prev === '--' || prev === '&') mutated(tt);
  }
}

function inDecl(toks: Toks, k: number): boolean {
  // walk back over `name = expr ,` pieces to a type word at statement start
  let d = 0;
  for (let j = k - 1; j >= 0; j--) {
    const x = toks.t[j];
    if (x === ')' || x === ']') d++;
    else if (x === '(' || x === '[') d--;
    if (d < 0) return false;
    if (d === 0 && (x === ';' || x === '{' || x === '}')) return false;
    if (d === 0 && TYPE_WORDS.has(x) && (j === 0 || [';', '{', '}', '(', ','].includes(toks.t[j - 1]) || TYPE_WORDS.has(toks.t[j - 1]))) return true;
  }
  return false;
}

function declType(toks: Toks, k: number): string {
  const words: string[] = [];
  for (let j = k - 1; j >= 0 && (TYPE_WORDS.has(toks.t[j]) || toks.t[j] === '*'); j--) words.unshift(toks.t[j]);
  return words.join(' ') || 'int';
}
