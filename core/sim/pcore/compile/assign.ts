/**
 * Assignments: `=`, compound `op=`, `++`/`--` as statements or values. The address token is computed
 * once per assignment; stores convert as the place does (13-bit wrap, 12-bit saturation, none for
 * accumulators) and vector stores honour `_VMASK`. `+=`/`-=` get fused closures (the multiply-accumulate
 * idiom, loop counters, pointer steps).
 */
import type * as A from '../../../pcore/ast';
import * as R from '../kernelState';
import { ArithCompiler } from './arith';
import { bad, notSim, type Num, type Place, type Val } from './types';

// Bound once (see base.ts).
const { LANES, wrap13 } = R;

export abstract class AssignCompiler extends ArithCompiler {
  /** `target = value`, `target op= value`; a plain `=` counts one operation (8 for a vector) at least. */
  protected assignExpr(e: A.AssignExpr, want: boolean): Val {
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

  /** `++`/`--`, prefix (the new value) or postfix (the old one). */
  protected update(e: A.UpdateExpr, want: boolean): Val {
    const pl = this.placeNode(e.argument);
    return this.assign(e, pl, e.op === '++' ? '+' : '-', { k: 'const', v: 1 }, !want ? 'none' : e.prefix ? 'new' : 'old');
  }

  /**
   * `place = v` or `place op= v` (the address is computed once). `want`: value of the expression —
   * none, the stored value, or the previous value (postfix ++/--).
   */
  protected assign(node: A.Node, pl: Place, op: A.BinaryOperator | null, rhs: Val, want: 'none' | 'new' | 'old'): Val {
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
        cur = {
          k: 'vec',
          f: () => {
            load(tok, buf);
            return buf;
          },
        };
      } else {
        const get = pl.get!;
        cur = pl.k === 'ptr' ? { k: 'ptr', unit: pl.unit, f: () => get(tok) } : { k: pl.k, f: () => get(tok) };
      }
      value = this.binary(op, cur, rhs, node);
    }
    const write = this.writer(node, pl, value);
    if (want === 'none') {
      if (op === null) return this.plainStore(node, pl, value);
      return {
        k: 'void',
        f: () => {
          tok = prep();
          write(tok);
        },
      };
    }
    if (pl.k === 'vec') {
      const load = pl.load!;
      const out = new Int32Array(LANES);
      if (want === 'new')
        return {
          k: 'vec',
          f: () => {
            tok = prep();
            write(tok);
            load(tok, out);
            return out;
          },
        };
      return {
        k: 'vec',
        f: () => {
          tok = prep();
          load(tok, out);
          write(tok);
          return out;
        },
      };
    }
    const get = pl.get!;
    const f: Num =
      want === 'new'
        ? () => {
            tok = prep();
            write(tok);
            return get(tok);
          }
        : () => {
            tok = prep();
            const o = get(tok);
            write(tok);
            return o;
          };
    if (pl.k === 'ptr') return { k: 'ptr', unit: pl.unit, f };
    return { k: pl.k, f };
  }

  /** The write of `value` at an address token of `pl`, with the place's conversion. */
  private writer(node: A.Node, pl: Place, value: Val): (a: number) => void {
    switch (pl.k) {
      case 'vec': {
        if (value.k === 'vec') {
          const store = pl.store!;
          const f = value.f;
          return (a) => store(a, f());
        }
        if (value.k === 'ptr') return bad(node, 'cannot assign a pointer to a vector');
        const fill = pl.fill!;
        const f = this.sf(value, node);
        return (a) => fill(a, f());
      }
      case 'word':
      case 'int': {
        if (value.k === 'vec') notSim(node, `assigning a vector to a scalar (${pl.k === 'int' ? '`int`' : '`int16`'})`);
        if (value.k === 'ptr' && pl.k === 'word') notSim(node, 'storing a pointer in an `int16` word');
        const set = pl.set!;
        const f = this.sf(value, node);
        return (a) => set(a, f());
      }
      case 'ptr': {
        if (value.k === 'vec') bad(node, 'cannot assign a vector to a pointer');
        const set = pl.set!;
        const f = this.rawFn(value, node);
        return (a) => set(a, f());
      }
      default:
        return bad(node, 'cannot assign to an array');
    }
  }

  /** `place = value` as a statement: the address goes straight to the store (no token kept). */
  private plainStore(node: A.Node, pl: Place, value: Val): Val {
    const prep = pl.prep;
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
        if (sub)
          return () => {
            const a = prep();
            const y = f();
            load(a, buf);
            for (let i = 0; i < 8; i++) buf[i] = (buf[i] - y[i]) | 0;
            store(a, buf);
          };
        return () => {
          const a = prep();
          const y = f();
          load(a, buf);
          for (let i = 0; i < 8; i++) buf[i] = (buf[i] + y[i]) | 0;
          store(a, buf);
        };
      }
      const f = this.sf(rhs, node);
      if (sub)
        return () => {
          const a = prep();
          const y = f();
          load(a, buf);
          for (let i = 0; i < 8; i++) buf[i] = (buf[i] - y) | 0;
          store(a, buf);
        };
      return () => {
        const a = prep();
        const y = f();
        load(a, buf);
        for (let i = 0; i < 8; i++) buf[i] = (buf[i] + y) | 0;
        store(a, buf);
      };
    }
    const slot = pl.slot;
    if (!slot || (pl.k !== 'int' && pl.k !== 'ptr') || rhs.k === 'vec' || rhs.k === 'ptr' || rhs.k === 'void') return undefined;
    this.cost += 1;
    const f: Num =
      rhs.k === 'const'
        ? (
            (c) => () =>
              c
          )(sub ? -rhs.v : rhs.v)
        : sub
          ? (
              (g) => () =>
                -g()
            )(rhs.f)
          : rhs.f;
    if ('fr' in slot) {
      const { fr, o } = slot;
      if (pl.k === 'int')
        return () => {
          fr[o] = wrap13(fr[o] + f());
        };
      return () => {
        fr[o] = (fr[o] + f()) | 0;
      };
    }
    const r = slot.reg;
    if (pl.k === 'int')
      return () => {
        const a = M.so + r;
        M.S[a] = wrap13(M.S[a] + f());
      };
    return () => {
      const a = M.so + r;
      M.S[a] = (M.S[a] + f()) | 0;
    };
  }
}
