/**
 * Diagnostics of tensor programs: the errors the ztachip compiler reports (worded clearly), the
 * mistakes it lets through silently, and semantic checks where values are known.
 */
import type { Diagnostic, Fix } from '../common/diagnostic';
import { evaluate as evalIn } from '../cexpr/evaluate';
import { internalError, type Emit, type StmtInfo, type TprogAnalysis, type Unit, type UnitDiag } from './analysis';
import { LIMITS } from './machineConstants';
import { checkArgNames, UNKNOWN_NAME } from './checkNames';
import { editDistance, hasCode } from './checkCommon';
import { checkTerm } from './checkTerm';
import { checkTransfer } from './checkTransfer';
import { VarTable } from './checkVars';

export function checkDocument(a: TprogAnalysis): void {
  const out = a.diagnostics;
  // physical-layer problems
  for (const p of a.scan.problems) {
    const range = a.lines.range(p.docStart, p.docEnd);
    if (p.kind === 'invalid-comment')
      out.push({ range, severity: 'error', code: 'tprog.invalid-comment', message: 'Invalid comment: a `/*` on a `>` line must be closed on the same line' });
    else if (p.kind === 'line-too-long')
      out.push({
        range,
        severity: 'error',
        code: 'tprog.line-too-long',
        message: 'input file line too long: the ztachip compiler reads at most 8000 characters per line',
      });
    else if (p.kind === 'glued-names')
      out.push({
        range,
        severity: 'error',
        code: 'tprog.glued-names',
        message:
          'Tokens merged across `>` lines: consecutive `>` lines are joined with no separator, so these two names become one. End the first line with a ' +
          'space-free separator or move the name.',
      });
    else
      out.push({
        range,
        severity: 'warning',
        code: 'tprog.in-comment',
        message: 'This `>` line is inside a C block comment, but the ztachip compiler still compiles it (it does not understand multi-line comments)',
      });
  }
  const vars = new VarTable(a);
  // indexed loops: this runs once per statement of the document, often before it is optimised
  // (a `for...of` then allocates an iterator result per element)
  const units = a.units;
  for (let u = 0; u < units.length; u++) {
    const unit = units[u];
    if (unit.buf.unterminated) {
      const last = unit.buf.segments[unit.buf.segments.length - 1];
      out.push({
        range: a.lines.range(unit.buf.markerOffset, last.docStart + last.length),
        severity: 'error',
        code: 'tprog.unterminated',
        message: 'Unterminated tensor statement: it never ends with `;`, so the ztachip compiler silently drops it',
        fixes: [
          { title: 'Add `;`', edits: [{ range: a.lines.range(last.docStart + last.length, last.docStart + last.length), newText: ';' }], preferred: true },
        ],
      });
    }
    vars.enterUnit(unit);
    const memo = unit.memo;
    if (unit.memoHit && memo?.diags) {
      for (const d of memo.diags) out.push(unitDiagnostic(a, unit, d));
      continue;
    }
    const local: UnitDiag[] = [];
    const emit: Emit = (span, severity, code, message, fixes) => local.push({ span, severity, code, message, fixes });
    for (const p of unit.parsed.problems)
      if (!(unit.buf.unterminated && p.code === 'tprog.missing-semicolon'))
        local.push({ span: p.span, severity: p.severity, code: p.code, message: p.message, fixes: p.fix ? [p.fix] : undefined });
    let failed = false;
    for (let k = 0; k < unit.stmts.length; k++) {
      const info = unit.stmts[k];
      try {
        checkStatement(a, info, emit, vars);
      } catch (e) {
        failed = true;
        local.push({ span: info.stmt.span, severity: 'error', code: 'tprog.internal', message: internalError(a, unit, info.stmt.span, e).message });
      }
    }
    for (const d of local) out.push(unitDiagnostic(a, unit, d));
    // an undeclared-name diagnostic depends on C text the memo key does not cover: checked again next time
    if (memo && memo.varsFree && !failed && !hasCode(local, UNKNOWN_NAME)) memo.diags = local;
  }
}

function unitDiagnostic(a: TprogAnalysis, unit: Unit, u: UnitDiag): Diagnostic {
  const d: Diagnostic = { range: a.rangeOf(unit, u.span), severity: u.severity, code: u.code, message: u.message };
  if (u.fixes?.length)
    d.fixes = u.fixes.map((f, i): Fix => ({ title: f.title, edits: [{ range: a.rangeOf(unit, f.span), newText: f.newText }], preferred: i === 0 }));
  return d;
}

function checkStatement(a: TprogAnalysis, info: StmtInfo, emit: Emit, vars: VarTable): void {
  const s = info.stmt;
  const ev = (t: string) => {
    try {
      return evalIn(t, info.resolve);
    } catch {
      return undefined;
    }
  };
  switch (s.kind) {
    case 'vardecl':
      for (const n of s.names ?? []) vars.declare(n.text, info.unit.buf.depth);
      return;
    case 'exe':
      checkExe(a, info, emit, ev);
      return;
    case 'callback':
    case 'print':
      checkArgNames(a, info, s.args ?? [], emit);
      if ((s.args ?? []).length !== 2)
        emit(
          s.argsSpan ?? s.span,
          'error',
          'tprog.bad-args',
          `Invalid parameters: ${s.kind.toUpperCase()} takes exactly two arguments (${s.kind === 'callback' ? 'function, parameter' : 'two integers'})`,
        );
      return;
    case 'export':
      if ((s.args ?? []).length !== 1) emit(s.argsSpan ?? s.span, 'error', 'tprog.bad-args', 'Invalid export: EXPORT takes exactly one name');
      return;
    case 'vardef': {
      const name = s.names![0];
      if (info.src) checkTerm(a, info, info.src, 'def', emit, vars, ev);
      const ph = info.src ? info.src.term.indices.filter((i) => i.kind === 'placeholder') : [];
      if (ph.length > 1)
        emit(ph[1].span, 'error', 'tprog.placeholder', 'Invalid MCORE variable.: a tensor-variable definition may have only one `[$]` placeholder');
      vars.define(info, name.text, name.span, emit, ph.length > 0);
      return;
    }
    case 'transfer':
      checkTransfer(a, info, emit, vars, ev);
      return;
    default:
      return;
  }
}

function checkExe(a: TprogAnalysis, info: StmtInfo, emit: Emit, ev: (t: string) => number | undefined): void {
  const s = info.stmt;
  const args = s.args ?? [];
  const kw = s.keywordSpan!;
  if (args.length === 0) {
    emit(
      s.argsSpan ?? kw,
      'error',
      'tprog.syntax',
      'Syntax error: EXE_LOCKSTEP needs a kernel and the number of PCOREs, e.g. `EXE_LOCKSTEP(cls::kernel, NUM_PCORE)`',
    );
    return;
  }
  const k = args[0];
  const isKernelName = /^[A-Za-z_]\w*::[A-Za-z_]\w*$/.test(k.text) || /^[A-Za-z_]\w*:[A-Za-z_]\w*$/.test(k.text);
  if (args.length === 1) {
    if (isKernelName) {
      emit(
        k.span,
        'error',
        'tprog.exe-one-arg',
        `One argument is taken as a prebuilt command word, not a kernel: \`EXE_LOCKSTEP(${k.text})\` does not run ${k.text} (the generated C does not ` +
          `compile). Give the PCORE count: \`EXE_LOCKSTEP(${k.text}, NUM_PCORE)\``,
        [{ title: `Run on all PCOREs: EXE_LOCKSTEP(${k.text}, NUM_PCORE)`, span: k.span, newText: `${k.text},NUM_PCORE` }],
      );
    }
    return;
  }
  if (isKernelName) {
    if (k.text.includes('::') === false) {
      emit(k.span, 'error', 'tprog.kernel-syntax', `Kernel names are written \`class::kernel\` (two colons)`, [
        { title: 'Use `::`', span: k.span, newText: k.text.replace(':', '::') },
      ]);
    } else if (a.pcore) {
      const kn = a.pcore.kernel(k.text);
      if (!kn) {
        const cls = k.text.split('::')[0];
        const known = a.pcore.kernels().map((x) => x.fullName);
        const near = known.filter((x) => editDistance(x, k.text) <= 3).sort((x, y) => editDistance(x, k.text) - editDistance(y, k.text));
        emit(
          k.span,
          'error',
          'tprog.unknown-kernel',
          `Undefined function name: ${k.text} is not a kernel of ${baseName(a.pcore.file)}` +
            `${a.pcore.classNames().includes(cls) ? '' : ` (no class \`${cls}\`)`}${near.length ? `; did you mean ${near[0]}?` : ''}`,
          near.slice(0, 3).map((n) => ({ title: `Change to ${n}`, span: k.span, newText: n })),
        );
      }
    }
  } else checkArgNames(a, info, [k], emit);
  checkArgNames(a, info, args.slice(1, 3), emit);
  const np = ev(args[1].text);
  if (np !== undefined && (np < 1 || np > LIMITS.numPcore))
    emit(args[1].span, 'error', 'tprog.exe-np', `The PCORE count must be 1..${LIMITS.numPcore}; ${args[1].text} is ${np}`);
  if (args[2]) {
    const nt = ev(args[2].text);
    if (nt !== undefined && (nt < 1 || nt > LIMITS.numThread))
      emit(args[2].span, 'error', 'tprog.exe-nt', `The thread count must be 1..${LIMITS.numThread}; ${args[2].text} is ${nt}`);
  }
  if (args.length > 3) emit(args[3].span, 'warning', 'tprog.exe-extra', 'Extra EXE_LOCKSTEP arguments are ignored by the compiler');
}

function baseName(f: string): string {
  return f.split(/[\\/]/).pop() ?? f;
}
