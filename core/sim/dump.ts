/**
 * `--dump SPACE:WHERE:COUNT:DTYPE[=FILE]` and `--load WHERE=FILE` (also used by run configurations):
 * parsing, address resolution (numbers, C globals `name+bytes`, PCORE variables `p.t.cls::var+words`),
 * and reading typed values out of the machine.
 */
import type { PcoreIndexView } from '../tprog/pcoreView';
import { NpyError } from '../common/npy';
import type { Machine } from './machine';

export type DumpDtype = 'u8' | 'i8' | 'u16' | 'i16' | 'u32' | 'i32' | 'f32' | 'word12';
export const DUMP_DTYPES: DumpDtype[] = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f32', 'word12'];
const SIZE: Record<DumpDtype, number> = { u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, f32: 4, word12: 1 };

export interface DumpSpec {
  space: 'MEM' | 'SCRATCH' | 'PCORE';
  process: 0 | 1;
  where: string;
  count: number;
  dtype: DumpDtype;
  file?: string;
  /** Shape of the .npy written (its product is `count`); default [count]. */
  shape?: number[];
  /** The text as given. */
  text: string;
}

export interface LoadSpec {
  where: string;
  file: string;
  text: string;
}

export class SpecError extends Error {}

function parseCount(s: string, what: string): number {
  if (!/^(0x[0-9a-f]+|\d+)$/i.test(s)) throw new SpecError(`${what} must be a number, got "${s}"`);
  const n = Number(s);
  if (n < 1 || !Number.isSafeInteger(n)) throw new SpecError(`${what} must be at least 1, got "${s}"`);
  return n;
}

/** Runs `f`; a SpecError or NpyError it throws gets `what: ` in front of its message (`--load TEXT`, `--dump TEXT`), once. */
export function labelled<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    const bare = what.replace(/^--\w+ /, '');
    if ((e instanceof SpecError || e instanceof NpyError) && !e.message.startsWith(what))
      e.message = `${what}: ${e.message.startsWith(bare + ': ') ? e.message.slice(bare.length + 2) : e.message}`;
    throw e;
  }
}

export function parseDump(text: string): DumpSpec {
  const eq = text.indexOf('=');
  const spec = eq >= 0 ? text.slice(0, eq) : text;
  const file = eq >= 0 ? text.slice(eq + 1) : undefined;
  if (file === '') throw new SpecError(`--dump ${text}: empty file name after "="`);
  const first = spec.indexOf(':');
  const last = spec.lastIndexOf(':');
  const prev = spec.lastIndexOf(':', last - 1);
  if (first < 0 || prev <= first) throw new SpecError(`--dump ${text}: expected SPACE:WHERE:COUNT:DTYPE[=FILE]`);
  const spaceText = spec.slice(0, first).toUpperCase();
  const where = spec.slice(first + 1, prev);
  const count = parseCount(spec.slice(prev + 1, last), `--dump ${text}: COUNT`);
  const dtype = spec.slice(last + 1).toLowerCase() as DumpDtype;
  const m = /^(MEM|SCRATCH|PCORE)(?:@([01]))?$/.exec(spaceText);
  if (!m || (m[2] && m[1] !== 'PCORE')) throw new SpecError(`--dump ${text}: SPACE must be MEM, SCRATCH, PCORE or PCORE@1, got "${spec.slice(0, first)}"`);
  if (!DUMP_DTYPES.includes(dtype)) throw new SpecError(`--dump ${text}: DTYPE must be one of ${DUMP_DTYPES.join(' ')}, got "${spec.slice(last + 1)}"`);
  if (m[1] === 'PCORE' && dtype !== 'word12' && dtype !== 'i16') throw new SpecError(`--dump ${text}: PCORE memory holds 12-bit words: use DTYPE word12`);
  if (!where) throw new SpecError(`--dump ${text}: WHERE is empty`);
  return { space: m[1] as DumpSpec['space'], process: (m[2] === '1' ? 1 : 0) as 0 | 1, where, count, dtype: m[1] === 'PCORE' ? 'word12' : dtype, file, text };
}

export function parseLoad(text: string): LoadSpec {
  const eq = text.indexOf('=');
  if (eq <= 0 || eq === text.length - 1) throw new SpecError(`--load ${text}: expected WHERE=FILE`);
  return { where: text.slice(0, eq), file: text.slice(eq + 1), text };
}

export interface Resolvers {
  /** C global or static: address and size in MEM. */
  global(name: string): { address: number; size: number } | undefined;
  pcore?: PcoreIndexView;
}

/** Resolves WHERE to an element index space: MEM/SCRATCH byte address, or PCORE word address (pcore*4096+thread*256+word; `shared` for _share). */
export function resolveWhere(space: DumpSpec['space'], where: string, r: Resolvers): { address: number; shared: boolean; limit?: number } {
  const num = /^(0x[0-9a-f]+|\d+)$/i.exec(where);
  if (num) return { address: Number(where), shared: false };
  if (space === 'PCORE') {
    const m = /^(\d+)\.(?:(\d+)\.)?([A-Za-z_]\w*::[\w.]+)(?:\+(\d+|0x[0-9a-f]+))?$/i.exec(where);
    if (!m) throw new SpecError(`PCORE location "${where}": expected a word address or pcore.thread.class::var / pcore.class::var with optional +words`);
    if (!r.pcore) throw new SpecError(`PCORE location "${where}": no PCORE program`);
    const look = r.pcore.lookupMember(m[3]);
    if (!look.ok) throw new SpecError(`PCORE location "${where}": ${look.message}`);
    const v = look.member;
    if (v.offset === undefined) throw new SpecError(`PCORE location "${where}": ${v.fullName} is not in PCORE memory`);
    const pcore = Number(m[1]);
    const shared = v.storage === 'shared';
    if (pcore > 7) throw new SpecError(`PCORE location "${where}": PCORE ${pcore} does not exist (0..7)`);
    if (shared && m[2] !== undefined) throw new SpecError(`PCORE location "${where}": ${v.fullName} is shared: write pcore.class::var`);
    if (!shared && m[2] === undefined) throw new SpecError(`PCORE location "${where}": ${v.fullName} is private: write pcore.thread.class::var`);
    const thread = m[2] === undefined ? 0 : Number(m[2]);
    if (thread > 15) throw new SpecError(`PCORE location "${where}": thread ${thread} does not exist (0..15)`);
    const plus = m[4] ? Number(m[4]) : 0;
    return { address: pcore * 4096 + (shared ? 0 : thread * 256) + v.offset + plus, shared, limit: v.len - plus };
  }
  const g = /^([A-Za-z_]\w*)(?:\+(\d+|0x[0-9a-f]+))?$/i.exec(where);
  if (!g) throw new SpecError(`location "${where}": expected a byte address or a C global name with optional +bytes`);
  const sym = r.global(g[1]);
  if (!sym) throw new SpecError(`location "${where}": no C global or static named ${g[1]}`);
  const plus = g[2] ? Number(g[2]) : 0;
  return { address: sym.address + plus, shared: false, limit: sym.size - plus };
}

/**
 * Reads `count` values of `dtype` at `address` of a space. Throws SpecError when out of range, or past the end of the global or
 * PCORE variable WHERE names (`limit`: its bytes, or words, from `address` on, as `resolveWhere` says).
 */
export function readValues(m: Machine, spec: DumpSpec, address: number, shared: boolean, limit?: number): number[] {
  if (limit !== undefined) {
    const need = spec.space === 'PCORE' ? spec.count : spec.count * SIZE[spec.dtype];
    const unit = spec.space === 'PCORE' ? 'words' : 'bytes';
    if (need > limit) throw new SpecError(`${spec.text}: ${need} ${unit} are more than ${spec.where} holds (${Math.max(0, limit)} ${unit})`);
  }
  if (spec.space === 'PCORE') {
    const arr = shared ? m.pages[spec.process].shared : m.pages[spec.process].priv;
    if (address < 0 || address + spec.count > arr.length)
      throw new SpecError(`${spec.text}: words ${address}..${address + spec.count - 1} are outside PCORE memory (${arr.length} words)`);
    return [...arr.subarray(address, address + spec.count)];
  }
  const buf = spec.space === 'MEM' ? m.mem : m.scratch;
  const el = SIZE[spec.dtype];
  if (address < 0 || address + spec.count * el > buf.length)
    throw new SpecError(
      `${spec.text}: bytes 0x${address.toString(16)}..0x${(address + spec.count * el - 1).toString(16)} are outside ${spec.space} (${buf.length} bytes)`,
    );
  const dv = new DataView(buf.buffer, buf.byteOffset + address, spec.count * el);
  const out: number[] = [];
  for (let i = 0; i < spec.count; i++) {
    switch (spec.dtype) {
      case 'u8':
        out.push(dv.getUint8(i));
        break;
      case 'i8':
        out.push(dv.getInt8(i));
        break;
      case 'u16':
        out.push(dv.getUint16(2 * i, true));
        break;
      case 'i16':
        out.push(dv.getInt16(2 * i, true));
        break;
      case 'u32':
        out.push(dv.getUint32(4 * i, true));
        break;
      case 'i32':
        out.push(dv.getInt32(4 * i, true));
        break;
      case 'f32':
        out.push(dv.getFloat32(4 * i, true));
        break;
      default:
        out.push(dv.getUint8(i));
    }
  }
  return out;
}

export const NPY_OF: Record<DumpDtype, 'u1' | 'i1' | 'u2' | 'i2' | 'u4' | 'i4' | 'f4'> = {
  u8: 'u1',
  i8: 'i1',
  u16: 'u2',
  i16: 'i2',
  u32: 'u4',
  i32: 'i4',
  f32: 'f4',
  word12: 'i2',
};
