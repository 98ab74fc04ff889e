/** `.csfbin` sparse tensors (CROSS-mini): codec, validator, accelerator memories, addresses, contraction, .npy. */
export * from './types';
export * from './validate';
export * from './codec';
export * from './dense';
export * from './npyTensor';
export * from './memory';
export * from './address';
export * from './contract';
