/**
 * Analysis of one tensor-program document: statements, C context, values, resolved descriptors,
 * tensor variables and diagnostics. Everything the language server, the CLI and (later) the
 * simulator need comes from here. Parsing results are cached per statement text, so re-analysing
 * after an edit only re-parses the statements that changed.
 */
import type { Diagnostic } from '../common/diagnostic';
import { LineIndex, lfLineEnds } from '../common/lineIndex';
import type { Span, SyntaxProblem, Term } from './ast';
import { evaluate } from '../cexpr/evaluate';
import { scanC, type CContext, type MacroDef } from './ccontext';
import { checkDocument } from './check';
import { describe } from './descriptor';
import { bufToDoc, rescanConfined, scanTensorLines, type TensorLineScan } from './lines';
import { parseBuffer, type ParseResult } from './parser';
import type { MemberInfo, PcoreIndexView } from './pcoreView';
import { ValueScope } from './values';
import { internalError, type StmtInfo, type TermInfo, type TprogAnalysis, type Unit, type UnitMemo } from './analysis';

// the types of what analyzeTprog returns (defined in analysis.ts, which the checker imports)
export type { StmtInfo, TensorVarDef, TensorVarUse, TermInfo, TprogAnalysis, Unit, UnitDiag, UnitMemo } from './analysis';

export type Dialect = 'auto' | 'ztachip' | 'guide';

export interface AnalyzeOptions {
  file?: string;
  dialect?: Dialect;
  pcore?: PcoreIndexView;
  /** Macros of headers the file includes (resolved by the host, from the file's own `#include`s). */
  headerMacros?: MacroDef[] | ((c: CContext) => MacroDef[]);
  /** Variables and functions the included headers declare (asked only when a statement uses a name nothing else declares). */
  headerNames?: (c: CContext) => ReadonlySet<string>;
  /** Parse cache shared across analyses of the same document. */
  cache?: ParseCache;
}

export class ParseCache {
  private map = new Map<string, ParseResult>();
  private next = new Map<string, ParseResult>();
  /** Per-unit results of the previous analysis (see `UnitMemo`), valid while `env` is unchanged. */
  memo = new Map<ParseResult, UnitMemo[]>();
  nextMemo = new Map<ParseResult, UnitMemo[]>();
  env?: MemoEnv;
  /** The previous document and its C context, for edits confined to one `>` line. */
  prev?: { text: string; lines: LineIndex; scan: TensorLineScan; c: CContext; fingerprint: string; values: ValueScope; headers: MacroDef[]; units?: Unit[] };
  get(text: string): ParseResult {
    let r = this.next.get(text);
    if (r) return r;
    r = this.map.get(text);
    if (!r) {
      try {
        r = parseBuffer(text);
      } catch (e) {
        r = {
          stmts: [],
          problems: [
            {
              span: { start: 0, end: text.length },
              code: 'tprog.internal',
              severity: 'error',
              message: `internal error while parsing this statement: ${(e as Error).message}`,
            },
          ],
        };
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
  sweepMemo(): void {
    this.memo = this.nextMemo;
    this.nextMemo = new Map();
  }
}

/** What every unit's results depend on besides its own text and C scope. */
interface MemoEnv {
  fingerprint: string;
  pcore?: PcoreIndexView;
  headers: MacroDef[];
  dialect: string;
}

function sameEnv(a: MemoEnv | undefined, b: MemoEnv): boolean {
  return !!a && a.fingerprint === b.fingerprint && a.pcore === b.pcore && a.dialect === b.dialect && sameList(a.headers, b.headers);
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** The statements of a unit before they are described (never mutated). */
const NO_STMTS: StmtInfo[] = [];

/** Which dialects' own constructs a document uses: guide (DDR, casts, SCATTER, PROC) and compiler (MEM, DTYPE, CONCURRENT, REMAP). */
function dialectUse(parsed: ParseResult[]): { guide: boolean; compiler: boolean } {
  let use = 0;
  for (let u = 0; u < parsed.length && use !== (USES_GUIDE | USES_COMPILER); u++) use |= parsed[u].dialectUse ??= dialectUseOf(parsed[u]);
  return { guide: (use & USES_GUIDE) !== 0, compiler: (use & USES_COMPILER) !== 0 };
}

const USES_GUIDE = 1;
const USES_COMPILER = 2;

/** The dialect constructs of one parse result (kept on it: a re-check looks at every statement again). */
function dialectUseOf(p: ParseResult): number {
  let use = 0;
  const term = (t: Term | undefined) => {
    if (!t) return;
    if (t.space === 'DDR') use |= USES_GUIDE;
    else if (t.space === 'MEM') use |= USES_COMPILER;
    for (let k = 0; k < t.prefixes.length; k++) {
      const kind = t.prefixes[k].kind;
      if (kind === 'CAST' || kind === 'SCATTER') use |= USES_GUIDE;
      else if (kind === 'DTYPE' || kind === 'CONCURRENT' || kind === 'REMAP') use |= USES_COMPILER;
    }
  };
  for (let k = 0; k < p.stmts.length; k++) {
    const s = p.stmts[k];
    if (s.proc) use |= USES_GUIDE;
    term(s.dst);
    term(s.src);
  }
  return use;
}

export function analyzeTprog(text: string, opts: AnalyzeOptions = {}): TprogAnalysis {
  // `\r` alone ends a line too (the scanners below split at `\n`; offsets do not move)
  text = lfLineEnds(text);
  const file = opts.file ?? '';
  const cache = opts.cache ?? new ParseCache();
  // an edit since the previous analysis that stays inside one `>` line keeps the lines, the line
  // scan outside the edited statement and the C context (shifted)
  let lines: LineIndex | undefined;
  let scan: TensorLineScan | undefined;
  let c: CContext | undefined;
  let fingerprint: string | undefined;
  /** The previous C context when `c` is it with later offsets moved (same names, same values). */
  let shiftedFrom: CContext | undefined;
  const prev = cache.prev;
  if (prev && prev.text === text) {
    // the same text again (a new version with no net change, a second open): nothing moved
    lines = prev.lines;
    scan = prev.scan;
    c = prev.c;
    fingerprint = prev.fingerprint;
  } else if (prev) {
    const edit = confinedEdit(prev.text, text, prev.scan, prev.lines);
    if (edit) {
      const line = prev.lines.position(edit.at).line;
      lines = LineIndex.withStarts(text, edit.delta === 0 ? prev.lines.starts : movedStarts(prev.lines.starts, line, edit.delta));
      scan = rescanConfined(prev.scan, prev.lines, text, line, edit.delta);
      c = edit.delta === 0 ? prev.c : shiftCContext(prev.c, edit.at, edit.delta);
      shiftedFrom = prev.c;
      fingerprint = prev.fingerprint;
    }
  }
  lines ??= new LineIndex(text);
  scan ??= scanTensorLines(text);
  if (!c) c = scanC(text, scan.tensorLines, file);
  const headerMacros = typeof opts.headerMacros === 'function' ? opts.headerMacros(c) : (opts.headerMacros ?? []);
  // the same C context and headers give the same values (and the scope's caches stay valid)
  const sameHeaders = !!prev && sameList(prev.headers, headerMacros);
  const values =
    prev && prev.c === c && sameHeaders
      ? prev.values
      : new ValueScope(c, headerMacros, prev && shiftedFrom === prev.c && sameHeaders ? prev.values : undefined);
  fingerprint ??= values.globalPrint();
  cache.prev = { text, lines, scan, c, fingerprint, values, headers: headerMacros };
  const parsed = scan.statements.map((buf) => cache.get(buf.text));
  cache.sweep();
  const use = dialectUse(parsed);
  const usesGuide = use.guide;
  // auto: a file written only with the guide's constructs is read in the guide dialect
  const dialect = opts.dialect === 'ztachip' || opts.dialect === 'guide' ? opts.dialect : use.guide && !use.compiler ? 'guide' : 'ztachip';
  const env: MemoEnv = { fingerprint, pcore: opts.pcore, headers: headerMacros, dialect };
  const envKept = sameEnv(cache.env, env);
  if (!envKept) {
    cache.memo.clear();
    cache.env = env;
  }
  // units of the previous analysis whose buffer object is unchanged (same text, not moved) are
  // reused whole while the values and the environment are the same
  const prevUnits = envKept && prev?.values === values ? prev.units : undefined;
  const units: Unit[] = new Array(parsed.length);
  cache.prev.units = units;
  let headerNames: ReadonlySet<string> | undefined;
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
    headerNames: () => (headerNames ??= opts.headerNames?.(c) ?? NO_NAMES),
    rangeOf: (unit, span) => lines.range(bufToDoc(unit.buf, span.start), bufToDoc(unit.buf, span.end)),
    docSpan: (unit, span) => ({ start: bufToDoc(unit.buf, span.start), end: bufToDoc(unit.buf, span.end) }),
  };
  const memoOf = (parsed: ParseResult, fnPrint: string, from: number, to: number, unterminated: boolean, map: Map<ParseResult, UnitMemo[]>) => {
    const list = map.get(parsed);
    if (list) for (const m of list) if (m.from === from && m.to === to && m.unterminated === unterminated && m.fnPrint === fnPrint) return m;
    return undefined;
  };
  const keep = (parsed: ParseResult, memo: UnitMemo) => {
    const list = cache.nextMemo.get(parsed);
    if (!list) cache.nextMemo.set(parsed, [memo]);
    else if (!list.includes(memo)) list.push(memo);
  };
  for (let u = 0; u < parsed.length; u++) {
    const buf = scan.statements[u];
    const old = prevUnits?.[u];
    if (old && old.buf === buf && old.parsed === parsed[u] && old.memo) {
      keep(old.parsed, old.memo);
      old.memoHit = true;
      units[u] = old;
      continue;
    }
    const unit: Unit = (units[u] = { buf, parsed: parsed[u], stmts: NO_STMTS });
    const offset = buf.markerOffset;
    const fnAt = values.functionAt(offset);
    const fn = fnAt?.fn.name;
    let memoable = true;
    const segs = buf.segments;
    const fnPrint = values.functionPrint(fnAt);
    const from = values.localsBefore(offset, fnAt);
    const resolve = values.sharedResolver(offset, fnAt, from);
    const to = segs.length > 1 ? values.localsBefore(segs[segs.length - 1].docStart, values.functionAt(segs[segs.length - 1].docStart)) : from;
    {
      const hit =
        memoOf(unit.parsed, fnPrint, from, to, buf.unterminated, cache.nextMemo) ?? memoOf(unit.parsed, fnPrint, from, to, buf.unterminated, cache.memo);
      if (hit) {
        keep(unit.parsed, hit);
        unit.memo = hit;
        unit.memoHit = true;
        // sized exactly (arrays grown by push keep spare capacity, and there is one per unit)
        unit.stmts = hit.stmts.map((m) => ({ stmt: m.stmt, unit, dst: m.dst, src: m.src, fn, resolve }));
        continue;
      }
    }
    const ev = (t: string) => evaluate(t, resolve);
    const describeTerm = (term: Term | undefined): TermInfo | undefined => {
      if (!term) return undefined;
      let member: MemberInfo | undefined;
      if (term.kind === 'space' && term.member && opts.pcore) {
        const r = opts.pcore.lookupMember(term.member.name.text);
        if (r.ok) member = r.member;
      }
      try {
        return { term, member, desc: describe(term, { ev, member }) };
      } catch (e) {
        a.diagnostics.push(internalError(a, unit, term.span, e));
        memoable = false; // an internal error is reported every time, not memoised
        return undefined;
      }
    };
    unit.stmts = unit.parsed.stmts.map((stmt): StmtInfo => ({ stmt, unit, fn, resolve, dst: describeTerm(stmt.dst), src: describeTerm(stmt.src) }));
    if (memoable) {
      // the memo keeps this unit's statement infos (only their stmt, dst and src are read from it)
      unit.memo = { fnPrint, from, to, unterminated: buf.unterminated, varsFree: !buf.text.includes('$'), stmts: unit.stmts };
      const list = cache.nextMemo.get(unit.parsed);
      if (list) list.push(unit.memo);
      else cache.nextMemo.set(unit.parsed, [unit.memo]);
    }
  }
  cache.sweepMemo();
  try {
    checkDocument(a);
  } catch (e) {
    a.diagnostics.push({
      range: lines.range(0, 0),
      severity: 'error',
      code: 'tprog.internal',
      message: `internal error in the checker (please report): ${(e as Error).message}`,
    });
  }
  return a;
}

/** Characters whose insertion or removal can change the C context or the brace depth. */
const C_SENSITIVE = /[\n\r{}/*"'\\#]/;

/**
 * When `next` differs from `prev` by one edit inside a single `>` line (after its marker) that
 * cannot change the C scan (no braces, comment or string delimiters, backslashes, line breaks),
 * returns where it is and how much later text moved.
 */
export function confinedEdit(prev: string, next: string, scan: TensorLineScan, lines: LineIndex): { at: number; delta: number } | undefined {
  const min = Math.min(prev.length, next.length);
  let p = 0;
  // common prefix, in chunks first (string comparison of slices is a memcmp)
  for (let step = 4096; step >= 1; step >>= 4) while (p + step <= min && prev.slice(p, p + step) === next.slice(p, p + step)) p += step;
  let s = 0;
  const maxS = min - p;
  for (let step = 4096; step >= 1; step >>= 4)
    while (s + step <= maxS && prev.slice(prev.length - s - step, prev.length - s) === next.slice(next.length - s - step, next.length - s)) s += step;
  const removed = prev.slice(p, prev.length - s);
  const inserted = next.slice(p, next.length - s);
  if (C_SENSITIVE.test(removed) || C_SENSITIVE.test(inserted)) return undefined;
  // the edited line is a `>` line (in both versions: the marker is before the edit) whose
  // previous line does not continue into it with a backslash
  const lineStart = next.lastIndexOf('\n', p - 1) + 1;
  let k = lineStart;
  while (k < p && (next[k] === ' ' || next[k] === '\t')) k++;
  if (k >= p || next[k] !== '>') return undefined;
  if (!scan.tensorLines.has(lines.position(p).line)) return undefined;
  if (lineStart >= 2) {
    let e = lineStart - 1;
    if (next[e - 1] === '\r') e--;
    if (next[e - 1] === '\\') return undefined;
  }
  return { at: p, delta: inserted.length - removed.length };
}

/** Line starts after line `line` moved by `delta`. */
function movedStarts(starts: number[], line: number, delta: number): number[] {
  const out = starts.slice();
  for (let i = line + 1; i < out.length; i++) out[i] += delta;
  return out;
}

/** The C context of a document in which the text at `at` grew by `delta` characters (inside a `>` line). */
function shiftCContext(c: CContext, at: number, delta: number): CContext {
  const sh = (sp: Span): Span =>
    sp.start >= at ? { start: sp.start + delta, end: sp.end + delta } : sp.end >= at ? { start: sp.start, end: sp.end + delta } : sp;
  return {
    macros: c.macros.map((m) => (m.span.end < at ? m : { ...m, nameSpan: sh(m.nameSpan), span: sh(m.span) })),
    includes: c.includes.map((i) => (i.span.end < at ? i : { ...i, span: sh(i.span) })),
    // functions and variables are most of a context: written out, not spread
    functions: c.functions.map((f) => (f.span.end < at ? f : { name: f.name, nameSpan: sh(f.nameSpan), span: sh(f.span), bodySpan: sh(f.bodySpan) })),
    vars: c.vars.map((v) => (v.nameSpan.end < at ? v : { name: v.name, init: v.init, nameSpan: sh(v.nameSpan), fn: v.fn, isArray: v.isArray, type: v.type })),
    mutated: c.mutated,
    kernelRefs: c.kernelRefs.map((k) => (k.span.end < at ? k : { ...k, span: sh(k.span) })),
    calls: c.calls.map((k) => (k.span.end < at ? k : { ...k, span: sh(k.span) })),
    recordBodies: c.recordBodies.map((b) => (b.end < at ? b : sh(b))),
  };
}

export function problemToDiagnostic(a: TprogAnalysis, unit: Unit, p: SyntaxProblem): Diagnostic {
  const range = a.rangeOf(unit, p.span);
  const d: Diagnostic = { range, severity: p.severity, code: p.code, message: p.message };
  if (p.fix) d.fixes = [{ title: p.fix.title, edits: [{ range: a.rangeOf(unit, p.fix.span), newText: p.fix.newText }], preferred: true }];
  return d;
}
