/**
 * What the editor features of every language (tensor programs, PCORE programs, layout specs) return,
 * in the engine's own terms: plain data with 0-based line/character positions, no LSP types. One
 * definition for all languages, so the server converts each kind of result in one place
 * (server/src/convert.ts) whichever language produced it.
 */
import type { Position, Range } from './diagnostic';

/** A hover: markdown over the range it explains. */
export interface HoverResult {
  markdown: string;
  range: Range;
}

/** An inlay hint shown at `position` (the server makes it a Type hint with padding on the left). */
export interface InlayHintItem {
  position: Position;
  label: string;
  tooltip: string;
}

export type CompletionKind = 'keyword' | 'module' | 'typeParameter' | 'field' | 'function' | 'variable' | 'constant' | 'class' | 'snippet';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: string;
  insertText?: string;
  snippet?: boolean;
}

export type SymbolKind = 'function' | 'event' | 'variable' | 'constant' | 'operator' | 'module';

/** An outline entry. */
export interface DocSymbol {
  name: string;
  detail?: string;
  kind: SymbolKind;
  range: Range;
  selectionRange: Range;
  children: DocSymbol[];
}

export interface SignatureInfo {
  label: string;
  documentation: string;
  parameters: string[];
  active: number;
}

/** A definition or reference. */
export interface Location {
  /** Undefined = this document. */
  file?: string;
  range: Range;
}
