/**
 * Names in the C text of `>` statements that nothing declares: the ztachip compiler copies that text
 * into the generated C unchanged, so such a name is an error of the C compiler afterwards (the
 * typical case: an index `[II]` after `FOR(II=...)` was renamed, or a FOR name used in the other
 * term of the transfer — FOR names belong to their own term).
 */
import type { CText, Index, RangeParts, Span, Term } from './ast';
import type { Emit } from './analysis';
import { CNames, eachCName } from './cnames';
import type { StmtInfo, TprogAnalysis } from './analysis';

export const UNKNOWN_NAME = 'tprog.unknown-name';

/** Characters a C expression cannot end with (binary and unary operators; `++`/`--` are postfix). */
const DANGLING = new Uint8Array(128);
for (const ch of '+-*/%&|^<>=!~?,') DANGLING[ch.charCodeAt(0)] = 1;

function names(a: TprogAnalysis): CNames {
  return (a.cnames ??= new CNames(a));
}

/** Whether `name`, used in `span` of statement `info`, is declared in C. */
export function isDeclared(a: TprogAnalysis, info: StmtInfo, name: string, span: Span): boolean {
  return names(a).declared(name, a.docSpan(info.unit, span).start);
}

/**
 * Reports the undeclared names of `c` (a C text of statement `info`); `forNames` are the FOR names
 * of the term, which are C names only as a whole index.
 */
function checkCText(a: TprogAnalysis, info: StmtInfo, c: CText | undefined, emit: Emit, forNames: readonly string[] | undefined): void {
  if (!c || c.text === '') return;
  const s = info.unit.buf.text;
  const last = s.charCodeAt(c.span.end - 1);
  if (DANGLING[last] === 1 && !(c.span.end - c.span.start >= 2 && (last === 43 || last === 45) && s.charCodeAt(c.span.end - 2) === last)) {
    const op = String.fromCharCode(last);
    emit(
      { start: c.span.end - 1, end: c.span.end },
      'error',
      'tprog.dangling-operator',
      `Syntax error: \`${c.text}\` ends with \`${op}\`, an operator without its right operand; the compiler copies it into the generated C, which then does ` +
        `not compile. Complete the expression or remove the \`${op}\``,
    );
  }
  eachCName(s, c.span.start, c.span.end, (start, end) => {
    const id = s.slice(start, end);
    const n = names(a);
    if (n.declared(id, a.docSpan(info.unit, { start, end }).start)) return;
    const span: Span = { start, end };
    const certain = n.headersKnown();
    // the guide's programs are fragments that leave names undeclared: only a warning there
    const severity = !certain ? 'information' : a.dialect === 'guide' ? 'warning' : 'error';
    const why = certain
      ? 'the compiler copies it into the generated C, which then does not compile'
      : 'an included header was not found, so it may be declared there; if not, the generated C does not compile';
    if (forNames?.includes(id))
      emit(
        span,
        severity,
        UNKNOWN_NAME,
        `\`${id}\` here is not the FOR index ${id}: only an index written exactly \`[${id}]\` takes the FOR's range, and there is no C ` +
          `variable ${id} (${why}). Write \`[${id}]\` alone, or compute the value into a C variable`,
      );
    else
      emit(
        span,
        severity,
        UNKNOWN_NAME,
        `\`${id}\` is neither a FOR name of this term nor a C variable, macro or function declared here (${why}). Declare it in C, fix the spelling, or ` +
          'write the FOR that defines it on this term',
      );
  });
}

/** Reports the `,` before an empty dimension item that starts at `at` (`MEM(p,)`, `cls::v(2,)`). */
function emptyItem(info: StmtInfo, at: number, emit: Emit): void {
  const s = info.unit.buf.text;
  let c = at - 1;
  while (c > 0 && s.charCodeAt(c) !== 44) c--;
  emit(
    { start: c, end: c + 1 },
    'error',
    'tprog.empty-item',
    'Empty dimension: nothing follows this `,`; the compiler copies the empty item into the generated C, which then does not compile. Write the dimension ' +
      'or remove the `,`',
  );
}

function checkRangeParts(a: TprogAnalysis, info: StmtInfo, r: RangeParts, emit: Emit, forNames: readonly string[] | undefined): void {
  checkCText(a, info, r.begin, emit, forNames);
  checkCText(a, info, r.step, emit, forNames);
  checkCText(a, info, r.end, emit, forNames);
}

/** Reports undeclared names in every C text of term `t` (dimensions, indices, FOR ranges, PAD, REMAP, constant). */
export function checkTermNames(a: TprogAnalysis, info: StmtInfo, t: Term, forNames: readonly string[] | undefined, emit: Emit): void {
  // (the guide's examples use names such as `p` for any address: its terms are not checked)
  if (a.dialect === 'guide') return;
  for (const p of t.prefixes) {
    if (p.kind === 'FOR') {
      if (p.forRange) checkRangeParts(a, info, p.forRange, emit, undefined);
    } else if (p.kind === 'PAD' || p.kind === 'REMAP') checkCText(a, info, p.arg, emit, undefined);
  }
  checkCText(a, info, t.constValue, emit, undefined);
  const spec = (sp: Term['spec']) => {
    if (sp)
      for (let k = 0; k < sp.items.length; k++) {
        const it = sp.items[k];
        if (it.expr.text === '' && !it.group && k > 0) emptyItem(info, it.expr.span.start, emit);
        checkCText(a, info, it.expr, emit, undefined);
        if (it.group) for (const g of it.group) checkCText(a, info, g.expr, emit, undefined);
      }
  };
  const indices = (list: readonly Index[]) => {
    for (const i of list) {
      if (i.kind === 'single') checkCText(a, info, i.single, emit, forNames);
      else if (i.kind === 'range' && i.range) checkRangeParts(a, info, i.range, emit, forNames);
    }
  };
  spec(t.spec);
  indices(t.indices);
  if (t.varIndex) indices([t.varIndex]);
  if (t.thread) {
    spec(t.thread.spec);
    indices(t.thread.indices);
  }
  if (t.member) {
    spec(t.member.spec);
    indices(t.member.indices);
  }
}

/** Reports undeclared names in the arguments of an EXE, CALLBACK or PRINT statement. */
export function checkArgNames(a: TprogAnalysis, info: StmtInfo, args: readonly CText[], emit: Emit): void {
  for (const c of args) checkCText(a, info, c, emit, undefined);
}
