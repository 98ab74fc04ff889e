/** Outline: targets, tensors (with their summary), probes. */
import type { LayoutAnalysis } from '../analyze';
import { list } from '../util';
import type { DocSymbol } from '../../common/featureResults';

export function documentSymbols(a: LayoutAnalysis): DocSymbol[] {
  const out: DocSymbol[] = [];
  const r = (s: { start: number; end: number }) => a.lines.range(s.start, s.end);
  for (const s of a.ast.stmts) {
    if (s.kind === 'target' && s.value) {
      const name = s.value.kind === 'call' ? s.value.callee.text : s.value.kind === 'name' ? s.value.text : 'target';
      out.push({ name: `target ${name}`, kind: 'module', range: r(s.span), selectionRange: r(s.value.span), children: [] });
    } else if (s.kind === 'tensor' && s.name) {
      const t = a.tensors.find((x) => x.stmt === s);
      out.push({
        name: s.name.text,
        detail: t ? `${t.dtype ?? '?'}${list(t.shape ?? [])} ${t.family ?? ''}${t.summary ? ` · ${t.summary.short}` : ''}` : undefined,
        kind: 'variable',
        range: r(s.span),
        selectionRange: r(s.name.span),
        children: [],
      });
    } else if (s.kind === 'probe') {
      const text = a.text.slice(s.span.start, s.span.end).replace(/\s+/g, ' ');
      out.push({ name: text, kind: 'event', range: r(s.span), selectionRange: r(s.tensor?.span ?? s.keyword), children: [] });
    }
  }
  return out;
}
