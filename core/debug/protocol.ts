/**
 * What the debug adapter (session.ts, on the editor's thread) and the debug target (target.ts, in a
 * worker thread running the simulator) say to each other, and the shared control words.
 *
 * The adapter → target direction goes through a MessagePort that the target reads with
 * `receiveMessageOnPort` (it never returns to its event loop while the program runs or is paused):
 * after posting, the adapter bumps `WAKE` and notifies (wakes a paused target) and sets the `MSG`
 * bit of `CTL` (a running target looks at its messages before the next statement).
 */
import type { RunConfig } from '../sim/runConfig';

/** Int32 slots of the shared control buffer. */
export const CTL = 0;
export const WAKE = 1;
export const SHARED_INTS = 4;

/** Bits of `CTL`: any bit set makes every statement consult the debugger. */
export const STEP = 1;
export const PAUSE = 2;
export const MSG = 4;
export const WATCH = 8;

/**
 * The `tensor-lens` launch configuration: a run configuration (core/sim/runConfig.ts, which also
 * generates package.json's `contributes.debuggers` attributes) and how the session runs it. Loads and
 * dumps given as command-line text in launch.json are objects by the time they get here (session.ts).
 */
export interface LaunchArgs extends RunConfig {
  /** Stop at the first statement of the entry function. */
  stopOnEntry?: boolean;
  /** Print each executed `>` statement to the Debug Console (default true). */
  trace?: boolean;
  /** Folder that relative `program`, load, dump and include files start from (default: the program's folder). */
  cwd?: string;
  /** Unsaved editor contents by absolute path. */
  overlay?: Record<string, string>;
}

export type ToTarget = { t: 'req'; seq: number; command: string; args: unknown };

export type FromTarget =
  | { t: 'res'; seq: number; body?: unknown; error?: string }
  | { t: 'event'; event: string; body?: unknown }
  /** Compiled and ready for breakpoints (the adapter answers `launch` and sends `initialized`). */
  | { t: 'ready'; entry: string }
  | { t: 'launchError'; message: string }
  | { t: 'end'; exitCode: number };

export interface TargetWorkerData {
  sab: SharedArrayBuffer;
  port: unknown;
  launch: LaunchArgs;
}

/** The adapter's handle on a started target. */
export interface TargetProcess {
  on(event: 'error', cb: (e: Error) => void): unknown;
  on(event: 'exit', cb: (code: number) => void): unknown;
  terminate(): unknown;
}

/** Starts a target worker with `data` (its `port` is in `transfer`). */
export type TargetSpawner = (data: TargetWorkerData, transfer: unknown[]) => Promise<TargetProcess>;
