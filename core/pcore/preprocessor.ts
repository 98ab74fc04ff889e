/**
 * A small C preprocessor for PCORE programs (the real tool chain runs `gcc -E` first).
 *
 * Handles `#define` (object-like and function-like, `#` and `##`), `#undef`, `#include` (recorded;
 * optionally read through a resolver to collect its macros), `#pragma` (passed to the parser as
 * `pragma` tokens), `#if/#ifdef/#ifndef/#elif/#else/#endif` (with `defined`, evaluated on known
 * macros; unknown names are 0 as in C), `#error`, `#warning`, `#line`. Macro invocations are expanded;
 * tokens produced by an expansion carry the range of the invocation and the macro name.
 */
import type { Range } from '../common/diagnostic';
import { ConditionStack, type ConditionProblem } from '../cpp/conditions';
import { collectArguments, fitArguments, parseMacroHead, replaceDefined } from '../cpp/macros';
import type { TokenView } from '../cpp/tokens';
import { LineIndex } from '../common/lineIndex';
import { ZTA_BUILTIN_DEFINES } from './constants';
import { DiagnosticSink } from './diagnostics';
import { evaluateConstant } from './evaluate';
import { cloneToken, lex, lexFragment, makeToken, type Token } from './lexer';
import { parseExpressionTokens } from './parser';

export interface MacroDefinition {
  name: string;
  /** Parameter names of a function-like macro. */
  params?: string[];
  variadic?: boolean;
  body: Token[];
  /** Replacement text (tokens joined with single spaces). */
  value: string;
  /** Offsets of the `#define` line and of the name, in `file` (or the analysed file). */
  start: number;
  end: number;
  nameStart: number;
  nameEnd: number;
  /** undefined: the analysed file; otherwise the header path, `<options>` or `<zta.h>`. */
  file?: string;
  /** Ranges, filled for definitions that come from a header (positions in that header). */
  range?: Range;
  nameRange?: Range;
}

export interface IncludeRecord {
  path: string;
  system: boolean;
  start: number;
  end: number;
  /** The resolver returned the header's text. */
  resolved: boolean;
}

export interface PreprocessOptions {
  file: string;
  defines?: ReadonlyMap<string, string>;
  /** Returns the text of an included file, or undefined when it cannot be read. */
  resolveInclude?: (path: string, fromFile: string, system: boolean) => string | undefined;
}

export interface PreprocessResult {
  tokens: Token[];
  /** Macros defined at the end of the file (from every source). */
  macros: Map<string, MacroDefinition>;
  /** `#define`s of the analysed file, in order. */
  defines: MacroDefinition[];
  includes: IncludeRecord[];
  /** Regions skipped by conditional compilation. */
  inactiveRanges: { start: number; end: number }[];
}

interface Frame {
  toks: Token[];
  i: number;
}

/** Maximum number of tokens produced by macro expansion (protects against exponential macros). */
const EXPANSION_LIMIT = 100_000;
const MAX_INCLUDE_DEPTH = 16;
const MAX_ARG_DEPTH = 32;

/** How core/cpp reads these tokens. */
const VIEW: TokenView<Token> = { text: (t) => t.text, isIdent: (t) => t.kind === 'ident', spaceBefore: (t) => t.space === true };
const tokText = (t: Token): string => t.text;

function joinTokens(toks: readonly Token[]): string {
  let s = '';
  for (let k = 0; k < toks.length; k++) {
    if (k > 0 && toks[k].space) s += ' ';
    s += toks[k].text;
  }
  return s;
}

function addHide(h: readonly string[] | undefined, name: string): readonly string[] {
  if (!h) return [name];
  return h.includes(name) ? h : [...h, name];
}

function baseName(p: string): string {
  const k = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return k >= 0 ? p.slice(k + 1) : p;
}

class Preprocessor {
  readonly macros = new Map<string, MacroDefinition>();
  readonly defines: MacroDefinition[] = [];
  readonly includes: IncludeRecord[] = [];
  readonly inactive: { start: number; end: number }[] = [];
  private expanded = 0;
  private limitReported = false;
  private includeDepth = 0;
  private readonly visiting = new Set<string>();
  private readonly scratch = new DiagnosticSink();

  constructor(
    readonly opts: PreprocessOptions,
    readonly mainSink: DiagnosticSink,
  ) {
    if (opts.defines) {
      for (const [key, value] of opts.defines) this.defineFromString(key, value, '<options>');
    }
  }

  private defineFromString(key: string, value: string, file: string): void {
    const m = /^\s*([A-Za-z_]\w*)\s*(?:\(([^)]*)\))?\s*$/.exec(key);
    if (!m) return;
    const def: MacroDefinition = {
      name: m[1],
      body: lexFragment(value),
      value: value.trim(),
      start: 0,
      end: 0,
      nameStart: 0,
      nameEnd: 0,
      file,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      nameRange: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    };
    if (m[2] !== undefined) {
      const ps = m[2]
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
      if (ps.length && ps[ps.length - 1] === '...') {
        ps[ps.length - 1] = '__VA_ARGS__';
        def.variadic = true;
      }
      def.params = ps;
    }
    this.macros.set(def.name, def);
  }

  /**
   * Processes one file. `file` undefined means the analysed file (diagnostics, output tokens and records);
   * otherwise a header whose macros are collected.
   */
  run(text: string, tokens: readonly Token[], file: string | undefined): Token[] {
    const main = file === undefined;
    const sink = main ? this.mainSink : null;
    const out: Token[] = [];
    // each file has its own stack: a group left open in a header is reported there (when it is the analysed file)
    const conds = new ConditionStack<Token>();
    let segment: Token[] = [];
    let headerIndex: LineIndex | undefined;
    const isActive = (): boolean => conds.active;
    const flush = (): void => {
      if (!segment.length) return;
      if (main) {
        const res = this.expand(segment, sink, 0);
        for (const t of res) out.push(t);
      }
      segment = [];
    };
    let inactiveStart = -1;
    const misplaced = (tok: Token, what: string, p: ConditionProblem): void =>
      sink?.error(tok.start, tok.end, 'pcore.preprocessor', p === 'without-if' ? `\`${what}\` without \`#if\`` : `\`${what}\` after \`#else\``);
    for (const tok of tokens) {
      if (tok.kind !== 'directive' || !tok.directive) {
        if (isActive()) segment.push(tok);
        continue;
      }
      flush();
      const d = tok.directive;
      const wasActive = isActive();
      switch (d.name) {
        case 'if':
        case 'ifdef':
        case 'ifndef':
          conds.open(tok, () => this.evalCondition(d.name, tok, sink));
          break;
        case 'elif':
          conds.elif(
            () => this.evalCondition('if', tok, sink),
            (p) => misplaced(tok, '#elif', p),
          );
          break;
        case 'else':
          conds.else((p) => misplaced(tok, '#else', p));
          break;
        case 'endif':
          if (!conds.close()) sink?.error(tok.start, tok.end, 'pcore.preprocessor', '`#endif` without `#if`');
          break;
        default: {
          if (!wasActive) break;
          switch (d.name) {
            case 'define': {
              const def = this.define(tok, sink);
              if (def) {
                if (main) this.defines.push(def);
                else {
                  def.file = file;
                  headerIndex ??= new LineIndex(text);
                  def.range = headerIndex.range(def.start, def.end);
                  def.nameRange = headerIndex.range(def.nameStart, def.nameEnd);
                }
              }
              break;
            }
            case 'undef': {
              const n = d.tokens[0];
              if (!n || n.kind !== 'ident') sink?.error(tok.start, tok.end, 'pcore.preprocessor', '`#undef` requires a macro name');
              else this.macros.delete(n.text);
              break;
            }
            case 'include':
              this.include(text, tok, file ?? this.opts.file, main, sink);
              break;
            case 'pragma':
              if (main) {
                const body = text
                  .slice(d.restStart, d.lineEnd)
                  .replace(/\\\r?\n/g, ' ')
                  .replace(/\/\*.*?\*\//g, ' ')
                  .replace(/\/\/.*$/, '')
                  .trim();
                const pt = makeToken('pragma', body, tok.start, tok.end);
                pt.bol = true;
                out.push(pt);
              }
              break;
            case 'error':
              sink?.error(tok.start, tok.end, 'pcore.preprocessor', `#error ${joinTokens(d.tokens)}`.trim());
              break;
            case 'warning':
              sink?.warning(tok.start, tok.end, 'pcore.preprocessor', `#warning ${joinTokens(d.tokens)}`.trim());
              break;
            case 'line':
            case '':
            case 'ident':
            case 'sccs':
            case 'assert':
            case 'unassert':
              break;
            default:
              sink?.warning(d.nameStart, Math.max(d.nameEnd, d.nameStart + 1), 'pcore.preprocessor', `unknown preprocessor directive \`#${d.name}\``);
          }
        }
      }
      const nowActive = isActive();
      if (main) {
        if (wasActive && !nowActive) {
          // the skipped region starts on the line after the directive
          let q = d.lineEnd;
          if (text.charCodeAt(q) === 13) q++;
          if (text.charCodeAt(q) === 10) q++;
          inactiveStart = q;
        } else if (!wasActive && nowActive && inactiveStart >= 0) {
          if (tok.start > inactiveStart) this.inactive.push({ start: inactiveStart, end: tok.start });
          inactiveStart = -1;
        }
      }
    }
    flush();
    if (main) {
      if (inactiveStart >= 0 && text.length > inactiveStart) this.inactive.push({ start: inactiveStart, end: text.length });
      for (const c of conds.unclosed()) sink?.error(c.start, c.end, 'pcore.preprocessor', 'unterminated conditional directive (missing `#endif`)');
    }
    return out;
  }

  private evalCondition(kind: string, tok: Token, sink: DiagnosticSink | null): boolean {
    const d = tok.directive!;
    if (kind === 'ifdef' || kind === 'ifndef') {
      const n = d.tokens[0];
      if (!n || n.kind !== 'ident') {
        sink?.error(tok.start, tok.end, 'pcore.preprocessor', `\`#${kind}\` requires a macro name`);
        return false;
      }
      const has = this.macros.has(n.text);
      return kind === 'ifdef' ? has : !has;
    }
    const replaced = replaceDefined(
      d.tokens,
      VIEW,
      (name) => this.macros.has(name),
      (t, last, v) => makeToken('number', String(v), t.start, last.end, v),
      undefined,
    );
    const expanded = this.expand(replaced, sink, 0).map((t): Token => (t.kind === 'ident' ? makeToken('number', '0', t.start, t.end, 0) : t));
    if (!expanded.length) {
      sink?.error(tok.start, tok.end, 'pcore.preprocessor', '`#if` with no expression');
      return false;
    }
    const expr = parseExpressionTokens(expanded, this.scratch);
    this.scratch.items.length = 0;
    const v = expr ? evaluateConstant(expr) : undefined;
    if (v === undefined) {
      sink?.error(tok.start, tok.end, 'pcore.preprocessor', `invalid \`#${kind}\` expression`);
      return false;
    }
    return v !== 0;
  }

  private define(tok: Token, sink: DiagnosticSink | null): MacroDefinition | undefined {
    const d = tok.directive!;
    const toks = d.tokens;
    const n = toks[0];
    if (!n || n.kind !== 'ident' || n.text.includes('::')) {
      sink?.error(tok.start, tok.end, 'pcore.preprocessor', '`#define` requires a macro name');
      return undefined;
    }
    if (n.text === 'defined') {
      sink?.error(n.start, n.end, 'pcore.preprocessor', '`defined` cannot be used as a macro name');
      return undefined;
    }
    const head = parseMacroHead(toks, 1, VIEW, 'strict');
    if ('error' in head) {
      sink?.error(tok.start, tok.end, 'pcore.preprocessor', `invalid parameter list in the definition of macro \`${n.text}\``);
      return undefined;
    }
    const { params, variadic } = head;
    const k = head.body;
    const body = toks.slice(k);
    if (body.length) {
      body[0] = cloneToken(body[0], body[0].start, body[0].end);
      body[0].space = false;
    }
    const def: MacroDefinition = {
      name: n.text,
      body,
      value: joinTokens(body),
      start: tok.start,
      end: tok.end,
      nameStart: n.start,
      nameEnd: n.end,
    };
    if (params) def.params = params;
    if (variadic) def.variadic = true;
    const old = this.macros.get(n.text);
    if (old && old.file !== '<zta.h>' && (old.value !== def.value || (old.params ?? []).join(',') !== (params ?? []).join(','))) {
      sink?.warning(n.start, n.end, 'pcore.preprocessor', `macro \`${n.text}\` redefined`);
    }
    this.macros.set(n.text, def);
    return def;
  }

  private include(text: string, tok: Token, fromFile: string, main: boolean, sink: DiagnosticSink | null): void {
    const d = tok.directive!;
    let path: string | undefined;
    let system = false;
    const first = d.tokens[0];
    if (first?.kind === 'string' && first.text.startsWith('"')) {
      path = first.text.slice(1, first.text.endsWith('"') && first.text.length > 1 ? -1 : undefined);
    } else if (first?.text === '<') {
      const close = d.tokens.find((t) => t.text === '>' || t.text === '>>' || t.text === '>=' || t.text === '>>=');
      if (close) {
        path = text.slice(first.end, close.start).trim();
        system = true;
      }
    }
    if (path === undefined || path === '') {
      sink?.error(tok.start, tok.end, 'pcore.preprocessor', '`#include` expects "file" or <file>');
      return;
    }
    let resolved = false;
    if (this.opts.resolveInclude && this.includeDepth < MAX_INCLUDE_DEPTH && !this.visiting.has(path)) {
      let content: string | undefined;
      try {
        content = this.opts.resolveInclude(path, fromFile, system);
      } catch {
        content = undefined;
      }
      if (typeof content === 'string') {
        resolved = true;
        this.visiting.add(path);
        this.includeDepth++;
        try {
          this.run(content, lex(content, null), path);
        } finally {
          this.includeDepth--;
          this.visiting.delete(path);
        }
      }
    }
    if (!resolved && baseName(path) === 'zta.h') {
      for (const [name, value] of ZTA_BUILTIN_DEFINES) {
        if (!this.macros.has(name)) this.defineFromString(name, value, '<zta.h>');
      }
    }
    if (main) this.includes.push({ path, system, start: tok.start, end: tok.end, resolved });
  }

  /**
   * Fully macro-expands a token list. Expansion is PCORE's own, not core/cpp's: it recovers from every
   * mistake with a diagnostic, marks each produced token with the outermost macro and the invocation's
   * range (hover, go to definition), bounds argument pre-expansion depth and the tokens produced, keeps
   * both tokens of an invalid `##` with a warning, and gives arguments only the macro's own name as hide
   * set; the host differs on each (see its `expand` section). Argument splitting and arity are shared
   * (core/cpp/macros.ts).
   */
  expand(input: readonly Token[], sink: DiagnosticSink | null, depth: number): Token[] {
    const macros = this.macros;
    if (macros.size === 0) return input.slice();
    const out: Token[] = [];
    // Pending replacement lists (innermost last); `base` is the position in `input`.
    const stack: Frame[] = [];
    let base = 0;
    const n = input.length;
    const nextTok = (): Token | undefined => {
      while (stack.length) {
        const f = stack[stack.length - 1];
        if (f.i < f.toks.length) return f.toks[f.i++];
        stack.pop();
      }
      return base < n ? input[base++] : undefined;
    };
    const peekTok = (): Token | undefined => {
      for (let k = stack.length - 1; k >= 0; k--) {
        const f = stack[k];
        if (f.i < f.toks.length) return f.toks[f.i];
      }
      return base < n ? input[base] : undefined;
    };
    for (;;) {
      let t: Token;
      if (stack.length) {
        const f = stack[stack.length - 1];
        if (f.i >= f.toks.length) {
          stack.pop();
          continue;
        }
        t = f.toks[f.i++];
      } else {
        if (base >= n) break;
        t = input[base++];
      }
      if (t.kind !== 'ident') {
        out.push(t);
        continue;
      }
      const m = macros.get(t.text);
      if (!m) {
        out.push(t);
        continue;
      }
      if ((t.hide && t.hide.includes(m.name)) || this.expanded > EXPANSION_LIMIT) {
        if (this.expanded > EXPANSION_LIMIT && !this.limitReported) {
          this.limitReported = true;
          sink?.error(t.start, t.end, 'pcore.preprocessor', 'macro expansion is too large; expansion stopped');
        }
        out.push(t);
        continue;
      }
      const origin = t.macro ?? m.name;
      if (!m.params) {
        const hide = addHide(t.hide, m.name);
        const repl: Token[] = [];
        for (let k = 0; k < m.body.length; k++) {
          const c = cloneToken(m.body[k], t.start, t.end);
          c.macro = origin;
          c.hide = hide;
          c.bol = k === 0 ? t.bol : false;
          if (k === 0) c.space = t.space;
          repl.push(c);
        }
        const pasted = this.paste(
          repl,
          repl.map(() => true),
          sink,
          t,
        );
        this.expanded += pasted.length + 1;
        stack.push({ toks: pasted, i: 0 });
        continue;
      }
      const p = peekTok();
      if (!p || p.kind !== 'punct' || p.text !== '(') {
        out.push(t);
        continue;
      }
      nextTok();
      const consumed: Token[] = [p];
      const nParams = m.params.length;
      const take = (): Token | undefined => {
        const a = nextTok();
        if (a) consumed.push(a);
        return a;
      };
      const call = collectArguments(take, tokText, nParams, m.variadic === true);
      if (!call) {
        sink?.error(t.start, t.end, 'pcore.preprocessor', `unterminated invocation of macro \`${m.name}\``);
        out.push(t);
        for (const c of consumed) out.push(c);
        continue;
      }
      const { args, close: endTok } = call;
      const fit = fitArguments(args, nParams, m.variadic === true);
      if (!fit.ok) {
        const given = fit.given;
        sink?.error(
          Math.min(t.start, endTok.start),
          Math.max(t.end, endTok.end),
          'pcore.preprocessor',
          `macro \`${m.name}\` expects ${nParams} argument${nParams === 1 ? '' : 's'}, but ${given} ${given === 1 ? 'was' : 'were'} given`,
        );
      }
      const start = Math.min(t.start, endTok.start);
      const end = Math.max(t.end, endTok.end);
      const hide = addHide(t.hide, m.name);
      const expandedArgs = new Map<number, Token[]>();
      const result: Token[] = [];
      const fromBody: boolean[] = [];
      let tooLarge = false;
      const body = m.body;
      for (let k = 0; k < body.length; k++) {
        const b = body[k];
        const pi = b.kind === 'ident' ? m.params.indexOf(b.text) : -1;
        if (b.kind === 'punct' && b.text === '#' && k + 1 < body.length && body[k + 1].kind === 'ident' && m.params.includes(body[k + 1].text)) {
          const arg = args[m.params.indexOf(body[k + 1].text)] ?? [];
          const s = '"' + joinTokens(arg).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
          const st = makeToken('string', s, start, end);
          st.macro = origin;
          st.hide = hide;
          st.space = b.space;
          result.push(st);
          fromBody.push(false);
          k++;
          continue;
        }
        if (pi >= 0) {
          const pasteAdjacent = (body[k - 1]?.text === '##' && body[k - 1].kind === 'punct') || (body[k + 1]?.text === '##' && body[k + 1].kind === 'punct');
          let arg: Token[];
          if (pasteAdjacent || depth >= MAX_ARG_DEPTH) arg = args[pi];
          else {
            let ea = expandedArgs.get(pi);
            if (!ea) {
              ea = this.expand(args[pi], sink, depth + 1);
              expandedArgs.set(pi, ea);
            }
            arg = ea;
          }
          if (this.expanded + result.length + arg.length > EXPANSION_LIMIT) {
            tooLarge = true;
            break;
          }
          for (let j = 0; j < arg.length; j++) {
            const a = arg[j];
            const c = cloneToken(a, a.start, a.end);
            c.macro = origin;
            c.hide = addHide(a.hide, m.name);
            c.bol = false;
            if (j === 0) c.space = b.space;
            result.push(c);
            fromBody.push(false);
          }
          continue;
        }
        const c = cloneToken(b, start, end);
        c.macro = origin;
        c.hide = hide;
        c.bol = false;
        result.push(c);
        fromBody.push(true);
      }
      if (tooLarge || this.expanded + result.length + 1 > EXPANSION_LIMIT) {
        // a replacement that would pass the limit (arguments repeated at every level of nesting grow
        // exponentially) is not built: the invocation stays as written and expansion stops
        this.expanded = EXPANSION_LIMIT + 1;
        if (!this.limitReported) {
          this.limitReported = true;
          sink?.error(start, end, 'pcore.preprocessor', `macro expansion is too large (more than ${EXPANSION_LIMIT} tokens); expansion stopped`);
        }
        out.push(t);
        for (const c of consumed) out.push(c);
        continue;
      }
      if (result.length) {
        result[0].bol = t.bol;
        result[0].space = t.space;
      }
      const pasted = this.paste(result, fromBody, sink, t);
      this.expanded += pasted.length + 1;
      stack.push({ toks: pasted, i: 0 });
    }
    return out;
  }

  /** Applies `##` token pasting (only `##` tokens that come from a macro body are operators). */
  private paste(toks: Token[], fromBody: boolean[], sink: DiagnosticSink | null, at: Token): Token[] {
    let has = false;
    for (let k = 0; k < toks.length; k++) {
      if (fromBody[k] && toks[k].kind === 'punct' && toks[k].text === '##') {
        has = true;
        break;
      }
    }
    if (!has) return toks;
    const out: Token[] = [];
    for (let k = 0; k < toks.length; k++) {
      const t = toks[k];
      if (!(fromBody[k] && t.kind === 'punct' && t.text === '##')) {
        out.push(t);
        continue;
      }
      const left = out.pop();
      const right = toks[k + 1];
      k++;
      if (!left) {
        if (right) out.push(right);
        continue;
      }
      if (!right) {
        out.push(left);
        continue;
      }
      const combined = lexFragment(left.text + right.text);
      if (combined.length === 1) {
        const c = cloneToken(combined[0], left.start, Math.max(left.end, right.end));
        c.macro = left.macro;
        c.hide = left.hide;
        c.space = left.space;
        c.bol = left.bol;
        out.push(c);
      } else {
        sink?.warning(at.start, at.end, 'pcore.preprocessor', `pasting \`${left.text}\` and \`${right.text}\` does not give a valid token`);
        out.push(left, right);
      }
    }
    return out;
  }
}

/** Runs the preprocessor over the tokens of the analysed file. Never throws. */
export function preprocess(text: string, tokens: readonly Token[], opts: PreprocessOptions, sink: DiagnosticSink): PreprocessResult {
  const pp = new Preprocessor(opts, sink);
  const out = pp.run(text, tokens, undefined);
  return { tokens: out, macros: pp.macros, defines: pp.defines, includes: pp.includes, inactiveRanges: pp.inactive };
}
