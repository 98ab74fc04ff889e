/** IBM Spyre tensors: the layout model, the host ↔ device maps and the rules (the files of this folder). */
export { countDataSlots, reconstructDimMap } from './dataSlots';
export * from './maps';
export { type SpyreForward, SpyreLayout } from './model';
export * from './spec';
export { validateSpyre } from './validate';
