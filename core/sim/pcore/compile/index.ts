/**
 * Compiles the analysed AST of a PCORE (`.p`) program into closures that run one kernel for one
 * (pcore, thread) at a time on 8-lane `Int32Array` vectors.
 *
 * Every expression is compiled once into a typed value (`Val`, types.ts):
 * - `const`: a compile-time constant (C int semantics, folded by `evaluateConstant`);
 * - `int`: a 13-bit integer-register value (`int` variables, `tid`, `pid`, `_VMASK`, masks of GE/LT…);
 *   every integer-ALU result wraps to 13 bits;
 * - `word`: a scalar data value (an `int16` word, an accumulator lane): computed wide, saturated when stored;
 * - `vec`: 8 lanes, computed wide (32-bit), saturated to 12 bits when stored to int16/vint16, kept 32-bit
 *   in accumulators; scalars are broadcast;
 * - `ptr`: a pointer register value (see ../kernelState.ts), with its unit (8 words for `vint16 *`, 1 for `int16 *`).
 * Vector closures write into a buffer owned by their node and return it (no allocation at run time).
 *
 * Statements are closures returning a completion code (statements.ts). The compiler is one class in
 * layers, one file each: base.ts (state, errors, units, value conversions), places.ts (lvalues and
 * addresses), arith.ts (operators), assign.ts, expressions.ts, calls.ts (helpers and intrinsics),
 * statements.ts, compiler.ts (the interleaved runner's pieces); memory.ts holds the load/store operations
 * of each storage space, unit.ts a compiled function and its frame.
 */
export { Compiler } from './compiler';
export { FnUnit } from './unit';
export type { StateLayout, Stmt, Val } from './types';
