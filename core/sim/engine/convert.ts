/** Element conversions between external (MEM/SCRATCH/constant) elements and 12-bit PCORE words (research §6.4.2). */
import type { DataType } from '../../tprog/machineConstants';

/** External element value (as read from bytes) → 12-bit PCORE word. */
export function toWord(v: number, t: DataType): number {
  if (t === 'UINT8') return v & 0xff;
  if (t === 'INT8') return (v << 24) >> 24;
  // INT16: VHDL signed resize 16 → 12: keep the sign bit and the low 11 bits
  const x = (v << 16) >> 16;
  return x < 0 ? (x & 0x7ff) - 2048 : x & 0x7ff;
}

/** 12-bit PCORE word → external element value (the value whose low bytes are stored). */
export function fromWord(w: number, t: DataType): number {
  if (t === 'UINT8') return w & 0xff;
  if (t === 'INT8') return ((w & 0xff) << 24) >> 24;
  return (w << 20) >> 20; // sign-extend 12 → 16
}

/** Wraps to a 12-bit signed word. */
export function wrap12(v: number): number {
  return ((v & 0xfff) << 20) >> 20;
}

/** Low bits of a constant/PAD value as the DATA register holds them for the type. */
export function dataValue(v: number, t: DataType): number {
  if (t === 'INT16') return (v << 16) >> 16;
  if (t === 'INT8') return (v << 24) >> 24;
  return v & 0xff;
}

/** REMAP stream lookup with interpolation on a 12-bit value (research §6.4.3). */
export function remap(x: number, spu: Int16Array, stream: number): number {
  const k = (x & 0xfff) >> 5;
  const r = x & 31;
  const base = (stream & 3) * 256 + k * 2;
  const slope = spu[base];
  const value = spu[base + 1];
  return wrap12(value + ((slope * r + 16) >> 5));
}
