/**
 * What the built-in functions (libc.ts, ztalib.ts) need from the compiler: declaring a function, the
 * program's globals, and running a C function of the program (its compiled code and a frame for it).
 * The compiler (./compile) implements it; keeping it here lets the built-ins be installed by the
 * compiler without importing it back.
 */
import type { SourceLoc } from '../types';
import type { CType, FnT } from './ctypes';
import type { Builtin, FnCode, FnRec, Frame, Runtime } from './hostState';
import type { Scope } from './scope';

export interface BuiltinHost {
  readonly rt: Runtime;
  /** File scope: globals, functions, types. */
  readonly global: Scope;
  /** Declares (or finds) the function `name`; a built-in sets its `builtin` on the record. */
  declareFn(name: string, t: FnT, loc: SourceLoc): FnRec;
  /** The plain (non-generator) code of a C function, compiled on first use. */
  plainOf(f: FnRec): NonNullable<FnRec['plain']>;
  /** The generator code of a C function that may yield (inside ztaDualHartExecute). */
  genOf(f: FnRec): NonNullable<FnRec['gen']>;
  /** A callee frame for `f` with the arguments converted to its parameter types. */
  frameFor(f: FnRec, c: FnCode, vals: number[], loc: SourceLoc): Frame;
}

/** A C function type for a built-in's declaration. */
export function builtinFn(ret: CType, params: CType[], variadic = false): FnT {
  return { k: 'fn', ret, params, variadic };
}

/** Declares built-in `name` of type `t`, implemented by `impl` (a C body in the program takes precedence). */
export function defineBuiltin(c: BuiltinHost, name: string, t: FnT, impl: Builtin): void {
  c.declareFn(name, t, { file: '<built-in>', line: 1, column: 1 }).builtin = impl;
}
