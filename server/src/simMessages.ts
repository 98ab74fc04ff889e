/**
 * The messages between the language server (simulator.ts) and its simulator worker (simWorker.ts), in
 * their own module so that neither side imports the other.
 */
import type { RunResultMessage } from '../../core/protocol/lspExt';
import type { RunConfig } from '../../core/sim/runConfig';
import type { RunWarning } from '../../core/sim/types';
import type { StatementRun } from '../../core/protocol/trace';

/**
 * A run's result as the worker posts it (simWorker.ts): the client's RunResultMessage with files as
 * paths (the server makes them URIs, runRequests.ts).
 */
export interface SimRunResult extends Omit<RunResultMessage, 'warnings' | 'error'> {
  warnings: RunWarning[];
  error: { file: string; line: number; column: number; message: string; kind: string; stack: string[] } | null;
}

/** A run: the program `file` (absolute) with its configuration; relative load and dump files start from the program's folder. */
export type WorkerRun = { type: 'run'; runId: number; file: string; overlay: Record<string, string> } & Omit<RunConfig, 'program'>;
/**
 * What each `>` statement of run `runId` did the last time it ran (the server keeps them for hovers and inlay
 * hints; not sent to the client), posted after the run's result (making them is not on the result's path).
 */
export interface WorkerStatements {
  type: 'statements';
  runId: number;
  statements: StatementRun[];
}
export interface WorkerRead {
  type: 'read';
  id: number;
  space: string;
  start: number;
  length: number;
  step?: number;
}
