/** Syntax tree of `.tlayout` files. Spans are document offsets [start, end). */

export interface Span {
  start: number;
  end: number;
}

export interface Ident {
  text: string;
  span: Span;
}

export type Value = NumValue | DimsValue | NameValue | StrValue | ListValue | CallValue | RangeValue | ErrorValue;

export interface NumValue {
  kind: 'num';
  value: number;
  raw: string;
  span: Span;
}

/** `32x32`, `8x8`: a shape written with `x`. */
export interface DimsValue {
  kind: 'dims';
  values: number[];
  raw: string;
  span: Span;
}

/** `tile`, `ttnn.ShardStrategy.BLOCK`, `True`. */
export interface NameValue {
  kind: 'name';
  parts: Ident[];
  text: string;
  span: Span;
}

export interface StrValue {
  kind: 'str';
  value: string;
  span: Span;
}

/** `[a, b]`, `(a, b)`, `{a, b}`. */
export interface ListValue {
  kind: 'list';
  open: '[' | '(' | '{';
  items: Value[];
  span: Span;
}

export interface Arg {
  name?: Ident;
  value: Value;
  span: Span;
}

/** `name(args)` with positional and keyword arguments. */
export interface CallValue {
  kind: 'call';
  callee: NameValue;
  args: Arg[];
  /** Span of the parentheses and what is between them. */
  argsSpan: Span;
  span: Span;
}

/** `(0,0)-(7,0)`: a core range. */
export interface RangeValue {
  kind: 'range';
  from: Value;
  to: Value;
  span: Span;
}

export interface ErrorValue {
  kind: 'error';
  span: Span;
}

export interface DimItem {
  name?: Ident;
  value: Value;
  span: Span;
}

export interface TargetStmt {
  kind: 'target';
  keyword: Span;
  value?: Value;
  span: Span;
}

export interface TensorStmt {
  kind: 'tensor';
  keyword: Span;
  name?: Ident;
  colon?: Span;
  dtype?: NameValue;
  shape?: { items: DimItem[]; span: Span };
  eq?: Span;
  /** Layout terms, juxtaposed: `tt(layout=tile)`, `ttnn.L1_MEMORY_CONFIG`, `spyre()`, ... */
  layout: Value[];
  at?: { keyword: Span; value?: Value };
  span: Span;
}

export interface UnitSel {
  keyword: Ident;
  value?: Value;
}

export interface ProbeStmt {
  kind: 'probe';
  keyword: Span;
  tensor?: Ident;
  /** `device[...]` (Spyre device coordinates) instead of a tensor coordinate. */
  device?: Span;
  coords?: { items: DimItem[]; span: Span };
  address?: { keyword: Span; value?: Value; unit?: UnitSel };
  span: Span;
}

export type Stmt = TargetStmt | TensorStmt | ProbeStmt;

export interface Comment {
  span: Span;
  text: string;
}

export interface SyntaxError {
  span: Span;
  message: string;
  /** Replacement that fixes it, when there is one obvious edit. */
  fix?: { title: string; span: Span; newText: string };
}

export interface LayoutFile {
  stmts: Stmt[];
  comments: Comment[];
  errors: SyntaxError[];
}

export const STATEMENT_KEYWORDS = ['target', 'tensor', 'probe'] as const;
