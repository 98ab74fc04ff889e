/**
 * Formatting: statements start at column 0, tokens get canonical spacing (`name: dtype[a, b] = f(k=v, …)`,
 * ranges stay tight `(0, 0)-(7, 0)`, `0x1000 + 770`), trailing whitespace goes, runs of blank lines
 * shrink to one, leading blank lines go and the file ends with one newline. Statements with syntax
 * errors and statements spanning several lines keep their spacing (only trailing whitespace is trimmed).
 */
import type { TextEdit } from '../../common/diagnostic';
import type { LayoutAnalysis } from '../analyze';
import type { Token } from '../parse';
import { tokensOf } from './locate';

const OPEN = '([{';
const CLOSE = ')]}';
const SPACED_BEFORE_LIST = ['at', 'address', 'core', 'bank', 'in'];

function wantSpace(q: Token, t: Token, depth: number): boolean {
  const qp = q.kind === 'punct' ? q.text : '';
  const p = t.kind === 'punct' ? t.text : '';
  if (OPEN.includes(qp) && qp !== '') return false;
  if ((CLOSE.includes(p) && p !== '') || p === ',' || p === '.' || p === ';') return false;
  if (qp === '.') return false;
  if (p === ':') return false;
  if (qp === ':') return true;
  if (p === '=' || qp === '=') return depth === 0;
  if (p === '-') return qp === ',';
  if (qp === '-') return false;
  if (p === '+' || p === '*' || qp === '+' || qp === '*') return true;
  if ((p === '(' || p === '[') && (q.kind === 'ident' || q.kind === 'number' || q.kind === 'dims' || (CLOSE.includes(qp) && qp !== '')))
    return q.kind === 'ident' && SPACED_BEFORE_LIST.includes(q.text);
  return true;
}

/** Commas of `(x,y)` tuples that are operands of a core range `(x0,y0)-(x1,y1)`: they stay tight. */
function rangeCommas(toks: Token[]): Set<number> {
  const tight = new Set<number>();
  const isP = (i: number, p: string) => toks[i]?.kind === 'punct' && toks[i].text === p;
  for (let i = 0; i < toks.length; i++) {
    if (!isP(i, '(')) continue;
    let d = 0;
    let j = i;
    const commas: number[] = [];
    for (; j < toks.length; j++) {
      if (isP(j, '(') || isP(j, '[') || isP(j, '{')) d++;
      else if (isP(j, ')') || isP(j, ']') || isP(j, '}')) {
        if (--d === 0) break;
      } else if (d === 1 && isP(j, ',')) commas.push(j);
    }
    if (isP(i - 1, '-') || isP(j + 1, '-')) for (const c of commas) tight.add(c);
  }
  return tight;
}

/** Canonical text of one single-line statement's tokens. */
export function printTokens(toks: Token[]): string {
  let out = '';
  let depth = 0;
  let prev: Token | undefined;
  const tight = rangeCommas(toks);
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (prev && !tight.has(i - 1) && wantSpace(prev, t, depth)) out += ' ';
    out += t.text;
    if (t.kind === 'punct' && OPEN.includes(t.text)) depth++;
    else if (t.kind === 'punct' && CLOSE.includes(t.text)) depth = Math.max(0, depth - 1);
    prev = t;
  }
  return out;
}

export function formatLayout(a: LayoutAnalysis): TextEdit[] {
  let edits: TextEdit[] = [];
  const text = a.text;
  const toks = tokensOf(a);
  const errStarts = a.ast.errors.map((e) => e.span).sort((x, y) => x.start - y.start);
  const errorIn = (s: number, e: number) => {
    // errors are few; the sorted list is scanned from the first one that can reach [s, e)
    for (const x of errStarts) {
      if (x.start >= e) break;
      if (x.end >= s) return true;
    }
    return false;
  };
  const stmts = [...a.ast.stmts].sort((x, y) => x.span.start - y.span.start);
  const inStmt = (off: number) => {
    let lo = 0;
    let hi = stmts.length - 1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      const sp = stmts[m].span;
      if (sp.end <= off) lo = m + 1;
      else if (sp.start >= off) hi = m - 1;
      else return true;
    }
    return false;
  };
  let ti = 0;
  for (const s of stmts) {
    const p = a.lines.position(s.span.start);
    const q = a.lines.position(s.span.end);
    const lineStart = a.lines.starts[p.line];
    if (/^[ \t]+$/.test(text.slice(lineStart, s.span.start))) edits.push({ range: a.lines.range(lineStart, s.span.start), newText: '' });
    while (ti < toks.length && toks[ti].start < s.span.start) ti++;
    const inner: Token[] = [];
    let problem = false;
    for (let j = ti; j < toks.length && toks[j].end <= s.span.end; j++) {
      const t = toks[j];
      if (t.problem) problem = true;
      if (t.kind !== 'newline' && t.kind !== 'eof') inner.push(t);
    }
    if (p.line !== q.line || problem || errorIn(s.span.start, s.span.end)) continue;
    const printed = printTokens(inner);
    if (printed !== text.slice(s.span.start, s.span.end)) edits.push({ range: a.lines.range(s.span.start, s.span.end), newText: printed });
  }
  const body = text.replace(/\s+$/, '');
  let prevBlank = true;
  for (let l = 0; l < a.lines.lineCount; l++) {
    const start = a.lines.starts[l];
    if (start >= body.length) break;
    const end = a.lines.lineEnd(l);
    const lineText = text.slice(start, end);
    const trimmed = lineText.replace(/[ \t]+$/, '');
    if (trimmed.length === 0) {
      if (prevBlank) edits.push({ range: a.lines.range(start, a.lines.starts[l + 1] ?? text.length), newText: '' });
      else if (lineText.length) edits.push({ range: a.lines.range(start, end), newText: '' });
      prevBlank = true;
      continue;
    }
    prevBlank = false;
    if (trimmed.length !== lineText.length) edits.push({ range: a.lines.range(start + trimmed.length, end), newText: '' });
    const indent = lineText.length - lineText.trimStart().length;
    if (indent && /^\s*(#|\/\/)/.test(lineText) && !inStmt(start)) edits.push({ range: a.lines.range(start, start + indent), newText: '' });
  }
  const nl = text.includes('\r\n') ? '\r\n' : '\n';
  const tail = text.slice(body.length);
  if (body.length === 0) return text.length ? [{ range: a.lines.range(0, text.length), newText: '' }] : [];
  if (tail !== nl) {
    edits = edits.filter((e) => a.lines.offset(e.range.end) <= body.length);
    edits.push({ range: a.lines.range(body.length, text.length), newText: nl });
  }
  return dedupe(edits, a);
}

/** Sorted by position; an edit overlapping an earlier one is dropped. */
function dedupe(edits: TextEdit[], a: LayoutAnalysis): TextEdit[] {
  const off = (p: { line: number; character: number }) => a.lines.offset(p);
  edits.sort((x, y) => off(x.range.start) - off(y.range.start) || off(x.range.end) - off(y.range.end));
  const out: TextEdit[] = [];
  for (const e of edits) {
    const last = out[out.length - 1];
    if (last && off(e.range.start) < off(last.range.end)) continue;
    out.push(e);
  }
  return out;
}

/** Applies non-overlapping edits to a text. */
export function applyEdits(text: string, edits: TextEdit[], lines: { offset(p: { line: number; character: number }): number }): string {
  const sorted = [...edits].sort((x, y) => lines.offset(y.range.start) - lines.offset(x.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, lines.offset(e.range.start)) + e.newText + out.slice(lines.offset(e.range.end));
  return out;
}
