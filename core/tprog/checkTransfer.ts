/** Checks of a transfer `dst <= src`: the two terms together (data types, counts, bounds), PROC, global assignments. */
import type { Span, Term } from './ast';
import type { Emit, StmtInfo, TprogAnalysis } from './analysis';
import { invalidCount } from './descriptor';
import { canonicalType } from './machineConstants';
import { checkTerm } from './checkTerm';
import type { VarTable } from './checkVars';

export function checkTransfer(a: TprogAnalysis, info: StmtInfo, emit: Emit, vars: VarTable, ev: (t: string) => number | undefined): void {
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
