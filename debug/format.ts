/** How the debug target writes values, addresses, memory references and paths in its DAP answers. */
import type { CType } from '../core/sim/debug';

export const hex8 = (v: number) => '0x' + (v >>> 0).toString(16).padStart(8, '0');

/** A C scalar: `true`/`false`, hex with the type's width, a char with its character, else the number. */
export function fmtScalar(t: CType, v: number, hex: boolean): string {
  if (t.k === 'float') return String(v);
  if (t.k !== 'int') return String(v);
  if (t.bool) return v ? 'true' : 'false';
  if (hex) {
    const bits = t.size * 8;
    const u = v < 0 ? (bits >= 32 ? (bits === 32 ? v >>> 0 : v + 2 ** bits) : v + 2 ** bits) : v;
    return '0x' + u.toString(16).padStart(t.size * 2, '0');
  }
  if (t.size === 1 && /char/.test(t.name)) {
    const c = v & 255;
    return `${v} '${c >= 32 && c < 127 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`}'`;
  }
  return String(v);
}

/** A memory reference (readMemory) at an element of a space: bytes of MEM/SCRATCH, words (2 bytes each) of PCORE/SPU. */
export function memRefOf(space: string, at: number): string {
  return space.startsWith('PCORE') || space === 'SPU' ? `${space}:${at * 2}` : `${space}:${hex8(at)}`;
}

/** The memory reference of a tensor variable's base (`PCORE` words are process 0's page). */
export function spaceRef(space: string, base: number, shared?: boolean): string {
  if (space === 'PCORE') return `PCORE0${shared ? 'S' : ''}:${base * 2}`;
  return `${space}:${hex8(base)}`;
}

export function baseName(p: string): string {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}

/** Same file, whatever the slashes and the case of a Windows drive letter. */
export function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  const n = (p: string) => p.replace(/\\/g, '/').replace(/^([a-z]):/i, (_m, d: string) => d.toLowerCase() + ':');
  return n(a) === n(b);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function toBase64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 3) {
    const x = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    s += B64[(x >> 18) & 63] + B64[(x >> 12) & 63] + (i + 1 < b.length ? B64[(x >> 6) & 63] : '=') + (i + 2 < b.length ? B64[x & 63] : '=');
  }
  return s;
}

export function fromBase64(s: string): Uint8Array {
  const clean = s.replace(/[^A-Za-z0-9+/]/g, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < clean.length; i += 4) {
    const v = [0, 1, 2, 3].map((k) => (i + k < clean.length ? B64.indexOf(clean[i + k]) : 0));
    const x = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
    if (o < out.length) out[o++] = (x >> 16) & 255;
    if (o < out.length && i + 2 < clean.length) out[o++] = (x >> 8) & 255;
    if (o < out.length && i + 3 < clean.length) out[o++] = x & 255;
  }
  return out.subarray(0, o);
}
