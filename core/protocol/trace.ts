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
