/** Go to definition and find references: `$` variables, PCORE members and kernels, macros, C variables. */
import type { Location } from '../../common/featureResults';
import type { TprogAnalysis } from '../analyze';
import { locate } from '../locate';

type Target =
  { kind: 'var'; name: string } | { kind: 'member'; name: string } | { kind: 'kernel'; name: string } | { kind: 'ident'; name: string; offset: number };

function targetAt(a: TprogAnalysis, offset: number): Target | undefined {
  if (offset < 0 || offset > a.text.length) return undefined;
  const loc = locate(a, offset);
  const n = loc?.node;
  if (n) {
    if (n.kind === 'var') return { kind: 'var', name: n.name };
    if (n.kind === 'member' && n.term.term.member) return { kind: 'member', name: n.term.term.member.name.text };
    if (n.kind === 'global') return { kind: 'member', name: n.name };
    if (n.kind === 'kernel') return { kind: 'kernel', name: n.name };
    if (n.kind === 'ident') return { kind: 'ident', name: n.name, offset };
    return undefined;
  }
  if (loc) return undefined;
  const ref = a.c.kernelRefs.find((r) => offset >= r.span.start && offset <= r.span.end);
  if (ref) return { kind: 'kernel', name: ref.name };
  let s = offset;
  let e = offset;
  const t = a.text;
  while (s > 0 && /\w/.test(t[s - 1])) s--;
  while (e < t.length && /\w/.test(t[e])) e++;
  return s < e ? { kind: 'ident', name: t.slice(s, e), offset } : undefined;
}

export function definition(a: TprogAnalysis, offset: number): Location[] {
  const t = targetAt(a, offset);
  if (!t) return [];
  if (t.kind === 'var') {
    const line = a.lines.position(offset).line;
    const defs = a.varDefs.filter((d) => d.name === t.name);
    const before = defs.filter((d) => d.range.start.line <= line);
    const d = before[before.length - 1] ?? defs[0];
    return d ? [{ range: d.range }] : [];
  }
  if (t.kind === 'member') {
    const r = a.pcore?.lookupMember(t.name);
    return r?.ok && r.member.range ? [{ file: a.pcore!.file, range: r.member.range }] : [];
  }
  if (t.kind === 'kernel') {
    const k = a.pcore?.kernel(t.name);
    return k?.nameRange ? [{ file: a.pcore!.file, range: k.nameRange }] : [];
  }
  const m = a.values.macro(t.name);
  if (m) return m.file === a.file || !m.nameRange ? [{ range: a.lines.range(m.nameSpan.start, m.nameSpan.end) }] : [{ file: m.file, range: m.nameRange }];
  const v = a.values.variableAt(t.name, t.offset);
  if (v) return [{ range: a.lines.range(v.nameSpan.start, v.nameSpan.end) }];
  return [];
}

export function references(a: TprogAnalysis, offset: number, includeDeclaration: boolean): Location[] {
  const t = targetAt(a, offset);
  if (!t) return [];
  const out: Location[] = [];
  if (t.kind === 'var') {
    if (includeDeclaration) for (const d of a.varDefs) if (d.name === t.name) out.push({ range: d.range });
    for (const u of a.varUses) if (u.name === t.name) out.push({ range: u.range });
    return out;
  }
  if (t.kind === 'member' || t.kind === 'kernel') {
    if (includeDeclaration) out.push(...definition(a, offset));
    for (const unit of a.units)
      for (const info of unit.stmts) {
        for (const ti of [info.dst, info.src]) {
          const n = ti?.term.member?.name ?? (ti?.term.kind === 'global' ? ti.term.name : undefined);
          if (n && n.text === t.name) out.push({ range: a.rangeOf(unit, n.span) });
        }
        const k = info.stmt.kind === 'exe' ? info.stmt.args?.[0] : undefined;
        if (k && k.text === t.name) out.push({ range: a.rangeOf(unit, k.span) });
      }
    for (const r of a.c.kernelRefs) if (r.name === t.name) out.push({ range: a.lines.range(r.span.start, r.span.end) });
    return out;
  }
  if (includeDeclaration) out.push(...definition(a, offset));
  if (!/^[A-Za-z_]\w*$/.test(t.name)) return out;
  const seen = new Set(out.filter((o) => !o.file).map((o) => `${o.range.start.line}:${o.range.start.character}`));
  const re = new RegExp(`\\b${t.name}\\b`, 'g');
  for (let m = re.exec(a.text); m && out.length < 10000; m = re.exec(a.text)) {
    const r = a.lines.range(m.index, m.index + t.name.length);
    const key = `${r.start.line}:${r.start.character}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ range: r });
    }
  }
  return out;
}
