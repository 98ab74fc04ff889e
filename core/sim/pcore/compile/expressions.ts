/**
 * Expressions: a compiled value (`Val`) for every expression kind, expressions evaluated for their effect,
 * conditions, and the unary, logical, conditional and cast operators. Constant subexpressions fold at
 * compile time (`evaluateConstant`); a `&&`/`||`/`?:` branch counts its lane operations only when it runs.
 */
import type * as A from '../../../pcore/ast';
import { evaluateConstant } from '../../../pcore/evaluate';
import * as R from '../kernelState';
import { AssignCompiler } from './assign';
import { bad, fnOf, NOOP, notSim, type Num, type Val } from './types';

// Bound once (see base.ts).
const { LANES, sat12, wrap13 } = R;

export abstract class ExprCompiler extends AssignCompiler {
  /** Compiles a call for its value (`want`) or its effect (calls.ts). */
  protected abstract call(e: A.CallExpr, want: boolean): Val;

  /** The value of a constant integer expression (folded at compile time), or undefined. */
  protected constOf(e: A.Expr): number | undefined {
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

  /** `v` preceded by the effects `pre` (a comma expression's left operands). */
  private withPre(pre: (() => unknown)[], v: Val): Val {
    const live = pre.filter((f) => f !== NOOP);
    if (!live.length || v.k === 'const') {
      if (v.k === 'const' && live.length) {
        const c = v.v;
        return {
          k: 'int',
          f: () => {
            for (let i = 0; i < live.length; i++) live[i]();
            return c;
          },
        };
      }
      return v;
    }
    const run = (): void => {
      for (let i = 0; i < live.length; i++) live[i]();
    };
    switch (v.k) {
      case 'vec': {
        const f = v.f;
        return {
          k: 'vec',
          f: () => {
            run();
            return f();
          },
        };
      }
      case 'ptr': {
        const f = v.f;
        return {
          k: 'ptr',
          unit: v.unit,
          f: () => {
            run();
            return f();
          },
        };
      }
      case 'void': {
        const f = v.f;
        return {
          k: 'void',
          f: () => {
            run();
            return f();
          },
        };
      }
      default: {
        const f = v.f;
        return {
          k: v.k,
          f: () => {
            run();
            return f();
          },
        };
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
        return () => {
          for (let i = 0; i < fs.length; i++) fs[i]();
        };
      }
      default: {
        const v = this.rv(e);
        return v.k === 'const' ? NOOP : v.f;
      }
    }
  }
  /** Condition closure (non-zero = true). */
  protected test(e: A.Expr): Num {
    const v = this.rv(e);
    if (v.k === 'vec') notSim(e, 'vector value used as a condition (use GE/GT/LT… and _VMASK)');
    return this.rawFn(v, e);
  }
  /** `&` (address of a place), `*`, `+`, `-` (scalars and vectors), `!` and `~` (scalars). */
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
          return {
            k: 'vec',
            f: () => {
              const x = f();
              for (let i = 0; i < 8; i++) out[i] = -x[i] | 0;
              return out;
            },
          };
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

  /** `&&`, `||`: short-circuit; the right side's cost counts only when it runs. */
  private logical(e: A.LogicalExpr): Val {
    const l = this.test(e.left);
    const [r0, rc] = this.withCost(() => this.test(e.right));
    const r = this.costed(r0, rc);
    this.cost += 1;
    if (e.op === '&&') return { k: 'int', f: () => (l() !== 0 && r() !== 0 ? 1 : 0) };
    return { k: 'int', f: () => (l() !== 0 || r() !== 0 ? 1 : 0) };
  }

  /** `t ? a : b`: each branch counts its own cost when it is taken. */
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

  /** Casts: to a pointer (its unit), `int` (13-bit wrap), `int16` (12-bit saturation); `vint16`, `int32`, `vint32` keep the value. */
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
}
