/**
 * What the debug adapter (session.ts, on the editor's thread) and the debug target (target.ts, in a
 * worker thread running the simulator) say to each other, and the shared control words.
 *
 * The adapter → target direction goes through a MessagePort that the target reads with
 * `receiveMessageOnPort` (it never returns to its event loop while the program runs or is paused):
 * after posting, the adapter bumps `WAKE` and notifies (wakes a paused target) and sets the `MSG`
 * bit of `CTL` (a running target looks at its messages before the next statement).
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { RunConfig } from '../core/sim/runConfig';

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

/**
 * The requests the target answers (the adapter forwards them, session.ts), with their arguments: the
 * DAP requests' own argument types, and the custom requests of the extension (the Tensor Trace view,
 * the memory inspector's debug source core/inspect/debugSource.ts). Arguments come from a client, so
 * the target still coerces the numbers it reads.
 */
export interface TargetRequestArgs {
  configurationDone: DebugProtocol.ConfigurationDoneArguments;
  setBreakpoints: DebugProtocol.SetBreakpointsArguments;
  setExceptionBreakpoints: DebugProtocol.SetExceptionBreakpointsArguments;
  dataBreakpointInfo: DebugProtocol.DataBreakpointInfoArguments;
  setDataBreakpoints: DebugProtocol.SetDataBreakpointsArguments;
  continue: DebugProtocol.ContinueArguments;
  next: DebugProtocol.NextArguments;
  stepIn: DebugProtocol.StepInArguments;
  stepOut: DebugProtocol.StepOutArguments;
  stackTrace: DebugProtocol.StackTraceArguments;
  scopes: DebugProtocol.ScopesArguments;
  variables: DebugProtocol.VariablesArguments;
  evaluate: DebugProtocol.EvaluateArguments;
  setVariable: DebugProtocol.SetVariableArguments;
  setExpression: DebugProtocol.SetExpressionArguments;
  readMemory: DebugProtocol.ReadMemoryArguments;
  writeMemory: DebugProtocol.WriteMemoryArguments;
  exceptionInfo: DebugProtocol.ExceptionInfoArguments;
  /**
   * Executed tensor steps `start..start+count` (answered with a TraceSlice, core/protocol/trace.ts;
   * also sent as a `tensorTrace` event when the program ends).
   */
  tensorTrace: { start?: number; count?: number };
  /** The stops so far (from `from`), with the pages each changed. */
  memoryStops: { from?: number; count?: number };
  /** Bytes of a space as they were at stop `stop`. */
  memoryAtStop: { space: string; offset?: number; length?: number; stop: number };
  /** Every stop point of the program (tests). */
  stopPoints: Record<string, never>;
  /**
   * What each `>` statement did up to now — how many times it ran and its last execution's values
   * (`{ statements: StatementRun[] }`, core/protocol/trace.ts); the extension sends them to the language
   * server at each stop for the hovers and inlay hints "at this stop".
   */
  runValues: Record<string, never>;
}

export type TargetCommand = keyof TargetRequestArgs;

/** Every command the target answers (the adapter forwards exactly these). */
export const TARGET_COMMANDS: ReadonlySet<string> = new Set<TargetCommand>([
  'setBreakpoints',
  'setExceptionBreakpoints',
  'configurationDone',
  'stackTrace',
  'scopes',
  'variables',
  'evaluate',
  'setVariable',
  'setExpression',
  'continue',
  'next',
  'stepIn',
  'stepOut',
  'readMemory',
  'writeMemory',
  'dataBreakpointInfo',
  'setDataBreakpoints',
  'exceptionInfo',
  'tensorTrace',
  'stopPoints',
  'memoryStops',
  'memoryAtStop',
  'runValues',
]);

export function isTargetCommand(command: string): command is TargetCommand {
  return TARGET_COMMANDS.has(command);
}

export type ToTarget = { [C in TargetCommand]: { t: 'req'; seq: number; command: C; args: TargetRequestArgs[C] } }[TargetCommand];

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
