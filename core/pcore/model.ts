/**
 * Symbol model of an analysed PCORE program: classes, variables (with the word offsets the PCORE
 * compiler assigns), kernels and their parameters, and the lookups the tensor-program checker needs.
 * The per-symbol types (variables, parameters, locals, kernels) are declared with the tree in ast.ts,
 * since symbols and nodes point at each other; they are re-exported here.
 */
import type { Diagnostic, Range } from '../common/diagnostic';
import type { LineIndex } from '../common/lineIndex';
import type { PcoreKernel, PcoreParam, PcoreSymbol, PcoreVarInfo, PcoreVariable, PcoreLocal, Program } from './ast';

export type { PcoreKernel, PcoreLocal, PcoreParam, PcoreStorage, PcoreSymbol, PcoreVarInfo, PcoreVariable } from './ast';

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
  const dims = v.dims.map((d, k) => `[${Number.isNaN(d) ? (v.dimTexts[k] ?? '?') : d}]`).join('');
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
