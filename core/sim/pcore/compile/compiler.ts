/**
 * The PCORE kernel compiler: one class built in layers (base → places → arith → assign → expressions →
 * calls → statements → this file), each a subject of its own. This last layer adds what the interleaved
 * runner needs (runner.ts, flat.ts): a kernel unit whose body is flat per-thread step code rather than one
 * closure, and the conditions and effects of those steps compiled one by one. The deferred shared writes of
 * that mode are memory operations chosen at construction (`deferShared`, memory.ts).
 */
import type * as A from '../../../pcore/ast';
import type { PcoreKernel } from '../../../pcore/model';
import { StmtCompiler } from './statements';
import { CErr, notSim, type Num } from './types';
import { FnUnit } from './unit';

export class Compiler extends StmtCompiler {
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
          return () => {
            f();
            return 0;
          };
        }
        const d = this.rv(e);
        if (d.k === 'vec') notSim(e, 'switch on a vector');
        return this.rawFn(d, e);
      });
    } catch (err) {
      if (!(err instanceof CErr)) throw err;
      const { off, msg, kind } = err;
      return [
        () => {
          throw this.raise(off || e.start, msg, kind);
        },
        0,
      ];
    }
  }
}
