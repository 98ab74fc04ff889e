/**
 * The run values of each `>` statement: how many times it ran and what its last execution resolved (each
 * side's descriptor with the run's numbers, its data type, the elements moved, padded and skipped). One
 * entry per statement, overwritten at each execution — a run of millions of steps keeps as many entries
 * as its program has statements, and an execution costs one map lookup. The records the editor shows
 * (StatementRun, core/protocol/trace.ts) are made only when asked (at the end of a run, at a debugger
 * stop), in the static hover's own words (core/tprog/explain.ts), so a run's hover reads like the static one.
 */
import type { StmtInfo, TermInfo } from '../../tprog/analysis';
import type { Term } from '../../tprog/ast';
import { enumerate, levelValid, type Descriptor } from '../../tprog/descriptor';
import { termSummary, transferTable } from '../../tprog/explain';
import type { DataType } from '../../tprog/machineConstants';
import type { RunSide, StatementRun } from '../../protocol/trace';
import type { SourceLoc } from '../types';

/** What the executor knows of one side of a statement when it runs (engine/transfer.ts `Side`). */
export interface RanSide {
  desc: Descriptor;
  dtype: DataType;
}

interface Entry {
  info: StmtInfo;
  kind: 'transfer' | 'define';
  runs: number;
  step: number;
  process: 0 | 1;
  dst?: RanSide;
  src?: RanSide;
  elements: number;
  padded: number;
  skipped: number;
}

/**
 * Longest statement text, summary line and level label kept (a pathological term), within the protocol's limits
 * (StatementRunS, RunSideS): a record past them would fail the check of the whole table.
 */
const MAX_TEXT = (1 << 16) - 1;
const MAX_LINE = 4000;
const MAX_LABEL = 255;
function clip(x: string, max: number): string {
  return x.length > max ? x.slice(0, max) + '…' : x;
}

/** A transfer moved batch by batch while a debugger pauses between the batches (engine/stepped.ts). */
export interface RunningTransfer {
  info: StmtInfo;
  step: number;
  process: 0 | 1;
  dst: RanSide;
  src: RanSide;
  progress: { readonly done: number; readonly total: number; readonly stats: Partial<Stats> };
}

export class StatementRuns {
  private readonly entries = new Map<StmtInfo, Entry>();
  private running?: RunningTransfer;

  /**
   * `termOf`: the term a side's summary describes — a `$` variable's use is described by its definition
   * (the executor knows the process's variables), any other term by itself.
   */
  constructor(private readonly termOf: (t: Term, process: 0 | 1) => Term = (t) => t) {}

  /** Statement `info` ran (as trace step `step`): it replaces what its previous execution left. */
  note(info: StmtInfo, kind: Entry['kind'], step: number, process: 0 | 1, dst: RanSide | undefined, src: RanSide | undefined, st: Partial<Stats>): void {
    let e = this.entries.get(info);
    if (!e) {
      e = { info, kind, runs: 0, step, process, elements: 0, padded: 0, skipped: 0 };
      this.entries.set(info, e);
    }
    e.runs++;
    e.step = step;
    e.process = process;
    e.dst = dst && { desc: dst.desc, dtype: dst.dtype };
    e.src = src && { desc: src.desc, dtype: src.dtype };
    e.elements = st.elements ?? 0;
    e.padded = st.padded ?? 0;
    e.skipped = st.skipped ?? 0;
  }

  /** A transfer is being moved batch by batch (undefined: it has ended; `note` records it when it completes). */
  started(t: RunningTransfer | undefined): void {
    this.running = t;
  }

  /** One record per statement that ran, in source order (file, line, column); `locOf` places a statement as its trace steps are placed. */
  records(locOf: (info: StmtInfo, bufOffset: number) => SourceLoc): StatementRun[] {
    const out: StatementRun[] = [];
    const x = this.running;
    for (const e of this.entries.values()) {
      if (e.info === x?.info) continue;
      const r = this.record(e, locOf);
      if (r) out.push(r);
    }
    if (x) {
      // the execution in progress, counted with the ones before it
      const st = x.progress.stats;
      const e: Entry = {
        info: x.info,
        kind: 'transfer',
        runs: (this.entries.get(x.info)?.runs ?? 0) + 1,
        step: x.step,
        process: x.process,
        dst: x.dst,
        src: x.src,
        elements: st.elements ?? 0,
        padded: st.padded ?? 0,
        skipped: st.skipped ?? 0,
      };
      const r = this.record(e, locOf);
      if (r) out.push({ ...r, running: { done: x.progress.done, total: x.progress.total } });
    }
    return out.sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : x.line - y.line || x.column - y.column));
  }

  private record(e: Entry, locOf: (info: StmtInfo, bufOffset: number) => SourceLoc): StatementRun | undefined {
    const { info } = e;
    const s = info.stmt;
    const loc = locOf(info, s.span.start);
    const dst = e.dst && s.dst ? this.termInfo(s.dst, e.dst, e.process) : undefined;
    const src = e.src && s.src ? this.termInfo(s.src, e.src, e.process) : undefined;
    const dstSide = dst && sideOf(dst);
    const srcSide = src && sideOf(src);
    // a definition with a `[$]` placeholder has no size until it is used: nothing to show for it
    if ((e.dst && !dstSide) || (e.src && !srcSide)) return undefined;
    const r: StatementRun = {
      file: loc.file,
      line: Math.max(1, loc.line),
      column: Math.max(1, loc.column),
      endLine: Math.max(1, info.unit.buf.lastLine + 1),
      text: clip(info.unit.buf.text.slice(s.span.start, s.span.end), MAX_TEXT),
      kind: e.kind,
      runs: e.runs,
      step: e.step,
      process: e.process,
      elements: e.elements,
      padded: e.padded,
      skipped: e.skipped,
    };
    if (dstSide) r.dst = dstSide;
    if (srcSide) r.src = srcSide;
    if (e.kind === 'transfer' && dst && src) {
      // as many rows as the static hover shows (its default)
      const table = transferTable({ ...info, dst, src });
      // Stryker disable next-line ConditionalExpression: equivalent, a side sideOf resolved (total ≥ 1) always has a table
      if (table) r.table = table.slice(0, 1 << 16);
    }
    return r;
  }

  private termInfo(term: Term, ran: RanSide, process: 0 | 1): TermInfo {
    // the run's data type where the text leaves it to run time (DTYPE(t) with a variable t)
    const desc = ran.desc.dtype ? ran.desc : { ...ran.desc, dtype: ran.dtype };
    return { term: this.termOf(term, process), desc, member: desc.member };
  }
}

type Stats = Pick<Entry, 'elements' | 'padded' | 'skipped'>;

/** A number the record can carry exactly (not undefined, NaN, a fraction or past 2^53). */
function exact(x: number | undefined): x is number {
  return Number.isSafeInteger(x);
}

/** A side with the run's numbers; undefined when a size is not a number (a definition whose `[$]` is given at each use). */
function sideOf(ti: TermInfo): RunSide | undefined {
  const d = ti.desc;
  const total = d.space === 'CONST' ? 1 : d.total;
  if (!exact(total)) return undefined;
  const levels: RunSide['levels'] = [];
  for (const l of d.levels) {
    const { begin, step, count } = l;
    if (!exact(begin) || !exact(step) || !exact(count)) return undefined;
    levels.push({ label: clip(l.label, MAX_LABEL), begin, end: begin + (count - 1) * step, step, count });
  }
  const side: RunSide = {
    space: d.space === 'CONST' ? 'CONST' : d.written,
    // the run's type (termInfo gives it where the text leaves it to run time)
    dtype: d.dtype,
    elements: total,
    levels,
    summary: termSummary(ti).map((x) => clip(x, MAX_LINE)),
  };
  return Object.assign(side, endAddresses(d));
}

/** Address of the first and the last element in iteration order (bytes for MEM/SCRATCH, words for PCORE), and whether each is outside the bounds. */
function endAddresses(d: Descriptor): Pick<RunSide, 'first' | 'last' | 'firstOut' | 'lastOut'> | undefined {
  if (d.space !== 'MEM' && d.space !== 'SCRATCH' && d.space !== 'PCORE') return undefined;
  // (a descriptor's counts are at least 1, so there is a first element; a stride not known makes the ends NaN, not exact)
  const head = enumerate(d, 1)[0];
  let last = d.space === 'PCORE' ? (d.base ?? 0) : 0;
  let lastIn = true;
  for (const l of d.levels) {
    const idx = l.begin! + (l.count! - 1) * l.step!;
    last += idx * l.stride!;
    lastIn &&= levelValid(l, idx);
  }
  const el = Math.max(1, d.elemBytes);
  if (d.space !== 'PCORE' && last * el >= (d.bufLimit ?? Infinity)) lastIn = false;
  const first = head.loc;
  if (!exact(first) || !exact(last)) return undefined;
  const out = (r: Pick<RunSide, 'first' | 'last'>) => ({ ...r, ...(head.valid ? {} : { firstOut: true }), ...(lastIn ? {} : { lastOut: true }) });
  if (d.space === 'PCORE') return out({ first, last });
  if (d.base === undefined) return undefined;
  return out({ first: d.base + first * el, last: d.base + last * el });
}
