/**
 * Public API of the layout engine (no `vscode`, no file access; runs in Node and in a web worker).
 *
 *   analyzeLayout(text, file, { loadSparse? }) → LayoutAnalysis   diagnostics, targets, tensors (model + summary), probes
 *   hover / inlayHints / complete / documentSymbols / semanticTokens / formatLayout   editor features
 *   SpyreLayout, TTLayout, CellLayout, StridedLayout, SparseLayout                     the models (LayoutModel)
 */
export { analyzeLayout, type AnalyzeOptions, type LayoutAnalysis } from './analyze';
export type { AnyModel, CheckOptions, Family, ProbeInfo, TargetInfo, TensorInfo } from './check';
export { parseLayout, lex } from './parse';
export type * from './ast';
export type * from './model';
export type { Issue, IssueFix } from './issues';
export { DTYPES, parseDtype, type DType } from './dtypes';
export {
  SpyreLayout,
  validateSpyre,
  spyreDefaultLayout,
  dimMapToStrideMap,
  strideMapToDimMap,
  devToHost,
  hostToDev,
  type SpyreSpec,
  type SpyreForward,
} from './models/spyre';
export { TTLayout, validateTT, enumerateCores, type TTSpec, type TTForward, type CoreRange } from './models/tt';
export { TT_ARCHS, withOverrides, type TTArch } from './models/ttArch';
export { tileGeometry, inTile, TILE_SHAPES } from './models/ttTile';
export { CellLayout, validateCells, toHalfBits, fromHalfBits, type CellSpec, type CellForward } from './models/cells';
export { StridedLayout, validateStrided, canonicalForm, coalesce, type StridedSpec, type StridedForward } from './models/strided';
export { SparseLayout, validateSparse, type SparsePlacement, type SparseSpec, type SparseForward, ENTRY_BYTES, META_WORD_BYTES } from './models/sparse';
export { hover, forwardMarkdown, inverseMarkdown, tensorMarkdown } from './features/hover';
export { inlayHints } from './features/inlay';
export { complete } from './features/complete';
export { documentSymbols } from './features/symbols';
export { semanticTokens } from './features/tokens';
export type { CompletionEntry, DocSymbol, HoverResult, InlayHintItem } from '../common/featureResults';
export { TOKEN_TYPES, TOKEN_MODIFIERS, type SemToken } from '../common/semanticTokens';
export { formatLayout, applyEdits } from './features/format';
export { CoordError, LayoutError } from './util';
