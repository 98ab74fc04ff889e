/**
 * Checks of one term: its prefixes, a tensor variable's use, a constant, a memory space with its
 * indices and FOR names, and the problems of its descriptor; MEM/SCRATCH and PCORE specifics are in
 * `checkSpaces.ts`.
 */
import { identifiers } from '../cexpr/evaluate';
import type { Index, RangeParts, Span } from './ast';
import type { Emit, StmtInfo, TermInfo, TprogAnalysis, UnitDiag } from './analysis';
import type { Descriptor } from './descriptor';
import { LIMITS } from './machineConstants';
import { checkForPrefixes } from './checkFor';
import { checkTermNames, isDeclared, UNKNOWN_NAME } from './checkNames';
import { editDistance, hasCode, type Role } from './checkCommon';
import { checkLinear, checkPcore } from './checkSpaces';
import type { VarTable } from './checkVars';

const CLOSEST_SPACE = ['PCORE', 'MEM', 'SCRATCH', 'SPU', 'PROG'];
const CHECKED_SPACES = new Set(['PCORE', 'MEM', 'SCRATCH', 'SPU', 'PROG', 'DDR']);

/**
 * Checks a term; returns its descriptor only when the term is structurally sound (so counts are
 * meaningful). The result of a term that is not a tensor variable depends only on what its memoised
 * `TermInfo` depends on: it is kept there and replayed.
 */
export function checkTerm(
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
  else if ((sp === 'SPU' || sp === 'PROG') && t.indices.length) {
    // the compiler ignores them: an SPU term is every word of its tables, a PROG term its whole entries
    const whole = d.levels[0]?.count;
    const span = { start: t.indices[0].span.start, end: t.indices[t.indices.length - 1].span.end };
    emit(
      span,
      'warning',
      'tprog.index-ignored',
      `The ztachip compiler ignores indices on ${sp}: the transfer moves all ${whole ?? 'its'} words` +
        (sp === 'SPU' ? ' of the stream tables (256 per table; `SPU(n)` loads n tables)' : ' of the program (4 per entry)'),
    );
  }
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

function checkRange(r: RangeParts, span: Span, emit: Emit, ev: (t: string) => number | undefined): void {
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
