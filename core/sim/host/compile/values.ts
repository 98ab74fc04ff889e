/**
 * Values as the parts pass them (`E`: type, closure, constant; `LV`: slot or MEM address): constants,
 * implicit and explicit conversions, decay, loads and stores, string literals and the type of `a ? b : c`.
 * Nothing here compiles a syntax node.
 */
import type { SourceLoc } from '../../types';
import { VOID, common, isArith, isInt, normalizer, ptr, typeName, widens, type CType } from '../ctypes';
import { kindOf, memRead, memWrite } from '../memops';
import { decodeEscapes } from '../preprocess';
import type { EF, Runtime } from '../hostState';
import type { Cx } from '../scope';
import { named, type N } from '../syntax';
import { bad, type CompileContext, type E, type LV, type StrLit } from './context';

export function cnst(t: CType, v: number): E {
  return { t, f: () => v, k: v };
}

/** Converts an expression to type `t` (implicit conversions; `explicit` allows pointer/integer casts). */
export function conv(e: E, t: CType, n: N, cx: Cx, explicit = false): E {
  if (t.k === 'void') return { t, f: e.f };
  if (e.t.k === 'struct' || t.k === 'struct') {
    if (e.t === t) return e;
    return bad(cx.src.loc(n), `cannot convert ${typeName(e.t)} to ${typeName(t)}`);
  }
  if (t.k === 'arr' || t.k === 'fn') bad(cx.src.loc(n), `cannot convert to ${typeName(t)}`);
  if (e.t.k === 'void') bad(cx.src.loc(n), 'void value used');
  void explicit;
  if (widens(e.t, t)) return { ...e, t };
  const norm = normalizer(t);
  if (!norm) return { ...e, t };
  if (e.k !== undefined) return cnst(t, norm(e.k));
  const F = e.f;
  const kind = kindOf(t);
  const s = e.slot;
  switch (kind) {
    case 'i32':
      return s !== undefined ? { t, f: (fr) => fr[s] | 0 } : { t, f: (fr) => F(fr) | 0 };
    case 'u32':
      return s !== undefined ? { t, f: (fr) => fr[s] >>> 0 } : { t, f: (fr) => F(fr) >>> 0 };
    case 'u8':
      return { t, f: (fr) => F(fr) & 255 };
    case 'i8':
      return { t, f: (fr) => (F(fr) << 24) >> 24 };
    case 'u16':
      return { t, f: (fr) => F(fr) & 65535 };
    case 'i16':
      return { t, f: (fr) => (F(fr) << 16) >> 16 };
    case 'b':
      return { t, f: (fr) => (F(fr) !== 0 ? 1 : 0) };
    case 'f32':
      return { t, f: (fr) => Math.fround(F(fr)) };
  }
  return { t, f: (fr) => norm(F(fr)) };
}

/** Array-to-pointer and function-to-pointer decay. */
export function decay(e: E): E {
  if (e.t.k === 'arr') return { t: ptr(e.t.of), f: e.f, k: e.k };
  if (e.t.k === 'fn') return { t: ptr(e.t), f: e.f, k: e.k };
  return e;
}

/** Reads an lvalue. */
export function load(cc: CompileContext, lv: LV): E {
  if (lv.slot !== undefined) {
    const s = lv.slot;
    return { t: lv.t, f: (fr) => fr[s], slot: s };
  }
  return { t: lv.t, f: memRead(cc.rt, lv.t, lv.a, lv.loc, lv.safe) };
}

/** Writes an lvalue with a value already converted to its type. */
export function store(cc: CompileContext, lv: LV, V: EF): EF {
  if (lv.slot !== undefined) {
    const s = lv.slot;
    return (fr) => (fr[s] = V(fr));
  }
  return memWrite(cc.rt, lv.t, lv.a, V, lv.loc, lv.safe);
}

export function strBytes(cc: CompileContext, n: N, cx: Cx): Uint8Array {
  const parts = n.type === 'concatenated_string' ? named(n).filter((k) => k.type === 'string_literal') : [n];
  const out: number[] = [];
  for (const p of parts) {
    const t = cc
      .text(p, cx)
      .replace(/^(u8|[LuU])?"/, '')
      .replace(/"$/, '');
    if (/^(u8|[LuU])"/.test(cc.text(p, cx)) && !cc.text(p, cx).startsWith('u8')) bad(cx.src.loc(p), 'not simulated: wide string literal', 'not-simulated');
    out.push(...decodeEscapes(t));
  }
  return new Uint8Array(out);
}

export function strLit(cc: CompileContext, bytes: Uint8Array): StrLit {
  const key = String.fromCharCode(...bytes);
  let s = cc.strs.get(key);
  if (!s) {
    s = { bytes, addr: -1 };
    cc.strs.set(key, s);
  }
  return s;
}

export function allocStr(s: StrLit, rt: Runtime, loc: SourceLoc | undefined): number {
  const a = rt.sv.alloc(s.bytes.length + 1, 1);
  if (!(a >= 0 && a + s.bytes.length + 1 <= rt.size)) rt.fault(`cannot allocate a string literal in MEM (alloc returned ${a})`, loc);
  rt.mem.set(s.bytes, a);
  rt.mem[a + s.bytes.length] = 0;
  s.addr = a;
  return a;
}

export function ternaryType(A: E, B: E, loc: SourceLoc): CType {
  if (A.t.k === 'void' || B.t.k === 'void') return VOID;
  if (isArith(A.t) && isArith(B.t)) return common(A.t, B.t);
  if (A.t.k === 'ptr' && B.t.k === 'ptr') return A.t.to.k === 'void' ? B.t : A.t;
  if (A.t.k === 'ptr' && isInt(B.t)) return A.t;
  if (B.t.k === 'ptr' && isInt(A.t)) return B.t;
  if (A.t.k === 'struct' && A.t === B.t) return A.t;
  return bad(loc, `conditional with ${typeName(A.t)} and ${typeName(B.t)}`);
}
