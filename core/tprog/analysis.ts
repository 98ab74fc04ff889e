/**
 * The result of analysing one tensor-program document (what `analyzeTprog` in analyze.ts builds and
 * the checker, the features and the simulator read): its statement units, their described terms,
 * tensor variables and diagnostics. A file of its own so that the checker (check.ts, checkFor.ts,
 * checkNames.ts, cnames.ts), which analyze.ts calls, does not import analyze.ts back.
 */
import type { Diagnostic, Range, Severity } from '../common/diagnostic';
import type { Span, Stmt, Term } from './ast';
import type { CNames, CNamesSource } from './cnames';
import type { Descriptor } from './descriptor';
import type { StatementBuffer } from './lines';
import type { ParseResult } from './parser';
import type { MemberInfo, PcoreIndexView } from './pcoreView';

/** A diagnostic of one unit, in buffer offsets (so it survives the unit moving in the document). */
export interface UnitDiag {
  span: Span;
  severity: Diagnostic['severity'];
  code: string;
  message: string;
  fixes?: { title: string; span: Span; newText: string }[];
}

/**
 * Descriptors and diagnostics of one statement buffer. They depend only on the buffer text, the C
 * scope at the buffer (function and the locals declared before it), the C context's values
 * (`fingerprint`), the PCORE program, the headers and the dialect. The diagnostics of units that use
 * `$` tensor variables also depend on the statements before them: they are computed every time.
 */
export interface UnitMemo {
  /** The enclosing function's fingerprint and its locals declared before the buffer's first and last line. */
  fnPrint: string;
  from: number;
  to: number;
  unterminated: boolean;
  /** No `$` tensor variable: the unit's diagnostics do not depend on the statements before it. */
  varsFree: boolean;
  stmts: { stmt: Stmt; dst?: TermInfo; src?: TermInfo }[];
  diags?: UnitDiag[];
}

export interface TermInfo {
  term: Term;
  desc: Descriptor;
  member?: MemberInfo;
  /** What the checker said of the term (see `checkTerm`): valid as long as the TermInfo is. */
  checked?: { role: string; emits: UnitDiag[]; desc?: Descriptor };
}

export interface StmtInfo {
  stmt: Stmt;
  unit: Unit;
  dst?: TermInfo;
  src?: TermInfo;
  /** Name of the enclosing C function. */
  fn?: string;
  resolve: (name: string) => number | undefined;
}

export interface Unit {
  buf: StatementBuffer;
  parsed: ParseResult;
  stmts: StmtInfo[];
  /** Memo entry of this unit: reused (`memoHit`) or being filled; undefined after an internal error. */
  memo?: UnitMemo;
  memoHit?: boolean;
}

export interface TensorVarDef {
  name: string;
  info?: StmtInfo;
  /** Document range of the name at its definition (or VAR declaration). */
  range: Range;
  slot: number;
  hasPlaceholder: boolean;
}

export interface TensorVarUse {
  name: string;
  range: Range;
  def?: TensorVarDef;
  info: StmtInfo;
}

/**
 * The scanned document — `file`, `text`, `lines`, `scan` (its `>` lines), `c` (the C context), `values`
 * and `headerNames()` (variables and functions declared by the included headers, see
 * AnalyzeOptions.headerNames) — comes from `CNamesSource`, declared where the C-name answers read it.
 */
export interface TprogAnalysis extends CNamesSource {
  units: Unit[];
  dialect: 'ztachip' | 'guide';
  usesGuide: boolean;
  pcore?: PcoreIndexView;
  varDefs: TensorVarDef[];
  varUses: TensorVarUse[];
  diagnostics: Diagnostic[];
  /** Which C names are declared (made by the checker when a statement uses one). */
  cnames?: CNames;
  /** Converts a buffer span of a unit to a document range. */
  rangeOf(unit: Unit, span: Span): Range;
  docSpan(unit: Unit, span: Span): Span;
}

/** How the checker reports a diagnostic of a unit (collected as `UnitDiag`s). */
export type Emit = (span: Span, severity: Severity, code: string, message: string, fixes?: { title: string; span: Span; newText: string }[]) => void;

export function internalError(a: TprogAnalysis, unit: Unit, span: Span, e: unknown): Diagnostic {
  return {
    range: a.rangeOf(unit, span),
    severity: 'error',
    code: 'tprog.internal',
    message: `internal error while analysing this statement (please report): ${(e as Error)?.message ?? e}`,
  };
}
