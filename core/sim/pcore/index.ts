/**
 * PCORE kernel interpreter of the embedded simulator: runs `.p` kernels for EXE_LOCKSTEP.
 * Entry point: `createPcoreRunner(analyzePcore(text, file))`.
 */
export { createPcoreRunner, type PcoreRunnerOptions, type PcoreSimRunner } from './runner';
export { sat12, wrap13 } from './kernelState';
