/**
 * Conditions (compiled to boolean closures), unary and binary operator nodes (with the casts
 * tree-sitter cannot tell from expressions: `(T)-x`), assignments, `++`/`--` and `?:`.
 */
import { INT, VOID, isArith, isScalar, normalizer, promote, ptr, sizeOf, typeName, type CType } from '../ctypes';
import { fastCompound, fastCond } from '../fastops';
import { kindOf, loader, memWrite, storer } from '../memops';
import type { EF, Frame } from '../hostState';
import type { Cx } from '../scope';
import { field, named, type N } from '../syntax';
import { arith, cmpConv } from './arith';
import { CMP, bad, type CompileContext, type E } from './context';
import { cnst, conv, decay, load, store, ternaryType } from './values';
import { hoistLogic, hoistTernary, yields } from './yield';

/** A condition as a boolean closure. */
export function cond(cc: CompileContext, n: N, cx: Cx): (fr: Frame) => boolean {
  while (n.type === 'parenthesized_expression' && named(n).length === 1) n = named(n)[0];
  if (n.type === 'binary_expression') {
    const op = field(n, 'operator')!.type;
    if (op === '&&' || op === '||') {
      if (!(cx.hoist && yields(cc, field(n, 'right')!))) {
        const A = cond(cc, field(n, 'left')!, cx);
        const B = cond(cc, field(n, 'right')!, cx);
        return op === '&&' ? (fr) => A(fr) && B(fr) : (fr) => A(fr) || B(fr);
      }
    } else if (CMP.has(op) && !castFixup(cc, n, cx)) {
      const [L0, R0] = cmpConv(cc.rval(field(n, 'left')!, cx), cc.rval(field(n, 'right')!, cx), n, cx);
      const fast = fastCond(op, L0.slot, R0.slot, R0.k);
      if (fast) return fast;
      const p = cmpOperands(L0, R0);
      if (p) {
        const [L, R] = p;
        if (R.k !== undefined) {
          const k = R.k;
          switch (op) {
            case '<':
              return (fr) => L(fr) < k;
            case '>':
              return (fr) => L(fr) > k;
            case '<=':
              return (fr) => L(fr) <= k;
            case '>=':
              return (fr) => L(fr) >= k;
            case '==':
              return (fr) => L(fr) === k;
            case '!=':
              return (fr) => L(fr) !== k;
          }
        }
        const Rf = R.f;
        switch (op) {
          case '<':
            return (fr) => L(fr) < Rf(fr);
          case '>':
            return (fr) => L(fr) > Rf(fr);
          case '<=':
            return (fr) => L(fr) <= Rf(fr);
          case '>=':
            return (fr) => L(fr) >= Rf(fr);
          case '==':
            return (fr) => L(fr) === Rf(fr);
          case '!=':
            return (fr) => L(fr) !== Rf(fr);
        }
      }
    }
  } else if (n.type === 'unary_expression' && field(n, 'operator')!.type === '!') {
    const A = cond(cc, field(n, 'argument')!, cx);
    return (fr) => !A(fr);
  }
  const E = cc.rval(n, cx);
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
export function cmpOperands(L: E, R: E): [EF, E] | undefined {
  if (L.slot !== undefined) {
    const s = L.slot;
    return [(fr) => fr[s], R];
  }
  return [L.f, R];
}

export function unary(cc: CompileContext, n: N, cx: Cx): E {
  const op = field(n, 'operator')!.type;
  const loc = cx.src.loc(n);
  if (op === '!') {
    const A = cc.rval(field(n, 'argument')!, cx);
    if (!isScalar(A.t)) bad(loc, `'!' on ${typeName(A.t)}`);
    if (A.k !== undefined) return cnst(INT, A.k === 0 ? 1 : 0);
    const F = A.f;
    return { t: INT, f: (fr) => (F(fr) === 0 ? 1 : 0) };
  }
  const A0 = cc.rval(field(n, 'argument')!, cx);
  if (!isArith(A0.t)) bad(loc, `'${op}' on ${typeName(A0.t)}`);
  const t = A0.t.k === 'int' ? promote(A0.t) : A0.t;
  const A = conv(A0, t, n, cx);
  const norm = normalizer(t) ?? ((v: number) => v);
  if (op === '+') return A;
  if (op === '~' && t.k !== 'int') bad(loc, `'~' on ${typeName(t)}`);
  if (A.k !== undefined) return cnst(t, norm(op === '-' ? -A.k : t.size === 8 ? -A.k - 1 : ~A.k));
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
export function castFixup(cc: CompileContext, n: N, cx: Cx): { t: CType; op: string; arg: N } | undefined {
  const l = field(n, 'left')!;
  if (l.type !== 'parenthesized_expression') return undefined;
  const k = named(l);
  if (k.length !== 1 || k[0].type !== 'identifier') return undefined;
  const s = cx.scope.lookup(cc.text(k[0], cx));
  if (s?.k !== 'type') return undefined;
  const op = field(n, 'operator')!.type;
  return { t: s.t, op, arg: field(n, 'right')! };
}

export function binaryNode(cc: CompileContext, n: N, cx: Cx): E {
  const loc = cx.src.loc(n);
  const fix = castFixup(cc, n, cx);
  if (fix) {
    // (T) op x  →  (T)(op x)
    let E: E;
    const A = cc.rval(fix.arg, cx);
    switch (fix.op) {
      case '-':
      case '+': {
        const t = A.t.k === 'int' ? promote(A.t) : A.t;
        const V = conv(A, t, n, cx);
        E = fix.op === '+' ? V : arith(cc, '-', cnst(t, 0), V, n, cx);
        break;
      }
      case '*': {
        const P = decay(A);
        if (P.t.k !== 'ptr') bad(loc, `cannot dereference ${typeName(P.t)}`);
        E = load(cc, { t: P.t.to, a: P.f, safe: false, loc });
        break;
      }
      case '&': {
        const lv = cc.lval(fix.arg, cx);
        if (!lv || lv.slot !== undefined) bad(loc, 'cannot take the address of this expression');
        E = { t: ptr(lv.t), f: lv.a };
        break;
      }
      default:
        return bad(loc, `'${fix.op}' after a parenthesised type name`);
    }
    if (fix.t.k === 'void') return { t: VOID, f: E.f };
    return conv(decay(E), fix.t, n, cx, true);
  }
  const op = field(n, 'operator')!.type;
  if (op === '&&' || op === '||') {
    if (cx.hoist && yields(cc, field(n, 'right')!)) return hoistLogic(cc, n, op, cx);
    const A = cc.rval(field(n, 'left')!, cx);
    const B = cc.rval(field(n, 'right')!, cx);
    if (A.k !== undefined && B.k !== undefined) return cnst(INT, op === '&&' ? (A.k !== 0 && B.k !== 0 ? 1 : 0) : A.k !== 0 || B.k !== 0 ? 1 : 0);
    if (A.k !== undefined) {
      if (op === '&&' && A.k === 0) return cnst(INT, 0);
      if (op === '||' && A.k !== 0) return cnst(INT, 1);
    }
    const C = cond(cc, n, cx);
    return { t: INT, f: (fr) => (C(fr) ? 1 : 0) };
  }
  const L = cc.rval(field(n, 'left')!, cx);
  const R = cc.rval(field(n, 'right')!, cx);
  return arith(cc, op, L, R, n, cx);
}

export function assign(cc: CompileContext, n: N, cx: Cx): E {
  const loc = cx.src.loc(n);
  const op = field(n, 'operator')!.type;
  const left = field(n, 'left')!;
  const lv = cc.lval(left, cx);
  if (!lv) bad(loc, 'left side of assignment is not assignable');
  if (lv.t.k === 'arr' || lv.t.k === 'fn') bad(loc, `assignment to ${typeName(lv.t)}`);
  const R0 = cc.rval(field(n, 'right')!, cx);
  if (op === '=') {
    if (lv.t.k === 'struct') {
      if (R0.t !== lv.t) bad(loc, `assigning ${typeName(R0.t)} to ${typeName(lv.t)}`);
      return { t: lv.t, f: memWrite(cc.rt, lv.t, lv.a, R0.f, loc, false) };
    }
    const V = conv(R0, lv.t, n, cx).f;
    return { t: lv.t, f: store(cc, lv, V) };
  }
  const bop = op.slice(0, -1);
  if (lv.slot !== undefined && lv.t.k === 'int' && lv.t.size === 4 && R0.t.k === 'int' && R0.t.size <= 4) {
    const fast = fastCompound(bop, !lv.t.signed, lv.slot, R0.k, R0.f);
    if (fast) return { t: lv.t, f: fast };
  }
  if (lv.slot !== undefined) {
    const s = lv.slot;
    const cur: E = { t: lv.t, f: (fr) => fr[s], slot: s };
    const res = conv(decay(arith(cc, bop, cur, R0, n, cx)), lv.t, n, cx).f;
    return { t: lv.t, f: (fr) => (fr[s] = res(fr)) };
  }
  // MEM lvalue: the address is evaluated once; the operator reads two closure cells
  let curL = 0;
  let curR = 0;
  const Lc: E = { t: lv.t, f: () => curL };
  const Rc: E = { t: R0.t, f: () => curR };
  const res = conv(arith(cc, bop, Lc, Rc, n, cx), lv.t, n, cx).f;
  const ld = loader(cc.rt, lv.t, loc, lv.safe);
  const st = storer(cc.rt, lv.t, loc, lv.safe);
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

export function update(cc: CompileContext, n: N, cx: Cx, discard: boolean): E {
  const loc = cx.src.loc(n);
  const prefix = n.kids[0]?.field === 'operator';
  const op = field(n, 'operator')!.type;
  const lv = cc.lval(field(n, 'argument')!, cx);
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
  const ld = loader(cc.rt, t, loc, lv.safe);
  const st = storer(cc.rt, t, loc, lv.safe);
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

export function ternary(cc: CompileContext, n: N, cx: Cx): E {
  const loc = cx.src.loc(n);
  const cN = field(n, 'condition')!;
  const aN = field(n, 'consequence');
  const bN = field(n, 'alternative')!;
  if (cx.hoist && ((aN && yields(cc, aN)) || yields(cc, bN))) return hoistTernary(cc, n, cx);
  const B0 = cc.rval(bN, cx);
  if (!aN) {
    // GNU a ?: b
    const A0 = cc.rval(cN, cx);
    const t = ternaryType(A0, B0, loc);
    const A = conv(A0, t, n, cx).f;
    const B = conv(B0, t, n, cx).f;
    const CF = A0.f;
    return { t, f: (fr) => (CF(fr) !== 0 ? A(fr) : B(fr)) };
  }
  const C = cond(cc, cN, cx);
  const A0 = cc.rval(aN, cx);
  const t = ternaryType(A0, B0, loc);
  const A = t.k === 'void' ? A0 : conv(A0, t, n, cx);
  const B = t.k === 'void' ? B0 : conv(B0, t, n, cx);
  const AF = A.f;
  const BF = B.f;
  return { t, f: (fr) => (C(fr) ? AF(fr) : BF(fr)) };
}
