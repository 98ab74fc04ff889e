/** Shared result types of the engine. Positions are 0-based (LSP style); UTF-16 columns. */

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** A text edit used by quick fixes (same document unless `file` is given). */
export interface TextEdit {
  range: Range;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
  /** True when this is the one obvious fix. */
  preferred?: boolean;
}

export interface Diagnostic {
  range: Range;
  severity: Severity;
  /** Stable code, e.g. `tprog.unknown-space`, `pcore.syntax`. */
  code: string;
  message: string;
  fixes?: Fix[];
  /** Marks the range as unnecessary/deprecated in the editor. */
  tags?: ('unnecessary' | 'deprecated')[];
}

export function range(sl: number, sc: number, el: number, ec: number): Range {
  return { start: { line: sl, character: sc }, end: { line: el, character: ec } };
}
