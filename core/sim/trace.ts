/**
 * What a run's trace adds up to. The trace step itself (what one executed tensor statement did) is
 * core/protocol/trace.ts's: the simulator produces that record, and every layer reads it as it is.
 */
import { YIELD_KIND, type TraceStep } from '../protocol/trace';

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
