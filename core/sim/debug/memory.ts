/**
 * The machine's memories as a debugger sees them: the spaces by name, `SPACE:ADDRESS` references
 * (what DAP `memoryReference`s carry), and C scalars in MEM read and written little-endian with
 * their bounds checked (a debugger must not fault the program).
 */
import type { CType } from '../host/ctypes';
import type { Machine } from '../machine';
import { spaceBuffer, spaceDef } from '../spaces';

const hex8 = (v: number) => '0x' + (v >>> 0).toString(16).padStart(8, '0');

export class MemoryView {
  constructor(private readonly m: Machine) {}

  /** A space by name, any case (`PCORE` is PCORE0); PCORE and SPU spaces hold 12-bit words. */
  space(name: string): Uint8Array | Int16Array | undefined {
    const n = name.toUpperCase();
    const def = spaceDef(n === 'PCORE' ? 'PCORE0' : n);
    return def && spaceBuffer(this.m, def.name);
  }

  /** `SPACE` or `SPACE:ADDRESS` (bytes; PCORE spaces: 2 bytes per word) → the space's bytes and the address. */
  ref(ref: string, offset: number): { bytes: Uint8Array; words: Int16Array | undefined; addr: number } {
    const m = /^\s*([A-Z0-9]+)(?::\s*(0x[0-9a-f]+|\d+))?\s*$/i.exec(ref);
    const buf = m ? this.space(m[1]) : undefined;
    if (!m || !buf) throw new Error(`unknown memory reference '${ref}' (use MEM, SCRATCH, SPU, PCORE0, PCORE0S, PCORE1, PCORE1S, optionally :ADDRESS)`);
    const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    return { bytes, words: buf instanceof Int16Array ? buf : undefined, addr: (m[2] ? Number(m[2]) : 0) + offset };
  }

  /** Up to `count` bytes at a reference: the readable part, where it starts, how many were not readable. */
  read(ref: string, offset: number, count: number): { addr: number; data: Uint8Array; unreadable: number } {
    const { bytes, addr } = this.ref(ref, offset);
    count = Math.max(0, Math.min(count, 1 << 24));
    const lo = Math.max(0, Math.min(addr, bytes.length));
    const hi = Math.max(lo, Math.min(addr + count, bytes.length));
    const skipped = Math.max(0, Math.min(count, lo - addr));
    const data = bytes.subarray(lo, hi);
    return { addr: addr + skipped, data, unreadable: count - data.length };
  }

  /** Writes bytes at a reference (PCORE and SPU words stay 12-bit); returns how many were written. */
  write(ref: string, offset: number, data: Uint8Array, allowPartial: boolean): number {
    const { bytes, words, addr } = this.ref(ref, offset);
    if (addr < 0 || addr + data.length > bytes.length) {
      if (!allowPartial || addr < 0 || addr >= bytes.length)
        throw new Error(`cannot write ${data.length} bytes at ${hex8(addr)} (the space has ${bytes.length} bytes)`);
    }
    const n = Math.min(data.length, bytes.length - addr);
    bytes.set(data.subarray(0, n), addr);
    // PCORE and SPU words are 12-bit signed
    if (words) for (let i = addr >> 1; i < (addr + n + 1) >> 1; i++) words[i] = (words[i] << 20) >> 20;
    return n;
  }

  /** `n` bytes at `a` are inside MEM. */
  valid(a: number, n: number): boolean {
    return a >= 0 && a + n <= this.m.mem.length;
  }

  /** A C scalar (integer, float, pointer) at MEM address `a`. */
  load(t: CType, a: number): number {
    const size = t.k === 'ptr' ? 4 : t.k === 'int' || t.k === 'float' ? t.size : 0;
    if (!this.valid(a, size)) throw new Error(`cannot read ${size} bytes at ${hex8(a)}`);
    const dv = new DataView(this.m.mem.buffer, this.m.mem.byteOffset);
    if (t.k === 'ptr') return dv.getUint32(a, true);
    if (t.k === 'float') return t.size === 4 ? dv.getFloat32(a, true) : dv.getFloat64(a, true);
    if (t.k !== 'int') return NaN;
    if (t.bool) return dv.getUint8(a) !== 0 ? 1 : 0;
    switch (t.size) {
      case 1:
        return t.signed ? dv.getInt8(a) : dv.getUint8(a);
      case 2:
        return t.signed ? dv.getInt16(a, true) : dv.getUint16(a, true);
      case 4:
        return t.signed ? dv.getInt32(a, true) : dv.getUint32(a, true);
      default:
        return (t.signed ? dv.getInt32(a + 4, true) : dv.getUint32(a + 4, true)) * 4294967296 + dv.getUint32(a, true);
    }
  }

  /** Stores a C scalar at MEM address `a`. */
  store(t: CType, a: number, v: number): void {
    const size = t.k === 'ptr' ? 4 : t.k === 'int' || t.k === 'float' ? t.size : 0;
    if (!this.valid(a, size)) throw new Error(`cannot write ${size} bytes at ${hex8(a)}`);
    const dv = new DataView(this.m.mem.buffer, this.m.mem.byteOffset);
    if (t.k === 'ptr') dv.setUint32(a, v >>> 0, true);
    else if (t.k === 'float') {
      if (t.size === 4) dv.setFloat32(a, v, true);
      else dv.setFloat64(a, v, true);
    } else if (t.k === 'int') {
      switch (t.size) {
        case 1:
          dv.setUint8(a, v & 255);
          break;
        case 2:
          dv.setUint16(a, v & 65535, true);
          break;
        case 4:
          dv.setUint32(a, v >>> 0, true);
          break;
        default: {
          const b = BigInt.asUintN(64, BigInt(Math.trunc(v)));
          dv.setBigUint64(a, b, true);
        }
      }
    }
  }

  /** Copies `n` bytes of MEM from `src` to `dst` (a struct assignment). */
  copy(dst: number, src: number, n: number): void {
    this.m.mem.copyWithin(dst, src, src + n);
  }

  /** The C string at `a`, at most `max` characters (`…` when longer), non-printables escaped. */
  cstring(a: number, max: number): string {
    const mem = this.m.mem;
    let s = '';
    for (let i = 0; i < max && a + i < mem.length; i++) {
      const c = mem[a + i];
      if (c === 0) return s;
      s += c >= 32 && c < 127 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
    }
    return s + '…';
  }
}
