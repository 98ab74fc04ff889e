/**
 * A trace step: what one executed tensor statement did. The simulator produces these (core/sim/engine/
 * execute.ts) and every other layer reads them as they are: the language server's run result
 * (`tensorLens/run`, lspExt.ts), the memory inspector's `steps` answer (webview.ts), the debugger's
 * `tensorTrace` request and event (debug/target.ts), the CLI's `--json`. So the record is defined once,
 * here, as a schema with its type inferred from it: a receiver that gets steps from another process or
 * thread checks them with `checkTraceSteps` instead of casting.
 */
import { S, int, type Infer } from './schema';

/**
 * Elements a step read or wrote: a memory space (MEM, SCRATCH, PCORE0, PCORE0S, …, SPU) and the
 * inclusive range of its elements (bytes for MEM/SCRATCH, words for PCORE/SPU), with how many of them.
 */
export const TouchedS = S.obj({ space: S.str(256), lo: int(0), hi: int(0), count: int(0) });
export type Touched = Infer<typeof TouchedS>;

export const TraceStepS = S.obj({
  /** Step number (0-based, in execution order). */
  step: int(0),
  /** The statement's kind (`transfer`, `exe`, …; `yield` for a process switch, see YIELD_KIND). */
  kind: S.str(64),
  /** 1-based source position of the statement's first character, and its last line. */
  file: S.str(4096),
  line: int(0),
  column: int(0),
  endLine: int(0),
  /** Statement text as compiled (one line, `>` lines joined). */
  text: S.str(1 << 16),
  /** Tensor-engine process (hart) that ran it. */
  process: S.lit(0, 1),
  elements: int(0),
  padded: int(0),
  skipped: int(0),
  read: S.opt(TouchedS),
  written: S.opt(TouchedS),
  /** For EXE: kernel name and lane operations executed. */
  kernel: S.opt(S.str(256)),
  laneOps: S.opt(int(0)),
  /** Pages (4 KiB; PCORE pages are 2048 words) whose contents this step changed, per space. */
  changed: S.rec(S.arr(int(0))),
  /**
   * Pages that host C code changed since the previous step, before this one ran (MEM). Their old
   * contents are in the history under the key `step − 0.5` (see core/sim/history.ts).
   */
  hostChanged: S.opt(S.rec(S.arr(int(0)))),
  /** For a `register` step and steps started by a register store: the register `ZTAM_GREG(r2,r,·)` and the value stored. */
  register: S.opt(S.obj({ r2: S.num({ int: true }), r: S.num({ int: true }), value: S.num({ int: true }) })),
});
export type TraceStep = Infer<typeof TraceStepS>;

/**
 * Trace step kinds besides the tensor statements' (`transfer`, `exe`, `define`, `global`, `prog`,
 * `print`, `callback`, `barrier`, `log_on`, `log_off`):
 * - `yield`: a hart reached `ztaTaskYield()` inside `ztaDualHartExecute` and switches process; the
 *   step is at the call, `process` is the yielding process; it changes no memory.
 * - steps started by host C stores to ztachip registers (`ZTAM_GREG`) have the kind of their effect
 *   (`exe`, `print`, `callback`, `barrier`, `log_on`, `log_off`, `global`) and a `register` field.
 */
export const YIELD_KIND = 'yield';

/** A slice of a run's trace and the run's step count: the debugger's `tensorTrace` answer and event. */
export const TraceSliceS = S.obj({ total: int(0), steps: S.arr(TraceStepS) });
export type TraceSlice = Infer<typeof TraceSliceS>;

/** Undefined when `x` is a list of trace steps; otherwise what is wrong (the path names the step). */
export function traceStepsError(x: unknown, what = 'trace'): string | undefined {
  return S.arr(TraceStepS).check(x, what);
}

/** `x` as trace steps, checked (steps that come from another process or thread); throws saying what is wrong. */
export function checkTraceSteps(x: unknown, what = 'trace'): TraceStep[] {
  const e = traceStepsError(x, what);
  if (e) throw new Error(`not a trace: ${e}`);
  return x as TraceStep[];
}

/** `x` as a trace slice (`{ total, steps }`), checked; throws saying what is wrong. */
export function checkTraceSlice(x: unknown, what = 'tensorTrace'): TraceSlice {
  const e = TraceSliceS.check(x, what);
  if (e) throw new Error(`not a trace slice: ${e}`);
  return x as TraceSlice;
}

/**
 * One side of a `>` statement as it last ran, with the run's values: the hover and inlay hints show it
 * where the program's text leaves sizes to run time (core/tprog/features/runValues.ts).
 */
export const RunSideS = S.obj({
  /** The memory space as written (`MEM`, `DDR`, `SCRATCH`, `PCORE`, `SPU`, `PROG`), or `CONST` for a constant source. */
  space: S.str(64),
  dtype: S.opt(S.str(64)),
  elements: int(0),
  /** Each level's resolved range, outermost first (`end` = begin + (count − 1)·step). */
  levels: S.arr(S.obj({ label: S.str(256), begin: S.num({ int: true }), end: S.num({ int: true }), step: S.num({ int: true }), count: int(0) }), 64),
  /**
   * Addresses of the first and the last element in iteration order: bytes for MEM/SCRATCH, words
   * (`pcore·4096 + thread·256 + offset`) for PCORE; absent when the term has none (a constant, SPU, PROG).
   */
  first: S.opt(S.num({ int: true })),
  last: S.opt(S.num({ int: true })),
  /** The first (last) element is outside the term's bounds: a padded read, a skipped write (its address is not accessed). */
  firstOut: S.opt(S.bool()),
  lastOut: S.opt(S.bool()),
  /** The term as the static hover describes it, with the run's numbers (Markdown lines, program text escaped). */
  summary: S.arr(S.str(1 << 12), 64),
});
export type RunSide = Infer<typeof RunSideS>;

/**
 * What one `>` transfer or tensor-variable definition did the last time it ran: the simulator keeps one
 * such record per statement (core/sim/engine/statementRuns.ts), never one per execution.
 */
export const StatementRunS = S.obj({
  /** Where the statement starts (1-based) and its text as compiled, as in its trace steps. */
  file: S.str(4096),
  line: int(1),
  column: int(1),
  endLine: int(1),
  text: S.str(1 << 16),
  /** `transfer` or `define` (a `$` tensor variable). */
  kind: S.str(64),
  /** How many times it ran; the rest is its last execution (trace step `step`, by process `process`). */
  runs: int(1),
  step: int(0),
  process: S.lit(0, 1),
  elements: int(0),
  padded: int(0),
  skipped: int(0),
  dst: S.opt(RunSideS),
  src: S.opt(RunSideS),
  /** The first element pairs as the static hover's table shows them, with the run's values. */
  table: S.opt(S.str(1 << 16)),
  /**
   * At a debugger stop inside this transfer (Step Into): the last execution is the one in progress, `done` of its
   * `total` elements moved so far (`runs` counts it; `elements`, `padded` and `skipped` are so far).
   */
  running: S.opt(S.obj({ done: int(0), total: int(0) })),
});
export type StatementRun = Infer<typeof StatementRunS>;

/** `x` as statement records, checked (they come from another thread or process); throws saying what is wrong. */
export function checkStatementRuns(x: unknown, what = 'statements'): StatementRun[] {
  const e = S.arr(StatementRunS, 1 << 20).check(x, what);
  if (e) throw new Error(`not a table of statement runs: ${e}`);
  return x as StatementRun[];
}
