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

interface Tok {
  t: string;
  s: number;
  e: number;
  id: boolean;
}

export function scanC(text: string, tensorLines: Set<number>, file = ''): CContext {
  const ctx: CContext = { macros: [], includes: [], functions: [], vars: [], mutated: new Map(), kernelRefs: [], calls: [] };
  const toks: Tok[] = [];
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
      toks.push({ t: c === '"' ? '"str"' : "'c'", s: i, e: k + 1, id: false });
      i = k + 1;
      continue;
    }
    if (c === '$') {
      let k = i + 1;
      while (k < n && /[A-Za-z0-9_.:$]/.test(text[k])) k++;
      ctx.kernelRefs.push({ name: text.slice(i + 1, k), span: { start: i, end: k } });
      toks.push({ t: '0', s: i, e: k, id: false });
      i = k;
      continue;
    }
    const cc = text.charCodeAt(i);
    if (isIdStart(cc)) {
      let k = i + 1;
      while (k < n && isIdPart(text.charCodeAt(k))) k++;
      toks.push({ t: text.slice(i, k), s: i, e: k, id: true });
      i = k;
      continue;
    }
    if (cc >= 48 && cc <= 57) {
      let k = i + 1;
      while (k < n && (isIdPart(text.charCodeAt(k)) || text.charCodeAt(k) === 46)) k++;
      toks.push({ t: text.slice(i, k), s: i, e: k, id: false });
      i = k;
      continue;
    }
    const two = TWO_CHAR.has(cc) ? text.slice(i, i + 2) : '';
    if (two && TWO_OPS.has(two)) {
      toks.push({ t: two, s: i, e: i + 2, id: false });
      i += 2;
      continue;
    }
    toks.push({ t: c, s: i, e: i + 1, id: false });
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

function structure(toks: Tok[], ctx: CContext): void {
  // matching ')' of every '(' in one pass (unclosed ones match nothing)
  const close = new Int32Array(toks.length).fill(-1);
  const open: number[] = [];
  for (let q = 0; q < toks.length; q++) {
    if (toks[q].t === '(') open.push(q);
    else if (toks[q].t === ')' && open.length) close[open.pop()!] = q;
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
    const t = toks[k];
    if (t.t === '{') {
      depth++;
      continue;
    }
    if (t.t === '}') {
      depth--;
      if (fn >= 0 && depth === fnDepth) {
        ctx.functions[fn].span.end = t.e;
        ctx.functions[fn].bodySpan.end = t.e;
        fn = -1;
      }
      continue;
    }
    if (!t.id) continue;
    const next = toks[k + 1];
    // function definition at top level: type words, name '(' ... ')' '{'
    if (fn < 0 && depth === 0 && next?.t === '(' && !KEYWORDS.has(t.t)) {
      const j = close[k + 1];
      if (j > 0 && toks[j + 1]?.t === '{') {
        let b = k;
        while (b > 0 && (toks[b - 1].id || toks[b - 1].t === '*') && !KEYWORDS.has(toks[b - 1].t)) b--;
        ctx.functions.push({ name: t.t, nameSpan: { start: t.s, end: t.e }, span: { start: toks[b].s, end: toks[j + 1].e }, bodySpan: { start: toks[j + 1].s, end: toks[j + 1].e } });
        fn = ctx.functions.length - 1;
        fnDepth = depth;
        // parameters are variables of unknown value
        for (let q = k + 2; q < j; q++) {
          if (toks[q].id && !TYPE_WORDS.has(toks[q].t) && (toks[q + 1]?.t === ',' || toks[q + 1]?.t === ')' || toks[q + 1]?.t === '[')) {
            ctx.vars.push({ name: toks[q].t, nameSpan: { start: toks[q].s, end: toks[q].e }, fn, isArray: toks[q + 1]?.t === '[', type: 'param' });
            mutated(toks[q].t);
          }
        }
        k = j + 1;
        depth++;
        continue;
      }
    }
    if (next?.t === '(' && !KEYWORDS.has(t.t) && !TYPE_WORDS.has(t.t)) {
      ctx.calls.push({ name: t.t, span: { start: t.s, end: t.e }, fn });
      continue;
    }
    const prev = toks[k - 1];
    // declaration: type words then name
    if (TYPE_WORDS.has(t.t)) continue;
    const declared = prev && (TYPE_WORDS.has(prev.t) || prev.t === '*' && toks[k - 2] && TYPE_WORDS.has(toks[k - 2].t) || (prev.t === ',' && inDecl(toks, k)));
    if (declared && prev.t !== '.' && prev.t !== '->') {
      const type = declType(toks, k);
      const isArray = next?.t === '[';
      let init: string | undefined;
      if (next?.t === '=') {
        let d = 0;
        let j = k + 2;
        const from = j;
        for (; j < toks.length; j++) {
          const x = toks[j].t;
          if (x === '(' || x === '[' || x === '{') d++;
          else if (x === ')' || x === ']' || x === '}') d--;
          if (d < 0 || (d === 0 && (x === ';' || x === ','))) break;
        }
        init = toks.slice(from, j).map((x) => x.t).join(' ');
      }
      ctx.vars.push({ name: t.t, init, nameSpan: { start: t.s, end: t.e }, fn, isArray, type });
      continue;
    }
    if (next && ['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '++', '--'].includes(next.t) && prev?.t !== '.' && prev?.t !== '->') mutated(t.t);
    else if (prev && (prev.t === '++' || prev.t === '--' || prev.t === '&')) mutated(t.t);
  }
}

function inDecl(toks: Tok[], k: number): boolean {
  // walk back over `name = expr ,` pieces to a type word at statement start
  let d = 0;
  for (let j = k - 1; j >= 0; j--) {
    const x = toks[j].t;
    if (x === ')' || x === ']') d++;
    else if (x === '(' || x === '[') d--;
    if (d < 0) return false;
    if (d === 0 && (x === ';' || x === '{' || x === '}')) return false;
    if (d === 0 && TYPE_WORDS.has(x) && (j === 0 || [';', '{', '}', '(', ','].includes(toks[j - 1].t) || TYPE_WORDS.has(toks[j - 1].t))) return true;
  }
  return false;
}

function declType(toks: Tok[], k: number): string {
  const words: string[] = [];
  for (let j = k - 1; j >= 0 && (TYPE_WORDS.has(toks[j].t) || toks[j].t === '*'); j--) words.unshift(toks[j].t);
  return words.join(' ') || 'int';
}
