/**
 * Compiles the C of a tensor program (a tree-sitter-c tree) into JS closures.
 *
 * - Expressions become `(frame) => number` closures, statements `(frame) => completion` closures
 *   (0 normal, BRK, CONT, RET). Scalar locals whose address is never taken live in JS slots of
 *   the frame array; arrays, structs and address-taken locals live in a MEM stack frame; globals,
 *   statics and string literals live in MEM (allocated through `services.alloc`).
 * - Functions that may reach `ztaTaskYield()` (directly, through calls, or through function
 *   pointers) get a second, generator version used only inside `ztaDualHartExecute`: statements
 *   containing a yielding call become generators, and each yielding call is hoisted out of its
 *   expression into a generator step whose result lands in a temporary slot. Everything else —
 *   including every loop that cannot yield — stays a plain closure.
 * - Constructs not simulated compile to closures that throw SimError('not-simulated') when they
 *   are reached (and are listed in `problems`), so the rest of the program still runs.
 */
import { SimError, type HostScope, type SourceLoc } from '../types';
import { MACHINE } from '../../tprog/machine';
import {
  BOOL, DOUBLE, FLOAT, INT, LLONG, UINT, ULLONG, VOID,
  alignOf, alignUp, arr, charType, common, isArith, isInt, isScalar, layout, normalizer, primitive, promote, ptr, sizeOf, typeName, widens,
  LONG, ULONG, SHORT, USHORT, SCHAR, UCHAR,
  type CType, type FloatT, type FnT, type IntT, type StructT,
} from './ctypes';
import { kindOf, loader, memRead, memWrite, storer } from './memops';
import { countedLoop, fastCmp, fastCompound, fastCond, fastInt } from './fastops';
import {
  KERNEL_PREFIX, PLACEHOLDER, Preprocessor, charLiteralValue, decodeEscapes, emitTokens, lexFile, makeSrc, outLoc, parseIntLiteral, preprocess,
  type IncludeReader, type IncludedUnits, type PreprocessOutput,
} from './preprocess';
import { BRK, CONT, FN_BASE, FN_STRIDE, RET, Runtime, type EF, type FnCode, type FnRec, type Frame, type GSF, type GStep, type Hart, type SF } from './runtime';
import { Scope, type Cx, type EvalCtx, type Fx, type GVar, type Src, type Sym } from './scope';
import { eachNode, field, fields, firstError, named, parseToNodes, type N } from './syntax';
import type { Parser } from 'web-tree-sitter';
import { installLibc, YIELD_NAMES } from './libc';
import { installZtalib } from './ztalib';

/** A `>` statement's placeholder call in the preprocessed text (tokens separated by spaces: `__tl_tensor ( 3 ) ;`). */
const PLACEHOLDER_CALL = new RegExp(`^${PLACEHOLDER}\\s*\\(`);

export interface CompilerOptions {
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
   * Debugger stop points (core/debug). Only when this is set does every statement closure get a
   * wrapper that records where each hart is and asks the port whether to stop; without it the
   * compiled code is exactly the same as before (no cost for plain runs).
   */
  debug?: DebugPort;
}

/**
 * The debugger's side of the statement hooks. Pausing blocks the thread inside `stop()` (the
 * debugger runs the simulator in a worker thread and waits with Atomics.wait while paused): the
 * compiled closures, the JS stack and both harts' generators stay exactly as they are, so no
 * statement has to be compiled as a generator and a debug run costs one small wrapper per statement.
 */
export interface DebugPort {
  /** Per statement id (set after compilation): non-zero = call `stop` before the statement runs. */
  hit: Uint8Array;
  /** `ctl[0]` non-zero = call `stop` before every statement (stepping, pause or messages pending). */
  ctl: Int32Array;
  /** Id of the statement each hart is at, indexed by call depth (`hart.n`): [hart 0, hart 1]; length ≥ 3·maxCallDepth + 3. */
  pos: [Int32Array, Int32Array];
  stop(id: number, fr: Frame): void;
  /** A run-time error raised by a service (tensor statement, runtime call), before it unwinds. */
  fault?(e: SimError): void;
  /** Called once at the end of compileProgram with the statement table filled in. */
  compiled?(c: Compiler): void;
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
interface E {
  t: CType;
  f: EF;
  k?: number;
  /** Register local read (`fr[slot]`). */
  slot?: number;
}

/** An lvalue: a register slot or a MEM address. */
interface LV {
  t: CType;
  slot?: number;
  a: EF;
  safe: boolean;
  loc: SourceLoc;
}

interface ParamD {
  name?: string;
  t: CType;
}

interface Decl {
  name?: string;
  t: CType;
  params?: ParamD[];
}

interface Specs {
  t: CType;
  storage: Set<string>;
}

interface StrLit {
  bytes: Uint8Array;
  addr: number;
}

type InitOp = (fr: Frame, base: number) => void;

type Item = { g: false; f: SF } | { g: true; f: GSF };

const KNOWN_HEADERS = new Set(['zta.h', 'ztalib.h', 'types.h', 'ztam.h', 'util.h', 'soc.h', 'main.h', 'kernels.h']);

const CMP = new Set(['<', '>', '<=', '>=', '==', '!=']);

/** Throws a compile-time problem. */
/**
 * C nested deeper than the compiler's recursion can go (thousands of parentheses, blocks or calls)
 * overflows the JS stack: the statement being compiled (or the nearest enclosing one that still has
 * stack to spare) becomes a located compile error instead.
 */
function nestingError(e: unknown, loc: () => SourceLoc): SimError | undefined {
  // no regular expression here: near the stack limit it fails with a SyntaxError (a RangeError from this
  // check goes on to the enclosing statement, which tries again with more stack)
  if (!(e instanceof RangeError && e.message.includes('call stack'))) return undefined;
  return new SimError('nested too deeply for the simulator (its compiler ran out of stack): split the expression or statement', loc(), [], 'compile');
}

function bad(loc: SourceLoc, msg: string, kind: SimError['kind'] = 'compile'): never {
  throw new SimError(msg, loc, [], kind);
}

export class Compiler {
  readonly rt: Runtime;
  readonly pp: PreprocessOutput;
  readonly src: Src;
  readonly global = new Scope();
  readonly fns = new Map<string, FnRec>();
  readonly defs = new Map<FnRec, { n: N; params: ParamD[] }>();
  readonly gvars: GVar[] = [];
  readonly problems: SimError[] = [];
  readonly evalCtxs = new Map<number, EvalCtx[]>();
  private gByName = new Map<string, GVar>();
  private strs = new Map<string, StrLit>();
  private charT: IntT;
  private kernelIds = new Map<string, number>();
  private kernelCache: (number | undefined)[] = [];
  private varNames = new Set<string>();
  private tensorAddr = new Set<string>();
  private badStructs = new WeakMap<StructT, string>();
  private yieldMemo = new Map<number, boolean>();
  private fnNodes = new Map<FnRec, N>();
  private macrosForEval: Map<string, import('./preprocess').Macro>;
  /** Stop points, by id (debug compilation only). */
  readonly dbgStmts: DebugStmt[] = [];
  private readonly dbgWrapped = new WeakSet<object>();

  constructor(private parser: Parser, private opts: CompilerOptions) {
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
    for (const line of [opts.text, ...this.pp.tensorIncludes].join('\n').split('\n')) {
      if (!/^\s*>/.test(line)) continue;
      for (const m of line.matchAll(/(?:^|[^&])&\s*([A-Za-z_]\w*)/g)) this.tensorAddr.add(m[1]);
    }
    // typedef names tree-sitter does not know as primitive types, and ztalib.h's types
    this.global.syms.set('_Bool', { k: 'type', t: BOOL });
    this.global.syms.set('wchar_t', { k: 'type', t: INT });
    this.global.syms.set('ZTA_SHARED_MEM', { k: 'type', t: ptr(VOID) });
    installLibc(this);
    installZtalib(this);
    // `#include "X.p.img"` (generated by the ztachip compiler) defines the PCORE image; the machine
    // loads the .p itself, so the image is a placeholder array unless the program declares it
    // (in the preprocessed text: an included kernel file may be the one that uses it)
    if (/\bzta_pcore_img\b/.test(pp.text)) {
      const g = this.declareGlobal('zta_pcore_img', arr(primitive('uint16_t', this.charT)!, 2), { file: opts.file, line: 1, column: 1 }, true, true);
      this.global.syms.set('zta_pcore_img', { k: 'global', t: g.t, g, name: 'zta_pcore_img' });
    }
  }

  // ================================================================= program level

  compileProgram(): void {
    const root = parseToNodes(this.parser, this.pp.text);
    for (const n of root.kids) {
      if (!n.named || n.type === 'comment') continue;
      const err = firstError(n);
      if (err && n.type === 'function_definition') {
        const body = field(n, 'body');
        if (body && firstError(body) === err) {
          this.topFunction(n, err);
          continue;
        }
      }
      if (err) bad(this.src.loc(err), err.missing ? `syntax error: missing '${err.type}'` : 'syntax error');
      this.topLevel(n);
    }
    this.computeYields();
    for (const f of this.defs.keys()) this.plainOf(f);
    const port = this.opts.debug;
    if (port) {
      // every stop point must exist before breakpoints are set: compile the generator versions now
      for (const f of this.defs.keys()) if (f.mayYield) this.genOf(f);
      port.hit = new Uint8Array(this.dbgStmts.length);
      port.compiled?.(this);
    }
  }

  private topLevel(n: N): void {
    const cx = this.globalCx();
    switch (n.type) {
      case 'function_definition':
        this.topFunction(n);
        return;
      case 'declaration':
        this.declaration(n, cx, true);
        return;
      case 'type_definition':
        this.typedef(n, cx);
        return;
      case 'struct_specifier':
      case 'union_specifier':
      case 'enum_specifier':
        this.typeSpec(n, cx);
        return;
      case 'linkage_specification': {
        const body = field(n, 'body');
        if (body) for (const k of named(body)) this.topLevel(k);
        return;
      }
      case 'expression_statement':
        if (named(n).length === 0) return;
        break;
    }
    bad(this.src.loc(n), `unexpected ${n.type.replace(/_/g, ' ')} at file scope`);
  }

  globalCx(): Cx {
    return { fx: { name: '<global>', gen: false, nslots: 2, frameSize: 0, addrTaken: new Set(), ret: VOID, locals: [], noFrame: 'a global initialiser' }, scope: this.global, hoist: null, src: this.src };
  }

  private text(n: N, cx?: Cx): string {
    return (cx?.src ?? this.src).text.slice(n.start, n.end);
  }

  private topFunction(n: N, syntaxErr?: N): void {
    const cx = this.globalCx();
    const sp = this.specs(n, cx);
    const dn = field(n, 'declarator');
    const d = this.declarator(sp.t, dn, cx);
    if (!d.name || d.t.k !== 'fn') bad(this.src.loc(n), 'malformed function definition');
    const f = this.declareFn(d.name, d.t, this.src.loc(n));
    if (f.hasBody) bad(this.src.loc(n), `redefinition of function '${d.name}'`);
    f.hasBody = true;
    f.type = d.t;
    f.argNorm = argNormalizers(d.t);
    this.defs.set(f, { n, params: d.params ?? [] });
    this.fnNodes.set(f, n);
    if (syntaxErr) {
      const e = new SimError(syntaxErr.missing ? `syntax error: missing '${syntaxErr.type}'` : 'syntax error', this.src.loc(syntaxErr), [], 'compile');
      this.problems.push(e);
      this.syntaxBroken.add(f);
    }
  }
  private syntaxBroken = new Set<FnRec>();

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

  // ================================================================= types and declarators

  private specs(n: N, cx: Cx): Specs {
    const storage = new Set<string>();
    let t: CType | undefined;
    for (const k of n.kids) {
      if (k.type === 'storage_class_specifier') storage.add(this.text(k, cx));
      else if (k.field === 'type') t = this.typeSpec(k, cx);
    }
    if (!t) bad(cx.src.loc(n), 'declaration without a type');
    return { t, storage };
  }

  typeSpec(n: N, cx: Cx): CType {
    const loc = cx.src.loc(n);
    switch (n.type) {
      case 'primitive_type': {
        const t = primitive(this.text(n, cx), this.charT);
        if (!t) bad(loc, `unknown type '${this.text(n, cx)}'`);
        return t;
      }
      case 'sized_type_specifier': {
        let unsigned = false;
        let longs = 0;
        let short = false;
        let base = '';
        for (const k of n.kids) {
          const w = k.field === 'type' ? this.text(k, cx) : k.type;
          if (w === 'unsigned') unsigned = true;
          else if (w === 'long') longs++;
          else if (w === 'short') short = true;
          else if (w === 'signed') unsigned = false;
          else if (k.field === 'type') base = w;
        }
        if (base === 'char') return unsigned ? UCHAR : SCHAR;
        if (base === 'double' || base === 'float') return DOUBLE;
        if (short) return unsigned ? USHORT : SHORT;
        if (longs >= 2) return unsigned ? ULLONG : LLONG;
        if (longs === 1) return unsigned ? ULONG : LONG;
        return unsigned ? UINT : INT;
      }
      case 'type_identifier': {
        const name = this.text(n, cx);
        const s = cx.scope.lookup(name);
        if (s?.k === 'type') return s.t;
        return bad(loc, `unknown type name '${name}'`);
      }
      case 'struct_specifier':
      case 'union_specifier':
        return this.structSpec(n, cx);
      case 'enum_specifier':
        return this.enumSpec(n, cx);
      case 'macro_type_specifier':
        return bad(loc, `not simulated: macro type specifier '${this.text(n, cx)}'`, 'not-simulated');
    }
    return bad(loc, `not simulated: type ${n.type.replace(/_/g, ' ')}`, 'not-simulated');
  }

  private structSpec(n: N, cx: Cx): StructT {
    const union = n.type === 'union_specifier';
    const nameN = field(n, 'name');
    const body = field(n, 'body');
    const tag = nameN ? this.text(nameN, cx) : undefined;
    const mk = (): StructT => ({ k: 'struct', tag, union, fields: [], size: 0, align: 1, complete: false });
    if (!body) {
      if (!tag) bad(cx.src.loc(n), 'anonymous struct without a body');
      const found = cx.scope.tag(tag);
      if (found && found !== 'enum') return found;
      const s = mk();
      (cx.scope.parent ? cx.scope : this.global).tags.set(tag, s);
      return s;
    }
    let s: StructT | undefined;
    if (tag) {
      const cur = cx.scope.tags.get(tag);
      if (cur && cur !== 'enum' && !cur.complete) s = cur;
    }
    if (!s) {
      s = mk();
      if (tag) cx.scope.tags.set(tag, s);
    }
    const fl: { name: string; t: CType }[] = [];
    for (const fd of named(body)) {
      if (fd.type !== 'field_declaration') continue;
      const sp = this.specs(fd, cx);
      if (fd.kids.some((k) => k.type === 'bitfield_clause')) this.badStructs.set(s, 'bit-fields');
      const ds = fields(fd, 'declarator');
      if (ds.length === 0 && sp.t.k === 'struct') fl.push({ name: '', t: sp.t });
      for (const dn of ds) {
        const d = this.declarator(sp.t, dn, cx);
        fl.push({ name: d.name ?? '', t: d.t });
      }
    }
    return layout(s, fl);
  }

  private enumSpec(n: N, cx: Cx): CType {
    const body = field(n, 'body');
    const nameN = field(n, 'name');
    if (nameN) cx.scope.tags.set(this.text(nameN, cx), 'enum');
    if (body) {
      let next = 0;
      for (const en of named(body)) {
        if (en.type !== 'enumerator') continue;
        const nm = this.text(field(en, 'name')!, cx);
        const vn = field(en, 'value');
        const v = vn ? this.constEval(vn, cx) : next;
        cx.scope.syms.set(nm, { k: 'const', t: INT, v });
        next = v + 1;
      }
    }
    return INT;
  }

  /** Derives the declared name and type from a declarator. */
  declarator(t: CType, n: N | undefined, cx: Cx): Decl {
    if (!n) return { t };
    switch (n.type) {
      case 'identifier':
      case 'field_identifier':
      case 'type_identifier':
        return { name: this.text(n, cx), t };
      case 'pointer_declarator':
      case 'abstract_pointer_declarator':
        return this.declarator(ptr(t), field(n, 'declarator'), cx);
      case 'array_declarator':
      case 'abstract_array_declarator': {
        const sz = field(n, 'size');
        let count: number | undefined;
        if (sz) {
          if (sz.type === '*') bad(cx.src.loc(n), 'not simulated: variable-length array', 'not-simulated');
          const e = this.rval(sz, cx);
          if (e.k === undefined) bad(cx.src.loc(sz), 'not simulated: variable-length array (size is not a constant)', 'not-simulated');
          count = e.k;
          if (count < 0) bad(cx.src.loc(sz), 'array size is negative');
        }
        return this.declarator(arr(t, count), field(n, 'declarator'), cx);
      }
      case 'function_declarator':
      case 'abstract_function_declarator': {
        const pl = field(n, 'parameters');
        const ps = pl ? this.paramList(pl, cx) : { list: [] as ParamD[], variadic: false, proto: false };
        const ft: FnT = { k: 'fn', ret: t, params: ps.proto ? ps.list.map((p) => p.t) : undefined, variadic: ps.variadic };
        const inner = field(n, 'declarator');
        const d = this.declarator(ft, inner, cx);
        if (!d.params && inner && (inner.type === 'identifier' || inner.type === 'parenthesized_declarator' && named(inner)[0]?.type === 'identifier')) d.params = ps.list;
        return d;
      }
      case 'parenthesized_declarator':
      case 'abstract_parenthesized_declarator':
      case 'attributed_declarator':
        return this.declarator(t, named(n).find((k) => k.type !== 'attribute_specifier' && k.type !== 'attribute_declaration' && k.type !== 'type_qualifier'), cx);
      case 'init_declarator':
        return this.declarator(t, field(n, 'declarator'), cx);
    }
    return bad(cx.src.loc(n), `not simulated: declarator ${n.type.replace(/_/g, ' ')}`, 'not-simulated');
  }

  private paramList(n: N, cx: Cx): { list: ParamD[]; variadic: boolean; proto: boolean } {
    const list: ParamD[] = [];
    let variadic = false;
    const ps = named(n);
    for (const p of ps) {
      if (p.type === 'variadic_parameter') {
        variadic = true;
        continue;
      }
      if (p.type !== 'parameter_declaration') {
        if (p.type === 'identifier') bad(cx.src.loc(p), 'not simulated: K&R-style parameter list', 'not-simulated');
        continue;
      }
      const sp = this.specs(p, cx);
      const d = this.declarator(sp.t, field(p, 'declarator'), cx);
      let t = d.t;
      if (t.k === 'arr') t = ptr(t.of);
      else if (t.k === 'fn') t = ptr(t);
      list.push({ name: d.name, t });
    }
    if (list.length === 1 && list[0].t.k === 'void' && !list[0].name) list.length = 0;
    const proto = ps.length > 0 || /\(\s*void\s*\)/.test(this.text(n, cx));
    return { list, variadic, proto: proto || list.length > 0 };
  }

  private typeDescriptor(n: N, cx: Cx): CType {
    const tn = field(n, 'type');
    if (!tn) bad(cx.src.loc(n), 'type expected');
    const base = this.typeSpec(tn, cx);
    return this.declarator(base, field(n, 'declarator'), cx).t;
  }

  private typedef(n: N, cx: Cx): void {
    const tn = field(n, 'type');
    if (!tn) bad(cx.src.loc(n), 'typedef without a type');
    const base = this.typeSpec(tn, cx);
    for (const dn of fields(n, 'declarator')) {
      const d = this.declarator(base, dn, cx);
      if (d.name) cx.scope.syms.set(d.name, { k: 'type', t: d.t });
    }
  }

  // ================================================================= declarations

  /** Declares globals (file scope) or locals; returns per-declarator initialisation code. */
  private declaration(n: N, cx: Cx, fileScope: boolean): { sf: SF; steps: GStep[] | null }[] {
    const sp = this.specs(n, cx);
    const out: { sf: SF; steps: GStep[] | null }[] = [];
    for (const dn of fields(n, 'declarator')) {
      const initN = dn.type === 'init_declarator' ? field(dn, 'value') : undefined;
      const d = this.declarator(sp.t, dn, cx);
      const loc = cx.src.loc(dn);
      if (!d.name) continue;
      if (d.t.k === 'fn') {
        const f = this.declareFn(d.name, d.t, loc);
        if (!fileScope) cx.scope.syms.set(d.name, { k: 'fn', f });
        continue;
      }
      if (fileScope || sp.storage.has('extern')) {
        const g = this.declareGlobal(d.name, d.t, loc, !sp.storage.has('extern') || !!initN, sp.storage.has('static'));
        const sym: Sym = { k: 'global', t: g.t, g, name: d.name };
        cx.scope.syms.set(d.name, sym);
        if (initN) this.globalInit(g, initN, cx);
        continue;
      }
      if (sp.storage.has('static')) {
        const g: GVar = { name: `${cx.fx.name}.${d.name}`, t: d.t, addr: -1, loc, defined: true, isStatic: true };
        const key = `${cx.fx.name}.${d.name}@${dn.id}`;
        const prev = this.staticKeys.get(key);
        if (prev) {
          cx.scope.syms.set(d.name, { k: 'global', t: prev.t, g: prev, name: d.name });
          continue;
        }
        this.staticKeys.set(key, g);
        if (initN && g.t.k === 'arr' && g.t.n === undefined) g.t = arr(g.t.of, this.initCount(g.t, initN, cx));
        this.addGlobal(g);
        cx.scope.syms.set(d.name, { k: 'global', t: g.t, g, name: d.name });
        if (initN) this.globalInit(g, initN, cx);
        continue;
      }
      // automatic variable
      let t = d.t;
      if (initN && t.k === 'arr' && t.n === undefined) t = arr(t.of, this.initCount(t, initN, cx));
      if (t.k === 'arr' && t.n === undefined) bad(loc, `array '${d.name}' has no size`);
      if (t.k === 'void') bad(loc, `variable '${d.name}' declared void`);
      if (t.k === 'struct' && !t.complete) bad(loc, `variable '${d.name}' has incomplete type ${typeName(t)}`);
      const fx = cx.fx;
      const lines = { fromLine: loc.line, toLine: loc.line };
      let sym: Sym;
      if (isScalar(t) && !fx.addrTaken.has(d.name)) {
        if (fx.noFrame) bad(loc, `not simulated: declaration in ${fx.noFrame}`, 'not-simulated');
        const slot = fx.nslots++;
        sym = { k: 'slot', t, slot, name: d.name };
        fx.locals.push({ name: d.name, type: t, slot, ...lines });
      } else {
        const off = this.frameAlloc(cx, t, loc);
        sym = { k: 'frame', t, off, name: d.name };
        fx.locals.push({ name: d.name, type: t, offset: off, ...lines });
      }
      cx.scope.syms.set(d.name, sym);
      if (!initN) continue;
      const steps: GStep[] | null = cx.hoist ? [] : null;
      const icx: Cx = { ...cx, hoist: steps };
      if (sym.k === 'slot') {
        const V = this.conv(this.rval(initN, icx), t, initN, icx).f;
        const slot = sym.slot;
        out.push({ sf: (fr) => { fr[slot] = V(fr); return 0; }, steps });
      } else {
        const off = sym.off;
        const size = sizeOf(t);
        const ops = this.initOps(t, initN, icx);
        const rt: Runtime = this.rt;
        out.push({
          sf: (fr) => {
            const base = fr[0] + off;
            rt.writing(base, size);
            if (size > 0 && (t.k === 'arr' || t.k === 'struct')) rt.mem.fill(0, base, base + size);
            for (let i = 0; i < ops.length; i++) ops[i](fr, base);
            return 0;
          },
          steps,
        });
      }
    }
    return out;
  }
  private staticKeys = new Map<string, GVar>();

  private frameAlloc(cx: Cx, t: CType, loc: SourceLoc): number {
    const fx = cx.fx;
    if (fx.noFrame) bad(loc, `not simulated: MEM temporary in ${fx.noFrame}`, 'not-simulated');
    const a = Math.max(1, alignOf(t));
    const off = alignUp(fx.frameSize, a);
    fx.frameSize = off + Math.max(1, sizeOf(t));
    return off;
  }

  private declareGlobal(name: string, t: CType, loc: SourceLoc, definition: boolean, isStatic: boolean): GVar {
    let g = this.gByName.get(name);
    if (g) {
      if (g.t.k === 'arr' && g.t.n === undefined && t.k === 'arr' && t.n !== undefined) g.t = t;
      if (definition) g.defined = true;
      return g;
    }
    g = { name, t, addr: -1, loc, defined: definition, isStatic };
    this.gByName.set(name, g);
    this.addGlobal(g);
    this.varNames.add(name);
    return g;
  }

  private addGlobal(g: GVar): void {
    this.gvars.push(g);
  }

  private globalInit(g: GVar, initN: N, cx: Cx): void {
    if (g.t.k === 'arr' && g.t.n === undefined) g.t = arr(g.t.of, this.initCount(g.t, initN, cx));
    const gcx: Cx = { ...cx, fx: { ...cx.fx, noFrame: 'a static initialiser' }, hoist: null };
    g.initLoc = cx.src.loc(initN);
    try {
      const ops = this.initOps(g.t, initN, gcx);
      g.init = (fr) => {
        for (let i = 0; i < ops.length; i++) ops[i](fr, g.addr);
      };
    } catch (caught) {
      const e = nestingError(caught, () => cx.src.loc(initN)) ?? caught;
      if (!(e instanceof SimError)) throw e;
      this.problems.push(e);
      g.init = () => {
        throw this.rt.err(e.message, e.loc, e.kind);
      };
    }
  }

  // ================================================================= initialisers

  /** Element count of `T a[] = init`. */
  private initCount(t: CType & { k: 'arr' }, init: N, cx: Cx): number {
    if (init.type === 'string_literal' || init.type === 'concatenated_string') return this.strBytes(init, cx).length + 1;
    if (init.type !== 'initializer_list') bad(cx.src.loc(init), 'array initialiser must be a list');
    const sink: InitOp[] = [];
    return this.fillAgg(t, named(init), { i: 0 }, { ...cx, hoist: null }, sink, 0, true);
  }

  /** Initialisation of one object of type `t` at offset 0 (ops get the object's base address). */
  private initOps(t: CType, init: N, cx: Cx): InitOp[] {
    const ops: InitOp[] = [];
    this.initAt(t, init, cx, ops, 0);
    return ops;
  }

  private initAt(t: CType, init: N, cx: Cx, ops: InitOp[], off: number): void {
    if (init.type === 'initializer_list') {
      this.initList(t, init, cx, ops, off);
      return;
    }
    if (t.k === 'arr') {
      if (isInt(t.of) && t.of.size === 1 && (init.type === 'string_literal' || init.type === 'concatenated_string')) {
        const bytes = this.strBytes(init, cx);
        const n = Math.min(t.n ?? bytes.length + 1, bytes.length + 1);
        const data = new Uint8Array(n);
        data.set(bytes.subarray(0, n));
        const rt: Runtime = this.rt;
        ops.push((_fr, base) => {
          rt.writing(base + off, data.length);
          rt.mem.set(data, base + off);
        });
        return;
      }
      bad(cx.src.loc(init), 'array initialiser must be a list or a string');
    }
    const E = this.rval(init, cx);
    if (t.k === 'struct') {
      if (E.t !== t) bad(cx.src.loc(init), `cannot initialise ${typeName(t)} from ${typeName(E.t)}`);
      const size = sizeOf(t);
      const rt: Runtime = this.rt;
      const loc = cx.src.loc(init);
      ops.push((fr, base) => rt.memcpy(base + off, E.f(fr), size, loc));
      return;
    }
    const V = this.conv(E, t, init, cx).f;
    const st = storer(this.rt, t, cx.src.loc(init), true);
    ops.push((fr, base) => st(base + off, V(fr)));
  }

  private initList(t: CType, list: N, cx: Cx, ops: InitOp[], off: number): void {
    const items = named(list);
    if (t.k !== 'arr' && t.k !== 'struct') {
      if (items.length > 0) this.initAt(t, items[0].type === 'initializer_pair' ? field(items[0], 'value')! : items[0], cx, ops, off);
      return;
    }
    this.fillAgg(t, items, { i: 0 }, cx, ops, off, true);
  }

  /** Fills aggregate `t` from `items[pos.i..]`; returns the element count reached (arrays). */
  private fillAgg(t: CType, items: N[], pos: { i: number }, cx: Cx, ops: InitOp[], off: number, braced: boolean): number {
    if (t.k === 'arr') {
      const es = sizeOf(t.of);
      let idx = 0;
      let max = 0;
      while (pos.i < items.length) {
        const it = items[pos.i];
        if (it.type === 'initializer_pair') {
          if (!braced) break;
          const ds = fields(it, 'designator');
          const d0 = ds[0];
          if (!d0 || d0.type !== 'subscript_designator') bad(cx.src.loc(it), 'field designator in an array initialiser');
          idx = this.constEval(named(d0)[0], cx);
          pos.i++;
          this.designated(t.of, ds.slice(1), field(it, 'value')!, cx, ops, off + idx * es);
          idx++;
          max = Math.max(max, idx);
          continue;
        }
        if (t.n !== undefined && idx >= t.n) break;
        this.fillElem(t.of, items, pos, cx, ops, off + idx * es);
        idx++;
        max = Math.max(max, idx);
      }
      return max;
    }
    if (t.k === 'struct') {
      if (this.badStructs.has(t)) bad(cx.src.loc(items[pos.i] ?? items[0]), `not simulated: initialiser of a struct with ${this.badStructs.get(t)}`, 'not-simulated');
      let fi = 0;
      while (pos.i < items.length) {
        const it = items[pos.i];
        if (it.type === 'initializer_pair') {
          if (!braced) break;
          const ds = fields(it, 'designator');
          const d0 = ds[0];
          if (!d0 || d0.type !== 'field_designator') bad(cx.src.loc(it), 'array designator in a struct initialiser');
          const name = this.text(named(d0)[0], cx);
          const k = t.fields.findIndex((f) => f.name === name);
          if (k < 0) bad(cx.src.loc(d0), `${typeName(t)} has no member '${name}'`);
          pos.i++;
          this.designated(t.fields[k].t, ds.slice(1), field(it, 'value')!, cx, ops, off + t.fields[k].off);
          fi = k + 1;
          continue;
        }
        if (fi >= t.fields.length || (t.union && fi > 0)) break;
        this.fillElem(t.fields[fi].t, items, pos, cx, ops, off + t.fields[fi].off);
        fi++;
      }
      return 1;
    }
    this.fillElem(t, items, pos, cx, ops, off);
    return 1;
  }

  private designated(t: CType, rest: N[], value: N, cx: Cx, ops: InitOp[], off: number): void {
    if (rest.length === 0) {
      if (value.type === 'initializer_list') this.initList(t, value, cx, ops, off);
      else this.fillElem(t, [value], { i: 0 }, cx, ops, off);
      return;
    }
    const d = rest[0];
    if (d.type === 'subscript_designator' && t.k === 'arr') {
      const i = this.constEval(named(d)[0], cx);
      this.designated(t.of, rest.slice(1), value, cx, ops, off + i * sizeOf(t.of));
      return;
    }
    if (d.type === 'field_designator' && t.k === 'struct') {
      const name = this.text(named(d)[0], cx);
      const f = t.fields.find((x) => x.name === name);
      if (!f) bad(cx.src.loc(d), `${typeName(t)} has no member '${name}'`);
      this.designated(f.t, rest.slice(1), value, cx, ops, off + f.off);
      return;
    }
    bad(cx.src.loc(d), 'designator does not match the type');
  }

  private fillElem(t: CType, items: N[], pos: { i: number }, cx: Cx, ops: InitOp[], off: number): void {
    const it = items[pos.i];
    if (it.type === 'initializer_list') {
      pos.i++;
      this.initList(t, it, cx, ops, off);
      return;
    }
    if (t.k === 'arr' || t.k === 'struct') {
      if (t.k === 'arr' && isInt(t.of) && t.of.size === 1 && (it.type === 'string_literal' || it.type === 'concatenated_string')) {
        pos.i++;
        this.initAt(t, it, cx, ops, off);
        return;
      }
      if (t.k === 'struct' && it.type !== 'initializer_pair') {
        const E = this.rval(it, cx);
        if (E.t === t) {
          pos.i++;
          this.initAt(t, it, cx, ops, off);
          return;
        }
      }
      this.fillAgg(t, items, pos, cx, ops, off, false);
      return;
    }
    pos.i++;
    this.initAt(t, it.type === 'initializer_pair' ? field(it, 'value')! : it, cx, ops, off);
  }

  // ================================================================= functions

  plainOf(f: FnRec): NonNullable<FnRec['plain']> {
    if (!f.plain) f.plain = this.compileFn(f, false) as NonNullable<FnRec['plain']>;
    return f.plain;
  }

  genOf(f: FnRec): NonNullable<FnRec['gen']> {
    if (!f.gen) f.gen = this.compileFn(f, true) as NonNullable<FnRec['gen']>;
    return f.gen;
  }

  private compileFn(f: FnRec, gen: boolean): FnCode & { run: unknown } {
    const def = this.defs.get(f)!;
    const body = field(def.n, 'body')!;
    const fx: Fx = { name: f.name, fn: f, gen, nslots: 2, frameSize: 0, addrTaken: this.addrTaken(body), ret: f.type.ret, locals: [] };
    for (const a of this.tensorAddr) fx.addrTaken.add(a);
    const scope = new Scope(this.global);
    const cx: Cx = { fx, scope, hoist: null, src: this.src };
    const loc = f.loc;
    // parameters: slots 2.. in order; MEM-homed ones are copied in the prologue
    const prologue: { slot: number; off: number; t: CType }[] = [];
    def.params.forEach((p) => {
      const slot = fx.nslots++;
      if (!p.name) return;
      if (p.t.k === 'struct' || fx.addrTaken.has(p.name)) {
        const off = this.frameAlloc(cx, p.t, loc);
        scope.syms.set(p.name, { k: 'frame', t: p.t, off, name: p.name });
        fx.locals.push({ name: p.name, type: p.t, offset: off, fromLine: loc.line, toLine: loc.line });
        prologue.push({ slot, off, t: p.t });
      } else {
        scope.syms.set(p.name, { k: 'slot', t: p.t, slot, name: p.name });
        fx.locals.push({ name: p.name, type: p.t, slot, fromLine: loc.line, toLine: loc.line });
      }
    });
    let item: Item;
    if (this.syntaxBroken.has(f)) {
      const e = this.problems.find((p) => p.loc && p.loc.line >= loc.line) ?? new SimError('syntax error', loc, [], 'compile');
      item = { g: false, f: () => { throw this.rt.err(e.message, e.loc, 'compile'); } };
    } else if (gen) item = this.blockG(body, cx, false);
    else item = { g: false, f: this.block(body, cx, false) };
    const rt: Runtime = this.rt;
    const stores = prologue.map((p) => ({ ...p, st: storer(rt, p.t, loc, true), size: sizeOf(p.t) }));
    const nslots = fx.nslots;
    const proto: Frame = new Array(nslots).fill(0);
    const frameSize = alignUp(fx.frameSize, 8);
    const depth = rt.maxCalls / 3;
    const code: FnCode = { name: f.name, gen, nslots, proto, frameSize, locals: fx.locals };
    const enter = (nf: Frame, site: SourceLoc | undefined): number => {
      const h = rt.cur;
      const calls = h.calls;
      const n = h.n;
      if (n >= rt.maxCalls) rt.fault(`stack overflow: more than ${depth} nested calls`, site ?? loc);
      calls[n] = code;
      calls[n + 1] = site;
      calls[n + 2] = nf;
      h.n = n + 3;
      let sp0 = 0;
      if (frameSize !== 0) {
        if (h.top === 0) rt.allocStack(h, site ?? loc);
        sp0 = h.sp;
        const bp = sp0 - frameSize;
        if (bp < h.lo) rt.fault(`stack overflow: the ${rt.stackBytes}-byte C stack in MEM is full`, site ?? loc);
        h.sp = bp;
        nf[0] = bp;
        rt.writing(bp, frameSize);
        rt.mem.fill(0, bp, sp0);
        for (const p of stores) {
          if (p.t.k === 'struct') rt.memcpy(bp + p.off, nf[p.slot], p.size, site ?? loc);
          else p.st(bp + p.off, nf[p.slot]);
        }
      }
      const b = rt.b;
      if (--b.steps < rt.mark) rt.tick(site ?? loc);
      return sp0;
    };
    const leave = (h: Hart, sp0: number): void => {
      if (frameSize !== 0) h.sp = sp0;
      h.n -= 3;
    };
    if (!item.g) {
      const B = item.f;
      if (frameSize === 0) {
        // the hot path of small functions: no MEM frame
        const max = rt.maxCalls;
        return Object.assign(code, {
          run(nf: Frame, site: SourceLoc | undefined): number {
            const h = rt.cur;
            const n = h.n;
            if (n >= max) rt.fault(`stack overflow: more than ${depth} nested calls`, site ?? loc);
            const calls = h.calls;
            calls[n] = code;
            calls[n + 1] = site;
            calls[n + 2] = nf;
            h.n = n + 3;
            const b = rt.b;
            if (--b.steps < rt.mark) rt.tick(site ?? loc);
            B(nf);
            h.n = n;
            return nf[1];
          },
        });
      }
      return Object.assign(code, {
        run(nf: Frame, site: SourceLoc | undefined): number {
          const h = rt.cur;
          const sp0 = enter(nf, site);
          B(nf);
          leave(h, sp0);
          return nf[1];
        },
      });
    }
    const G = item.f;
    return Object.assign(code, {
      *run(nf: Frame, site: SourceLoc | undefined): Generator<void, number, void> {
        const h = rt.cur;
        const sp0 = enter(nf, site);
        yield* G(nf);
        leave(h, sp0);
        return nf[1];
      },
    });
  }

  /** Names used as `&name` in a function body (those locals live in MEM). */
  private addrTaken(body: N): Set<string> {
    const out = new Set<string>();
    eachNode(body, (n) => {
      if (n.type === 'pointer_expression' && n.kids[0]?.type === '&') {
        let a = field(n, 'argument');
        while (a && a.type === 'parenthesized_expression') a = named(a)[0];
        if (a?.type === 'identifier') out.add(this.text(a));
      }
    });
    return out;
  }

  // ================================================================= yield analysis

  private computeYields(): void {
    // names declared as variables anywhere (calls through them are calls through pointers)
    const collect = (n: N): void => {
      if (n.type === 'declaration' || n.type === 'parameter_declaration') {
        for (const d of fields(n, 'declarator')) {
          const nm = this.declName(d);
          if (nm) this.varNames.add(nm);
        }
      }
    };
    for (const n of this.fnNodes.values()) eachNode(n, collect);
    const calls = new Map<FnRec, { direct: boolean; callees: Set<FnRec> }>();
    for (const [f, n] of this.fnNodes) {
      const info = { direct: false, callees: new Set<FnRec>() };
      eachNode(field(n, 'body')!, (x) => {
        if (x.type === 'call_expression') {
          const c = this.callTarget(x);
          if (c === 'yield' || c === 'dynamic') info.direct = true;
          else if (c) info.callees.add(c);
        }
      });
      calls.set(f, info);
    }
    for (const [f, i] of calls) f.mayYield = i.direct;
    for (let changed = true; changed; ) {
      changed = false;
      for (const [f, i] of calls) {
        if (f.mayYield) continue;
        for (const c of i.callees)
          if (c.mayYield) {
            f.mayYield = true;
            changed = true;
            break;
          }
      }
    }
  }

  private declName(d: N): string | undefined {
    if (d.type === 'identifier') return this.text(d);
    const inner = field(d, 'declarator') ?? named(d).find((k) => k.type.endsWith('declarator') || k.type === 'identifier');
    return inner ? this.declName(inner) : undefined;
  }

  /** What a call may do to the hart: yield (`ztaTaskYield`), call through a pointer, or call a C function. */
  private callTarget(call: N): FnRec | 'yield' | 'dynamic' | undefined {
    let fnN = field(call, 'function');
    while (fnN && fnN.type === 'parenthesized_expression') fnN = named(fnN)[0];
    if (!fnN || fnN.type !== 'identifier') return 'dynamic';
    const name = this.text(fnN);
    if (YIELD_NAMES.has(name)) return 'yield';
    const f = this.fns.get(name);
    if (f?.hasBody) return f;
    if (f) return undefined;
    return this.varNames.has(name) ? 'dynamic' : undefined;
  }

  /** Does evaluating `n` possibly yield (in generator code)? */
  private yields(n: N): boolean {
    let r = this.yieldMemo.get(n.id);
    if (r !== undefined) return r;
    // iterative (deeply nested C must not overflow the JS stack); a subtree without yields has none below either
    r = false;
    const seen: N[] = [];
    const todo: N[] = [n];
    for (let x = todo.pop(); x && !r; x = todo.pop()) {
      const known = this.yieldMemo.get(x.id);
      if (known !== undefined) {
        r = known;
        continue;
      }
      seen.push(x);
      if (x.type === 'call_expression') {
        const c = this.callTarget(x);
        r = c === 'yield' || c === 'dynamic' || (typeof c === 'object' && c.mayYield);
      }
      for (let i = x.kids.length - 1; i >= 0; i--) todo.push(x.kids[i]);
    }
    if (!r) for (const x of seen) this.yieldMemo.set(x.id, false);
    this.yieldMemo.set(n.id, r);
    return r;
  }

  // ================================================================= statements

  private thrower(e: SimError): SF {
    this.problems.push(e);
    return () => {
      throw this.rt.err(e.message, e.loc, e.kind);
    };
  }

  private stmt(n: N, cx: Cx): SF | null {
    try {
      const f = this.stmtInner(n, cx);
      return f && this.opts.debug && n.type !== 'compound_statement' ? this.dbgStmt(f, n, cx) : f;
    } catch (e) {
      if (e instanceof SimError) return this.thrower(e);
      const ne = nestingError(e, () => cx.src.loc(n));
      if (ne) return this.thrower(ne);
      throw e;
    }
  }

  private stmtInner(n: N, cx: Cx): SF | null {
    const loc = cx.src.loc(n);
    switch (n.type) {
      case 'compound_statement':
        return this.block(n, cx, true);
      case 'expression_statement': {
        const e = named(n)[0];
        if (!e) return null;
        return this.rval(e, cx, true).f;
      }
      case 'declaration': {
        const parts = this.declaration(n, cx, false);
        if (parts.length === 0) return null;
        if (parts.length === 1) return parts[0].sf;
        const ss = parts.map((p) => p.sf);
        return (fr) => {
          for (let i = 0; i < ss.length; i++) ss[i](fr);
          return 0;
        };
      }
      case 'type_definition':
        this.typedef(n, cx);
        return null;
      case 'struct_specifier':
      case 'union_specifier':
      case 'enum_specifier':
        this.typeSpec(n, cx);
        return null;
      case 'if_statement': {
        const C = this.cond(field(n, 'condition')!, cx);
        const T = this.stmt(field(n, 'consequence')!, cx) ?? (() => 0);
        const alt = field(n, 'alternative');
        const altS = alt ? named(alt)[0] ?? alt : undefined;
        const F = altS ? this.stmt(altS.type === 'else_clause' ? named(altS)[0] : altS, cx) : null;
        if (F) return (fr) => (C(fr) ? T(fr) : F(fr));
        return (fr) => (C(fr) ? T(fr) : 0);
      }
      case 'while_statement': {
        const C = this.cond(field(n, 'condition')!, cx);
        const { f: B, st } = this.loopBody(field(n, 'body')!, cx);
        const rt: Runtime = this.rt;
        return (fr) => {
          const b = rt.b;
          for (;;) {
            if ((b.steps -= st) < rt.mark) rt.tick(loc);
            if (!C(fr)) return 0;
            const c = B(fr);
            if (typeof c === 'object') {
              if (c === BRK) return 0;
              if (c === RET) return RET;
            }
          }
        };
      }
      case 'do_statement': {
        const C = this.cond(field(n, 'condition')!, cx);
        const { f: B, st } = this.loopBody(field(n, 'body')!, cx);
        const rt: Runtime = this.rt;
        return (fr) => {
          const b = rt.b;
          for (;;) {
            if ((b.steps -= st) < rt.mark) rt.tick(loc);
            const c = B(fr);
            if (typeof c === 'object') {
              if (c === BRK) return 0;
              if (c === RET) return RET;
            }
            if (!C(fr)) return 0;
          }
        };
      }
      case 'for_statement': {
        const fcx: Cx = { ...cx, scope: new Scope(cx.scope) };
        const initN = field(n, 'initializer');
        let I: SF | null = null;
        if (initN) I = initN.type === 'declaration' ? this.stmtInner(initN, fcx) : this.exprStmt(initN, fcx);
        const condN = field(n, 'condition');
        const updN = field(n, 'update');
        const rt: Runtime = this.rt;
        const spec = condN && updN ? this.countedSpec(condN, updN, fcx) : undefined;
        const C = condN ? this.cond(condN, fcx) : null;
        const U = updN ? this.rval(updN, fcx, true).f : null;
        const { f: B, st } = this.loopBody(field(n, 'body')!, fcx);
        if (spec) {
          const loop = countedLoop(spec.op, spec.u, spec.a, spec.lim, spec.k, spec.d, I, B, st, rt, loc);
          if (loop) return loop;
        }
        return (fr) => {
          if (I) I(fr);
          const b = rt.b;
          for (;;) {
            if ((b.steps -= st) < rt.mark) rt.tick(loc);
            if (C && !C(fr)) return 0;
            const c = B(fr);
            if (typeof c === 'object') {
              if (c === BRK) return 0;
              if (c === RET) return RET;
            }
            if (U) U(fr);
          }
        };
      }
      case 'switch_statement':
        return this.switchStmt(n, cx, null) as SF;
      case 'return_statement': {
        const v = named(n)[0];
        if (!v) return () => RET;
        const ret = cx.fx.ret;
        const E = this.rval(v, cx);
        if (ret.k === 'struct') {
          if (E.t !== ret) bad(loc, `returning ${typeName(E.t)} from a function returning ${typeName(ret)}`);
          const size = sizeOf(ret);
          const rt: Runtime = this.rt;
          const F = E.f;
          return (fr) => {
            rt.memcpy(fr[1], F(fr), size, loc);
            return RET;
          };
        }
        if (ret.k === 'void') {
          const F = E.f;
          return (fr) => {
            F(fr);
            return RET;
          };
        }
        const V = this.conv(E, ret, v, cx).f;
        return (fr) => {
          fr[1] = V(fr);
          return RET;
        };
      }
      case 'break_statement':
        return () => BRK;
      case 'continue_statement':
        return () => CONT;
      case 'comment':
        return null;
      case 'case_statement':
        return bad(loc, 'not simulated: case label nested inside a statement of the switch', 'not-simulated');
      case 'labeled_statement':
        return bad(loc, 'not simulated: labeled statement (goto target)', 'not-simulated');
      case 'goto_statement':
        return bad(loc, 'not simulated: goto statement', 'not-simulated');
      case 'ERROR':
        return bad(loc, 'syntax error');
    }
    return bad(loc, `not simulated: ${n.type.replace(/_/g, ' ')}`, 'not-simulated');
  }

  /** A loop body; a block of one statement is run directly (its step counted by the loop). */
  private loopBody(n: N, cx: Cx): { f: SF; st: number } {
    if (n.type === 'compound_statement') {
      const ks = named(n);
      if (ks.length === 1 && ks[0].type !== 'declaration' && ks[0].type !== 'type_definition' && ks[0].type !== 'comment') {
        const f = this.stmt(ks[0], { ...cx, scope: new Scope(cx.scope) });
        return { f: f ?? (() => 0), st: 2 };
      }
    }
    return { f: this.stmt(n, cx) ?? (() => 0), st: 1 };
  }

  /** `for (...; i OP lim; i++ / i += k)` on an int register local: the loop test and step inline. */
  private countedSpec(condN: N, updN: N, cx: Cx): { op: string; u: boolean; a: number; lim: number | undefined; k: number; d: number } | undefined {
    let c = condN;
    while (c.type === 'parenthesized_expression' && named(c).length === 1) c = named(c)[0];
    if (c.type !== 'binary_expression') return undefined;
    const op = field(c, 'operator')!.type;
    if (op !== '<' && op !== '<=' && op !== '>' && op !== '>=') return undefined;
    if (this.castFixup(c, cx)) return undefined;
    const ncx: Cx = { ...cx, hoist: null };
    let L: E;
    let R: E;
    try {
      [L, R] = this.cmpConv(this.rval(field(c, 'left')!, ncx), this.rval(field(c, 'right')!, ncx), c, ncx);
    } catch {
      return undefined;
    }
    const kind = kindOf(L.t);
    if (L.slot === undefined || (kind !== 'i32' && kind !== 'u32') || kindOf(R.t) !== kind) return undefined;
    if (R.slot === undefined && R.k === undefined) return undefined;
    let u = updN;
    while (u.type === 'parenthesized_expression' && named(u).length === 1) u = named(u)[0];
    let d: number;
    let target: N | undefined;
    if (u.type === 'update_expression') {
      d = field(u, 'operator')!.type === '++' ? 1 : -1;
      target = field(u, 'argument');
    } else if (u.type === 'assignment_expression') {
      const aop = field(u, 'operator')!.type;
      if (aop !== '+=' && aop !== '-=') return undefined;
      let k: E;
      try {
        k = this.rval(field(u, 'right')!, ncx);
      } catch {
        return undefined;
      }
      if (k.k === undefined || !Number.isInteger(k.k) || k.t.k !== 'int' || k.t.size > 4) return undefined;
      d = aop === '+=' ? k.k : -k.k;
      target = field(u, 'left');
    } else return undefined;
    while (target && target.type === 'parenthesized_expression' && named(target).length === 1) target = named(target)[0];
    if (!target || target.type !== 'identifier') return undefined;
    const sym = cx.scope.lookup(this.text(target, cx));
    if (sym?.k !== 'slot' || sym.slot !== L.slot) return undefined;
    return { op, u: kind === 'u32', a: L.slot, lim: R.slot, k: R.k ?? 0, d };
  }

  private exprStmt(n: N, cx: Cx): SF {
    return this.rval(n, cx, true).f;
  }

  private block(n: N, cx: Cx, newScope: boolean): SF {
    const bcx: Cx = newScope ? { ...cx, scope: new Scope(cx.scope) } : cx;
    const ss: SF[] = [];
    const locs: SourceLoc[] = [];
    for (const k of named(n)) {
      const s = this.stmt(k, bcx);
      if (s) {
        ss.push(s);
        locs.push(bcx.src.loc(k));
      }
    }
    return this.mkBlock(ss, locs);
  }

  private mkBlock(ss: SF[], locs: SourceLoc[]): SF {
    const rt: Runtime = this.rt;
    const n = ss.length;
    if (n === 0) return () => 0;
    if (n === 1) {
      const s0 = ss[0];
      const l0 = locs[0];
      return (fr) => {
        const b = rt.b;
        if (--b.steps < rt.mark) rt.tick(l0);
        return s0(fr);
      };
    }
    if (n === 2) {
      const s0 = ss[0];
      const s1 = ss[1];
      const l0 = locs[0];
      const l1 = locs[1];
      return (fr) => {
        const b = rt.b;
        if (--b.steps < rt.mark) rt.tick(l0);
        const c = s0(fr);
        if (typeof c === 'object') return c;
        if (--b.steps < rt.mark) rt.tick(l1);
        return s1(fr);
      };
    }
    return (fr) => {
      const b = rt.b;
      for (let i = 0; i < n; i++) {
        if (--b.steps < rt.mark) rt.tick(locs[i]);
        const c = ss[i](fr);
        if (typeof c === 'object') return c;
      }
      return 0;
    };
  }

  /** switch: the body's case labels index into the flattened statement list. */
  private switchStmt(n: N, cx: Cx, gen: null | 'gen'): SF | GSF {
    const loc = cx.src.loc(n);
    const scx: Cx = { ...cx, scope: new Scope(cx.scope) };
    const steps: GStep[] | null = gen ? [] : null;
    const ccx: Cx = { ...scx, hoist: steps };
    const condN = field(n, 'condition')!;
    let V = this.rval(condN, ccx);
    if (!isInt(V.t)) bad(loc, `switch on ${typeName(V.t)}`);
    V = this.conv(V, promote(V.t), condN, ccx);
    const body = field(n, 'body')!;
    const table = new Map<number, number>();
    let dflt = -1;
    const items: Item[] = [];
    const locs: SourceLoc[] = [];
    const norm = normalizer(V.t) ?? ((x: number) => x);
    const add = (s: N): void => {
      if (gen) {
        const it = this.stmtG(s, scx);
        if (it) {
          items.push(it);
          locs.push(scx.src.loc(s));
        }
      } else {
        const f = this.stmt(s, scx);
        if (f) {
          items.push({ g: false, f });
          locs.push(scx.src.loc(s));
        }
      }
    };
    const kids = body.type === 'compound_statement' ? named(body) : [body];
    for (const k of kids) {
      if (k.type !== 'case_statement') {
        add(k);
        continue;
      }
      const vN = field(k, 'value');
      if (vN) {
        const v = norm(this.constEval(vN, scx));
        if (table.has(v)) bad(scx.src.loc(k), `duplicate case value ${v}`);
        table.set(v, items.length);
      } else dflt = items.length;
      for (const s of named(k)) if (s !== vN) add(s);
    }
    const rt: Runtime = this.rt;
    const VF = V.f;
    const count = items.length;
    if (!gen) {
      const ss = items.map((i) => i.f as SF);
      return (fr: Frame): unknown => {
        let i = table.get(VF(fr));
        if (i === undefined) i = dflt;
        if (i < 0) return 0;
        const b = rt.b;
        for (; i < count; i++) {
          if (--b.steps < rt.mark) rt.tick(locs[i]);
          const c = ss[i](fr);
          if (typeof c === 'object') return c === BRK ? 0 : c;
        }
        return 0;
      };
    }
    const pre = steps!;
    return function* (fr: Frame): Generator<void, unknown, void> {
      for (const s of pre) yield* s(fr);
      let i = table.get(VF(fr));
      if (i === undefined) i = dflt;
      if (i < 0) return 0;
      const b = rt.b;
      for (; i < count; i++) {
        if (--b.steps < rt.mark) rt.tick(locs[i]);
        const it = items[i];
        const c = it.g ? yield* it.f(fr) : it.f(fr);
        if (typeof c === 'object') return c === BRK ? 0 : c;
      }
      return 0;
    };
  }

  // ----------------------------------------------------------------- debugger stop points

  private dbgInfo(n: N, cx: Cx): DebugStmt {
    // the scope chain as it is here (later declarations of enclosing blocks stay invisible)
    const snap = (s: Scope): Scope => {
      if (s === this.global || !s.parent) return s;
      const c = new Scope(snap(s.parent));
      c.syms = new Map(s.syms);
      c.tags = s.tags;
      return c;
    };
    const loc = cx.src.loc(n);
    const tensor = n.type === 'expression_statement' && PLACEHOLDER_CALL.test(this.text(n, cx));
    const st: DebugStmt = { id: this.dbgStmts.length, loc, fn: cx.fx.name, gen: cx.fx.gen, tensor, ec: { scope: snap(cx.scope), fx: cx.fx, loc, macros: this.macrosForEval, cache: new Map() } };
    this.dbgStmts.push(st);
    return st;
  }

  /** Wraps a statement closure with its stop point. */
  private dbgStmt(f: SF, n: N, cx: Cx): SF {
    if (this.dbgWrapped.has(f)) return f;
    const port = this.opts.debug!;
    const id = this.dbgInfo(n, cx).id;
    const rt: Runtime = this.rt;
    const [pos0, pos1] = port.pos;
    const ctl = port.ctl;
    const w: SF = (fr) => {
      const h = rt.cur;
      if (h.id === 0) pos0[h.n] = id;
      else pos1[h.n] = id;
      if ((port.hit[id] | ctl[0]) !== 0) port.stop(id, fr);
      return f(fr);
    };
    this.dbgWrapped.add(w);
    return w;
  }

  private dbgStmtG(it: Item, n: N, cx: Cx): Item {
    if (!it.g) return { g: false, f: this.dbgStmt(it.f, n, cx) };
    if (this.dbgWrapped.has(it.f)) return it;
    const port = this.opts.debug!;
    const id = this.dbgInfo(n, cx).id;
    const rt: Runtime = this.rt;
    const [pos0, pos1] = port.pos;
    const ctl = port.ctl;
    const g = it.f;
    const w: GSF = function* (fr: Frame): Generator<void, unknown, void> {
      const h = rt.cur;
      if (h.id === 0) pos0[h.n] = id;
      else pos1[h.n] = id;
      if ((port.hit[id] | ctl[0]) !== 0) port.stop(id, fr);
      return yield* g(fr);
    };
    this.dbgWrapped.add(w);
    return { g: true, f: w };
  }

  /**
   * Compiles a C expression typed in a debugger (watch, hover, console, breakpoint condition) in the
   * scope of a stop point. Unlike `>` expressions it may have any type: aggregates evaluate to their
   * MEM address. `lvalue` tells whether it can be assigned.
   */
  debugExpr(ec: EvalCtx, text: string): { t: CType; f: EF; slot?: number } {
    const fail = (msg: string): never => {
      throw new SimError(msg, ec.loc, [], 'compile');
    };
    const { expr, cx } = this.snippet(ec, text, 'a debugger expression', fail);
    const E = this.rvalNoDecay(expr, cx);
    return { t: E.t, f: E.f, slot: E.slot };
  }

  // ----------------------------------------------------------------- generator statements

  private stmtG(n: N, cx: Cx): Item | null {
    if (!this.yields(n)) {
      const f = this.stmt(n, { ...cx, hoist: null });
      return f ? { g: false, f } : null;
    }
    try {
      const it = this.stmtGInner(n, cx);
      return this.opts.debug && n.type !== 'compound_statement' ? this.dbgStmtG(it, n, cx) : it;
    } catch (e) {
      if (e instanceof SimError) return { g: false, f: this.thrower(e) };
      const ne = nestingError(e, () => cx.src.loc(n));
      if (ne) return { g: false, f: this.thrower(ne) };
      throw e;
    }
  }

  private blockG(n: N, cx: Cx, newScope: boolean): Item {
    const bcx: Cx = newScope ? { ...cx, scope: new Scope(cx.scope) } : cx;
    const items: Item[] = [];
    const locs: SourceLoc[] = [];
    for (const k of named(n)) {
      const it = this.stmtG(k, bcx);
      if (it) {
        items.push(it);
        locs.push(bcx.src.loc(k));
      }
    }
    if (!items.some((i) => i.g)) return { g: false, f: this.mkBlock(items.map((i) => i.f as SF), locs) };
    const rt: Runtime = this.rt;
    return {
      g: true,
      f: function* (fr: Frame): Generator<void, unknown, void> {
        const b = rt.b;
        for (let i = 0; i < items.length; i++) {
          if (--b.steps < rt.mark) rt.tick(locs[i]);
          const it = items[i];
          const c = it.g ? yield* it.f(fr) : it.f(fr);
          if (typeof c === 'object') return c;
        }
        return 0;
      },
    };
  }

  /** Generator code for a statement that contains a call that may yield. */
  private stmtGInner(n: N, cx: Cx): Item {
    const loc = cx.src.loc(n);
    const rt: Runtime = this.rt;
    const withSteps = (steps: GStep[], f: SF): Item => ({
      g: true,
      f: function* (fr: Frame): Generator<void, unknown, void> {
        for (const s of steps) yield* s(fr);
        return f(fr);
      },
    });
    switch (n.type) {
      case 'compound_statement':
        return this.blockG(n, cx, true);
      case 'expression_statement': {
        const steps: GStep[] = [];
        const E = this.rval(named(n)[0], { ...cx, hoist: steps }, true).f;
        return withSteps(steps, (fr) => {
          E(fr);
          return 0;
        });
      }
      case 'return_statement': {
        const steps: GStep[] = [];
        const f = this.stmtInner(n, { ...cx, hoist: steps })!;
        return withSteps(steps, f);
      }
      case 'declaration': {
        const parts = this.declaration(n, { ...cx, hoist: [] }, false);
        return {
          g: true,
          f: function* (fr: Frame): Generator<void, unknown, void> {
            for (const p of parts) {
              if (p.steps) for (const s of p.steps) yield* s(fr);
              p.sf(fr);
            }
            return 0;
          },
        };
      }
      case 'if_statement': {
        const steps: GStep[] = [];
        const C = this.cond(field(n, 'condition')!, { ...cx, hoist: steps });
        const T = this.stmtG(field(n, 'consequence')!, cx) ?? { g: false, f: () => 0 };
        const alt = field(n, 'alternative');
        const altS = alt ? (alt.type === 'else_clause' ? named(alt)[0] : alt) : undefined;
        const F = altS ? this.stmtG(altS, cx) ?? { g: false as const, f: () => 0 } : { g: false as const, f: () => 0 };
        return {
          g: true,
          f: function* (fr: Frame): Generator<void, unknown, void> {
            for (const s of steps) yield* s(fr);
            const it = C(fr) ? T : F;
            return it.g ? yield* it.f(fr) : it.f(fr);
          },
        };
      }
      case 'while_statement':
      case 'do_statement':
      case 'for_statement': {
        const fcx: Cx = { ...cx, scope: new Scope(cx.scope) };
        let I: Item | null = null;
        const initN = n.type === 'for_statement' ? field(n, 'initializer') : undefined;
        if (initN) {
          if (initN.type === 'declaration') I = this.stmtG(initN, fcx);
          else {
            const st: GStep[] = [];
            const E = this.rval(initN, { ...fcx, hoist: st }, true).f;
            I = withSteps(st, (fr) => {
              E(fr);
              return 0;
            });
          }
        }
        const cs: GStep[] = [];
        const condN = field(n, 'condition');
        const C = condN ? this.cond(condN, { ...fcx, hoist: cs }) : null;
        const us: GStep[] = [];
        const updN = n.type === 'for_statement' ? field(n, 'update') : undefined;
        const U = updN ? this.rval(updN, { ...fcx, hoist: us }, true).f : null;
        const B = this.stmtG(field(n, 'body')!, fcx) ?? { g: false as const, f: () => 0 };
        const isDo = n.type === 'do_statement';
        return {
          g: true,
          f: function* (fr: Frame): Generator<void, unknown, void> {
            if (I) {
              if (I.g) yield* I.f(fr);
              else I.f(fr);
            }
            let first = true;
            for (;;) {
              const b = rt.b;
              if (--b.steps < rt.mark) rt.tick(loc);
              if (C && !(isDo && first)) {
                for (const s of cs) yield* s(fr);
                if (!C(fr)) return 0;
              }
              first = false;
              const c = B.g ? yield* B.f(fr) : B.f(fr);
              if (typeof c === 'object') {
                if (c === BRK) return 0;
                if (c === RET) return RET;
              }
              if (U) {
                for (const s of us) yield* s(fr);
                U(fr);
              }
            }
          },
        };
      }
      case 'switch_statement':
        return { g: true, f: this.switchStmt(n, cx, 'gen') as GSF };
    }
    const f = this.stmt(n, { ...cx, hoist: null });
    return { g: false, f: f ?? (() => 0) };
  }

  // ================================================================= expressions

  /** A condition as a boolean closure. */
  private cond(n: N, cx: Cx): (fr: Frame) => boolean {
    while (n.type === 'parenthesized_expression' && named(n).length === 1) n = named(n)[0];
    if (n.type === 'binary_expression') {
      const op = field(n, 'operator')!.type;
      if (op === '&&' || op === '||') {
        if (!(cx.hoist && this.yields(field(n, 'right')!))) {
          const A = this.cond(field(n, 'left')!, cx);
          const B = this.cond(field(n, 'right')!, cx);
          return op === '&&' ? (fr) => A(fr) && B(fr) : (fr) => A(fr) || B(fr);
        }
      } else if (CMP.has(op) && !this.castFixup(n, cx)) {
        const [L0, R0] = this.cmpConv(this.rval(field(n, 'left')!, cx), this.rval(field(n, 'right')!, cx), n, cx);
        const fast = fastCond(op, L0.slot, R0.slot, R0.k);
        if (fast) return fast;
        const p = this.cmpOperands(L0, R0);
        if (p) {
          const [L, R] = p;
          if (R.k !== undefined) {
            const k = R.k;
            switch (op) {
              case '<': return (fr) => L(fr) < k;
              case '>': return (fr) => L(fr) > k;
              case '<=': return (fr) => L(fr) <= k;
              case '>=': return (fr) => L(fr) >= k;
              case '==': return (fr) => L(fr) === k;
              case '!=': return (fr) => L(fr) !== k;
            }
          }
          const Rf = R.f;
          switch (op) {
            case '<': return (fr) => L(fr) < Rf(fr);
            case '>': return (fr) => L(fr) > Rf(fr);
            case '<=': return (fr) => L(fr) <= Rf(fr);
            case '>=': return (fr) => L(fr) >= Rf(fr);
            case '==': return (fr) => L(fr) === Rf(fr);
            case '!=': return (fr) => L(fr) !== Rf(fr);
          }
        }
      }
    } else if (n.type === 'unary_expression' && field(n, 'operator')!.type === '!') {
      const A = this.cond(field(n, 'argument')!, cx);
      return (fr) => !A(fr);
    }
    const E = this.rval(n, cx);
    if (!isScalar(E.t)) bad(cx.src.loc(n), `${typeName(E.t)} used as a condition`);
    if (E.k !== undefined) {
      const v = E.k !== 0;
      return () => v;
    }
    const F = E.f;
    if (E.slot !== undefined) {
      const s = E.slot;
      return (fr) => fr[s] !== 0;
    }
    return (fr) => F(fr) !== 0;
  }

  /** Operands of a comparison converted to their common type (left closure, right E). */
  private cmpOperands(L: E, R: E): [EF, E] | undefined {
    if (L.slot !== undefined) {
      const s = L.slot;
      return [(fr) => fr[s], R];
    }
    return [L.f, R];
  }

  private cmpConv(L: E, R: E, n: N, cx: Cx): [E, E] {
    const lp = L.t.k === 'ptr';
    const rp = R.t.k === 'ptr';
    if (lp || rp) {
      // pointers compare as unsigned addresses
      return [lp ? L : this.conv(L, UINT, n, cx, true), rp ? R : this.conv(R, UINT, n, cx, true)];
    }
    if (!isArith(L.t) || !isArith(R.t)) bad(cx.src.loc(n), `cannot compare ${typeName(L.t)} and ${typeName(R.t)}`);
    const ct = common(L.t, R.t);
    return [this.conv(L, ct, n, cx), this.conv(R, ct, n, cx)];
  }

  /** The value of a constant expression. */
  constEval(n: N, cx: Cx): number {
    const E = this.rval(n, { ...cx, hoist: null });
    if (E.k === undefined) bad(cx.src.loc(n), 'constant expression required');
    return E.k;
  }

  private cnst(t: CType, v: number): E {
    return { t, f: () => v, k: v };
  }

  /** Converts an expression to type `t` (implicit conversions; `explicit` allows pointer/integer casts). */
  conv(e: E, t: CType, n: N, cx: Cx, explicit = false): E {
    if (t.k === 'void') return { t, f: e.f };
    if (e.t.k === 'struct' || t.k === 'struct') {
      if (e.t === t) return e;
      return bad(cx.src.loc(n), `cannot convert ${typeName(e.t)} to ${typeName(t)}`);
    }
    if (t.k === 'arr' || t.k === 'fn') bad(cx.src.loc(n), `cannot convert to ${typeName(t)}`);
    if (e.t.k === 'void') bad(cx.src.loc(n), 'void value used');
    void explicit;
    if (widens(e.t, t)) return { ...e, t };
    const norm = normalizer(t);
    if (!norm) return { ...e, t };
    if (e.k !== undefined) return this.cnst(t, norm(e.k));
    const F = e.f;
    const kind = kindOf(t);
    const s = e.slot;
    switch (kind) {
      case 'i32': return s !== undefined ? { t, f: (fr) => fr[s] | 0 } : { t, f: (fr) => F(fr) | 0 };
      case 'u32': return s !== undefined ? { t, f: (fr) => fr[s] >>> 0 } : { t, f: (fr) => F(fr) >>> 0 };
      case 'u8': return { t, f: (fr) => F(fr) & 255 };
      case 'i8': return { t, f: (fr) => (F(fr) << 24) >> 24 };
      case 'u16': return { t, f: (fr) => F(fr) & 65535 };
      case 'i16': return { t, f: (fr) => (F(fr) << 16) >> 16 };
      case 'b': return { t, f: (fr) => (F(fr) !== 0 ? 1 : 0) };
      case 'f32': return { t, f: (fr) => Math.fround(F(fr)) };
    }
    return { t, f: (fr) => norm(F(fr)) };
  }

  /** Array-to-pointer and function-to-pointer decay. */
  private decay(e: E): E {
    if (e.t.k === 'arr') return { t: ptr(e.t.of), f: e.f, k: e.k };
    if (e.t.k === 'fn') return { t: ptr(e.t), f: e.f, k: e.k };
    return e;
  }

  /** Reads an lvalue. */
  private load(lv: LV): E {
    if (lv.slot !== undefined) {
      const s = lv.slot;
      return { t: lv.t, f: (fr) => fr[s], slot: s };
    }
    return { t: lv.t, f: memRead(this.rt, lv.t, lv.a, lv.loc, lv.safe) };
  }

  /** Writes an lvalue with a value already converted to its type. */
  private store(lv: LV, V: EF): EF {
    if (lv.slot !== undefined) {
      const s = lv.slot;
      return (fr) => (fr[s] = V(fr));
    }
    return memWrite(this.rt, lv.t, lv.a, V, lv.loc, lv.safe);
  }

  /** lvalue of `n`, or undefined when `n` is not an lvalue. */
  private lval(n: N, cx: Cx): LV | undefined {
    const loc = cx.src.loc(n);
    switch (n.type) {
      case 'parenthesized_expression': {
        const k = named(n);
        return k.length === 1 ? this.lval(k[0], cx) : undefined;
      }
      case 'identifier': {
        const name = this.text(n, cx);
        const s = cx.scope.lookup(name);
        if (!s) return undefined;
        switch (s.k) {
          case 'slot':
            return { t: s.t, slot: s.slot, a: () => bad(loc, `internal: address of register variable '${name}'`), safe: true, loc };
          case 'frame': {
            const off = s.off;
            return { t: s.t, a: (fr) => fr[0] + off, safe: true, loc };
          }
          case 'global': {
            const g = s.g;
            return { t: g.t, a: () => g.addr, safe: true, loc };
          }
        }
        return undefined;
      }
      case 'string_literal':
      case 'concatenated_string': {
        const bytes = this.strBytes(n, cx);
        const lit = this.strLit(bytes);
        const rt: Runtime = this.rt;
        return { t: arr(this.charT, bytes.length + 1), a: () => (lit.addr >= 0 ? lit.addr : this.allocStr(lit, rt, loc)), safe: true, loc };
      }
      case 'pointer_expression': {
        if (field(n, 'operator')!.type !== '*') return undefined;
        const P = this.decay(this.rval(field(n, 'argument')!, cx));
        if (P.t.k !== 'ptr') bad(loc, `cannot dereference ${typeName(P.t)}`);
        if (P.t.to.k === 'void') bad(loc, 'dereferencing a void pointer');
        return { t: P.t.to, a: P.f, safe: false, loc };
      }
      case 'subscript_expression': {
        let B = this.decay(this.rval(field(n, 'argument')!, cx));
        let I = this.rval(field(n, 'index')!, cx);
        if (B.t.k !== 'ptr' && I.t.k === 'ptr') [B, I] = [I, B];
        else if (I.t.k === 'arr') [B, I] = [this.decay(I), B];
        if (B.t.k !== 'ptr') bad(loc, `subscript of ${typeName(B.t)}`);
        if (!isInt(I.t)) bad(loc, `array index of type ${typeName(I.t)}`);
        const et = B.t.to;
        if (et.k === 'struct' && !et.complete) bad(loc, `subscript of pointer to incomplete ${typeName(et)}`);
        const es = sizeOf(et);
        const BF = B.f;
        if (I.k !== undefined) {
          const d = I.k * es;
          return { t: et, a: d === 0 ? BF : (fr) => (BF(fr) + d) >>> 0, safe: false, loc };
        }
        const IF = I.slot !== undefined ? ((s: number) => (fr: Frame) => fr[s])(I.slot) : I.f;
        if (es === 1) return { t: et, a: (fr) => (BF(fr) + IF(fr)) >>> 0, safe: false, loc };
        return { t: et, a: (fr) => (BF(fr) + IF(fr) * es) >>> 0, safe: false, loc };
      }
      case 'field_expression': {
        const op = field(n, 'operator')!.type;
        const arg = field(n, 'argument')!;
        const fname = this.text(field(n, 'field')!, cx);
        let base: EF;
        let st: CType;
        let safe = false;
        if (op === '->') {
          const P = this.decay(this.rval(arg, cx));
          if (P.t.k !== 'ptr') bad(loc, `'->' on ${typeName(P.t)}`);
          st = P.t.to;
          base = P.f;
        } else {
          const L = this.lval(arg, cx);
          if (L) {
            st = L.t;
            base = L.a;
            safe = L.safe;
          } else {
            const R = this.rval(arg, cx);
            st = R.t;
            base = R.f;
          }
        }
        if (st.k !== 'struct') bad(loc, `member '${fname}' of ${typeName(st)}, which is not a struct`);
        if (!st.complete) bad(loc, `member '${fname}' of incomplete ${typeName(st)}`);
        const bf = this.badStructs.get(st);
        if (bf) bad(loc, `not simulated: member access in a struct with ${bf}`, 'not-simulated');
        const f = findField(st, fname);
        if (!f) bad(loc, `${typeName(st)} has no member '${fname}'`);
        const off = f.off;
        return { t: f.t, a: off === 0 ? base : (fr) => base(fr) + off, safe, loc };
      }
      case 'compound_literal_expression':
        return bad(loc, 'not simulated: compound literal', 'not-simulated');
    }
    return undefined;
  }

  private strBytes(n: N, cx: Cx): Uint8Array {
    const parts = n.type === 'concatenated_string' ? named(n).filter((k) => k.type === 'string_literal') : [n];
    const out: number[] = [];
    for (const p of parts) {
      const t = this.text(p, cx).replace(/^(u8|[LuU])?"/, '').replace(/"$/, '');
      if (/^(u8|[LuU])"/.test(this.text(p, cx)) && !this.text(p, cx).startsWith('u8')) bad(cx.src.loc(p), 'not simulated: wide string literal', 'not-simulated');
      out.push(...decodeEscapes(t));
    }
    return new Uint8Array(out);
  }

  private strLit(bytes: Uint8Array): StrLit {
    const key = String.fromCharCode(...bytes);
    let s = this.strs.get(key);
    if (!s) {
      s = { bytes, addr: -1 };
      this.strs.set(key, s);
    }
    return s;
  }

  /** Places every string literal of the program in MEM (at init). */
  allocStrings(): void {
    for (const s of this.strs.values()) this.allocStr(s, this.rt, undefined);
  }

  allocStr(s: StrLit, rt: Runtime, loc: SourceLoc | undefined): number {
    const a = rt.sv.alloc(s.bytes.length + 1, 1);
    if (!(a >= 0 && a + s.bytes.length + 1 <= rt.size)) rt.fault(`cannot allocate a string literal in MEM (alloc returned ${a})`, loc);
    rt.mem.set(s.bytes, a);
    rt.mem[a + s.bytes.length] = 0;
    s.addr = a;
    return a;
  }

  /** An rvalue (arrays and functions decayed to pointers). `discard`: the value is unused. */
  rval(n: N, cx: Cx, discard = false): E {
    return this.decay(this.rvalNoDecay(n, cx, discard));
  }

  private rvalNoDecay(n: N, cx: Cx, discard = false): E {
    const loc = cx.src.loc(n);
    switch (n.type) {
      case 'number_literal':
        return this.number(this.text(n, cx), loc);
      case 'char_literal': {
        const txt = this.text(n, cx);
        if (/^[LuU]/.test(txt)) bad(loc, 'not simulated: wide character literal', 'not-simulated');
        let v = charLiteralValue(txt);
        if (this.charT.signed) v = (v << 24) >> 24;
        return this.cnst(INT, v);
      }
      case 'true':
        return this.cnst(INT, 1);
      case 'false':
        return this.cnst(INT, 0);
      case 'null':
        return this.cnst(ptr(VOID), 0);
      case 'parenthesized_expression': {
        const k = named(n);
        if (k.length !== 1) bad(loc, 'syntax error');
        if (k[0].type === 'identifier' && cx.scope.lookup(this.text(k[0], cx))?.k === 'type') bad(loc, `unexpected type name '${this.text(k[0], cx)}'`);
        return this.rvalNoDecay(k[0], cx, discard);
      }
      case 'identifier': {
        const name = this.text(n, cx);
        if (name.startsWith(KERNEL_PREFIX)) return this.kernel(Number(name.slice(KERNEL_PREFIX.length)), loc);
        const s = cx.scope.lookup(name);
        if (!s) {
          const f = this.fns.get(name);
          if (f) return { t: f.type, f: () => f.addr, k: undefined };
          return bad(loc, `'${name}' undeclared`);
        }
        switch (s.k) {
          case 'const':
            return this.cnst(s.t, s.v);
          case 'fn': {
            const f = s.f;
            return { t: f.type, f: () => f.addr };
          }
          case 'type':
            return bad(loc, `unexpected type name '${name}'`);
        }
        return this.load(this.lval(n, cx)!);
      }
      case 'string_literal':
      case 'concatenated_string':
      case 'subscript_expression':
      case 'field_expression':
      case 'compound_literal_expression':
        return this.load(this.lval(n, cx)!);
      case 'pointer_expression': {
        const op = field(n, 'operator')!.type;
        const argN = field(n, 'argument')!;
        if (op === '*') {
          const P = this.decay(this.rval(argN, cx));
          if (P.t.k === 'ptr' && P.t.to.k === 'fn') return { t: P.t.to, f: P.f };
          return this.load(this.lval(n, cx)!);
        }
        // &x
        let a = argN;
        while (a.type === 'parenthesized_expression' && named(a).length === 1) a = named(a)[0];
        if (a.type === 'identifier') {
          const s = cx.scope.lookup(this.text(a, cx));
          if (s?.k === 'fn') {
            const f = s.f;
            return { t: ptr(f.type), f: () => f.addr };
          }
          if (!s && this.fns.has(this.text(a, cx))) {
            const f = this.fns.get(this.text(a, cx))!;
            return { t: ptr(f.type), f: () => f.addr };
          }
          if (s?.k === 'slot') bad(loc, `not simulated: address of register variable '${this.text(a, cx)}' (taken only inside a tensor statement?)`, 'not-simulated');
        }
        if (a.type === 'pointer_expression' && field(a, 'operator')!.type === '*') {
          const P = this.decay(this.rval(field(a, 'argument')!, cx));
          if (P.t.k === 'ptr') return P;
        }
        const lv = this.lval(a, cx);
        if (!lv) bad(loc, "cannot take the address of this expression ('&' needs an lvalue)");
        const t = ptr(lv.t);
        const A = lv.a;
        return { t, f: A };
      }
      case 'unary_expression':
        return this.unary(n, cx);
      case 'binary_expression':
        return this.binaryNode(n, cx);
      case 'update_expression':
        return this.update(n, cx, discard);
      case 'assignment_expression':
        return this.assign(n, cx);
      case 'conditional_expression':
        return this.ternary(n, cx);
      case 'comma_expression': {
        const l = field(n, 'left')!;
        const r = field(n, 'right')!;
        if (cx.hoist && this.yields(r)) return this.hoistSeq(n, cx);
        const L = this.rval(l, cx, true).f;
        const R = this.rval(r, cx, discard);
        const RF = R.f;
        return { t: R.t, f: (fr) => (L(fr), RF(fr)) };
      }
      case 'cast_expression': {
        const t = this.typeDescriptor(field(n, 'type')!, cx);
        const E = this.rval(field(n, 'value')!, cx);
        if (t.k === 'void') return { t: VOID, f: E.f };
        if (t.k === 'struct') bad(loc, `cast to ${typeName(t)}`);
        if (!isScalar(E.t)) bad(loc, `cast of ${typeName(E.t)}`);
        return this.conv(E, t, n, cx, true);
      }
      case 'sizeof_expression': {
        const tn = field(n, 'type');
        let t: CType;
        if (tn) t = this.typeDescriptor(tn, cx);
        else {
          const v = field(n, 'value')!;
          t = this.typeOfOperand(v, cx);
        }
        if (t.k === 'struct' && !t.complete) bad(loc, `sizeof incomplete ${typeName(t)}`);
        if (t.k === 'arr' && t.n === undefined) bad(loc, 'sizeof an array of unknown size');
        return this.cnst(UINT, sizeOf(t));
      }
      case 'alignof_expression': {
        const tn = field(n, 'type');
        const t = tn ? this.typeDescriptor(tn, cx) : this.typeOfOperand(named(n)[0], cx);
        return this.cnst(UINT, alignOf(t));
      }
      case 'offsetof_expression': {
        const t = this.typeDescriptor(field(n, 'type')!, cx);
        const m = field(n, 'member')!;
        let off = 0;
        let cur = t;
        for (const part of this.text(m, cx).split('.')) {
          if (cur.k !== 'struct') bad(loc, 'offsetof of a non-struct');
          const f = findField(cur, part.trim());
          if (!f) bad(loc, `${typeName(cur)} has no member '${part}'`);
          off += f.off;
          cur = f.t;
        }
        return this.cnst(UINT, off);
      }
      case 'call_expression':
        return this.call(n, cx);
      case 'initializer_list':
        return bad(loc, 'initialiser list outside a declaration');
      case 'gnu_asm_expression':
        return bad(loc, 'not simulated: inline assembly', 'not-simulated');
      case 'generic_expression':
        return bad(loc, 'not simulated: _Generic', 'not-simulated');
      case 'compound_statement':
        return bad(loc, 'not simulated: statement expression', 'not-simulated');
      case 'ERROR':
        return bad(loc, 'syntax error');
    }
    return bad(loc, `not simulated: ${n.type.replace(/_/g, ' ')}`, 'not-simulated');
  }

  /** Type of a sizeof operand without decaying arrays (`sizeof(T)` may parse as an expression). */
  private typeOfOperand(v: N, cx: Cx): CType {
    let x = v;
    while (x.type === 'parenthesized_expression' && named(x).length === 1) x = named(x)[0];
    if (x.type === 'identifier') {
      const s = cx.scope.lookup(this.text(x, cx));
      if (s?.k === 'type') return s.t;
    }
    const lv = this.lval(x, { ...cx, hoist: null });
    if (lv) return lv.t;
    return this.rvalNoDecay(x, { ...cx, hoist: null }).t;
  }

  private number(txt: string, loc: SourceLoc): E {
    const lower = txt.toLowerCase();
    const isHex = lower.startsWith('0x');
    if ((!isHex && /[.e]/.test(lower)) || (isHex && /[.p]/.test(lower))) {
      const f = lower.endsWith('f');
      const v = isHex ? parseHexFloat(lower.replace(/[fl]$/, '')) : parseFloat(lower.replace(/[fl]$/, ''));
      if (Number.isNaN(v)) bad(loc, `invalid number '${txt}'`);
      return this.cnst(f ? FLOAT : DOUBLE, f ? Math.fround(v) : v);
    }
    const suf = (/[ul]+$/.exec(lower) ?? [''])[0];
    const v = parseIntLiteral(txt.replace(/'/g, ''));
    if (Number.isNaN(v)) bad(loc, `invalid number '${txt}'`);
    const u = suf.includes('u');
    const ll = suf.includes('ll');
    const decimal = !isHex && !/^0[0-7bB]/.test(lower);
    let t: IntT;
    if (ll) t = u || (!decimal && v > 0x7fffffffffffffff) ? ULLONG : LLONG;
    else if (u) t = v <= 0xffffffff ? UINT : ULLONG;
    else if (v <= 0x7fffffff) t = INT;
    else if (!decimal && v <= 0xffffffff) t = UINT;
    else t = LLONG;
    return this.cnst(t, v);
  }

  private kernel(id: number, loc: SourceLoc): E {
    const name = this.pp.kernels[id] ?? this.kernelNameById(id);
    const rt: Runtime = this.rt;
    const resolve = (): number => {
      let v = this.kernelCache[id];
      if (v === undefined) {
        v = this.opts.kernelAddress?.(name);
        if (v === undefined) rt.fault(`unknown kernel $${name}`, loc);
        this.kernelCache[id] = v;
      }
      return v;
    };
    return { t: UINT, f: resolve };
  }

  private kernelNameById(id: number): string {
    for (const [k, v] of this.kernelIds) if (v === id) return k;
    return '?';
  }

  // ----------------------------------------------------------------- operators

  private unary(n: N, cx: Cx): E {
    const op = field(n, 'operator')!.type;
    const loc = cx.src.loc(n);
    if (op === '!') {
      const A = this.rval(field(n, 'argument')!, cx);
      if (!isScalar(A.t)) bad(loc, `'!' on ${typeName(A.t)}`);
      if (A.k !== undefined) return this.cnst(INT, A.k === 0 ? 1 : 0);
      const F = A.f;
      return { t: INT, f: (fr) => (F(fr) === 0 ? 1 : 0) };
    }
    const A0 = this.rval(field(n, 'argument')!, cx);
    if (!isArith(A0.t)) bad(loc, `'${op}' on ${typeName(A0.t)}`);
    const t = A0.t.k === 'int' ? promote(A0.t) : A0.t;
    const A = this.conv(A0, t, n, cx);
    const norm = normalizer(t) ?? ((v: number) => v);
    if (op === '+') return A;
    if (op === '~' && t.k !== 'int') bad(loc, `'~' on ${typeName(t)}`);
    if (A.k !== undefined) return this.cnst(t, norm(op === '-' ? -A.k : t.size === 8 ? -A.k - 1 : ~A.k));
    const F = A.f;
    const kind = kindOf(t);
    if (op === '-') {
      if (kind === 'i32') return { t, f: (fr) => -F(fr) | 0 };
      if (kind === 'u32') return { t, f: (fr) => -F(fr) >>> 0 };
      return { t, f: (fr) => norm(-F(fr)) };
    }
    if (kind === 'i32') return { t, f: (fr) => ~F(fr) };
    if (kind === 'u32') return { t, f: (fr) => ~F(fr) >>> 0 };
    return { t, f: (fr) => norm(-F(fr) - 1) };
  }

  /**
   * tree-sitter cannot know typedef names: `(T)-x`, `(T)*p`, `(T)&v` parse as binary expressions
   * with a parenthesised identifier on the left. Returns the cast when that identifier is a type.
   */
  private castFixup(n: N, cx: Cx): { t: CType; op: string; arg: N } | undefined {
    const l = field(n, 'left')!;
    if (l.type !== 'parenthesized_expression') return undefined;
    const k = named(l);
    if (k.length !== 1 || k[0].type !== 'identifier') return undefined;
    const s = cx.scope.lookup(this.text(k[0], cx));
    if (s?.k !== 'type') return undefined;
    const op = field(n, 'operator')!.type;
    return { t: s.t, op, arg: field(n, 'right')! };
  }

  private binaryNode(n: N, cx: Cx): E {
    const loc = cx.src.loc(n);
    const fix = this.castFixup(n, cx);
    if (fix) {
      // (T) op x  →  (T)(op x)
      let E: E;
      const A = this.rval(fix.arg, cx);
      switch (fix.op) {
        case '-':
        case '+': {
          const t = A.t.k === 'int' ? promote(A.t) : A.t;
          const V = this.conv(A, t, n, cx);
          E = fix.op === '+' ? V : this.arith('-', this.cnst(t, 0), V, n, cx);
          break;
        }
        case '*': {
          const P = this.decay(A);
          if (P.t.k !== 'ptr') bad(loc, `cannot dereference ${typeName(P.t)}`);
          E = this.load({ t: P.t.to, a: P.f, safe: false, loc });
          break;
        }
        case '&': {
          const lv = this.lval(fix.arg, cx);
          if (!lv || lv.slot !== undefined) bad(loc, "cannot take the address of this expression");
          E = { t: ptr(lv.t), f: lv.a };
          break;
        }
        default:
          return bad(loc, `'${fix.op}' after a parenthesised type name`);
      }
      if (fix.t.k === 'void') return { t: VOID, f: E.f };
      return this.conv(this.decay(E), fix.t, n, cx, true);
    }
    const op = field(n, 'operator')!.type;
    if (op === '&&' || op === '||') {
      if (cx.hoist && this.yields(field(n, 'right')!)) return this.hoistLogic(n, op, cx);
      const A = this.rval(field(n, 'left')!, cx);
      const B = this.rval(field(n, 'right')!, cx);
      if (A.k !== undefined && B.k !== undefined) return this.cnst(INT, op === '&&' ? (A.k !== 0 && B.k !== 0 ? 1 : 0) : A.k !== 0 || B.k !== 0 ? 1 : 0);
      if (A.k !== undefined) {
        if (op === '&&' && A.k === 0) return this.cnst(INT, 0);
        if (op === '||' && A.k !== 0) return this.cnst(INT, 1);
      }
      const C = this.cond(n, cx);
      return { t: INT, f: (fr) => (C(fr) ? 1 : 0) };
    }
    const L = this.rval(field(n, 'left')!, cx);
    const R = this.rval(field(n, 'right')!, cx);
    return this.arith(op, L, R, n, cx);
  }

  /** Binary operator on two rvalues (pointer arithmetic, usual conversions, constant folding). */
  private arith(op: string, L: E, R: E, n: N, cx: Cx): E {
    const loc = cx.src.loc(n);
    const lp = L.t.k === 'ptr';
    const rp = R.t.k === 'ptr';
    if (CMP.has(op)) {
      const [a, b] = this.cmpConv(L, R, n, cx);
      if (a.k !== undefined && b.k !== undefined) return this.cnst(INT, cmp(op, a.k, b.k) ? 1 : 0);
      const C = this.cmpClosure(op, a, b);
      return { t: INT, f: C };
    }
    if ((op === '+' || op === '-') && (lp || rp)) {
      if (lp && rp) {
        if (op === '+') bad(loc, 'adding two pointers');
        const es = Math.max(1, sizeOf((L.t as { to: CType }).to));
        const LF = L.f;
        const RF = R.f;
        return { t: INT, f: (fr) => ((LF(fr) - RF(fr)) / es) | 0 };
      }
      const P = lp ? L : R;
      const I = lp ? R : L;
      if (!isInt(I.t)) bad(loc, `pointer ${op} ${typeName(I.t)}`);
      const pt = P.t as { k: 'ptr'; to: CType };
      if (pt.to.k === 'struct' && !pt.to.complete) bad(loc, `arithmetic on pointer to incomplete ${typeName(pt.to)}`);
      const es = sizeOf(pt.to) * (op === '-' ? -1 : 1);
      const PF = P.f;
      if (I.k !== undefined) {
        const d = I.k * es;
        if (P.k !== undefined) return this.cnst(P.t, (P.k + d) >>> 0);
        return { t: P.t, f: (fr) => (PF(fr) + d) >>> 0 };
      }
      const IF = I.f;
      return { t: P.t, f: (fr) => (PF(fr) + IF(fr) * es) >>> 0 };
    }
    if (lp) L = this.conv(L, UINT, n, cx, true);
    if (rp) R = this.conv(R, UINT, n, cx, true);
    if (!isArith(L.t) || !isArith(R.t)) bad(loc, `invalid operands to '${op}': ${typeName(L.t)} and ${typeName(R.t)}`);
    const shift = op === '<<' || op === '>>';
    let t: IntT | FloatT;
    if (shift) {
      if (L.t.k !== 'int' || R.t.k !== 'int') bad(loc, `shift of ${typeName(L.t)}`);
      t = promote(L.t);
      L = this.conv(L, t, n, cx);
      R = this.conv(R, promote(R.t as IntT), n, cx);
    } else {
      t = common(L.t, R.t);
      L = this.conv(L, t, n, cx);
      R = this.conv(R, t, n, cx);
    }
    if ((op === '%' || op === '&' || op === '|' || op === '^') && t.k === 'float') bad(loc, `'${op}' on ${typeName(t)}`);
    const fold = L.k !== undefined && R.k !== undefined && !((op === '/' || op === '%') && R.k === 0);
    const f = this.arithClosure(op, t, L, R, loc);
    if (fold) return this.cnst(t, f([]));
    return { t, f };
  }

  private cmpClosure(op: string, a: E, b: E): EF {
    const fast = fastCmp(op, a.slot, b.slot, b.k);
    if (fast) return fast;
    const L = a.slot !== undefined ? ((s: number) => (fr: Frame) => fr[s])(a.slot) : a.f;
    if (b.k !== undefined) {
      const k = b.k;
      switch (op) {
        case '<': return (fr) => (L(fr) < k ? 1 : 0);
        case '>': return (fr) => (L(fr) > k ? 1 : 0);
        case '<=': return (fr) => (L(fr) <= k ? 1 : 0);
        case '>=': return (fr) => (L(fr) >= k ? 1 : 0);
        case '==': return (fr) => (L(fr) === k ? 1 : 0);
        default: return (fr) => (L(fr) !== k ? 1 : 0);
      }
    }
    const R = b.f;
    switch (op) {
      case '<': return (fr) => (L(fr) < R(fr) ? 1 : 0);
      case '>': return (fr) => (L(fr) > R(fr) ? 1 : 0);
      case '<=': return (fr) => (L(fr) <= R(fr) ? 1 : 0);
      case '>=': return (fr) => (L(fr) >= R(fr) ? 1 : 0);
      case '==': return (fr) => (L(fr) === R(fr) ? 1 : 0);
      default: return (fr) => (L(fr) !== R(fr) ? 1 : 0);
    }
  }

  private arithClosure(op: string, t: IntT | FloatT, L: E, R: E, loc: SourceLoc): EF {
    const rt: Runtime = this.rt;
    const kind = kindOf(t);
    const LF = L.slot !== undefined ? ((s: number) => (fr: Frame) => fr[s])(L.slot) : L.f;
    const RF = R.f;
    const k = R.k;
    if (kind === 'i32' || kind === 'u32') {
      const fast = fastInt(op, kind === 'u32', L.slot, R.slot, k, LF, RF);
      if (fast) return fast;
    }
    if (kind === 'i32') {
      if (k !== undefined) {
        switch (op) {
          case '+': return (fr) => (LF(fr) + k) | 0;
          case '-': return (fr) => (LF(fr) - k) | 0;
          case '*': return (fr) => Math.imul(LF(fr), k);
          case '&': return (fr) => LF(fr) & k;
          case '|': return (fr) => LF(fr) | k;
          case '^': return (fr) => LF(fr) ^ k;
          case '<<': return (fr) => LF(fr) << k;
          case '>>': return (fr) => LF(fr) >> k;
          case '/': if (k !== 0) return (fr) => (LF(fr) / k) | 0; break;
          case '%': if (k !== 0) return (fr) => LF(fr) % k | 0; break;
        }
      }
      switch (op) {
        case '+': return (fr) => (LF(fr) + RF(fr)) | 0;
        case '-': return (fr) => (LF(fr) - RF(fr)) | 0;
        case '*': return (fr) => Math.imul(LF(fr), RF(fr));
        case '&': return (fr) => LF(fr) & RF(fr);
        case '|': return (fr) => LF(fr) | RF(fr);
        case '^': return (fr) => LF(fr) ^ RF(fr);
        case '<<': return (fr) => LF(fr) << RF(fr);
        case '>>': return (fr) => LF(fr) >> RF(fr);
        case '/':
          return (fr) => {
            const a = LF(fr);
            const b = RF(fr);
            if (b === 0) rt.fault('division by zero', loc);
            return (a / b) | 0;
          };
        case '%':
          return (fr) => {
            const a = LF(fr);
            const b = RF(fr);
            if (b === 0) rt.fault('division by zero (remainder)', loc);
            return a % b | 0;
          };
      }
    }
    if (kind === 'u32') {
      if (k !== undefined) {
        switch (op) {
          case '+': return (fr) => (LF(fr) + k) >>> 0;
          case '-': return (fr) => (LF(fr) - k) >>> 0;
          case '&': return (fr) => (LF(fr) & k) >>> 0;
          case '>>': return (fr) => LF(fr) >>> k;
          case '<<': return (fr) => (LF(fr) << k) >>> 0;
        }
      }
      switch (op) {
        case '+': return (fr) => (LF(fr) + RF(fr)) >>> 0;
        case '-': return (fr) => (LF(fr) - RF(fr)) >>> 0;
        case '*': return (fr) => Math.imul(LF(fr), RF(fr)) >>> 0;
        case '&': return (fr) => (LF(fr) & RF(fr)) >>> 0;
        case '|': return (fr) => (LF(fr) | RF(fr)) >>> 0;
        case '^': return (fr) => (LF(fr) ^ RF(fr)) >>> 0;
        case '<<': return (fr) => (LF(fr) << RF(fr)) >>> 0;
        case '>>': return (fr) => LF(fr) >>> RF(fr);
        case '/':
          return (fr) => {
            const a = LF(fr);
            const b = RF(fr);
            if (b === 0) rt.fault('division by zero', loc);
            return (a / b) >>> 0;
          };
        case '%':
          return (fr) => {
            const a = LF(fr);
            const b = RF(fr);
            if (b === 0) rt.fault('division by zero (remainder)', loc);
            return a % b;
          };
      }
    }
    if (t.k === 'float') {
      const r = t.size === 4 ? Math.fround : (v: number) => v;
      switch (op) {
        case '+': return (fr) => r(LF(fr) + RF(fr));
        case '-': return (fr) => r(LF(fr) - RF(fr));
        case '*': return (fr) => r(LF(fr) * RF(fr));
        case '/': return (fr) => r(LF(fr) / RF(fr));
      }
    }
    // 64-bit integers: doubles, exact to 2^53, BigInt for bitwise operators
    const norm = normalizer(t)!;
    const signed = (t as IntT).signed;
    const big = (a: number): bigint => BigInt(Math.trunc(a));
    const back = (v: bigint): number => Number(signed ? BigInt.asIntN(64, v) : BigInt.asUintN(64, v));
    switch (op) {
      case '+': return (fr) => norm(LF(fr) + RF(fr));
      case '-': return (fr) => norm(LF(fr) - RF(fr));
      case '*':
        return (fr) => {
          const a = LF(fr);
          const b = RF(fr);
          const p = a * b;
          return Math.abs(p) <= Number.MAX_SAFE_INTEGER ? norm(p) : back(big(a) * big(b));
        };
      case '/':
        return (fr) => {
          const a = LF(fr);
          const b = RF(fr);
          if (b === 0) rt.fault('division by zero', loc);
          return norm(Math.trunc(a / b));
        };
      case '%':
        return (fr) => {
          const a = LF(fr);
          const b = RF(fr);
          if (b === 0) rt.fault('division by zero (remainder)', loc);
          return norm(a % b);
        };
      case '&': return (fr) => back(big(LF(fr)) & big(RF(fr)));
      case '|': return (fr) => back(big(LF(fr)) | big(RF(fr)));
      case '^': return (fr) => back(big(LF(fr)) ^ big(RF(fr)));
      case '<<': return (fr) => back(big(LF(fr)) << BigInt(RF(fr) & 63));
      case '>>': return (fr) => norm(Math.floor(LF(fr) / 2 ** (RF(fr) & 63)));
    }
    return bad(loc, `operator '${op}' not simulated for ${typeName(t)}`, 'not-simulated');
  }

  private assign(n: N, cx: Cx): E {
    const loc = cx.src.loc(n);
    const op = field(n, 'operator')!.type;
    const left = field(n, 'left')!;
    const lv = this.lval(left, cx);
    if (!lv) bad(loc, 'left side of assignment is not assignable');
    if (lv.t.k === 'arr' || lv.t.k === 'fn') bad(loc, `assignment to ${typeName(lv.t)}`);
    const R0 = this.rval(field(n, 'right')!, cx);
    if (op === '=') {
      if (lv.t.k === 'struct') {
        if (R0.t !== lv.t) bad(loc, `assigning ${typeName(R0.t)} to ${typeName(lv.t)}`);
        return { t: lv.t, f: memWrite(this.rt, lv.t, lv.a, R0.f, loc, false) };
      }
      const V = this.conv(R0, lv.t, n, cx).f;
      return { t: lv.t, f: this.store(lv, V) };
    }
    const bop = op.slice(0, -1);
    if (lv.slot !== undefined && lv.t.k === 'int' && lv.t.size === 4 && R0.t.k === 'int' && R0.t.size <= 4) {
      const fast = fastCompound(bop, !lv.t.signed, lv.slot, R0.k, R0.f);
      if (fast) return { t: lv.t, f: fast };
    }
    if (lv.slot !== undefined) {
      const s = lv.slot;
      const cur: E = { t: lv.t, f: (fr) => fr[s], slot: s };
      const res = this.conv(this.decay(this.arith(bop, cur, R0, n, cx)), lv.t, n, cx).f;
      return { t: lv.t, f: (fr) => (fr[s] = res(fr)) };
    }
    // MEM lvalue: the address is evaluated once; the operator reads two closure cells
    let curL = 0;
    let curR = 0;
    const Lc: E = { t: lv.t, f: () => curL };
    const Rc: E = { t: R0.t, f: () => curR };
    const res = this.conv(this.arith(bop, Lc, Rc, n, cx), lv.t, n, cx).f;
    const ld = loader(this.rt, lv.t, loc, lv.safe);
    const st = storer(this.rt, lv.t, loc, lv.safe);
    const A = lv.a;
    const RF = R0.f;
    return {
      t: lv.t,
      f: (fr) => {
        const r = RF(fr);
        const a = A(fr);
        curL = ld(a);
        curR = r;
        const v = res(fr);
        st(a, v);
        return v;
      },
    };
  }

  private update(n: N, cx: Cx, discard: boolean): E {
    const loc = cx.src.loc(n);
    const prefix = n.kids[0]?.field === 'operator';
    const op = field(n, 'operator')!.type;
    const lv = this.lval(field(n, 'argument')!, cx);
    if (!lv) bad(loc, `'${op}' needs an lvalue`);
    const t = lv.t;
    if (!isScalar(t)) bad(loc, `'${op}' on ${typeName(t)}`);
    let d = op === '++' ? 1 : -1;
    if (t.k === 'ptr') d *= Math.max(1, sizeOf(t.to));
    const norm = normalizer(t) ?? ((v: number) => v);
    const kind = kindOf(t);
    const ret = prefix || discard;
    if (lv.slot !== undefined) {
      const s = lv.slot;
      if (kind === 'i32') {
        if (ret) return { t, f: (fr) => (fr[s] = (fr[s] + d) | 0) };
        return {
          t,
          f: (fr) => {
            const v = fr[s];
            fr[s] = (v + d) | 0;
            return v;
          },
        };
      }
      if (kind === 'u32') {
        if (ret) return { t, f: (fr) => (fr[s] = (fr[s] + d) >>> 0) };
        return {
          t,
          f: (fr) => {
            const v = fr[s];
            fr[s] = (v + d) >>> 0;
            return v;
          },
        };
      }
      if (ret) return { t, f: (fr) => (fr[s] = norm(fr[s] + d)) };
      return {
        t,
        f: (fr) => {
          const v = fr[s];
          fr[s] = norm(v + d);
          return v;
        },
      };
    }
    const ld = loader(this.rt, t, loc, lv.safe);
    const st = storer(this.rt, t, loc, lv.safe);
    const A = lv.a;
    if (ret)
      return {
        t,
        f: (fr) => {
          const a = A(fr);
          const v = norm(ld(a) + d);
          st(a, v);
          return v;
        },
      };
    return {
      t,
      f: (fr) => {
        const a = A(fr);
        const v = ld(a);
        st(a, norm(v + d));
        return v;
      },
    };
  }

  private ternary(n: N, cx: Cx): E {
    const loc = cx.src.loc(n);
    const cN = field(n, 'condition')!;
    const aN = field(n, 'consequence');
    const bN = field(n, 'alternative')!;
    if (cx.hoist && ((aN && this.yields(aN)) || this.yields(bN))) return this.hoistTernary(n, cx);
    const B0 = this.rval(bN, cx);
    if (!aN) {
      // GNU a ?: b
      const A0 = this.rval(cN, cx);
      const t = this.ternaryType(A0, B0, loc);
      const A = this.conv(A0, t, n, cx).f;
      const B = this.conv(B0, t, n, cx).f;
      const CF = A0.f;
      return { t, f: (fr) => (CF(fr) !== 0 ? A(fr) : B(fr)) };
    }
    const C = this.cond(cN, cx);
    const A0 = this.rval(aN, cx);
    const t = this.ternaryType(A0, B0, loc);
    const A = t.k === 'void' ? A0 : this.conv(A0, t, n, cx);
    const B = t.k === 'void' ? B0 : this.conv(B0, t, n, cx);
    const AF = A.f;
    const BF = B.f;
    return { t, f: (fr) => (C(fr) ? AF(fr) : BF(fr)) };
  }

  private ternaryType(A: E, B: E, loc: SourceLoc): CType {
    if (A.t.k === 'void' || B.t.k === 'void') return VOID;
    if (isArith(A.t) && isArith(B.t)) return common(A.t, B.t);
    if (A.t.k === 'ptr' && B.t.k === 'ptr') return A.t.to.k === 'void' ? B.t : A.t;
    if (A.t.k === 'ptr' && isInt(B.t)) return A.t;
    if (B.t.k === 'ptr' && isInt(A.t)) return B.t;
    if (A.t.k === 'struct' && A.t === B.t) return A.t;
    return bad(loc, `conditional with ${typeName(A.t)} and ${typeName(B.t)}`);
  }

  // ----------------------------------------------------------------- calls

  private call(n: N, cx: Cx): E {
    const loc = cx.src.loc(n);
    let fnN = field(n, 'function')!;
    const argNs = named(field(n, 'arguments')!).filter((k) => k.type !== 'comment');
    while (fnN.type === 'parenthesized_expression' && named(fnN).length === 1 && named(fnN)[0].type === 'identifier') fnN = named(fnN)[0];
    if (fnN.type === 'parenthesized_expression' && named(fnN).length === 1 && named(fnN)[0].type === 'identifier') fnN = named(fnN)[0];
    // `(T)(x)` parses as a call when T is a typedef name
    const fnRaw = field(n, 'function')!;
    if (fnRaw.type === 'parenthesized_expression' && fnN.type === 'identifier' && cx.scope.lookup(this.text(fnN, cx))?.k === 'type') {
      if (argNs.length !== 1) bad(loc, 'cast of a list');
      const t = (cx.scope.lookup(this.text(fnN, cx)) as { t: CType }).t;
      const E = this.rval(argNs[0], cx);
      if (t.k === 'void') return { t: VOID, f: E.f };
      return this.conv(E, t, n, cx, true);
    }
    let f: FnRec | undefined;
    if (fnN.type === 'identifier') {
      const name = this.text(fnN, cx);
      if (name === PLACEHOLDER) return this.tensor(argNs, cx, loc);
      const s = cx.scope.lookup(name);
      if (!s) f = this.fns.get(name) ?? this.declareFn(name, { k: 'fn', ret: INT, params: undefined, variadic: true }, loc);
      else if (s.k === 'fn') f = s.f;
      else if (s.k === 'type') bad(loc, `unexpected type name '${name}'`);
    }
    if (!f) return this.dynamicCall(fnN, argNs, n, cx);
    const ft = f.type;
    const params = ft.params;
    if (params && (argNs.length < params.length || (argNs.length > params.length && !ft.variadic)))
      bad(loc, `${f.name}() takes ${params.length} argument(s), ${argNs.length} given`);
    const args = argNs.map((a, i) => {
      const E = this.rval(a, cx);
      if (params && i < params.length) return this.conv(E, params[i], a, cx);
      return this.promoteArg(E, a, cx);
    });
    const AF = args.map((a) => a.f);
    const ret = ft.ret;
    const name = f.name;
    const fr0 = f;
    if (cx.hoist && this.yields(n)) return this.hoistCall(fr0, null, AF, ret, cx, loc);
    if (f.hasBody) {
      let retBuf = -1;
      if (ret.k === 'struct') retBuf = this.frameAlloc(cx, ret, loc);
      const na = AF.length;
      if (retBuf >= 0) {
        const rb = retBuf;
        return {
          t: ret,
          f: (fr) => {
            const c = fr0.plain!;
            const nf = c.proto.slice();
            for (let j = 0; j < na; j++) nf[2 + j] = AF[j](fr);
            nf[1] = fr[0] + rb;
            c.run(nf, loc);
            return fr[0] + rb;
          },
        };
      }
      const t = ret.k === 'void' ? VOID : ret;
      if (na === 0) return { t, f: () => { const c = fr0.plain!; return c.run(c.proto.slice(), loc); } };
      if (na === 1) {
        const a0 = AF[0];
        return {
          t,
          f: (fr) => {
            const c = fr0.plain!;
            const nf = c.proto.slice();
            nf[2] = a0(fr);
            return c.run(nf, loc);
          },
        };
      }
      if (na === 2) {
        const a0 = AF[0];
        const a1 = AF[1];
        return {
          t,
          f: (fr) => {
            const c = fr0.plain!;
            const nf = c.proto.slice();
            nf[2] = a0(fr);
            nf[3] = a1(fr);
            return c.run(nf, loc);
          },
        };
      }
      return {
        t,
        f: (fr) => {
          const c = fr0.plain!;
          const nf = c.proto.slice();
          for (let j = 0; j < na; j++) nf[2 + j] = AF[j](fr);
          return c.run(nf, loc);
        },
      };
    }
    if (ret.k === 'struct') bad(loc, `not simulated: call of ${name}() returning a struct`, 'not-simulated');
    const rnorm = normalizer(ret) ?? ((v: number) => v);
    if (f.builtin) {
      const impl = f.builtin;
      return {
        t: ret,
        f: (fr) => {
          const vals = new Array<number>(AF.length);
          for (let j = 0; j < AF.length; j++) vals[j] = AF[j](fr);
          return rnorm(impl(vals, loc, fr));
        },
      };
    }
    const ec = this.evalCtx(cx, loc);
    return {
      t: ret,
      f: (fr) => {
        const vals = new Array<number>(AF.length);
        for (let j = 0; j < AF.length; j++) vals[j] = AF[j](fr);
        return rnorm(this.service(name, vals, loc, ec, fr));
      },
    };
  }

  private promoteArg(E: E, n: N, cx: Cx): E {
    if (E.t.k === 'int') return this.conv(E, promote(E.t), n, cx);
    if (E.t.k === 'float') return this.conv(E, DOUBLE, n, cx);
    return E;
  }

  private dynamicCall(fnN: N, argNs: N[], n: N, cx: Cx): E {
    const loc = cx.src.loc(n);
    let F = this.rval(fnN, cx);
    if (F.t.k === 'ptr' && F.t.to.k === 'fn') F = { t: F.t.to, f: F.f };
    if (F.t.k !== 'fn') bad(loc, `called object of type ${typeName(F.t)} is not a function`);
    const ft = F.t;
    const params = ft.params;
    if (params && (argNs.length < params.length || (argNs.length > params.length && !ft.variadic)))
      bad(loc, `call through a pointer with ${argNs.length} argument(s), expected ${params.length}`);
    const args = argNs.map((a, i) => {
      const E = this.rval(a, cx);
      if (params && i < params.length) return this.conv(E, params[i], a, cx);
      return this.promoteArg(E, a, cx);
    });
    const AF = args.map((a) => a.f);
    if (ft.ret.k === 'struct') bad(loc, 'not simulated: call through a pointer returning a struct', 'not-simulated');
    if (cx.hoist) return this.hoistCall(null, F.f, AF, ft.ret, cx, loc);
    const FF = F.f;
    const ec = this.evalCtx(cx, loc);
    return {
      t: ft.ret,
      f: (fr) => {
        const vals = new Array<number>(AF.length);
        for (let j = 0; j < AF.length; j++) vals[j] = AF[j](fr);
        return this.callAddr(FF(fr), vals, loc, fr, ec);
      },
    };
  }

  /** Calls the function at `addr` with already evaluated arguments (plain mode). */
  callAddr(addr: number, vals: number[], loc: SourceLoc, fr: Frame, ec?: EvalCtx): number {
    const rt: Runtime = this.rt;
    const f = rt.fnAt(addr);
    if (!f) rt.fault(`call through an invalid function pointer (0x${(addr >>> 0).toString(16)})`, loc);
    if (f.hasBody) {
      const c = this.plainOf(f);
      return c.run(this.frameFor(f, c, vals, loc), loc);
    }
    const r = f.builtin ? f.builtin(vals, loc, fr) : this.service(f.name, vals, loc, ec, fr);
    return (normalizer(f.type.ret) ?? ((v: number) => v))(r);
  }

  /** A callee frame with arguments converted to the parameter types. */
  frameFor(f: FnRec, c: FnCode, vals: number[], loc: SourceLoc): Frame {
    const params = f.type.params;
    if (params && (vals.length < params.length || (vals.length > params.length && !f.type.variadic)))
      this.rt.fault(`${f.name}() takes ${params.length} argument(s), ${vals.length} given (call through a pointer)`, loc);
    if (f.type.ret.k === 'struct') this.rt.fault(`not simulated: indirect call of ${f.name}() returning a struct`, loc, 'not-simulated');
    const nf = c.proto.slice();
    const norms = f.argNorm;
    for (let j = 0; j < vals.length && 2 + j < c.nslots; j++) nf[2 + j] = norms[j] ? norms[j](vals[j]) : vals[j];
    return nf;
  }

  /** Generator-mode call: the call is hoisted into a step; the expression reads a temporary. */
  private hoistCall(f: FnRec | null, FF: EF | null, AF: EF[], ret: CType, cx: Cx, loc: SourceLoc): E {
    const fx = cx.fx;
    if (fx.noFrame) bad(loc, `not simulated: a call that may yield in ${fx.noFrame}`, 'not-simulated');
    const tmp = fx.nslots++;
    const rt: Runtime = this.rt;
    const na = AF.length;
    const genOf = (g: FnRec): NonNullable<FnRec['gen']> => this.genOf(g);
    const frameFor = (g: FnRec, c: FnCode, vals: number[]): Frame => this.frameFor(g, c, vals, loc);
    const callAddr = (addr: number, vals: number[], fr: Frame): number => this.callAddr(addr, vals, loc, fr, ec);
    if (f && YIELD_NAMES.has(f.name) && !f.hasBody) {
      cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
        for (let j = 0; j < na; j++) AF[j](fr);
        fr[tmp] = 0;
        rt.yielded(loc);
        yield;
      });
      return { t: ret.k === 'void' ? VOID : ret, f: (fr) => fr[tmp] };
    }
    if (f) {
      if (ret.k === 'struct') bad(loc, `not simulated: a call of ${f.name}() returning a struct that may yield`, 'not-simulated');
      const fr0 = f;
      cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
        const c = genOf(fr0);
        const nf = c.proto.slice();
        for (let j = 0; j < na; j++) nf[2 + j] = AF[j](fr);
        fr[tmp] = yield* c.run(nf, loc);
      });
      return { t: ret.k === 'void' ? VOID : ret, f: (fr) => fr[tmp] };
    }
    const ec = this.evalCtx(cx, loc);
    const F = FF!;
    cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
      const addr = F(fr);
      const vals = new Array<number>(na);
      for (let j = 0; j < na; j++) vals[j] = AF[j](fr);
      const g = rt.fnAt(addr);
      if (g && g.hasBody && g.mayYield) {
        const c = genOf(g);
        fr[tmp] = yield* c.run(frameFor(g, c, vals), loc);
      } else if (g && !g.hasBody && YIELD_NAMES.has(g.name)) {
        fr[tmp] = 0;
        rt.yielded(loc);
        yield;
      } else fr[tmp] = callAddr(addr, vals, fr);
    });
    return { t: ret.k === 'void' ? VOID : ret, f: (fr) => fr[tmp] };
  }

  /** `a && b` / `a || b` whose right side may yield (generator mode). */
  private hoistLogic(n: N, op: string, cx: Cx): E {
    const tmp = cx.fx.nslots++;
    const A = this.cond(field(n, 'left')!, cx);
    const inner: GStep[] = [];
    const B = this.cond(field(n, 'right')!, { ...cx, hoist: inner });
    const and = op === '&&';
    cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
      const a = A(fr);
      if (and ? !a : a) {
        fr[tmp] = a ? 1 : 0;
        return;
      }
      for (const s of inner) yield* s(fr);
      fr[tmp] = B(fr) ? 1 : 0;
    });
    return { t: INT, f: (fr) => fr[tmp] };
  }

  private hoistTernary(n: N, cx: Cx): E {
    const loc = cx.src.loc(n);
    const tmp = cx.fx.nslots++;
    const cN = field(n, 'condition')!;
    const aN = field(n, 'consequence') ?? cN;
    const C = this.cond(cN, cx);
    const as: GStep[] = [];
    const bs: GStep[] = [];
    const A0 = this.rval(aN, { ...cx, hoist: as });
    const B0 = this.rval(field(n, 'alternative')!, { ...cx, hoist: bs });
    const t = this.ternaryType(A0, B0, loc);
    const A = t.k === 'void' ? A0.f : this.conv(A0, t, n, cx).f;
    const B = t.k === 'void' ? B0.f : this.conv(B0, t, n, cx).f;
    cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
      if (C(fr)) {
        for (const s of as) yield* s(fr);
        fr[tmp] = A(fr);
      } else {
        for (const s of bs) yield* s(fr);
        fr[tmp] = B(fr);
      }
    });
    return { t, f: (fr) => fr[tmp] };
  }

  private hoistSeq(n: N, cx: Cx): E {
    const tmp = cx.fx.nslots++;
    const L = this.rval(field(n, 'left')!, cx, true).f;
    const rs: GStep[] = [];
    const R = this.rval(field(n, 'right')!, { ...cx, hoist: rs });
    const RF = R.f;
    cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
      L(fr);
      for (const s of rs) yield* s(fr);
      fr[tmp] = RF(fr);
    });
    return { t: R.t, f: (fr) => fr[tmp] };
  }

  // ----------------------------------------------------------------- tensor statements and services

  private tensor(argNs: N[], cx: Cx, loc: SourceLoc): E {
    const unit = argNs[0] ? Number(this.text(argNs[0], cx)) : NaN;
    if (!Number.isInteger(unit)) bad(loc, 'malformed tensor statement placeholder');
    const ec: EvalCtx = {
      scope: cx.scope.snapshot(),
      fx: cx.fx,
      loc: this.pp.unitLocs.get(unit) ?? loc,
      macros: this.pp.unitMacros.get(unit) ?? this.macrosForEval,
      cache: new Map(),
    };
    let list = this.evalCtxs.get(unit);
    if (!list) this.evalCtxs.set(unit, (list = []));
    list.push(ec);
    const rt: Runtime = this.rt;
    return {
      t: VOID,
      f: (fr) => {
        const scope = this.hostScope(ec, fr);
        try {
          rt.sv.tensor(unit, scope);
        } catch (e) {
          throw this.adopt(e, ec.loc);
        }
        return 0;
      },
    };
  }

  /** Adds location and C stack to a SimError thrown by a service. */
  private adopt(e: unknown, loc: SourceLoc): unknown {
    if (e instanceof SimError) {
      if (!e.loc) e.loc = loc;
      if (e.stack_.length === 0) e.stack_ = this.rt.stack(loc);
      this.opts.debug?.fault?.(e);
    }
    return e;
  }

  private evalCtx(cx: Cx, loc: SourceLoc): EvalCtx {
    return { scope: cx.scope.snapshot(), fx: cx.fx, loc, macros: this.macrosForEval, cache: new Map() };
  }

  service(name: string, vals: number[], loc: SourceLoc, ec: EvalCtx | undefined, fr: Frame): number {
    const rt: Runtime = this.rt;
    let r: number | undefined;
    try {
      r = rt.sv.builtin(name, vals, ec ? this.hostScope(ec, fr) : this.bareScope(loc));
    } catch (e) {
      throw this.adopt(e, loc);
    }
    if (r === undefined) rt.fault(`not simulated: call to ${name}`, loc, 'not-simulated');
    return r;
  }

  hostScope(ec: EvalCtx, fr: Frame): HostScope & { frames(): FrameView[] } {
    const rt: Runtime = this.rt;
    const h = rt.cur;
    return {
      eval: (text: string) => this.evalIn(ec, text)(fr),
      process: h.id,
      stack: () => rt.stack(ec.loc, h),
      at: ec.loc,
      frames: () => this.frames(h, ec.loc),
    };
  }

  private bareScope(loc: SourceLoc): HostScope {
    const rt: Runtime = this.rt;
    const h = rt.cur;
    return {
      eval: () => rt.fault('scope.eval is not available here', loc),
      process: h.id,
      stack: () => rt.stack(loc, h),
      at: loc,
    };
  }

  /** The active C frames of a hart (innermost first) with their locals — for a debugger. */
  frames(h = this.rt.cur, loc?: SourceLoc): FrameView[] {
    const out: FrameView[] = [];
    const c = h.calls;
    let where = loc;
    for (let i = h.n - 3; i >= 0; i -= 3) {
      const code = c[i] as FnCode;
      const fr = c[i + 2] as Frame;
      const here = where;
      out.push({
        fn: code.name,
        loc: here,
        locals: () =>
          code.locals
            .filter((l) => !here || (l.fromLine <= here.line))
            .map((l) => ({ name: l.name, type: typeName(l.type), address: l.offset !== undefined ? fr[0] + l.offset : undefined, value: l.slot !== undefined ? fr[l.slot] : undefined })),
      });
      where = c[i + 1] as SourceLoc | undefined;
    }
    return out;
  }

  /** Compiles (once per statement and text) and returns a C expression snippet's closure. */
  evalIn(ec: EvalCtx, text: string): EF {
    let f = ec.cache.get(text);
    if (f) return f;
    f = this.compileSnippet(ec, text);
    ec.cache.set(text, f);
    return f;
  }

  /**
   * One C expression typed outside the program (a `>` statement's expression, a debugger's watch):
   * macro-expanded with the macros visible at `ec`, parsed inside a wrapper function, and the
   * context to compile it in (`noFrame` says what it is when it would need a stack frame).
   */
  private snippet(ec: EvalCtx, text: string, noFrame: string, fail: (msg: string) => never): { expr: N; cx: Cx } {
    let wrapped: string;
    try {
      const pp = new Preprocessor({ reserved: YIELD_NAMES, knownHeaders: KNOWN_HEADERS });
      for (const [k, v] of ec.macros) pp.macros.set(k, v);
      const out = emitTokens(pp.expandList(lexFile(makeSrc('<expr>', text))), this.pp.kernels, this.kernelIds);
      wrapped = `void __tl_eval(void){(\n${out.text}\n);}`;
    } catch (e) {
      return fail(e instanceof Error ? e.message : String(e));
    }
    const root = parseToNodes(this.parser, wrapped);
    if (firstError(root)) fail('syntax error');
    const fn = named(root)[0];
    const stmt = fn && field(fn, 'body') ? named(field(fn, 'body')!)[0] : undefined;
    const par = stmt?.type === 'expression_statement' ? named(stmt)[0] : undefined;
    const expr = par?.type === 'parenthesized_expression' && named(par).length === 1 ? named(par)[0] : undefined;
    if (!expr) return fail('not a single C expression');
    return { expr, cx: { fx: { ...ec.fx, noFrame }, scope: ec.scope, hoist: null, src: { text: wrapped, loc: () => ec.loc } } };
  }

  private compileSnippet(ec: EvalCtx, text: string): EF {
    const fail = (msg: string): never => {
      throw new SimError(`cannot evaluate \`${text}\`: ${msg}`, ec.loc, this.rt.stack(ec.loc), 'compile');
    };
    const { expr, cx } = this.snippet(ec, text, 'a tensor-statement expression', fail);
    try {
      const E = this.rval(expr, cx);
      if (!isScalar(E.t)) fail(`value of type ${typeName(E.t)}`);
      return E.f;
    } catch (e) {
      if (e instanceof SimError && e.kind === 'compile') return fail(e.message);
      throw e;
    }
  }
}

export interface FrameView {
  fn: string;
  loc: SourceLoc | undefined;
  locals(): { name: string; type: string; address?: number; value?: number }[];
}

function argNormalizers(t: FnT): ((v: number) => number)[] {
  return (t.params ?? []).map((p) => normalizer(p) ?? ((v: number) => v));
}

function findField(s: StructT, name: string): { off: number; t: CType } | undefined {
  for (const f of s.fields) {
    if (f.name === name) return { off: f.off, t: f.t };
    if (f.name === '' && f.t.k === 'struct') {
      const r = findField(f.t, name);
      if (r) return { off: f.off + r.off, t: r.t };
    }
  }
  return undefined;
}

function cmp(op: string, a: number, b: number): boolean {
  switch (op) {
    case '<': return a < b;
    case '>': return a > b;
    case '<=': return a <= b;
    case '>=': return a >= b;
    case '==': return a === b;
    default: return a !== b;
  }
}

function parseHexFloat(s: string): number {
  const m = /^0x([0-9a-f]*)(?:\.([0-9a-f]*))?p([+-]?\d+)$/.exec(s);
  if (!m) return NaN;
  const mant = parseInt((m[1] || '0') + (m[2] || ''), 16) / 16 ** (m[2] || '').length;
  return mant * 2 ** parseInt(m[3], 10);
}

