/**
 * Executes one transfer `dst <= src` on the machine (research §6.4): pairing by ordinal, destination count
 * as the length, PAD for invalid or exhausted source elements, skipped invalid writes, REPEAT, constants,
 * 8/16-bit ↔ 12-bit conversions, REMAP, `[*]` multicast.
 */
import type { DataType } from '../../tprog/machineConstants';
import type { Descriptor } from '../../tprog/descriptor';
import type { SpaceHistory } from '../history';
import type { Machine } from '../machine';
import type { Touched } from '../../protocol/trace';
import { byteAddress } from '../../common/address';
import { faultAddress, sideFault } from '../types';
import { dataValue, fromWord, remap, toWord } from './convert';
import { Walker, type Cursor } from './walk';

export type SideSpace = 'MEM' | 'SCRATCH' | 'PCORE' | 'SPU' | 'PROG' | 'CONST';

export interface Side {
  desc: Descriptor;
  space: SideSpace;
  dtype: DataType;
  shared?: boolean;
  /** REMAP stream (≥ 0) applied on the PCORE side. */
  remap?: number;
  /** Extra word offsets a broadcast destination element is also written to. */
  mcast?: number[];
  /** Constant source value. */
  constValue?: number;
}

export interface TransferStats {
  elements: number;
  padded: number;
  skipped: number;
  read?: Touched;
  written?: Touched;
}

export interface EngineContext {
  m: Machine;
  process: 0 | 1;
  history?: (space: string) => SpaceHistory | undefined;
}

const CHUNK = 1 << 16;

/** The memory space name of a side (`MEM`, `SCRATCH`, `SPU`, `PCORE0`, `PCORE1S`, …). */
export function spaceName(s: Side, process: number): string {
  if (s.space === 'PCORE') return `PCORE${process}${s.shared ? 'S' : ''}`;
  return s.space;
}

function byteBuf(m: Machine, s: Side): Uint8Array {
  return s.space === 'SCRATCH' ? m.scratch : m.mem;
}

function wordBuf(ctx: EngineContext, s: Side): Int16Array {
  if (s.space === 'SPU') return ctx.m.spu;
  const page = ctx.m.pages[ctx.process];
  return s.shared ? page.shared : page.priv;
}

/**
 * Part of a transfer for stepped (debug) runs: the elements with ordinals `from..to-1`, always on the
 * element-by-element path. `srcBytes` (a copy of source bytes `srcOffset..`) is read instead of the
 * source space: a snapshot taken before the first part keeps the whole-transfer semantics of an
 * overlapping contiguous copy (see `contiguousCopy`).
 */
export interface TransferRange {
  from: number;
  to: number;
  srcBytes?: Uint8Array;
  srcOffset?: number;
}

/**
 * When a transfer is one contiguous block copy between byte spaces (runTransfer's fast path, with
 * move semantics for overlapping blocks): its destination and source buffers, byte addresses and
 * length, bounds checked (a fault before any byte moves).
 */
export function contiguousCopy(
  m: Machine,
  dst: Side,
  src: Side,
  dw: Walker,
  sw: Walker | undefined,
): { d: Uint8Array; s: Uint8Array; a: number; b: number; len: number } | undefined {
  const total = dw.total;
  // (a multicast is a PCORE destination's: byte destinations have none)
  if (!sw || dst.space === 'PCORE' || dst.space === 'SPU' || src.space === 'PCORE') return undefined;
  const el = dst.desc.elemBytes;
  if (el !== src.desc.elemBytes) return undefined;
  const dLin = dw.linearStart();
  const sLin = sw.total >= total ? sw.linearStart() : undefined;
  if (dLin === undefined || sLin === undefined) return undefined;
  const d = byteBuf(m, dst);
  const s = byteBuf(m, src);
  const a = (dst.desc.base ?? 0) + dLin * el;
  const b = (src.desc.base ?? 0) + sLin * el;
  const len = total * el;
  if (a < 0 || a + len > d.length)
    throw sideFault('dst', `destination bytes ${byteAddress(a)}..${byteAddress(a + len - 1)} are outside ${dst.space} (size ${d.length} bytes)`);
  if (b < 0 || b + len > s.length)
    throw sideFault('src', `source bytes ${byteAddress(b)}..${byteAddress(b + len - 1)} are outside ${src.space} (size ${s.length} bytes)`);
  return { d, s, a, b, len };
}

/**
 * A side's walker with locations relative to its base, on every space (MEM/SCRATCH walkers ignore the base anyway).
 * The walker marks invalid elements with negative locations, so a PCORE base below 0 (a negative single member index
 * on the first variable) would turn valid elements at negative word addresses into invalid ones, padded or skipped
 * in silence. Their addresses are `base + location` here instead, and fault like any word outside the page.
 */
export function walker(s: Side, what: string): Walker {
  return new Walker({ ...s.desc, base: 0 }, what);
}

export function runTransfer(ctx: EngineContext, dst: Side, src: Side, pad: number, repeat: boolean, range?: TransferRange): TransferStats {
  const dw = walker(dst, 'destination');
  const total = dw.total;
  const from = range ? range.from : 0;
  const to = range ? range.to : total;
  const sw = src.space === 'CONST' ? undefined : walker(src, 'source');
  const stotal = sw ? sw.total : 0;
  const dtype = dst.dtype;
  const padV = dataValue(pad, src.dtype);
  const stats: TransferStats = { elements: to - from, padded: 0, skipped: 0 };
  const dIsWord = dst.space === 'PCORE' || dst.space === 'SPU';
  const sIsWord = src.space === 'PCORE';
  const dEl = dIsWord ? 1 : dst.desc.elemBytes;
  const sEl = sIsWord ? 1 : src.desc.elemBytes;
  // both views of each side; the loops use the one its space has (a constant reads neither)
  const dBytes = byteBuf(ctx.m, dst);
  const sBytes = byteBuf(ctx.m, src);
  const dWords = wordBuf(ctx, dst);
  const sWords = wordBuf(ctx, src);
  // a word offset (PCORE) or a byte address (MEM/SCRATCH); SPU and constant descriptors have none
  const dBase = dst.desc.base ?? 0;
  const sBase = src.desc.base ?? 0;
  const dHist = ctx.history?.(spaceName(dst, ctx.process));
  const mcast = dst.mcast ?? [0];
  const spu = ctx.m.spu;
  // REMAP applies on the PCORE side only (an SPU destination takes the words as they are; a source's is read on
  // PCORE only); a negative stream disables it, and without one (undefined) `>= 0` is false as well
  const dRemap = dst.space === 'PCORE' ? dst.remap : undefined;
  const sRemap = src.remap;
  // (used for a constant source only)
  const constRaw = dataValue(src.constValue ?? 0, src.dtype);
  let rLo = Infinity;
  let rHi = -Infinity;
  let rCount = 0;
  let wLo = Infinity;
  let wHi = -Infinity;
  let wCount = 0;
  // highest address an element may start at (a word past the page would be dropped silently by the typed array)
  const dLimit = dIsWord ? dWords.length - 1 : dBytes.length - dEl;
  const sLimit = sIsWord ? sWords.length - 1 : sBytes.length - sEl;

  // fast path: raw contiguous copy between MEM/SCRATCH of the same element size
  const lin = range ? undefined : contiguousCopy(ctx.m, dst, src, dw, sw);
  if (lin) {
    const { a, b, len } = lin;
    dHist?.touch(a, a + len - 1);
    // (within one space, set moves an overlapping block whole, like memmove)
    lin.d.set(lin.s.subarray(b, b + len), a);
    stats.read = { space: spaceName(src, ctx.process), lo: b, hi: b + len - 1, count: len };
    stats.written = { space: spaceName(dst, ctx.process), lo: a, hi: a + len - 1, count: len };
    return stats;
  }

  // run-based path: byte spaces with the same element size (1 or 2 bytes: halfwords through an aligned 16-bit view),
  // no partial-row rule (gathers, scatters, padding). Where it does not apply, the element path gives the same answer.
  if (!range && !sIsWord && !dIsWord && dEl === sEl && (dEl === 1 || (LITTLE_ENDIAN && (dBase & 1) === 0 && (sBase & 1) === 0))) {
    const dc = dw.cursor();
    const sc = sw ? sw.cursor() : undefined;
    if (dc && (sc || !sw)) {
      const dv = dEl === 1 ? dBytes : u16(dBytes);
      const sv = sEl === 1 ? sBytes : u16(sBytes);
      const r = byteRuns(
        dw,
        dc,
        sc,
        total,
        stotal,
        repeat,
        dv,
        sv,
        dEl === 1 ? dBase : dBase >> 1,
        sEl === 1 ? sBase : sBase >> 1,
        padV,
        constRaw,
        dHist,
        dEl,
        stats,
        spaceName(dst, ctx.process),
        src.space,
      );
      if (r.rCount) stats.read = { space: spaceName(src, ctx.process), lo: sBase + r.rLo * sEl, hi: sBase + r.rHi * sEl + sEl - 1, count: r.rCount * sEl };
      if (r.wCount) stats.written = { space: spaceName(dst, ctx.process), lo: dBase + r.wLo * dEl, hi: dBase + r.wHi * dEl + dEl - 1, count: r.wCount * dEl };
      return stats;
    }
  }

  const sRead = range?.srcBytes ?? sBytes;
  const sReadBase = sBase - (range?.srcOffset ?? 0);
  // chunks of at most CHUNK elements, with their locations: views, sized to the chunk, of buffers allocated once
  // Stryker disable next-line MethodExpression,ArithmeticOperator: a larger buffer only costs memory (each chunk takes a view of n)
  const dBuf = new Int32Array(Math.min(CHUNK, to - from));
  const sBuf = new Int32Array(dBuf.length);
  let start = from;
  while (start < to) {
    const n = Math.min(CHUNK, to - start);
    const dLocs = dBuf.subarray(0, n);
    const sLocs = sBuf.subarray(0, n);
    dw.fill(start, n, dLocs);
    // bounds of this chunk's writes, checked once (a multicast's offsets start at 0 and grow), saved in the history;
    // without a valid element cLo, cHi are ±Infinity: no check fails and the history saves nothing
    const dr = locRange(dLocs, n);
    const cLo = dBase + dr[0] * dEl;
    const cHi = dBase + dr[1] * dEl;
    const top = cHi + mcast[mcast.length - 1];
    if (cLo < 0 || top > dLimit)
      throw sideFault(
        'dst',
        `destination ${faultAddress(cLo < 0 ? cLo : top, dIsWord)} is ` +
          `outside ${spaceName(dst, ctx.process)} (size ${dIsWord ? dWords.length + ' words' : dBytes.length + ' bytes'})`,
      );
    for (const d of mcast) dHist?.touch(cLo + d, cHi + d + dEl - 1);
    if (sw) {
      // source locations for ordinals start..start+n (REPEAT wraps, exhaustion reads PAD)
      let filled = 0;
      while (filled < n) {
        const ord = start + filled;
        if (ord >= stotal && !repeat) {
          sLocs.fill(-2, filled, n); // exhausted
          break;
        }
        const so = repeat ? ord % stotal : ord;
        // Stryker disable next-line ArithmeticOperator: slots past n that a longer fill would set are never read
        const rest = n - filled;
        const len = Math.min(rest, stotal - so);
        sw.fill(so, len, sLocs.subarray(filled, filled + len));
        filled += len;
      }
      // their bounds, checked once, and the range read so far (±Infinity without a valid element: no change)
      const [lo, hi] = locRange(sLocs, n);
      const a = sBase + lo * sEl;
      const b = sBase + hi * sEl;
      if (a < 0 || b > sLimit)
        throw sideFault(
          'src',
          `source ${faultAddress(a < 0 ? a : b, sIsWord)} is outside ${spaceName(src, ctx.process)} ` +
            (sIsWord ? `(${sWords.length} words)` : `(size ${sBytes.length} bytes)`),
        );
      rLo = Math.min(rLo, a);
      rHi = Math.max(rHi, b);
    }
    if (sw && !sIsWord && !dIsWord && dEl === sEl) {
      // raw element copy between byte spaces (gathers, scatters, padding)
      const [padded, skipped, written] = copyBytes(dLocs, sLocs, n, dBytes, sRead, dBase, sReadBase, dEl, padV);
      stats.padded += padded;
      stats.skipped += skipped;
      rCount += n - padded;
      wCount += written;
      // (no valid destination in the chunk: cLo, cHi = ±Infinity change nothing)
      wLo = Math.min(wLo, cLo);
      wHi = Math.max(wHi, cHi);
    } else
      for (let i = 0; i < n; i++) {
        // read: an external-typed raw value, or a word when the source is PCORE
        let raw: number;
        let isWord = false;
        const sl = sw ? sLocs[i] : 0;
        if (!sw) raw = constRaw;
        else if (sl < 0) {
          raw = padV;
          stats.padded++;
        } else if (sIsWord) {
          raw = sWords[sBase + sl];
          if (sRemap! >= 0) raw = remap(raw, spu, sRemap!);
          isWord = true;
          rCount++;
        } else {
          const a = sBase + sl * sEl;
          raw = sEl === 1 ? sBytes[a] : sBytes[a] | (sBytes[a + 1] << 8);
          rCount++;
        }
        const dl = dLocs[i];
        if (dl < 0) {
          stats.skipped++;
          continue;
        }
        if (dIsWord) {
          let w = isWord ? raw : toWord(raw, src.dtype);
          if (dRemap! >= 0) w = remap(w, spu, dRemap!);
          const a = dBase + dl;
          for (const o of mcast) dWords[a + o] = w;
          wCount += mcast.length;
          wLo = Math.min(wLo, a);
          wHi = Math.max(wHi, a + mcast[mcast.length - 1]);
        } else {
          const v = isWord ? fromWord(raw, dtype) : raw;
          const a = dBase + dl * dEl;
          dBytes[a] = v;
          if (dEl === 2) dBytes[a + 1] = v >> 8;
          wCount++;
          wLo = Math.min(wLo, a);
          wHi = Math.max(wHi, a);
        }
      }
    start += n;
  }
  // word spaces have one-word elements (sEl, dEl = 1)
  if (rCount) stats.read = { space: spaceName(src, ctx.process), lo: rLo, hi: rHi + sEl - 1, count: rCount * sEl };
  if (wCount) stats.written = { space: spaceName(dst, ctx.process), lo: wLo, hi: wHi + dEl - 1, count: wCount * dEl };
  return stats;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A 16-bit view of a byte space (little-endian hosts: element i is bytes 2i, 2i+1). */
function u16(b: Uint8Array): Uint16Array {
  // (MEM and SCRATCH are whole buffers: aligned; a view costs next to nothing beside the copy)
  return new Uint16Array(b.buffer, b.byteOffset, b.byteLength >> 1);
}

type View = Uint8Array | Uint16Array;

interface RunStats {
  rLo: number;
  rHi: number;
  rCount: number;
  wLo: number;
  wHi: number;
  wCount: number;
}

/**
 * Pairs destination runs with source runs by ordinal and moves each pair with a tight loop: a block
 * copy, a strided copy, or a fill for padding/constants; invalid destination runs are skipped whole.
 * `dv`/`sv` are views whose element is the transfer's element (bytes or 16-bit halfwords); `dOff`/`sOff`
 * are the bases in those elements. Locations, ranges and counts are in elements of the views.
 */
function byteRuns(
  dw: Walker,
  dc: Cursor,
  sc: Cursor | undefined,
  total: number,
  stotal: number,
  repeat: boolean,
  dv: View,
  sv: View,
  dOff: number,
  sOff: number,
  padV: number,
  constV: number,
  hist: SpaceHistory | undefined,
  el: number,
  stats: TransferStats,
  dName: string,
  sName: string,
): RunStats {
  const dLen = dv.length;
  const sLen = sv.length;
  const dFault = (at: number) => sideFault('dst', `destination ${faultAddress(at * el)} is outside ${dName} (size ${dLen * el} bytes)`);
  const sFault = (at: number) => sideFault('src', `source ${faultAddress(at * el)} is outside ${sName} (size ${sLen * el} bytes)`);
  let rLo = Infinity;
  let rHi = -Infinity;
  let rCount = 0;
  let wLo = Infinity;
  let wHi = -Infinity;
  let wCount = 0;
  // A destination span known from the levels is checked before anything moves; each run is checked again (cheap),
  // which is what catches a run outside when the span is not known (a buffer limit)
  const ds = dw.span();
  if (ds) {
    if (dOff + ds.lo < 0) throw dFault(dOff + ds.lo);
    if (dOff + ds.hi >= dLen) throw dFault(dOff + ds.hi);
  }
  let padded = 0;
  let skipped = 0;
  let dRun = 0;
  let dLoc = 0;
  let dInc = 0;
  let sRun = 0;
  let sLoc = 0;
  let sInc = 0;
  let left = total;
  while (left > 0) {
    if (dRun === 0) {
      dRun = dc.next();
      dLoc = dc.loc;
      dInc = dc.inc;
      dc.skip(dRun);
    }
    if (sRun === 0) {
      if (!sc) {
        sRun = Infinity;
        sLoc = -3; // constant source
      } else {
        if (sc.pos >= stotal) {
          if (repeat) sc.seek(0);
          else {
            sRun = Infinity;
            sLoc = -2; // exhausted: PAD
          }
        }
        if (sRun === 0) {
          sRun = sc.next();
          sLoc = sc.loc;
          sInc = sc.inc;
          sc.skip(sRun);
        }
      }
    }
    const n = Math.min(dRun, sRun, left);
    if (sLoc >= 0) {
      const last = sLoc + (n - 1) * sInc;
      const lo = Math.min(sLoc, last);
      const hi = Math.max(sLoc, last);
      if (sOff + lo < 0 || sOff + hi >= sLen) throw sFault(sOff + lo < 0 ? sOff + lo : sOff + hi);
      rLo = Math.min(rLo, lo);
      rHi = Math.max(rHi, hi);
      rCount += n;
    } else if (sLoc !== -3) padded += n;
    if (dLoc < 0) skipped += n;
    else {
      const last = dLoc + (n - 1) * dInc;
      const lo = Math.min(dLoc, last);
      const hi = Math.max(dLoc, last);
      if (dOff + lo < 0 || dOff + hi >= dLen) throw dFault(dOff + lo < 0 ? dOff + lo : dOff + hi);
      hist?.touch((dOff + lo) * el, (dOff + hi) * el + el - 1);
      wLo = Math.min(wLo, lo);
      wHi = Math.max(wHi, hi);
      wCount += n;
      // indexes are below 2^31 (typed arrays are smaller): int32 arithmetic keeps the loops on the fast path
      const d0 = (dOff + dLoc) | 0;
      const di = dInc | 0;
      if (sLoc >= 0) copyRun(dv, d0, di, sv, (sOff + sLoc) | 0, sInc | 0, n | 0);
      else {
        const v = sLoc === -3 ? constV : padV;
        // a long unit-stride run is filled in one call, a short or strided one by the loop (the same elements)
        // Stryker disable next-line ConditionalExpression,EqualityOperator: only the speed depends on the length
        const long = n >= 16;
        if (di === 1 && long) dv.fill(v, d0, d0 + n);
        else for (let k = 0, d = d0; k < n; k++, d = (d + di) | 0) dv[d] = v;
      }
      dLoc += dInc * n;
    }
    if (sLoc >= 0) sLoc += sInc * n;
    dRun -= n;
    sRun -= n;
    left -= n;
  }
  stats.padded += padded;
  stats.skipped += skipped;
  return { rLo, rHi, rCount, wLo, wHi, wCount };
}

/** Copies n elements in ordinal order (a destination element written earlier is seen by a later read). */
function copyRun(dv: View, d: number, dInc: number, sv: View, s: number, sInc: number, n: number): void {
  // a long unit-stride run moves in one call (as the loop would move it: see the overlap cases); a short one by the loop
  // Stryker disable next-line ConditionalExpression,EqualityOperator: only the speed depends on the length
  const long = n >= 32;
  if (dInc === 1 && sInc === 1 && long) {
    if (dv !== sv) {
      dv.set(sv.subarray(s, s + n), d);
      return;
    }
    if (d <= s || d >= s + n) {
      dv.copyWithin(d, s, s + n);
      return;
    }
  }
  for (let k = 0; k < n; k++, d = (d + dInc) | 0, s = (s + sInc) | 0) dv[d] = sv[s];
}

/** The hot loop of byte-space transfers, kept small so the JIT optimises it. Returns [padded, skipped, written]. */
function copyBytes(
  dLocs: Int32Array,
  sLocs: Int32Array,
  n: number,
  db: Uint8Array,
  sb: Uint8Array,
  dBase: number,
  sBase: number,
  el: number,
  padV: number,
): [number, number, number] {
  let padded = 0;
  let skipped = 0;
  let written = 0;
  if (el === 1) {
    for (let i = 0; i < n; i++) {
      const dl = dLocs[i];
      const sl = sLocs[i];
      if (sl < 0) padded++;
      if (dl < 0) {
        skipped++;
        continue;
      }
      written++;
      db[dBase + dl] = sl < 0 ? padV : sb[sBase + sl];
    }
  } else {
    for (let i = 0; i < n; i++) {
      const dl = dLocs[i];
      const sl = sLocs[i];
      if (sl < 0) padded++;
      if (dl < 0) {
        skipped++;
        continue;
      }
      written++;
      const a = dBase + dl * 2;
      if (sl < 0) {
        db[a] = padV;
        db[a + 1] = padV >> 8;
      } else {
        const b = sBase + sl * 2;
        db[a] = sb[b];
        db[a + 1] = sb[b + 1];
      }
    }
  }
  return [padded, skipped, written];
}

/** Smallest and largest non-negative location of `locs[0..n)` ([Infinity, -Infinity] when none). */
function locRange(locs: Int32Array, n: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const l = locs[i];
    if (l < 0) continue;
    lo = Math.min(lo, l);
    hi = Math.max(hi, l);
  }
  return [lo, hi];
}
