/** Outline: C functions with their transfers, kernel launches and tensor variables; macros. */
import type { DocSymbol } from '../../common/featureResults';
import type { TprogAnalysis } from '../analyze';
import { bufToDoc } from '../lines';

export function documentSymbols(a: TprogAnalysis): DocSymbol[] {
  const fns: DocSymbol[] = a.c.functions.map((f) => ({
    name: f.name,
    kind: 'function',
    range: a.lines.range(f.span.start, f.span.end),
    selectionRange: a.lines.range(f.nameSpan.start, f.nameSpan.end),
    children: [],
  }));
  const top: DocSymbol[] = a.values.ctx.macros.map((m) => ({
    name: m.name,
    detail: m.value,
    kind: 'constant' as const,
    range: a.lines.range(m.span.start, m.span.end),
    selectionRange: a.lines.range(m.nameSpan.start, m.nameSpan.end),
    children: [],
  }));
  for (const unit of a.units) {
    for (const info of unit.stmts) {
      const s = info.stmt;
      const range = a.lines.range(bufToDoc(unit.buf, s.span.start), bufToDoc(unit.buf, s.span.end));
      let sym: DocSymbol | undefined;
      if (s.kind === 'transfer') {
        const name = (t: typeof info.dst) =>
          t
            ? t.term.kind === 'space'
              ? (t.term.member?.name.text ?? t.desc.baseName ?? t.term.space ?? '')
              : (t.term.name?.text ?? `${t.term.constType}(${t.term.constValue?.text})`)
            : '?';
        sym = {
          name: `${name(info.dst)} <= ${name(info.src)}`,
          detail: info.dst?.desc.total !== undefined ? `${info.dst.desc.total} elements` : undefined,
          kind: 'operator',
          range,
          selectionRange: range,
          children: [],
        };
      } else if (s.kind === 'exe') sym = { name: `EXE_LOCKSTEP ${s.args?.[0]?.text ?? ''}`, kind: 'event', range, selectionRange: range, children: [] };
      else if (s.kind === 'vardef')
        sym = { name: s.names![0].text, detail: ':=', kind: 'variable', range, selectionRange: a.rangeOf(unit, s.names![0].span), children: [] };
      if (!sym) continue;
      const fnIdx = a.values.functionAt(unit.buf.markerOffset)?.index;
      (fnIdx !== undefined ? fns[fnIdx].children : top).push(sym);
    }
  }
  return [...top, ...fns].sort((x, y) => x.range.start.line - y.range.start.line);
}
