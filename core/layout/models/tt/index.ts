/** TT-Metalium / TT-NN buffers: the layout model, its spec and its rules (the files of this folder). */
export { type TTForward } from './base';
export { TTLayout } from './layout';
export { type CoreRange, enumerateCores, isSharded, rangeText, type TTMemory, type TTOrientation, type TTSpec } from './spec';
export { structuralTT } from './structural';
export { validateTT } from './validate';
