/**
 * Contracts between the parts of the embedded simulator:
 * - the machine (memories, tensor engine, trace) — core/sim/machine*.ts, core/sim/engine/*;
 * - the host C interpreter that runs the C of tensor programs — core/sim/host/*;
 * - the PCORE kernel interpreter that runs `.p` kernels for EXE_LOCKSTEP — core/sim/pcore/*.
 */

import { byteAddress } from '../common/address';

/** A source location in a file (1-based line and column, as printed to users). */
export interface SourceLoc {
  file: string;
  line: number;
  column: number;
}

/** Any run-time fault. The runner turns it into `file:line:col: error: message` plus the C call stack. */
export class SimError extends Error {
  constructor(
    message: string,
    public loc?: SourceLoc,
    /** Innermost first: `fn (file:line:col)`. */
    public stack_: string[] = [],
    /** `not-simulated`, `fault`, `budget`, `cancelled`, `compile`, `entry-args` (the entry's arguments do not match its parameters). */
    public kind: 'not-simulated' | 'fault' | 'budget' | 'cancelled' | 'compile' | 'entry-args' = 'fault',
  ) {
    super(message);
  }
  /** The term of the transfer at fault (its location is reported), when the fault is one side's. */
  side?: 'dst' | 'src';
}

/** A fault of one side of a transfer (reported at that term). */
export function sideFault(side: 'dst' | 'src', message: string): SimError {
  const e = new SimError(message);
  e.side = side;
  return e;
}

/**
 * An address in a fault message: bytes as hexadecimal in the 32-bit view a C program holds (a host
 * `uint32_t` past 0x7fffffff arrives here as a negative int), PCORE words in decimal.
 */
export function faultAddress(n: number, words = false): string {
  return words ? `word address ${n}` : `byte address ${byteAddress(n)}`;
}

/** Step budget and cancellation shared by every interpreter loop. */
export interface Budget {
  /** Steps left; interpreters decrement and throw SimError(kind 'budget') at 0. */
  steps: number;
  /** Set by the host to stop the run; checked at least every 65536 steps. */
  cancelled: boolean;
}

// ------------------------------------------------------------------ PCORE side

/** PCORE memory of one process page: 12-bit signed words stored in Int16Array. */
export interface PcorePage {
  /** 8 PCOREs × 4096 words: index = pcore*4096 + thread*256 + word (private words of all 16 threads). */
  priv: Int16Array;
  /** 8 PCOREs × 4096 words: index = pcore*4096 + word (shared words, `_share` variables and root.constant). */
  shared: Int16Array;
}

/** Per-process, per-thread state that persists across kernel launches (class `int`s, pointers, accumulators, _VMASK). */
export interface PcoreThreadState {
  [key: string]: unknown;
}

export interface KernelLaunch {
  /** `cls::name` of the kernel. */
  kernel: string;
  process: 0 | 1;
  numPcore: number;
  numThread: number;
  /** `_global int` parameter registers (slot 0 and 1), as written by `cls::f.g <= INT16(v)`. */
  globals: [number, number];
  page: PcorePage;
  budget: Budget;
  /** Where the launch is (the `>` EXE_LOCKSTEP statement), for error messages. */
  at: SourceLoc;
}

export interface PcoreRunner {
  /** Runs the kernel for every PCORE < numPcore and thread < numThread; returns lane-operations executed. */
  launch(l: KernelLaunch): number;
}

// ------------------------------------------------------------------ host side

/** Values of the host C interpreter are JS numbers holding C integers (pointers are MEM byte addresses). */
export type HostValue = number;

/** What the host interpreter gives the tensor engine when it reaches a `>` statement. */
export interface HostScope {
  /** Evaluates C expression text in the scope of the statement (locals, globals, macros, `req->x`, `&buf[0]`...). */
  eval(exprText: string): HostValue;
  /** Process id (0/1) of the running hart. */
  process: 0 | 1;
  /** The C call stack, innermost first, for errors. */
  stack(): string[];
  /** Where the host code is (the call or `>` statement being run), when known. */
  at?: SourceLoc;
}

/**
 * Something the simulator did not model exactly (a runtime call it only approximates, a read of
 * memory nothing wrote, …): reported in the run summary, by the CLI and in the Problems panel, never
 * silently passed over. `count` is how many times it happened at that place.
 */
export interface RunWarning {
  file: string;
  line: number;
  column: number;
  message: string;
  count: number;
}

/** Services the tensor engine offers the host interpreter. */
export interface HostServices {
  /** Byte-addressed MEM; globals and statics of the program live here. */
  mem: Uint8Array;
  /** Reserves `size` bytes of MEM aligned to `align` for a global/static/heap object; returns its address. */
  alloc(size: number, align: number): number;
  /** Executes `>` statement buffer `unit` (index in the tprog analysis) in `scope`. */
  tensor(unit: number, scope: HostScope): void;
  /** Runtime library calls of ztachip's base library (ztaTaskYield, ztaJobDone, ...) not implemented in C. Returns undefined when unknown. */
  builtin(name: string, args: HostValue[], scope: HostScope): HostValue | undefined;
  /** Text written by printf and friends. */
  print(text: string): void;
  /** Reports what the simulator does not model exactly at `at` (see RunWarning). */
  warn?(message: string, at: SourceLoc | undefined): void;
  budget: Budget;
  /**
   * Journal of MEM writes by host code (the page history of the run): the interpreter checks one page
   * flag per store and calls `mark` before the first store to a page after a step boundary.
   */
  memJournal?: MemJournal;
  /** Memory-mapped ztachip registers (`ZTAM_GREG`): loads and stores outside MEM that fall in the window. */
  mmio?: MmioPort;
  /** A hart reached `ztaTaskYield()` inside `ztaDualHartExecute` and is about to switch (for the trace). */
  onYield?(at: SourceLoc, scope: HostScope): void;
  /** The machine side of ztachip's runtime library (host/ztalib.ts implements the library on it). */
  zta?: ZtaMachinePort;
}

/**
 * What ztachip's runtime library (`SW/base/ztalib.c`, `SW/apps/main/kernels/main.m`) does to the
 * machine, as tensor-engine steps of the run: the stream-table load of `ztaInitStream`, the CALLBACK
 * indication of `ztaJobDone` and the indication queue `ztaReadResponse` reads.
 */
export interface ZtaMachinePort {
  /** `SPU <= DTYPE(INT16)MEM(addr)[0:words-1]`: loads stream tables (a trace step at `at`). */
  loadStreams(addr: number, words: number, at: SourceLoc, scope: HostScope): void;
  /** `CALLBACK(f, p)`: posts an indication (a trace step at `at`). */
  callback(f: number, p: number, at: SourceLoc, scope: HostScope): void;
  /** The oldest posted indication's parameter, removed from the queue; undefined when none is waiting. */
  readResponse(): number | undefined;
}

/** See `HostServices.memJournal` (implemented by `SpaceHistory.journal`). */
export interface MemJournal {
  /** One flag per page (page = address >> `shift`): 0 = the next write to the page must call `mark` first. */
  readonly flags: Uint8Array;
  readonly shift: number;
  /** Saves the old contents of the pages covering addresses [from, to] before they are written. */
  mark(from: number, to: number): void;
}

/** A window of memory-mapped registers at byte addresses [base, base + size). */
export interface MmioPort {
  base: number;
  size: number;
  /** A `bytes`-wide store of `value` (already converted to the store's C type) at `addr`. */
  store(addr: number, bytes: number, value: number, at: SourceLoc, scope: HostScope): void;
  /** A `bytes`-wide load at `addr`. */
  load(addr: number, bytes: number, at: SourceLoc, scope: HostScope): number;
}
