/**
 * Operators on compiled values: constant folding (C int semantics, the shared definition of
 * core/cexpr/operators.ts), 13-bit integer-register arithmetic, wide data words, pointer arithmetic
 * that keeps the shared-memory tag, 8-lane vector arithmetic (32-bit, saturated only when stored), and
 * the GE/GT/LE/LT/EQ/NE intrinsics' lane masks. Each operator and operand shape gets its own closure:
 * the lane loops must not dispatch on the operator at run time.
 */
import type * as A from '../../../pcore/ast';
import { binaryOp } from '../../../cexpr/operators';
import * as R from '../kernelState';
import { PlaceCompiler } from './places';
import { bad, notSim, type Val, type VecFn } from './types';

// Bound once (see base.ts).
const { LANES, SHARED_HALF, SHARED_TAG, ptrIndex, wrap13 } = R;

export abstract class ArithCompiler extends PlaceCompiler {
  /** Binary operators on compiled operands. */
  binary(op: A.BinaryOperator, a: Val, b: Val, node: A.Node): Val {
    if (a.k === 'void' || b.k === 'void') bad(node, 'void value used in an expression');
    const div = op === '/' || op === '%';
    if (a.k === 'const' && b.k === 'const') {
      if (div && b.v === 0) bad(node, 'division by zero');
      // Constants are C ints (constOf truncates, folds stay 32-bit), so the 'int' domain is exactly what
      // PCORE constants need, `/` and `%` included; it has a value for every operator of A.BinaryOperator
      // but a zero divisor, refused above (the `?? 0` is for the type only).
      return { k: 'const', v: binaryOp(op, a.v, b.v, 'int') ?? 0 };
    }
    if (div) notSim(node, op === '/' ? 'division (only constant expressions can be divided)' : 'modulo (only constant expressions)');
    switch (op) {
      case '<':
      case '<=':
      case '>':
      case '>=':
      case '==':
      case '!=':
        return this.relational(op, a, b, node);
      case '&':
      case '|':
      case '^':
        return this.bitwise(op, a, b, node);
      default:
        break;
    }
    if (a.k === 'vec' || b.k === 'vec') return this.vecBinary(op, a, b, node);
    if (a.k === 'ptr' || b.k === 'ptr') return this.ptrBinary(op, a, b, node);
    return this.scalarBinary(op, a, b, node);
  }

  /** `<` `<=` `>` `>=` `==` `!=` of scalars or pointers (raw: pointers compare with their tag): 1 or 0. */
  private relational(op: A.BinaryOperator, a: Val, b: Val, node: A.Node): Val {
    if (a.k === 'vec' || b.k === 'vec') notSim(node, `relational operator \`${op}\` on vectors (use GE/GT/LE/LT/EQ/NE)`);
    this.cost += 1;
    const fa = this.rawFn(a, node);
    const fb = this.rawFn(b, node);
    switch (op) {
      case '<':
        return { k: 'int', f: () => (fa() < fb() ? 1 : 0) };
      case '<=':
        return { k: 'int', f: () => (fa() <= fb() ? 1 : 0) };
      case '>':
        return { k: 'int', f: () => (fa() > fb() ? 1 : 0) };
      case '>=':
        return { k: 'int', f: () => (fa() >= fb() ? 1 : 0) };
      case '==':
        return { k: 'int', f: () => (fa() === fb() ? 1 : 0) };
      default:
        return { k: 'int', f: () => (fa() !== fb() ? 1 : 0) };
    }
  }

  /** `&` `|` `^`: integer-ALU operations on scalars, wrapped to 13 bits. */
  private bitwise(op: A.BinaryOperator, a: Val, b: Val, node: A.Node): Val {
    if (a.k === 'vec' || b.k === 'vec') notSim(node, `bitwise \`${op}\` on vectors (int operands only)`);
    if (a.k === 'ptr' || b.k === 'ptr') notSim(node, `bitwise \`${op}\` on a pointer`);
    this.cost += 1;
    const fa = this.sf(a, node);
    const fb = this.sf(b, node);
    if (op === '&') return { k: 'int', f: () => wrap13(fa() & fb()) };
    if (op === '|') return { k: 'int', f: () => wrap13(fa() | fb()) };
    return { k: 'int', f: () => wrap13(fa() ^ fb()) };
  }

  /** `+` `-` `*` `<<` `>>` of scalars: a data word when either is one (wide), else 13-bit integer. */
  private scalarBinary(op: A.BinaryOperator, a: Val, b: Val, node: A.Node): Val {
    this.cost += 1;
    const fa = this.sf(a, node);
    const fb = this.sf(b, node);
    const word = a.k === 'word' || b.k === 'word';
    const neg = (): never => {
      throw this.raise(node.start, 'negative shift count', 'fault');
    };
    if (word) {
      switch (op) {
        case '+':
          return { k: 'word', f: () => (fa() + fb()) | 0 };
        case '-':
          return { k: 'word', f: () => (fa() - fb()) | 0 };
        case '*':
          return { k: 'word', f: () => Math.imul(fa(), fb()) };
        case '<<':
          return {
            k: 'word',
            f: () => {
              const x = fa();
              const s = fb();
              return s < 0 ? neg() : s > 31 ? 0 : x << s;
            },
          };
        case '>>':
          return {
            k: 'word',
            f: () => {
              const x = fa();
              const s = fb();
              return s < 0 ? neg() : x >> (s > 31 ? 31 : s);
            },
          };
        default:
          return bad(node, `operator \`${op}\``);
      }
    }
    switch (op) {
      case '+':
        return { k: 'int', f: () => wrap13(fa() + fb()) };
      case '-':
        return { k: 'int', f: () => wrap13(fa() - fb()) };
      case '*':
        return { k: 'int', f: () => wrap13(Math.imul(fa(), fb())) };
      case '<<':
        return {
          k: 'int',
          f: () => {
            const x = fa();
            const s = fb();
            return s < 0 ? neg() : s > 31 ? 0 : wrap13(x << s);
          },
        };
      case '>>':
        return {
          k: 'int',
          f: () => {
            const x = fa();
            const s = fb();
            return s < 0 ? neg() : wrap13(x >> (s > 31 ? 31 : s));
          },
        };
      default:
        return bad(node, `operator \`${op}\``);
    }
  }

  /** `+` `-` of a pointer and an integer (in pointer units), pointer difference, shifts of a pointer. */
  private ptrBinary(op: A.BinaryOperator, a: Val, b: Val, node: A.Node): Val {
    this.cost += 1;
    if (op === '+' || op === '-') {
      if (a.k === 'ptr' && b.k === 'ptr') {
        if (op === '+') bad(node, 'cannot add two pointers');
        const fa = a.f,
          fb = b.f;
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
      const neg = (): never => {
        throw this.raise(node.start, 'negative shift count', 'fault');
      };
      if (op === '<<') {
        return {
          k: 'ptr',
          unit: a.unit,
          f: () => {
            const r = fa();
            const s = fb();
            if (s < 0) neg();
            return r >= SHARED_HALF ? SHARED_TAG + ((r - SHARED_TAG) << s) : r << s;
          },
        };
      }
      return {
        k: 'ptr',
        unit: a.unit,
        f: () => {
          const r = fa();
          const s = fb();
          if (s < 0) neg();
          return r >= SHARED_HALF ? SHARED_TAG + ((r - SHARED_TAG) >> s) : r >> s;
        },
      };
    }
    return notSim(node, `operator \`${op}\` on a pointer`);
  }

  /** Vector operators: lanes 32-bit wide, scalars broadcast; shifts by a scalar amount only. */
  private vecBinary(op: A.BinaryOperator, a: Val, b: Val, node: A.Node): Val {
    if (a.k === 'ptr' || b.k === 'ptr') bad(node, 'pointer and vector operands');
    this.cost += 8;
    const out = new Int32Array(LANES);
    if (op === '<<' || op === '>>') return this.vecShift(op, a, b, node, out);
    if (a.k === 'vec' && b.k === 'vec') {
      const fa = a.f,
        fb = b.f;
      switch (op) {
        case '+':
          return {
            k: 'vec',
            f: () => {
              const x = fa(),
                y = fb();
              for (let i = 0; i < 8; i++) out[i] = (x[i] + y[i]) | 0;
              return out;
            },
          };
        case '-':
          return {
            k: 'vec',
            f: () => {
              const x = fa(),
                y = fb();
              for (let i = 0; i < 8; i++) out[i] = (x[i] - y[i]) | 0;
              return out;
            },
          };
        case '*':
          return {
            k: 'vec',
            f: () => {
              const x = fa(),
                y = fb();
              for (let i = 0; i < 8; i++) out[i] = Math.imul(x[i], y[i]);
              return out;
            },
          };
        default:
          return bad(node, `operator \`${op}\``);
      }
    }
    const vecLeft = a.k === 'vec';
    return this.vecScalar(op, (vecLeft ? a : (b as Val & { k: 'vec' })).f as VecFn, vecLeft ? b : a, vecLeft, node, out);
  }

  /** `v << s`, `v >> s` by a scalar amount (a constant one checked once), into `out`. */
  private vecShift(op: '<<' | '>>', a: Val, b: Val, node: A.Node, out: Int32Array): Val {
    if (a.k !== 'vec') notSim(node, 'shifting a scalar by a vector');
    if (b.k === 'vec') notSim(node, 'shift by a vector amount');
    const fa = a.f;
    if (b.k === 'const') {
      const s = b.v;
      if (s < 0) bad(node, 'negative shift count');
      if (op === '<<') {
        if (s > 31)
          return {
            k: 'vec',
            f: () => {
              fa();
              out.fill(0);
              return out;
            },
          };
        return {
          k: 'vec',
          f: () => {
            const x = fa();
            for (let i = 0; i < 8; i++) out[i] = x[i] << s;
            return out;
          },
        };
      }
      const r = s > 31 ? 31 : s;
      return {
        k: 'vec',
        f: () => {
          const x = fa();
          for (let i = 0; i < 8; i++) out[i] = x[i] >> r;
          return out;
        },
      };
    }
    const fb = this.sf(b, node);
    const neg = (): never => {
      throw this.raise(node.start, 'negative shift count', 'fault');
    };
    if (op === '<<') {
      return {
        k: 'vec',
        f: () => {
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
      k: 'vec',
      f: () => {
        const x = fa();
        let s = fb();
        if (s < 0) neg();
        if (s > 31) s = 31;
        for (let i = 0; i < 8; i++) out[i] = x[i] >> s;
        return out;
      },
    };
  }

  /** A vector `fv` and a scalar `sv` (`vecLeft`: the vector is the left operand), lane by lane into `out`. */
  private vecScalar(op: A.BinaryOperator, fv: VecFn, sv: Val, vecLeft: boolean, node: A.Node, out: Int32Array): Val {
    if (sv.k === 'const') {
      const c = sv.v;
      switch (op) {
        case '+':
          return {
            k: 'vec',
            f: () => {
              const x = fv();
              for (let i = 0; i < 8; i++) out[i] = (x[i] + c) | 0;
              return out;
            },
          };
        case '*':
          return {
            k: 'vec',
            f: () => {
              const x = fv();
              for (let i = 0; i < 8; i++) out[i] = Math.imul(x[i], c);
              return out;
            },
          };
        case '-':
          if (vecLeft)
            return {
              k: 'vec',
              f: () => {
                const x = fv();
                for (let i = 0; i < 8; i++) out[i] = (x[i] - c) | 0;
                return out;
              },
            };
          return {
            k: 'vec',
            f: () => {
              const x = fv();
              for (let i = 0; i < 8; i++) out[i] = (c - x[i]) | 0;
              return out;
            },
          };
        default:
          return bad(node, `operator \`${op}\``);
      }
    }
    const fs = this.sf(sv, node);
    switch (op) {
      case '+':
        if (vecLeft)
          return {
            k: 'vec',
            f: () => {
              const x = fv(),
                s = fs();
              for (let i = 0; i < 8; i++) out[i] = (x[i] + s) | 0;
              return out;
            },
          };
        return {
          k: 'vec',
          f: () => {
            const s = fs(),
              x = fv();
            for (let i = 0; i < 8; i++) out[i] = (x[i] + s) | 0;
            return out;
          },
        };
      case '*':
        if (vecLeft)
          return {
            k: 'vec',
            f: () => {
              const x = fv(),
                s = fs();
              for (let i = 0; i < 8; i++) out[i] = Math.imul(x[i], s);
              return out;
            },
          };
        return {
          k: 'vec',
          f: () => {
            const s = fs(),
              x = fv();
            for (let i = 0; i < 8; i++) out[i] = Math.imul(x[i], s);
            return out;
          },
        };
      case '-':
        if (vecLeft)
          return {
            k: 'vec',
            f: () => {
              const x = fv(),
                s = fs();
              for (let i = 0; i < 8; i++) out[i] = (x[i] - s) | 0;
              return out;
            },
          };
        return {
          k: 'vec',
          f: () => {
            const s = fs(),
              x = fv();
            for (let i = 0; i < 8; i++) out[i] = (s - x[i]) | 0;
            return out;
          },
        };
      default:
        return bad(node, `operator \`${op}\``);
    }
  }

  /** GE/GT/LE/LT/EQ/NE → integer lane mask (bit i = condition on lane i). */
  protected compare(name: string, a: Val, b: Val, node: A.Node): Val {
    if (a.k === 'void' || b.k === 'void') bad(node, 'void value in a comparison');
    if (a.k === 'ptr' || b.k === 'ptr') bad(node, `\`${name}\` needs data operands, not pointers`);
    // express everything with LT / EQ: GT(a,b)=LT(b,a), GE(a,b)=!LT(a,b), LE(a,b)=!LT(b,a), NE=!EQ
    let x = a;
    let y = b;
    let inv = 0;
    let eq = false;
    switch (name) {
      case 'LT':
        break;
      case 'GT':
        x = b;
        y = a;
        break;
      case 'GE':
        inv = 255;
        break;
      case 'LE':
        x = b;
        y = a;
        inv = 255;
        break;
      case 'EQ':
        eq = true;
        break;
      default:
        eq = true;
        inv = 255;
        break;
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
      const fx = x.f,
        fy = y.f;
      if (eq)
        return {
          k: 'int',
          f: () => {
            const p = fx(),
              q = fy();
            let m = 0;
            for (let i = 0; i < 8; i++) if (p[i] === q[i]) m |= 1 << i;
            return m ^ inv;
          },
        };
      return {
        k: 'int',
        f: () => {
          const p = fx(),
            q = fy();
          let m = 0;
          for (let i = 0; i < 8; i++) if (p[i] < q[i]) m |= 1 << i;
          return m ^ inv;
        },
      };
    }
    if (x.k === 'vec') {
      const fx = x.f;
      const fy = this.sf(y, node);
      if (eq)
        return {
          k: 'int',
          f: () => {
            const p = fx(),
              s = fy();
            let m = 0;
            for (let i = 0; i < 8; i++) if (p[i] === s) m |= 1 << i;
            return m ^ inv;
          },
        };
      return {
        k: 'int',
        f: () => {
          const p = fx(),
            s = fy();
          let m = 0;
          for (let i = 0; i < 8; i++) if (p[i] < s) m |= 1 << i;
          return m ^ inv;
        },
      };
    }
    const fx = this.sf(x, node);
    const fy = (y as Val & { k: 'vec' }).f;
    if (eq)
      return {
        k: 'int',
        f: () => {
          const s = fx(),
            q = fy();
          let m = 0;
          for (let i = 0; i < 8; i++) if (s === q[i]) m |= 1 << i;
          return m ^ inv;
        },
      };
    return {
      k: 'int',
      f: () => {
        const s = fx(),
          q = fy();
        let m = 0;
        for (let i = 0; i < 8; i++) if (s < q[i]) m |= 1 << i;
        return m ^ inv;
      },
    };
  }
}
