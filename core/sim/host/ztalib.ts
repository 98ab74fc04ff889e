/**
 * ztachip's runtime library as kernels reach it (`SW/base/ztalib.h`: ztalib.c, and the library kernels
 * of `SW/apps/main/kernels/main.m`), implemented on the simulated machine. Every function of ztalib.h a
 * kernel can call is here, or in libc.ts (ztaDualHartExecute, ztaTaskYield), or in ../libraryCalls.ts
 * (ztaBuildKernelFunc, ztaAbort); `_taskSpawn` is the one left out: a call to it stops the run as "not
 * simulated". A C body of the same name in the program takes precedence (a program that includes its
 * own main.m runs ztachip's C and `>` statements instead).
 *
 * What is modelled, and how far:
 * - ztaAllocSharedMem/ztaFreeSharedMem: the 8-byte aligned block with its two-word header (the
 *   allocation's start and size) before the returned address, as ztalib.c lays it out. Freed memory is
 *   not reused (nothing a kernel computes depends on reuse).
 * - ztaBuildSpuBundle: the stream-table bundle (a count word, then per table 128 (slope, value) int16
 *   pairs) built by calling the program's C table functions at the 128 segment starts and ends.
 * - ztaInitStream: loads the bundle's tables into the stream processor (a trace step).
 * - ztaInitPcore: the run's PCORE program is already loaded (the `.p` beside the program); the image
 *   must be that program's `zta_pcore_img`. Its constant table (root.constant) is not written: the
 *   simulator places PCORE variables symbolically (research §8.3), so no kernel reads it.
 * - ztaJobDone / ztaReadResponse: the CALLBACK indication queue.
 */
import type { SourceLoc } from '../types';
import { builtinFn, defineBuiltin, type BuiltinHost } from './builtinHost';
import { BOOL, INT, SHORT, UINT, VOID, ptr, type FnT } from './ctypes';
import type { Builtin, Runtime } from './hostState';

/** Entries per stream table and the segment width of each entry (zta.h SPU_SIZE, SPU_REMAINDER). */
const SPU_SIZE = 128;
const SPU_REMAINDER = 32;

export function installZtalib(c: BuiltinHost): void {
  const rt: Runtime = c.rt;
  const P = ptr(VOID);
  const fn = builtinFn;
  const def = (name: string, t: FnT, impl: Builtin): void => defineBuiltin(c, name, t, impl);
  const zta = (loc: SourceLoc) => rt.sv.zta ?? rt.fault('not simulated: this run has no tensor engine behind the runtime library', loc, 'not-simulated');
  const store32 = (a: number, v: number, loc: SourceLoc) => {
    rt.check(a, 4, loc, 'write');
    rt.writing(a, 4);
    rt.dv.setUint32(a, v >>> 0, true);
  };

  const allocShared = (size: number, loc: SourceLoc): number => {
    const total = size + 16;
    let p = -1;
    try {
      p = rt.sv.alloc(Math.max(1, total), 8);
    } catch (e) {
      rt.fault(`ztaAllocSharedMem(${size}): ${(e as Error).message}`, loc);
    }
    rt.writing(p, total);
    rt.mem.fill(0, p, p + total);
    const p2 = Math.ceil(p / 8) * 8;
    store32(p2, p, loc);
    store32(p2 + 4, total, loc);
    return p2 + 8;
  };
  def('ztaAllocSharedMem', fn(P, [INT]), ([n], loc) => allocShared(n, loc));
  def('ztaFreeSharedMem', fn(VOID, [P]), () => 0);

  /** Calls a C table function `int16_t f(int16_t, void *, uint32_t, uint32_t)` of the program. */
  const callTableFn = (fa: number, args: number[], loc: SourceLoc): number => {
    const f = rt.fnAt(fa);
    if (!f) rt.fault(`ztaBuildSpuBundle: 0x${(fa >>> 0).toString(16)} is not a function`, loc);
    let r: number;
    if (f.builtin) r = f.builtin(args, loc, []);
    else if (!f.hasBody) rt.fault(`ztaBuildSpuBundle: ${f.name} has no C body`, loc, 'not-simulated');
    else if (rt.inDual && f.mayYield) rt.fault(`not simulated: ztaBuildSpuBundle's table function ${f.name} yields`, loc, 'not-simulated');
    else {
      const p = c.plainOf(f);
      r = p.run(c.frameFor(f, p, args, loc), loc);
    }
    return (r! << 16) >> 16;
  };
  def('ztaBuildSpuBundle', fn(P, [INT], true), ([n, ...rest], loc) => {
    if (!(n >= 0 && n <= 4)) rt.fault(`ztaBuildSpuBundle(${n}, ...): the stream processor holds 1..4 tables`, loc);
    if (rest.length < 4 * n)
      rt.fault(`ztaBuildSpuBundle(${n}, ...) needs ${4 * n} more arguments (function, pointer, two parameters per table), ${rest.length} given`, loc);
    const bundle = allocShared((n * SPU_SIZE * 2 + 1) * 2, loc);
    rt.dv.setInt16(bundle, n, true);
    for (let t = 0; t < n; t++) {
      const [f, pparm, parm, parm2] = rest.slice(4 * t, 4 * t + 4);
      const at = bundle + 2 + t * SPU_SIZE * 4;
      for (let i = 0; i < SPU_SIZE; i++) {
        // the segment's first and last 12-bit inputs, sign-extended; the pointer parameter only on the first call
        const lo = sext12(i * SPU_REMAINDER);
        const hi = sext12(i * SPU_REMAINDER + SPU_REMAINDER - 1);
        const v2 = callTableFn(f, [lo, i === 0 ? pparm : 0, parm >>> 0, parm2 >>> 0], loc);
        const v4 = callTableFn(f, [hi, 0, parm >>> 0, parm2 >>> 0], loc);
        // as ztalib.c computes it: the product is cast to int16_t before the division (which truncates
        // toward zero), and the quotient stored as int16_t
        const slope = (Math.trunc(i16((v4 - v2) * SPU_REMAINDER) / (SPU_REMAINDER - 1)) << 16) >> 16;
        rt.dv.setInt16(at + 4 * i, slope, true);
        rt.dv.setInt16(at + 4 * i + 2, v2, true);
      }
    }
    return bundle;
  });

  def('ztaInitStream', fn(VOID, [UINT]), ([a], loc) => {
    if (a === 0) return 0;
    rt.check(a, 2, loc, 'read');
    const count = rt.dv.getUint16(a, true);
    zta(loc).loadStreams(a + 2, count * SPU_SIZE * 2, loc, rt.scopeAt(loc));
    return 0;
  });

  def('ztaInitPcore', fn(VOID, [ptr(SHORT)]), ([img], loc) => {
    const own = c.global.syms.get('zta_pcore_img');
    const at = own && own.k === 'global' ? own.g.addr : undefined;
    if (at === undefined || img !== at)
      rt.fault(
        `not simulated: ztaInitPcore(0x${(img >>> 0).toString(16)}) loads a PCORE image other than this program's zta_pcore_img (the run's PCORE program is ` +
          'the .p beside the program)',
        loc,
        'not-simulated',
      );
    return 0;
  });

  def('ztaJobDone', fn(VOID, [UINT]), ([id], loc) => {
    zta(loc).callback(0, id, loc, rt.scopeAt(loc));
    return 0;
  });

  def('ztaReadResponse', fn(BOOL, [ptr(UINT)]), ([resp], loc) => {
    const r = zta(loc).readResponse();
    store32(resp, r ?? 0, loc);
    return r === undefined ? 0 : 1;
  });
}

function i16(v: number): number {
  return (v << 16) >> 16;
}

function sext12(v: number): number {
  return ((v & 0xfff) << 20) >> 20;
}
