/**
 * Expressions: rvalues (literals, names, `*`/`&`, sizeof/alignof/offsetof, and the dispatch to
 * operators and calls), lvalues (register slots and MEM addresses: names, `*p`, `a[i]`, members,
 * string literals) and constant expressions.
 */
import type { SourceLoc } from '../../types';
import { DOUBLE, FLOAT, INT, LLONG, UINT, ULLONG, VOID, alignOf, arr, isInt, isScalar, ptr, sizeOf, typeName, type CType, type IntT } from '../ctypes';
import { KERNEL_PREFIX, charLiteralValue, parseIntLiteral } from '../preprocess';
import type { EF, Frame, Runtime } from '../hostState';
import type { Cx } from '../scope';
import { field, named, type N } from '../syntax';
import { call } from './call';
import { bad, findField, type CompileContext, type E, type LV } from './context';
import { assign, binaryNode, ternary, unary, update } from './ops';
import { typeDescriptor } from './types';
import { allocStr, cnst, conv, decay, load, strBytes, strLit } from './values';
import { hoistSeq, yields } from './yield';

/** An rvalue (arrays and functions decayed to pointers). `discard`: the value is unused. */
export function rval(cc: CompileContext, n: N, cx: Cx, discard = false): E {
  return decay(rvalNoDecay(cc, n, cx, discard));
}

export function rvalNoDecay(cc: CompileContext, n: N, cx: Cx, discard = false): E {
  const loc = cx.src.loc(n);
  switch (n.type) {
    case 'number_literal':
      return number(cc.text(n, cx), loc);
    case 'char_literal': {
      const txt = cc.text(n, cx);
      if (/^[LuU]/.test(txt)) bad(loc, 'not simulated: wide character literal', 'not-simulated');
      let v = charLiteralValue(txt);
      if (cc.charT.signed) v = (v << 24) >> 24;
      return cnst(INT, v);
    }
    case 'true':
      return cnst(INT, 1);
    case 'false':
      return cnst(INT, 0);
    case 'null':
      return cnst(ptr(VOID), 0);
    case 'parenthesized_expression': {
      const k = named(n);
      if (k.length !== 1) bad(loc, 'syntax error');
      if (k[0].type === 'identifier' && cx.scope.lookup(cc.text(k[0], cx))?.k === 'type') bad(loc, `unexpected type name '${cc.text(k[0], cx)}'`);
      return rvalNoDecay(cc, k[0], cx, discard);
    }
    case 'identifier':
      return identifier(cc, n, cx, loc);
    case 'string_literal':
    case 'concatenated_string':
    case 'subscript_expression':
    case 'field_expression':
    case 'compound_literal_expression':
      return load(cc, lval(cc, n, cx)!);
    case 'pointer_expression':
      return pointerExpr(cc, n, cx, loc);
    case 'unary_expression':
      return unary(cc, n, cx);
    case 'binary_expression':
      return binaryNode(cc, n, cx);
    case 'update_expression':
      return update(cc, n, cx, discard);
    case 'assignment_expression':
      return assign(cc, n, cx);
    case 'conditional_expression':
      return ternary(cc, n, cx);
    case 'comma_expression': {
      const l = field(n, 'left')!;
      const r = field(n, 'right')!;
      if (cx.hoist && yields(cc, r)) return hoistSeq(cc, n, cx);
      const L = rval(cc, l, cx, true).f;
      const R = rval(cc, r, cx, discard);
      const RF = R.f;
      return { t: R.t, f: (fr) => (L(fr), RF(fr)) };
    }
    case 'cast_expression': {
      const t = typeDescriptor(cc, field(n, 'type')!, cx);
      const E = rval(cc, field(n, 'value')!, cx);
      if (t.k === 'void') return { t: VOID, f: E.f };
      if (t.k === 'struct') bad(loc, `cast to ${typeName(t)}`);
      if (!isScalar(E.t)) bad(loc, `cast of ${typeName(E.t)}`);
      return conv(E, t, n, cx, true);
    }
    case 'sizeof_expression':
      return sizeOfExpr(cc, n, cx, loc);
    case 'alignof_expression': {
      const tn = field(n, 'type');
      const t = tn ? typeDescriptor(cc, tn, cx) : typeOfOperand(cc, named(n)[0], cx);
      return cnst(UINT, alignOf(t));
    }
    case 'offsetof_expression':
      return offsetOf(cc, n, cx, loc);
    case 'call_expression':
      return call(cc, n, cx);
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

/** A name: a kernel placeholder, an enum constant, a function or a variable. */
function identifier(cc: CompileContext, n: N, cx: Cx, loc: SourceLoc): E {
  const name = cc.text(n, cx);
  if (name.startsWith(KERNEL_PREFIX)) return kernel(cc, Number(name.slice(KERNEL_PREFIX.length)), loc);
  const s = cx.scope.lookup(name);
  if (!s) {
    const f = cc.fns.get(name);
    if (f) return { t: f.type, f: () => f.addr, k: undefined };
    return bad(loc, `'${name}' undeclared`);
  }
  switch (s.k) {
    case 'const':
      return cnst(s.t, s.v);
    case 'fn': {
      const f = s.f;
      return { t: f.type, f: () => f.addr };
    }
    case 'type':
      return bad(loc, `unexpected type name '${name}'`);
  }
  return load(cc, lval(cc, n, cx)!);
}

/** `*p` and `&x` (the address of a function, of `*p`, or of an lvalue in MEM). */
function pointerExpr(cc: CompileContext, n: N, cx: Cx, loc: SourceLoc): E {
  const op = field(n, 'operator')!.type;
  const argN = field(n, 'argument')!;
  if (op === '*') {
    const P = decay(rval(cc, argN, cx));
    if (P.t.k === 'ptr' && P.t.to.k === 'fn') return { t: P.t.to, f: P.f };
    return load(cc, lval(cc, n, cx)!);
  }
  // &x
  let a = argN;
  while (a.type === 'parenthesized_expression' && named(a).length === 1) a = named(a)[0];
  if (a.type === 'identifier') {
    const s = cx.scope.lookup(cc.text(a, cx));
    if (s?.k === 'fn') {
      const f = s.f;
      return { t: ptr(f.type), f: () => f.addr };
    }
    if (!s && cc.fns.has(cc.text(a, cx))) {
      const f = cc.fns.get(cc.text(a, cx))!;
      return { t: ptr(f.type), f: () => f.addr };
    }
    if (s?.k === 'slot') bad(loc, `not simulated: address of register variable '${cc.text(a, cx)}' (taken only inside a tensor statement?)`, 'not-simulated');
  }
  if (a.type === 'pointer_expression' && field(a, 'operator')!.type === '*') {
    const P = decay(rval(cc, field(a, 'argument')!, cx));
    if (P.t.k === 'ptr') return P;
  }
  const lv = lval(cc, a, cx);
  if (!lv) bad(loc, "cannot take the address of this expression ('&' needs an lvalue)");
  const t = ptr(lv.t);
  const A = lv.a;
  return { t, f: A };
}

/** `sizeof(T)` / `sizeof x`: a constant (the operand is not evaluated). */
function sizeOfExpr(cc: CompileContext, n: N, cx: Cx, loc: SourceLoc): E {
  const tn = field(n, 'type');
  let t: CType;
  if (tn) t = typeDescriptor(cc, tn, cx);
  else {
    const v = field(n, 'value')!;
    t = typeOfOperand(cc, v, cx);
  }
  if (t.k === 'struct' && !t.complete) bad(loc, `sizeof incomplete ${typeName(t)}`);
  if (t.k === 'arr' && t.n === undefined) bad(loc, 'sizeof an array of unknown size');
  return cnst(UINT, sizeOf(t));
}

/** `offsetof(T, a.b)`: the member path's byte offset, a constant. */
function offsetOf(cc: CompileContext, n: N, cx: Cx, loc: SourceLoc): E {
  const t = typeDescriptor(cc, field(n, 'type')!, cx);
  const m = field(n, 'member')!;
  let off = 0;
  let cur = t;
  for (const part of cc.text(m, cx).split('.')) {
    if (cur.k !== 'struct') bad(loc, 'offsetof of a non-struct');
    const f = findField(cur, part.trim());
    if (!f) bad(loc, `${typeName(cur)} has no member '${part}'`);
    off += f.off;
    cur = f.t;
  }
  return cnst(UINT, off);
}

/** Type of a sizeof operand without decaying arrays (`sizeof(T)` may parse as an expression). */
export function typeOfOperand(cc: CompileContext, v: N, cx: Cx): CType {
  let x = v;
  while (x.type === 'parenthesized_expression' && named(x).length === 1) x = named(x)[0];
  if (x.type === 'identifier') {
    const s = cx.scope.lookup(cc.text(x, cx));
    if (s?.k === 'type') return s.t;
  }
  const lv = lval(cc, x, { ...cx, hoist: null });
  if (lv) return lv.t;
  return rvalNoDecay(cc, x, { ...cx, hoist: null }).t;
}

export function number(txt: string, loc: SourceLoc): E {
  const lower = txt.toLowerCase();
  const isHex = lower.startsWith('0x');
  if ((!isHex && /[.e]/.test(lower)) || (isHex && /[.p]/.test(lower))) {
    const f = lower.endsWith('f');
    const v = isHex ? parseHexFloat(lower.replace(/[fl]$/, '')) : parseFloat(lower.replace(/[fl]$/, ''));
    if (Number.isNaN(v)) bad(loc, `invalid number '${txt}'`);
    return cnst(f ? FLOAT : DOUBLE, f ? Math.fround(v) : v);
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
  return cnst(t, v);
}

export function kernel(cc: CompileContext, id: number, loc: SourceLoc): E {
  const name = cc.pp.kernels[id] ?? kernelNameById(cc, id);
  const rt: Runtime = cc.rt;
  const resolve = (): number => {
    let v = cc.kernelCache[id];
    if (v === undefined) {
      v = cc.opts.kernelAddress?.(name);
      if (v === undefined) rt.fault(`unknown kernel $${name}`, loc);
      cc.kernelCache[id] = v;
    }
    return v;
  };
  return { t: UINT, f: resolve };
}

export function kernelNameById(cc: CompileContext, id: number): string {
  for (const [k, v] of cc.kernelIds) if (v === id) return k;
  return '?';
}

/** lvalue of `n`, or undefined when `n` is not an lvalue. */
export function lval(cc: CompileContext, n: N, cx: Cx): LV | undefined {
  const loc = cx.src.loc(n);
  switch (n.type) {
    case 'parenthesized_expression': {
      const k = named(n);
      return k.length === 1 ? lval(cc, k[0], cx) : undefined;
    }
    case 'identifier': {
      const name = cc.text(n, cx);
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
      const bytes = strBytes(cc, n, cx);
      const lit = strLit(cc, bytes);
      const rt: Runtime = cc.rt;
      return { t: arr(cc.charT, bytes.length + 1), a: () => (lit.addr >= 0 ? lit.addr : allocStr(lit, rt, loc)), safe: true, loc };
    }
    case 'pointer_expression': {
      if (field(n, 'operator')!.type !== '*') return undefined;
      const P = decay(rval(cc, field(n, 'argument')!, cx));
      if (P.t.k !== 'ptr') bad(loc, `cannot dereference ${typeName(P.t)}`);
      if (P.t.to.k === 'void') bad(loc, 'dereferencing a void pointer');
      return { t: P.t.to, a: P.f, safe: false, loc };
    }
    case 'subscript_expression':
      return subscriptLval(cc, n, cx, loc);
    case 'field_expression':
      return fieldLval(cc, n, cx, loc);
    case 'compound_literal_expression':
      return bad(loc, 'not simulated: compound literal', 'not-simulated');
  }
  return undefined;
}

/** `a[i]` (or `i[a]`): the element's address. */
function subscriptLval(cc: CompileContext, n: N, cx: Cx, loc: SourceLoc): LV {
  let B = decay(rval(cc, field(n, 'argument')!, cx));
  let I = rval(cc, field(n, 'index')!, cx);
  if (B.t.k !== 'ptr' && I.t.k === 'ptr') [B, I] = [I, B];
  else if (I.t.k === 'arr') [B, I] = [decay(I), B];
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
  const IF =
    I.slot !== undefined
      ? (
          (s: number) => (fr: Frame) =>
            fr[s]
        )(I.slot)
      : I.f;
  if (es === 1) return { t: et, a: (fr) => (BF(fr) + IF(fr)) >>> 0, safe: false, loc };
  return { t: et, a: (fr) => (BF(fr) + IF(fr) * es) >>> 0, safe: false, loc };
}

/** `s.f` / `p->f`: the member's address from the struct's (anonymous members searched too). */
function fieldLval(cc: CompileContext, n: N, cx: Cx, loc: SourceLoc): LV {
  const op = field(n, 'operator')!.type;
  const arg = field(n, 'argument')!;
  const fname = cc.text(field(n, 'field')!, cx);
  let base: EF;
  let st: CType;
  let safe = false;
  if (op === '->') {
    const P = decay(rval(cc, arg, cx));
    if (P.t.k !== 'ptr') bad(loc, `'->' on ${typeName(P.t)}`);
    st = P.t.to;
    base = P.f;
  } else {
    const L = lval(cc, arg, cx);
    if (L) {
      st = L.t;
      base = L.a;
      safe = L.safe;
    } else {
      const R = rval(cc, arg, cx);
      st = R.t;
      base = R.f;
    }
  }
  if (st.k !== 'struct') bad(loc, `member '${fname}' of ${typeName(st)}, which is not a struct`);
  if (!st.complete) bad(loc, `member '${fname}' of incomplete ${typeName(st)}`);
  const bf = cc.badStructs.get(st);
  if (bf) bad(loc, `not simulated: member access in a struct with ${bf}`, 'not-simulated');
  const f = findField(st, fname);
  if (!f) bad(loc, `${typeName(st)} has no member '${fname}'`);
  const off = f.off;
  return { t: f.t, a: off === 0 ? base : (fr) => base(fr) + off, safe, loc };
}

/** The value of a constant expression. */
export function constEval(cc: CompileContext, n: N, cx: Cx): number {
  const E = rval(cc, n, { ...cx, hoist: null });
  if (E.k === undefined) bad(cx.src.loc(n), 'constant expression required');
  return E.k;
}

function parseHexFloat(s: string): number {
  const m = /^0x([0-9a-f]*)(?:\.([0-9a-f]*))?p([+-]?\d+)$/.exec(s);
  if (!m) return NaN;
  const mant = parseInt((m[1] || '0') + (m[2] || ''), 16) / 16 ** (m[2] || '').length;
  return mant * 2 ** parseInt(m[3], 10);
}
