/**
 * Generator versions of statements that may yield (inside ztaDualHartExecute): a statement whose
 * expression contains a call that may yield runs the hoisted steps first; everything that cannot yield
 * stays a plain closure.
 */
import { SimError, type SourceLoc } from '../../types';
import { BRK, RET, type Frame, type GSF, type GStep, type Runtime, type SF } from '../hostState';
import { Scope, type Cx } from '../scope';
import { field, named, type N } from '../syntax';
import { nestingError, type CompileContext, type Item } from './context';
import { dbgStmtG } from './debug';
import { declaration } from './decl';
import { mkBlock, stmt, stmtInner, switchStmt, thrower } from './stmt';
import { yields } from './yield';

export function stmtG(cc: CompileContext, n: N, cx: Cx): Item | null {
  if (!yields(cc, n)) {
    const f = stmt(cc, n, { ...cx, hoist: null });
    return f ? { g: false, f } : null;
  }
  try {
    const it = stmtGInner(cc, n, cx);
    return cc.opts.debug && n.type !== 'compound_statement' ? dbgStmtG(cc, it, n, cx) : it;
  } catch (e) {
    if (e instanceof SimError) return { g: false, f: thrower(cc, e) };
    const ne = nestingError(e, () => cx.src.loc(n));
    if (ne) return { g: false, f: thrower(cc, ne) };
    throw e;
  }
}

export function blockG(cc: CompileContext, n: N, cx: Cx, newScope: boolean): Item {
  const bcx: Cx = newScope ? { ...cx, scope: new Scope(cx.scope) } : cx;
  const items: Item[] = [];
  const locs: SourceLoc[] = [];
  for (const k of named(n)) {
    const it = stmtG(cc, k, bcx);
    if (it) {
      items.push(it);
      locs.push(bcx.src.loc(k));
    }
  }
  if (!items.some((i) => i.g))
    return {
      g: false,
      f: mkBlock(
        cc,
        items.map((i) => i.f as SF),
        locs,
      ),
    };
  const rt: Runtime = cc.rt;
  return {
    g: true,
    f: function* (fr: Frame): Generator<void, unknown, void> {
      const b = rt.b;
      for (let i = 0; i < items.length; i++) {
        if (--b.steps < rt.mark) rt.tick(locs[i]);
        const it = items[i];
        const c = it.g ? yield* it.f(fr) : it.f(fr);
        if (typeof c === 'object') return c;
      }
      return 0;
    },
  };
}

/** Generator code for a statement that contains a call that may yield. */
export function stmtGInner(cc: CompileContext, n: N, cx: Cx): Item {
  const loc = cx.src.loc(n);
  switch (n.type) {
    case 'compound_statement':
      return blockG(cc, n, cx, true);
    case 'expression_statement': {
      const steps: GStep[] = [];
      const E = cc.rval(named(n)[0], { ...cx, hoist: steps }, true).f;
      return withSteps(steps, (fr) => {
        E(fr);
        return 0;
      });
    }
    case 'return_statement': {
      const steps: GStep[] = [];
      const f = stmtInner(cc, n, { ...cx, hoist: steps })!;
      return withSteps(steps, f);
    }
    case 'declaration': {
      const parts = declaration(cc, n, { ...cx, hoist: [] }, false);
      return {
        g: true,
        f: function* (fr: Frame): Generator<void, unknown, void> {
          for (const p of parts) {
            if (p.steps) for (const s of p.steps) yield* s(fr);
            p.sf(fr);
          }
          return 0;
        },
      };
    }
    case 'if_statement': {
      const steps: GStep[] = [];
      const C = cc.cond(field(n, 'condition')!, { ...cx, hoist: steps });
      const T = stmtG(cc, field(n, 'consequence')!, cx) ?? { g: false, f: () => 0 };
      const alt = field(n, 'alternative');
      const altS = alt ? (alt.type === 'else_clause' ? named(alt)[0] : alt) : undefined;
      const F = altS ? (stmtG(cc, altS, cx) ?? { g: false as const, f: () => 0 }) : { g: false as const, f: () => 0 };
      return {
        g: true,
        f: function* (fr: Frame): Generator<void, unknown, void> {
          for (const s of steps) yield* s(fr);
          const it = C(fr) ? T : F;
          return it.g ? yield* it.f(fr) : it.f(fr);
        },
      };
    }
    case 'while_statement':
    case 'do_statement':
    case 'for_statement':
      return loopG(cc, n, cx, loc);
    case 'switch_statement':
      return { g: true, f: switchStmt(cc, n, cx, 'gen') as GSF };
  }
  const f = stmt(cc, n, { ...cx, hoist: null });
  return { g: false, f: f ?? (() => 0) };
}

/** A loop that may yield (`while`, `do`, `for`): condition, update and body run their hoisted steps first. */
function loopG(cc: CompileContext, n: N, cx: Cx, loc: SourceLoc): Item {
  const rt: Runtime = cc.rt;
  const fcx: Cx = { ...cx, scope: new Scope(cx.scope) };
  let I: Item | null = null;
  const initN = n.type === 'for_statement' ? field(n, 'initializer') : undefined;
  if (initN) {
    if (initN.type === 'declaration') I = stmtG(cc, initN, fcx);
    else {
      const st: GStep[] = [];
      const E = cc.rval(initN, { ...fcx, hoist: st }, true).f;
      I = withSteps(st, (fr) => {
        E(fr);
        return 0;
      });
    }
  }
  const cs: GStep[] = [];
  const condN = field(n, 'condition');
  const C = condN ? cc.cond(condN, { ...fcx, hoist: cs }) : null;
  const us: GStep[] = [];
  const updN = n.type === 'for_statement' ? field(n, 'update') : undefined;
  const U = updN ? cc.rval(updN, { ...fcx, hoist: us }, true).f : null;
  const B = stmtG(cc, field(n, 'body')!, fcx) ?? { g: false as const, f: () => 0 };
  const isDo = n.type === 'do_statement';
  return {
    g: true,
    f: function* (fr: Frame): Generator<void, unknown, void> {
      if (I) {
        if (I.g) yield* I.f(fr);
        else I.f(fr);
      }
      let first = true;
      for (;;) {
        const b = rt.b;
        if (--b.steps < rt.mark) rt.tick(loc);
        if (C && !(isDo && first)) {
          for (const s of cs) yield* s(fr);
          if (!C(fr)) return 0;
        }
        first = false;
        const c = B.g ? yield* B.f(fr) : B.f(fr);
        if (typeof c === 'object') {
          if (c === BRK) return 0;
          if (c === RET) return RET;
        }
        if (U) {
          for (const s of us) yield* s(fr);
          U(fr);
        }
      }
    },
  };
}

/** A statement `f` after the hoisted steps of its expression (calls that may yield). */
function withSteps(steps: GStep[], f: SF): Item {
  return {
    g: true,
    f: function* (fr: Frame): Generator<void, unknown, void> {
      for (const s of steps) yield* s(fr);
      return f(fr);
    },
  };
}
