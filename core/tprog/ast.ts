/** Syntax tree of `>` statements. All spans are offsets inside the statement buffer. */

export interface Span {
  start: number;
  end: number;
}

/** A piece of C text copied verbatim by the compiler (an expression). */
export interface CText {
  text: string;
  span: Span;
}

export type PrefixKind = 'DTYPE' | 'FOR' | 'PAD' | 'REMAP' | 'CONCURRENT' | 'LATEST' | 'REPEAT' | 'SCATTER' | 'CAST';

export interface Prefix {
  kind: PrefixKind;
  span: Span;
  keywordSpan: Span;
  /** DTYPE name, PAD/REMAP/SCATTER value, guide cast type. */
  arg?: CText;
  /** FOR(name=range). */
  forName?: CText;
  forRange?: RangeParts;
  forPlaceholder?: boolean;
}

export interface RangeParts {
  begin?: CText;
  step?: CText;
  end?: CText;
}

export type IndexKind = 'single' | 'range' | 'wildcard' | 'placeholder' | 'for';

export interface Index {
  kind: IndexKind;
  span: Span;
  /** Inner text span (without brackets). */
  body: CText;
  /** For 'single': the value; for 'range': parts. */
  single?: CText;
  range?: RangeParts;
  forName?: string;
}

export interface SpecItem {
  expr: CText;
  plus: boolean;
  /** Bounded ("overlapped") group attached to this item: `N(d1,d2)`. */
  group?: SpecItem[];
  groupSpan?: Span;
}

export interface Spec {
  span: Span;
  items: SpecItem[];
}

export type TermKind = 'space' | 'var' | 'global' | 'const';

export interface Term {
  kind: TermKind;
  span: Span;
  prefixes: Prefix[];
  /** Space keyword as written (PCORE, MEM, DDR, SCRATCH, ...), upper-cased in `space`. */
  space?: string;
  spaceSpan?: Span;
  spec?: Spec;
  indices: Index[];
  /** `.THREAD(spec)[...]`. */
  thread?: { span: Span; spec?: Spec; indices: Index[] };
  /** `.cls::var(spec)[...]`. */
  member?: { name: CText; spec?: Spec; indices: Index[]; span: Span };
  /** `$name` for var terms, dotted name for global terms. */
  name?: CText;
  /** `$v[x]` argument. */
  varIndex?: Index;
  /** Constant term INT16(v)/INT8(v)/HALF(v). */
  constType?: string;
  constValue?: CText;
}

export type StmtKind = 'transfer' | 'vardef' | 'vardecl' | 'exe' | 'callback' | 'print' | 'export' | 'nop' | 'barrier' | 'log_on' | 'log_off';

export interface Stmt {
  kind: StmtKind;
  span: Span;
  keywordSpan?: Span;
  /** transfer: dst <= src; vardef: name := src. */
  dst?: Term;
  src?: Term;
  /** Guide dialect `A <= PROC(n) <= B`. */
  proc?: { span: Span; arg?: CText };
  /** Position of the `<=` / `:=` operator. */
  opSpan?: Span;
  /** $name for vardef, names for vardecl. */
  names?: CText[];
  /** Arguments of EXE/CALLBACK/PRINT/EXPORT. */
  args?: CText[];
  argsSpan?: Span;
}

export interface SyntaxProblem {
  span: Span;
  code: string;
  message: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  /** Optional replacement of the span that fixes it (quick fix). */
  fix?: { title: string; span: Span; newText: string };
}
