/**
 * Calls out of the C program: `>` statements (to the tensor engine) and functions without a C body or
 * built-in (to HostServices.builtin), with the HostScope they get (evaluation in the caller's scope, the
 * C stack); a service's SimError gets its location and stack here.
 */
import { SimError, type HostScope, type SourceLoc } from '../../types';
import { VOID, typeName } from '../ctypes';
import type { FnCode, Frame, Hart, Runtime } from '../hostState';
import type { Cx, EvalCtx } from '../scope';
import type { N } from '../syntax';
import { bad, type CompileContext, type E, type FrameView } from './context';
import { evalIn } from './snippet';

export function tensor(cc: CompileContext, argNs: N[], cx: Cx, loc: SourceLoc): E {
  const unit = argNs[0] ? Number(cc.text(argNs[0], cx)) : NaN;
  if (!Number.isInteger(unit)) bad(loc, 'malformed tensor statement placeholder');
  const ec: EvalCtx = {
    scope: cx.scope.snapshot(),
    fx: cx.fx,
    loc: cc.pp.unitLocs.get(unit) ?? loc,
    macros: cc.pp.unitMacros.get(unit) ?? cc.macrosForEval,
    cache: new Map(),
  };
  let list = cc.evalCtxs.get(unit);
  if (!list) cc.evalCtxs.set(unit, (list = []));
  list.push(ec);
  const rt: Runtime = cc.rt;
  return {
    t: VOID,
    f: (fr) => {
      const scope = hostScope(cc, ec, fr);
      try {
        rt.sv.tensor(unit, scope);
      } catch (e) {
        throw adopt(cc, e, ec.loc);
      }
      return 0;
    },
  };
}

/** Adds location and C stack to a SimError thrown by a service. */
export function adopt(cc: CompileContext, e: unknown, loc: SourceLoc): unknown {
  if (e instanceof SimError) {
    if (!e.loc) e.loc = loc;
    if (e.stack_.length === 0) e.stack_ = cc.rt.stack(loc);
    cc.opts.debug?.fault?.(e);
  }
  return e;
}

export function service(cc: CompileContext, name: string, vals: number[], loc: SourceLoc, ec: EvalCtx | undefined, fr: Frame): number {
  const rt: Runtime = cc.rt;
  let r: number | undefined;
  try {
    r = rt.sv.builtin(name, vals, ec ? hostScope(cc, ec, fr) : rt.scopeAt(loc));
  } catch (e) {
    throw adopt(cc, e, loc);
  }
  if (r === undefined) rt.fault(`not simulated: call to ${name}`, loc, 'not-simulated');
  return r;
}

export function hostScope(cc: CompileContext, ec: EvalCtx, fr: Frame): HostScope & { frames(): FrameView[] } {
  const rt: Runtime = cc.rt;
  const h = rt.cur;
  return {
    eval: (text: string) => evalIn(cc, ec, text)(fr),
    process: h.id,
    stack: () => rt.stack(ec.loc, h),
    at: ec.loc,
    frames: () => frames(h, ec.loc),
  };
}

/** The active C frames of a hart (innermost first) with their locals — for a debugger. */
export function frames(h: Hart, loc?: SourceLoc): FrameView[] {
  const out: FrameView[] = [];
  const c = h.calls;
  let where = loc;
  for (let i = h.n - 3; i >= 0; i -= 3) {
    const code = c[i] as FnCode;
    const fr = c[i + 2] as Frame;
    const here = where;
    out.push({
      fn: code.name,
      loc: here,
      locals: () =>
        code.locals
          .filter((l) => !here || l.fromLine <= here.line)
          .map((l) => ({
            name: l.name,
            type: typeName(l.type),
            address: l.offset !== undefined ? fr[0] + l.offset : undefined,
            value: l.slot !== undefined ? fr[l.slot] : undefined,
          })),
    });
    where = c[i + 1] as SourceLoc | undefined;
  }
  return out;
}
