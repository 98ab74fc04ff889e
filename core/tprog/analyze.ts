/**
 * Analysis of one tensor-program document: statements, C context, values, resolved descriptors,
 * tensor variables and diagnostics. Everything the language server, the CLI and (later) the
 * simulator need comes from here. Parsing results are cached per statement text, so re-analysing
 * after an edit only re-parses the statements that changed.
 */
import type { Diagnostic, Range } from '../common/diagnostic';
import { LineIndex } from '../common/lineIndex';
import type { Span, Stmt, SyntaxProblem, Term } from './ast';
import { evaluate } from '../cexpr/evaluate';
import { scanC, type CContext, type MacroDef } from './ccontext';
import { checkDocument } from './check';
import { describe, type Descriptor } from './descriptor';
import { bufToDoc, scanTensorLines, type StatementBuffer, type TensorLineScan } from './lines';
import { parseBuffer, type ParseResult } from './parser';
import type { MemberInfo, PcoreIndexView } from './pcoreView';
import { ValueScope } from './values';

export type Dialect = 'auto' | 'ztachip' | 'guide';

export interface AnalyzeOptions {
  file?: string;
  dialect?: Dialect;
  pcore?: PcoreIndexView;
  /** Macros of headers the file includes (resolved by the host). */
  headerMacros?: MacroDef[];
  /** Parse cache shared across analyses of the same document. */
  cache?: ParseCache;
}

export class ParseCache {
  private map = new Map<string, ParseResult>();
  private next = new Map<string, ParseResult>();
  get(text: string): ParseResult {
    let r = this.next.get(text);
    if (r) return r;
    r = this.map.get(text);
    if (!r) {
      try {
        r = parseBuffer(text);
      } catch (e) {
        r = { stmts: [], problems: [{ span: { start: 0, end: text.length }, code: 'tprog.internal', severity: 'error', message: `internal error while parsing this statement: ${(e as Error).message}` }] };
      }
    }
    this.next.set(text, r);
    return r;
  }
  /** Drops entries not used since the previous `sweep` (keeps memory bounded by the document). */
  sweep(): void {
    this.map = this.next;
    this.next = new Map();
  }
}

export interface TermInfo {
  term: Term;
  desc: Descriptor;
  member?: MemberInfo;
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

export interface TprogAnalysis {
  file: string;
  text: string;
  lines: LineIndex;
  scan: TensorLineScan;
  c: CContext;
  values: ValueScope;
  units: Unit[];
  dialect: 'ztachip' | 'guide';
  usesGuide: boolean;
  pcore?: PcoreIndexView;
  varDefs: TensorVarDef[];
  varUses: TensorVarUse[];
  diagnostics: Diagnostic[];
  /** Converts a buffer span of a unit to a document range. */
  rangeOf(unit: Unit, span: Span): Range;
  docSpan(unit: Unit, span: Span): Span;
}

/** Which dialects' own constructs a document uses: guide (DDR, casts, SCATTER, PROC) and compiler (MEM, DTYPE, CONCURRENT, REMAP). */
function dialectUse(units: Unit[]): { guide: boolean; compiler: boolean } {
  let guide = false;
  let compiler = false;
  for (const u of units)
    for (const s of u.parsed.stmts) {
      if (s.proc) guide = true;
      for (const t of [s.dst, s.src]) {
        if (!t) continue;
        if (t.space === 'DDR' || t.prefixes.some((p) => p.kind === 'CAST' || p.kind === 'SCATTER')) guide = true;
        if (t.space === 'MEM' || t.prefixes.some((p) => p.kind === 'DTYPE' || p.kind === 'CONCURRENT' || p.kind === 'REMAP')) compiler = true;
      }
    }
  return { guide, compiler };
}

export function analyzeTprog(text: string, opts: AnalyzeOptions = {}): TprogAnalysis {
  const file = opts.file ?? '';
  const lines = new LineIndex(text);
  const scan = scanTensorLines(text);
  const c = scanC(text, scan.tensorLines, file);
  const values = new ValueScope(c, opts.headerMacros ?? []);
  const cache = opts.cache ?? new ParseCache();
  const units: Unit[] = scan.statements.map((buf) => ({ buf, parsed: cache.get(buf.text), stmts: [] }));
  cache.sweep();
  const use = dialectUse(units);
  const usesGuide = use.guide;
  // auto: a file written only with the guide's constructs is read in the guide dialect
  const dialect = opts.dialect === 'ztachip' || opts.dialect === 'guide' ? opts.dialect : use.guide && !use.compiler ? 'guide' : 'ztachip';
  const a: TprogAnalysis = {
    file,
    text,
    lines,
    scan,
    c,
    values,
    units,
    dialect,
    usesGuide,
    pcore: opts.pcore,
    varDefs: [],
    varUses: [],
    diagnostics: [],
    rangeOf: (unit, span) => lines.range(bufToDoc(unit.buf, span.start), bufToDoc(unit.buf, span.end)),
    docSpan: (unit, span) => ({ start: bufToDoc(unit.buf, span.start), end: bufToDoc(unit.buf, span.end) }),
  };
  for (const unit of units) {
    const offset = unit.buf.markerOffset;
    const resolve = values.resolverAt(offset);
    const fn = values.functionAt(offset)?.fn.name;
    const ev = (t: string) => evaluate(t, resolve);
    for (const stmt of unit.parsed.stmts) {
      const info: StmtInfo = { stmt, unit, fn, resolve };
      for (const side of ['dst', 'src'] as const) {
        const term = stmt[side];
        if (!term) continue;
        let member: MemberInfo | undefined;
        if (term.kind === 'space' && term.member && opts.pcore) {
          const r = opts.pcore.lookupMember(term.member.name.text);
          if (r.ok) member = r.member;
        }
        try {
          info[side] = { term, member, desc: describe(term, { ev, member }) };
        } catch (e) {
          a.diagnostics.push(internalError(a, unit, term.span, e));
        }
      }
      unit.stmts.push(info);
    }
  }
  try {
    checkDocument(a, opts);
  } catch (e) {
    a.diagnostics.push({ range: lines.range(0, 0), severity: 'error', code: 'tprog.internal', message: `internal error in the checker (please report): ${(e as Error).message}` });
  }
  return a;
}


export function internalError(a: TprogAnalysis, unit: Unit, span: Span, e: unknown): Diagnostic {
  return { range: a.rangeOf(unit, span), severity: 'error', code: 'tprog.internal', message: `internal error while analysing this statement (please report): ${(e as Error)?.message ?? e}` };
}

export function problemToDiagnostic(a: TprogAnalysis, unit: Unit, p: SyntaxProblem): Diagnostic {
  const range = a.rangeOf(unit, p.span);
  const d: Diagnostic = { range, severity: p.severity, code: p.code, message: p.message };
  if (p.fix) d.fixes = [{ title: p.fix.title, edits: [{ range: a.rangeOf(unit, p.fix.span), newText: p.fix.newText }], preferred: true }];
  return d;
}
