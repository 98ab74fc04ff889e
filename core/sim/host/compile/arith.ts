/**
 * Binary operators on two compiled operands: pointer arithmetic, the usual arithmetic conversions,
 * constant folding, and the closures that compute them, one family per representation (int, unsigned,
 * float/double, 64-bit). The common shapes (a register slot, a constant right operand) get closures
 * without a nested call; fastops.ts holds the fastest of them.
 */
import type { SourceLoc } from '../../types';
import { INT, UINT, common, isArith, isInt, normalizer, promote, sizeOf, typeName, type CType, type FloatT, type IntT } from '../ctypes';
import { fastCmp, fastInt } from '../fastops';
import { kindOf } from '../memops';
import type { EF, Frame, Runtime } from '../hostState';
import type { Cx } from '../scope';
import type { N } from '../syntax';
import { CMP, bad, type CompileContext, type E } from './context';
import { cnst, conv } from './values';

/** Binary operator on two rvalues (pointer arithmetic, usual conversions, constant folding). */
export function arith(cc: CompileContext, op: string, L: E, R: E, n: N, cx: Cx): E {
  const loc = cx.src.loc(n);
  const lp = L.t.k === 'ptr';
  const rp = R.t.k === 'ptr';
  if (CMP.has(op)) {
    const [a, b] = cmpConv(L, R, n, cx);
    if (a.k !== undefined && b.k !== undefined) return cnst(INT, cmp(op, a.k, b.k) ? 1 : 0);
    const C = cmpClosure(op, a, b);
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
      if (P.k !== undefined) return cnst(P.t, (P.k + d) >>> 0);
      return { t: P.t, f: (fr) => (PF(fr) + d) >>> 0 };
    }
    const IF = I.f;
    return { t: P.t, f: (fr) => (PF(fr) + IF(fr) * es) >>> 0 };
  }
  if (lp) L = conv(L, UINT, n, cx, true);
  if (rp) R = conv(R, UINT, n, cx, true);
  if (!isArith(L.t) || !isArith(R.t)) bad(loc, `invalid operands to '${op}': ${typeName(L.t)} and ${typeName(R.t)}`);
  const shift = op === '<<' || op === '>>';
  let t: IntT | FloatT;
  if (shift) {
    if (L.t.k !== 'int' || R.t.k !== 'int') bad(loc, `shift of ${typeName(L.t)}`);
    t = promote(L.t);
    L = conv(L, t, n, cx);
    R = conv(R, promote(R.t as IntT), n, cx);
  } else {
    t = common(L.t, R.t);
    L = conv(L, t, n, cx);
    R = conv(R, t, n, cx);
  }
  if ((op === '%' || op === '&' || op === '|' || op === '^') && t.k === 'float') bad(loc, `'${op}' on ${typeName(t)}`);
  const fold = L.k !== undefined && R.k !== undefined && !((op === '/' || op === '%') && R.k === 0);
  const f = arithClosure(cc, op, t, L, R, loc);
  if (fold) return cnst(t, f([]));
  return { t, f };
}

export function cmpConv(L: E, R: E, n: N, cx: Cx): [E, E] {
  const lp = L.t.k === 'ptr';
  const rp = R.t.k === 'ptr';
  if (lp || rp) {
    // pointers compare as unsigned addresses
    return [lp ? L : conv(L, UINT, n, cx, true), rp ? R : conv(R, UINT, n, cx, true)];
  }
  if (!isArith(L.t) || !isArith(R.t)) bad(cx.src.loc(n), `cannot compare ${typeName(L.t)} and ${typeName(R.t)}`);
  const ct = common(L.t, R.t);
  return [conv(L, ct, n, cx), conv(R, ct, n, cx)];
}

export function cmpClosure(op: string, a: E, b: E): EF {
  const fast = fastCmp(op, a.slot, b.slot, b.k);
  if (fast) return fast;
  const L =
    a.slot !== undefined
      ? (
          (s: number) => (fr: Frame) =>
            fr[s]
        )(a.slot)
      : a.f;
  if (b.k !== undefined) {
    const k = b.k;
    switch (op) {
      case '<':
        return (fr) => (L(fr) < k ? 1 : 0);
      case '>':
        return (fr) => (L(fr) > k ? 1 : 0);
      case '<=':
        return (fr) => (L(fr) <= k ? 1 : 0);
      case '>=':
        return (fr) => (L(fr) >= k ? 1 : 0);
      case '==':
        return (fr) => (L(fr) === k ? 1 : 0);
      default:
        return (fr) => (L(fr) !== k ? 1 : 0);
    }
  }
  const R = b.f;
  switch (op) {
    case '<':
      return (fr) => (L(fr) < R(fr) ? 1 : 0);
    case '>':
      return (fr) => (L(fr) > R(fr) ? 1 : 0);
    case '<=':
      return (fr) => (L(fr) <= R(fr) ? 1 : 0);
    case '>=':
      return (fr) => (L(fr) >= R(fr) ? 1 : 0);
    case '==':
      return (fr) => (L(fr) === R(fr) ? 1 : 0);
    default:
      return (fr) => (L(fr) !== R(fr) ? 1 : 0);
  }
}

export function arithClosure(cc: CompileContext, op: string, t: IntT | FloatT, L: E, R: E, loc: SourceLoc): EF {
  const rt: Runtime = cc.rt;
  const kind = kindOf(t);
  const LF =
    L.slot !== undefined
      ? (
          (s: number) => (fr: Frame) =>
            fr[s]
        )(L.slot)
      : L.f;
  const RF = R.f;
  const k = R.k;
  if (kind === 'i32' || kind === 'u32') {
    const fast = fastInt(op, kind === 'u32', L.slot, R.slot, k, LF, RF);
    if (fast) return fast;
  }
  const f =
    kind === 'i32'
      ? i32Closure(rt, op, LF, RF, k, loc)
      : kind === 'u32'
        ? u32Closure(rt, op, LF, RF, k, loc)
        : t.k === 'float'
          ? floatClosure(op, t.size, LF, RF)
          : undefined;
  return f ?? i64Closure(rt, op, t as IntT, LF, RF, loc);
}

/** int: wraps to 32 bits (`| 0`); division by zero faults. */
function i32Closure(rt: Runtime, op: string, LF: EF, RF: EF, k: number | undefined, loc: SourceLoc): EF | undefined {
  if (k !== undefined) {
    switch (op) {
      case '+':
        return (fr) => (LF(fr) + k) | 0;
      case '-':
        return (fr) => (LF(fr) - k) | 0;
      case '*':
        return (fr) => Math.imul(LF(fr), k);
      case '&':
        return (fr) => LF(fr) & k;
      case '|':
        return (fr) => LF(fr) | k;
      case '^':
        return (fr) => LF(fr) ^ k;
      case '<<':
        return (fr) => LF(fr) << k;
      case '>>':
        return (fr) => LF(fr) >> k;
      case '/':
        if (k !== 0) return (fr) => (LF(fr) / k) | 0;
        break;
      case '%':
        if (k !== 0) return (fr) => (LF(fr) % k) | 0;
        break;
    }
  }
  switch (op) {
    case '+':
      return (fr) => (LF(fr) + RF(fr)) | 0;
    case '-':
      return (fr) => (LF(fr) - RF(fr)) | 0;
    case '*':
      return (fr) => Math.imul(LF(fr), RF(fr));
    case '&':
      return (fr) => LF(fr) & RF(fr);
    case '|':
      return (fr) => LF(fr) | RF(fr);
    case '^':
      return (fr) => LF(fr) ^ RF(fr);
    case '<<':
      return (fr) => LF(fr) << RF(fr);
    case '>>':
      return (fr) => LF(fr) >> RF(fr);
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
        return (a % b) | 0;
      };
  }
  return undefined;
}

/** unsigned int: wraps to 32 bits (`>>> 0`). */
function u32Closure(rt: Runtime, op: string, LF: EF, RF: EF, k: number | undefined, loc: SourceLoc): EF | undefined {
  if (k !== undefined) {
    switch (op) {
      case '+':
        return (fr) => (LF(fr) + k) >>> 0;
      case '-':
        return (fr) => (LF(fr) - k) >>> 0;
      case '&':
        return (fr) => (LF(fr) & k) >>> 0;
      case '>>':
        return (fr) => LF(fr) >>> k;
      case '<<':
        return (fr) => (LF(fr) << k) >>> 0;
    }
  }
  switch (op) {
    case '+':
      return (fr) => (LF(fr) + RF(fr)) >>> 0;
    case '-':
      return (fr) => (LF(fr) - RF(fr)) >>> 0;
    case '*':
      return (fr) => Math.imul(LF(fr), RF(fr)) >>> 0;
    case '&':
      return (fr) => (LF(fr) & RF(fr)) >>> 0;
    case '|':
      return (fr) => (LF(fr) | RF(fr)) >>> 0;
    case '^':
      return (fr) => (LF(fr) ^ RF(fr)) >>> 0;
    case '<<':
      return (fr) => (LF(fr) << RF(fr)) >>> 0;
    case '>>':
      return (fr) => LF(fr) >>> RF(fr);
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
  return undefined;
}

/** float (rounded to single precision) and double. */
function floatClosure(op: string, size: number, LF: EF, RF: EF): EF | undefined {
  const r = size === 4 ? Math.fround : (v: number) => v;
  switch (op) {
    case '+':
      return (fr) => r(LF(fr) + RF(fr));
    case '-':
      return (fr) => r(LF(fr) - RF(fr));
    case '*':
      return (fr) => r(LF(fr) * RF(fr));
    case '/':
      return (fr) => r(LF(fr) / RF(fr));
  }
  return undefined;
}

/** 64-bit integers (and whatever the others leave): doubles, exact to 2^53, BigInt for bitwise operators. */
function i64Closure(rt: Runtime, op: string, t: IntT, LF: EF, RF: EF, loc: SourceLoc): EF {
  const norm = normalizer(t)!;
  const signed = t.signed;
  const big = (a: number): bigint => BigInt(Math.trunc(a));
  const back = (v: bigint): number => Number(signed ? BigInt.asIntN(64, v) : BigInt.asUintN(64, v));
  switch (op) {
    case '+':
      return (fr) => norm(LF(fr) + RF(fr));
    case '-':
      return (fr) => norm(LF(fr) - RF(fr));
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
    case '&':
      return (fr) => back(big(LF(fr)) & big(RF(fr)));
    case '|':
      return (fr) => back(big(LF(fr)) | big(RF(fr)));
    case '^':
      return (fr) => back(big(LF(fr)) ^ big(RF(fr)));
    case '<<':
      return (fr) => back(big(LF(fr)) << BigInt(RF(fr) & 63));
    case '>>':
      return (fr) => norm(Math.floor(LF(fr) / 2 ** (RF(fr) & 63)));
  }
  return bad(loc, `operator '${op}' not simulated for ${typeName(t)}`, 'not-simulated');
}

function cmp(op: string, a: number, b: number): boolean {
  switch (op) {
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    case '>=':
      return a >= b;
    case '==':
      return a === b;
    default:
      return a !== b;
  }
}
