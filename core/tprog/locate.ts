/** Finding the statement and syntax node under a document offset. */
import type { CText, Index, Prefix, Span, SpecItem, Term } from './ast';
import type { StmtInfo, TermInfo, TprogAnalysis, Unit } from './analyze';
import { docToBuf } from './lines';

export type NodeAt =
  | { kind: 'op'; span: Span }
  | { kind: 'keyword'; span: Span; word: string }
  | { kind: 'prefix'; span: Span; prefix: Prefix; term: TermInfo }
  | { kind: 'space'; span: Span; term: TermInfo }
  | { kind: 'member'; span: Span; term: TermInfo }
  | { kind: 'var'; span: Span; name: string; term?: TermInfo }
  | { kind: 'global'; span: Span; name: string; term: TermInfo }
  | { kind: 'kernel'; span: Span; name: string }
  | { kind: 'index'; span: Span; index: Index; term: TermInfo }
  | { kind: 'spec'; span: Span; item: SpecItem; term: TermInfo }
  | { kind: 'ident'; span: Span; name: string }
  | { kind: 'term'; span: Span; term: TermInfo }
  | { kind: 'stmt'; span: Span };

export interface Located {
  unit: Unit;
  info?: StmtInfo;
  /** Offset inside the statement buffer. */
  buf: number;
  node?: NodeAt;
}

const inside = (s: Span | undefined, o: number) => !!s && o >= s.start && o <= s.end;

export function unitAt(a: TprogAnalysis, offset: number): Unit | undefined {
  const line = a.lines.position(offset).line;
  const us = a.units;
  let lo = 0;
  let hi = us.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const u = us[mid];
    if (line < u.buf.firstLine) hi = mid - 1;
    else if (line > u.buf.lastLine) lo = mid + 1;
    else return u;
  }
  return undefined;
}

function identAt(text: string, span: Span, o: number): { name: string; span: Span } | undefined {
  if (o < span.start || o > span.end) return undefined;
  let s = o;
  let e = o;
  while (s > span.start && /[A-Za-z0-9_]/.test(text[s - 1])) s--;
  while (e < span.end && /[A-Za-z0-9_]/.test(text[e])) e++;
  if (s === e || /[0-9]/.test(text[s])) return undefined;
  return { name: text.slice(s, e), span: { start: s, end: e } };
}

function inCText(text: string, c: CText | undefined, o: number): NodeAt | undefined {
  if (!c || !inside(c.span, o)) return undefined;
  const id = identAt(text, c.span, o);
  return id ? { kind: 'ident', ...id } : undefined;
}

function inTerm(text: string, ti: TermInfo, o: number): NodeAt | undefined {
  const t: Term = ti.term;
  if (!inside(t.span, o)) return undefined;
  for (const p of t.prefixes) {
    if (!inside(p.span, o)) continue;
    const sub =
      inCText(text, p.arg, o) ??
      (p.forRange ? (inCText(text, p.forRange.begin, o) ?? inCText(text, p.forRange.end, o) ?? inCText(text, p.forRange.step, o)) : undefined);
    if (sub && p.kind !== 'DTYPE') return sub;
    return { kind: 'prefix', span: p.span, prefix: p, term: ti };
  }
  if (t.kind === 'var' && t.name && inside(t.name.span, o)) return { kind: 'var', span: t.name.span, name: t.name.text, term: ti };
  if (t.kind === 'global' && t.name && inside(t.name.span, o)) return { kind: 'global', span: t.name.span, name: t.name.text, term: ti };
  if (inside(t.spaceSpan, o)) return { kind: 'space', span: t.spaceSpan!, term: ti };
  if (t.member && inside(t.member.name.span, o)) return { kind: 'member', span: t.member.name.span, term: ti };
  const specs = [t.spec, t.thread?.spec, t.member?.spec];
  for (const sp of specs) {
    if (!sp || !inside(sp.span, o)) continue;
    const flat: SpecItem[] = [];
    for (const it of sp.items) flat.push(it, ...(it.group ?? []));
    for (const it of flat) {
      const sub = inCText(text, it.expr, o);
      if (sub) return sub;
    }
    return { kind: 'term', span: t.span, term: ti };
  }
  const idx = [...t.indices, ...(t.thread?.indices ?? []), ...(t.member?.indices ?? []), ...(t.varIndex ? [t.varIndex] : [])];
  for (const i of idx) {
    if (!inside(i.span, o)) continue;
    const sub = inCText(text, i.body, o);
    if (sub && i.kind !== 'for') return sub;
    return { kind: 'index', span: i.span, index: i, term: ti };
  }
  if (t.constValue) {
    const sub = inCText(text, t.constValue, o);
    if (sub) return sub;
  }
  return { kind: 'term', span: t.span, term: ti };
}

export function locate(a: TprogAnalysis, offset: number): Located | undefined {
  const unit = unitAt(a, offset);
  if (!unit) return undefined;
  const buf = docToBuf(unit.buf, offset);
  if (buf < 0) return { unit, buf };
  const text = unit.buf.text;
  for (const info of unit.stmts) {
    const s = info.stmt;
    if (!inside(s.span, buf) && !(buf === s.span.end + 1)) continue;
    if (inside(s.opSpan, buf)) return { unit, info, buf, node: { kind: 'op', span: s.opSpan! } };
    if (s.names) for (const n of s.names) if (inside(n.span, buf)) return { unit, info, buf, node: { kind: 'var', span: n.span, name: n.text } };
    if (s.keywordSpan && inside(s.keywordSpan, buf))
      return { unit, info, buf, node: { kind: 'keyword', span: s.keywordSpan, word: text.slice(s.keywordSpan.start, s.keywordSpan.end).toUpperCase() } };
    if (s.args) {
      for (const [k, arg] of s.args.entries()) {
        if (!inside(arg.span, buf)) continue;
        if (k === 0 && s.kind === 'exe' && /^[A-Za-z_]\w*::\w+$/.test(arg.text))
          return { unit, info, buf, node: { kind: 'kernel', span: arg.span, name: arg.text } };
        const sub = inCText(text, arg, buf);
        if (sub) return { unit, info, buf, node: sub };
      }
    }
    for (const side of [info.dst, info.src]) {
      if (!side) continue;
      const n = inTerm(text, side, buf);
      if (n) return { unit, info, buf, node: n };
    }
    return { unit, info, buf, node: { kind: 'stmt', span: s.span } };
  }
  return { unit, buf };
}
