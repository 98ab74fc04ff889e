/** Inlay hints: after each tensor its bytes, padding and pages/banks/cores/sticks/cells; after each probe its address. */
import type { LayoutAnalysis } from '../analyze';
import type { ProbeInfo } from '../check';
import { hex, list } from '../util';
import type { InlayHintItem } from '../../common/featureResults';

function probeLabel(p: ProbeInfo): string | undefined {
  if (p.forward) {
    const f = p.forward;
    if (Number.isNaN(f.address)) return '→ not stored (0)';
    return `→ ${f.unit && f.unit.kind !== 'space' ? `${f.unit.label}: ` : ''}${hex(f.address)}`;
  }
  if (p.inverse) {
    const r = p.inverse;
    if (r.kind === 'element') return `→ ${p.tensor?.name ?? ''}${list(r.coord ?? [])}${p.kind === 'device' ? ` @ ${hex(r.address)}` : ''}`;
    if (r.kind === 'replica') return `→ copy of ${p.tensor?.name ?? ''}${list(r.coord ?? [])}`;
    if (r.kind === 'metadata' && r.reason) return `→ ${r.reason}`;
    return `→ ${r.kind}${p.kind === 'device' && r.kind !== 'outside' ? ` @ ${hex(r.address)}` : ''}`;
  }
  if (p.hits)
    return p.hits.length
      ? `→ ${p.hits.map((h) => (h.result.coord ? `${h.tensor.name}${list(h.result.coord)}` : `${h.tensor.name} (${h.result.kind})`)).join(', ')}`
      : '→ no tensor';
  return undefined;
}

/** Hints for statements that end within [startLine, endLine]. */
export function inlayHints(a: LayoutAnalysis, startLine: number, endLine: number): InlayHintItem[] {
  const out: InlayHintItem[] = [];
  for (const t of a.tensors) {
    if (!t.summary) continue;
    const end = a.lines.position(t.stmt.span.end);
    if (end.line < startLine || end.line > endLine) continue;
    out.push({ position: end, label: t.summary.short, tooltip: t.summary.facts.map((f) => `${f.name}: ${f.value}`).join('\n') });
  }
  for (const p of a.probes) {
    const label = probeLabel(p);
    if (!label) continue;
    const end = a.lines.position(p.stmt.span.end);
    if (end.line < startLine || end.line > endLine) continue;
    const steps = p.forward?.steps ?? p.inverse?.steps ?? [];
    out.push({ position: end, label, tooltip: steps.map((s) => `${s.name}: ${s.value}`).join('\n') || label });
  }
  out.sort((x, y) => x.position.line - y.position.line || x.position.character - y.position.character);
  return out;
}
