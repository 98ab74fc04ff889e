/**
 * Diagnostics of tensor programs: the errors the ztachip compiler reports (worded clearly), the
 * mistakes it lets through silently, and semantic checks where values are known.
 */
import type { Diagnostic, Fix } from '../common/diagnostic';
import { evaluate as evalIn, identifiers } from '../cexpr/evaluate';
import type { Index, Span, Term } from './ast';
import { internalError, type Emit, type StmtInfo, type TensorVarDef, type TermInfo, type TprogAnalysis, type Unit, type UnitDiag } from './analysis';
import { invalidCount, type Descriptor } from './descriptor';
import { canonicalType, LIMITS } from './machineConstants';
import { checkForPrefixes } from './checkFor';
import { checkArgNames, checkTermNames, isDeclared, UNKNOWN_NAME } from './checkNames';

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

function hasCode(list: readonly UnitDiag[], code: string): boolean {
  for (let k = 0; k < list.length; k++) if (list[k].code === code) return true;
  return false;
}

function unitDiagnostic(a: TprogAnalysis, unit: Unit, u: UnitDiag): Diagnostic {
  const d: Diagnostic = { range: a.rangeOf(unit, u.span), severity: u.severity, code: u.code, message: u.message };
  if (u.fixes?.length)
    d.fixes = u.fixes.map((f, i): Fix => ({ title: f.title, edits: [{ range: a.rangeOf(unit, f.span), newText: f.newText }], preferred: i === 0 }));
  return d;
}

/** Tensor-variable table with brace-depth scoping, as the compiler keeps it. */
class VarTable {
  private entries: { name: string; depth: number; defined: boolean; def?: TensorVarDef }[] = [];
  constructor(private readonly a: TprogAnalysis) {}

  enterUnit(unit: Unit): void {
    const d = unit.buf.minDepthBefore;
    for (let i = 0; i < this.entries.length; i++) if (this.entries[i]?.depth > d) this.entries[i] = undefined as never;
  }

  private find(name: string) {
    return this.entries.findIndex((e) => e && e.name === name);
  }

  private alloc(name: string, depth: number): number {
    const free = this.entries.findIndex((e) => !e);
    const e = { name, depth, defined: false };
    if (free >= 0) {
      this.entries[free] = e;
      return free;
    }
    this.entries.push(e);
    return this.entries.length - 1;
  }

  declare(name: string, depth: number): number {
    const i = this.find(name);
    return i >= 0 ? i : this.alloc(name, depth);
  }

  define(info: StmtInfo, name: string, span: Span, emit: Emit, hasPlaceholder: boolean): void {
    let i = this.find(name);
    if (i < 0) i = this.alloc(name, info.unit.buf.depth);
    const def = { name, info, range: this.a.rangeOf(info.unit, span), slot: i, hasPlaceholder };
    this.entries[i].defined = true;
    this.entries[i].def = def;
    this.a.varDefs.push(def);
    if (i >= LIMITS.maxTensorVars)
      emit(
        span,
        'error',
        'tprog.too-many-vars',
        `Invalid MCORE variable: ${name} would need tensor-variable slot ${i + 1}, but a process has only ${LIMITS.maxTensorVars} live \`:=\` variables ` +
          '(close a scope or reuse a name)',
      );
    let alive = 0;
    for (const e of this.entries) if (e) alive++;
    if (alive > LIMITS.maxVarNames) emit(span, 'error', 'tprog.too-many-vars', 'Too many variables defined: more than 16 `$` names are alive at once');
  }

  use(info: StmtInfo, name: string, span: Span, emit: Emit) {
    const i = this.find(name);
    const e = i >= 0 ? this.entries[i] : undefined;
    const range = this.a.rangeOf(info.unit, span);
    this.a.varUses.push({ name, range, def: e?.def, info });
    if (!e || !e.defined) {
      const earlier = this.a.varDefs.find((d) => d.name === name);
      emit(
        span,
        'error',
        'tprog.undefined-var',
        earlier
          ? `Variable has not been defined: ${name} was defined in a scope that has closed (declare it with \`> VAR ${name};\` in the enclosing block)`
          : `Variable has not been defined: ${name} has no \`${name} := ...\` before this use`,
      );
    }
    return e?.def;
  }
}

const CLOSEST_SPACE = ['PCORE', 'MEM', 'SCRATCH', 'SPU', 'PROG'];
const CHECKED_SPACES = new Set(['PCORE', 'MEM', 'SCRATCH', 'SPU', 'PROG', 'DDR']);

function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) dp[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) dp[i][j] = Math.min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return dp[a.length][b.length];
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

function checkTransfer(a: TprogAnalysis, info: StmtInfo, emit: Emit, vars: VarTable, ev: (t: string) => number | undefined): void {
  const s = info.stmt;
  const dst = info.dst!;
  const src = info.src!;
  if (s.proc) {
    if (a.dialect === 'ztachip')
      emit(
        s.proc.span,
        'error',
        'tprog.guide-proc',
        "Unrecognized memory space: PROC is the guide's spelling; the ztachip compiler writes `REMAP(n)` on the PCORE term",
        procFix(info),
      );
    else emit(s.proc.span, 'hint', 'tprog.guide-proc', 'Guide dialect: the ztachip compiler writes `REMAP(n)` on the PCORE term', procFix(info));
  }
  // global assignment: cls::f.g <= INT16(v)
  if (dst.term.kind === 'global') {
    checkGlobalAssign(a, info, emit);
    if (src.term.kind !== 'const')
      emit(
        src.term.span,
        'error',
        'tprog.global-assign',
        'Invalid global variable assignment: a `_global` kernel parameter can only take a constant, e.g. `INT16(value)`',
      );
    return;
  }
  if (src.term.kind === 'global') {
    emit(src.term.span, 'error', 'tprog.global-source', 'A kernel `_global` parameter cannot be read by a transfer (it is a register, not memory)');
    return;
  }
  const dd = checkTerm(a, info, dst, 'dst', emit, vars, ev);
  const sd = checkTerm(a, info, src, 'src', emit, vars, ev);
  if (dst.term.kind === 'const') emit(dst.term.span, 'error', 'tprog.const-dest', 'A constant cannot be a destination');
  // data types
  const dt = dd?.dtypeText ?? (dd?.space === 'SCRATCH' || (a.dialect === 'guide' && dd) ? 'INT16' : undefined);
  const stx = sd?.dtypeText ?? (sd?.space === 'SCRATCH' || (a.dialect === 'guide' && sd) ? 'INT16' : undefined);
  if (dt && stx && dd?.space !== 'SPU' && dd?.space !== 'PROG') {
    const cd = canonicalType(dt) ?? dt;
    const cs = canonicalType(stx) ?? stx;
    if (cd !== cs) {
      const hint =
        src.term.kind === 'const' && cd === 'UINT8' ? ' A constant is INT16 or INT8: write the destination as DTYPE(INT8) to fill a UINT8 buffer.' : '';
      emit(s.opSpan!, 'error', 'tprog.dtype-mismatch', `Left and right term must have same data type: destination is ${dt}, source is ${stx}.${hint}`);
    }
  }
  // REMAP on both sides
  const remapD = dst.term.prefixes.find((p) => p.kind === 'REMAP');
  const remapS = src.term.prefixes.find((p) => p.kind === 'REMAP');
  if (remapD && remapS) emit(remapS.span, 'error', 'tprog.remap-both', 'REMAP cannot be applied to both left and right term');
  // counts and bounds
  if (dd && sd && src.term.kind !== 'const') {
    const nd = dd.total;
    const ns = sd.total;
    if (nd !== undefined && ns !== undefined && nd !== ns && !sd.repeat) {
      if (ns < nd)
        emit(
          s.opSpan!,
          'warning',
          'tprog.count-mismatch',
          `The source has ${ns} elements but the destination ${nd}: the last ${nd - ns} destination elements receive the PAD value ${sd.pad ?? 0}`,
        );
      else
        emit(
          s.opSpan!,
          'warning',
          'tprog.count-mismatch',
          `The source has ${ns} elements but the destination only ${nd}: the last ${ns - nd} source elements are not transferred (the destination count is ` +
            'the transfer length)',
        );
    }
  }
  if (sd && src.term.kind === 'space') {
    const bad = invalidCount(sd);
    if (bad)
      emit(src.term.span, 'warning', 'tprog.read-padding', `${bad} of ${sd.total} source elements are out of bounds and read as padding (${sd.pad ?? 0})`);
  }
  if (dd && dst.term.kind === 'space') {
    const bad = invalidCount(dd);
    if (bad) emit(dst.term.span, 'warning', 'tprog.write-skipped', `${bad} of ${dd.total} destination elements are out of bounds: those writes are skipped`);
  }
}

function procFix(info: StmtInfo): { title: string; span: Span; newText: string }[] {
  const s = info.stmt;
  if (!s.proc || !s.dst || !s.src) return [];
  const arg = s.proc.arg?.text ?? '0';
  // rewrite "<= PROC(n) <= SRC" into "<= REMAP(n) SRC" when the PCORE term is the source, else prefix the destination
  const pcoreSrc = s.src.space === 'PCORE';
  if (pcoreSrc)
    return [{ title: `Use REMAP(${arg}) on the PCORE source`, span: { start: s.proc.span.start, end: s.src.span.start }, newText: `REMAP(${arg}) ` }];
  return [
    {
      title: `Use REMAP(${arg}) on the PCORE destination`,
      span: { start: s.dst.span.start, end: s.src.span.start },
      newText: `REMAP(${arg}) ${textOfTermRaw(info, s.dst)} <= `,
    },
  ];
}

function textOfTermRaw(info: StmtInfo, t: Term): string {
  return info.unit.buf.text.slice(t.span.start, t.span.end);
}

function checkGlobalAssign(a: TprogAnalysis, info: StmtInfo, emit: Emit): void {
  const t = info.dst!.term;
  const name = t.name!;
  if (!a.pcore) return;
  const r = a.pcore.lookupMember(name.text);
  if (!r.ok) {
    emit(name.span, 'error', 'tprog.undefined-global', `Undefined variable: ${r.message}`);
    return;
  }
  if (!r.member.global)
    emit(
      name.span,
      'error',
      'tprog.not-global',
      `Invalid global reference: ${name.text} is a ${r.member.storage} ${r.member.type}, not a \`_global int\` kernel parameter`,
    );
}

type Role = 'dst' | 'src' | 'def';

/**
 * Checks a term; returns its descriptor only when the term is structurally sound (so counts are
 * meaningful). The result of a term that is not a tensor variable depends only on what its memoised
 * `TermInfo` depends on: it is kept there and replayed.
 */
function checkTerm(
  a: TprogAnalysis,
  info: StmtInfo,
  ti: TermInfo,
  role: Role,
  emit0: Emit,
  vars: VarTable,
  ev: (t: string) => number | undefined,
): Descriptor | undefined {
  const kept = ti.checked;
  if (kept && kept.role === role) {
    for (const e of kept.emits) emit0(e.span, e.severity, e.code, e.message, e.fixes);
    return kept.desc;
  }
  let errors = 0;
  const emits: UnitDiag[] = [];
  const emit: Emit = (span, severity, code, message, fixes) => {
    if (severity === 'error') errors++;
    emits.push({ span, severity, code, message, fixes });
    emit0(span, severity, code, message, fixes);
  };
  const d = checkTermInner(a, info, ti, role, emit, vars, ev);
  const desc = errors ? undefined : d;
  // (an undeclared-name diagnostic depends on C text outside what the TermInfo depends on)
  if (ti.term.kind !== 'var' && !hasCode(emits, UNKNOWN_NAME)) ti.checked = { role, emits, desc };
  return desc;
}

function checkTermInner(
  a: TprogAnalysis,
  info: StmtInfo,
  ti: TermInfo,
  role: Role,
  emit: Emit,
  vars: VarTable,
  ev: (t: string) => number | undefined,
): Descriptor | undefined {
  const t = ti.term;
  const guideMode = a.dialect === 'guide';
  // prefixes
  let dtypes = 0;
  let conc = 0;
  let repeats = 0;
  let remaps = 0;
  for (const p of t.prefixes) {
    if (p.kind === 'DTYPE' || p.kind === 'CAST') dtypes++;
    if (p.kind === 'CAST') {
      const fix = { title: `Write DTYPE(${p.arg!.text})`, span: p.span, newText: `DTYPE(${p.arg!.text})` };
      if (guideMode) emit(p.span, 'hint', 'tprog.guide-cast', 'Guide dialect: the ztachip compiler writes the type as `DTYPE(...)`', [fix]);
      else
        emit(
          p.span,
          'error',
          'tprog.guide-cast',
          `Syntax error: a \`(${p.arg!.text})\` cast is the guide's spelling; the ztachip compiler needs \`DTYPE(${p.arg!.text})\``,
          [fix],
        );
    }
    if (p.kind === 'SCATTER') {
      conc++;
      const fix = { title: 'Write CONCURRENT', span: p.span, newText: 'CONCURRENT' };
      if (guideMode) emit(p.span, 'hint', 'tprog.guide-scatter', 'Guide dialect: the ztachip compiler spells SCATTER(0) as `CONCURRENT`', [fix]);
      else emit(p.span, 'error', 'tprog.guide-scatter', "Syntax error: `SCATTER(0)` is the guide's spelling; the ztachip compiler writes `CONCURRENT`", [fix]);
    }
    if (p.kind === 'CONCURRENT') conc++;
    if (p.kind === 'REPEAT') repeats++;
    if ((p.kind === 'PAD' || p.kind === 'REPEAT' || p.kind === 'LATEST') && role === 'dst')
      emit(p.keywordSpan, 'warning', 'tprog.no-effect', `${p.kind} has no effect on a destination term (it applies to sources only)`);
    if (p.kind === 'REMAP') {
      // the compiler adds every REMAP's number to one list and rejects a list of two
      if (++remaps === 2) emit(p.span, 'error', 'tprog.multiple', 'Invalid REMAP specifier: REMAP is given twice on this term; keep one `REMAP(n)`');
      const v = ev(p.arg!.text);
      if (v !== undefined && v >= LIMITS.spuTables)
        emit(
          p.arg!.span,
          'warning',
          'tprog.remap-range',
          `REMAP(${v}) selects stream ${v & 3}: only streams 0..3 exist and the number is masked with 3 (a negative number disables remapping)`,
        );
    }
  }
  if (dtypes > 1) emit(t.span, 'error', 'tprog.bad-dtype', 'Invalid dtype syntax: the term has more than one DTYPE');
  if (conc > 1) emit(t.span, 'error', 'tprog.multiple', 'Multiple SCATTER: CONCURRENT is given twice');
  if (repeats > 1) emit(t.span, 'error', 'tprog.multiple', 'Multiple REPEAT: REPEAT is given twice');
  if (t.kind === 'var') {
    if (t.prefixes.length)
      emit(
        t.prefixes[0].span,
        'error',
        'tprog.var-prefix',
        `No prefix may stand before a tensor variable: ${t.name!.text} keeps the DTYPE, REMAP and PAD of its definition`,
      );
    const def = vars.use(info, t.name!.text, t.name!.span, emit);
    if (def && t.varIndex && !def.hasPlaceholder)
      emit(
        t.varIndex.span,
        'warning',
        'tprog.var-index-ignored',
        `${t.name!.text} has no \`[$]\` placeholder: the index is ignored and the definition is re-evaluated here`,
      );
    if (t.varIndex) checkTermNames(a, info, t, undefined, emit);
    if (def && !t.varIndex && def.hasPlaceholder)
      emit(t.name!.span, 'warning', 'tprog.var-index-missing', `${t.name!.text} has a \`[$]\` placeholder: give its index, e.g. \`${t.name!.text}[i]\``);
    return undefined;
  }
  if (t.kind === 'const') {
    if (t.constType === 'HALF')
      emit(t.spaceSpan!, 'error', 'tprog.unknown-space', 'Unrecognized memory space: HALF(...) constants are not supported; use INT16(...) or INT8(...)');
    if (conc) emit(t.span, 'error', 'tprog.concurrent-space', 'SCATTER is only for PCORE: CONCURRENT cannot apply to a constant');
    checkTermNames(a, info, t, undefined, emit);
    return ti.desc;
  }
  if (t.kind !== 'space') return undefined;
  const sp = t.space!;
  const d = ti.desc;
  if (!CHECKED_SPACES.has(sp)) {
    if (sp === 'PROC') {
      emit(
        t.spaceSpan!,
        'error',
        'tprog.unknown-space',
        'Unrecognized memory space: PROC(n) is only meaningful between two `<=` (guide dialect); the compiler writes REMAP(n)',
      );
      return undefined;
    }
    if (sp === 'PCORES' || sp === 'MEMS' || sp === 'SCRATCHS') {
      emit(t.spaceSpan!, 'warning', 'tprog.fork', `${sp} is a legacy "fork" space that the hardware does not support (fork count 1)`);
      return undefined;
    }
    const near = CLOSEST_SPACE.map((x) => [x, editDistance(x, sp)] as const).sort((x, y) => x[1] - y[1])[0];
    const fixes = near[1] <= 2 ? [{ title: `Change to ${near[0]}`, span: t.spaceSpan!, newText: near[0] }] : [];
    emit(
      t.spaceSpan!,
      'error',
      'tprog.unknown-space',
      `Unrecognized memory space \`${t.space}\`: expected PCORE, MEM, SCRATCH, SPU, PROG, INT16(v), INT8(v) or a ` +
        `$variable${fixes.length ? `; did you mean ${near[0]}?` : ''}`,
      fixes,
    );
    return undefined;
  }
  if (sp === 'DDR') {
    const fix = { title: 'Write MEM', span: t.spaceSpan!, newText: 'MEM' };
    if (guideMode) emit(t.spaceSpan!, 'hint', 'tprog.guide-ddr', 'Guide dialect: the ztachip compiler names this memory space `MEM`', [fix]);
    else emit(t.spaceSpan!, 'error', 'tprog.guide-ddr', "Unrecognized memory space: `DDR` is the guide's spelling; the ztachip compiler names it `MEM`", [fix]);
  }
  const hasType = t.prefixes.some((p) => p.kind === 'DTYPE' || p.kind === 'CAST');
  if (!hasType && (sp === 'PCORE' || sp === 'MEM' || sp === 'DDR')) {
    const fix = { title: 'Add DTYPE(INT16)', span: { start: t.spaceSpan!.start, end: t.spaceSpan!.start }, newText: 'DTYPE(INT16)' };
    if (guideMode) {
      // the guide's default is INT16: fine
    } else emit(t.spaceSpan!, 'error', 'tprog.no-dtype', `DTYPE is not defined: ${sp} terms need \`DTYPE(INT16)\`, \`DTYPE(INT8)\` or \`DTYPE(UINT8)\``, [fix]);
  }
  if (sp !== 'PCORE' && conc) emit(t.span, 'error', 'tprog.concurrent-space', 'SCATTER is only for PCORE: CONCURRENT applies to PCORE terms only');
  const remap = t.prefixes.find((p) => p.kind === 'REMAP');
  if (remap && sp !== 'PCORE') emit(remap.span, 'error', 'tprog.remap-space', 'REMAP is only for PCORE: put REMAP(n) on the PCORE side of the transfer');
  // FOR usage
  const allIdx: Index[] = t.thread || t.member ? t.indices.concat(t.thread?.indices ?? [], t.member?.indices ?? []) : t.indices;
  let forNames: string[] | undefined;
  for (const p of t.prefixes) {
    if (p.kind !== 'FOR' || !p.forName) continue;
    (forNames ??= []).push(p.forName.text);
    if (p.forRange) checkRange(p.forRange, p.span, emit, ev);
  }
  if (forNames) checkForPrefixes(t, allIdx, emit);
  checkTermNames(a, info, t, forNames, emit);
  for (let k = 0; k < allIdx.length; k++) {
    const i = allIdx[k];
    // (a FOR name that is no C name either is an undeclared name, reported by checkTermNames)
    if (i.kind !== 'for' && forNames)
      for (const f of forNames)
        if (identifiers(i.body.text).includes(f) && isDeclared(a, info, f, i.span))
          emit(
            i.span,
            'warning',
            'tprog.for-expr',
            `\`[${i.body.text}]\` is not the FOR index ${f}: only an index written exactly \`[${f}]\` follows the FOR; this one uses the C variable ${f}`,
          );
    if (i.kind === 'single' && i.body.text === '')
      emit(i.span, 'warning', 'tprog.empty-index', '`[]` selects element 0 only; write `[:]` for the whole dimension');
    if (i.kind === 'range' && i.body.text.includes('?'))
      emit(i.span, 'error', 'tprog.ternary-index', 'A `?:` inside an index is split at its `:` as a range; compute the value into a C variable first');
    if (i.kind === 'range') checkRange(i.range!, i.span, emit, ev);
  }
  if (sp === 'MEM' || sp === 'DDR' || sp === 'SCRATCH') checkLinear(a, t, d, role, emit);
  else if (sp === 'PCORE') checkPcore(a, ti, role, emit, ev);
  if (t.member && sp !== 'PCORE')
    emit(t.member.span, 'error', 'tprog.member-space', 'Parameter is allowed for PCORE: only PCORE terms have a `.class::variable` part');
  // descriptor problems and levels
  for (const p of d.problems) emit(p.index?.span ?? t.span, p.severity, p.code, p.message);
  if (d.levels.length > LIMITS.maxLevels)
    emit(
      t.span,
      'error',
      'tprog.too-many-levels',
      `This term needs ${d.levels.length} loop levels; the tensor engine has ${LIMITS.maxLevels} (5 strides + burst)`,
    );
  return d;
}

function checkRange(r: import('./ast').RangeParts, span: Span, emit: Emit, ev: (t: string) => number | undefined): void {
  const b = r.begin ? ev(r.begin.text) : 0;
  const e = r.end ? ev(r.end.text) : undefined;
  const st = r.step ? ev(r.step.text) : 1;
  if (st !== undefined && st <= 0) emit(r.step?.span ?? span, 'error', 'tprog.bad-step', `The step of a range must be positive (it is ${st})`);
  if (b !== undefined && e !== undefined && e < b)
    emit(
      span,
      'error',
      'tprog.empty-range',
      `Empty range: end ${e} is before begin ${b} (the engine has no zero-length transfer; the count register would be negative)`,
    );
}

function looksLikeCall(text: string): boolean {
  return /^[A-Za-z_]\w*\s*\(/.test(text);
}

function checkLinear(a: TprogAnalysis, t: Term, d: Descriptor, role: Role, emit: Emit): void {
  const sp = t.space === 'SCRATCH' ? 'SCRATCH' : 'MEM';
  const ref = sp === 'SCRATCH' ? 'Invalid SRAM reference' : 'Invalid DDR memory reference';
  const items = t.spec?.items ?? [];
  if (!t.spec || items.length === 0 || items[0].expr.text === '') {
    emit(
      t.spaceSpan!,
      'error',
      'tprog.no-address',
      `${sp === 'SCRATCH' ? 'Invalid SRAM memory reference' : ref}: ${t.space} needs an address first, e.g. \`${t.space}(p, 100, 200)\``,
    );
    return;
  }
  for (const it of items.slice(1)) {
    if (it.group && looksLikeCall(`${it.expr.text}(`) && /^(sizeof|MAX|MIN|max|min)$/.test(it.expr.text.trim())) {
      const whole = { start: it.expr.span.start, end: it.groupSpan!.end };
      emit(
        whole,
        'error',
        'tprog.call-dim',
        `\`${it.expr.text}(...)\` is read as a bounded dimension group \`N(d1,...)\`, not a call; wrap it in parentheses`,
        [{ title: 'Wrap in parentheses', span: whole, newText: `(${it.expr.text}(${it.group.map((g) => g.expr.text).join(',')}))` }],
      );
    }
  }
  const nd = d.dims?.length ?? 1;
  const ni = t.indices.length;
  const hasDims = items.length > 1;
  if (ni !== nd && !(ni === 0 && !hasDims)) {
    emit(
      t.indices[Math.min(ni, nd)]?.span ?? t.spec.span,
      'error',
      'tprog.index-count',
      `${ref}: ${t.space}(${items.map((i) => i.expr.text + (i.group ? '(...)' : '')).join(',')}) ` +
        `has ${nd} dimension${nd === 1 ? '' : 's'} but ${ni} ind${ni === 1 ? 'ex' : 'ices'}`,
    );
  } else if (ni === 0 && !hasDims) {
    emit(t.span, 'error', 'tprog.index-count', `${ref}: give an index range, e.g. \`${t.space}(${items[0].expr.text})[0:n-1]\``);
  }
  for (const i of t.indices)
    if (i.kind === 'wildcard')
      emit(i.span, 'warning', 'tprog.wildcard-noop', `\`[*]\` on a ${t.space} index means index 0 only (broadcast exists for PCORE destinations)`);
  for (const it of t.spec.items) if (it.plus && it === items[0]) emit(it.expr.span, 'warning', 'tprog.plus-noop', '`+` on the address has no effect');
  // negative destination index (HW does not check lower bounds of destinations)
  if (role === 'dst')
    for (const l of d.levels)
      if (l.begin !== undefined && l.begin < 0)
        emit(
          l.index?.span ?? t.span,
          'error',
          'tprog.negative-dest',
          'Negative destination index: the hardware does not check lower bounds of destinations, so this writes before the tensor',
        );
  void a;
}

function checkPcore(a: TprogAnalysis, ti: TermInfo, role: Role, emit: Emit, ev: (t: string) => number | undefined): void {
  const t = ti.term;
  const d = ti.desc;
  const items = t.spec?.items ?? [];
  if (items.length > 2) {
    emit(t.spec!.span, 'error', 'tprog.pcore-spec', 'Invalid PCORE memory reference: a PCORE array has 1 or 2 dimensions');
    return;
  }
  for (const it of items)
    if (it.plus) emit(it.expr.span, 'warning', 'tprog.plus-noop', '`+` (no bound check) only applies to MEM/SCRATCH dimensions; it is ignored here');
  const shape = d.pcoreShape;
  if (shape) {
    const n = shape.reduce((x, y) => x * y, 1);
    if (n > LIMITS.numPcore)
      emit(t.spec?.span ?? t.spaceSpan!, 'error', 'tprog.pcore-count', `This PCORE array has ${n} PCOREs; the machine has ${LIMITS.numPcore}`);
    for (const s of shape)
      if (s > 0 && (s & (s - 1)) !== 0)
        emit(
          t.spec?.span ?? t.spaceSpan!,
          'warning',
          'tprog.pcore-pow2',
          `PCORE array dimensions must be powers of two (guide); ${s} is not — \`[*]\` broadcast masks go wrong`,
        );
  }
  if (!t.member) {
    emit(t.span, 'error', 'tprog.no-member', 'PCORE function parameter not specified: a PCORE term ends with `.class::variable`');
    return;
  }
  const mname = t.member.name.text;
  if (t.thread?.spec && t.thread.spec.items.length > 2)
    emit(t.thread.spec.span, 'error', 'tprog.thread-spec', 'Invalid thread block dimension. Must be 1 or 2');
  let m = ti.member;
  if (!m && mname !== 'root.constant') {
    if (!/::/.test(mname)) {
      // guide dialect `class.var`
      const guess = mname.replace('.', '::');
      const fixes = a.pcore?.lookupMember(guess).ok ? [{ title: `Write ${guess}`, span: t.member.name.span, newText: guess }] : [];
      if (a.pcore?.lookupMember(guess).ok && a.dialect === 'guide') {
        const r = a.pcore.lookupMember(guess);
        if (r.ok) m = r.member;
        emit(t.member.name.span, 'hint', 'tprog.guide-member', `Guide dialect: the compiler writes \`${guess}\``, fixes);
      } else
        emit(
          t.member.name.span,
          'error',
          'tprog.bad-member',
          `Invalid function parameter: \`${mname}\` should be \`class::variable\` or \`class::kernel.parameter\``,
          fixes,
        );
    } else if (a.pcore) {
      const r = a.pcore.lookupMember(mname);
      if (!r.ok) {
        const cands = a.pcore.classNames().flatMap((c) => a.pcore!.members(c).map((x) => x.fullName));
        const near = cands.filter((x) => editDistance(x, mname) <= 3).sort((x, y) => editDistance(x, mname) - editDistance(y, mname));
        emit(
          t.member.name.span,
          'error',
          'tprog.unknown-member',
          `${r.reason === 'no-function' ? 'Undefined function name' : 'Undefined function parameter'}: ` +
            `${r.message}${near.length ? `; did you mean ${near[0]}?` : ''}`,
          near.slice(0, 3).map((n) => ({ title: `Change to ${n}`, span: t.member!.name.span, newText: n })),
        );
      }
    }
  }
  if (m && (m.storage === 'accumulator' || m.storage === 'integer' || m.storage === 'pointer' || m.global)) {
    emit(
      t.member.name.span,
      'error',
      'tprog.not-storage',
      `${m.fullName} is ` +
        (m.global
          ? 'a `_global int` parameter (a register: assign it with `' + m.fullName + ' <= INT16(v)`)'
          : `a ${m.type}${m.storage === 'accumulator' ? ' accumulator' : m.storage === 'pointer' ? ' pointer' : ' integer register'}`) +
        ', not PCORE memory: the compiler silently addresses word 0 instead',
    );
  }
  const shared = d.shared;
  const pdims = shape?.length ?? (items.length || 1);
  if (shared !== undefined && m) {
    if (shared && t.thread)
      emit(t.thread.span, 'error', 'tprog.shared-thread', `${mname} is a \`_share\` variable (one copy per PCORE): it takes no thread index`);
    const expectedMain = pdims + (shared || t.thread ? 0 : 1);
    if (t.indices.length !== expectedMain) {
      const msg = shared
        ? `Invalid range for PCORE memory space: the shared variable ${mname} needs ${pdims} PCORE ind${pdims === 1 ? 'ex' : 'ices'} and no thread index ` +
          `(found ${t.indices.length})`
        : t.thread
          ? `Invalid range for PCORE memory space: ${pdims} PCORE ind${pdims === 1 ? 'ex' : 'ices'} expected before .THREAD (found ${t.indices.length})`
          : `Invalid range for PCORE memory space: the private variable ${mname} needs ${pdims} PCORE ind${pdims === 1 ? 'ex' : 'ices'} and a thread index ` +
            `(found ${t.indices.length}); write \`[p][t]\` or \`.THREAD[t]\``;
      emit(t.indices[expectedMain]?.span ?? t.spaceSpan!, 'error', 'tprog.pcore-index-count', msg);
    }
    if (t.thread) {
      const tn = t.thread.spec?.items.length || 1;
      if (t.thread.indices.length !== tn)
        emit(
          t.thread.span,
          'error',
          'tprog.pcore-index-count',
          `Invalid range for PCORE memory space: .THREAD${t.thread.spec ? '(' + tn + ' dims)' : ''} needs ${tn} ind${tn === 1 ? 'ex' : 'ices'}`,
        );
      if (t.thread.spec) {
        const ts = t.thread.spec.items.map((it) => ev(it.expr.text));
        const prod = ts.every((x) => x !== undefined) ? (ts as number[]).reduce((x, y) => x * y, 1) : undefined;
        if (prod !== undefined && prod > LIMITS.numThread)
          emit(t.thread.spec.span, 'error', 'tprog.thread-count', `THREAD(${ts.join(',')}) has ${prod} threads; a PCORE has ${LIMITS.numThread}`);
      }
    }
    if (pdims + (shared ? 0 : t.thread?.spec?.items.length || 1) > 4)
      emit(t.span, 'error', 'tprog.too-deep', 'Array too deep: PCORE and thread dimensions together may be at most 4');
  }
  // member indices
  const midx = t.member.indices;
  const castItems = t.member.spec?.items;
  const mshape = d.memberShape ?? (castItems ? undefined : m?.shape);
  if (midx.length > 0 && (castItems?.length ?? mshape?.length) !== undefined) {
    const want = castItems?.length ?? mshape!.length;
    if (midx.length !== want)
      emit(
        t.member.span,
        'error',
        'tprog.member-index-count',
        `Invalid parameter reference: ${mname}${castItems ? '(' + castItems.map((c) => c.expr.text).join(',') + ')' : ''} ` +
          `has ${want} dimension${want === 1 ? '' : 's'}` +
          `${m && !castItems ? ` (${m.type}${m.shape.length ? ' [' + m.shape.join('][') + ']' : ''})` : ''} ` +
          `but ${midx.length} ind${midx.length === 1 ? 'ex is' : 'ices are'} given`,
      );
  }
  for (const i of midx) {
    if (i.kind === 'wildcard')
      emit(i.span, 'error', 'tprog.member-wildcard', 'Invalid parameter reference.: `[*]` is not allowed in a variable index (only on PCORE indices)');
    if (i.kind === 'placeholder')
      emit(i.span, 'error', 'tprog.placeholder', 'Invalid MCORE variable.: `[$]` is allowed on main indices only, not in a variable index');
  }
  if (castItems && m && d.memberShape) {
    const prod = d.memberShape.reduce((x, y) => x * y, 1);
    if (prod > m.len)
      emit(
        t.member.spec!.span,
        'warning',
        'tprog.cast-size',
        `The shape cast (${d.memberShape.join('×')} = ${prod} words) is larger than ${mname} (${m.len} words): it runs into the next variable`,
      );
  }
  for (const i of t.thread?.indices ?? [])
    if (i.kind === 'wildcard') emit(i.span, 'warning', 'tprog.wildcard-noop', '`[*]` on a thread index means thread 0 only');
  if (role === 'src')
    for (const i of t.indices)
      if (i.kind === 'wildcard') emit(i.span, 'warning', 'tprog.wildcard-noop', '`[*]` on a source means index 0 only (broadcast applies to destinations)');
}
