/**
 * Calls: of a C function of the program (a frame from its prototype), of a built-in, of a service,
 * through a function pointer, a `(T)(x)` cast that parses as a call, and in generator code a call that
 * may yield (hoisted into a step).
 */
import type { SourceLoc } from '../../types';
import { DOUBLE, INT, VOID, normalizer, promote, typeName, type CType } from '../ctypes';
import { YIELD_NAMES } from '../libc';
import { PLACEHOLDER } from '../preprocess';
import type { EF, FnCode, FnRec, Frame, Runtime } from '../hostState';
import type { Cx, EvalCtx } from '../scope';
import { field, named, type N } from '../syntax';
import { bad, frameAlloc, type CompileContext, type E } from './context';
import { service, tensor } from './services';
import { conv } from './values';
import { yields } from './yield';

export function call(cc: CompileContext, n: N, cx: Cx): E {
  const loc = cx.src.loc(n);
  let fnN = field(n, 'function')!;
  const argNs = named(field(n, 'arguments')!).filter((k) => k.type !== 'comment');
  while (fnN.type === 'parenthesized_expression' && named(fnN).length === 1 && named(fnN)[0].type === 'identifier') fnN = named(fnN)[0];
  if (fnN.type === 'parenthesized_expression' && named(fnN).length === 1 && named(fnN)[0].type === 'identifier') fnN = named(fnN)[0];
  // `(T)(x)` parses as a call when T is a typedef name
  const fnRaw = field(n, 'function')!;
  if (fnRaw.type === 'parenthesized_expression' && fnN.type === 'identifier' && cx.scope.lookup(cc.text(fnN, cx))?.k === 'type') {
    if (argNs.length !== 1) bad(loc, 'cast of a list');
    const t = (cx.scope.lookup(cc.text(fnN, cx)) as { t: CType }).t;
    const E = cc.rval(argNs[0], cx);
    if (t.k === 'void') return { t: VOID, f: E.f };
    return conv(E, t, n, cx, true);
  }
  let f: FnRec | undefined;
  if (fnN.type === 'identifier') {
    const name = cc.text(fnN, cx);
    if (name === PLACEHOLDER) return tensor(cc, argNs, cx, loc);
    const s = cx.scope.lookup(name);
    if (!s) f = cc.fns.get(name) ?? cc.declareFn(name, { k: 'fn', ret: INT, params: undefined, variadic: true }, loc);
    else if (s.k === 'fn') f = s.f;
    else if (s.k === 'type') bad(loc, `unexpected type name '${name}'`);
  }
  if (!f) return dynamicCall(cc, fnN, argNs, n, cx);
  const ft = f.type;
  const params = ft.params;
  if (params && (argNs.length < params.length || (argNs.length > params.length && !ft.variadic)))
    bad(loc, `${f.name}() takes ${params.length} argument(s), ${argNs.length} given`);
  const args = argNs.map((a, i) => {
    const E = cc.rval(a, cx);
    if (params && i < params.length) return conv(E, params[i], a, cx);
    return promoteArg(E, a, cx);
  });
  const AF = args.map((a) => a.f);
  const ret = ft.ret;
  const name = f.name;
  const fr0 = f;
  if (cx.hoist && yields(cc, n)) return hoistCall(cc, fr0, null, AF, ret, cx, loc);
  if (f.hasBody) return bodyCall(fr0, AF, ret, cx, loc);
  if (ret.k === 'struct') bad(loc, `not simulated: call of ${name}() returning a struct`, 'not-simulated');
  const rnorm = normalizer(ret) ?? ((v: number) => v);
  if (f.builtin) {
    const impl = f.builtin;
    return {
      t: ret,
      f: (fr) => {
        const vals = new Array<number>(AF.length);
        for (let j = 0; j < AF.length; j++) vals[j] = AF[j](fr);
        return rnorm(impl(vals, loc, fr));
      },
    };
  }
  const ec = cc.evalCtx(cx, loc);
  return {
    t: ret,
    f: (fr) => {
      const vals = new Array<number>(AF.length);
      for (let j = 0; j < AF.length; j++) vals[j] = AF[j](fr);
      return rnorm(service(cc, name, vals, loc, ec, fr));
    },
  };
}

/**
 * A call of a C function of the program: a fresh frame from the callee's prototype, the arguments in
 * slots 2.., its plain code looked up at run time (it is compiled after its callers). Zero to two
 * arguments without a loop; a struct result goes to a buffer in the caller's MEM frame.
 */
function bodyCall(fr0: FnRec, AF: EF[], ret: CType, cx: Cx, loc: SourceLoc): E {
  let retBuf = -1;
  if (ret.k === 'struct') retBuf = frameAlloc(cx, ret, loc);
  const na = AF.length;
  if (retBuf >= 0) {
    const rb = retBuf;
    return {
      t: ret,
      f: (fr) => {
        const c = fr0.plain!;
        const nf = c.proto.slice();
        for (let j = 0; j < na; j++) nf[2 + j] = AF[j](fr);
        nf[1] = fr[0] + rb;
        c.run(nf, loc);
        return fr[0] + rb;
      },
    };
  }
  const t = ret.k === 'void' ? VOID : ret;
  if (na === 0)
    return {
      t,
      f: () => {
        const c = fr0.plain!;
        return c.run(c.proto.slice(), loc);
      },
    };
  if (na === 1) {
    const a0 = AF[0];
    return {
      t,
      f: (fr) => {
        const c = fr0.plain!;
        const nf = c.proto.slice();
        nf[2] = a0(fr);
        return c.run(nf, loc);
      },
    };
  }
  if (na === 2) {
    const a0 = AF[0];
    const a1 = AF[1];
    return {
      t,
      f: (fr) => {
        const c = fr0.plain!;
        const nf = c.proto.slice();
        nf[2] = a0(fr);
        nf[3] = a1(fr);
        return c.run(nf, loc);
      },
    };
  }
  return {
    t,
    f: (fr) => {
      const c = fr0.plain!;
      const nf = c.proto.slice();
      for (let j = 0; j < na; j++) nf[2 + j] = AF[j](fr);
      return c.run(nf, loc);
    },
  };
}

export function promoteArg(E: E, n: N, cx: Cx): E {
  if (E.t.k === 'int') return conv(E, promote(E.t), n, cx);
  if (E.t.k === 'float') return conv(E, DOUBLE, n, cx);
  return E;
}

export function dynamicCall(cc: CompileContext, fnN: N, argNs: N[], n: N, cx: Cx): E {
  const loc = cx.src.loc(n);
  let F = cc.rval(fnN, cx);
  if (F.t.k === 'ptr' && F.t.to.k === 'fn') F = { t: F.t.to, f: F.f };
  if (F.t.k !== 'fn') bad(loc, `called object of type ${typeName(F.t)} is not a function`);
  const ft = F.t;
  const params = ft.params;
  if (params && (argNs.length < params.length || (argNs.length > params.length && !ft.variadic)))
    bad(loc, `call through a pointer with ${argNs.length} argument(s), expected ${params.length}`);
  const args = argNs.map((a, i) => {
    const E = cc.rval(a, cx);
    if (params && i < params.length) return conv(E, params[i], a, cx);
    return promoteArg(E, a, cx);
  });
  const AF = args.map((a) => a.f);
  if (ft.ret.k === 'struct') bad(loc, 'not simulated: call through a pointer returning a struct', 'not-simulated');
  if (cx.hoist) return hoistCall(cc, null, F.f, AF, ft.ret, cx, loc);
  const FF = F.f;
  const ec = cc.evalCtx(cx, loc);
  return {
    t: ft.ret,
    f: (fr) => {
      const vals = new Array<number>(AF.length);
      for (let j = 0; j < AF.length; j++) vals[j] = AF[j](fr);
      return callAddr(cc, FF(fr), vals, loc, fr, ec);
    },
  };
}

/** Calls the function at `addr` with already evaluated arguments (plain mode). */
export function callAddr(cc: CompileContext, addr: number, vals: number[], loc: SourceLoc, fr: Frame, ec?: EvalCtx): number {
  const rt: Runtime = cc.rt;
  const f = rt.fnAt(addr);
  if (!f) rt.fault(`call through an invalid function pointer (0x${(addr >>> 0).toString(16)})`, loc);
  if (f.hasBody) {
    const c = cc.plainOf(f);
    return c.run(frameFor(cc, f, c, vals, loc), loc);
  }
  const r = f.builtin ? f.builtin(vals, loc, fr) : service(cc, f.name, vals, loc, ec, fr);
  return (normalizer(f.type.ret) ?? ((v: number) => v))(r);
}

/** A callee frame with arguments converted to the parameter types. */
export function frameFor(cc: CompileContext, f: FnRec, c: FnCode, vals: number[], loc: SourceLoc): Frame {
  const params = f.type.params;
  if (params && (vals.length < params.length || (vals.length > params.length && !f.type.variadic)))
    cc.rt.fault(`${f.name}() takes ${params.length} argument(s), ${vals.length} given (call through a pointer)`, loc);
  if (f.type.ret.k === 'struct') cc.rt.fault(`not simulated: indirect call of ${f.name}() returning a struct`, loc, 'not-simulated');
  const nf = c.proto.slice();
  const norms = f.argNorm;
  for (let j = 0; j < vals.length && 2 + j < c.nslots; j++) nf[2 + j] = norms[j] ? norms[j](vals[j]) : vals[j];
  return nf;
}

/** Generator-mode call: the call is hoisted into a step; the expression reads a temporary. */
export function hoistCall(cc: CompileContext, f: FnRec | null, FF: EF | null, AF: EF[], ret: CType, cx: Cx, loc: SourceLoc): E {
  const fx = cx.fx;
  if (fx.noFrame) bad(loc, `not simulated: a call that may yield in ${fx.noFrame}`, 'not-simulated');
  const tmp = fx.nslots++;
  const rt: Runtime = cc.rt;
  const na = AF.length;
  if (f && YIELD_NAMES.has(f.name) && !f.hasBody) {
    cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
      for (let j = 0; j < na; j++) AF[j](fr);
      fr[tmp] = 0;
      rt.yielded(loc);
      yield;
    });
    return { t: ret.k === 'void' ? VOID : ret, f: (fr) => fr[tmp] };
  }
  if (f) {
    if (ret.k === 'struct') bad(loc, `not simulated: a call of ${f.name}() returning a struct that may yield`, 'not-simulated');
    const fr0 = f;
    cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
      const c = cc.genOf(fr0);
      const nf = c.proto.slice();
      for (let j = 0; j < na; j++) nf[2 + j] = AF[j](fr);
      fr[tmp] = yield* c.run(nf, loc);
    });
    return { t: ret.k === 'void' ? VOID : ret, f: (fr) => fr[tmp] };
  }
  const ec = cc.evalCtx(cx, loc);
  const F = FF!;
  cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
    const addr = F(fr);
    const vals = new Array<number>(na);
    for (let j = 0; j < na; j++) vals[j] = AF[j](fr);
    const g = rt.fnAt(addr);
    if (g && g.hasBody && g.mayYield) {
      const c = cc.genOf(g);
      fr[tmp] = yield* c.run(frameFor(cc, g, c, vals, loc), loc);
    } else if (g && !g.hasBody && YIELD_NAMES.has(g.name)) {
      fr[tmp] = 0;
      rt.yielded(loc);
      yield;
    } else fr[tmp] = callAddr(cc, addr, vals, loc, fr, ec);
  });
  return { t: ret.k === 'void' ? VOID : ret, f: (fr) => fr[tmp] };
}
