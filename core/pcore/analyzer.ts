/**
 * Semantic analysis of a PCORE program: symbol table, name resolution, memory allocation (§8.3 of the
 * research notes) and the PCORE compiler's diagnostics.
 *
 * Memory allocation (per class, all classes overlay each other from the same bases):
 *   S := ROUND8(#constants); shared variables for w = 3,2,1,0 (vint16/float4/float2/int16) in declaration
 *   order: offset := S, S += len; S := ROUND8(S). Private variables from P := 0 in the same order.
 *   For each function of the class: P' := ROUND8(P), then its parameters (w = 3..0, parameter order):
 *   int16/vint16/floatN parameters, the 1-word shadows of `int` and pointer parameters.
 *   `_global int` parameter k lives in integer register 3-k.
 *
 * #constants approximation: the real count is the number of distinct constants that code generation
 * places in the constant table (vector-ALU operands). We count the distinct values of constant
 * (sub)expressions that appear inside function bodies as operands of vector operations:
 *   - the value assigned (`=`, `+=`, `-=`, `*=`) to an int16/vint16/int32/vint32/floatN destination;
 *   - an operand of `+ - *` or of a comparison whose other operand is a vector value;
 *   - an argument of an ALU intrinsic (GE, LT, ...).
 * Not counted: array indices, `for` headers, shift amounts, `_VMASK`/int/pointer arithmetic, case labels,
 * initializers. Override with the `constantsCount` option.
 */
import type { Range, Severity } from '../common/diagnostic';
import { LineIndex } from '../common/lineIndex';
import type * as A from './ast';
import { outerEnd, outerStart } from './ast';
import {
  MAX_ACCUMULATOR_LANES,
  MAX_GLOBAL_INT_PARAMS,
  MAX_INT_REGISTERS,
  MAX_POINTER_REGISTERS,
  MAX_PRIVATE_WORDS,
  MAX_VAR_DIM,
  NOT_TYPE_WORDS,
  NUM_THREAD_PER_CORE,
  PCORE_ADDRESS_WORDS,
  PCORE_PHYSICAL_WORDS,
  PCORE_TYPE_LIST,
  PCORE_TYPES,
  CONSTANT_TABLE_SIZE,
  intrinsicInfo,
  isReservedName,
  round8,
} from './constants';
import { DiagnosticSink, toDiagnostics } from './diagnostics';
import { evaluateConstant } from './evaluate';
import { lex } from './lexer';
import type {
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
import { parseTokens } from './parser';
import { preprocess } from './preprocessor';

export interface AnalyzeOptions {
  /** Extra macros (`NAME` → value, or `NAME(a,b)` → body), e.g. from the application header. */
  defines?: ReadonlyMap<string, string>;
  /** Overrides the approximated number of constants (S = ROUND8(constantsCount)). */
  constantsCount?: number;
  /** Reads `#include`d files to collect their macros; return undefined when not available. */
  resolveInclude?: (path: string, fromFile: string, system: boolean) => string | undefined;
}

type ExprType = 'vector' | 'int' | 'pointer' | 'const' | 'unknown';

interface FnContext {
  fn: PcoreKernel;
  cls: string;
  scopes: Map<string, PcoreSymbol>[];
  loopDepth: number;
  switchDepth: number;
}

const ZERO_RANGE: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function specNames(specs: readonly A.Specifier[]): Set<string> {
  return new Set(specs.map((s) => s.name));
}

function splitName(name: string): { cls: string; member: string; scoped: boolean } {
  const k = name.indexOf('::');
  if (k < 0) return { cls: '', member: name, scoped: false };
  return { cls: name.slice(0, k), member: name.slice(k + 2), scoped: true };
}

function typeOfVar(v: PcoreVarInfo): ExprType {
  if (v.pointer) return 'pointer';
  if (v.storage === 'integer' || v.type === 'int' || v.type === 'unsigned int') return 'int';
  if (v.storage === 'private' || v.storage === 'shared' || v.storage === 'accumulator') return 'vector';
  return 'unknown';
}

class Analyzer {
  readonly sink = new DiagnosticSink();
  readonly index: LineIndex;
  readonly classes = new Map<string, PcoreClass>();
  readonly classVars = new Map<string, PcoreVariable[]>();
  readonly classFns = new Map<string, PcoreKernel[]>();
  readonly variables = new Map<string, PcoreVariable>();
  readonly functions = new Map<string, PcoreKernel>();
  readonly references: PcoreReference[] = [];
  readonly constantValues = new Set<number>();
  readonly reportedTypes = new Set<A.TypeSpec>();
  /** Includes could not be read: unknown names may be header macros. */
  lenientNames = false;

  constructor(
    readonly text: string,
    readonly file: string,
    readonly opts: AnalyzeOptions,
  ) {
    this.index = new LineIndex(text);
  }

  range(start: number, end: number): Range {
    return this.index.range(start, end);
  }

  ref(start: number, end: number, symbol: PcoreSymbol, declaration: boolean): void {
    this.references.push({ start, end, symbol, declaration });
  }

  getClass(name: string): PcoreClass {
    let c = this.classes.get(name);
    if (!c) {
      c = {
        name,
        variables: new Map(),
        kernels: new Map(),
        privateWords: 0,
        sharedWords: 0,
        sharedEnd: 0,
        accumulatorLanes: 0,
        integerCount: 0,
        pointerCount: 0,
      };
      this.classes.set(name, c);
      this.classVars.set(name, []);
      this.classFns.set(name, []);
    }
    return c;
  }

  // ------------------------------------------------------------ entry

  run(): PcoreProgram {
    const tokens = lex(this.text, this.sink);
    const pp = preprocess(this.text, tokens, { file: this.file, defines: this.opts.defines, resolveInclude: this.opts.resolveInclude }, this.sink);
    this.lenientNames = pp.includes.some((i) => !i.resolved);
    const ast = parseTokens(pp.tokens, this.text.length, this.sink);

    for (const item of ast.items) {
      if (item.kind === 'Declaration') this.declareGlobal(item);
    }
    for (const item of ast.items) {
      if (item.kind === 'FunctionDef') this.declareFunction(item);
    }
    for (const item of ast.items) {
      if (item.kind === 'FunctionDef' && item.symbol) this.analyzeBody(item, item.symbol);
    }

    let constantsCount: number;
    let constants: number[] = [];
    if (this.opts.constantsCount !== undefined && Number.isFinite(this.opts.constantsCount) && this.opts.constantsCount >= 0) {
      constantsCount = Math.floor(this.opts.constantsCount);
    } else {
      constants = [...this.constantValues].sort((a, b) => a - b);
      constantsCount = constants.length;
      if (constantsCount > CONSTANT_TABLE_SIZE) {
        this.sink.warning(
          0,
          0,
          'pcore.constants',
          `about ${constantsCount} distinct constants are used; the PCORE constant table holds ${CONSTANT_TABLE_SIZE}`,
        );
      }
    }
    const constantsBase = round8(constantsCount);
    for (const c of this.classes.values()) this.allocateClass(c, constantsBase);

    const defines = new Map<string, PcoreDefine>();
    for (const [name, m] of pp.macros) {
      const d: PcoreDefine = {
        value: m.value,
        range: m.file === undefined ? this.range(m.start, m.end) : (m.range ?? ZERO_RANGE),
        nameRange: m.file === undefined ? this.range(m.nameStart, m.nameEnd) : (m.nameRange ?? ZERO_RANGE),
      };
      if (m.params) d.params = m.params;
      if (m.file !== undefined) d.file = m.file;
      defines.set(name, d);
    }
    this.references.sort((a, b) => a.start - b.start || a.end - b.end);
    const refs = this.references;
    const variables = this.variables;
    const functions = this.functions;
    const program: PcoreProgram = {
      file: this.file,
      classes: this.classes,
      kernels: this.functions,
      variables: this.variables,
      defines,
      includes: pp.includes.map((i) => ({ path: i.path, range: this.range(i.start, i.end), resolved: i.resolved, system: i.system })),
      inactiveRanges: pp.inactiveRanges.map((r) => this.range(r.start, r.end)),
      constantsBase,
      constantsCount,
      constants,
      diagnostics: toDiagnostics(this.sink.items, this.index, this.sink.droppedCount),
      ast,
      references: refs,
      lineIndex: this.index,
      lookupMember: (text: string) => lookupMember(variables, functions, text),
      symbolAt: (offset: number) => symbolAt(refs, offset),
    };
    return program;
  }

  // ------------------------------------------------------------ declarations

  reportBadType(t: A.TypeSpec): void {
    if (this.reportedTypes.has(t) || t.name === '' || t.name === '...') return;
    this.reportedTypes.add(t);
    const first = t.words[0] ?? t.name;
    if (NOT_TYPE_WORDS.has(first)) {
      this.sink.error(t.start, t.end, 'pcore.unknown-type', `\`${first}\` is not a PCORE type (available types: ${PCORE_TYPE_LIST})`);
    } else {
      this.sink.error(t.start, t.end, 'pcore.unknown-type', `Unsupported variable type \`${t.name}\` (available types: ${PCORE_TYPE_LIST})`);
    }
  }

  /** Evaluates array dimensions, reporting problems. */
  evalDims(d: A.Declarator): { dims: number[]; texts: string[]; known: boolean } {
    const dims: number[] = [];
    const texts: string[] = [];
    let known = true;
    for (const e of d.dims) {
      if (!e) {
        this.sink.error(d.nameStart, d.end, 'pcore.array-dim', 'Invalid array definition: every array dimension must be given');
        dims.push(NaN);
        texts.push('');
        known = false;
        continue;
      }
      const s = outerStart(e);
      const en = outerEnd(e);
      const txt = this.text.slice(s, en).trim();
      texts.push(txt);
      const v = evaluateConstant(e);
      if (v === undefined) {
        known = false;
        dims.push(NaN);
        const id = firstIdentifier(e);
        if (id) {
          const lenient = this.lenientNames;
          this.sink.add(
            id.start,
            id.end,
            lenient ? 'information' : 'error',
            'pcore.array-dim',
            `array dimension \`${txt}\` cannot be evaluated: \`${id.name}\` is not defined` +
              (lenient ? ' in this file (it may come from an included header; pass it with the `defines` option)' : ''),
          );
        } else {
          this.sink.error(s, en, 'pcore.array-dim', `Invalid array definition: dimension \`${txt}\` must be an integer constant`);
        }
        continue;
      }
      if (!Number.isInteger(v) || v <= 0) {
        this.sink.error(s, en, 'pcore.array-dim', `Invalid array definition: dimension \`${txt}\` must be a positive integer (it is ${v})`);
        dims.push(NaN);
        known = false;
        continue;
      }
      dims.push(v);
    }
    if (dims.length > MAX_VAR_DIM) {
      const e = d.dims[MAX_VAR_DIM];
      const s = e ? outerStart(e) : d.nameEnd;
      this.sink.error(s, d.end, 'pcore.array-dim', `Exceed max array dimension allowed: at most ${MAX_VAR_DIM} array dimensions are supported`);
    }
    return { dims, texts, known };
  }

  /** Builds the size/shape fields of a variable. */
  varInfo(
    name: string,
    type: A.TypeSpec,
    d: A.Declarator,
    storage: PcoreStorage,
    declRange: Range,
    dimsOverride?: { dims: number[]; texts: string[]; known: boolean },
  ): PcoreVarInfo {
    const ti = PCORE_TYPES.get(type.name);
    const dd = dimsOverride ?? this.evalDims(d);
    const scalarReg = storage === 'integer' || storage === 'pointer';
    const lanes = scalarReg || d.pointer > 0 ? 1 : (ti?.lanes ?? 1);
    const width = scalarReg || d.pointer > 0 ? 0 : (ti?.width ?? 0);
    let len: number;
    if (scalarReg) len = 1;
    else len = dd.known ? dd.dims.reduce((a, b) => a * b, 1) * lanes : NaN;
    const dims = scalarReg ? [] : dd.dims;
    const dimTexts = scalarReg ? [] : dd.texts;
    return {
      name,
      type: type.name,
      pointer: d.pointer > 0,
      storage,
      dims,
      dimTexts,
      sizeKnown: scalarReg || dd.known,
      lanes,
      width,
      len,
      numDim: dims.length + (lanes > 1 ? 1 : 0),
      shape: lanes > 1 ? [...dims, lanes] : [...dims],
      range: declRange,
      nameRange: this.range(d.nameStart, d.nameEnd),
      node: d,
    };
  }

  checkSpecifiers(specs: readonly A.Specifier[], where: 'global' | 'local' | 'param' | 'function'): void {
    for (const s of specs) {
      switch (s.name) {
        case 'static':
          this.sink.error(s.start, s.end, 'pcore.unsupported-storage', 'Static variable not supported: `static` is not supported by the PCORE compiler');
          break;
        case 'const':
          this.sink.error(s.start, s.end, 'pcore.unsupported-storage', 'Constant variables not supported: `const` is not supported by the PCORE compiler');
          break;
        case '_share':
          if (where !== 'global') {
            this.sink.error(
              s.start,
              s.end,
              'pcore.share-scope',
              'Share variable is only available for global variable: `_share` can only be used on class variables',
            );
          }
          break;
        case '_global':
          if (where !== 'param') {
            this.sink.error(s.start, s.end, 'pcore.invalid-specifier', 'Invalid specifier: `_global` is only allowed on `int` kernel parameters');
          }
          break;
        case '_kernel_':
          if (where !== 'function')
            this.sink.error(s.start, s.end, 'pcore.invalid-specifier', 'Invalid specifier: `_kernel_` is only allowed on function definitions');
          break;
        case 'typedef':
          this.sink.error(s.start, s.end, 'pcore.invalid-specifier', '`typedef` is not supported by the PCORE compiler');
          break;
        case 'extern':
          if (where === 'param' || where === 'function') this.sink.error(s.start, s.end, 'pcore.invalid-specifier', 'Invalid specifier: `extern`');
          break;
        default:
          break;
      }
    }
  }

  /** Storage class of a variable declaration (reports the type errors). */
  storageOf(type: A.TypeSpec, d: A.Declarator, share: boolean, global: boolean): PcoreStorage | undefined {
    const ti = PCORE_TYPES.get(type.name);
    if (!type.valid || !ti) {
      this.reportBadType(type);
      return undefined;
    }
    if (ti.cls === 'void') {
      this.sink.error(type.start, type.end, 'pcore.unknown-type', `Unsupported variable type \`void\` (available types: ${PCORE_TYPE_LIST})`);
      return undefined;
    }
    if (share && global) {
      if (ti.cls !== 'storage') {
        this.sink.error(
          type.start,
          type.end,
          'pcore.share-type',
          `Only float are supported for global variables: \`_share\` needs int16, vint16, float2, float4 or float16 (not \`${type.name}\`)`,
        );
      } else {
        if (d.pointer) this.sink.error(d.nameStart, d.nameEnd, 'pcore.share-type', 'a `_share` variable cannot be a pointer');
        return 'shared';
      }
    }
    switch (ti.cls) {
      case 'storage':
        return d.pointer ? 'pointer' : 'private';
      case 'accumulator':
        if (d.pointer)
          this.sink.error(
            d.nameStart,
            d.nameEnd,
            'pcore.unknown-type',
            `Pointer to double not supported: pointers to \`${type.name}\` accumulators are not supported`,
          );
        return 'accumulator';
      case 'integer':
        if (d.pointer)
          this.sink.error(
            d.nameStart,
            d.nameEnd,
            'pcore.unknown-type',
            `pointers to \`${type.name}\` are not supported (pointers must point to int16, vint16 or floatN)`,
          );
        return 'integer';
    }
    return undefined;
  }

  checkArrayAllowed(storage: PcoreStorage, d: A.Declarator): void {
    if ((storage === 'integer' || storage === 'pointer') && d.dims.length > 0) {
      this.sink.error(
        d.nameStart,
        d.nameEnd,
        'pcore.array-not-allowed',
        `Array is not allowed for this variable type: \`${storage === 'integer' ? 'int' : 'pointer'}\` variables must be scalar`,
      );
    }
  }

  checkInitializer(init: A.Expr | null): void {
    if (!init) return;
    const ok = (e: A.Expr): boolean => {
      if (e.kind === 'NumberLiteral') return true;
      if (e.kind === 'Unary' && (e.op === '-' || e.op === '+') && e.argument.kind === 'NumberLiteral') return true;
      if (e.kind === 'InitList') return e.elements.every(ok);
      return e.kind === 'ErrorExpr';
    };
    if (!ok(init)) {
      this.sink.error(
        outerStart(init),
        outerEnd(init),
        'pcore.initializer',
        'Invalid or unsupported variable auto-initialization: an initializer must be a number (or a `{...}` list of numbers); assign other values in a ' +
          'statement',
      );
    }
  }

  declareGlobal(decl: A.Declaration): void {
    const specs = specNames(decl.specifiers);
    this.checkSpecifiers(decl.specifiers, 'global');
    const share = specs.has('_share');
    const declRange = this.range(decl.start, decl.end);
    for (const d of decl.declarators) {
      const { cls, member, scoped } = splitName(d.name);
      if (!scoped) {
        this.sink.warning(
          d.nameStart,
          d.nameEnd,
          'pcore.var-name',
          `global variable \`${d.name}\` should be named class::name (an unscoped global belongs to every class and is not allocated here)`,
        );
      } else if (!member || !cls) {
        this.sink.error(d.nameStart, d.nameEnd, 'pcore.var-name', 'Invalid variable name');
      }
      if (isReservedName(member)) {
        this.sink.error(
          d.nameStart,
          d.nameEnd,
          'pcore.reserved-name',
          `Variable name is a reserved name: \`${member}\` is reserved (tid, pid, _VMASK and ALU opcode names)`,
        );
      }
      const storage = this.storageOf(decl.type, d, share, true);
      const dd = this.evalDims(d);
      this.checkInitializer(d.init);
      if (d.init) this.visitExpr(d.init, null, false);
      if (!storage) continue;
      this.checkArrayAllowed(storage, d);
      const fullName = scoped ? `${cls}::${member}` : member;
      if (this.variables.has(fullName)) {
        this.sink.error(d.nameStart, d.nameEnd, 'pcore.redefined', `Variable already defined: \`${fullName}\` is already declared`);
        continue;
      }
      const v = this.varInfo(member, decl.type, d, storage, declRange, dd) as PcoreVariable;
      v.cls = cls;
      v.fullName = fullName;
      v.offset = undefined;
      v.nameRange = this.memberRange(d.nameStart, d.nameEnd, d.name, member);
      this.variables.set(fullName, v);
      if (scoped && cls) {
        const c = this.getClass(cls);
        c.variables.set(member, v);
        this.classVars.get(cls)!.push(v);
      }
      const sym: PcoreSymbol = { kind: 'variable', variable: v };
      d.symbol = sym;
      this.ref(d.nameStart, d.nameEnd, sym, true);
    }
  }

  /**
   * Where `cls::member` names its member: go to definition and the outline land on the member, not on
   * the class (the whole name when it does not stand as written, e.g. made by a macro).
   */
  memberRange(start: number, end: number, name: string, member: string): Range {
    return member && end - start === name.length && name.endsWith(member) ? this.range(end - member.length, end) : this.range(start, end);
  }

  declareFunction(fn: A.FunctionDef): void {
    const { cls, member, scoped } = splitName(fn.name);
    this.checkSpecifiers(fn.specifiers, 'function');
    if (!scoped || !cls || !member) {
      this.sink.error(fn.nameStart, fn.nameEnd, 'pcore.function-name', `Invalid function name: \`${fn.name}\` must be written class::name`);
    }
    const rt = fn.returnType;
    if (fn.isKernel) {
      if ((rt.name !== 'void' && rt.name !== '') || fn.declarator.pointer > 0) {
        this.sink.error(rt.start, rt.end, 'pcore.kernel-return', `Kernel function must return void (not \`${rt.name}${fn.declarator.pointer ? ' *' : ''}\`)`);
      }
    } else if (!rt.valid) {
      this.reportBadType(rt);
    } else {
      const ti = PCORE_TYPES.get(rt.name);
      if (ti && ti.cls === 'accumulator') {
        this.sink.error(rt.start, rt.end, 'pcore.return-type', `Invalid return value for function: a function cannot return \`${rt.name}\``);
      }
      if (fn.declarator.pointer > 0)
        this.sink.error(rt.start, fn.nameStart, 'pcore.return-type', 'Invalid function return value: functions cannot return pointers');
    }
    const fullName = scoped ? `${cls}::${member}` : fn.name;
    const k: PcoreKernel = {
      cls: scoped ? cls : '',
      name: member,
      fullName,
      isKernel: fn.isKernel,
      returnType: rt.name,
      params: [],
      locals: [],
      range: this.range(fn.start, fn.end),
      nameRange: this.memberRange(fn.nameStart, fn.nameEnd, fn.name, member),
      node: fn,
      privateWords: 0,
      localWordsEstimate: 0,
    };
    fn.symbol = k;
    this.declareParams(fn, k);
    if (!scoped || !cls || !member) return; // not indexed: the compiler rejects the name
    if (this.functions.has(fullName)) {
      this.sink.error(fn.nameStart, fn.nameEnd, 'pcore.duplicate-function', `Duplicate function name: \`${fullName}\` is already defined`);
      return;
    }
    this.functions.set(fullName, k);
    const c = this.getClass(k.cls);
    c.kernels.set(member, k);
    this.classFns.get(k.cls)!.push(k);
    this.ref(fn.nameStart, fn.nameEnd, { kind: 'function', fn: k }, true);
  }

  declareParams(fn: A.FunctionDef, k: PcoreKernel): void {
    let globals = 0;
    const seen = new Set<string>();
    fn.params.forEach((p, index) => {
      if (p.ellipsis) {
        this.sink.error(p.start, p.end, 'pcore.param-type', 'variable argument lists (`...`) are not supported');
        return;
      }
      const d = p.declarator;
      if (!d || !d.name) {
        this.sink.error(p.start, p.end, 'pcore.param-type', 'This C-syntax is not supported by this compiler: parameters must be named');
        return;
      }
      const specs = specNames(p.specifiers);
      this.checkSpecifiers(p.specifiers, 'param');
      if (d.name.includes('::')) {
        this.sink.error(d.nameStart, d.nameEnd, 'pcore.var-name', 'Invalid variable name: parameter names cannot be scoped');
      }
      const name = splitName(d.name).member;
      if (isReservedName(name)) {
        this.sink.error(
          d.nameStart,
          d.nameEnd,
          'pcore.reserved-name',
          `Variable name is a reserved name: \`${name}\` is reserved (tid, pid, _VMASK and ALU opcode names)`,
        );
      }
      if (d.params) this.sink.error(d.start, d.end, 'pcore.param-type', 'function parameters are not supported');
      const type = p.type;
      const ti = PCORE_TYPES.get(type.name);
      if (!type.valid || !ti) {
        this.reportBadType(type);
        return;
      }
      const dd = this.evalDims(d);
      const declRange = this.range(p.start, p.end);
      let storage: PcoreStorage;
      let global = false;
      if (specs.has('_share')) return; // reported by checkSpecifiers
      if (specs.has('_global')) {
        if (ti.cls !== 'integer' || d.pointer) {
          this.sink.error(
            p.start,
            p.end,
            'pcore.invalid-specifier',
            `Invalid specifier: \`_global\` is only allowed on \`int\` parameters (not \`${type.name}${d.pointer ? ' *' : ''}\`)`,
          );
          return;
        }
        if (d.dims.length) this.sink.error(d.nameStart, d.end, 'pcore.int-param-scalar', 'Integer parameter must be scalar');
        storage = 'integer';
        global = true;
      } else if (ti.cls === 'integer') {
        if (type.name !== 'int') {
          this.sink.error(
            type.start,
            type.end,
            'pcore.invalid-specifier',
            `Invalid specifier: use \`int\` or \`_global int\` for integer parameters (not \`${type.name}\`)`,
          );
        }
        if (d.pointer) {
          this.sink.error(d.nameStart, d.nameEnd, 'pcore.param-type', 'pointers to `int` are not supported');
          return;
        }
        if (d.dims.length) this.sink.error(d.nameStart, d.end, 'pcore.int-param-scalar', 'Integer parameter must be scalar');
        storage = 'private'; // 1-word private shadow of the integer register
      } else if (ti.cls === 'storage') {
        if (d.pointer) {
          if (d.dims.length) this.sink.error(d.nameStart, d.end, 'pcore.param-type', 'Pointer parameter must be scalar');
          storage = 'pointer';
        } else storage = 'private';
      } else {
        this.sink.error(
          type.start,
          type.end,
          'pcore.param-type',
          `Unsupported parameter type \`${type.name}\`: parameters must be int, _global int, int16, vint16, float2, float4, float16 or pointers to them`,
        );
        return;
      }
      const info = this.varInfo(name, type, d, storage, declRange, storage === 'integer' ? { dims: [], texts: [], known: true } : dd);
      if (type.name === 'int' && storage === 'private') {
        info.type = 'int';
        info.lanes = 1;
        info.width = 0;
        info.len = 1;
        info.dims = [];
        info.dimTexts = [];
        info.numDim = 0;
        info.shape = [];
        info.sizeKnown = true;
      }
      const param = info as PcoreParam;
      param.cls = k.cls;
      param.fullName = `${k.fullName}.${name}`;
      param.offset = undefined;
      param.kernel = k.fullName;
      param.global = global;
      param.index = index;
      if (global) {
        const slot = globals++;
        param.globalSlot = slot;
        if (slot >= MAX_GLOBAL_INT_PARAMS) {
          this.sink.error(
            p.start,
            p.end,
            'pcore.global-params',
            `out of integer auto memory: a kernel can have at most ${MAX_GLOBAL_INT_PARAMS} \`_global int\` parameters`,
          );
        } else {
          param.intRegister = MAX_INT_REGISTERS - 1 - slot;
        }
      }
      if (seen.has(name)) {
        this.sink.error(d.nameStart, d.nameEnd, 'pcore.redefined', `Variable already defined: parameter \`${name}\` is declared twice`);
      }
      seen.add(name);
      k.params.push(param);
      const sym: PcoreSymbol = { kind: 'param', param };
      d.symbol = sym;
      this.ref(d.nameStart, d.nameEnd, sym, true);
    });
  }

  // ------------------------------------------------------------ bodies

  analyzeBody(fn: A.FunctionDef, k: PcoreKernel): void {
    const top = new Map<string, PcoreSymbol>();
    for (const p of k.params) {
      if (!top.has(p.name)) top.set(p.name, { kind: 'param', param: p });
    }
    const ctx: FnContext = { fn: k, cls: k.cls, scopes: [top], loopDepth: 0, switchDepth: 0 };
    for (const s of fn.body.body) this.visitStmt(s, ctx);
  }

  declareLocal(decl: A.Declaration, ctx: FnContext): void {
    const specs = specNames(decl.specifiers);
    this.checkSpecifiers(decl.specifiers, 'local');
    if (specs.has('extern')) return; // ignored by the compiler
    const scope = ctx.scopes[ctx.scopes.length - 1];
    const declRange = this.range(decl.start, decl.end);
    for (const d of decl.declarators) {
      if (d.init) {
        this.checkInitializer(d.init);
        this.visitExpr(d.init, ctx, false);
      }
      if (d.name.includes('::')) {
        this.sink.error(
          d.nameStart,
          d.nameEnd,
          'pcore.var-name',
          'Invalid variable name: local variables cannot be scoped (class::name is for class variables)',
        );
      }
      const name = splitName(d.name).member;
      if (isReservedName(name)) {
        this.sink.error(
          d.nameStart,
          d.nameEnd,
          'pcore.reserved-name',
          `Variable name is a reserved name: \`${name}\` is reserved (tid, pid, _VMASK and ALU opcode names)`,
        );
      }
      let storage = this.storageOf(decl.type, d, false, false);
      const known = !!storage;
      storage ??= 'private';
      if (known) this.checkArrayAllowed(storage, d);
      const local = this.varInfo(name, decl.type, d, storage, declRange) as PcoreLocal;
      local.kernel = ctx.fn.fullName;
      if (scope.has(name)) {
        this.sink.error(d.nameStart, d.nameEnd, 'pcore.redefined', `Variable already defined: \`${name}\` is already declared in this scope`);
      } else {
        const sym: PcoreSymbol = { kind: 'local', local };
        scope.set(name, sym);
        d.symbol = sym;
        this.ref(d.nameStart, d.nameEnd, sym, true);
      }
      ctx.fn.locals.push(local);
      if (known && storage === 'private' && local.sizeKnown) ctx.fn.localWordsEstimate += local.len;
    }
  }

  visitStmt(s: A.Stmt, ctx: FnContext): void {
    switch (s.kind) {
      case 'Block':
        ctx.scopes.push(new Map());
        for (const x of s.body) this.visitStmt(x, ctx);
        ctx.scopes.pop();
        return;
      case 'DeclStmt':
        this.declareLocal(s.declaration, ctx);
        return;
      case 'ExprStmt':
        this.visitExpr(s.expression, ctx, true);
        return;
      case 'If':
        this.visitExpr(s.test, ctx, true);
        this.visitStmt(s.consequent, ctx);
        if (s.alternate) this.visitStmt(s.alternate, ctx);
        return;
      case 'For':
        ctx.scopes.push(new Map());
        if (s.init) {
          if (s.init.kind === 'DeclStmt') this.declareLocal(s.init.declaration, ctx);
          else this.visitExpr(s.init, ctx, false);
        }
        if (s.test) this.visitExpr(s.test, ctx, false);
        if (s.update) this.visitExpr(s.update, ctx, false);
        ctx.loopDepth++;
        this.visitStmt(s.body, ctx);
        ctx.loopDepth--;
        ctx.scopes.pop();
        return;
      case 'While':
        this.visitExpr(s.test, ctx, true);
        ctx.loopDepth++;
        this.visitStmt(s.body, ctx);
        ctx.loopDepth--;
        return;
      case 'DoWhile':
        ctx.loopDepth++;
        this.visitStmt(s.body, ctx);
        ctx.loopDepth--;
        this.visitExpr(s.test, ctx, true);
        return;
      case 'Switch': {
        this.visitExpr(s.discriminant, ctx, false);
        ctx.switchDepth++;
        ctx.scopes.push(new Map());
        const seen = new Map<number, A.Expr>();
        let defaults = 0;
        for (const c of s.cases) {
          if (c.test) {
            this.visitExpr(c.test, ctx, false);
            const v = evaluateConstant(c.test);
            if (v === undefined) {
              this.sink.error(outerStart(c.test), outerEnd(c.test), 'pcore.case-label', '`case` label must be an integer constant');
            } else if (seen.has(v)) {
              this.sink.error(outerStart(c.test), outerEnd(c.test), 'pcore.case-label', `duplicate \`case ${v}\` label`);
            } else seen.set(v, c.test);
          } else if (++defaults > 1) {
            this.sink.error(c.start, c.end, 'pcore.case-label', 'multiple `default` labels in one `switch`');
          }
          for (const x of c.consequent) this.visitStmt(x, ctx);
        }
        ctx.scopes.pop();
        ctx.switchDepth--;
        return;
      }
      case 'Break':
        if (ctx.loopDepth === 0 && ctx.switchDepth === 0) this.sink.error(s.start, s.end, 'pcore.break-outside', '`break` outside of a loop or `switch`');
        return;
      case 'Continue':
        if (ctx.loopDepth === 0) this.sink.error(s.start, s.end, 'pcore.break-outside', '`continue` outside of a loop');
        return;
      case 'Return':
        if (s.argument) {
          this.visitExpr(s.argument, ctx, true);
          if (ctx.fn.returnType === 'void') {
            this.sink.error(
              s.start,
              s.end,
              'pcore.return-value',
              ctx.fn.isKernel ? 'Kernel function must return void: `return` cannot return a value in a kernel' : 'a `void` function cannot return a value',
            );
          }
        } else if (ctx.fn.returnType !== 'void' && ctx.fn.returnType !== '') {
          this.sink.warning(s.start, s.end, 'pcore.return-value', `\`return\` without a value in a function returning \`${ctx.fn.returnType}\``);
        }
        return;
      case 'Empty':
      case 'PragmaStmt':
      case 'ErrorStmt':
        return;
    }
  }

  resolveName(id: A.Identifier, ctx: FnContext | null): PcoreSymbol | undefined {
    if (id.scope !== undefined) {
      const v = this.variables.get(id.name);
      if (v) return { kind: 'variable', variable: v };
      const f = this.functions.get(id.name);
      if (f) return { kind: 'function', fn: f };
      return undefined;
    }
    const name = id.name;
    if (ctx) {
      for (let k = ctx.scopes.length - 1; k >= 0; k--) {
        const s = ctx.scopes[k].get(name);
        if (s) return s;
      }
      const v = this.variables.get(ctx.cls ? `${ctx.cls}::${name}` : name) ?? this.variables.get(name);
      if (v) return { kind: 'variable', variable: v };
    }
    if (name === 'tid' || name === 'pid' || name === '_VMASK') return { kind: 'builtin', name };
    if (ctx) {
      const f = this.functions.get(ctx.cls ? `${ctx.cls}::${name}` : name);
      if (f) return { kind: 'function', fn: f };
    }
    const ii = intrinsicInfo(name);
    if (ii) return { kind: 'intrinsic', name: ii.name };
    return undefined;
  }

  undefinedName(id: A.Identifier, what: 'variable' | 'function'): void {
    const lenient = this.lenientNames;
    const sev: Severity = what === 'function' ? (lenient ? 'information' : 'warning') : lenient ? 'information' : 'error';
    const msg =
      what === 'variable' ? `Undefined variable \`${id.name}\`` : `Undefined function \`${id.name}\` (not an ALU intrinsic nor a function of this class)`;
    this.sink.add(
      id.start,
      id.end,
      sev,
      what === 'variable' ? 'pcore.undefined' : 'pcore.undefined-function',
      msg + (lenient ? ' in this file (it may be a macro from an included header)' : ''),
    );
  }

  addConstant(e: A.Expr): void {
    const v = evaluateConstant(e);
    if (v !== undefined && Number.isFinite(v)) this.constantValues.add(v);
  }

  checkLvalue(target: A.Expr): void {
    switch (target.kind) {
      case 'Identifier': {
        const s = target.symbol;
        if (!s) return;
        if (s.kind === 'builtin' && s.name !== '_VMASK') {
          this.sink.error(target.start, target.end, 'pcore.lvalue', `\`${s.name}\` is read-only`);
        } else if (s.kind === 'function' || s.kind === 'intrinsic') {
          this.sink.error(target.start, target.end, 'pcore.lvalue', `cannot assign to the function \`${target.name}\``);
        }
        return;
      }
      case 'Index':
      case 'ErrorExpr':
      case 'Update':
        return;
      case 'Unary':
        if (target.op === '*') return;
        break;
    }
    this.sink.error(outerStart(target), outerEnd(target), 'pcore.lvalue', 'invalid assignment target (expected a variable, an array element or `*pointer`)');
  }

  /** Visits an expression: resolves names, reports errors, counts constants. Returns its value kind. */
  visitExpr(e: A.Expr, ctx: FnContext | null, count: boolean): ExprType {
    switch (e.kind) {
      case 'NumberLiteral':
        return 'const';
      case 'StringLiteral':
        this.sink.error(e.start, e.end, 'pcore.unsupported', 'string literals are not supported in PCORE code');
        return 'unknown';
      case 'ErrorExpr':
        return 'unknown';
      case 'Identifier': {
        const s = this.resolveName(e, ctx);
        if (!s) {
          if (ctx) this.undefinedName(e, 'variable');
          return 'unknown';
        }
        e.symbol = s;
        this.ref(e.start, e.end, s, false);
        switch (s.kind) {
          case 'variable':
            return typeOfVar(s.variable);
          case 'param':
            return typeOfVar(s.param);
          case 'local':
            return typeOfVar(s.local);
          case 'builtin':
            return 'int';
          default:
            this.sink.error(e.start, e.end, 'pcore.not-a-value', `\`${e.name}\` is a function, not a value`);
            return 'unknown';
        }
      }
      case 'Unary': {
        if (e.op === '&') {
          this.visitExpr(e.argument, ctx, false);
          if (e.argument.kind !== 'Identifier' && e.argument.kind !== 'Index' && e.argument.kind !== 'ErrorExpr') {
            this.sink.error(e.start, e.end, 'pcore.lvalue', '`&` needs a variable or an array element');
          }
          return 'pointer';
        }
        const t = this.visitExpr(e.argument, ctx, e.op === '*' ? false : count);
        switch (e.op) {
          case '*':
            if (t === 'pointer') return 'vector';
            if (t !== 'unknown') this.sink.error(e.start, e.end, 'pcore.deref', '`*` needs a pointer');
            return 'unknown';
          case '~':
            if (t === 'vector') this.floatOp(e.start, e.start + 1, '~');
            return t === 'const' ? 'const' : t === 'unknown' ? 'unknown' : 'int';
          case '!':
            return t === 'const' ? 'const' : 'int';
          default:
            return t;
        }
      }
      case 'Update': {
        const t = this.visitExpr(e.argument, ctx, false);
        this.checkLvalue(e.argument);
        return t;
      }
      case 'Binary': {
        const lt = this.visitExpr(e.left, ctx, count);
        const rt = this.visitExpr(e.right, ctx, count);
        const op = e.op;
        if (op === '/' || op === '%') {
          if (!(lt === 'const' && rt === 'const')) {
            this.sink.error(
              e.opStart,
              e.opStart + 1,
              op === '/' ? 'pcore.division' : 'pcore.modulo',
              op === '/'
                ? 'Divide operation is not supported: the PCORE compiler only divides constants (constant folding)'
                : 'Modulo operation is not supported: the PCORE compiler only computes `%` on constants (constant folding)',
            );
          }
        }
        if ((op === '&' || op === '|' || op === '^') && (lt === 'vector' || rt === 'vector')) this.floatOp(e.opStart, e.opStart + 1, op);
        const arith = op === '+' || op === '-' || op === '*';
        const cmp = op === '<' || op === '<=' || op === '>' || op === '>=' || op === '==' || op === '!=';
        if (count && (arith || cmp)) {
          if (lt === 'vector' && rt === 'const') this.addConstant(e.right);
          if (rt === 'vector' && lt === 'const') this.addConstant(e.left);
        }
        if (lt === 'const' && rt === 'const') return 'const';
        if (cmp) return 'int';
        if (lt === 'vector' || rt === 'vector') return 'vector';
        if ((lt === 'pointer' || rt === 'pointer') && (op === '+' || op === '-' || op === '<<' || op === '>>')) {
          return lt === 'pointer' && rt === 'pointer' ? 'int' : 'pointer';
        }
        if (lt === 'unknown' || rt === 'unknown') return 'unknown';
        return 'int';
      }
      case 'Logical': {
        const lt = this.visitExpr(e.left, ctx, count);
        const rt = this.visitExpr(e.right, ctx, count);
        return lt === 'const' && rt === 'const' ? 'const' : 'int';
      }
      case 'Assign': {
        const tt = this.visitExpr(e.target, ctx, false);
        this.checkLvalue(e.target);
        const vt = this.visitExpr(e.value, ctx, count);
        if (e.op === '/=' || e.op === '%=') {
          this.sink.error(
            e.opStart,
            e.opStart + 2,
            e.op === '/=' ? 'pcore.division' : 'pcore.modulo',
            e.op === '/='
              ? 'Divide operation is not supported: the PCORE compiler only divides constants (constant folding)'
              : 'Modulo operation is not supported: the PCORE compiler only computes `%` on constants (constant folding)',
          );
        }
        if ((e.op === '&=' || e.op === '|=' || e.op === '^=') && (tt === 'vector' || vt === 'vector')) this.floatOp(e.opStart, e.opStart + 2, e.op);
        if (count && tt === 'vector' && vt === 'const' && (e.op === '=' || e.op === '+=' || e.op === '-=' || e.op === '*=')) {
          this.addConstant(e.value);
        }
        return tt;
      }
      case 'Conditional': {
        this.visitExpr(e.test, ctx, count);
        const a = this.visitExpr(e.consequent, ctx, count);
        const b = this.visitExpr(e.alternate, ctx, count);
        if (a === b) return a;
        if (a === 'vector' || b === 'vector') return 'vector';
        return a === 'unknown' || b === 'unknown' ? 'unknown' : 'int';
      }
      case 'Call':
        return this.visitCall(e, ctx, count);
      case 'Index':
        return this.visitIndex(e, ctx);
      case 'Member':
        this.visitExpr(e.object, ctx, false);
        this.sink.error(e.start, e.end, 'pcore.unsupported', `\`${e.arrow ? '->' : '.'}\` member access is not supported in PCORE code`);
        return 'unknown';
      case 'Cast': {
        const t = this.visitExpr(e.argument, ctx, count);
        if (e.pointer) return 'pointer';
        if (!e.type.valid) this.reportBadType(e.type);
        const ti = PCORE_TYPES.get(e.type.name);
        if (!ti) return 'unknown';
        if (ti.cls === 'integer') return t === 'const' ? 'const' : 'int';
        return ti.cls === 'void' ? 'unknown' : 'vector';
      }
      case 'Sizeof':
        if (e.argument.kind !== 'TypeSpec') this.visitExpr(e.argument, ctx, false);
        this.sink.warning(e.start, e.end, 'pcore.unsupported', '`sizeof` is not supported by the PCORE compiler');
        return 'int';
      case 'Sequence': {
        let t: ExprType = 'unknown';
        for (const x of e.expressions) t = this.visitExpr(x, ctx, count);
        return t;
      }
      case 'InitList':
        for (const x of e.elements) this.visitExpr(x, ctx, false);
        return 'unknown';
    }
  }

  floatOp(start: number, end: number, op: string): void {
    this.sink.error(
      start,
      end,
      'pcore.float-op',
      `Operation not supported for floating point: \`${op}\` works on int values only (int16/vint16/accumulator operands are not allowed)`,
    );
  }

  visitCall(e: A.CallExpr, ctx: FnContext | null, count: boolean): ExprType {
    const callee = e.callee;
    if (callee.kind !== 'Identifier') {
      this.visitExpr(callee, ctx, false);
      this.sink.error(outerStart(callee), outerEnd(callee), 'pcore.not-a-function', 'called object is not a function');
      for (const a of e.args) this.visitExpr(a, ctx, false);
      return 'unknown';
    }
    let sym: PcoreSymbol | undefined;
    // Intrinsic names are reserved, so they cannot be shadowed by variables.
    const ii = callee.scope === undefined ? intrinsicInfo(callee.name) : undefined;
    if (ii) sym = { kind: 'intrinsic', name: ii.name };
    else sym = this.resolveName(callee, ctx);
    if (sym) {
      callee.symbol = sym;
      this.ref(callee.start, callee.end, sym, false);
    }
    if (sym?.kind === 'intrinsic') {
      const info = intrinsicInfo(sym.name)!;
      if (info.arity !== undefined && e.args.length !== info.arity) {
        this.sink.error(
          e.start,
          e.end,
          'pcore.intrinsic-args',
          `\`${info.name}\` expects ${info.arity} argument${info.arity === 1 ? '' : 's'}, but ${e.args.length} ${e.args.length === 1 ? 'was' : 'were'} given`,
        );
      }
      for (const a of e.args) {
        const t = this.visitExpr(a, ctx, count);
        if (count && t === 'const' && info.name !== 'ASN_RAW') this.addConstant(a);
      }
      return info.result === 'int' ? 'int' : 'vector';
    }
    if (sym?.kind === 'function') {
      const f = sym.fn;
      if (f.params.length !== e.args.length) {
        this.sink.error(
          e.start,
          e.end,
          'pcore.call-args',
          `\`${f.fullName}\` ` +
            `expects ${f.params.length} argument${f.params.length === 1 ? '' : 's'}, but ${e.args.length} ${e.args.length === 1 ? 'was' : 'were'} given`,
        );
      }
      for (const a of e.args) this.visitExpr(a, ctx, count);
      const ti = PCORE_TYPES.get(f.returnType);
      if (!ti || ti.cls === 'void') return 'unknown';
      return ti.cls === 'integer' ? 'int' : 'vector';
    }
    if (sym) {
      this.sink.error(callee.start, callee.end, 'pcore.not-a-function', `\`${callee.name}\` is not a function`);
    } else if (ctx) {
      this.undefinedName(callee, 'function');
    }
    for (const a of e.args) this.visitExpr(a, ctx, false);
    return 'unknown';
  }

  /** Indices never count as vector operands (they are address arithmetic). */
  visitIndex(e: A.IndexExpr, ctx: FnContext | null): ExprType {
    // Flatten a[i][j][k]
    const chain: A.IndexExpr[] = [];
    let root: A.Expr = e;
    while (root.kind === 'Index' && root.parenStart === undefined) {
      chain.push(root);
      root = root.object;
    }
    if (root.kind === 'Index') {
      chain.push(root);
      root = root.object;
    }
    chain.reverse();
    const rt = this.visitExpr(root, ctx, false);
    for (const c of chain) this.visitExpr(c.index, ctx, false);
    if (rt === 'int' || rt === 'const') {
      this.sink.error(outerStart(root), outerEnd(root), 'pcore.not-an-array', 'subscripted value is not an array, a vector or a pointer');
      return 'unknown';
    }
    if (root.kind === 'Identifier' && root.symbol) {
      const s = root.symbol;
      const v = s.kind === 'variable' ? s.variable : s.kind === 'param' ? s.param : s.kind === 'local' ? s.local : undefined;
      if (v && !v.pointer && v.sizeKnown) {
        if (chain.length > v.numDim) {
          this.sink.error(e.start, e.end, 'pcore.index-count', `too many indices for \`${root.name}\` (shape [${v.shape.join(',')}])`);
        } else {
          chain.forEach((c, k) => {
            const iv = evaluateConstant(c.index);
            const size = v.shape[k];
            if (iv !== undefined && size !== undefined && (iv < 0 || iv >= size)) {
              this.sink.warning(
                outerStart(c.index),
                outerEnd(c.index),
                'pcore.index-bounds',
                `index ${iv} is out of bounds for dimension ${k} of \`${root.kind === 'Identifier' ? root.name : ''}\` (size ${size})`,
              );
            }
          });
        }
      }
    }
    if (rt === 'pointer' || rt === 'vector') return 'vector';
    return 'unknown';
  }

  // ------------------------------------------------------------ allocation

  allocateClass(c: PcoreClass, constantsBase: number): void {
    const vars = this.classVars.get(c.name) ?? [];
    // Unscoped globals belong to every class in the real compiler; they are not allocated here.
    if (c.name === '') return;
    let S = constantsBase;
    let sKnown = true;
    let P = 0;
    let pKnown = true;
    let overflowReported = false;
    const total = (p: number, s: number): number => NUM_THREAD_PER_CORE * round8(p) + round8(s);
    const checkBudget = (v: PcoreVariable): void => {
      if (overflowReported || !sKnown || !pKnown) return;
      if (P > MAX_PRIVATE_WORDS) {
        overflowReported = true;
        this.sink.error(
          v.node?.nameStart ?? 0,
          v.node?.nameEnd ?? 0,
          'pcore.out-of-memory',
          `out of memory for private memory space: class \`${c.name}\` needs ${P} private words per thread (limit ${MAX_PRIVATE_WORDS})`,
        );
        return;
      }
      const t = total(P, S);
      if (t > PCORE_PHYSICAL_WORDS) {
        overflowReported = true;
        this.sink.error(
          v.node?.nameStart ?? 0,
          v.node?.nameEnd ?? 0,
          'pcore.out-of-memory',
          `out of memory for pcore memory space: class \`${c.name}\` needs ${NUM_THREAD_PER_CORE}×${round8(P)} private + ${round8(S)} shared = ${t} words ` +
            `per PCORE (limit ${PCORE_PHYSICAL_WORDS})`,
        );
      }
    };
    for (let w = 3; w >= 0; w--) {
      for (const v of vars) {
        if (v.storage !== 'shared' || v.width !== w) continue;
        if (!sKnown) continue;
        v.offset = S;
        if (!v.sizeKnown) {
          sKnown = false;
          continue;
        }
        S += v.len;
        c.sharedWords += v.len;
        checkBudget(v);
      }
    }
    S = round8(S);
    c.sharedEnd = sKnown ? S : NaN;
    for (let w = 3; w >= 0; w--) {
      for (const v of vars) {
        if (v.storage !== 'private' || v.width !== w) continue;
        if (!pKnown) continue;
        v.offset = P;
        if (!v.sizeKnown) {
          pKnown = false;
          continue;
        }
        P += v.len;
        checkBudget(v);
      }
    }
    c.privateWords = pKnown ? P : NaN;
    for (const v of vars) {
      if ((v.storage === 'private' || v.storage === 'shared') && v.width > 3) {
        this.sink.warning(
          v.node?.nameStart ?? 0,
          v.node?.nameEnd ?? 0,
          'pcore.float16',
          `\`${v.type}\` is wider than the 8-lane vector: the PCORE compiler does not allocate \`${v.fullName}\``,
        );
      }
    }
    // registers
    let acc = 0;
    let ints = 0;
    let ptrs = 0;
    let accReported = false;
    for (const v of vars) {
      if (v.storage === 'accumulator') {
        v.register = acc;
        if (v.sizeKnown) acc += v.len;
        if (acc > MAX_ACCUMULATOR_LANES && !accReported) {
          accReported = true;
          this.sink.error(
            v.node?.nameStart ?? 0,
            v.node?.nameEnd ?? 0,
            'pcore.out-of-memory',
            `out of memory for accumulator space: class \`${c.name}\` needs ${acc} accumulator lanes (${acc / 8} vectors; ` +
              `limit ${MAX_ACCUMULATOR_LANES} lanes = ${MAX_ACCUMULATOR_LANES / 8} vint32 per thread)`,
          );
        }
      } else if (v.storage === 'integer') {
        v.register = ints++;
      } else if (v.storage === 'pointer') {
        v.register = ptrs++;
      }
    }
    c.accumulatorLanes = acc;
    c.integerCount = ints;
    c.pointerCount = ptrs;
    if (ptrs > MAX_POINTER_REGISTERS) {
      const v = vars.filter((x) => x.storage === 'pointer')[MAX_POINTER_REGISTERS];
      this.sink.warning(
        v.node?.nameStart ?? 0,
        v.node?.nameEnd ?? 0,
        'pcore.registers',
        `out of memory for pointer variables: class \`${c.name}\` declares ${ptrs} pointers (${MAX_POINTER_REGISTERS} pointer registers per thread)`,
      );
    }
    if (ints > MAX_INT_REGISTERS + Math.max(0, MAX_POINTER_REGISTERS - ptrs)) {
      const v = vars.filter((x) => x.storage === 'integer')[MAX_INT_REGISTERS];
      this.sink.warning(
        v.node?.nameStart ?? 0,
        v.node?.nameEnd ?? 0,
        'pcore.registers',
        `out of memory for integer variables: class \`${c.name}\` declares ${ints} int variables (${MAX_INT_REGISTERS} integer registers per thread)`,
      );
    }

    // functions
    for (const k of this.classFns.get(c.name) ?? []) {
      let Pk = round8(P);
      let known = pKnown;
      const allocParam = (p: PcoreParam, w: number): void => {
        if (p.storage === 'pointer') {
          if (w !== 0) return;
          if (known) p.shadowOffset = Pk;
          Pk += 1;
          return;
        }
        if (p.storage !== 'private' || p.width !== w) return;
        if (!known) return;
        p.offset = Pk;
        if (!p.sizeKnown) {
          known = false;
          return;
        }
        Pk += p.len;
      };
      for (let w = 3; w >= 0; w--) {
        for (const p of k.params) allocParam(p, w);
        if (!k.isKernel) {
          // the return value of a helper is allocated like a parameter
          const ti = PCORE_TYPES.get(k.returnType);
          if (ti && (ti.cls === 'storage' || ti.cls === 'integer') && (ti.cls === 'integer' ? 0 : ti.width) === w) Pk += ti.cls === 'integer' ? 1 : ti.lanes;
        }
      }
      k.privateWords = known ? Pk : NaN;
      if (!known || !sKnown || overflowReported) continue;
      const fnNode = k.node;
      if (Pk > MAX_PRIVATE_WORDS) {
        this.sink.error(
          fnNode.nameStart,
          fnNode.nameEnd,
          'pcore.out-of-memory',
          `out of memory for private memory space: \`${k.fullName}\` needs ${Pk} private words per thread with its parameters (limit ${MAX_PRIVATE_WORDS})`,
        );
        continue;
      }
      const t = total(Pk, S);
      if (t > PCORE_PHYSICAL_WORDS) {
        this.sink.error(
          fnNode.nameStart,
          fnNode.nameEnd,
          'pcore.out-of-memory',
          `out of memory for pcore memory space: \`${k.fullName}\` needs ${NUM_THREAD_PER_CORE}×${round8(Pk)} private + ${round8(S)} shared = ${t} words ` +
            `per PCORE (limit ${PCORE_PHYSICAL_WORDS})`,
        );
        continue;
      }
      if (k.localWordsEstimate > 0) {
        const withLocals = round8(Pk) + k.localWordsEstimate;
        const t2 = total(withLocals, S);
        if (withLocals > MAX_PRIVATE_WORDS || t2 > PCORE_PHYSICAL_WORDS) {
          this.sink.warning(
            fnNode.nameStart,
            fnNode.nameEnd,
            'pcore.memory-estimate',
            `\`${k.fullName}\` may run out of pcore memory: with its local variables (${k.localWordsEstimate} words, before the compiler's packing) it ` +
              `needs up to ${NUM_THREAD_PER_CORE}×${round8(withLocals)} + ${round8(S)} = ${t2} words ` +
              `(limit ${PCORE_PHYSICAL_WORDS}, ${MAX_PRIVATE_WORDS} private words per thread)`,
          );
        }
      }
    }
  }
}

function firstIdentifier(e: A.Expr): A.Identifier | undefined {
  const stack: A.Expr[] = [e];
  while (stack.length) {
    const x = stack.pop()!;
    switch (x.kind) {
      case 'Identifier':
        return x;
      case 'Unary':
      case 'Update':
      case 'Cast':
        stack.push(x.argument);
        break;
      case 'Binary':
      case 'Logical':
        stack.push(x.right, x.left);
        break;
      case 'Conditional':
        stack.push(x.alternate, x.consequent, x.test);
        break;
      case 'Call':
        stack.push(...x.args.slice().reverse(), x.callee);
        break;
      case 'Index':
        stack.push(x.index, x.object);
        break;
      case 'Sequence':
        stack.push(...x.expressions.slice().reverse());
        break;
      case 'Assign':
        stack.push(x.value, x.target);
        break;
      default:
        break;
    }
  }
  return undefined;
}

const ROOT_CONSTANT: PcoreVariable = {
  cls: 'root',
  name: 'constant',
  fullName: 'root.constant',
  type: 'int16',
  pointer: false,
  storage: 'shared',
  dims: [PCORE_ADDRESS_WORDS],
  dimTexts: [String(PCORE_ADDRESS_WORDS)],
  sizeKnown: true,
  lanes: 1,
  width: 0,
  len: PCORE_ADDRESS_WORDS,
  numDim: 1,
  shape: [PCORE_ADDRESS_WORDS],
  offset: 0,
  range: ZERO_RANGE,
  nameRange: ZERO_RANGE,
};

export function lookupMember(variables: ReadonlyMap<string, PcoreVariable>, functions: ReadonlyMap<string, PcoreKernel>, text: string): PcoreMemberLookup {
  const t = text.trim();
  if (/^root\.constant$/i.test(t)) return { ok: true, via: 'rootConstant', variable: ROOT_CONSTANT };
  const dot = t.indexOf('.');
  if (dot < 0) {
    if (!t.includes('::')) {
      return { ok: false, message: 'Invalid function parameter', detail: `\`${t}\` is not of the form class::variable or class::function.parameter` };
    }
    const v = variables.get(t);
    if (v) return { ok: true, via: 'classVar', variable: v };
    return { ok: false, message: 'Undefined function parameter', detail: `\`${t}\` is not a variable of the PCORE program` };
  }
  const fn = t.slice(0, dot);
  const p = t.slice(dot + 1);
  if (!fn.includes('::') || p === '' || p.includes('.')) {
    return { ok: false, message: 'Invalid function parameter', detail: `\`${t}\` is not of the form class::variable or class::function.parameter` };
  }
  const f = functions.get(fn);
  if (!f) return { ok: false, message: 'Undefined function parameter', detail: `\`${fn}\` is not a function of the PCORE program` };
  const param = f.params.find((x) => x.name === p);
  if (param) return { ok: true, via: 'param', variable: param, param, kernel: f };
  const v = variables.get(`${f.cls}::${p}`);
  if (v) return { ok: true, via: 'classVarViaFunction', variable: v, kernel: f };
  return { ok: false, message: 'Undefined function parameter', detail: `\`${fn}\` has no parameter \`${p}\` and class \`${f.cls}\` has no variable \`${p}\`` };
}

function symbolAt(refs: readonly PcoreReference[], offset: number): PcoreReference | undefined {
  let lo = 0;
  let hi = refs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (refs[mid].start <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // scan back over references that start at or before offset (macro ranges may overlap)
  for (let k = found; k >= 0 && k > found - 8; k--) {
    const r = refs[k];
    if (r.start <= offset && offset <= r.end) return r;
  }
  return undefined;
}

function emptyProgram(text: string, file: string, message: string): PcoreProgram {
  const index = new LineIndex(text);
  return {
    file,
    classes: new Map(),
    kernels: new Map(),
    variables: new Map(),
    defines: new Map(),
    includes: [],
    inactiveRanges: [],
    constantsBase: 0,
    constantsCount: 0,
    constants: [],
    diagnostics: [{ range: index.range(0, 0), severity: 'error', code: 'pcore.internal', message }],
    ast: { kind: 'Program', items: [], start: 0, end: text.length },
    references: [],
    lineIndex: index,
    lookupMember: () => ({ ok: false, message: 'Undefined function parameter', detail: 'the PCORE program could not be analysed' }),
    symbolAt: () => undefined,
  };
}

/**
 * Parses and analyses a PCORE program. Never throws: an internal failure yields an empty program with a
 * `pcore.internal` diagnostic.
 */
export function analyzePcore(text: string, file: string, opts: AnalyzeOptions = {}): PcoreProgram {
  const src = typeof text === 'string' ? text : String(text ?? '');
  try {
    return new Analyzer(src, file, opts).run();
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return emptyProgram(src, file, `internal error while analysing the PCORE program: ${msg}`);
  }
}
