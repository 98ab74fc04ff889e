/**
 * PCORE (`.p`) language support: lexer, preprocessor, parser, AST and symbol index.
 *
 * Entry point: `analyzePcore(text, file, opts)`.
 */
export { analyzePcore, lookupMember, type AnalyzeOptions } from './analyzer';
export { formatPcoreVariable } from './model';
export type {
  PcoreClass,
  PcoreDefine,
  PcoreKernel,
  PcoreLocal,
  PcoreMemberLookup,
  PcoreParam,
  PcoreProgram,
  PcoreReference,
  PcoreStorage,
  PcoreSymbol,
  PcoreVarInfo,
  PcoreVariable,
} from './model';
export type * as PcoreAst from './ast';
export { outerEnd, outerStart } from './ast';
export { evaluateConstant } from './evaluate';
export { lex, type Token, type TokenKind } from './lexer';
export { preprocess, type MacroDefinition, type PreprocessResult } from './preprocessor';
export { parseTokens } from './parser';
export * as pcoreConstants from './constants';
