/**
 * Typed MEM loads and stores (little-endian) as closures; `safe` accesses (named locals and
 * globals, whose addresses come from the allocator) skip the bounds check.
 *
 * Every store first checks the MEM journal flag of its page(s) (`rt.jf`, one byte per 4 KiB page) and
 * calls `rt.wrote` on the first store to a page after a tensor step, so the page history sees host
 * writes. An access that fails the bounds check goes to `rt.loadOutside`/`rt.storeOutside`: a
 * memory-mapped ztachip register (`ZTAM_GREG`) when the window is mapped, otherwise a fault.
 */
import type { SourceLoc } from '../types';
import { sizeOf, type CType } from './ctypes';
import type { EF, Runtime } from './hostState';

export type Kind = 'i8' | 'u8' | 'b' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f32' | 'f64' | 'addr';

export function kindOf(t: CType): Kind {
  switch (t.k) {
    case 'int':
      if (t.bool) return 'b';
      switch (t.size) {
        case 1:
          return t.signed ? 'i8' : 'u8';
        case 2:
          return t.signed ? 'i16' : 'u16';
        case 4:
          return t.signed ? 'i32' : 'u32';
        default:
          return t.signed ? 'i64' : 'u64';
      }
    case 'float':
      return t.size === 4 ? 'f32' : 'f64';
    case 'ptr':
      return 'u32';
    default:
      return 'addr'; // arrays, structs, functions: the value is the address
  }
}

/** A loader `(addr) => value` for type `t`. */
export function loader(rt: Runtime, t: CType, loc: SourceLoc, safe: boolean): (a: number) => number {
  const k = kindOf(t);
  const n = k === 'addr' ? 0 : sizeOf(t);
  const raw = rawLoad(rt, k);
  if (safe || n === 0) return raw;
  return (a) => {
    if (a < rt.lo || a > rt.size - n) return outsideLoad(rt, k, a, n, loc);
    return raw(a);
  };
}

/** A load outside MEM (register window or fault), with the value converted to the load's kind. */
function outsideLoad(rt: Runtime, k: Kind, a: number, n: number, loc: SourceLoc): number {
  const v = rt.loadOutside(a, n, loc);
  switch (k) {
    case 'i8':
      return (v << 24) >> 24;
    case 'u8':
      return v & 0xff;
    case 'b':
      return v ? 1 : 0;
    case 'i16':
      return (v << 16) >> 16;
    case 'u16':
      return v & 0xffff;
    case 'i32':
      return v | 0;
    case 'u32':
      return v >>> 0;
    default:
      return v;
  }
}

/** Journals an n-byte store at a (before it happens). */
function journal(rt: Runtime, a: number, n: number): void {
  const f = rt.jf;
  if (f[a >>> 12] === 0 || f[(a + n - 1) >>> 12] === 0) rt.wrote(a, n);
}

function rawLoad(rt: Runtime, k: Kind): (a: number) => number {
  switch (k) {
    case 'i8':
      return (a) => rt.dv.getInt8(a);
    case 'u8':
      return (a) => rt.mem[a];
    case 'b':
      return (a) => (rt.mem[a] !== 0 ? 1 : 0);
    case 'i16':
      return (a) => rt.dv.getInt16(a, true);
    case 'u16':
      return (a) => rt.dv.getUint16(a, true);
    case 'i32':
      return (a) => rt.dv.getInt32(a, true);
    case 'u32':
      return (a) => rt.dv.getUint32(a, true);
    case 'i64':
      return (a) => Number(rt.dv.getBigInt64(a, true));
    case 'u64':
      return (a) => Number(rt.dv.getBigUint64(a, true));
    case 'f32':
      return (a) => rt.dv.getFloat32(a, true);
    case 'f64':
      return (a) => rt.dv.getFloat64(a, true);
    case 'addr':
      return (a) => a;
  }
}

/** A storer `(addr, value)` for type `t` (value already normalised). */
export function storer(rt: Runtime, t: CType, loc: SourceLoc, safe: boolean): (a: number, v: number) => void {
  const k = kindOf(t);
  const n = sizeOf(t);
  const raw = rawStore(rt, k, n, loc);
  if (k === 'addr') {
    // struct assignment: rt.memcpy checks and journals
    return raw;
  }
  if (safe) {
    return (a, v) => {
      journal(rt, a, n);
      raw(a, v);
    };
  }
  return (a, v) => {
    if (a < rt.lo || a > rt.size - n) return rt.storeOutside(a, n, v, loc);
    journal(rt, a, n);
    raw(a, v);
  };
}

function rawStore(rt: Runtime, k: Kind, n: number, loc: SourceLoc): (a: number, v: number) => void {
  switch (k) {
    case 'i8':
    case 'u8':
    case 'b':
      return (a, v) => {
        rt.mem[a] = v;
      };
    case 'i16':
    case 'u16':
      return (a, v) => rt.dv.setUint16(a, v, true);
    case 'i32':
    case 'u32':
      return (a, v) => rt.dv.setUint32(a, v, true);
    case 'i64':
      return (a, v) => rt.dv.setBigInt64(a, BigInt.asIntN(64, BigInt(Math.trunc(v))), true);
    case 'u64':
      return (a, v) => rt.dv.setBigUint64(a, BigInt.asUintN(64, BigInt(Math.trunc(v))), true);
    case 'f32':
      return (a, v) => rt.dv.setFloat32(a, v, true);
    case 'f64':
      return (a, v) => rt.dv.setFloat64(a, v, true);
    case 'addr':
      return (a, v) => rt.memcpy(a, v, n, loc); // struct assignment: v is the source address
  }
}

/** `fr => *(T*)A(fr)` with the load inlined for the common kinds. */
export function memRead(rt: Runtime, t: CType, A: EF, loc: SourceLoc, safe: boolean): EF {
  const k = kindOf(t);
  if (k === 'addr') return A;
  const n = sizeOf(t);
  if (safe) {
    switch (k) {
      case 'u8':
        return (fr) => rt.mem[A(fr)];
      case 'i16':
        return (fr) => rt.dv.getInt16(A(fr), true);
      case 'u16':
        return (fr) => rt.dv.getUint16(A(fr), true);
      case 'i32':
        return (fr) => rt.dv.getInt32(A(fr), true);
      case 'u32':
        return (fr) => rt.dv.getUint32(A(fr), true);
    }
    const ld = rawLoad(rt, k);
    return (fr) => ld(A(fr));
  }
  switch (k) {
    case 'u8':
      return (fr) => {
        const a = A(fr);
        if (a < rt.lo || a >= rt.size) return outsideLoad(rt, k, a, 1, loc);
        return rt.mem[a];
      };
    case 'i16':
      return (fr) => {
        const a = A(fr);
        if (a < rt.lo || a > rt.size - 2) return outsideLoad(rt, k, a, 2, loc);
        return rt.dv.getInt16(a, true);
      };
    case 'u16':
      return (fr) => {
        const a = A(fr);
        if (a < rt.lo || a > rt.size - 2) return outsideLoad(rt, k, a, 2, loc);
        return rt.dv.getUint16(a, true);
      };
    case 'i32':
      return (fr) => {
        const a = A(fr);
        if (a < rt.lo || a > rt.size - 4) return outsideLoad(rt, k, a, 4, loc);
        return rt.dv.getInt32(a, true);
      };
    case 'u32':
      return (fr) => {
        const a = A(fr);
        if (a < rt.lo || a > rt.size - 4) return outsideLoad(rt, k, a, 4, loc);
        return rt.dv.getUint32(a, true);
      };
  }
  const ld = rawLoad(rt, k);
  return (fr) => {
    const a = A(fr);
    if (a < rt.lo || a > rt.size - n) return outsideLoad(rt, k, a, n, loc);
    return ld(a);
  };
}

/** `fr => *(T*)A(fr) = V(fr)` (V already converted to T); returns the stored value. */
export function memWrite(rt: Runtime, t: CType, A: EF, V: EF, loc: SourceLoc, safe: boolean): EF {
  const k = kindOf(t);
  const n = sizeOf(t);
  if (k === 'addr') {
    return (fr) => {
      const a = A(fr);
      rt.memcpy(a, V(fr), n, loc);
      return a;
    };
  }
  switch (k) {
    case 'u8':
    case 'i8':
    case 'b':
      if (safe)
        return (fr) => {
          const a = A(fr);
          const v = V(fr);
          if (rt.jf[a >>> 12] === 0) rt.wrote(a, 1);
          rt.mem[a] = v;
          return v;
        };
      return (fr) => {
        const a = A(fr);
        const v = V(fr);
        if (a < rt.lo || a >= rt.size) rt.storeOutside(a, 1, v, loc);
        else {
          if (rt.jf[a >>> 12] === 0) rt.wrote(a, 1);
          rt.mem[a] = v;
        }
        return v;
      };
    case 'i16':
    case 'u16':
      if (safe)
        return (fr) => {
          const a = A(fr);
          const v = V(fr);
          const f = rt.jf;
          if (f[a >>> 12] === 0 || f[(a + 1) >>> 12] === 0) rt.wrote(a, 2);
          rt.dv.setUint16(a, v, true);
          return v;
        };
      return (fr) => {
        const a = A(fr);
        const v = V(fr);
        if (a < rt.lo || a > rt.size - 2) rt.storeOutside(a, 2, v, loc);
        else {
          const f = rt.jf;
          if (f[a >>> 12] === 0 || f[(a + 1) >>> 12] === 0) rt.wrote(a, 2);
          rt.dv.setUint16(a, v, true);
        }
        return v;
      };
    case 'i32':
    case 'u32':
      if (safe)
        return (fr) => {
          const a = A(fr);
          const v = V(fr);
          const f = rt.jf;
          if (f[a >>> 12] === 0 || f[(a + 3) >>> 12] === 0) rt.wrote(a, 4);
          rt.dv.setUint32(a, v, true);
          return v;
        };
      return (fr) => {
        const a = A(fr);
        const v = V(fr);
        if (a < rt.lo || a > rt.size - 4) rt.storeOutside(a, 4, v, loc);
        else {
          const f = rt.jf;
          if (f[a >>> 12] === 0 || f[(a + 3) >>> 12] === 0) rt.wrote(a, 4);
          rt.dv.setUint32(a, v, true);
        }
        return v;
      };
  }
  const st = rawStore(rt, k, n, loc);
  return (fr) => {
    const a = A(fr);
    const v = V(fr);
    if (!safe && (a < rt.lo || a > rt.size - n)) rt.storeOutside(a, n, v, loc);
    else {
      journal(rt, a, n);
      st(a, v);
    }
    return v;
  };
}
