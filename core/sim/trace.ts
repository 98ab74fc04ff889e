/** What each executed tensor statement did: the record the memory inspector and the debugger build on. */
import type { Touched } from './engine/transfer';

export interface TraceStep {
  /** Step number (0-based, in execution order). */
  step: number;
  kind: string;
  /** 1-based source position of the statement's first character, and its last line. */
  file: string;
  line: number;
  column: number;
  endLine: number;
  /** Statement text as compiled (one line, `>` lines joined). */
  text: string;
  process: 0 | 1;
  elements: number;
  padded: number;
  skipped: number;
  read?: Touched;
  written?: Touched;
  /** For EXE: kernel name and lane operations executed. */
  kernel?: string;
  laneOps?: number;
  /** Pages (4 KiB; PCORE pages are 2048 words) whose contents this step changed, per space. */
  changed: Record<string, number[]>;
  /**
   * Pages that host C code changed since the previous step, before this one ran (MEM). Their old
   * contents are in the history under the key `step − 0.5` (see core/sim/history.ts).
   */
  hostChanged?: Record<string, number[]>;
  /** For a `register` step and steps started by a register store: the register `ZTAM_GREG(r2,r,·)` and the value stored. */
  register?: { r2: number; r: number; value: number };
}

/**
 * Trace step kinds besides the tensor statements' (`transfer`, `exe`, `define`, `global`, `prog`,
 * `print`, `callback`, `barrier`, `log_on`, `log_off`):
 * - `yield`: a hart reached `ztaTaskYield()` inside `ztaDualHartExecute` and switches process; the
 *   step is at the call, `process` is the yielding process; it changes no memory.
 * - steps started by host C stores to ztachip registers (`ZTAM_GREG`) have the kind of their effect
 *   (`exe`, `print`, `callback`, `barrier`, `log_on`, `log_off`, `global`) and a `register` field.
 */
export const YIELD_KIND = 'yield';

/** Tensor statements executed (the trace without process switches). */
export function countStatements(trace: readonly TraceStep[]): number {
  let n = 0;
  for (const s of trace) if (s.kind !== YIELD_KIND) n++;
  return n;
}

export interface RunSummary {
  steps: number;
  statements: number;
  bytesMoved: number;
  laneOps: number;
  timeMs: number;
}
