/**
 * The simulator's face for debuggers: what debug/ may use of the simulator beyond running a program
 * (core/sim/run.ts, prepare.ts). The C types and transfer records it hands out are re-exported here
 * so that a debugger names them without importing the interpreter's or the engine's modules.
 */
export { DebugView, type DebugListener, type EvalScope, type FrameRef, type LocalVar, type StopPoint, type TransferAt, type Where } from './view';
export { MemoryView } from './memory';
export { SPACE_NAMES } from '../spaces';
export { StopHistory } from './stops';
export { normalizer, sizeOf, type CType, type StructT } from '../host/ctypes';
export type { Frame } from '../host/hostState';
export type { ElementAt, SteppedTransfer } from '../engine/stepped';
export type { TensorVariable } from '../engine/execute';
