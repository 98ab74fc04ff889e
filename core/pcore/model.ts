/**
 * Symbol model of an analysed PCORE program: classes, variables (with the word offsets the PCORE
 * compiler assigns), kernels and their parameters, and the lookups the tensor-program checker needs.
 */
import type { Diagnostic, Range } from '../common/diagnostic';
import type { LineIndex } from '../common/lineIndex';
import type { Declarator, FunctionDef, Program } from './ast';

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
  /** Canonical type name (`int16`, `vint16`, `int32`, `vint32`, `int`, `unsigned int`, `float2`, `float4`, `float16`) or the text written for an invalid type. */
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

export interface PcoreClass {
  name: string;
  /** Class variables by short name. */
  variables: Map<string, PcoreVariable>;
  /** Functions (kernels and helpers) by short name. */
  kernels: Map<string, PcoreKernel>;
  /** Sum of the private class variables' lengths (P of §8.3, before rounding); NaN when a size is unknown. */
  privateWords: number;
  /** Sum of the shared class variables' lengths (of those with a known size). */
  sharedWords: number;
  /** First word after the shared variables: ROUND8(constantsBase + sharedWords); NaN when a size is unknown. */
  sharedEnd: number;
  /** Total accumulator lanes of the class variables. */
  accumulatorLanes: number;
  /** Number of class `int` variables / pointer variables. */
  integerCount: number;
  pointerCount: number;
}

export type PcoreSymbol =
  | { kind: 'variable'; variable: PcoreVariable }
  | { kind: 'param'; param: PcoreParam }
  | { kind: 'local'; local: PcoreLocal }
  | { kind: 'builtin'; name: 'tid' | 'pid' | '_VMASK' }
  | { kind: 'function'; fn: PcoreKernel }
  | { kind: 'intrinsic'; name: string };

/** A resolved identifier occurrence (for hover / go to definition). */
export interface PcoreReference {
  start: number;
  end: number;
  symbol: PcoreSymbol;
  /** The occurrence is the declaration itself. */
  declaration: boolean;
}

/** Result of resolving a tensor-program member (`cls::var`, `cls::func.param`, `root.constant`). */
export type PcoreMemberLookup =
  | {
    ok: true;
    /** `classVar`: `cls::var`; `param`: `cls::f.p` found among f's parameters; `classVarViaFunction`: `cls::f.v`
     * falling back to the class variable `v`; `rootConstant`: the whole 4096-word memory. */
    via: 'classVar' | 'param' | 'classVarViaFunction' | 'rootConstant';
    variable: PcoreVariable;
    param?: PcoreParam;
    kernel?: PcoreKernel;
  }
  | {
    ok: false;
    /** Messages as the tensor compiler prints them. */
    message: 'Invalid function parameter' | 'Undefined function parameter';
    detail: string;
  };

export interface PcoreDefine {
  value: string;
  params?: string[];
  /** Range of the `#define` (in `file` when set; zero range for options/builtins). */
  range: Range;
  nameRange: Range;
  /** undefined: this file; otherwise a header path, `<options>` or `<zta.h>`. */
  file?: string;
}

export interface PcoreProgram {
  file: string;
  classes: Map<string, PcoreClass>;
  /** All functions (kernels and helpers) by `cls::name`. */
  kernels: Map<string, PcoreKernel>;
  /** All class variables by `cls::name`. */
  variables: Map<string, PcoreVariable>;
  defines: Map<string, PcoreDefine>;
  includes: { path: string; range: Range; resolved: boolean; system: boolean }[];
  /** Regions removed by `#if`/`#ifdef`. */
  inactiveRanges: Range[];
  /** S of §8.3: ROUND8(number of constants). */
  constantsBase: number;
  /** Number of distinct constants used (approximation, or the `constantsCount` option). */
  constantsCount: number;
  /** The distinct constant values found (approximation; empty when overridden). */
  constants: number[];
  diagnostics: Diagnostic[];
  ast: Program;
  references: PcoreReference[];
  lineIndex: LineIndex;
  /** Resolves `cls::var`, `cls::func.param` (parameter first, then class variable) or `root.constant`. */
  lookupMember(text: string): PcoreMemberLookup;
  /** Symbol of the identifier at `offset`, if any. */
  symbolAt(offset: number): PcoreReference | undefined;
}

function shapeText(v: PcoreVarInfo): string {
  if (v.shape.length === 0) return 'scalar';
  return `shape [${v.shape.map((d) => (Number.isNaN(d) ? '?' : String(d))).join(',')}]`;
}

function declText(v: PcoreVarInfo, fullName: string): string {
  const dims = v.dims.map((d, k) => `[${Number.isNaN(d) ? v.dimTexts[k] ?? '?' : d}]`).join('');
  return `${v.type} ${v.pointer ? '*' : ''}${fullName}${dims}`;
}

/** One-line summary for hovers. */
export function formatPcoreVariable(v: PcoreVariable | PcoreParam | PcoreLocal): string {
  const isParam = 'kernel' in v && 'index' in v;
  const isLocal = 'kernel' in v && !('cls' in v);
  const full = isParam ? `${(v as PcoreParam).kernel}.${v.name}` : isLocal ? v.name : (v as PcoreVariable).fullName;
  const owner = isParam ? ' parameter' : isLocal ? ` local of ${(v as PcoreLocal).kernel}` : '';
  const decl = declText(v, full);
  const offset = 'offset' in v ? (v as PcoreVariable).offset : undefined;
  switch (v.storage) {
    case 'private':
    case 'shared': {
      const size = v.sizeKnown ? `${v.len} word${v.len === 1 ? '' : 's'} (${shapeText(v)})` : `size unknown (${shapeText(v)})`;
      const shadow = isParam && v.type === 'int' ? ' (private shadow of an int parameter)' : '';
      const at = offset !== undefined ? ` at word offset ${offset}` : '';
      return `${v.storage}${owner} ${decl} — ${size}${shadow}${at}`;
    }
    case 'accumulator':
      return `accumulator${owner} ${decl} — ${v.sizeKnown ? v.len : '?'} lanes (${v.sizeKnown ? v.len / 8 : '?'} × 8), not addressable from tensor programs`;
    case 'integer': {
      const p = v as PcoreParam;
      if (isParam && p.global) {
        return `_global int parameter ${full} — slot ${p.globalSlot ?? '?'} (integer register ${p.intRegister ?? '?'}), set with \`${full} <= INT16(value)\``;
      }
      return `integer${owner} ${decl} — integer register, not addressable from tensor programs`;
    }
    case 'pointer': {
      const p = v as PcoreParam;
      const shadow = isParam && p.shadowOffset !== undefined ? `; private shadow word at offset ${p.shadowOffset}` : '';
      return `pointer${owner} ${decl} — pointer register, not addressable from tensor programs${shadow}`;
    }
  }
}
