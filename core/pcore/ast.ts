/**
 * Abstract syntax tree of a PCORE (`.p`) program.
 *
 * Every node carries `start`/`end` string offsets into the analysed text (end exclusive). Nodes that
 * come from a macro expansion carry the range of the macro invocation. A parenthesised expression keeps
 * its own range; `parenStart`/`parenEnd` give the range including the outermost parentheses.
 *
 * The semantic analysis (`analyzer.ts`) fills `Identifier.symbol`, `Declarator.symbol` and
 * `FunctionDef.symbol`, so an interpreter can evaluate the tree without redoing name resolution. The
 * symbols (variables, parameters, locals, kernels) are declared at the end of this file: they point back
 * at their declaring nodes, so tree and symbols are one set of types (model.ts re-exports them with the
 * program-level model built on them).
 */
import type { Range } from '../common/diagnostic';

export interface NodeBase {
  start: number;
  end: number;
}

// ---------------------------------------------------------------- expressions

export interface Identifier extends NodeBase {
  kind: 'Identifier';
  /** Text as written: `x` or `cls::x`. */
  name: string;
  /** Set when the identifier is scoped (`cls::x`). */
  scope?: string;
  /** Name without scope. */
  member: string;
  /** Macro whose expansion produced this token. */
  macro?: string;
  /** Resolved by the analyser (undefined if unresolved). */
  symbol?: PcoreSymbol;
  parenStart?: number;
  parenEnd?: number;
}

export interface NumberLiteral extends NodeBase {
  kind: 'NumberLiteral';
  value: number;
  raw: string;
  isFloat: boolean;
  isChar: boolean;
  macro?: string;
  parenStart?: number;
  parenEnd?: number;
}

export interface StringLiteral extends NodeBase {
  kind: 'StringLiteral';
  raw: string;
  parenStart?: number;
  parenEnd?: number;
}

export type UnaryOperator = '-' | '+' | '!' | '~' | '&' | '*';

export interface UnaryExpr extends NodeBase {
  kind: 'Unary';
  op: UnaryOperator;
  argument: Expr;
  parenStart?: number;
  parenEnd?: number;
}

export interface UpdateExpr extends NodeBase {
  kind: 'Update';
  op: '++' | '--';
  prefix: boolean;
  argument: Expr;
  parenStart?: number;
  parenEnd?: number;
}

export type BinaryOperator = '|' | '^' | '&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '<<' | '>>' | '+' | '-' | '*' | '/' | '%';

export interface BinaryExpr extends NodeBase {
  kind: 'Binary';
  op: BinaryOperator;
  left: Expr;
  right: Expr;
  /** Offset of the operator token. */
  opStart: number;
  parenStart?: number;
  parenEnd?: number;
}

export interface LogicalExpr extends NodeBase {
  kind: 'Logical';
  op: '&&' | '||';
  left: Expr;
  right: Expr;
  opStart: number;
  parenStart?: number;
  parenEnd?: number;
}

export type AssignOperator = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '<<=' | '>>=' | '&=' | '^=' | '|=';

export interface AssignExpr extends NodeBase {
  kind: 'Assign';
  op: AssignOperator;
  target: Expr;
  value: Expr;
  opStart: number;
  parenStart?: number;
  parenEnd?: number;
}

export interface ConditionalExpr extends NodeBase {
  kind: 'Conditional';
  test: Expr;
  consequent: Expr;
  alternate: Expr;
  parenStart?: number;
  parenEnd?: number;
}

export interface CallExpr extends NodeBase {
  kind: 'Call';
  callee: Expr;
  args: Expr[];
  parenStart?: number;
  parenEnd?: number;
}

export interface IndexExpr extends NodeBase {
  kind: 'Index';
  object: Expr;
  index: Expr;
  parenStart?: number;
  parenEnd?: number;
}

export interface MemberExpr extends NodeBase {
  kind: 'Member';
  object: Expr;
  property: string;
  arrow: boolean;
  parenStart?: number;
  parenEnd?: number;
}

export interface CastExpr extends NodeBase {
  kind: 'Cast';
  type: TypeSpec;
  pointer: number;
  argument: Expr;
  parenStart?: number;
  parenEnd?: number;
}

export interface SizeofExpr extends NodeBase {
  kind: 'Sizeof';
  argument: Expr | TypeSpec;
  parenStart?: number;
  parenEnd?: number;
}

export interface SequenceExpr extends NodeBase {
  kind: 'Sequence';
  expressions: Expr[];
  parenStart?: number;
  parenEnd?: number;
}

/** `{ a, b, {c, d} }` in an initializer. */
export interface InitList extends NodeBase {
  kind: 'InitList';
  elements: Expr[];
  parenStart?: number;
  parenEnd?: number;
}

/** Placeholder for a missing/invalid expression (a syntax error was reported). */
export interface ErrorExpr extends NodeBase {
  kind: 'ErrorExpr';
  parenStart?: number;
  parenEnd?: number;
}

export type Expr =
  | Identifier
  | NumberLiteral
  | StringLiteral
  | UnaryExpr
  | UpdateExpr
  | BinaryExpr
  | LogicalExpr
  | AssignExpr
  | ConditionalExpr
  | CallExpr
  | IndexExpr
  | MemberExpr
  | CastExpr
  | SizeofExpr
  | SequenceExpr
  | InitList
  | ErrorExpr;

// ---------------------------------------------------------------- declarations

export type SpecifierName =
  '_share' | '_global' | 'extern' | 'static' | 'const' | '_kernel_' | 'inline' | 'volatile' | 'register' | 'auto' | 'restrict' | 'typedef';

export interface Specifier extends NodeBase {
  kind: 'Specifier';
  name: SpecifierName;
}

export interface TypeSpec extends NodeBase {
  kind: 'TypeSpec';
  /** Canonical name (`int16`, `vint16`, `int32`, `vint32`, `int`, `unsigned int`, `float2`, `float4`, `float16`, `void`) or the words as written. */
  name: string;
  words: string[];
  /** True when `name` is a PCORE type. */
  valid: boolean;
}

export interface Declarator extends NodeBase {
  kind: 'Declarator';
  /** Name as written (`cls::x` or `x`); `''` for an abstract declarator. */
  name: string;
  nameStart: number;
  nameEnd: number;
  /** Number of `*`. */
  pointer: number;
  /** Array dimensions; `null` for `[]`. */
  dims: (Expr | null)[];
  /** Function declarator parameters. */
  params?: ParamDecl[];
  init: Expr | null;
  symbol?: PcoreSymbol;
}

export interface Declaration extends NodeBase {
  kind: 'Declaration';
  specifiers: Specifier[];
  type: TypeSpec;
  declarators: Declarator[];
}

export interface ParamDecl extends NodeBase {
  kind: 'ParamDecl';
  specifiers: Specifier[];
  type: TypeSpec;
  declarator: Declarator | null;
  /** `...` */
  ellipsis?: boolean;
}

export interface FunctionDef extends NodeBase {
  kind: 'FunctionDef';
  specifiers: Specifier[];
  returnType: TypeSpec;
  declarator: Declarator;
  /** Same as `declarator.name`. */
  name: string;
  nameStart: number;
  nameEnd: number;
  params: ParamDecl[];
  body: Block;
  isKernel: boolean;
  symbol?: PcoreKernel;
}

/** `_NT16_ class a, b;` (parsed, ignored by the compiler). */
export interface ClassDecl extends NodeBase {
  kind: 'ClassDecl';
  threads: number;
  names: { name: string; start: number; end: number }[];
}

/** `extern ...;` C declarations (prototypes shared with the host code); ignored. */
export interface ExternDecl extends NodeBase {
  kind: 'ExternDecl';
  name?: string;
}

/** Other top-level constructs that are skipped (typedef, struct, prototypes, stray tokens). */
export interface IgnoredDecl extends NodeBase {
  kind: 'IgnoredDecl';
  reason: string;
}

export type TopLevel = Declaration | FunctionDef | ClassDecl | ExternDecl | IgnoredDecl;

// ---------------------------------------------------------------- statements

export interface Pragma extends NodeBase {
  kind: 'Pragma';
  /** Text after `#pragma`, e.g. `unroll`. */
  text: string;
}

export interface Block extends NodeBase {
  kind: 'Block';
  body: Stmt[];
}

export interface DeclStmt extends NodeBase {
  kind: 'DeclStmt';
  declaration: Declaration;
}

export interface ExprStmt extends NodeBase {
  kind: 'ExprStmt';
  expression: Expr;
}

export interface IfStmt extends NodeBase {
  kind: 'If';
  test: Expr;
  consequent: Stmt;
  alternate: Stmt | null;
}

export interface LoopBase extends NodeBase {
  /** `#pragma unroll` precedes the loop. */
  unroll: boolean;
  pragmas: Pragma[];
}

export interface ForStmt extends LoopBase {
  kind: 'For';
  init: DeclStmt | Expr | null;
  test: Expr | null;
  update: Expr | null;
  body: Stmt;
}

export interface WhileStmt extends LoopBase {
  kind: 'While';
  test: Expr;
  body: Stmt;
}

export interface DoWhileStmt extends LoopBase {
  kind: 'DoWhile';
  body: Stmt;
  test: Expr;
}

export interface SwitchCase extends NodeBase {
  kind: 'SwitchCase';
  /** `null` for `default:`. */
  test: Expr | null;
  /** Statements up to the next label (C fall-through semantics apply between cases). */
  consequent: Stmt[];
}

export interface SwitchStmt extends NodeBase {
  kind: 'Switch';
  discriminant: Expr;
  cases: SwitchCase[];
}

export interface BreakStmt extends NodeBase {
  kind: 'Break';
}

export interface ContinueStmt extends NodeBase {
  kind: 'Continue';
}

export interface ReturnStmt extends NodeBase {
  kind: 'Return';
  argument: Expr | null;
}

export interface EmptyStmt extends NodeBase {
  kind: 'Empty';
}

/** A `#pragma` that is not attached to a loop. */
export interface PragmaStmt extends NodeBase {
  kind: 'PragmaStmt';
  pragma: Pragma;
}

/** Tokens skipped after a syntax error. */
export interface ErrorStmt extends NodeBase {
  kind: 'ErrorStmt';
}

export type Stmt =
  | Block
  | DeclStmt
  | ExprStmt
  | IfStmt
  | ForStmt
  | WhileStmt
  | DoWhileStmt
  | SwitchStmt
  | BreakStmt
  | ContinueStmt
  | ReturnStmt
  | EmptyStmt
  | PragmaStmt
  | ErrorStmt;

export interface Program extends NodeBase {
  kind: 'Program';
  items: TopLevel[];
}

export type Node = Expr | Stmt | TopLevel | Program | Specifier | TypeSpec | Declarator | ParamDecl | SwitchCase | Pragma;

/** Start offset including enclosing parentheses. */
export function outerStart(e: Expr): number {
  return e.parenStart ?? e.start;
}

/** End offset including enclosing parentheses. */
export function outerEnd(e: Expr): number {
  return e.parenEnd ?? e.end;
}

// ---------------------------------------------------------------- symbols (filled in by the analyser)

/**
 * Where a variable lives:
 * - `private`: per-thread PCORE memory (addressable from `>` statements with a thread index);
 * - `shared`: per-PCORE shared memory (`_share`; addressable without thread index);
 * - `accumulator`: `int32`/`vint32` accumulator registers (not addressable);
 * - `integer`: `int`/`unsigned int` integer registers (not addressable), also `_global int` parameters;
 * - `pointer`: pointer registers (not addressable).
 */
export type PcoreStorage = 'private' | 'shared' | 'accumulator' | 'integer' | 'pointer';

/** Fields shared by class variables, parameters and locals. */
export interface PcoreVarInfo {
  name: string;
  /**
   * Canonical type name (`int16`, `vint16`, `int32`, `vint32`, `int`, `unsigned int`, `float2`, `float4`, `float16`) or the text written for an
   * invalid type.
   */
  type: string;
  pointer: boolean;
  storage: PcoreStorage;
  /** Declared array dimensions (evaluated constants; `NaN` when a dimension could not be evaluated). */
  dims: number[];
  /** Source text of each dimension (after macro expansion, as written). */
  dimTexts: string[];
  /** False when a dimension could not be evaluated (then `len` is NaN). */
  sizeKnown: boolean;
  /** 8 for vint16/vint32/int32, 1 for int16/int/pointers, n for floatN. */
  lanes: number;
  /** log2(lanes): the compiler's vector width class `w` used to order allocations. */
  width: number;
  /** Words (or lanes for accumulators) = prod(dims) * lanes; 1 for integers and pointers. */
  len: number;
  /** GetNumDim = dims.length + (lanes > 1 ? 1 : 0). */
  numDim: number;
  /** dims followed by lanes when lanes > 1. */
  shape: number[];
  /** Range of the whole declaration (specifiers to `;`). */
  range: Range;
  nameRange: Range;
  /** Declarator node in the AST. */
  node?: Declarator;
}

export interface PcoreVariable extends PcoreVarInfo {
  /** Class (context) name; `''` for an unscoped global. */
  cls: string;
  /** `cls::name`. */
  fullName: string;
  /** Word offset assigned by the compiler (§8.3) for private/shared storage; undefined otherwise or when not computable. */
  offset: number | undefined;
  /** Accumulator / integer / pointer register index (declaration order within the class), when applicable. */
  register?: number;
}

export interface PcoreParam extends PcoreVariable {
  /** `cls::f` of the function that declares the parameter. */
  kernel: string;
  /** `_global int` parameter (written from tensor programs with `cls::f.p <= INT16(v)`). */
  global: boolean;
  /** Order among the `_global` parameters of the kernel (0 or 1). */
  globalSlot?: number;
  /** Integer register of a `_global int` parameter (3 - slot). */
  intRegister?: number;
  /** For pointer parameters: word offset of the 1-word private shadow copy. */
  shadowOffset?: number;
  /** Position in the parameter list. */
  index: number;
}

export interface PcoreLocal extends PcoreVarInfo {
  /** `cls::f` of the enclosing function. */
  kernel: string;
}

export interface PcoreKernel {
  cls: string;
  name: string;
  fullName: string;
  /** Declared with `_kernel_`. Non-kernel functions are class helpers. */
  isKernel: boolean;
  returnType: string;
  params: PcoreParam[];
  locals: PcoreLocal[];
  range: Range;
  nameRange: Range;
  node: FunctionDef;
  /** Private words after the parameters: ROUND8(class private) + parameter words (locals not included); NaN when unknown. */
  privateWords: number;
  /** Upper bound of the private words used by locals (the compiler packs them by graph colouring). */
  localWordsEstimate: number;
}

export type PcoreSymbol =
  | { kind: 'variable'; variable: PcoreVariable }
  | { kind: 'param'; param: PcoreParam }
  | { kind: 'local'; local: PcoreLocal }
  | { kind: 'builtin'; name: 'tid' | 'pid' | '_VMASK' }
  | { kind: 'function'; fn: PcoreKernel }
  | { kind: 'intrinsic'; name: string };
