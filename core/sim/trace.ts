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
}

export interface RunSummary {
  steps: number;
  statements: number;
  bytesMoved: number;
  hostSteps: number;
  laneOps: number;
  timeMs: number;
}
