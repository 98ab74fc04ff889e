/**
 * Run-time context and value conventions of the PCORE kernel interpreter.
 *
 * Conventions (see `compile/` for how they are used):
 * - memory words (`int16`/`vint16`) are 12-bit signed; vector arithmetic is computed on 32-bit lanes and
 *   saturated to −2048..2047 when stored;
 * - `int` values are 13-bit signed integer registers: every integer-ALU result wraps to 13 bits;
 * - a pointer value is the register contents in the pointer's own unit (vector index for `vint16 *`, word index
 *   for `int16 *`) plus `SHARED_TAG` when it points into shared memory;
 * - a memory *token* is an absolute index into `priv` (private words) or, plus `SHARED_TOKEN`, into `shared`.
 */
import type { Budget } from '../types';

export const NUM_PCORE = 8;
export const NUM_THREAD = 16;
export const LANES = 8;
/** Words of the private/shared address space of one PCORE (per process). */
export const PCORE_WORDS = 4096;
/** Private words of one thread. */
export const THREAD_WORDS = 256;

/** Added to a pointer value that points into shared memory. */
export const SHARED_TAG = 1 << 24;
/** Pointer values ≥ this are shared pointers (index = value − SHARED_TAG). */
export const SHARED_HALF = 1 << 23;
/** Added to an absolute shared-memory index in the address tokens of pointer accesses. */
export const SHARED_TOKEN = 1 << 20;

/** Statement completion codes. */
export const NORMAL = 0;
export const BRK = 1;
export const CNT = 2;
export const RET = 3;

/** Cancellation is checked at least every this many steps. */
export const POLL_STEPS = 65536;
/** The step counter is kept below this (a V8 small integer); the rest of the budget waits in `reserve`. */
export const STEP_CHUNK = 1 << 29;

export function sat12(x: number): number {
  return x > 2047 ? 2047 : x < -2048 ? -2048 : x;
}

export function wrap13(x: number): number {
  return (x << 19) >> 19;
}

/** Index part of a pointer value (drops the shared tag). */
export function ptrIndex(raw: number): number {
  return raw >= SHARED_HALF ? raw - SHARED_TAG : raw;
}

const EMPTY16 = new Int16Array(0);

/**
 * Mutable machine context shared by all compiled closures of one runner. The launch loop sets the
 * per-(pcore, thread) fields before running a kernel body.
 */
export class Ctx {
  priv: Int16Array = EMPTY16;
  shared: Int16Array = EMPTY16;
  /** pcore * 4096: base of this PCORE's words in `priv` and `shared`. */
  cb = 0;
  /** cb + tid * 256: base of this thread's private words. */
  pb = 0;
  tid = 0;
  pid = 0;
  /** Persistent per-thread state of every (process, pcore, thread): _VMASK, class ints, pointers, accumulators. */
  S: Int32Array;
  /** Offset of the running thread's state in `S`. */
  so = 0;
  /** `_global int` slots of the launch. */
  g0 = 0;
  g1 = 0;
  /** Steps left in the current chunk; `poll` runs when `left < mark`. */
  left = 0;
  /** Steps left beyond the current chunk. */
  reserve = 0;
  mark = 0;
  /** Lane-operations executed by the launch. */
  ops = 0;
  budget: Budget = { steps: 0, cancelled: false };
  /** Call stack: function names by depth and, for each caller depth, the offset of the call. */
  depth = 0;
  fns: string[] = [''];
  sites: number[] = [0];

  /**
   * Shared-memory writes of the current round of interleaved execution (runner.ts): (word, value) pairs
   * in issue order, `wn` of them; the running thread's own start at `wOwn`.
   */
  wq = new Int32Array(256);
  wn = 0;
  wOwn = 0;

  constructor(stateWords: number) {
    this.S = new Int32Array(stateWords);
  }

  /** Queues a write of shared word `i` (already converted to 12 bits). */
  defer(i: number, v: number): void {
    if (2 * this.wn + 2 > this.wq.length) {
      const q = new Int32Array(this.wq.length * 2);
      q.set(this.wq);
      this.wq = q;
    }
    this.wq[2 * this.wn] = i;
    this.wq[2 * this.wn + 1] = v;
    this.wn++;
  }

  /** Shared word `i` as the running thread sees it: its own latest queued write, else memory. */
  sharedWord(i: number): number {
    const q = this.wq;
    for (let j = this.wn - 1; j >= this.wOwn; j--) if (q[2 * j] === i) return q[2 * j + 1];
    return this.shared[i];
  }

  /** Commits the queued shared writes in issue order (a later write of a word wins). */
  commit(): void {
    const q = this.wq;
    const m = this.shared;
    for (let j = 0; j < this.wn; j++) m[q[2 * j]] = q[2 * j + 1];
    this.wn = 0;
    this.wOwn = 0;
  }
}
