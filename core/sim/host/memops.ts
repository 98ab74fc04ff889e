/**
 * Typed MEM loads and stores (little-endian) as closures; `safe` accesses (named locals and
 * globals, whose addresses come from the allocator) skip the bounds check.
 */
import type { SourceLoc } from '../types';
import { sizeOf, type CType } from './ctypes';
import type { EF, Runtime } from './runtime';

export type Kind = 'i8' | 'u8' | 'b' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f32' | 'f64' | 'addr';

export function kindOf(t: CType): Kind {
  switch (t.k) {
    case 'int':
      if (t.bool) return 'b';
      switch (t.size) {
        case 1: return t.signed ? 'i8' : 'u8';
        case 2: return t.signed ? 'i16' : 'u16';
        case 4: return t.signed ? 'i32' : 'u32';
        default: return t.signed ? 'i64' : 'u64';
      }
    case 'float': return t.size === 4 ? 'f32' : 'f64';
    case 'ptr': return 'u32';
    default: return 'addr'; // arrays, structs, functions: the value is the address
  }
}

/** A loader `(addr) => value` for type `t`. */
export function loader(rt: Runtime, t: CType, loc: SourceLoc, safe: boolean): (a: number) => number {
  const k = kindOf(t);
  const n = k === 'addr' ? 0 : sizeOf(t);
  const raw = rawLoad(rt, k);
  if (safe || n === 0) return raw;
  return (a) => {
    if (a < rt.lo || a > rt.size - n) rt.badAddr(a, n, loc, 'read');
    return raw(a);
  };
}

function rawLoad(rt: Runtime, k: Kind): (a: number) => number {
  switch (k) {
    case 'i8': return (a) => rt.dv.getInt8(a);
    case 'u8': return (a) => rt.mem[a];
    case 'b': return (a) => (rt.mem[a] !== 0 ? 1 : 0);
    case 'i16': return (a) => rt.dv.getInt16(a, true);
    case 'u16': return (a) => rt.dv.getUint16(a, true);
    case 'i32': return (a) => rt.dv.getInt32(a, true);
    case 'u32': return (a) => rt.dv.getUint32(a, true);
    case 'i64': return (a) => Number(rt.dv.getBigInt64(a, true));
    case 'u64': return (a) => Number(rt.dv.getBigUint64(a, true));
    case 'f32': return (a) => rt.dv.getFloat32(a, true);
    case 'f64': return (a) => rt.dv.getFloat64(a, true);
    case 'addr': return (a) => a;
  }
}

/** A storer `(addr, value)` for type `t` (value already normalised). */
export function storer(rt: Runtime, t: CType, loc: SourceLoc, safe: boolean): (a: number, v: number) => void {
  const k = kindOf(t);
  const n = sizeOf(t);
  const raw = rawStore(rt, k, n, loc);
  if (safe) return raw;
  return (a, v) => {
    if (a < rt.lo || a > rt.size - n) rt.badAddr(a, n, loc, 'write');
    raw(a, v);
  };
}

function rawStore(rt: Runtime, k: Kind, n: number, loc: SourceLoc): (a: number, v: number) => void {
  switch (k) {
    case 'i8': case 'u8': case 'b': return (a, v) => { rt.mem[a] = v; };
    case 'i16': case 'u16': return (a, v) => rt.dv.setUint16(a, v, true);
    case 'i32': case 'u32': return (a, v) => rt.dv.setUint32(a, v, true);
    case 'i64': return (a, v) => rt.dv.setBigInt64(a, BigInt.asIntN(64, BigInt(Math.trunc(v))), true);
    case 'u64': return (a, v) => rt.dv.setBigUint64(a, BigInt.asUintN(64, BigInt(Math.trunc(v))), true);
    case 'f32': return (a, v) => rt.dv.setFloat32(a, v, true);
    case 'f64': return (a, v) => rt.dv.setFloat64(a, v, true);
    case 'addr': return (a, v) => rt.memcpy(a, v, n, loc); // struct assignment: v is the source address
  }
}

/** `fr => *(T*)A(fr)` with the load inlined for the common kinds. */
export function memRead(rt: Runtime, t: CType, A: EF, loc: SourceLoc, safe: boolean): EF {
  const k = kindOf(t);
  if (k === 'addr') return A;
  const n = sizeOf(t);
  if (safe) {
    switch (k) {
      case 'u8': return (fr) => rt.mem[A(fr)];
      case 'i16': return (fr) => rt.dv.getInt16(A(fr), true);
      case 'u16': return (fr) => rt.dv.getUint16(A(fr), true);
      case 'i32': return (fr) => rt.dv.getInt32(A(fr), true);
      case 'u32': return (fr) => rt.dv.getUint32(A(fr), true);
    }
    const ld = rawLoad(rt, k);
    return (fr) => ld(A(fr));
  }
  switch (k) {
    case 'u8':
      return (fr) => {
        const a = A(fr);
        if (a < rt.lo || a >= rt.size) rt.badAddr(a, 1, loc, 'read');
        return rt.mem[a];
      };
    case 'i16':
      return (fr) => {
        const a = A(fr);
        if (a < rt.lo || a > rt.size - 2) rt.badAddr(a, 2, loc, 'read');
        return rt.dv.getInt16(a, true);
      };
    case 'u16':
      return (fr) => {
        const a = A(fr);
        if (a < rt.lo || a > rt.size - 2) rt.badAddr(a, 2, loc, 'read');
        return rt.dv.getUint16(a, true);
      };
    case 'i32':
      return (fr) => {
        const a = A(fr);
        if (a < rt.lo || a > rt.size - 4) rt.badAddr(a, 4, loc, 'read');
        return rt.dv.getInt32(a, true);
      };
    case 'u32':
      return (fr) => {
        const a = A(fr);
        if (a < rt.lo || a > rt.size - 4) rt.badAddr(a, 4, loc, 'read');
        return rt.dv.getUint32(a, true);
      };
  }
  const ld = rawLoad(rt, k);
  return (fr) => {
    const a = A(fr);
    if (a < rt.lo || a > rt.size - n) rt.badAddr(a, n, loc, 'read');
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
  if (safe) {
    switch (k) {
      case 'u8': case 'i8': case 'b':
        return (fr) => {
          const a = A(fr);
          const v = V(fr);
          rt.mem[a] = v;
          return v;
        };
      case 'i16': case 'u16':
        return (fr) => {
          const a = A(fr);
          const v = V(fr);
          rt.dv.setUint16(a, v, true);
          return v;
        };
      case 'i32': case 'u32':
        return (fr) => {
          const a = A(fr);
          const v = V(fr);
          rt.dv.setUint32(a, v, true);
          return v;
        };
    }
  }
  const st = rawStore(rt, k, n, loc);
  return (fr) => {
    const a = A(fr);
    const v = V(fr);
    if (!safe && (a < rt.lo || a > rt.size - n)) rt.badAddr(a, n, loc, 'write');
    st(a, v);
    return v;
  };
}
