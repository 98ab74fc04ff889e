/**
 * Compiles the analysed AST of a PCORE (`.p`) program into closures that run one kernel for one
 * (pcore, thread) at a time on 8-lane `Int32Array` vectors.
 *
 * Every expression is compiled once into a typed value (`Val`):
 * - `const`: a compile-time constant (C int semantics, folded by `evaluateConstant`);
 * - `int`: a 13-bit integer-register value (`int` variables, `tid`, `pid`, `_VMASK`, masks of GE/LT…);
 *   every integer-ALU result wraps to 13 bits;
 * - `word`: a scalar data value (an `int16` word, an accumulator lane): computed wide, saturated when stored;
 * - `vec`: 8 lanes, computed wide (32-bit), saturated to 12 bits when stored to int16/vint16, kept 32-bit
 *   in accumulators; scalars are broadcast;
 * - `ptr`: a pointer register value (see runtime.ts), with its unit (8 words for `vint16 *`, 1 for `int16 *`).
 * Vector closures write into a buffer owned by their node and return it (no allocation at run time).
 *
 * Statements are closures returning a completion code (NORMAL/BRK/CNT/RET). Each statement (and each
 * loop iteration) decrements the step budget and adds its static lane-operation count. A construct the
 * interpreter does not support compiles into a statement that throws SimError('not-simulated') when it
 * is reached, so the rest of the program still runs.
 */
import type * as A from '../../pcore/ast';
import { evaluateConstant } from '../../pcore/evaluate';
import type { PcoreKernel, PcoreLocal, PcoreParam, PcoreProgram, PcoreSymbol, PcoreVarInfo } from '../../pcore/model';
import { SimError, type SourceLoc } from '../types';
import * as R from './runtime';
import type { Ctx } from './runtime';

// Bound once: when this module is loaded as CommonJS (tsx, some bundles), every use of an imported binding
// is a getter call on the module object, which costs more than the lane loops themselves.
const { BRK, CNT, LANES, NORMAL, PCORE_WORDS, POLL_STEPS, RET, STEP_CHUNK, SHARED_HALF, SHARED_TAG, SHARED_TOKEN, THREAD_WORDS, ptrIndex, sat12, wrap13 } = R;

export type Stmt = () => number;
type Num = () => number;
type VecFn = () => Int32Array;

export type Val =
  | { k: 'const'; v: number }
  | { k: 'int'; f: Num }
  | { k: 'word'; f: Num }
  | { k: 'ptr'; f: Num; unit: 1 | 8 }
  | { k: 'vec'; f: VecFn }
  | { k: 'void'; f: () => unknown };

type ErrKind = 'not-simulated' | 'compile';

/** A compile-time problem, turned into a SimError when the statement containing it is reached. */
class CErr {
  constructor(readonly off: number, readonly msg: string, readonly kind: ErrKind) {}
}

function notSim(node: { start: number }, what: string): never {
  throw new CErr(node.start, `not simulated: ${what}`, 'not-simulated');
}

function bad(node: { start: number }, msg: string): never {
  throw new CErr(node.start, msg, 'compile');
}

/** A storage location: a register, a frame slot, memory words or an array (for `&` and decay). */
interface Place {
  k: 'int' | 'word' | 'vec' | 'ptr' | 'array';
  /** ptr: unit of the pointer; array: unit of its elements; vec: 8; word/int: 1. */
  unit: 1 | 8;
  /** Computes the address token (checking bounds). */
  prep: Num;
  get?: (a: number) => number;
  /** Stores with the place's conversion (13-bit wrap, 12-bit saturation, none). */
  set?: (a: number, v: number) => void;
  load?: (a: number, out: Int32Array) => void;
  /** Vector stores honour _VMASK. */
  store?: (a: number, src: Int32Array) => void;
  fill?: (a: number, v: number) => void;
  /** Pointer value designating the place, when addressable. */
  addr?: Num;
  /** Why `&` is not available. */
  noAddr?: string;
  /** A faster read closure, when available. */
  fast?: Val;
  /** int/ptr places at a fixed frame slot (`fr`) or thread-state register (`S`, relative to M.so). */
  slot?: { fr: Int32Array; o: number } | { reg: number };
}

interface Ops {
  get: (a: number) => number;
  set: (a: number, v: number) => void;
  load: (a: number, out: Int32Array) => void;
  store: (a: number, src: Int32Array) => void;
  fill: (a: number, v: number) => void;
}

/** Relative word offset: constant `c` when known, else computed by `f`. */
interface Rel {
  c: number | undefined;
  f: Num;
}

/** Where a variable lives. */
type Home =
  | { w: 'priv' | 'shared'; off: number }
  | { w: 'frame'; unit: FnUnit; off: number }
  | { w: 'acc'; reg: number }
  | { w: 'ireg'; reg: number }
  | { w: 'preg'; reg: number };

export interface StateLayout {
  /** Index of the first class `int` register in a thread's state. */
  int0: number;
  ptr0: number;
  acc0: number;
  /** Accumulator lanes per thread. */
  accLanes: number;
  /** Words of state per thread (index 0 is _VMASK). */
  stride: number;
}

/** One compiled function (kernel or helper) with its frame of locals. */
export class FnUnit {
  readonly fr: Int32Array;
  readonly slots = new Map<object, number>();
  body: Stmt = () => NORMAL;
  /** Kernel parameter initialisation (from `_global` slots and shadow words). */
  readonly init: (() => void)[] = [];
  ret: 'void' | 'int' | 'word' | 'vec' = 'void';
  readonly retBuf = new Int32Array(LANES);
  state: 'new' | 'compiling' | 'done' = 'new';
  private readonly frameWords: number;

  constructor(readonly k: PcoreKernel) {
    let size = 0;
    for (const p of k.params) {
      if (!frameParam(k, p)) continue;
      this.slots.set(p, size);
      size += isIntType(p.type) || p.pointer ? 1 : Number.isFinite(p.len) ? p.len : 0;
    }
    for (const l of k.locals) {
      if (!l.sizeKnown) continue;
      this.slots.set(l, size);
      size += l.storage === 'integer' || l.storage === 'pointer' ? 1 : l.len;
    }
    this.fr = new Int32Array(Math.max(size, 1));
    this.frameWords = size;
  }

  /** Resets the frame before running the body. */
  enter(): void {
    if (this.frameWords > 0) this.fr.fill(0);
    if (this.ret !== 'void') this.retBuf.fill(0);
    const init = this.init;
    for (let i = 0; i < init.length; i++) init[i]();
  }
}

function isIntType(t: string): boolean {
  return t === 'int' || t === 'unsigned int';
}

/** Parameters that live in the interpreter frame (others are PCORE memory at their analyzer offset). */
function frameParam(k: PcoreKernel, p: PcoreParam): boolean {
  if (!k.isKernel) return true;
  return p.global || p.pointer || isIntType(p.type);
}

const NOOP = (): void => {};

export class Compiler {
  readonly units = new Map<PcoreKernel, FnUnit>();
  private cost = 0;
  private readonly unitStack: FnUnit[] = [];
  private readonly privOps: Ops;
  private readonly sharedOps: Ops;
  private readonly dynOps: Ops;
  private readonly accOps: Ops;
  private readonly frameOpsCache = new Map<string, Ops>();
  /** Refills the step counter, stops the launch when the budget is spent or it is cancelled. */
  readonly poll: (off: number) => void;

  /**
   * `deferShared`: shared-memory writes wait in the context's write queue until the interleaved runner
   * commits them at the end of a round (runner.ts); the writing thread reads its own queued words.
   */
  constructor(readonly prog: PcoreProgram, readonly M: Ctx, readonly L: StateLayout, readonly deferShared = false) {
    this.privOps = this.memOps('priv');
    this.sharedOps = deferShared ? this.deferredOps(false) : this.memOps('shared');
    this.dynOps = deferShared ? this.deferredOps(true) : this.memOps('dyn');
    this.accOps = this.regVecOps();
    this.poll = (off: number): void => {
      const m = this.M;
      if (m.left < 0) {
        if (m.reserve > 0) {
          // refill the Smi-sized counter from the reserve
          const take = m.reserve > STEP_CHUNK ? STEP_CHUNK : m.reserve;
          m.reserve -= take;
          m.left += take;
        } else {
          m.left = 0;
          throw this.raise(off, 'step budget exhausted (the kernel may not terminate)', 'budget');
        }
      }
      if (m.budget.cancelled) throw this.raise(off, 'cancelled', 'cancelled');
      m.mark = m.left > POLL_STEPS ? m.left - POLL_STEPS : 0;
    };
  }

  // ------------------------------------------------------------------ errors

  loc(off: number): SourceLoc {
    const p = this.prog.lineIndex.position(off);
    return { file: this.prog.file, line: p.line + 1, column: p.character + 1 };
  }

  private fmt(off: number): string {
    const l = this.loc(off);
    return `${l.file}:${l.line}:${l.column}`;
  }

  /** Builds a SimError located at `off` with the PCORE call stack (innermost first). */
  raise(off: number, msg: string, kind: SimError['kind']): SimError {
    const M = this.M;
    const stack: string[] = [];
    let o = off;
    for (let d = M.depth; d >= 0; d--) {
      stack.push(`${M.fns[d]} (${this.fmt(o)})`);
      if (d > 0) o = M.sites[d - 1];
    }
    const where = kind === 'fault' || kind === 'budget' ? ` (PCORE ${M.pid}, thread ${M.tid})` : '';
    return new SimError(msg + where, this.loc(off), stack, kind);
  }

  private oob(node: { start: number }, shared: boolean, rel: number, n: number): SimError {
    const M = this.M;
    const what = n === 1 ? 'word' : 'vector';
    if (shared) {
      return this.raise(node.start, `address out of range: shared ${what} at word ${rel} is outside the PCORE's ${PCORE_WORDS}-word space`, 'fault');
    }
    return this.raise(node.start,
      `address out of range: private ${what} at word ${rel} of thread ${M.tid} (PCORE word ${M.tid * THREAD_WORDS + rel}) is outside the PCORE's ${PCORE_WORDS}-word space`, 'fault');
  }

  // ------------------------------------------------------------------ units

  /** Compiled unit of a function (compiles it on first use). */
  unit(k: PcoreKernel): FnUnit {
    let u = this.units.get(k);
    if (u) return u;
    u = new FnUnit(k);
    this.units.set(k, u);
    u.state = 'compiling';
    this.unitStack.push(u);
    try {
      this.setupUnit(u);
      u.body = this.stmt(k.node.body) ?? (() => NORMAL);
    } finally {
      this.unitStack.pop();
      u.state = 'done';
    }
    return u;
  }

  /**
   * A unit for `k` whose body is compiled by `build` (the interleaved runner's flat code, flat.ts) instead
   * of into one closure; helpers it calls are compiled as usual.
   */
  flatUnit<T>(k: PcoreKernel, build: (u: FnUnit) => T): { u: FnUnit; code: T } {
    const u = new FnUnit(k);
    u.state = 'compiling';
    this.unitStack.push(u);
    try {
      this.setupUnit(u);
      return { u, code: build(u) };
    } finally {
      this.unitStack.pop();
      u.state = 'done';
    }
  }

  /**
   * A condition, an expression statement's effect or a switch discriminant of flat code, with its
   * lane-operation cost; a construct that cannot be simulated becomes a closure that throws when reached.
   */
  piece(e: A.Expr, what: 'test' | 'effect' | 'switch'): [Num, number] {
    try {
      return this.withCost((): Num => {
        if (what === 'test') return this.test(e);
        if (what === 'effect') {
          const f = this.effect(e);
          return () => { f(); return 0; };
        }
        const d = this.rv(e);
        if (d.k === 'vec') notSim(e, 'switch on a vector');
        return this.rawFn(d, e);
      });
    } catch (err) {
      if (!(err instanceof CErr)) throw err;
      const { off, msg, kind } = err;
      return [() => { throw this.raise(off || e.start, msg, kind); }, 0];
    }
  }

  private setupUnit(u: FnUnit): void {
    const k = u.k;
    const M = this.M;
    const fr = u.fr;
    if (!k.isKernel) {
      const rt = k.returnType;
      u.ret = rt === 'void' ? 'void' : isIntType(rt) ? 'int' : rt === 'int16' ? 'word' : rt === 'vint16' ? 'vec' : 'void';
      return;
    }
    for (const p of k.params) {
      const o = u.slots.get(p);
      if (o === undefined) continue;
      if (p.global) {
        const slot = p.globalSlot ?? 0;
        u.init.push(slot === 0 ? () => { fr[o] = wrap13(M.g0); } : () => { fr[o] = wrap13(M.g1); });
      } else if (p.pointer) {
        const so = p.shadowOffset;
        if (so !== undefined) u.init.push(() => { fr[o] = M.priv[M.pb + so]; });
      } else {
        const so = p.offset;
        if (so !== undefined) u.init.push(() => { fr[o] = M.priv[M.pb + so]; });
      }
    }
  }

  private get cur(): FnUnit {
    return this.unitStack[this.unitStack.length - 1];
  }

  // ------------------------------------------------------------------ memory operations

  private memOps(space: 'priv' | 'shared' | 'dyn'): Ops {
    const M = this.M;
    if (space === 'dyn') {
      return {
        get: (a) => (a >= SHARED_TOKEN ? M.shared[a - SHARED_TOKEN] : M.priv[a]),
        set: (a, v) => {
          if (a >= SHARED_TOKEN) M.shared[a - SHARED_TOKEN] = sat12(v);
          else M.priv[a] = sat12(v);
        },
        load: (a, out) => {
          let m = M.priv;
          if (a >= SHARED_TOKEN) {
            m = M.shared;
            a -= SHARED_TOKEN;
          }
          for (let i = 0; i < 8; i++) out[i] = m[a + i];
        },
        store: (a, s) => {
          let m = M.priv;
          if (a >= SHARED_TOKEN) {
            m = M.shared;
            a -= SHARED_TOKEN;
          }
          const k = M.S[M.so];
          if ((k & 255) === 255) {
            for (let i = 0; i < 8; i++) m[a + i] = sat12(s[i]);
          } else {
            for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = sat12(s[i]);
          }
        },
        fill: (a, v) => {
          let m = M.priv;
          if (a >= SHARED_TOKEN) {
            m = M.shared;
            a -= SHARED_TOKEN;
          }
          const k = M.S[M.so];
          const x = sat12(v);
          for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = x;
        },
      };
    }
    if (space === 'priv') {
      return {
        get: (a) => M.priv[a],
        set: (a, v) => { M.priv[a] = sat12(v); },
        load: (a, out) => {
          const m = M.priv;
          for (let i = 0; i < 8; i++) out[i] = m[a + i];
        },
        store: (a, s) => {
          const m = M.priv;
          const k = M.S[M.so];
          if ((k & 255) === 255) {
            for (let i = 0; i < 8; i++) m[a + i] = sat12(s[i]);
          } else {
            for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = sat12(s[i]);
          }
        },
        fill: (a, v) => {
          const m = M.priv;
          const k = M.S[M.so];
          const x = sat12(v);
          for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = x;
        },
      };
    }
    return {
      get: (a) => M.shared[a],
      set: (a, v) => { M.shared[a] = sat12(v); },
      load: (a, out) => {
        const m = M.shared;
        for (let i = 0; i < 8; i++) out[i] = m[a + i];
      },
      store: (a, s) => {
        const m = M.shared;
        const k = M.S[M.so];
        if ((k & 255) === 255) {
          for (let i = 0; i < 8; i++) m[a + i] = sat12(s[i]);
        } else {
          for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = sat12(s[i]);
        }
      },
      fill: (a, v) => {
        const m = M.shared;
        const k = M.S[M.so];
        const x = sat12(v);
        for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = x;
      },
    };
  }

  /**
   * Shared-memory operations of interleaved execution (`dyn`: pointer tokens, private or shared): writes
   * are queued (M.defer) and committed at the end of the round; reads see the committed words and the
   * running thread's own queued writes.
   */
  private deferredOps(dyn: boolean): Ops {
    const M = this.M;
    const direct = this.privOps;
    const off = dyn ? SHARED_TOKEN : 0;
    const priv = (a: number): boolean => dyn && a < SHARED_TOKEN;
    const word = (i: number): number => (M.wn > M.wOwn ? M.sharedWord(i) : M.shared[i]);
    return {
      get: (a) => (priv(a) ? direct.get(a) : word(a - off)),
      set: (a, v) => {
        if (priv(a)) direct.set(a, v);
        else M.defer(a - off, sat12(v));
      },
      load: (a, out) => {
        if (priv(a)) {
          direct.load(a, out);
          return;
        }
        for (let i = 0; i < 8; i++) out[i] = word(a - off + i);
      },
      store: (a, s) => {
        if (priv(a)) {
          direct.store(a, s);
          return;
        }
        const k = M.S[M.so];
        for (let i = 0; i < 8; i++) if ((k >> i) & 1) M.defer(a - off + i, sat12(s[i]));
      },
      fill: (a, v) => {
        if (priv(a)) {
          direct.fill(a, v);
          return;
        }
        const k = M.S[M.so];
        const x = sat12(v);
        for (let i = 0; i < 8; i++) if ((k >> i) & 1) M.defer(a - off + i, x);
      },
    };
  }

  /** Accumulator lanes in the thread state (32-bit, no saturation, stores honour _VMASK). */
  private regVecOps(): Ops {
    const M = this.M;
    return {
      get: (a) => M.S[a],
      set: (a, v) => { M.S[a] = v | 0; },
      load: (a, out) => {
        const m = M.S;
        for (let i = 0; i < 8; i++) out[i] = m[a + i];
      },
      store: (a, s) => {
        const m = M.S;
        const k = m[M.so];
        if ((k & 255) === 255) {
          for (let i = 0; i < 8; i++) m[a + i] = s[i];
        } else {
          for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = s[i];
        }
      },
      fill: (a, v) => {
        const m = M.S;
        const k = m[M.so];
        for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = v | 0;
      },
    };
  }

  /** Locals in a frame: 12-bit saturated (int16/vint16) or 32-bit (accumulators); vector stores honour _VMASK. */
  private frameOps(u: FnUnit, sat: boolean): Ops {
    const key = `${u.k.fullName}/${sat}`;
    const hit = this.frameOpsCache.get(key);
    if (hit) return hit;
    const M = this.M;
    const fr = u.fr;
    const cv = sat ? sat12 : (x: number): number => x | 0;
    const ops: Ops = {
      get: (a) => fr[a],
      set: (a, v) => { fr[a] = cv(v); },
      load: (a, out) => {
        for (let i = 0; i < 8; i++) out[i] = fr[a + i];
      },
      store: (a, s) => {
        const k = M.S[M.so];
        if ((k & 255) === 255) {
          for (let i = 0; i < 8; i++) fr[a + i] = cv(s[i]);
        } else {
          for (let i = 0; i < 8; i++) if ((k >> i) & 1) fr[a + i] = cv(s[i]);
        }
      },
      fill: (a, v) => {
        const k = M.S[M.so];
        const x = cv(v);
        for (let i = 0; i < 8; i++) if ((k >> i) & 1) fr[a + i] = x;
      },
    };
    this.frameOpsCache.set(key, ops);
    return ops;
  }

  // ------------------------------------------------------------------ places

  private homeOf(node: A.Node, sym: PcoreSymbol): { info: PcoreVarInfo; home: Home; name: string } {
    const L = this.L;
    switch (sym.kind) {
      case 'variable': {
        const v = sym.variable;
        switch (v.storage) {
          case 'private':
          case 'shared':
            if (v.offset === undefined || !v.sizeKnown) bad(node, `\`${v.fullName}\` has no memory offset (its size could not be evaluated)`);
            return { info: v, home: { w: v.storage === 'private' ? 'priv' : 'shared', off: v.offset }, name: v.fullName };
          case 'accumulator':
            if (v.register === undefined || !v.sizeKnown) bad(node, `\`${v.fullName}\` has no accumulator register`);
            return { info: v, home: { w: 'acc', reg: v.register }, name: v.fullName };
          case 'integer':
            if (v.register === undefined) bad(node, `\`${v.fullName}\` has no integer register`);
            return { info: v, home: { w: 'ireg', reg: L.int0 + v.register }, name: v.fullName };
          case 'pointer':
            if (v.register === undefined) bad(node, `\`${v.fullName}\` has no pointer register`);
            return { info: v, home: { w: 'preg', reg: L.ptr0 + v.register }, name: v.fullName };
        }
        break;
      }
      case 'param': {
        const p = sym.param;
        const u = this.unitOfParam(node, p);
        const o = u.slots.get(p);
        if (o !== undefined) return { info: p, home: { w: 'frame', unit: u, off: o }, name: p.name };
        if (p.offset === undefined || !p.sizeKnown) bad(node, `parameter \`${p.name}\` has no memory offset`);
        return { info: p, home: { w: 'priv', off: p.offset }, name: p.name };
      }
      case 'local': {
        const l = sym.local;
        const u = this.cur;
        const o = u.slots.get(l);
        if (o === undefined) bad(node, `local \`${l.name}\` has an unknown size`);
        return { info: l, home: { w: 'frame', unit: u, off: o }, name: l.name };
      }
      default:
        break;
    }
    return bad(node, 'not a variable');
  }

  private unitOfParam(node: A.Node, p: PcoreParam): FnUnit {
    const u = this.cur;
    if (u.k.fullName !== p.kernel) bad(node, `parameter \`${p.name}\` of \`${p.kernel}\` used outside its function`);
    return u;
  }

  /** Place designated by an lvalue-like expression. */
  place(e: A.Expr): Place {
    switch (e.kind) {
      case 'Identifier':
        return this.identPlace(e, e, []);
      case 'Index': {
        const idx: A.Expr[] = [];
        let root: A.Expr = e;
        while (root.kind === 'Index') {
          idx.push(root.index);
          root = root.object;
        }
        idx.reverse();
        if (root.kind === 'Identifier' && root.symbol && root.symbol.kind !== 'builtin') return this.identPlace(e, root, idx);
        const p = this.rv(root);
        if (p.k !== 'ptr') bad(e, 'subscripted value is not an array, a vector or a pointer');
        return this.derefPlace(e, p, idx);
      }
      case 'Unary':
        if (e.op === '*') {
          const p = this.rv(e.argument);
          if (p.k !== 'ptr') bad(e, '`*` needs a pointer');
          return this.derefPlace(e, p, []);
        }
        break;
      default:
        break;
    }
    return bad(e, 'invalid assignment target (expected a variable, an array element or `*pointer`)');
  }

  private identPlace(node: A.Expr, id: A.Identifier, idxExprs: A.Expr[]): Place {
    const sym = id.symbol;
    if (!sym) bad(id, `undefined name \`${id.name}\``);
    if (sym.kind === 'builtin') {
      if (sym.name !== '_VMASK') bad(id, `\`${sym.name}\` is read-only`);
      if (idxExprs.length) bad(node, '`_VMASK` is not an array');
      const M = this.M;
      return {
        k: 'int', unit: 1, prep: () => M.so,
        get: (a) => M.S[a], set: (a, v) => { M.S[a] = wrap13(v); },
        fast: { k: 'int', f: () => M.S[M.so] }, noAddr: 'address of `_VMASK`',
      };
    }
    if (sym.kind === 'function' || sym.kind === 'intrinsic') bad(id, `\`${id.name}\` is a function, not a variable`);
    const { info, home, name } = this.homeOf(id, sym);
    return this.varPlace(node, info, home, name, idxExprs);
  }

  private varPlace(node: A.Expr, info: PcoreVarInfo, home: Home, name: string, idxExprs: A.Expr[]): Place {
    const M = this.M;
    // integer registers
    if (home.w === 'ireg' || (home.w === 'frame' && isIntType(info.type) && !info.pointer)) {
      if (idxExprs.length) bad(node, `subscripted value \`${name}\` is not an array`);
      if (home.w === 'ireg') {
        const r = home.reg;
        return {
          k: 'int', unit: 1, prep: () => M.so + r, get: (a) => M.S[a], set: (a, v) => { M.S[a] = wrap13(v); },
          fast: { k: 'int', f: () => M.S[M.so + r] }, noAddr: 'address of an `int` variable', slot: { reg: r },
        };
      }
      const fr = home.unit.fr;
      const o = home.off;
      return {
        k: 'int', unit: 1, prep: () => o, get: (a) => fr[a], set: (a, v) => { fr[a] = wrap13(v); },
        fast: { k: 'int', f: () => fr[o] }, noAddr: 'address of an `int` variable', slot: { fr, o },
      };
    }
    // pointers
    if (info.pointer) {
      const unit: 1 | 8 = info.type === 'vint16' ? 8 : info.type === 'int16' ? 1 : notSim(node, `pointer to \`${info.type}\``);
      let pl: Place;
      if (home.w === 'preg') {
        const r = home.reg;
        pl = {
          k: 'ptr', unit, prep: () => M.so + r, get: (a) => M.S[a], set: (a, v) => { M.S[a] = v | 0; },
          fast: { k: 'ptr', unit, f: () => M.S[M.so + r] }, noAddr: 'address of a pointer variable', slot: { reg: r },
        };
      } else if (home.w === 'frame') {
        const fr = home.unit.fr;
        const o = home.off;
        pl = {
          k: 'ptr', unit, prep: () => o, get: (a) => fr[a], set: (a, v) => { fr[a] = v | 0; },
          fast: { k: 'ptr', unit, f: () => fr[o] }, noAddr: 'address of a pointer variable', slot: { fr, o },
        };
      } else {
        return bad(node, `pointer \`${name}\` has no register`);
      }
      if (!idxExprs.length) return pl;
      return this.derefPlace(node, this.read(pl, node) as Val & { k: 'ptr' }, idxExprs);
    }
    const t = info.type;
    const isAcc = info.storage === 'accumulator';
    if (!isAcc && t !== 'int16' && t !== 'vint16') notSim(node, `\`${t}\` variables`);
    const d = info.dims.length;
    const n = idxExprs.length;
    const lanes = info.lanes;
    if (n > d + (lanes > 1 ? 1 : 0)) bad(node, `too many indices for \`${name}\``);
    // element kind
    let k: Place['k'];
    let width: 1 | 8;
    if (n < d) {
      if (isAcc) notSim(node, 'accumulator array used as a value');
      k = 'array';
      width = lanes === 8 ? 8 : 1;
    } else if (n === d && lanes === 8) {
      k = 'vec';
      width = 8;
    } else {
      k = 'word';
      width = 1;
    }
    // strides over shape (dims + lanes)
    const shape = info.shape;
    const strides: number[] = [];
    for (let i = 0; i < n; i++) {
      let s = 1;
      for (let j = i + 1; j < shape.length; j++) s *= shape[j];
      strides.push(s);
    }
    const idx = idxExprs.map((x) => this.indexVal(x));
    const rel = this.relOf(idx, strides, 0);
    const span = k === 'vec' ? 8 : k === 'word' ? 1 : 0;
    switch (home.w) {
      case 'priv':
      case 'shared':
        return this.memPlace(node, home.w === 'shared', home.off, rel, k, width, span);
      case 'frame':
        return this.framePlace(node, home.unit, home.off, info.len, rel, k, width, span, isAcc, name);
      case 'acc':
        return this.accPlace(node, home.reg, rel, k, span);
      default:
        return bad(node, `\`${name}\` is not a memory variable`);
    }
  }

  private indexVal(x: A.Expr): Val {
    const v = this.rv(x);
    if (v.k === 'vec') notSim(x, 'vector used as an index');
    if (v.k === 'ptr') bad(x, 'pointer used as an index');
    if (v.k === 'void') bad(x, 'void value used as an index');
    return v;
  }

  /** Σ idx·stride + base, folding constant indices. */
  private relOf(idx: Val[], strides: number[], base: number): Rel {
    let c = base;
    const dyn: { f: Num; s: number }[] = [];
    idx.forEach((v, i) => {
      if (v.k === 'const') c += v.v * strides[i];
      else dyn.push({ f: (v as { f: Num }).f, s: strides[i] });
    });
    if (dyn.length === 0) return { c, f: () => c };
    if (dyn.length === 1) {
      const { f, s } = dyn[0];
      return { c: undefined, f: s === 1 ? () => c + f() : () => c + f() * s };
    }
    if (dyn.length === 2) {
      const [a, b] = dyn;
      const fa = a.f, sa = a.s, fb = b.f, sb = b.s;
      return { c: undefined, f: () => c + fa() * sa + fb() * sb };
    }
    return {
      c: undefined,
      f: () => {
        let r = c;
        for (let i = 0; i < dyn.length; i++) r += dyn[i].f() * dyn[i].s;
        return r;
      },
    };
  }

  private memPlace(node: A.Node, shared: boolean, off: number, relIdx: Rel, k: Place['k'], width: 1 | 8, span: number): Place {
    const M = this.M;
    const ops = shared ? this.sharedOps : this.privOps;
    const lim = PCORE_WORDS - Math.max(span, 1);
    const c = relIdx.c === undefined ? undefined : off + relIdx.c;
    const rf = relIdx.f;
    const rel: Num = c !== undefined ? () => c : () => off + rf();
    let prep: Num;
    const safe = c !== undefined && c >= 0 && c + span <= (shared ? PCORE_WORDS : THREAD_WORDS);
    if (shared) {
      if (safe) prep = () => M.cb + c;
      else {
        prep = () => {
          const r = rel();
          const a = M.cb + r;
          if (((a - M.cb) >>> 0) > lim) throw this.oob(node, true, r, span);
          return a;
        };
      }
    } else if (safe) prep = () => M.pb + c;
    else {
      prep = () => {
        const r = rel();
        const a = M.pb + r;
        if (((a - M.cb) >>> 0) > lim) throw this.oob(node, false, r, span);
        return a;
      };
    }
    const tag = shared ? SHARED_TAG : 0;
    let addr: Num;
    if (width === 8) {
      addr = () => {
        const r = rel();
        if ((r & 7) !== 0) throw this.raise(node.start, `vector address ${r} is not a multiple of 8 words`, 'fault');
        return tag + (r >> 3);
      };
    } else addr = () => tag + rel();
    const pl: Place = { k, unit: width, prep, addr, ...ops };
    if (k === 'vec' && safe && !(shared && this.deferShared)) {
      const out = new Int32Array(LANES);
      pl.fast = shared
        ? { k: 'vec', f: () => { const m = M.shared; const a = M.cb + c; for (let i = 0; i < 8; i++) out[i] = m[a + i]; return out; } }
        : { k: 'vec', f: () => { const m = M.priv; const a = M.pb + c; for (let i = 0; i < 8; i++) out[i] = m[a + i]; return out; } };
    }
    return pl;
  }

  private framePlace(node: A.Node, u: FnUnit, base: number, len: number, relIdx: Rel, k: Place['k'], width: 1 | 8, span: number, acc: boolean, name: string): Place {
    const ops = this.frameOps(u, !acc);
    const rf = relIdx.f;
    const c = relIdx.c;
    const n = Math.max(span, 1);
    let prep: Num;
    if (c !== undefined && c >= 0 && c + n <= len) {
      const a = base + c;
      prep = () => a;
    } else {
      prep = () => {
        const r = rf();
        if (r < 0 || r + n > len) throw this.raise(node.start, `index out of range: word ${r} of local \`${name}\` (${len} words)`, 'fault');
        return base + r;
      };
    }
    const pl: Place = { k, unit: width, prep, noAddr: `address of local variable \`${name}\``, ...ops };
    if (k === 'vec' && c !== undefined && c >= 0 && c + 8 <= len) {
      const view = u.fr.subarray(base + c, base + c + 8);
      pl.fast = { k: 'vec', f: () => view };
    }
    return pl;
  }

  private accPlace(node: A.Node, reg: number, relIdx: Rel, k: Place['k'], span: number): Place {
    const M = this.M;
    const L = this.L;
    const rf = relIdx.f;
    const base = L.acc0 + reg;
    const lim = L.accLanes - span;
    const c = relIdx.c;
    let prep: Num;
    if (c !== undefined && reg + c >= 0 && reg + c <= lim) {
      const o = base + c;
      prep = () => M.so + o;
    } else {
      prep = () => {
        const r = rf();
        if (reg + r < 0 || reg + r > lim) {
          throw this.raise(node.start, `accumulator index out of range: lane ${reg + r} of ${L.accLanes}`, 'fault');
        }
        return M.so + base + r;
      };
    }
    return { k, unit: k === 'vec' ? 8 : 1, prep, noAddr: 'address of an accumulator', ...this.accOps };
  }

  /** `p[i]`, `p[i][lane]`, `*p` for a pointer value. */
  private derefPlace(node: A.Expr, p: Val & { k: 'ptr' }, idxExprs: A.Expr[]): Place {
    const M = this.M;
    const unit = p.unit;
    if (idxExprs.length > (unit === 8 ? 2 : 1)) bad(node, 'too many indices for a pointer');
    const iv = idxExprs.length ? this.indexVal(idxExprs[0]) : ({ k: 'const', v: 0 } as Val);
    const lv = idxExprs.length > 1 ? this.indexVal(idxExprs[1]) : undefined;
    const k: Place['k'] = unit === 8 && !lv ? 'vec' : 'word';
    const span = k === 'vec' ? 8 : 1;
    const lim = PCORE_WORDS - span;
    const pf = p.f;
    const fi: Num = iv.k === 'const' ? ((c) => () => c)(iv.v) : (iv as { f: Num }).f;
    const fl: Num = !lv ? () => 0 : lv.k === 'const' ? ((c) => () => c)(lv.v) : (lv as { f: Num }).f;
    let prep: Num;
    if (!lv && iv.k === 'const') {
      const ci = iv.v;
      prep = () => {
        const r = pf();
        if (r >= SHARED_HALF) {
          const w = (r - SHARED_TAG + ci) * unit;
          const a = M.cb + w;
          if (((a - M.cb) >>> 0) > lim) throw this.oob(node, true, w, span);
          return a + SHARED_TOKEN;
        }
        const w = (r + ci) * unit;
        const a = M.pb + w;
        if (((a - M.cb) >>> 0) > lim) throw this.oob(node, false, w, span);
        return a;
      };
    } else {
      prep = () => {
        const r = pf();
        if (r >= SHARED_HALF) {
          const w = (r - SHARED_TAG + fi()) * unit + fl();
          const a = M.cb + w;
          if (((a - M.cb) >>> 0) > lim) throw this.oob(node, true, w, span);
          return a + SHARED_TOKEN;
        }
        const w = (r + fi()) * unit + fl();
        const a = M.pb + w;
        if (((a - M.cb) >>> 0) > lim) throw this.oob(node, false, w, span);
        return a;
      };
    }
    const addr: Num = !lv
      ? () => pf() + fi()
      : () => {
        const r = pf();
        const sh = r >= SHARED_HALF;
        return (sh ? SHARED_TAG : 0) + ((sh ? r - SHARED_TAG : r) + fi()) * 8 + fl();
      };
    return { k, unit: k === 'vec' ? 8 : 1, prep, addr, ...this.dynOps };
  }

  /** Value of a place. */
  read(pl: Place, node: A.Node): Val & { k: 'int' | 'word' | 'vec' | 'ptr' } {
    if (pl.fast) return pl.fast as Val & { k: 'int' | 'word' | 'vec' | 'ptr' };
    const prep = pl.prep;
    switch (pl.k) {
      case 'int': {
        const get = pl.get!;
        return { k: 'int', f: () => get(prep()) };
      }
      case 'word': {
        const get = pl.get!;
        return { k: 'word', f: () => get(prep()) };
      }
      case 'ptr': {
        const get = pl.get!;
        return { k: 'ptr', unit: pl.unit, f: () => get(prep()) };
      }
      case 'vec': {
        const load = pl.load!;
        const out = new Int32Array(LANES);
        return { k: 'vec', f: () => { load(prep(), out); return out; } };
      }
      case 'array': {
        const addr = pl.addr;
        if (!addr) notSim(node, pl.noAddr ?? 'array used as a value');
        return { k: 'ptr', unit: pl.unit, f: addr };
      }
    }
  }

  // ------------------------------------------------------------------ expressions

  private constOf(e: A.Expr): number | undefined {
    switch (e.kind) {
      case 'NumberLiteral':
      case 'Unary':
      case 'Binary':
      case 'Logical':
      case 'Conditional':
      case 'Cast':
        break;
      default:
        return undefined;
    }
    if (e.kind === 'Unary' && (e.op === '&' || e.op === '*')) return undefined;
    const v = evaluateConstant(e);
    if (v === undefined) return undefined;
    if (!Number.isInteger(v)) notSim(e, 'floating-point value');
    return v | 0;
  }

  /** Compiles an expression for its value. */
  rv(e: A.Expr): Val {
    const c = this.constOf(e);
    if (c !== undefined) return { k: 'const', v: c };
    const M = this.M;
    switch (e.kind) {
      case 'NumberLiteral':
        return notSim(e, 'floating-point constant');
      case 'Identifier': {
        const s = e.symbol;
        if (s?.kind === 'builtin') {
          if (s.name === 'tid') return { k: 'int', f: () => M.tid };
          if (s.name === 'pid') return { k: 'int', f: () => M.pid };
          return { k: 'int', f: () => M.S[M.so] };
        }
        return this.read(this.placeNode(e), e);
      }
      case 'Index':
        return this.read(this.placeNode(e), e);
      case 'Unary':
        return this.unary(e);
      case 'Update':
        return this.update(e, true);
      case 'Binary':
        return this.binary(e.op, this.rv(e.left), this.rv(e.right), e);
      case 'Logical':
        return this.logical(e);
      case 'Assign':
        return this.assignExpr(e, true);
      case 'Conditional':
        return this.conditional(e);
      case 'Call':
        return this.call(e, true);
      case 'Cast':
        return this.cast(e);
      case 'Sequence': {
        const pre = e.expressions.slice(0, -1).map((x) => this.effect(x));
        const last = this.rv(e.expressions[e.expressions.length - 1]);
        return this.withPre(pre, last);
      }
      case 'Sizeof':
        return notSim(e, '`sizeof`');
      case 'StringLiteral':
        return notSim(e, 'string literal');
      case 'Member':
        return notSim(e, `\`${e.arrow ? '->' : '.'}\` member access`);
      case 'InitList':
        return notSim(e, 'initializer list in an expression');
      case 'ErrorExpr':
        return bad(e, 'syntax error');
    }
  }

  /** place() with the node's offset attached to location-less errors. */
  private placeNode(e: A.Expr): Place {
    try {
      return this.place(e);
    } catch (err) {
      if (err instanceof CErr && err.off === 0 && e.start !== 0) throw new CErr(e.start, err.msg, err.kind);
      throw err;
    }
  }

  private withPre(pre: (() => unknown)[], v: Val): Val {
    const live = pre.filter((f) => f !== NOOP);
    if (!live.length || v.k === 'const') {
      if (v.k === 'const' && live.length) {
        const c = v.v;
        return { k: 'int', f: () => { for (let i = 0; i < live.length; i++) live[i](); return c; } };
      }
      return v;
    }
    const run = (): void => { for (let i = 0; i < live.length; i++) live[i](); };
    switch (v.k) {
      case 'vec': {
        const f = v.f;
        return { k: 'vec', f: () => { run(); return f(); } };
      }
      case 'ptr': {
        const f = v.f;
        return { k: 'ptr', unit: v.unit, f: () => { run(); return f(); } };
      }
      case 'void': {
        const f = v.f;
        return { k: 'void', f: () => { run(); return f(); } };
      }
      default: {
        const f = v.f;
        return { k: v.k, f: () => { run(); return f(); } };
      }
    }
  }

  /** Compiles an expression evaluated for its side effects. */
  effect(e: A.Expr): () => unknown {
    switch (e.kind) {
      case 'Assign':
        return fnOf(this.assignExpr(e, false));
      case 'Update':
        return fnOf(this.update(e, false));
      case 'Call': {
        const v = this.call(e, false);
        return v.k === 'const' ? NOOP : v.f;
      }
      case 'Sequence': {
        const fs = e.expressions.map((x) => this.effect(x)).filter((f) => f !== NOOP);
        if (fs.length === 1) return fs[0];
        return () => { for (let i = 0; i < fs.length; i++) fs[i](); };
      }
      default: {
        const v = this.rv(e);
        return v.k === 'const' ? NOOP : v.f;
      }
    }
  }

  /** Scalar closure of a const/int/word value. */
  private sf(v: Val, node: A.Node): Num {
    switch (v.k) {
      case 'const': {
        const c = v.v;
        return () => c;
      }
      case 'int':
      case 'word':
        return v.f;
      case 'ptr': {
        const f = v.f;
        return () => ptrIndex(f());
      }
      case 'vec':
        return notSim(node, 'vector used where a scalar is expected');
      case 'void':
        return bad(node, 'void value used in an expression');
    }
  }

  /** Raw closure (pointers keep their tag): for comparisons and conditions. */
  private rawFn(v: Val, node: A.Node): Num {
    if (v.k === 'ptr') return v.f;
    return this.sf(v, node);
  }

  /** Condition closure (non-zero = true). */
  private test(e: A.Expr): Num {
    const v = this.rv(e);
    if (v.k === 'vec') notSim(e, 'vector value used as a condition (use GE/GT/LT… and _VMASK)');
    return this.rawFn(v, e);
  }

  private withCost<T>(fn: () => T): [T, number] {
    const saved = this.cost;
    this.cost = 0;
    try {
      const r = fn();
      return [r, this.cost];
    } finally {
      this.cost = saved;
    }
  }

  private costed(f: Num, c: number): Num {
    if (c === 0) return f;
    const M = this.M;
    return () => { M.ops += c; return f(); };
  }

  private costedVec(f: VecFn, c: number): VecFn {
    if (c === 0) return f;
    const M = this.M;
    return () => { M.ops += c; return f(); };
  }

  /** Vector closure of any value (scalars are broadcast into a buffer). */
  private vf(v: Val, node: A.Node): VecFn {
    if (v.k === 'vec') return v.f;
    const s = this.sf(v, node);
    const out = new Int32Array(LANES);
    return () => { out.fill(s()); return out; };
  }

  private unary(e: A.UnaryExpr): Val {
    switch (e.op) {
      case '&': {
        const pl = this.placeNode(e.argument);
        if (!pl.addr) notSim(e, pl.noAddr ?? 'address of this expression');
        return { k: 'ptr', unit: pl.k === 'word' ? 1 : pl.unit, f: pl.addr };
      }
      case '*':
        return this.read(this.placeNode(e), e);
      case '+': {
        const a = this.rv(e.argument);
        if (a.k === 'void') bad(e, 'void value used in an expression');
        return a;
      }
      case '-': {
        const a = this.rv(e.argument);
        if (a.k === 'vec') {
          this.cost += 8;
          const f = a.f;
          const out = new Int32Array(LANES);
          return { k: 'vec', f: () => { const x = f(); for (let i = 0; i < 8; i++) out[i] = -x[i] | 0; return out; } };
        }
        if (a.k === 'ptr') bad(e, 'cannot negate a pointer');
        this.cost += 1;
        const f = this.sf(a, e);
        if (a.k === 'word') return { k: 'word', f: () => -f() | 0 };
        return { k: 'int', f: () => wrap13(-f()) };
      }
      case '!': {
        const a = this.rv(e.argument);
        if (a.k === 'vec') notSim(e, '`!` on a vector');
        this.cost += 1;
        const f = this.rawFn(a, e);
        return { k: 'int', f: () => (f() === 0 ? 1 : 0) };
      }
      case '~': {
        const a = this.rv(e.argument);
        if (a.k === 'vec') notSim(e, '`~` on a vector');
        if (a.k === 'ptr') notSim(e, '`~` on a pointer');
        this.cost += 1;
        const f = this.sf(a, e);
        return { k: 'int', f: () => wrap13(~f()) };
      }
    }
  }

  private logical(e: A.LogicalExpr): Val {
    const l = this.test(e.left);
    const [r0, rc] = this.withCost(() => this.test(e.right));
    const r = this.costed(r0, rc);
    this.cost += 1;
    if (e.op === '&&') return { k: 'int', f: () => (l() !== 0 && r() !== 0 ? 1 : 0) };
    return { k: 'int', f: () => (l() !== 0 || r() !== 0 ? 1 : 0) };
  }

  private conditional(e: A.ConditionalExpr): Val {
    const t = this.test(e.test);
    const [a, ca] = this.withCost(() => this.rv(e.consequent));
    const [b, cb] = this.withCost(() => this.rv(e.alternate));
    if (a.k === 'void' || b.k === 'void') bad(e, 'void value in a conditional expression');
    if (a.k === 'vec' || b.k === 'vec') {
      const fa = this.costedVec(this.vf(a, e.consequent), ca);
      const fb = this.costedVec(this.vf(b, e.alternate), cb);
      return { k: 'vec', f: () => (t() !== 0 ? fa() : fb()) };
    }
    if (a.k === 'ptr' || b.k === 'ptr') {
      const fa = this.costed(this.rawFn(a, e), ca);
      const fb = this.costed(this.rawFn(b, e), cb);
      const unit = a.k === 'ptr' ? a.unit : (b as { unit: 1 | 8 }).unit;
      return { k: 'ptr', unit, f: () => (t() !== 0 ? fa() : fb()) };
    }
    const fa = this.costed(this.sf(a, e), ca);
    const fb = this.costed(this.sf(b, e), cb);
    const k = a.k === 'word' || b.k === 'word' ? 'word' : 'int';
    return { k, f: () => (t() !== 0 ? fa() : fb()) };
  }

  private cast(e: A.CastExpr): Val {
    const a = this.rv(e.argument);
    if (a.k === 'void') bad(e, 'void value in a cast');
    const t = e.type.name;
    if (e.pointer > 0) {
      if (e.pointer > 1) notSim(e, 'pointer to pointer');
      const unit: 1 | 8 = t === 'vint16' ? 8 : t === 'int16' ? 1 : notSim(e, `cast to \`${t} *\``);
      if (a.k === 'vec') bad(e, 'cannot convert a vector to a pointer');
      return { k: 'ptr', unit, f: this.rawFn(a, e) };
    }
    switch (t) {
      case 'int':
      case 'unsigned int': {
        if (a.k === 'vec') notSim(e, 'cast of a vector to `int`');
        const f = this.sf(a, e);
        return { k: 'int', f: () => wrap13(f()) };
      }
      case 'int16': {
        if (a.k === 'vec') notSim(e, 'cast of a vector to `int16`');
        const f = this.sf(a, e);
        return { k: 'word', f: () => sat12(f()) };
      }
      case 'vint16':
      case 'int32':
      case 'vint32':
        if (a.k === 'ptr') bad(e, `cannot convert a pointer to \`${t}\``);
        return a;
      default:
        return notSim(e, `cast to \`${t}\``);
    }
  }

  /** Binary operators on compiled operands. */
  binary(op: A.BinaryOperator, a: Val, b: Val, node: A.Node): Val {
    if (a.k === 'void' || b.k === 'void') bad(node, 'void value used in an expression');
    if (op === '/' || op === '%') {
      if (a.k === 'const' && b.k === 'const') {
        if (b.v === 0) bad(node, 'division by zero');
        return { k: 'const', v: op === '/' ? Math.trunc(a.v / b.v) | 0 : (a.v % b.v) | 0 };
      }
      notSim(node, op === '/' ? 'division (only constant expressions can be divided)' : 'modulo (only constant expressions)');
    }
    if (a.k === 'const' && b.k === 'const') return { k: 'const', v: foldInt(op, a.v, b.v) };
    switch (op) {
      case '<': case '<=': case '>': case '>=': case '==': case '!=': {
        if (a.k === 'vec' || b.k === 'vec') notSim(node, `relational operator \`${op}\` on vectors (use GE/GT/LE/LT/EQ/NE)`);
        this.cost += 1;
        const fa = this.rawFn(a, node);
        const fb = this.rawFn(b, node);
        switch (op) {
          case '<': return { k: 'int', f: () => (fa() < fb() ? 1 : 0) };
          case '<=': return { k: 'int', f: () => (fa() <= fb() ? 1 : 0) };
          case '>': return { k: 'int', f: () => (fa() > fb() ? 1 : 0) };
          case '>=': return { k: 'int', f: () => (fa() >= fb() ? 1 : 0) };
          case '==': return { k: 'int', f: () => (fa() === fb() ? 1 : 0) };
          default: return { k: 'int', f: () => (fa() !== fb() ? 1 : 0) };
        }
      }
      case '&': case '|': case '^': {
        if (a.k === 'vec' || b.k === 'vec') notSim(node, `bitwise \`${op}\` on vectors (int operands only)`);
        if (a.k === 'ptr' || b.k === 'ptr') notSim(node, `bitwise \`${op}\` on a pointer`);
        this.cost += 1;
        const fa = this.sf(a, node);
        const fb = this.sf(b, node);
        if (op === '&') return { k: 'int', f: () => wrap13(fa() & fb()) };
        if (op === '|') return { k: 'int', f: () => wrap13(fa() | fb()) };
        return { k: 'int', f: () => wrap13(fa() ^ fb()) };
      }
      default:
        break;
    }
    if (a.k === 'vec' || b.k === 'vec') return this.vecBinary(op, a, b, node);
    if (a.k === 'ptr' || b.k === 'ptr') return this.ptrBinary(op, a, b, node);
    this.cost += 1;
    const fa = this.sf(a, node);
    const fb = this.sf(b, node);
    const word = a.k === 'word' || b.k === 'word';
    const neg = (): never => { throw this.raise(node.start, 'negative shift count', 'fault'); };
    if (word) {
      switch (op) {
        case '+': return { k: 'word', f: () => (fa() + fb()) | 0 };
        case '-': return { k: 'word', f: () => (fa() - fb()) | 0 };
        case '*': return { k: 'word', f: () => Math.imul(fa(), fb()) };
        case '<<': return { k: 'word', f: () => { const x = fa(); const s = fb(); return s < 0 ? neg() : s > 31 ? 0 : x << s; } };
        case '>>': return { k: 'word', f: () => { const x = fa(); const s = fb(); return s < 0 ? neg() : x >> (s > 31 ? 31 : s); } };
        default: return bad(node, `operator \`${op}\``);
      }
    }
    switch (op) {
      case '+': return { k: 'int', f: () => wrap13(fa() + fb()) };
      case '-': return { k: 'int', f: () => wrap13(fa() - fb()) };
      case '*': return { k: 'int', f: () => wrap13(Math.imul(fa(), fb())) };
      case '<<': return { k: 'int', f: () => { const x = fa(); const s = fb(); return s < 0 ? neg() : s > 31 ? 0 : wrap13(x << s); } };
      case '>>': return { k: 'int', f: () => { const x = fa(); const s = fb(); return s < 0 ? neg() : wrap13(x >> (s > 31 ? 31 : s)); } };
      default: return bad(node, `operator \`${op}\``);
    }
  }

  private ptrBinary(op: A.BinaryOperator, a: Val, b: Val, node: A.Node): Val {
    this.cost += 1;
    if (op === '+' || op === '-') {
      if (a.k === 'ptr' && b.k === 'ptr') {
        if (op === '+') bad(node, 'cannot add two pointers');
        const fa = a.f, fb = b.f;
        return { k: 'int', f: () => wrap13(ptrIndex(fa()) - ptrIndex(fb())) };
      }
      if (a.k === 'ptr') {
        const fa = a.f;
        const fb = this.sf(b, node);
        return op === '+' ? { k: 'ptr', unit: a.unit, f: () => fa() + fb() } : { k: 'ptr', unit: a.unit, f: () => fa() - fb() };
      }
      if (op === '-') bad(node, 'cannot subtract a pointer from an integer');
      const p = b as Val & { k: 'ptr' };
      const fa = this.sf(a, node);
      const fb = p.f;
      return { k: 'ptr', unit: p.unit, f: () => fa() + fb() };
    }
    if ((op === '<<' || op === '>>') && a.k === 'ptr' && b.k !== 'ptr') {
      const fa = a.f;
      const fb = this.sf(b, node);
      const neg = (): never => { throw this.raise(node.start, 'negative shift count', 'fault'); };
      if (op === '<<') {
        return {
          k: 'ptr', unit: a.unit, f: () => {
            const r = fa();
            const s = fb();
            if (s < 0) neg();
            return r >= SHARED_HALF ? SHARED_TAG + ((r - SHARED_TAG) << s) : r << s;
          },
        };
      }
      return {
        k: 'ptr', unit: a.unit, f: () => {
          const r = fa();
          const s = fb();
          if (s < 0) neg();
          return r >= SHARED_HALF ? SHARED_TAG + ((r - SHARED_TAG) >> s) : r >> s;
        },
      };
    }
    return notSim(node, `operator \`${op}\` on a pointer`);
  }

  private vecBinary(op: A.BinaryOperator, a: Val, b: Val, node: A.Node): Val {
    if (a.k === 'ptr' || b.k === 'ptr') bad(node, 'pointer and vector operands');
    this.cost += 8;
    const out = new Int32Array(LANES);
    if (op === '<<' || op === '>>') {
      if (a.k !== 'vec') notSim(node, 'shifting a scalar by a vector');
      if (b.k === 'vec') notSim(node, 'shift by a vector amount');
      const fa = a.f;
      if (b.k === 'const') {
        const s = b.v;
        if (s < 0) bad(node, 'negative shift count');
        if (op === '<<') {
          if (s > 31) return { k: 'vec', f: () => { fa(); out.fill(0); return out; } };
          return { k: 'vec', f: () => { const x = fa(); for (let i = 0; i < 8; i++) out[i] = x[i] << s; return out; } };
        }
        const r = s > 31 ? 31 : s;
        return { k: 'vec', f: () => { const x = fa(); for (let i = 0; i < 8; i++) out[i] = x[i] >> r; return out; } };
      }
      const fb = this.sf(b, node);
      const neg = (): never => { throw this.raise(node.start, 'negative shift count', 'fault'); };
      if (op === '<<') {
        return {
          k: 'vec', f: () => {
            const x = fa();
            const s = fb();
            if (s < 0) neg();
            if (s > 31) out.fill(0);
            else for (let i = 0; i < 8; i++) out[i] = x[i] << s;
            return out;
          },
        };
      }
      return {
        k: 'vec', f: () => {
          const x = fa();
          let s = fb();
          if (s < 0) neg();
          if (s > 31) s = 31;
          for (let i = 0; i < 8; i++) out[i] = x[i] >> s;
          return out;
        },
      };
    }
    if (a.k === 'vec' && b.k === 'vec') {
      const fa = a.f, fb = b.f;
      switch (op) {
        case '+': return { k: 'vec', f: () => { const x = fa(), y = fb(); for (let i = 0; i < 8; i++) out[i] = (x[i] + y[i]) | 0; return out; } };
        case '-': return { k: 'vec', f: () => { const x = fa(), y = fb(); for (let i = 0; i < 8; i++) out[i] = (x[i] - y[i]) | 0; return out; } };
        case '*': return { k: 'vec', f: () => { const x = fa(), y = fb(); for (let i = 0; i < 8; i++) out[i] = Math.imul(x[i], y[i]); return out; } };
        default: return bad(node, `operator \`${op}\``);
      }
    }
    // one vector, one scalar
    const vecLeft = a.k === 'vec';
    const fv = (vecLeft ? a : b as Val & { k: 'vec' }).f as VecFn;
    const sv = vecLeft ? b : a;
    if (sv.k === 'const') {
      const c = sv.v;
      switch (op) {
        case '+': return { k: 'vec', f: () => { const x = fv(); for (let i = 0; i < 8; i++) out[i] = (x[i] + c) | 0; return out; } };
        case '*': return { k: 'vec', f: () => { const x = fv(); for (let i = 0; i < 8; i++) out[i] = Math.imul(x[i], c); return out; } };
        case '-':
          if (vecLeft) return { k: 'vec', f: () => { const x = fv(); for (let i = 0; i < 8; i++) out[i] = (x[i] - c) | 0; return out; } };
          return { k: 'vec', f: () => { const x = fv(); for (let i = 0; i < 8; i++) out[i] = (c - x[i]) | 0; return out; } };
        default: return bad(node, `operator \`${op}\``);
      }
    }
    const fs = this.sf(sv, node);
    switch (op) {
      case '+':
        if (vecLeft) return { k: 'vec', f: () => { const x = fv(), s = fs(); for (let i = 0; i < 8; i++) out[i] = (x[i] + s) | 0; return out; } };
        return { k: 'vec', f: () => { const s = fs(), x = fv(); for (let i = 0; i < 8; i++) out[i] = (x[i] + s) | 0; return out; } };
      case '*':
        if (vecLeft) return { k: 'vec', f: () => { const x = fv(), s = fs(); for (let i = 0; i < 8; i++) out[i] = Math.imul(x[i], s); return out; } };
        return { k: 'vec', f: () => { const s = fs(), x = fv(); for (let i = 0; i < 8; i++) out[i] = Math.imul(x[i], s); return out; } };
      case '-':
        if (vecLeft) return { k: 'vec', f: () => { const x = fv(), s = fs(); for (let i = 0; i < 8; i++) out[i] = (x[i] - s) | 0; return out; } };
        return { k: 'vec', f: () => { const s = fs(), x = fv(); for (let i = 0; i < 8; i++) out[i] = (s - x[i]) | 0; return out; } };
      default: return bad(node, `operator \`${op}\``);
    }
  }

  // ------------------------------------------------------------------ assignments

  private assignExpr(e: A.AssignExpr, want: boolean): Val {
    const pl = this.placeNode(e.target);
    if (e.op === '=') {
      const c0 = this.cost;
      const v = this.rv(e.value);
      if (this.cost === c0) this.cost += pl.k === 'vec' ? 8 : 1;
      return this.assign(e, pl, null, v, want ? 'new' : 'none');
    }
    const op = e.op.slice(0, -1) as A.BinaryOperator;
    const v = this.rv(e.value);
    return this.assign(e, pl, op, v, want ? 'new' : 'none');
  }

  private update(e: A.UpdateExpr, want: boolean): Val {
    const pl = this.placeNode(e.argument);
    return this.assign(e, pl, e.op === '++' ? '+' : '-', { k: 'const', v: 1 }, !want ? 'none' : e.prefix ? 'new' : 'old');
  }

  /**
   * `place = v` or `place op= v` (the address is computed once). `want`: value of the expression —
   * none, the stored value, or the previous value (postfix ++/--).
   */
  private assign(node: A.Node, pl: Place, op: A.BinaryOperator | null, rhs: Val, want: 'none' | 'new' | 'old'): Val {
    if (pl.k === 'array') bad(node, 'cannot assign to an array');
    if (want === 'none' && (op === '+' || op === '-')) {
      const fused = this.fusedAddSub(node, pl, op, rhs);
      if (fused) return { k: 'void', f: fused };
    }
    const prep = pl.prep;
    let tok = 0;
    let value = rhs;
    if (op !== null) {
      let cur: Val;
      if (pl.k === 'vec') {
        const load = pl.load!;
        const buf = new Int32Array(LANES);
        cur = { k: 'vec', f: () => { load(tok, buf); return buf; } };
      } else {
        const get = pl.get!;
        cur = pl.k === 'ptr' ? { k: 'ptr', unit: pl.unit, f: () => get(tok) } : { k: pl.k, f: () => get(tok) };
      }
      value = this.binary(op, cur, rhs, node);
    }
    // the write, with conversion
    let write: (a: number) => void;
    switch (pl.k) {
      case 'vec': {
        if (value.k === 'vec') {
          const store = pl.store!;
          const f = value.f;
          write = (a) => store(a, f());
        } else if (value.k === 'ptr') {
          return bad(node, 'cannot assign a pointer to a vector');
        } else {
          const fill = pl.fill!;
          const f = this.sf(value, node);
          write = (a) => fill(a, f());
        }
        break;
      }
      case 'word':
      case 'int': {
        if (value.k === 'vec') notSim(node, `assigning a vector to a scalar (${pl.k === 'int' ? '`int`' : '`int16`'})`);
        if (value.k === 'ptr' && pl.k === 'word') notSim(node, 'storing a pointer in an `int16` word');
        const set = pl.set!;
        const f = this.sf(value, node);
        write = (a) => set(a, f());
        break;
      }
      case 'ptr': {
        if (value.k === 'vec') bad(node, 'cannot assign a vector to a pointer');
        const set = pl.set!;
        const f = this.rawFn(value, node);
        write = (a) => set(a, f());
        break;
      }
    }
    if (want === 'none') {
      if (op === null) {
        // plain store: no token needed
        if (pl.k === 'vec') {
          if (value.k === 'vec') {
            const store = pl.store!;
            const f = value.f;
            return { k: 'void', f: () => store(prep(), f()) };
          }
          const fill = pl.fill!;
          const f = this.sf(value, node);
          return { k: 'void', f: () => fill(prep(), f()) };
        }
        const set = pl.set!;
        const f = pl.k === 'ptr' ? this.rawFn(value, node) : this.sf(value, node);
        return { k: 'void', f: () => set(prep(), f()) };
      }
      return { k: 'void', f: () => { tok = prep(); write(tok); } };
    }
    if (pl.k === 'vec') {
      const load = pl.load!;
      const out = new Int32Array(LANES);
      if (want === 'new') return { k: 'vec', f: () => { tok = prep(); write(tok); load(tok, out); return out; } };
      return { k: 'vec', f: () => { tok = prep(); load(tok, out); write(tok); return out; } };
    }
    const get = pl.get!;
    const f: Num = want === 'new'
      ? () => { tok = prep(); write(tok); return get(tok); }
      : () => { tok = prep(); const o = get(tok); write(tok); return o; };
    if (pl.k === 'ptr') return { k: 'ptr', unit: pl.unit, f };
    return { k: pl.k, f };
  }

  /** `place += v` / `place -= v` without intermediate closures (FMA idiom, loop counters, pointer steps). */
  private fusedAddSub(node: A.Node, pl: Place, op: '+' | '-', rhs: Val): (() => void) | undefined {
    const M = this.M;
    const sub = op === '-';
    if (pl.k === 'vec' && rhs.k !== 'ptr' && rhs.k !== 'void') {
      const prep = pl.prep;
      const load = pl.load!;
      const store = pl.store!;
      const buf = new Int32Array(LANES);
      this.cost += 8;
      if (rhs.k === 'vec') {
        const f = rhs.f;
        if (sub) return () => { const a = prep(); const y = f(); load(a, buf); for (let i = 0; i < 8; i++) buf[i] = (buf[i] - y[i]) | 0; store(a, buf); };
        return () => { const a = prep(); const y = f(); load(a, buf); for (let i = 0; i < 8; i++) buf[i] = (buf[i] + y[i]) | 0; store(a, buf); };
      }
      const f = this.sf(rhs, node);
      if (sub) return () => { const a = prep(); const y = f(); load(a, buf); for (let i = 0; i < 8; i++) buf[i] = (buf[i] - y) | 0; store(a, buf); };
      return () => { const a = prep(); const y = f(); load(a, buf); for (let i = 0; i < 8; i++) buf[i] = (buf[i] + y) | 0; store(a, buf); };
    }
    const slot = pl.slot;
    if (!slot || (pl.k !== 'int' && pl.k !== 'ptr') || rhs.k === 'vec' || rhs.k === 'ptr' || rhs.k === 'void') return undefined;
    this.cost += 1;
    const f: Num = rhs.k === 'const' ? ((c) => () => c)(sub ? -rhs.v : rhs.v) : sub ? ((g) => () => -g())(rhs.f) : rhs.f;
    if ('fr' in slot) {
      const { fr, o } = slot;
      if (pl.k === 'int') return () => { fr[o] = wrap13(fr[o] + f()); };
      return () => { fr[o] = (fr[o] + f()) | 0; };
    }
    const r = slot.reg;
    if (pl.k === 'int') return () => { const a = M.so + r; M.S[a] = wrap13(M.S[a] + f()); };
    return () => { const a = M.so + r; M.S[a] = (M.S[a] + f()) | 0; };
  }

  // ------------------------------------------------------------------ calls

  private call(e: A.CallExpr, want: boolean): Val {
    const callee = e.callee;
    if (callee.kind !== 'Identifier') bad(e, 'called object is not a function');
    const sym = callee.symbol;
    if (!sym) bad(callee, `undefined function \`${callee.name}\``);
    if (sym.kind === 'intrinsic') return this.intrinsic(e, sym.name);
    if (sym.kind !== 'function') bad(callee, `\`${callee.name}\` is not a function`);
    const fn = sym.fn;
    if (fn.isKernel) notSim(e, `calling the kernel \`${fn.fullName}\` from PCORE code`);
    if (fn.params.length !== e.args.length) bad(e, `\`${fn.fullName}\` expects ${fn.params.length} argument(s), got ${e.args.length}`);
    const existing = this.units.get(fn);
    if (existing && existing.state === 'compiling') notSim(e, `recursive call of \`${fn.fullName}\``);
    const args = e.args.map((a) => this.rv(a));
    const u = this.unit(fn);
    const M = this.M;
    const fr = u.fr;
    // argument evaluation into temporaries, then binding (so nested calls of the same helper work)
    const n = args.length;
    const tmpS = new Float64Array(Math.max(n, 1));
    const evals: (() => void)[] = [];
    const binds: (() => void)[] = [];
    fn.params.forEach((p, i) => {
      const a = args[i];
      const o = u.slots.get(p);
      if (o === undefined) bad(e.args[i], `parameter \`${p.name}\` has an unknown size`);
      if (a.k === 'void') bad(e.args[i], 'void value used as an argument');
      if (p.pointer) {
        if (a.k === 'vec') bad(e.args[i], 'vector passed to a pointer parameter');
        const f = this.rawFn(a, e.args[i]);
        evals.push(() => { tmpS[i] = f(); });
        binds.push(() => { fr[o] = tmpS[i]; });
        return;
      }
      if (isIntType(p.type)) {
        if (a.k === 'vec') notSim(e.args[i], 'vector passed to an `int` parameter');
        const f = this.sf(a, e.args[i]);
        evals.push(() => { tmpS[i] = f(); });
        binds.push(() => { fr[o] = wrap13(tmpS[i]); });
        return;
      }
      if (p.dims.length) notSim(e.args[i], 'array parameters');
      if (p.type === 'int16') {
        if (a.k === 'vec') notSim(e.args[i], 'vector passed to an `int16` parameter');
        const f = this.sf(a, e.args[i]);
        evals.push(() => { tmpS[i] = f(); });
        binds.push(() => { fr[o] = sat12(tmpS[i]); });
        return;
      }
      if (p.type === 'vint16') {
        if (a.k === 'ptr') bad(e.args[i], 'pointer passed to a vector parameter');
        const f = this.vf(a, e.args[i]);
        const tmp = new Int32Array(LANES);
        evals.push(() => { tmp.set(f()); });
        binds.push(() => { for (let l = 0; l < 8; l++) fr[o + l] = sat12(tmp[l]); });
        return;
      }
      notSim(e.args[i], `\`${p.type}\` parameters`);
    });
    if (u.ret === 'void' && want && fn.returnType !== 'void') notSim(e, `functions returning \`${fn.returnType}\``);
    const body = (): void => {
      for (let i = 0; i < evals.length; i++) evals[i]();
      u.enter();
      for (let i = 0; i < binds.length; i++) binds[i]();
      const d = M.depth;
      M.sites[d] = e.start;
      M.depth = d + 1;
      M.fns[d + 1] = fn.fullName;
      u.body();
      M.depth = d;
    };
    const rb = u.retBuf;
    switch (u.ret) {
      case 'void':
        if (want) return { k: 'void', f: body };
        return { k: 'void', f: body };
      case 'int':
        return { k: 'int', f: () => { body(); return rb[0]; } };
      case 'word':
        return { k: 'word', f: () => { body(); return rb[0]; } };
      case 'vec': {
        const out = new Int32Array(LANES);
        return { k: 'vec', f: () => { body(); out.set(rb); return out; } };
      }
    }
  }

  private intrinsic(e: A.CallExpr, name: string): Val {
    const args = e.args;
    const need = (n: number): void => {
      if (args.length !== n) bad(e, `\`${name}\` expects ${n} argument(s), got ${args.length}`);
    };
    switch (name) {
      case 'GE': case 'GT': case 'LE': case 'LT': case 'EQ': case 'NE': {
        need(2);
        const a = this.rv(args[0]);
        const b = this.rv(args[1]);
        return this.compare(name, a, b, e);
      }
      case 'ASN_RAW': {
        need(1);
        const a = this.rv(args[0]);
        if (a.k === 'vec') notSim(e, '`ASN_RAW` of a vector');
        this.cost += 1;
        const f = this.sf(a, e);
        return { k: 'int', f: () => wrap13(f()) };
      }
      case 'ASN': {
        need(1);
        const a = this.rv(args[0]);
        if (a.k === 'void' || a.k === 'ptr') bad(e, '`ASN` needs a data value');
        this.cost += a.k === 'vec' ? 8 : 1;
        return a;
      }
      case 'ADD':
      case 'SUB':
      case 'MUL': {
        need(2);
        return this.binary(name === 'ADD' ? '+' : name === 'SUB' ? '-' : '*', this.rv(args[0]), this.rv(args[1]), e);
      }
      default:
        return notSim(e, `intrinsic \`${name}\``);
    }
  }

  /** GE/GT/LE/LT/EQ/NE → integer lane mask (bit i = condition on lane i). */
  private compare(name: string, a: Val, b: Val, node: A.Node): Val {
    if (a.k === 'void' || b.k === 'void') bad(node, 'void value in a comparison');
    if (a.k === 'ptr' || b.k === 'ptr') bad(node, `\`${name}\` needs data operands, not pointers`);
    // express everything with LT / EQ: GT(a,b)=LT(b,a), GE(a,b)=!LT(a,b), LE(a,b)=!LT(b,a), NE=!EQ
    let x = a;
    let y = b;
    let inv = 0;
    let eq = false;
    switch (name) {
      case 'LT': break;
      case 'GT': x = b; y = a; break;
      case 'GE': inv = 255; break;
      case 'LE': x = b; y = a; inv = 255; break;
      case 'EQ': eq = true; break;
      default: eq = true; inv = 255; break;
    }
    if (x.k !== 'vec' && y.k !== 'vec') {
      this.cost += 1;
      const fx = this.sf(x, node);
      const fy = this.sf(y, node);
      if (eq) return { k: 'int', f: () => (fx() === fy() ? 255 : 0) ^ inv };
      return { k: 'int', f: () => (fx() < fy() ? 255 : 0) ^ inv };
    }
    this.cost += 8;
    if (x.k === 'vec' && y.k === 'vec') {
      const fx = x.f, fy = y.f;
      if (eq) return { k: 'int', f: () => { const p = fx(), q = fy(); let m = 0; for (let i = 0; i < 8; i++) if (p[i] === q[i]) m |= 1 << i; return m ^ inv; } };
      return { k: 'int', f: () => { const p = fx(), q = fy(); let m = 0; for (let i = 0; i < 8; i++) if (p[i] < q[i]) m |= 1 << i; return m ^ inv; } };
    }
    if (x.k === 'vec') {
      const fx = x.f;
      const fy = this.sf(y, node);
      if (eq) return { k: 'int', f: () => { const p = fx(), s = fy(); let m = 0; for (let i = 0; i < 8; i++) if (p[i] === s) m |= 1 << i; return m ^ inv; } };
      return { k: 'int', f: () => { const p = fx(), s = fy(); let m = 0; for (let i = 0; i < 8; i++) if (p[i] < s) m |= 1 << i; return m ^ inv; } };
    }
    const fx = this.sf(x, node);
    const fy = (y as Val & { k: 'vec' }).f;
    if (eq) return { k: 'int', f: () => { const s = fx(), q = fy(); let m = 0; for (let i = 0; i < 8; i++) if (s === q[i]) m |= 1 << i; return m ^ inv; } };
    return { k: 'int', f: () => { const s = fx(), q = fy(); let m = 0; for (let i = 0; i < 8; i++) if (s < q[i]) m |= 1 << i; return m ^ inv; } };
  }

  // ------------------------------------------------------------------ statements

  /** Compiles a statement; unsupported constructs become a statement that throws when reached. */
  stmt(s: A.Stmt): Stmt | null {
    const saved = this.cost;
    this.cost = 0;
    try {
      return this.stmtInner(s);
    } catch (err) {
      if (!(err instanceof CErr)) throw err;
      const off = err.off || s.start;
      const msg = err.msg;
      const kind = err.kind;
      const M = this.M;
      const poll = this.poll;
      return () => {
        if (--M.left < M.mark) poll(s.start);
        throw this.raise(off, msg, kind);
      };
    } finally {
      this.cost = saved;
    }
  }

  private list(stmts: A.Stmt[]): Stmt {
    const fs: Stmt[] = [];
    for (const s of stmts) {
      const f = this.stmt(s);
      if (f) fs.push(f);
    }
    if (fs.length === 0) return () => NORMAL;
    if (fs.length === 1) return fs[0];
    if (fs.length === 2) {
      const [a, b] = fs;
      return () => {
        const r = a();
        if (r !== NORMAL) return r;
        return b();
      };
    }
    const n = fs.length;
    return () => {
      for (let i = 0; i < n; i++) {
        const r = fs[i]();
        if (r !== NORMAL) return r;
      }
      return NORMAL;
    };
  }

  private stmtInner(s: A.Stmt): Stmt | null {
    const M = this.M;
    const poll = this.poll;
    const off = s.start;
    switch (s.kind) {
      case 'Empty':
      case 'PragmaStmt':
        return null;
      case 'ErrorStmt':
        return bad(s, 'syntax error');
      case 'Block':
        return this.list(s.body);
      case 'ExprStmt': {
        const f = this.effect(s.expression);
        const cost = this.cost;
        return () => {
          if (--M.left < M.mark) poll(off);
          M.ops += cost;
          f();
          return NORMAL;
        };
      }
      case 'DeclStmt':
        return this.decl(s.declaration);
      case 'If': {
        const t = this.test(s.test);
        const cost = this.cost;
        const a = this.stmt(s.consequent) ?? (() => NORMAL);
        const b = s.alternate ? this.stmt(s.alternate) ?? (() => NORMAL) : null;
        if (b) {
          return () => {
            if (--M.left < M.mark) poll(off);
            M.ops += cost;
            return t() !== 0 ? a() : b();
          };
        }
        return () => {
          if (--M.left < M.mark) poll(off);
          M.ops += cost;
          return t() !== 0 ? a() : NORMAL;
        };
      }
      case 'For': {
        let init: Stmt | null = null;
        let initCost = 0;
        if (s.init) {
          if (s.init.kind === 'DeclStmt') init = this.stmt(s.init);
          else {
            const [f, c] = this.withCost(() => this.effect(s.init as A.Expr));
            initCost = c;
            init = () => { f(); return NORMAL; };
          }
        }
        const [test, testCost] = this.withCost(() => (s.test ? this.test(s.test) : null));
        const [upd, updCost] = this.withCost(() => (s.update ? this.effect(s.update) : null));
        const body = this.stmt(s.body) ?? (() => NORMAL);
        const toff = s.test ? s.test.start : off;
        return () => {
          if (--M.left < M.mark) poll(off);
          M.ops += initCost;
          if (init !== null && init() === RET) return RET;
          for (;;) {
            if (--M.left < M.mark) poll(toff);
            if (test !== null) {
              M.ops += testCost;
              if (test() === 0) break;
            }
            const r = body();
            if (r === BRK) break;
            if (r === RET) return RET;
            if (upd !== null) {
              M.ops += updCost;
              upd();
            }
          }
          return NORMAL;
        };
      }
      case 'While': {
        const [test, testCost] = this.withCost(() => this.test(s.test));
        const body = this.stmt(s.body) ?? (() => NORMAL);
        return () => {
          for (;;) {
            if (--M.left < M.mark) poll(off);
            M.ops += testCost;
            if (test() === 0) break;
            const r = body();
            if (r === BRK) break;
            if (r === RET) return RET;
          }
          return NORMAL;
        };
      }
      case 'DoWhile': {
        const [test, testCost] = this.withCost(() => this.test(s.test));
        const body = this.stmt(s.body) ?? (() => NORMAL);
        const toff = s.test.start;
        return () => {
          for (;;) {
            const r = body();
            if (r === BRK) break;
            if (r === RET) return RET;
            if (--M.left < M.mark) poll(toff);
            M.ops += testCost;
            if (test() === 0) break;
          }
          return NORMAL;
        };
      }
      case 'Switch':
        return this.switchStmt(s);
      case 'Break':
        return () => BRK;
      case 'Continue':
        return () => CNT;
      case 'Return':
        return this.returnStmt(s);
    }
  }

  private switchStmt(s: A.SwitchStmt): Stmt {
    const M = this.M;
    const poll = this.poll;
    const off = s.start;
    const d = this.rv(s.discriminant);
    if (d.k === 'vec') notSim(s.discriminant, 'switch on a vector');
    const disc = this.rawFn(d, s.discriminant);
    const cost = this.cost;
    const flat: Stmt[] = [];
    const starts = new Map<number, number>();
    let def = -1;
    for (const c of s.cases) {
      const at = flat.length;
      if (c.test) {
        const v = evaluateConstant(c.test);
        if (v === undefined || !Number.isInteger(v)) bad(c.test, '`case` label must be an integer constant');
        if (!starts.has(v)) starts.set(v, at);
      } else if (def < 0) def = at;
      for (const x of c.consequent) {
        const f = this.stmt(x);
        if (f) flat.push(f);
      }
    }
    const n = flat.length;
    return () => {
      if (--M.left < M.mark) poll(off);
      M.ops += cost;
      const start = starts.get(disc()) ?? def;
      if (start < 0) return NORMAL;
      for (let i = start; i < n; i++) {
        const r = flat[i]();
        if (r === BRK) return NORMAL;
        if (r !== NORMAL) return r;
      }
      return NORMAL;
    };
  }

  private returnStmt(s: A.ReturnStmt): Stmt {
    const M = this.M;
    const poll = this.poll;
    const off = s.start;
    const u = this.cur;
    if (!s.argument) return () => RET;
    if (u.k.isKernel) bad(s, 'a kernel cannot return a value');
    const v = this.rv(s.argument);
    const rb = u.retBuf;
    let f: () => void;
    switch (u.ret) {
      case 'void':
        return notSim(s, `functions returning \`${u.k.returnType}\``);
      case 'int': {
        if (v.k === 'vec') notSim(s.argument, 'returning a vector from an `int` function');
        const g = this.sf(v, s.argument);
        f = () => { rb[0] = wrap13(g()); };
        break;
      }
      case 'word': {
        if (v.k === 'vec') notSim(s.argument, 'returning a vector from an `int16` function');
        const g = this.sf(v, s.argument);
        f = () => { rb[0] = sat12(g()); };
        break;
      }
      case 'vec': {
        const g = this.vf(v, s.argument);
        f = () => { const x = g(); for (let i = 0; i < 8; i++) rb[i] = sat12(x[i]); };
        break;
      }
    }
    const cost = this.cost;
    return () => {
      if (--M.left < M.mark) poll(off);
      M.ops += cost;
      f();
      return RET;
    };
  }

  private decl(d: A.Declaration): Stmt | null {
    if (d.specifiers.some((x) => x.name === 'extern')) return null;
    const fs: Stmt[] = [];
    for (const dc of d.declarators) {
      if (!dc.init) continue;
      const sym = dc.symbol;
      if (!sym || sym.kind !== 'local') continue;
      const f = this.declInit(dc, sym.local);
      if (f) fs.push(f);
    }
    if (!fs.length) return null;
    if (fs.length === 1) return fs[0];
    return () => {
      for (let i = 0; i < fs.length; i++) fs[i]();
      return NORMAL;
    };
  }

  private declInit(dc: A.Declarator, local: PcoreLocal): Stmt | null {
    const M = this.M;
    const poll = this.poll;
    const off = dc.start;
    const init = dc.init!;
    const u = this.cur;
    const o = u.slots.get(local);
    if (o === undefined) bad(dc, `local \`${local.name}\` has an unknown size`);
    if (init.kind === 'InitList') {
      if (local.storage === 'pointer' || local.storage === 'integer') bad(init, 'initializer list for a scalar');
      const vals: number[] = [];
      const flat = (x: A.Expr): void => {
        if (x.kind === 'InitList') {
          x.elements.forEach(flat);
          return;
        }
        const c = this.constOf(x);
        if (c === undefined) notSim(x, 'non-constant initializer in a list');
        vals.push(c);
      };
      flat(init);
      if (vals.length > local.len) bad(init, 'too many initializers');
      const acc = local.storage === 'accumulator';
      const data = new Int32Array(local.len);
      vals.forEach((v, i) => { data[i] = acc ? v | 0 : sat12(v); });
      const fr = u.fr;
      const cost = local.len;
      return () => {
        if (--M.left < M.mark) poll(off);
        M.ops += cost;
        fr.set(data, o);
        return NORMAL;
      };
    }
    const id: A.Identifier = {
      kind: 'Identifier', name: local.name, member: local.name, start: dc.nameStart, end: dc.nameEnd,
      symbol: { kind: 'local', local },
    };
    const pl = this.placeNode(id);
    const c0 = this.cost;
    const v = this.rv(init);
    if (this.cost === c0) this.cost += pl.k === 'vec' ? 8 : 1;
    const f = fnOf(this.assign(dc, pl, null, v, 'none'));
    const cost = this.cost;
    return () => {
      if (--M.left < M.mark) poll(off);
      M.ops += cost;
      f();
      return NORMAL;
    };
  }
}

function fnOf(v: Val): () => unknown {
  return v.k === 'const' ? NOOP : v.f;
}

function foldInt(op: A.BinaryOperator, l: number, r: number): number {
  switch (op) {
    case '+': return (l + r) | 0;
    case '-': return (l - r) | 0;
    case '*': return Math.imul(l, r);
    case '<<': return l << (r & 31);
    case '>>': return l >> (r & 31);
    case '&': return l & r;
    case '|': return l | r;
    case '^': return l ^ r;
    case '==': return l === r ? 1 : 0;
    case '!=': return l !== r ? 1 : 0;
    case '<': return l < r ? 1 : 0;
    case '<=': return l <= r ? 1 : 0;
    case '>': return l > r ? 1 : 0;
    case '>=': return l >= r ? 1 : 0;
    default: return 0;
  }
}
