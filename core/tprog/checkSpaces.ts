/** Checks of a term's memory space: MEM/SCRATCH (address, dimensions, indices) and PCORE (array, thread, member). */
import type { Term } from './ast';
import type { Emit, TermInfo, TprogAnalysis } from './analysis';
import type { Descriptor } from './descriptor';
import { LIMITS } from './machineConstants';
import { editDistance, type Role } from './checkCommon';

function looksLikeCall(text: string): boolean {
  return /^[A-Za-z_]\w*\s*\(/.test(text);
}

export function checkLinear(a: TprogAnalysis, t: Term, d: Descriptor, role: Role, emit: Emit): void {
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

export function checkPcore(a: TprogAnalysis, ti: TermInfo, role: Role, emit: Emit, ev: (t: string) => number | undefined): void {
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
