/**
 * Functions the interpreter implements itself: the C library subset real kernels use (memset,
 * memcpy, printf family, string functions, malloc through `services.alloc`) and the control-flow
 * part of ztachip's runtime (`ztaDualHartExecute`, `ztaTaskYield`). A C body with the same name
 * in the program takes precedence.
 */
import { SimError, type SourceLoc } from '../types';
import { builtinFn, defineBuiltin, type BuiltinHost } from './builtinHost';
import { DOUBLE, FLOAT, INT, UINT, VOID, ptr, type CType, type FnT, charType } from './ctypes';
import { cformat } from './printf';
import type { Builtin, Runtime } from './hostState';

/** Calls that switch harts. `ztaTaskYield` is a macro around `_taskYield` in ztalib.h. */
export const YIELD_NAMES: ReadonlySet<string> = new Set(['ztaTaskYield', '_taskYield']);

export function installLibc(c: BuiltinHost): void {
  const rt: Runtime = c.rt;
  const P = ptr(VOID);
  const S = ptr(charType(false));
  const fn = builtinFn;
  const def = (name: string, t: FnT, impl: Builtin): void => defineBuiltin(c, name, t, impl);
  const str = (a: number, loc: SourceLoc): string => rt.cstr(a, loc);
  const writeStr = (dst: number, s: string, max: number, loc: SourceLoc): number => {
    const bytes = new TextEncoder().encode(s);
    const n = Math.min(bytes.length, Math.max(0, max - 1));
    if (max > 0) {
      rt.check(dst, n + 1, loc, 'write');
      rt.writing(dst, n + 1);
      rt.mem.set(bytes.subarray(0, n), dst);
      rt.mem[dst + n] = 0;
    }
    return bytes.length;
  };

  def('memset', fn(P, [P, INT, UINT]), ([d, v, n], loc) => {
    if (n > 0) {
      rt.check(d, n, loc, 'write');
      rt.writing(d, n);
      rt.mem.fill(v & 255, d, d + n);
    }
    return d;
  });
  def('memcpy', fn(P, [P, P, UINT]), ([d, s, n], loc) => {
    rt.memcpy(d, s, n, loc);
    return d;
  });
  def('memmove', fn(P, [P, P, UINT]), ([d, s, n], loc) => {
    rt.memcpy(d, s, n, loc);
    return d;
  });
  def('memcmp', fn(INT, [P, P, UINT]), ([a, b, n], loc) => {
    if (n <= 0) return 0;
    rt.check(a, n, loc, 'read');
    rt.check(b, n, loc, 'read');
    for (let i = 0; i < n; i++) {
      const d = rt.mem[a + i] - rt.mem[b + i];
      if (d !== 0) return d;
    }
    return 0;
  });
  def('strlen', fn(UINT, [S]), ([a], loc) => new TextEncoder().encode(str(a, loc)).length);
  def('strcmp', fn(INT, [S, S]), ([a, b], loc) => {
    for (let i = 0; ; i++) {
      rt.check(a + i, 1, loc, 'read');
      rt.check(b + i, 1, loc, 'read');
      const d = rt.mem[a + i] - rt.mem[b + i];
      if (d !== 0 || rt.mem[a + i] === 0) return d;
    }
  });
  def('strncmp', fn(INT, [S, S, UINT]), ([a, b, n], loc) => {
    for (let i = 0; i < n; i++) {
      rt.check(a + i, 1, loc, 'read');
      rt.check(b + i, 1, loc, 'read');
      const d = rt.mem[a + i] - rt.mem[b + i];
      if (d !== 0 || rt.mem[a + i] === 0) return d;
    }
    return 0;
  });
  def('strcpy', fn(S, [S, S]), ([d, s], loc) => {
    for (let i = 0; ; i++) {
      rt.check(s + i, 1, loc, 'read');
      rt.check(d + i, 1, loc, 'write');
      rt.writing(d + i, 1);
      rt.mem[d + i] = rt.mem[s + i];
      if (rt.mem[s + i] === 0) return d;
    }
  });
  def('strncpy', fn(S, [S, S, UINT]), ([d, s, n], loc) => {
    let end = false;
    for (let i = 0; i < n; i++) {
      rt.check(d + i, 1, loc, 'write');
      rt.writing(d + i, 1);
      if (!end) {
        rt.check(s + i, 1, loc, 'read');
        rt.mem[d + i] = rt.mem[s + i];
        if (rt.mem[s + i] === 0) end = true;
      } else rt.mem[d + i] = 0;
    }
    return d;
  });
  def('strcat', fn(S, [S, S]), ([d, s], loc) => {
    let e = d;
    for (;;) {
      rt.check(e, 1, loc, 'read');
      if (rt.mem[e] === 0) break;
      e++;
    }
    for (let i = 0; ; i++) {
      rt.check(s + i, 1, loc, 'read');
      rt.check(e + i, 1, loc, 'write');
      rt.writing(e + i, 1);
      rt.mem[e + i] = rt.mem[s + i];
      if (rt.mem[s + i] === 0) return d;
    }
  });
  def('strchr', fn(S, [S, INT]), ([s, ch], loc) => {
    for (let i = 0; ; i++) {
      rt.check(s + i, 1, loc, 'read');
      if (rt.mem[s + i] === (ch & 255)) return s + i;
      if (rt.mem[s + i] === 0) return 0;
    }
  });
  def('printf', fn(INT, [S], true), ([f, ...a], loc) => {
    const t = cformat(str(f, loc), a, (x) => str(x, loc));
    rt.sv.print(t);
    return t.length;
  });
  def('sprintf', fn(INT, [S, S], true), ([d, f, ...a], loc) =>
    writeStr(
      d,
      cformat(str(f, loc), a, (x) => str(x, loc)),
      1 << 30,
      loc,
    ),
  );
  def('snprintf', fn(INT, [S, UINT, S], true), ([d, n, f, ...a], loc) =>
    writeStr(
      d,
      cformat(str(f, loc), a, (x) => str(x, loc)),
      n,
      loc,
    ),
  );
  def('puts', fn(INT, [S]), ([s], loc) => {
    rt.sv.print(str(s, loc) + '\n');
    return 1;
  });
  def('putchar', fn(INT, [INT]), ([ch]) => {
    rt.sv.print(String.fromCharCode(ch & 255));
    return ch & 255;
  });
  const malloc = (n: number, loc: SourceLoc): number => {
    let a = -1;
    try {
      a = rt.sv.alloc(Math.max(1, n), 8);
    } catch (e) {
      if (e instanceof SimError) rt.fault(`malloc(${n}): ${e.message}`, loc);
      throw e;
    }
    if (!(a >= 0 && a + n <= rt.size)) rt.fault(`malloc(${n}): MEM allocation failed`, loc);
    rt.writing(a, n);
    rt.mem.fill(0, a, a + n);
    return a;
  };
  def('malloc', fn(P, [UINT]), ([n], loc) => malloc(n, loc));
  def('calloc', fn(P, [UINT, UINT]), ([n, s], loc) => malloc(n * s, loc));
  def('free', fn(VOID, [P]), () => 0);
  def('abs', fn(INT, [INT]), ([v]) => Math.abs(v) | 0);
  def('labs', fn(INT, [INT]), ([v]) => Math.abs(v) | 0);
  def('fabs', fn(DOUBLE, [DOUBLE]), ([v]) => Math.abs(v));
  // <math.h>: the double functions, and their float (…f) forms rounded to single precision
  const math: [string, (...a: number[]) => number][] = [
    ['exp', Math.exp],
    ['log', Math.log],
    ['log10', Math.log10],
    ['log2', Math.log2],
    ['sqrt', Math.sqrt],
    ['pow', Math.pow],
    ['sin', Math.sin],
    ['cos', Math.cos],
    ['tan', Math.tan],
    ['atan', Math.atan],
    ['atan2', Math.atan2],
    ['tanh', Math.tanh],
    ['floor', Math.floor],
    ['ceil', Math.ceil],
    ['trunc', Math.trunc],
    ['round', (v) => Math.sign(v) * Math.round(Math.abs(v))],
  ];
  for (const [name, f] of math) {
    const params = Array<CType>(f.length).fill(DOUBLE);
    def(name, fn(DOUBLE, params), (a) => f(...a));
    def(name + 'f', fn(FLOAT, Array<CType>(f.length).fill(FLOAT)), (a) => Math.fround(f(...a.map(Math.fround))));
  }
  def('fabsf', fn(FLOAT, [FLOAT]), ([v]) => Math.abs(v));
  def('assert', fn(VOID, [INT]), ([v], loc) => {
    if (v === 0) rt.fault('assertion failed', loc);
    return 0;
  });
  def('abort', fn(VOID, []), (_a, loc) => rt.fault('abort() called', loc));
  // outside ztaDualHartExecute there is no other hart to switch to
  for (const y of YIELD_NAMES) def(y, fn(VOID, []), () => 0);
  def('ztaDualHartExecute', fn(VOID, [ptr(fn(VOID, [P, INT])), P]), ([fa, parm], site) => {
    if (rt.inDual) rt.fault('not simulated: ztaDualHartExecute inside a hart', site, 'not-simulated');
    const f = rt.fnAt(fa);
    if (!f) rt.fault(`ztaDualHartExecute: 0x${(fa >>> 0).toString(16)} is not a function`, site);
    if (!f.hasBody) rt.fault(`not simulated: ztaDualHartExecute of ${f.name}, which has no C body`, site, 'not-simulated');
    const h0 = rt.cur;
    const h1 = rt.second;
    h1.calls = h0.calls.slice(0, h0.n);
    h1.n = h0.n;
    if (h1.top !== 0) h1.sp = h1.top;
    const harts = [h0, h1];
    const gens = [0, 1].map((pid) => {
      if (!f.mayYield) return undefined;
      const g = c.genOf(f);
      return g.run(c.frameFor(f, g, [parm, pid], site), site);
    });
    const alive = [true, true];
    rt.inDual = true;
    try {
      let turn = 0;
      while (alive[0] || alive[1]) {
        if (alive[turn]) {
          rt.cur = harts[turn];
          const g = gens[turn];
          if (g) {
            if (g.next().done) alive[turn] = false;
          } else {
            const p = c.plainOf(f);
            p.run(c.frameFor(f, p, [parm, turn], site), site);
            alive[turn] = false;
          }
        }
        turn ^= 1;
      }
    } finally {
      rt.cur = h0;
      rt.inDual = false;
    }
    return 0;
  });
}
