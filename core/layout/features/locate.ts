/** What is under an offset of a `.tlayout` document: the statement, the token and the call/argument around it. */
import type { Arg, CallValue, Span, Stmt, Value } from '../ast';
import type { LayoutAnalysis } from '../analyze';
import { lex, Lexer, type Token } from '../parse';

export interface Located {
  stmt?: Stmt;
  token?: Token;
  /** Innermost call whose span holds the offset, and the argument the offset is in. */
  call?: CallValue;
  arg?: Arg;
  /** Innermost value holding the offset. */
  value?: Value;
}

const inside = (s: Span, o: number) => o >= s.start && o <= s.end;

/** Lexes once per analysis. */
const tokenCache = new WeakMap<LayoutAnalysis, Token[]>();
export function tokensOf(a: LayoutAnalysis): Token[] {
  let t = tokenCache.get(a);
  if (!t) {
    t = lex(a.text).tokens;
    tokenCache.set(a, t);
  }
  return t;
}

/**
 * The tokens of the line holding `offset`, with its line break (tokens never span lines): a hover
 * in a huge document lexes one line, not the document.
 */
function lineTokens(text: string, offset: number): Token[] {
  const from = Math.max(text.lastIndexOf('\n', offset - 1), text.lastIndexOf('\r', offset - 1)) + 1;
  let to = from;
  while (to < text.length && text[to] !== '\n' && text[to] !== '\r') to++;
  to += text[to] === '\r' && text[to + 1] === '\n' ? 2 : to < text.length ? 1 : 0;
  const lexer = new Lexer(text, from, to);
  const toks: Token[] = [];
  for (let t = lexer.next(); ; t = lexer.next()) {
    toks.push(t);
    if (t.kind === 'eof') return toks;
  }
}

export function tokenAt(a: LayoutAnalysis, offset: number): Token | undefined {
  const toks = lineTokens(a.text, offset);
  let lo = 0;
  let hi = toks.length - 1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    const t = toks[m];
    if (t.end < offset) lo = m + 1;
    else if (t.start > offset) hi = m - 1;
    else {
      // prefer a word over punctuation when the offset sits between two tokens
      const next = toks[m + 1];
      if (t.end === offset && next && next.start === offset && next.kind !== 'punct') return next;
      if (t.kind === 'newline' || t.kind === 'eof') return undefined;
      return t;
    }
  }
  return undefined;
}

function walk(v: Value, o: number, out: Located): void {
  if (!inside(v.span, o)) return;
  out.value = v;
  if (v.kind === 'call') {
    if (inside(v.argsSpan, o) || inside(v.callee.span, o)) {
      out.call = v;
      out.arg = undefined;
    }
    for (const a of v.args)
      if (inside(a.span, o)) {
        out.arg = a;
        walk(a.value, o, out);
      }
  } else if (v.kind === 'list') for (const i of v.items) walk(i, o, out);
  else if (v.kind === 'range') {
    walk(v.from, o, out);
    walk(v.to, o, out);
  }
}

export function locate(a: LayoutAnalysis, offset: number): Located {
  const out: Located = { token: tokenAt(a, offset) };
  out.stmt = a.ast.stmts.find((s) => inside(s.span, offset));
  const s = out.stmt;
  if (!s) return out;
  if (s.kind === 'tensor') {
    for (const v of s.layout) walk(v, offset, out);
    if (s.at?.value) walk(s.at.value, offset, out);
  } else if (s.kind === 'target' && s.value) walk(s.value, offset, out);
  return out;
}
