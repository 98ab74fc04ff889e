/**
 * Base of the PCORE kernel compiler (the layers build on it in this order: places, arith, assign,
 * expressions, calls, statements, compiler.ts): the compiler's state (the run context `M`, the thread
 * state layout, the compiled units, the lane-operation cost of the construct being compiled), the step
 * poll, located run-time errors, and the conversions of a compiled value to a scalar, raw or vector closure.
 * The layers are one class split by subject; the methods a lower layer calls in a higher one (`rv`, `stmt`)
 * are declared abstract here, so that no file imports one that imports it back.
 */
import type * as A from '../../../pcore/ast';
import type { PcoreKernel, PcoreProgram } from '../../../pcore/model';
import { SimError, type SourceLoc } from '../../types';
import * as R from '../kernelState';
import type { Ctx } from '../kernelState';
import { accOps, deferredOps, dynOps, frameOps, privOps, sharedOps } from './memory';
import { bad, notSim, type Num, type Ops, type Stmt, type StateLayout, type Val, type VecFn } from './types';
import { FnUnit, isIntType } from './unit';

// Bound once: when this module is loaded as CommonJS (tsx, some bundles), every use of an imported binding
// is a getter call on the module object, which costs more than the lane loops themselves. Every file of
// the compiler does the same with what its closures use.
const { LANES, NORMAL, PCORE_WORDS, POLL_STEPS, STEP_CHUNK, THREAD_WORDS, ptrIndex, wrap13 } = R;

export abstract class CompilerBase {
  readonly units = new Map<PcoreKernel, FnUnit>();
  /** Lane operations of the construct being compiled (added to `M.ops` each time it runs). */
  protected cost = 0;
  protected readonly unitStack: FnUnit[] = [];
  protected readonly privOps: Ops;
  protected readonly sharedOps: Ops;
  protected readonly dynOps: Ops;
  protected readonly accOps: Ops;
  private readonly frameOpsCache = new Map<string, Ops>();
  /** Refills the step counter, stops the launch when the budget is spent or it is cancelled. */
  readonly poll: (off: number) => void;

  /**
   * `deferShared`: shared-memory writes wait in the context's write queue until the interleaved runner
   * commits them at the end of a round (runner.ts); the writing thread reads its own queued words.
   */
  constructor(
    readonly prog: PcoreProgram,
    readonly M: Ctx,
    readonly L: StateLayout,
    readonly deferShared = false,
  ) {
    this.privOps = privOps(M);
    this.sharedOps = deferShared ? deferredOps(M, this.privOps, false) : sharedOps(M);
    this.dynOps = deferShared ? deferredOps(M, this.privOps, true) : dynOps(M);
    this.accOps = accOps(M);
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

  /** Source location of an offset in the `.p` file. */
  loc(off: number): SourceLoc {
    const p = this.prog.lineIndex.position(off);
    return { file: this.prog.file, line: p.line + 1, column: p.character + 1 };
  }

  /** `file:line:column` of an offset, for the call stack of an error. */
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

  /** The fault of a memory access outside the PCORE's words. */
  protected oob(node: { start: number }, shared: boolean, rel: number, n: number): SimError {
    const M = this.M;
    const what = n === 1 ? 'word' : 'vector';
    if (shared) {
      return this.raise(node.start, `address out of range: shared ${what} at word ${rel} is outside the PCORE's ${PCORE_WORDS}-word space`, 'fault');
    }
    return this.raise(
      node.start,
      `address out of range: private ${what} at word ${rel} of thread ${M.tid} (PCORE word ${M.tid * THREAD_WORDS + rel}) is outside the ` +
        `PCORE's ${PCORE_WORDS}-word space`,
      'fault',
    );
  }

  // ------------------------------------------------------------------ layers above

  /** Compiles an expression for its value (expressions.ts). */
  abstract rv(e: A.Expr): Val;

  /** Compiles a statement (statements.ts). */
  abstract stmt(s: A.Stmt): Stmt | null;

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

  /** Kernel parameters: `_global` ones from the launch's global slots, others from their shadow words. */
  protected setupUnit(u: FnUnit): void {
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
        u.init.push(
          slot === 0
            ? () => {
                fr[o] = wrap13(M.g0);
              }
            : () => {
                fr[o] = wrap13(M.g1);
              },
        );
      } else if (p.pointer) {
        const so = p.shadowOffset;
        if (so !== undefined)
          u.init.push(() => {
            fr[o] = M.priv[M.pb + so];
          });
      } else {
        const so = p.offset;
        if (so !== undefined)
          u.init.push(() => {
            fr[o] = M.priv[M.pb + so];
          });
      }
    }
  }

  /** The unit being compiled. */
  protected get cur(): FnUnit {
    return this.unitStack[this.unitStack.length - 1];
  }

  /** Memory operations of a unit's frame (one set per unit and conversion). */
  protected frameOps(u: FnUnit, sat: boolean): Ops {
    const key = `${u.k.fullName}/${sat}`;
    const hit = this.frameOpsCache.get(key);
    if (hit) return hit;
    const ops = frameOps(this.M, u, sat);
    this.frameOpsCache.set(key, ops);
    return ops;
  }

  // ------------------------------------------------------------------ cost

  /** `fn`'s result and the lane operations it compiled, counted apart from the enclosing construct. */
  protected withCost<T>(fn: () => T): [T, number] {
    const saved = this.cost;
    this.cost = 0;
    try {
      const r = fn();
      return [r, this.cost];
    } finally {
      this.cost = saved;
    }
  }

  /** `f` adding `c` lane operations each time it runs (a branch's own cost). */
  protected costed(f: Num, c: number): Num {
    if (c === 0) return f;
    const M = this.M;
    return () => {
      M.ops += c;
      return f();
    };
  }

  /** costed() for a vector closure. */
  protected costedVec(f: VecFn, c: number): VecFn {
    if (c === 0) return f;
    const M = this.M;
    return () => {
      M.ops += c;
      return f();
    };
  }

  // ------------------------------------------------------------------ value conversions

  /** Scalar closure of a const/int/word value. */
  protected sf(v: Val, node: A.Node): Num {
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
  protected rawFn(v: Val, node: A.Node): Num {
    if (v.k === 'ptr') return v.f;
    return this.sf(v, node);
  }

  /** Vector closure of any value (scalars are broadcast into a buffer). */
  protected vf(v: Val, node: A.Node): VecFn {
    if (v.k === 'vec') return v.f;
    const s = this.sf(v, node);
    const out = new Int32Array(LANES);
    return () => {
      out.fill(s());
      return out;
    };
  }
}
