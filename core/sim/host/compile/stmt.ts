/**
 * Statements as plain closures returning their completion (0, BRK, CONT, RET): blocks with the step
 * budget, if/while/do/for (counted loops inline), switch, return; a statement that does not compile
 * becomes one that raises its error when reached.
 */
import { SimError, type SourceLoc } from '../../types';
import { isInt, normalizer, promote, sizeOf, typeName } from '../ctypes';
import { countedLoop } from '../fastops';
import { kindOf } from '../memops';
import { BRK, CONT, RET, type Frame, type GSF, type GStep, type Runtime, type SF } from '../hostState';
import { Scope, type Cx } from '../scope';
import { field, named, type N } from '../syntax';
import { cmpConv } from './arith';
import { bad, nestingError, type CompileContext, type E, type Item } from './context';
import { dbgStmt } from './debug';
import { declaration } from './decl';
import { castFixup } from './ops';
import { typeSpec, typedef } from './types';
import { conv } from './values';

export function thrower(cc: CompileContext, e: SimError): SF {
  cc.problems.push(e);
  return () => {
    throw cc.rt.err(e.message, e.loc, e.kind);
  };
}

export function stmt(cc: CompileContext, n: N, cx: Cx): SF | null {
  try {
    const f = stmtInner(cc, n, cx);
    return f && cc.opts.debug && n.type !== 'compound_statement' ? dbgStmt(cc, f, n, cx) : f;
  } catch (e) {
    if (e instanceof SimError) return thrower(cc, e);
    const ne = nestingError(e, () => cx.src.loc(n));
    if (ne) return thrower(cc, ne);
    throw e;
  }
}

export function stmtInner(cc: CompileContext, n: N, cx: Cx): SF | null {
  const loc = cx.src.loc(n);
  switch (n.type) {
    case 'compound_statement':
      return block(cc, n, cx, true);
    case 'expression_statement': {
      const e = named(n)[0];
      if (!e) return null;
      return cc.rval(e, cx, true).f;
    }
    case 'declaration': {
      const parts = declaration(cc, n, cx, false);
      if (parts.length === 0) return null;
      if (parts.length === 1) return parts[0].sf;
      const ss = parts.map((p) => p.sf);
      return (fr) => {
        for (let i = 0; i < ss.length; i++) ss[i](fr);
        return 0;
      };
    }
    case 'type_definition':
      typedef(cc, n, cx);
      return null;
    case 'struct_specifier':
    case 'union_specifier':
    case 'enum_specifier':
      typeSpec(cc, n, cx);
      return null;
    case 'if_statement': {
      const C = cc.cond(field(n, 'condition')!, cx);
      const T = stmt(cc, field(n, 'consequence')!, cx) ?? (() => 0);
      const alt = field(n, 'alternative');
      const altS = alt ? (named(alt)[0] ?? alt) : undefined;
      const F = altS ? stmt(cc, altS.type === 'else_clause' ? named(altS)[0] : altS, cx) : null;
      if (F) return (fr) => (C(fr) ? T(fr) : F(fr));
      return (fr) => (C(fr) ? T(fr) : 0);
    }
    case 'while_statement':
      return whileLoop(cc, n, cx, loc);
    case 'do_statement':
      return doLoop(cc, n, cx, loc);
    case 'for_statement':
      return forLoop(cc, n, cx, loc);
    case 'switch_statement':
      return switchStmt(cc, n, cx, null) as SF;
    case 'return_statement':
      return returnStmt(cc, n, cx, loc);
    case 'break_statement':
      return () => BRK;
    case 'continue_statement':
      return () => CONT;
    case 'comment':
      return null;
    case 'case_statement':
      return bad(loc, 'not simulated: case label nested inside a statement of the switch', 'not-simulated');
    case 'labeled_statement':
      return bad(loc, 'not simulated: labeled statement (goto target)', 'not-simulated');
    case 'goto_statement':
      return bad(loc, 'not simulated: goto statement', 'not-simulated');
    case 'ERROR':
      return bad(loc, 'syntax error');
  }
  return bad(loc, `not simulated: ${n.type.replace(/_/g, ' ')}`, 'not-simulated');
}

/** `return v;`: the value lands in slot 1 (a struct is copied to the caller's buffer whose address slot 1 holds). */
function returnStmt(cc: CompileContext, n: N, cx: Cx, loc: SourceLoc): SF {
  const v = named(n)[0];
  if (!v) return () => RET;
  const ret = cx.fx.ret;
  const E = cc.rval(v, cx);
  if (ret.k === 'struct') {
    if (E.t !== ret) bad(loc, `returning ${typeName(E.t)} from a function returning ${typeName(ret)}`);
    const size = sizeOf(ret);
    const rt: Runtime = cc.rt;
    const F = E.f;
    return (fr) => {
      rt.memcpy(fr[1], F(fr), size, loc);
      return RET;
    };
  }
  if (ret.k === 'void') {
    const F = E.f;
    return (fr) => {
      F(fr);
      return RET;
    };
  }
  const V = conv(E, ret, v, cx).f;
  return (fr) => {
    fr[1] = V(fr);
    return RET;
  };
}

/** `for (init; c; update) body`: a counted loop on an int register local runs inline (fastops.countedLoop). */
function forLoop(cc: CompileContext, n: N, cx: Cx, loc: SourceLoc): SF {
  const fcx: Cx = { ...cx, scope: new Scope(cx.scope) };
  const initN = field(n, 'initializer');
  let I: SF | null = null;
  if (initN) I = initN.type === 'declaration' ? stmtInner(cc, initN, fcx) : exprStmt(cc, initN, fcx);
  const condN = field(n, 'condition');
  const updN = field(n, 'update');
  const rt: Runtime = cc.rt;
  const spec = condN && updN ? countedSpec(cc, condN, updN, fcx) : undefined;
  const C = condN ? cc.cond(condN, fcx) : null;
  const U = updN ? cc.rval(updN, fcx, true).f : null;
  const { f: B, st } = loopBody(cc, field(n, 'body')!, fcx);
  if (spec) {
    const loop = countedLoop(spec.op, spec.u, spec.a, spec.lim, spec.k, spec.d, I, B, st, rt, loc);
    if (loop) return loop;
  }
  return (fr) => {
    if (I) I(fr);
    const b = rt.b;
    for (;;) {
      if ((b.steps -= st) < rt.mark) rt.tick(loc);
      if (C && !C(fr)) return 0;
      const c = B(fr);
      if (typeof c === 'object') {
        if (c === BRK) return 0;
        if (c === RET) return RET;
      }
      if (U) U(fr);
    }
  };
}

/** `do body while (c);` */
function doLoop(cc: CompileContext, n: N, cx: Cx, loc: SourceLoc): SF {
  const C = cc.cond(field(n, 'condition')!, cx);
  const { f: B, st } = loopBody(cc, field(n, 'body')!, cx);
  const rt: Runtime = cc.rt;
  return (fr) => {
    const b = rt.b;
    for (;;) {
      if ((b.steps -= st) < rt.mark) rt.tick(loc);
      const c = B(fr);
      if (typeof c === 'object') {
        if (c === BRK) return 0;
        if (c === RET) return RET;
      }
      if (!C(fr)) return 0;
    }
  };
}

/** `while (c) body`: the step budget charged once per iteration. */
function whileLoop(cc: CompileContext, n: N, cx: Cx, loc: SourceLoc): SF {
  const C = cc.cond(field(n, 'condition')!, cx);
  const { f: B, st } = loopBody(cc, field(n, 'body')!, cx);
  const rt: Runtime = cc.rt;
  return (fr) => {
    const b = rt.b;
    for (;;) {
      if ((b.steps -= st) < rt.mark) rt.tick(loc);
      if (!C(fr)) return 0;
      const c = B(fr);
      if (typeof c === 'object') {
        if (c === BRK) return 0;
        if (c === RET) return RET;
      }
    }
  };
}

/** A loop body; a block of one statement is run directly (its step counted by the loop). */
export function loopBody(cc: CompileContext, n: N, cx: Cx): { f: SF; st: number } {
  if (n.type === 'compound_statement') {
    const ks = named(n);
    if (ks.length === 1 && ks[0].type !== 'declaration' && ks[0].type !== 'type_definition' && ks[0].type !== 'comment') {
      const f = stmt(cc, ks[0], { ...cx, scope: new Scope(cx.scope) });
      return { f: f ?? (() => 0), st: 2 };
    }
  }
  return { f: stmt(cc, n, cx) ?? (() => 0), st: 1 };
}

/** `for (...; i OP lim; i++ / i += k)` on an int register local: the loop test and step inline. */
export function countedSpec(
  cc: CompileContext,
  condN: N,
  updN: N,
  cx: Cx,
): { op: string; u: boolean; a: number; lim: number | undefined; k: number; d: number } | undefined {
  let c = condN;
  while (c.type === 'parenthesized_expression' && named(c).length === 1) c = named(c)[0];
  if (c.type !== 'binary_expression') return undefined;
  const op = field(c, 'operator')!.type;
  if (op !== '<' && op !== '<=' && op !== '>' && op !== '>=') return undefined;
  if (castFixup(cc, c, cx)) return undefined;
  const ncx: Cx = { ...cx, hoist: null };
  let L: E;
  let R: E;
  try {
    [L, R] = cmpConv(cc.rval(field(c, 'left')!, ncx), cc.rval(field(c, 'right')!, ncx), c, ncx);
  } catch {
    return undefined;
  }
  const kind = kindOf(L.t);
  if (L.slot === undefined || (kind !== 'i32' && kind !== 'u32') || kindOf(R.t) !== kind) return undefined;
  if (R.slot === undefined && R.k === undefined) return undefined;
  let u = updN;
  while (u.type === 'parenthesized_expression' && named(u).length === 1) u = named(u)[0];
  let d: number;
  let target: N | undefined;
  if (u.type === 'update_expression') {
    d = field(u, 'operator')!.type === '++' ? 1 : -1;
    target = field(u, 'argument');
  } else if (u.type === 'assignment_expression') {
    const aop = field(u, 'operator')!.type;
    if (aop !== '+=' && aop !== '-=') return undefined;
    let k: E;
    try {
      k = cc.rval(field(u, 'right')!, ncx);
    } catch {
      return undefined;
    }
    if (k.k === undefined || !Number.isInteger(k.k) || k.t.k !== 'int' || k.t.size > 4) return undefined;
    d = aop === '+=' ? k.k : -k.k;
    target = field(u, 'left');
  } else return undefined;
  while (target && target.type === 'parenthesized_expression' && named(target).length === 1) target = named(target)[0];
  if (!target || target.type !== 'identifier') return undefined;
  const sym = cx.scope.lookup(cc.text(target, cx));
  if (sym?.k !== 'slot' || sym.slot !== L.slot) return undefined;
  return { op, u: kind === 'u32', a: L.slot, lim: R.slot, k: R.k ?? 0, d };
}

export function exprStmt(cc: CompileContext, n: N, cx: Cx): SF {
  return cc.rval(n, cx, true).f;
}

export function block(cc: CompileContext, n: N, cx: Cx, newScope: boolean): SF {
  const bcx: Cx = newScope ? { ...cx, scope: new Scope(cx.scope) } : cx;
  const ss: SF[] = [];
  const locs: SourceLoc[] = [];
  for (const k of named(n)) {
    const s = stmt(cc, k, bcx);
    if (s) {
      ss.push(s);
      locs.push(bcx.src.loc(k));
    }
  }
  return mkBlock(cc, ss, locs);
}

export function mkBlock(cc: CompileContext, ss: SF[], locs: SourceLoc[]): SF {
  const rt: Runtime = cc.rt;
  const n = ss.length;
  if (n === 0) return () => 0;
  if (n === 1) {
    const s0 = ss[0];
    const l0 = locs[0];
    return (fr) => {
      const b = rt.b;
      if (--b.steps < rt.mark) rt.tick(l0);
      return s0(fr);
    };
  }
  if (n === 2) {
    const s0 = ss[0];
    const s1 = ss[1];
    const l0 = locs[0];
    const l1 = locs[1];
    return (fr) => {
      const b = rt.b;
      if (--b.steps < rt.mark) rt.tick(l0);
      const c = s0(fr);
      if (typeof c === 'object') return c;
      if (--b.steps < rt.mark) rt.tick(l1);
      return s1(fr);
    };
  }
  return (fr) => {
    const b = rt.b;
    for (let i = 0; i < n; i++) {
      if (--b.steps < rt.mark) rt.tick(locs[i]);
      const c = ss[i](fr);
      if (typeof c === 'object') return c;
    }
    return 0;
  };
}

/** switch: the body's case labels index into the flattened statement list. */
export function switchStmt(cc: CompileContext, n: N, cx: Cx, gen: null | 'gen'): SF | GSF {
  const loc = cx.src.loc(n);
  const scx: Cx = { ...cx, scope: new Scope(cx.scope) };
  const steps: GStep[] | null = gen ? [] : null;
  const ccx: Cx = { ...scx, hoist: steps };
  const condN = field(n, 'condition')!;
  let V = cc.rval(condN, ccx);
  if (!isInt(V.t)) bad(loc, `switch on ${typeName(V.t)}`);
  V = conv(V, promote(V.t), condN, ccx);
  const body = field(n, 'body')!;
  const table = new Map<number, number>();
  let dflt = -1;
  const items: Item[] = [];
  const locs: SourceLoc[] = [];
  const norm = normalizer(V.t) ?? ((x: number) => x);
  const add = (s: N): void => {
    if (gen) {
      const it = cc.stmtG(s, scx);
      if (it) {
        items.push(it);
        locs.push(scx.src.loc(s));
      }
    } else {
      const f = stmt(cc, s, scx);
      if (f) {
        items.push({ g: false, f });
        locs.push(scx.src.loc(s));
      }
    }
  };
  const kids = body.type === 'compound_statement' ? named(body) : [body];
  for (const k of kids) {
    if (k.type !== 'case_statement') {
      add(k);
      continue;
    }
    const vN = field(k, 'value');
    if (vN) {
      const v = norm(cc.constEval(vN, scx));
      if (table.has(v)) bad(scx.src.loc(k), `duplicate case value ${v}`);
      table.set(v, items.length);
    } else dflt = items.length;
    for (const s of named(k)) if (s !== vN) add(s);
  }
  const rt: Runtime = cc.rt;
  const VF = V.f;
  const count = items.length;
  if (!gen) {
    const ss = items.map((i) => i.f as SF);
    return (fr: Frame): unknown => {
      let i = table.get(VF(fr));
      if (i === undefined) i = dflt;
      if (i < 0) return 0;
      const b = rt.b;
      for (; i < count; i++) {
        if (--b.steps < rt.mark) rt.tick(locs[i]);
        const c = ss[i](fr);
        if (typeof c === 'object') return c === BRK ? 0 : c;
      }
      return 0;
    };
  }
  const pre = steps!;
  return function* (fr: Frame): Generator<void, unknown, void> {
    for (const s of pre) yield* s(fr);
    let i = table.get(VF(fr));
    if (i === undefined) i = dflt;
    if (i < 0) return 0;
    const b = rt.b;
    for (; i < count; i++) {
      if (--b.steps < rt.mark) rt.tick(locs[i]);
      const it = items[i];
      const c = it.g ? yield* it.f(fr) : it.f(fr);
      if (typeof c === 'object') return c === BRK ? 0 : c;
    }
    return 0;
  };
}
