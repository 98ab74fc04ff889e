/**
 * Which functions may reach `ztaTaskYield()` (directly, through a C callee, or through a function
 * pointer), which syntax subtrees may yield, and the generator forms of `&&`, `||`, `?:` and `,` whose
 * right side may yield (hoisted into steps that write a temporary slot).
 */
import { INT } from '../ctypes';
import { YIELD_NAMES } from '../libc';
import type { FnRec, Frame, GStep } from '../hostState';
import type { Cx } from '../scope';
import { eachNode, field, fields, named, type N } from '../syntax';
import type { CompileContext, E } from './context';
import { conv, ternaryType } from './values';

export function computeYields(cc: CompileContext): void {
  // names declared as variables anywhere (calls through them are calls through pointers)
  const collect = (n: N): void => {
    if (n.type === 'declaration' || n.type === 'parameter_declaration') {
      for (const d of fields(n, 'declarator')) {
        const nm = declName(cc, d);
        if (nm) cc.varNames.add(nm);
      }
    }
  };
  for (const n of cc.fnNodes.values()) eachNode(n, collect);
  const calls = new Map<FnRec, { direct: boolean; callees: Set<FnRec> }>();
  for (const [f, n] of cc.fnNodes) {
    const info = { direct: false, callees: new Set<FnRec>() };
    eachNode(field(n, 'body')!, (x) => {
      if (x.type === 'call_expression') {
        const c = callTarget(cc, x);
        if (c === 'yield' || c === 'dynamic') info.direct = true;
        else if (c) info.callees.add(c);
      }
    });
    calls.set(f, info);
  }
  for (const [f, i] of calls) f.mayYield = i.direct;
  for (let changed = true; changed;) {
    changed = false;
    for (const [f, i] of calls) {
      if (f.mayYield) continue;
      for (const c of i.callees)
        if (c.mayYield) {
          f.mayYield = true;
          changed = true;
          break;
        }
    }
  }
}

export function declName(cc: CompileContext, d: N): string | undefined {
  if (d.type === 'identifier') return cc.text(d);
  const inner = field(d, 'declarator') ?? named(d).find((k) => k.type.endsWith('declarator') || k.type === 'identifier');
  return inner ? declName(cc, inner) : undefined;
}

/** What a call may do to the hart: yield (`ztaTaskYield`), call through a pointer, or call a C function. */
export function callTarget(cc: CompileContext, call: N): FnRec | 'yield' | 'dynamic' | undefined {
  let fnN = field(call, 'function');
  while (fnN && fnN.type === 'parenthesized_expression') fnN = named(fnN)[0];
  if (!fnN || fnN.type !== 'identifier') return 'dynamic';
  const name = cc.text(fnN);
  if (YIELD_NAMES.has(name)) return 'yield';
  const f = cc.fns.get(name);
  if (f?.hasBody) return f;
  if (f) return undefined;
  return cc.varNames.has(name) ? 'dynamic' : undefined;
}

/** Does evaluating `n` possibly yield (in generator code)? */
export function yields(cc: CompileContext, n: N): boolean {
  let r = cc.yieldMemo.get(n.id);
  if (r !== undefined) return r;
  // iterative (deeply nested C must not overflow the JS stack); a subtree without yields has none below either
  r = false;
  const seen: N[] = [];
  const todo: N[] = [n];
  for (let x = todo.pop(); x && !r; x = todo.pop()) {
    const known = cc.yieldMemo.get(x.id);
    if (known !== undefined) {
      r = known;
      continue;
    }
    seen.push(x);
    if (x.type === 'call_expression') {
      const c = callTarget(cc, x);
      r = c === 'yield' || c === 'dynamic' || (typeof c === 'object' && c.mayYield);
    }
    for (let i = x.kids.length - 1; i >= 0; i--) todo.push(x.kids[i]);
  }
  if (!r) for (const x of seen) cc.yieldMemo.set(x.id, false);
  cc.yieldMemo.set(n.id, r);
  return r;
}

/** `a && b` / `a || b` whose right side may yield (generator mode). */
export function hoistLogic(cc: CompileContext, n: N, op: string, cx: Cx): E {
  const tmp = cx.fx.nslots++;
  const A = cc.cond(field(n, 'left')!, cx);
  const inner: GStep[] = [];
  const B = cc.cond(field(n, 'right')!, { ...cx, hoist: inner });
  const and = op === '&&';
  cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
    const a = A(fr);
    if (and ? !a : a) {
      fr[tmp] = a ? 1 : 0;
      return;
    }
    for (const s of inner) yield* s(fr);
    fr[tmp] = B(fr) ? 1 : 0;
  });
  return { t: INT, f: (fr) => fr[tmp] };
}

export function hoistTernary(cc: CompileContext, n: N, cx: Cx): E {
  const loc = cx.src.loc(n);
  const tmp = cx.fx.nslots++;
  const cN = field(n, 'condition')!;
  const aN = field(n, 'consequence') ?? cN;
  const C = cc.cond(cN, cx);
  const as: GStep[] = [];
  const bs: GStep[] = [];
  const A0 = cc.rval(aN, { ...cx, hoist: as });
  const B0 = cc.rval(field(n, 'alternative')!, { ...cx, hoist: bs });
  const t = ternaryType(A0, B0, loc);
  const A = t.k === 'void' ? A0.f : conv(A0, t, n, cx).f;
  const B = t.k === 'void' ? B0.f : conv(B0, t, n, cx).f;
  cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
    if (C(fr)) {
      for (const s of as) yield* s(fr);
      fr[tmp] = A(fr);
    } else {
      for (const s of bs) yield* s(fr);
      fr[tmp] = B(fr);
    }
  });
  return { t, f: (fr) => fr[tmp] };
}

export function hoistSeq(cc: CompileContext, n: N, cx: Cx): E {
  const tmp = cx.fx.nslots++;
  const L = cc.rval(field(n, 'left')!, cx, true).f;
  const rs: GStep[] = [];
  const R = cc.rval(field(n, 'right')!, { ...cx, hoist: rs });
  const RF = R.f;
  cx.hoist!.push(function* (fr: Frame): Generator<void, void, void> {
    L(fr);
    for (const s of rs) yield* s(fr);
    fr[tmp] = RF(fr);
  });
  return { t: R.t, f: (fr) => fr[tmp] };
}
