/**
 * C types of the host interpreter (RV32 ILP32: int/long/pointers 4 bytes, long long 8 bytes,
 * plain char unsigned as in the RISC-V ABI), layout with natural alignment, and the value
 * normalisers that give every JS number the range of its C type.
 */

export interface VoidT {
  k: 'void';
}
export interface IntT {
  k: 'int';
  size: 1 | 2 | 4 | 8;
  signed: boolean;
  name: string;
  bool?: boolean;
}
export interface FloatT {
  k: 'float';
  size: 4 | 8;
  name: string;
}
export interface PtrT {
  k: 'ptr';
  to: CType;
}
export interface ArrT {
  k: 'arr';
  of: CType;
  /** Element count; undefined for an incomplete array (`int a[]`). */
  n: number | undefined;
}
export interface Field {
  name: string;
  t: CType;
  off: number;
}
export interface StructT {
  k: 'struct';
  tag?: string;
  union: boolean;
  fields: Field[];
  size: number;
  align: number;
  complete: boolean;
}
export interface FnT {
  k: 'fn';
  ret: CType;
  /** undefined: `f()` declared without a prototype. */
  params: CType[] | undefined;
  variadic: boolean;
}
export type CType = VoidT | IntT | FloatT | PtrT | ArrT | StructT | FnT;

export const VOID: VoidT = { k: 'void' };
const int = (size: 1 | 2 | 4 | 8, signed: boolean, name: string, bool?: boolean): IntT => ({ k: 'int', size, signed, name, bool });
export const BOOL = int(1, false, '_Bool', true);
export const SCHAR = int(1, true, 'signed char');
export const UCHAR = int(1, false, 'unsigned char');
export const SHORT = int(2, true, 'short');
export const USHORT = int(2, false, 'unsigned short');
export const INT = int(4, true, 'int');
export const UINT = int(4, false, 'unsigned int');
export const LONG = int(4, true, 'long');
export const ULONG = int(4, false, 'unsigned long');
export const LLONG = int(8, true, 'long long');
export const ULLONG = int(8, false, 'unsigned long long');
export const FLOAT: FloatT = { k: 'float', size: 4, name: 'float' };
export const DOUBLE: FloatT = { k: 'float', size: 8, name: 'double' };

export function charType(signed: boolean): IntT {
  return int(1, signed, 'char');
}

export const ptr = (to: CType): PtrT => ({ k: 'ptr', to });
export const arr = (of: CType, n: number | undefined): ArrT => ({ k: 'arr', of, n });

/** Names tree-sitter-c reports as `primitive_type`. */
export function primitive(name: string, char: IntT): CType | undefined {
  // the <stdint.h> exact-width types: their size and signedness are in their names
  const fixed = /^(u?)int(8|16|32|64)_t$/.exec(name);
  if (fixed) return int((Number(fixed[2]) / 8) as 1 | 2 | 4 | 8, !fixed[1], name);
  switch (name) {
    case 'void':
      return VOID;
    case 'char':
      return char;
    case 'int':
      return INT;
    case 'short':
      return SHORT;
    case 'long':
      return LONG;
    case 'float':
      return FLOAT;
    case 'double':
      return DOUBLE;
    case 'bool':
    case '_Bool':
      return BOOL;
    case 'size_t':
    case 'uintptr_t':
      return int(4, false, name);
    case 'ssize_t':
    case 'ptrdiff_t':
    case 'intptr_t':
      return int(4, true, name);
    case 'char16_t':
      return int(2, false, name);
    case 'char32_t':
      return int(4, false, name);
  }
  return undefined;
}

export function sizeOf(t: CType): number {
  switch (t.k) {
    case 'void':
      return 1; // GNU: sizeof(void) == 1, void* arithmetic in bytes
    case 'int':
    case 'float':
      return t.size;
    case 'ptr':
      return 4;
    case 'arr':
      return t.n === undefined ? 0 : t.n * sizeOf(t.of);
    case 'struct':
      return t.size;
    case 'fn':
      return 1;
  }
}

export function alignOf(t: CType): number {
  switch (t.k) {
    case 'void':
    case 'fn':
      return 1;
    case 'int':
    case 'float':
      return t.size;
    case 'ptr':
      return 4;
    case 'arr':
      return alignOf(t.of);
    case 'struct':
      return t.align;
  }
}

export const alignUp = (n: number, a: number): number => Math.ceil(n / a) * a;

/** Lays out a struct/union (fields given in order); returns the completed type. */
export function layout(s: StructT, fields: { name: string; t: CType }[]): StructT {
  let off = 0;
  let align = 1;
  let size = 0;
  s.fields = [];
  for (const f of fields) {
    const a = alignOf(f.t);
    align = Math.max(align, a);
    if (s.union) {
      s.fields.push({ name: f.name, t: f.t, off: 0 });
      size = Math.max(size, sizeOf(f.t));
    } else {
      off = alignUp(off, a);
      s.fields.push({ name: f.name, t: f.t, off });
      off += sizeOf(f.t);
      size = off;
    }
  }
  s.align = align;
  s.size = alignUp(size, align);
  s.complete = true;
  return s;
}

export const isInt = (t: CType): t is IntT => t.k === 'int';
export const isArith = (t: CType): t is IntT | FloatT => t.k === 'int' || t.k === 'float';
export const isPtr = (t: CType): t is PtrT => t.k === 'ptr';
export const isScalar = (t: CType): boolean => t.k === 'int' || t.k === 'float' || t.k === 'ptr';

export function typeName(t: CType): string {
  switch (t.k) {
    case 'void':
      return 'void';
    case 'int':
    case 'float':
      return t.name;
    case 'ptr':
      return t.to.k === 'fn' ? `${typeName(t.to.ret)} (*)(…)` : `${typeName(t.to)} *`;
    case 'arr':
      return `${typeName(t.of)} [${t.n ?? ''}]`;
    case 'struct':
      return `${t.union ? 'union' : 'struct'} ${t.tag ?? '<anonymous>'}`;
    case 'fn':
      return `${typeName(t.ret)} (…)`;
  }
}

/** Integer promotion (everything narrower than int becomes int). */
export function promote(t: IntT): IntT {
  return t.size < 4 ? INT : t;
}

/** Usual arithmetic conversions. */
export function common(a: IntT | FloatT, b: IntT | FloatT): IntT | FloatT {
  if (a.k === 'float' || b.k === 'float') {
    if ((a.k === 'float' && a.size === 8) || (b.k === 'float' && b.size === 8)) return DOUBLE;
    return FLOAT;
  }
  const pa = promote(a);
  const pb = promote(b);
  const size = Math.max(pa.size, pb.size) as 4 | 8;
  const unsigned = (pa.size === size && !pa.signed) || (pb.size === size && !pb.signed);
  if (size === 8) return unsigned ? ULLONG : LLONG;
  return unsigned ? UINT : INT;
}

const TWO32 = 4294967296;
const TWO64 = 18446744073709551616;

/** Normaliser of values of type `t` (undefined: identity). */
export function normalizer(t: CType): ((v: number) => number) | undefined {
  switch (t.k) {
    case 'int':
      if (t.bool) return (v) => (v !== 0 ? 1 : 0);
      switch (t.size) {
        case 1:
          return t.signed ? (v) => (v << 24) >> 24 : (v) => v & 255;
        case 2:
          return t.signed ? (v) => (v << 16) >> 16 : (v) => v & 65535;
        case 4:
          return t.signed ? (v) => v | 0 : (v) => v >>> 0;
        case 8:
          return t.signed ? wrapI64 : wrapU64;
      }
      break;
    case 'float':
      return t.size === 4 ? Math.fround : undefined;
    case 'ptr':
      return (v) => v >>> 0;
  }
  return undefined;
}

/** 64-bit values are JS doubles: exact up to 2^53, wrapped modulo 2^64 beyond (then rounded). */
export function wrapI64(v: number): number {
  v = Math.trunc(v);
  if (v >= -9007199254740991 && v <= 9007199254740991) return v;
  if (!Number.isFinite(v)) return 0;
  return Number(BigInt.asIntN(64, BigInt(v)));
}
export function wrapU64(v: number): number {
  v = Math.trunc(v);
  if (v >= 0 && v <= 9007199254740991) return v;
  if (!Number.isFinite(v)) return 0;
  if (v < 0 && v >= -9007199254740991) return v + TWO64;
  return Number(BigInt.asUintN(64, BigInt(v)));
}
export { TWO32 };

/** True when every value of `from` is a value of `to` (conversion is the identity). */
export function widens(from: CType, to: CType): boolean {
  if (to.k === 'float' && to.size === 8) return from.k === 'int' ? from.size <= 4 : from.k === 'float';
  if (to.k === 'float') return from.k === 'float' && from.size === 4;
  if (to.k === 'ptr') return from.k === 'ptr' || from.k === 'arr' || from.k === 'fn' || (from.k === 'int' && !from.signed && from.size <= 4);
  if (to.k !== 'int' || from.k === 'float') return false;
  if (to.bool) return from.k === 'int' && !!from.bool;
  const f: IntT | undefined = from.k === 'int' ? from : from.k === 'ptr' || from.k === 'arr' || from.k === 'fn' ? UINT : undefined;
  if (!f) return false;
  if (f.signed === to.signed) return f.size <= to.size;
  if (!f.signed && to.signed) return f.size < to.size;
  return false;
}

export function sameType(a: CType, b: CType): boolean {
  if (a === b) return true;
  if (a.k !== b.k) return false;
  switch (a.k) {
    case 'int':
      return a.size === (b as IntT).size && a.signed === (b as IntT).signed && !!a.bool === !!(b as IntT).bool;
    case 'float':
      return a.size === (b as FloatT).size;
    case 'ptr':
      return sameType(a.to, (b as PtrT).to);
    case 'arr':
      return a.n === (b as ArrT).n && sameType(a.of, (b as ArrT).of);
    default:
      return false;
  }
}
