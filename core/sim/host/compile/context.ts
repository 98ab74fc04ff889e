/**
 * The compiler's shared state: what every part of the C compiler (types, declarations, expressions,
 * statements, calls, the yield analysis, the debugger's stop points) reads and fills in while it turns
 * a program into closures, and the shapes they pass each other. The parts are plain functions taking
 * this context (`cc`); the few entry points they recurse through (`rval`, `lval`, `cond`, `constEval`,
 * `stmtG`, `plainOf`, `genOf`) are abstract methods here, implemented by `Compiler` (./index.ts), so no
 * part imports a part that imports it back. All of this runs at compile time: the closures it produces
 * capture what they need (`rt`, slots, sub-closures) and never call back into the context.
 */
import { SimError, type SourceLoc } from '../../types';
import { MACHINE } from '../../../tprog/machineConstants';
import { BOOL, INT, VOID, alignOf, alignUp, charType, normalizer, ptr, sizeOf, type CType, type FnT, type IntT, type StructT } from '../ctypes';
import { YIELD_NAMES } from '../libc';
import { PLACEHOLDER, outLoc, preprocess, type IncludeReader, type IncludedUnits, type Macro, type PreprocessOutput } from '../preprocess';
import { FN_BASE, FN_STRIDE, Runtime, type EF, type FnRec, type Frame, type GSF, type SF } from '../hostState';
import { Scope, type Cx, type EvalCtx, type GVar, type Src } from '../scope';
import type { N } from '../syntax';
import type { Parser } from 'web-tree-sitter';

/** A `>` statement's placeholder call in the preprocessed text (tokens separated by spaces: `__tl_tensor ( 3 ) ;`). */
export const PLACEHOLDER_CALL = new RegExp(`^${PLACEHOLDER}\\s*\\(`);

export interface ContextOptions {
  file: string;
  text: string;
  units: ReadonlyArray<{ firstLine: number; lastLine: number }>;
  readInclude?: IncludeReader;
  /** Units of `>` statements in included files (see PreprocessInput.includedUnits). */
  includedUnits?: IncludedUnits;
  kernelAddress?: (name: string) => number | undefined;
  defines?: Record<string, string | number>;
  stackBytes?: number;
  maxCallDepth?: number;
  nullGuard?: number;
  charSigned?: boolean;
  /**
   * Debugger stop points (debug/, through core/sim/debug). Only when this is set does every statement closure get a
   * wrapper that records where each hart is and asks the port whether to stop; without it the
   * compiled code is exactly the same as before (no cost for plain runs).
   */
  debug?: DebugHooks;
}

/**
 * The debugger's side of the statement hooks. Pausing blocks the thread inside `stop()` (the
 * debugger runs the simulator in a worker thread and waits with Atomics.wait while paused): the
 */
export interface DebugHooks {
  /** Per statement id (set after compilation): non-zero = call `stop` before the statement runs. */
  hit: Uint8Array;
  /** `ctl[0]` non-zero = call `stop` before every statement (stepping, pause or messages pending). */
  ctl: Int32Array;
  /** Id of the statement each hart is at, indexed by call depth (`hart.n`): [hart 0, hart 1]; length ≥ 3·maxCallDepth + 3. */
  pos: [Int32Array, Int32Array];
  stop(id: number, fr: Frame): void;
  /** A run-time error raised by a service (tensor statement, runtime call), before it unwinds. */
  fault?(e: SimError): void;
}

/** A stop point: one compiled statement (a C statement or a `>` statement's placeholder call). */
export interface DebugStmt {
  id: number;
  loc: SourceLoc;
  /** C function it belongs to. */
  fn: string;
  /** The generator version of the function (inside ztaDualHartExecute). */
  gen: boolean;
  /** A `>` statement. */
  tensor: boolean;
  /** Scope of the statement for evaluating expressions (conditions, watches, hovers). */
  ec: EvalCtx;
}

/** An expression: its C type, its closure, its value when constant. */
export interface E {
  t: CType;
  f: EF;
  k?: number;
  /** Register local read (`fr[slot]`). */
  slot?: number;
}

/** An lvalue: a register slot or a MEM address. */
export interface LV {
  t: CType;
  slot?: number;
  a: EF;
  safe: boolean;
  loc: SourceLoc;
}

export interface ParamD {
  name?: string;
  t: CType;
}

export interface Decl {
  name?: string;
  t: CType;
  params?: ParamD[];
}

export interface Specs {
  t: CType;
  storage: Set<string>;
}

export interface StrLit {
  bytes: Uint8Array;
  addr: number;
}

export type InitOp = (fr: Frame, base: number) => void;

export type Item = { g: false; f: SF } | { g: true; f: GSF };

export const KNOWN_HEADERS = new Set(['zta.h', 'ztalib.h', 'types.h', 'ztam.h', 'util.h', 'soc.h', 'main.h', 'kernels.h']);

export const CMP = new Set(['<', '>', '<=', '>=', '==', '!=']);

/**
 * C nested deeper than the compiler's recursion can go (thousands of parentheses, blocks or calls)
 * overflows the JS stack: the statement being compiled (or the nearest enclosing one that still has
 * stack to spare) becomes a located compile error instead.
 */
export function nestingError(e: unknown, loc: () => SourceLoc): SimError | undefined {
  // no regular expression here: near the stack limit it fails with a SyntaxError (a RangeError from this
  // check goes on to the enclosing statement, which tries again with more stack)
  if (!(e instanceof RangeError && e.message.includes('call stack'))) return undefined;
  return new SimError('nested too deeply for the simulator (its compiler ran out of stack): split the expression or statement', loc(), [], 'compile');
}

/** Throws a compile-time problem. */
export function bad(loc: SourceLoc, msg: string, kind: SimError['kind'] = 'compile'): never {
  throw new SimError(msg, loc, [], kind);
}

/** Reserves `t` in the function's MEM stack frame; returns its offset from the frame base. */
export function frameAlloc(cx: Cx, t: CType, loc: SourceLoc): number {
  const fx = cx.fx;
  if (fx.noFrame) bad(loc, `not simulated: MEM temporary in ${fx.noFrame}`, 'not-simulated');
  const a = Math.max(1, alignOf(t));
  const off = alignUp(fx.frameSize, a);
  fx.frameSize = off + Math.max(1, sizeOf(t));
  return off;
}

export interface FrameView {
  fn: string;
  loc: SourceLoc | undefined;
  locals(): { name: string; type: string; address?: number; value?: number }[];
}

export function argNormalizers(t: FnT): ((v: number) => number)[] {
  return (t.params ?? []).map((p) => normalizer(p) ?? ((v: number) => v));
}

export function findField(s: StructT, name: string): { off: number; t: CType } | undefined {
  for (const f of s.fields) {
    if (f.name === name) return { off: f.off, t: f.t };
    if (f.name === '' && f.t.k === 'struct') {
      const r = findField(f.t, name);
      if (r) return { off: f.off + r.off, t: r.t };
    }
  }
  return undefined;
}

export abstract class CompileContext {
  readonly rt: Runtime;
  readonly pp: PreprocessOutput;
  readonly src: Src;
  readonly global = new Scope();
  readonly fns = new Map<string, FnRec>();
  /** Function definitions (`loc`: the definition's, where FnRec.loc is the first declaration's, maybe a prototype in a header). */
  readonly defs = new Map<FnRec, { n: N; params: ParamD[]; loc: SourceLoc }>();
  readonly gvars: GVar[] = [];
  readonly problems: SimError[] = [];
  readonly evalCtxs = new Map<number, EvalCtx[]>();
  readonly gByName = new Map<string, GVar>();
  readonly strs = new Map<string, StrLit>();
  readonly charT: IntT;
  readonly kernelIds = new Map<string, number>();
  readonly kernelCache: (number | undefined)[] = [];
  readonly varNames = new Set<string>();
  readonly tensorAddr = new Set<string>();
  readonly badStructs = new WeakMap<StructT, string>();
  readonly yieldMemo = new Map<number, boolean>();
  readonly fnNodes = new Map<FnRec, N>();
  readonly macrosForEval: Map<string, Macro>;
  /** Stop points, by id (debug compilation only). */
  readonly dbgStmts: DebugStmt[] = [];
  readonly dbgWrapped = new WeakSet<object>();
  /** Functions whose body has a syntax error (they raise it when called). */
  readonly syntaxBroken = new Set<FnRec>();
  /** Static locals by function, name and declarator (a block compiled twice declares them once). */
  readonly staticKeys = new Map<string, GVar>();

  constructor(
    readonly parser: Parser,
    readonly opts: ContextOptions,
  ) {
    this.rt = new Runtime(opts.nullGuard ?? 16, opts.maxCallDepth ?? 400, opts.stackBytes ?? 256 * 1024);
    this.charT = charType(!!opts.charSigned);
    const defines: Record<string, string> = {};
    for (const [k, v] of Object.entries(MACHINE)) defines[k] = String(v);
    defines.NULL = '((void*)0)';
    defines.__riscv = '1';
    defines.__TENSOR_LENS__ = '1';
    defines.EXPORT = '';
    for (const [k, v] of Object.entries(opts.defines ?? {})) defines[k] = String(v);
    this.pp = preprocess({
      file: opts.file,
      text: opts.text,
      units: opts.units,
      readInclude: opts.readInclude,
      defines,
      defineLines: ['define FLUSH_DATA_CACHE()', 'define offsetof(t, m) __builtin_offsetof(t, m)'],
      reserved: YIELD_NAMES,
      knownHeaders: KNOWN_HEADERS,
      includedUnits: opts.includedUnits,
    });
    this.macrosForEval = this.pp.macros;
    this.pp.kernels.forEach((k, i) => this.kernelIds.set(k, i));
    const pp = this.pp;
    this.src = { text: pp.text, loc: (n) => outLoc(pp.starts, pp.toks, n.start) ?? { file: opts.file, line: 1, column: 1 } };
    // names whose address is taken inside `>` statements must not be register locals (in every file: an
    // included tensor program's too)
    // (only the `>` lines are looked at, each file's text on its own: no copy of the program)
    for (const text of [opts.text, ...this.pp.tensorIncludes]) {
      for (const line of text.matchAll(/^[ \t]*>.*$/gm)) {
        for (const m of line[0].matchAll(/(?:^|[^&])&\s*([A-Za-z_]\w*)/g)) this.tensorAddr.add(m[1]);
      }
    }
    // typedef names tree-sitter does not know as primitive types, and ztalib.h's types
    this.global.syms.set('_Bool', { k: 'type', t: BOOL });
    this.global.syms.set('wchar_t', { k: 'type', t: INT });
    this.global.syms.set('ZTA_SHARED_MEM', { k: 'type', t: ptr(VOID) });
  }

  // the entry points the parts recurse through (implemented by Compiler)
  abstract rval(n: N, cx: Cx, discard?: boolean): E;
  abstract lval(n: N, cx: Cx): LV | undefined;
  abstract cond(n: N, cx: Cx): (fr: Frame) => boolean;
  abstract constEval(n: N, cx: Cx): number;
  abstract stmtG(n: N, cx: Cx): Item | null;
  abstract plainOf(f: FnRec): NonNullable<FnRec['plain']>;
  abstract genOf(f: FnRec): NonNullable<FnRec['gen']>;

  globalCx(): Cx {
    return {
      fx: { name: '<global>', gen: false, nslots: 2, frameSize: 0, addrTaken: new Set(), ret: VOID, locals: [], noFrame: 'a global initialiser' },
      scope: this.global,
      hoist: null,
      src: this.src,
    };
  }

  text(n: N, cx?: Cx): string {
    return (cx?.src ?? this.src).text.slice(n.start, n.end);
  }

  declareFn(name: string, t: FnT, loc: SourceLoc): FnRec {
    let f = this.fns.get(name);
    if (!f) {
      const id = this.rt.fns.length;
      f = { name, id, addr: FN_BASE + id * FN_STRIDE, type: t, loc, hasBody: false, mayYield: false, argNorm: argNormalizers(t) };
      this.rt.fns.push(f);
      this.fns.set(name, f);
    } else if (!f.hasBody && t.params !== undefined) {
      f.type = t;
      f.argNorm = argNormalizers(t);
    }
    this.global.syms.set(name, { k: 'fn', f });
    return f;
  }

  evalCtx(cx: Cx, loc: SourceLoc): EvalCtx {
    return { scope: cx.scope.snapshot(), fx: cx.fx, loc, macros: this.macrosForEval, cache: new Map() };
  }
}
