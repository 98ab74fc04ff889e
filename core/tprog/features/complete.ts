/** Completion inside `>` statements: keywords, spaces, data types, class members, kernels, `$` variables, macros. */
import type { TprogAnalysis } from '../analyze';
import type { CompletionEntry } from '../../common/featureResults';
import { DATA_TYPES, KEYWORD_DOCS, PREFIX_KEYWORDS, SPACE_KEYWORDS, STATEMENT_KEYWORDS } from './keywords';

const SNIPPETS: CompletionEntry[] = [
  { label: 'FOR(I=0:n-1)', kind: 'snippet', insertText: 'FOR(${1:I}=${2:0}:${3:n-1}) ', snippet: true, detail: 'loop reordering prefix' },
  {
    label: 'EXE_LOCKSTEP(kernel, np)',
    kind: 'snippet',
    insertText: 'EXE_LOCKSTEP(${1:cls::kernel},${2:NUM_PCORE});',
    snippet: true,
    detail: 'run a PCORE kernel',
  },
  {
    label: 'DTYPE(INT16)MEM(p,n)[0:n-1]',
    kind: 'snippet',
    insertText: 'DTYPE(${1:INT16})MEM(${2:p},${3:n})[${4:0}:${5:n-1}]',
    snippet: true,
    detail: 'MEM term',
  },
  {
    label: 'DTYPE(INT16)PCORE(NUM_PCORE)[:].THREAD[:].cls::var[:]',
    kind: 'snippet',
    insertText: 'DTYPE(${1:INT16})PCORE(${2:NUM_PCORE})[${3::}].THREAD[${4::}].${5:cls::var}[${6::}]',
    snippet: true,
    detail: 'private PCORE term',
  },
];

export function complete(a: TprogAnalysis, offset: number): CompletionEntry[] | undefined {
  const pos = a.lines.position(offset);
  if (!a.scan.tensorLines.has(pos.line)) return undefined;
  const lineText = a.lines.lineText(pos.line);
  // only the last part of a very long line matters (and keeps the patterns below linear)
  const before = lineText.slice(Math.max(0, pos.character - 2000), pos.character);
  const gt = before.indexOf('>');
  const stmtText = before.slice(gt + 1);
  // `$` variables
  const dollar = /\$[\w]*$/.exec(before);
  if (dollar) {
    const names = new Set<string>([...a.varDefs.map((d) => d.name)]);
    for (const u of a.units) for (const s of u.stmts) for (const n of s.stmt.kind === 'vardecl' ? (s.stmt.names ?? []) : []) names.add(n.text);
    return [...names].map((n) => ({ label: n, kind: 'variable' as const, insertText: n.slice(1), detail: 'tensor variable' }));
  }
  if (/DTYPE\s*\(\s*\w*$/i.test(before) || /^\s*\(\s*\w*$/.test(stmtText))
    return DATA_TYPES.map((t) => ({ label: t, kind: 'typeParameter', documentation: KEYWORD_DOCS[t] }));
  const scoped = /([A-Za-z_]\w*)::(\w*)$/.exec(before);
  if (scoped) {
    const cls = scoped[1];
    const inExe = /EXE(_LOCKSTEP)?\s*\([^)]*$/i.test(before);
    if (!a.pcore) return [];
    if (inExe)
      return a.pcore
        .kernels()
        .filter((k) => k.fullName.startsWith(cls + '::'))
        .map((k) => ({ label: k.fullName.split('::')[1], kind: 'function' as const, detail: `kernel ${k.fullName}` }));
    const members = a.pcore.members(cls).filter((m) => m.storage === 'private' || m.storage === 'shared');
    const params = a.pcore
      .kernels()
      .filter((k) => k.fullName.startsWith(cls + '::'))
      .flatMap((k) =>
        k.params.map((p) => ({ label: `${k.fullName.split('::')[1]}.${p.fullName.split('.').pop()}`, kind: 'field' as const, detail: p.summary })),
      );
    return [...members.map((m) => ({ label: m.fullName.split('::')[1], kind: 'field' as const, detail: m.summary })), ...params];
  }
  if (/[\])]\s*\.\w*$/.test(before) || /PCORE\s*\.\w*$/i.test(before)) {
    const out: CompletionEntry[] = [
      { label: 'THREAD', kind: 'keyword', documentation: KEYWORD_DOCS.THREAD },
      { label: 'root.constant', kind: 'field', detail: 'whole shared PCORE space' },
    ];
    for (const c of a.pcore?.classNames() ?? []) out.push({ label: c + '::', kind: 'class', detail: `class ${c}` });
    return out;
  }
  if (/EXE(_LOCKSTEP)?\s*\(\s*\w*$/i.test(before)) {
    return (a.pcore?.kernels() ?? []).map((k) => ({ label: k.fullName, kind: 'function' as const, insertText: `${k.fullName},NUM_PCORE`, detail: 'kernel' }));
  }
  // keyword positions: statement start, after `<=`/`:=`, after a prefix
  const atStart = /^\s*\w*$/.test(stmtText);
  const afterOp = /(<=|:=|\)|CONCURRENT|LATEST|REPEAT)\s*\w*$/i.test(stmtText) && !/\[[^\]]*$/.test(stmtText) && !/\([^)]*$/.test(stmtText);
  const out: CompletionEntry[] = [];
  if (atStart || afterOp) {
    if (atStart) for (const k of STATEMENT_KEYWORDS) out.push({ label: k, kind: 'keyword', documentation: KEYWORD_DOCS[k] });
    for (const k of PREFIX_KEYWORDS) out.push({ label: k, kind: 'keyword', documentation: KEYWORD_DOCS[k] });
    for (const k of SPACE_KEYWORDS) out.push({ label: k, kind: 'module', documentation: KEYWORD_DOCS[k] });
    if (atStart) out.push(...SNIPPETS);
  }
  // expressions: macros and C variables
  for (const m of a.values.allMacros()) if (!m.params) out.push({ label: m.name, kind: 'constant', detail: m.value });
  for (const k of ['NUM_PCORE', 'VECTOR_WIDTH', 'NUM_THREAD_PER_CORE'])
    if (!out.some((e) => e.label === k)) out.push({ label: k, kind: 'constant', detail: 'machine constant' });
  const fn = a.values.functionAt(offset);
  for (const v of a.c.vars)
    if (v.fn < 0 || v.fn === fn?.index) if (!out.some((e) => e.label === v.name)) out.push({ label: v.name, kind: 'variable', detail: v.type });
  return out;
}
