/**
 * The compiler's vocabulary: compiled values (`Val`), statements, storage places and their memory
 * operations, and the compile-time error that becomes a run-time SimError where it is reached.
 */
export type Stmt = () => number;
export type Num = () => number;
export type VecFn = () => Int32Array;

export type Val =
  | { k: 'const'; v: number }
  | { k: 'int'; f: Num }
  | { k: 'word'; f: Num }
  | { k: 'ptr'; f: Num; unit: 1 | 8 }
  | { k: 'vec'; f: VecFn }
  | { k: 'void'; f: () => unknown };

export type ErrKind = 'not-simulated' | 'compile';

/** A compile-time problem, turned into a SimError when the statement containing it is reached. */
export class CErr {
  constructor(
    readonly off: number,
    readonly msg: string,
    readonly kind: ErrKind,
  ) {}
}

/** Reports a construct the interpreter does not model (where the statement holding it is reached). */
export function notSim(node: { start: number }, what: string): never {
  throw new CErr(node.start, `not simulated: ${what}`, 'not-simulated');
}

/** Reports an error in the program (where the statement holding it is reached). */
export function bad(node: { start: number }, msg: string): never {
  throw new CErr(node.start, msg, 'compile');
}

/** A storage location: a register, a frame slot, memory words or an array (for `&` and decay). */
export interface Place {
  k: 'int' | 'word' | 'vec' | 'ptr' | 'array';
  /** ptr: unit of the pointer; array: unit of its elements; vec: 8; word/int: 1. */
  unit: 1 | 8;
  /** Computes the address token (checking bounds). */
  prep: Num;
  get?: (a: number) => number;
  /** Stores with the place's conversion (13-bit wrap, 12-bit saturation, none). */
  set?: (a: number, v: number) => void;
  load?: (a: number, out: Int32Array) => void;
  /** Vector stores honour _VMASK. */
  store?: (a: number, src: Int32Array) => void;
  fill?: (a: number, v: number) => void;
  /** Pointer value designating the place, when addressable. */
  addr?: Num;
  /** Why `&` is not available. */
  noAddr?: string;
  /** A faster read closure, when available. */
  fast?: Val;
  /** int/ptr places at a fixed frame slot (`fr`) or thread-state register (`S`, relative to M.so). */
  slot?: { fr: Int32Array; o: number } | { reg: number };
}

/** Memory operations on address tokens of one storage space (memory.ts). */
export interface Ops {
  get: (a: number) => number;
  set: (a: number, v: number) => void;
  load: (a: number, out: Int32Array) => void;
  store: (a: number, src: Int32Array) => void;
  fill: (a: number, v: number) => void;
}

/** Relative word offset: constant `c` when known, else computed by `f`. */
export interface Rel {
  c: number | undefined;
  f: Num;
}

/** Per-thread state layout: `_VMASK` at 0, then class `int` registers, pointer registers, accumulators. */
export interface StateLayout {
  /** Index of the first class `int` register in a thread's state. */
  int0: number;
  ptr0: number;
  acc0: number;
  /** Accumulator lanes per thread. */
  accLanes: number;
  /** Words of state per thread (index 0 is _VMASK). */
  stride: number;
}

/** No effect: what a constant evaluated for its side effects compiles to (compared by identity). */
export const NOOP = (): void => {};

/** Closure of a value evaluated for its effect. */
export function fnOf(v: Val): () => unknown {
  return v.k === 'const' ? NOOP : v.f;
}
