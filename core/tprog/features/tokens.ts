/** Semantic tokens for `>` statements (C lines are left to the C grammar). */
import { type SemToken, TOKEN_TYPES, type TokenType } from '../../common/semanticTokens';
import type { CText, Span } from '../ast';
import type { TprogAnalysis, Unit } from '../analyze';
import { bufToDoc } from '../lines';

export function semanticTokens(a: TprogAnalysis): SemToken[] {
  const out: SemToken[] = [];
  const push = (unit: Unit, span: Span, type: TokenType, mods = 0) => {
    if (span.end <= span.start) return;
    const s = bufToDoc(unit.buf, span.start);
    const e = bufToDoc(unit.buf, span.end);
    const p = a.lines.position(s);
    const q = a.lines.position(e);
    if (p.line !== q.line) return;
    out.push({ line: p.line, char: p.character, length: q.character - p.character, type: TOKEN_TYPES.indexOf(type), modifiers: mods });
  };
  const idents = (unit: Unit, c: CText | undefined, offset: number) => {
    if (!c) return;
    const re = /[A-Za-z_]\w*|\b\d[\w]*/g;
    for (let m = re.exec(c.text); m; m = re.exec(c.text)) {
      const span = { start: c.span.start + m.index, end: c.span.start + m.index + m[0].length };
      if (/^\d/.test(m[0])) push(unit, span, 'number');
      else if (a.values.macro(m[0])) push(unit, span, 'macro', 2);
      else if (a.values.variableAt(m[0], offset)) push(unit, span, 'variable');
    }
  };
  for (const unit of a.units) {
    const off = unit.buf.markerOffset;
    for (const info of unit.stmts) {
      const s = info.stmt;
      if (s.keywordSpan) push(unit, s.keywordSpan, 'keyword');
      for (const n of s.names ?? []) push(unit, n.span, 'variable', 1);
      for (const [k, arg] of (s.args ?? []).entries()) {
        if (k === 0 && s.kind === 'exe' && arg.text.includes('::')) {
          const i = arg.text.indexOf('::');
          push(unit, { start: arg.span.start, end: arg.span.start + i }, 'class');
          push(unit, { start: arg.span.start + i + 2, end: arg.span.end }, 'function');
        } else idents(unit, arg, off);
      }
      if (s.opSpan) push(unit, s.opSpan, 'operator');
      for (const ti of [info.dst, info.src]) {
        if (!ti) continue;
        const t = ti.term;
        for (const p of t.prefixes) {
          if (p.kind !== 'CAST') push(unit, p.keywordSpan, 'keyword');
          if (p.kind === 'DTYPE' || p.kind === 'CAST') {
            if (p.arg) push(unit, p.arg.span, /^(INT16|INT8|UINT8)$/i.test(p.arg.text) ? 'type' : 'variable');
          } else if (p.kind === 'FOR') {
            if (p.forName) push(unit, p.forName.span, 'variable', 1);
            idents(unit, p.forRange?.begin, off);
            idents(unit, p.forRange?.step, off);
            idents(unit, p.forRange?.end, off);
          } else idents(unit, p.arg, off);
        }
        if (t.spaceSpan) push(unit, t.spaceSpan, t.kind === 'const' ? 'type' : 'namespace');
        if (t.name) push(unit, t.name.span, t.kind === 'var' ? 'variable' : 'parameter');
        if (t.thread) push(unit, { start: t.thread.span.start + 1, end: t.thread.span.start + 7 }, 'keyword');
        if (t.member) {
          const n = t.member.name;
          const i = n.text.indexOf('::');
          if (i > 0) {
            push(unit, { start: n.span.start, end: n.span.start + i }, 'class');
            const dot = n.text.indexOf('.', i);
            if (dot > 0) {
              push(unit, { start: n.span.start + i + 2, end: n.span.start + dot }, 'function');
              push(unit, { start: n.span.start + dot + 1, end: n.span.end }, 'parameter');
            } else push(unit, { start: n.span.start + i + 2, end: n.span.end }, 'property');
          } else push(unit, n.span, 'property');
        }
        const items = [...(t.spec?.items ?? []), ...(t.thread?.spec?.items ?? []), ...(t.member?.spec?.items ?? [])];
        for (const it of items) {
          idents(unit, it.expr, off);
          for (const g of it.group ?? []) idents(unit, g.expr, off);
        }
        for (const i of [...t.indices, ...(t.thread?.indices ?? []), ...(t.member?.indices ?? []), ...(t.varIndex ? [t.varIndex] : [])]) {
          if (i.kind === 'for') push(unit, i.body.span, 'variable');
          else idents(unit, i.body, off);
        }
        idents(unit, t.constValue, off);
      }
    }
  }
  out.sort((x, y) => x.line - y.line || x.char - y.char);
  return out;
}
