/**
 * Shared by the transfer tests of mutation testing (mutant-engine-transfer*.test.ts): sides built by hand (as the
 * executor builds them from a term, without the parser) and an independent model of a transfer written from the
 * rules of research §6.2.3 (enumeration: a nested loop, leftmost level outermost), §6.3 (validity: each index in
 * 0..size−1, or ≥ 0 for an unchecked upper bound; a buffer limit N bytes makes locations ≥ N/elemSize invalid; the
 * last row of a partial-row tensor holds lastRow elements) and §6.4 (the destination's count is the length, PAD for
 * invalid or exhausted source elements, REPEAT, constants, conversions to and from 12-bit words, REMAP, multicast).
 * The model walks ordinal by ordinal with plain loops; it shares no code with core/sim/engine.
 */
import type { Descriptor, Level, LevelKind } from '../../../core/tprog/descriptor';
import type { DataType } from '../../../core/tprog/machineConstants';
import { Machine } from '../../../core/sim/machine';
import type { Side, SideSpace, TransferStats } from '../../../core/sim/engine/transfer';

export interface Lv {
  begin: number;
  step?: number;
  count: number;
  stride: number;
  size?: number;
  checkHigh?: boolean;
  kind?: LevelKind;
  dim?: number;
}

export interface SideSpec {
  space: SideSpace;
  dtype: DataType;
  /** MEM/SCRATCH: byte address of element 0; PCORE: word offset. */
  base?: number;
  levels?: Lv[];
  shared?: boolean;
  remap?: number;
  mcast?: number[];
  constValue?: number;
  bufLimit?: number;
  partial?: Descriptor['partial'];
  /** Element bytes written in the descriptor (defaults: 2 for INT16, else 1; 1 on word spaces). */
  elemBytes?: number;
}

const isWordSpace = (s: SideSpace) => s === 'PCORE' || s === 'SPU';

export function mkSide(s: SideSpec): Side {
  const levels: Level[] = (s.levels ?? []).map((l, k) => ({
    kind: l.kind ?? 'dim',
    label: `L${k}`,
    dim: l.dim ?? k,
    begin: l.begin,
    step: l.step ?? 1,
    count: l.count,
    stride: l.stride,
    size: l.size,
    checkHigh: l.checkHigh ?? true,
  }));
  const desc: Descriptor = {
    space: s.space === 'CONST' ? 'CONST' : s.space === 'SPU' ? 'SPU' : s.space === 'PCORE' ? 'PCORE' : s.space === 'SCRATCH' ? 'SCRATCH' : 'MEM',
    written: s.space,
    elemBytes: s.elemBytes ?? (isWordSpace(s.space) ? 1 : s.dtype === 'INT16' ? 2 : 1),
    base: s.base ?? 0,
    levels,
    total: levels.reduce((p, l) => p * (l.count ?? 0), 1),
    bufLimit: s.bufLimit,
    partial: s.partial,
    pad: undefined,
    repeat: false,
    problems: [],
  };
  const side: Side = { desc, space: s.space, dtype: s.dtype };
  if (s.shared) side.shared = true;
  if (s.remap !== undefined) side.remap = s.remap;
  if (s.mcast) side.mcast = s.mcast;
  if (s.constValue !== undefined) side.constValue = s.constValue;
  return side;
}

/** Element of a side: its location (element units from the base, or a word address on PCORE) and validity (§6.2.3, §6.3). */
export function elementsOf(s: SideSpec): { loc: number; valid: boolean }[] {
  const L = s.levels ?? [];
  const out: { loc: number; valid: boolean }[] = [];
  const digits = L.map(() => 0);
  const total = L.reduce((p, l) => p * l.count, 1);
  const elemBytes = s.elemBytes ?? (s.dtype === 'INT16' ? 2 : 1);
  for (let n = 0; n < total; n++) {
    let rest = n;
    for (let q = L.length - 1; q >= 0; q--) {
      digits[q] = rest % L[q].count;
      rest = Math.floor(rest / L[q].count);
    }
    let loc = s.space === 'PCORE' ? (s.base ?? 0) : 0;
    let valid = true;
    let rowIdx = -1;
    let colIdx = -1;
    L.forEach((l, q) => {
      const idx = l.begin + digits[q] * (l.step ?? 1);
      loc += idx * l.stride;
      if (idx < 0) valid = false;
      if ((l.checkHigh ?? true) && l.size !== undefined && idx > l.size - 1) valid = false;
      if (s.partial && (l.kind ?? 'dim') === 'dim' && (l.dim ?? q) === s.partial.rowLevelDim) rowIdx = idx;
      if (s.partial && (l.kind ?? 'dim') === 'dim' && (l.dim ?? q) === s.partial.colLevelDim) colIdx = idx;
    });
    if (s.bufLimit !== undefined && !isWordSpace(s.space) && loc >= Math.floor(s.bufLimit / elemBytes)) valid = false;
    if (s.partial && rowIdx === s.partial.rows! - 1 && colIdx >= s.partial.lastRow!) valid = false;
    out.push({ loc, valid });
  }
  return out;
}

/** The DATA register's view of a constant or PAD for a type (§6.4.1: low 8 bits for 8-bit types, low 16 for INT16). */
export function dataReg(v: number, t: DataType): number {
  if (t === 'INT16') return (v << 16) >> 16;
  if (t === 'INT8') return (v << 24) >> 24;
  return v & 0xff;
}

/** External element → 12-bit word (§6.4.2): zero-extend UINT8, sign-extend INT8, INT16 keeps the sign and the low 11 bits. */
function toWord12(raw: number, t: DataType): number {
  if (t === 'UINT8') return raw & 0xff;
  if (t === 'INT8') return (raw & 0x80 ? (raw & 0xff) - 256 : raw & 0xff) as number;
  const v = raw & 0xffff;
  return v & 0x8000 ? (v & 0x7ff) - 2048 : v & 0x7ff;
}

/** 12-bit word → external element value (§6.4.2): the low 8 bits for 8-bit types, sign-extended 12 → 16 bits for INT16. */
function fromWord12(w: number, t: DataType): number {
  if (t !== 'INT16') return w & 0xff;
  const v = w & 0xfff;
  return v & 0x800 ? v - 4096 : v;
}

/** REMAP (§6.4.3): k = (x & 0xFFF) >> 5, r = x & 31, y = wrap12(V + ((S·r + 16) >> 5)) with (S, V) = table[n & 3][k]. */
function remap12(x: number, spu: Int16Array, n: number): number {
  const k = (x & 0xfff) >> 5;
  const S = spu[(n & 3) * 256 + 2 * k];
  const V = spu[(n & 3) * 256 + 2 * k + 1];
  const y = (V + ((S * (x & 31) + 16) >> 5)) & 0xfff;
  return y & 0x800 ? y - 4096 : y;
}

export interface Expected {
  fault?: 'dst' | 'src';
  stats?: TransferStats;
}

function words(m: Machine, s: SideSpec, process: 0 | 1): Int16Array {
  if (s.space === 'SPU') return m.spu;
  return s.shared ? m.pages[process].shared : m.pages[process].priv;
}

export function spaceOf(s: SideSpec, process: number): string {
  return s.space === 'PCORE' ? `PCORE${process}${s.shared ? 'S' : ''}` : s.space;
}

/**
 * Runs the model of `dst <= src` on `m` (changed in place) for ordinals from..to−1 of the destination, and returns its
 * statistics, or the side whose valid element lies outside its space (then `m` is left as it was).
 */
export function modelTransfer(m: Machine, process: 0 | 1, dst: SideSpec, src: SideSpec, pad: number, repeat: boolean, from = 0, to?: number): Expected {
  const D = elementsOf(dst);
  const S = src.space === 'CONST' ? [] : elementsOf(src);
  const end = to ?? D.length;
  const dWord = isWordSpace(dst.space);
  const sWord = src.space === 'PCORE';
  const dEl = dWord ? 1 : (dst.elemBytes ?? (dst.dtype === 'INT16' ? 2 : 1));
  const sEl = sWord ? 1 : (src.elemBytes ?? (src.dtype === 'INT16' ? 2 : 1));
  const mc = dst.mcast ?? [0];
  const dBytes = dst.space === 'SCRATCH' ? m.scratch : m.mem;
  const sBytes = src.space === 'SCRATCH' ? m.scratch : m.mem;
  const dW = dWord ? words(m, dst, process) : undefined;
  const sW = sWord ? words(m, src, process) : undefined;
  const dAddr = (loc: number) => (dWord ? loc : (dst.base ?? 0) + loc * dEl);
  const sAddr = (loc: number) => (sWord ? loc : (src.base ?? 0) + loc * sEl);
  // which source element each ordinal reads (undefined: PAD from exhaustion or a constant)
  const srcOf = (n: number) => (src.space === 'CONST' ? undefined : n < S.length || repeat ? S[n % S.length] : undefined);
  // bounds first: nothing moves when a side is at fault
  for (let n = from; n < end; n++) {
    if (!D[n].valid) continue;
    for (const o of mc) {
      const a = dAddr(D[n].loc) + o;
      if (a < 0 || a + dEl > (dW ? dW.length : dBytes.length)) return { fault: 'dst' };
    }
  }
  for (let n = from; n < end; n++) {
    const e = srcOf(n);
    if (!e || !e.valid) continue;
    const a = sAddr(e.loc);
    if (a < 0 || a + sEl > (sW ? sW.length : sBytes.length)) return { fault: 'src' };
  }
  const padV = dataReg(pad, src.dtype);
  const stats: TransferStats = { elements: end - from, padded: 0, skipped: 0 };
  const reads: number[] = [];
  const writes: number[] = [];
  for (let n = from; n < end; n++) {
    let raw: number;
    let word = false;
    const e = srcOf(n);
    if (src.space === 'CONST') raw = dataReg(src.constValue ?? 0, src.dtype);
    else if (!e || !e.valid) {
      raw = padV;
      stats.padded++;
    } else {
      const a = sAddr(e.loc);
      reads.push(a);
      if (sW) {
        raw = sW[a];
        if (src.remap !== undefined && src.remap >= 0) raw = remap12(raw, m.spu, src.remap);
        word = true;
      } else raw = sEl === 1 ? sBytes[a] : sBytes[a] | (sBytes[a + 1] << 8);
    }
    if (!D[n].valid) {
      stats.skipped++;
      continue;
    }
    const a = dAddr(D[n].loc);
    if (dW) {
      let w = word ? raw : toWord12(raw, src.dtype);
      if (dst.space === 'PCORE' && dst.remap !== undefined && dst.remap >= 0) w = remap12(w, m.spu, dst.remap);
      for (const o of mc) {
        dW[a + o] = w;
        writes.push(a + o);
      }
    } else {
      const v = word ? fromWord12(raw, dst.dtype) : raw;
      dBytes[a] = v & 0xff;
      if (dEl === 2) dBytes[a + 1] = (v >> 8) & 0xff;
      writes.push(a);
    }
  }
  if (reads.length) stats.read = { space: spaceOf(src, process), lo: Math.min(...reads), hi: Math.max(...reads) + sEl - 1, count: reads.length * sEl };
  if (writes.length) stats.written = { space: spaceOf(dst, process), lo: Math.min(...writes), hi: Math.max(...writes) + dEl - 1, count: writes.length * dEl };
  return { stats };
}

/** Every memory of a machine, copied (to compare two runs). */
export function snapshot(m: Machine): {
  mem: Uint8Array;
  scratch: Uint8Array;
  p0: Int16Array;
  p0s: Int16Array;
  p1: Int16Array;
  p1s: Int16Array;
  spu: Int16Array;
} {
  return {
    mem: m.mem.slice(),
    scratch: m.scratch.slice(),
    p0: m.pages[0].priv.slice(),
    p0s: m.pages[0].shared.slice(),
    p1: m.pages[1].priv.slice(),
    p1s: m.pages[1].shared.slice(),
    spu: m.spu.slice(),
  };
}

/** Fills every memory of `m` from a seeded xorshift (bytes 0..255, words −2048..2047): one pass, fast. */
export function scramble(m: Machine, seed: number): void {
  let x = seed | 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  for (const b of [m.mem, m.scratch]) for (let i = 0; i < b.length; i++) b[i] = next() & 0xff;
  for (const w of [m.pages[0].priv, m.pages[0].shared, m.pages[1].priv, m.pages[1].shared, m.spu])
    for (let i = 0; i < w.length; i++) w[i] = (next() & 0xfff) - 2048;
}
