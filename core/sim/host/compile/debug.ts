/**
 * Debugger stop points (compiled only when CompilerOptions.debug is set): each statement closure is
 * wrapped to record where its hart is and to ask the port whether to stop; the statement's scope is kept
 * for the debugger's expressions.
 */
import { SimError } from '../../types';
import type { CType } from '../ctypes';
import type { EF, Frame, GSF, Runtime, SF } from '../hostState';
import { Scope, type Cx, type EvalCtx } from '../scope';
import type { N } from '../syntax';
import { PLACEHOLDER_CALL, type CompileContext, type DebugStmt, type Item } from './context';
import { rvalNoDecay } from './expr';
import { snippet } from './snippet';

export function dbgInfo(cc: CompileContext, n: N, cx: Cx): DebugStmt {
  // the scope chain as it is here (later declarations of enclosing blocks stay invisible)
  const snap = (s: Scope): Scope => {
    if (s === cc.global || !s.parent) return s;
    const c = new Scope(snap(s.parent));
    c.syms = new Map(s.syms);
    c.tags = s.tags;
    return c;
  };
  const loc = cx.src.loc(n);
  const tensor = n.type === 'expression_statement' && PLACEHOLDER_CALL.test(cc.text(n, cx));
  const st: DebugStmt = {
    id: cc.dbgStmts.length,
    loc,
    fn: cx.fx.name,
    gen: cx.fx.gen,
    tensor,
    ec: { scope: snap(cx.scope), fx: cx.fx, loc, macros: cc.macrosForEval, cache: new Map() },
  };
  cc.dbgStmts.push(st);
  return st;
}

/** Wraps a statement closure with its stop point. */
export function dbgStmt(cc: CompileContext, f: SF, n: N, cx: Cx): SF {
  if (cc.dbgWrapped.has(f)) return f;
  const port = cc.opts.debug!;
  const id = dbgInfo(cc, n, cx).id;
  const rt: Runtime = cc.rt;
  const [pos0, pos1] = port.pos;
  const ctl = port.ctl;
  const w: SF = (fr) => {
    const h = rt.cur;
    if (h.id === 0) pos0[h.n] = id;
    else pos1[h.n] = id;
    if ((port.hit[id] | ctl[0]) !== 0) port.stop(id, fr);
    return f(fr);
  };
  cc.dbgWrapped.add(w);
  return w;
}

export function dbgStmtG(cc: CompileContext, it: Item, n: N, cx: Cx): Item {
  if (!it.g) return { g: false, f: dbgStmt(cc, it.f, n, cx) };
  if (cc.dbgWrapped.has(it.f)) return it;
  const port = cc.opts.debug!;
  const id = dbgInfo(cc, n, cx).id;
  const rt: Runtime = cc.rt;
  const [pos0, pos1] = port.pos;
  const ctl = port.ctl;
  const g = it.f;
  const w: GSF = function* (fr: Frame): Generator<void, unknown, void> {
    const h = rt.cur;
    if (h.id === 0) pos0[h.n] = id;
    else pos1[h.n] = id;
    if ((port.hit[id] | ctl[0]) !== 0) port.stop(id, fr);
    return yield* g(fr);
  };
  cc.dbgWrapped.add(w);
  return { g: true, f: w };
}

/**
 * Compiles a C expression typed in a debugger (watch, hover, console, breakpoint condition) in the
 * scope of a stop point. Unlike `>` expressions it may have any type: aggregates evaluate to their
 * MEM address. `lvalue` tells whether it can be assigned.
 */
export function debugExpr(cc: CompileContext, ec: EvalCtx, text: string): { t: CType; f: EF; slot?: number } {
  const fail = (msg: string): never => {
    throw new SimError(msg, ec.loc, [], 'compile');
  };
  const { expr, cx } = snippet(cc, ec, text, 'a debugger expression', fail);
  const E = rvalNoDecay(cc, expr, cx);
  return { t: E.t, f: E.f, slot: E.slot };
}
