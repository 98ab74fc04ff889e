/**
 * Hover: a probe or coordinate → its address with every intermediate; an address → what it holds;
 * a tensor name → its summary; words → documentation.
 */
import type { Span } from '../ast';
import type { LayoutAnalysis } from '../analyze';
import { termFamily, type ProbeInfo, type TensorInfo } from '../check';
import type { ForwardBase, InverseResult, Step } from '../model';
import { hex, list } from '../util';
import type { HoverResult } from '../../common/featureResults';
import { wordDoc } from './keywords';
import { locate } from './locate';
import { mdText } from '../../common/markdown';

const inside = (s: Span, o: number) => o >= s.start && o <= s.end;

export function stepsTable(steps: Step[]): string {
  return ['| step | value |', '|---|---|', ...steps.map((s) => `| ${mdText(s.name)} | ${mdText(s.value)} |`)].join('\n');
}

export function forwardMarkdown(tensorName: string, f: ForwardBase): string {
  const name = mdText(tensorName);
  const where = f.unit ? `${mdText(f.unit.label)}, ` : '';
  const head = Number.isNaN(f.address)
    ? `**${name}${list(f.coord)}** — not stored (implicit zero)`
    : `**${name}${list(f.coord)}** → ${where}address \`${hex(f.address)}\` (${f.address.toLocaleString('en-US')}), ${f.size} byte${f.size === 1 ? '' : 's'}`;
  return `${head}\n\n${stepsTable(f.steps)}`;
}

export function inverseMarkdown(tensorName: string, r: InverseResult): string {
  const name = mdText(tensorName);
  const where = r.unit ? ` in ${mdText(r.unit.label)}` : '';
  let head: string;
  if (r.kind === 'element')
    head =
      `\`${hex(r.address)}\`${where} → **${name}${list(r.coord ?? [])}**` +
      (r.byteInElement ? `, byte ${r.byteInElement} of the element (little-endian: byte 0 is the least significant)` : '');
  else if (r.kind === 'replica') head = `\`${hex(r.address)}\`${where} → a broadcast copy of **${name}${list(r.coord ?? [])}**`;
  else if (r.kind === 'outside') head = `\`${hex(r.address)}\`${where} is outside **${name}**`;
  else head = `\`${hex(r.address)}\`${where} in **${name}** is **${r.kind}**`;
  return `${head}${r.reason ? `\n\n${mdText(r.reason)}` : ''}${r.steps.length ? `\n\n${stepsTable(r.steps)}` : ''}`;
}

export function tensorMarkdown(t: TensorInfo): string {
  const head =
    `**tensor ${mdText(t.name)}**: ${mdText(t.dtype ?? '?')}` +
    mdText(list(t.shape?.map((s, i) => (t.dimNames[i] ? `${t.dimNames[i]}=${s}` : String(s))) ?? [])) +
    (t.family ? ` — ${t.family} layout` : '');
  if (!t.summary) return `${head}\n\n_${mdText(t.problem ?? 'no layout')}_`;
  const br = Object.entries(t.summary.breakdown)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${k} ${v.toLocaleString('en-US')} B`)
    .join(', ');
  return `${head}\n\n${stepsTable(t.summary.facts)}\n\nbytes: ${br} = ${t.summary.bytes.toLocaleString('en-US')} B`;
}

export function probeMarkdown(p: ProbeInfo): string | undefined {
  const raw = p.tensor?.name ?? '';
  if (p.forward) return forwardMarkdown(raw, p.forward);
  if (p.inverse && p.kind === 'device') {
    const r = p.inverse;
    const name = mdText(raw);
    const what = r.kind === 'element' ? `**${name}${list(r.coord ?? [])}**` : `**${r.kind}**${r.reason ? ` (${mdText(r.reason)})` : ''}`;
    return `device ${list(p.coord ?? [])} of **${name}** → address \`${hex(r.address)}\` → ${what}\n\n${stepsTable(r.steps)}`;
  }
  if (p.inverse) return inverseMarkdown(raw, p.inverse);
  if (p.hits)
    return p.hits.length ? p.hits.map((h) => inverseMarkdown(h.tensor.name, h.result)).join('\n\n---\n\n') : `no tensor holds \`${hex(p.address ?? 0)}\``;
  if (p.error) return `_${mdText(p.error)}_`;
  return undefined;
}

export function hover(a: LayoutAnalysis, offset: number): HoverResult | undefined {
  const loc = locate(a, offset);
  const tok = loc.token;
  const s = loc.stmt;
  const range = (sp: Span) => a.lines.range(sp.start, sp.end);
  if (s?.kind === 'probe') {
    const p = a.probes.find((x) => x.stmt === s);
    if (s.tensor && inside(s.tensor.span, offset)) {
      const t = a.tensors.find((x) => x.name === s.tensor!.text);
      if (t) return { markdown: tensorMarkdown(t), range: range(s.tensor.span) };
    }
    if (p) {
      const md = probeMarkdown(p);
      const sp =
        s.coords && inside(s.coords.span, offset) ? s.coords.span : s.address?.value && inside(s.address.value.span, offset) ? s.address.value.span : s.span;
      if (md && (tok?.kind !== 'ident' || !['bank', 'core', 'main', 'meta', 'address', 'device'].includes(tok.text) || sp !== s.span))
        return { markdown: md, range: range(sp) };
    }
  }
  if (s?.kind === 'tensor') {
    const t = a.tensors.find((x) => x.stmt === s) ?? a.tensors.find((x) => x.name === s.name?.text);
    if (s.name && inside(s.name.span, offset) && t) return { markdown: tensorMarkdown(t), range: range(s.name.span) };
    if (s.at?.value && inside(s.at.value.span, offset) && t?.model) {
      const m = t.model;
      const end = m.base + (t.summary?.units?.bytesPerUnit ?? t.summary?.bytes ?? 0);
      return {
        markdown:
          `\`${t.name}\` starts at \`${hex(m.base)}\` (${m.base.toLocaleString('en-US')}) and ends ` +
          `before \`${hex(end)}\`${t.summary?.units ? ` in each ${t.summary.units.kind}` : ''}`,
        range: range(s.at.value.span),
      };
    }
    if (s.shape && inside(s.shape.span, offset) && t?.summary) return { markdown: tensorMarkdown(t), range: range(s.shape.span) };
  }
  if (!tok || tok.kind !== 'ident') return undefined;
  const family = s?.kind === 'tensor' ? s.layout.map(termFamily).find((f) => f) : undefined;
  // a dotted name (`ttnn.ShardStrategy.BLOCK`, `ttnn.create_sharded_memory_config`) is documented by its last part
  const v = loc.value;
  const dotted = v?.kind === 'call' && inside(v.callee.span, offset) ? v.callee : v?.kind === 'name' ? v : undefined;
  if (dotted && dotted.parts.length > 1) {
    const d = wordDoc(dotted.parts[dotted.parts.length - 1].text, family) ?? wordDoc(tok.text, family);
    if (d) return { markdown: d, range: range(dotted.span) };
  }
  const doc = wordDoc(tok.text, family);
  return doc ? { markdown: doc, range: range({ start: tok.start, end: tok.end }) } : undefined;
}
