/**
 * Declarations: globals and `extern`s (one record per name), static locals (once per declarator),
 * automatic variables (register slot or MEM frame) with their initialisation code.
 */
import { SimError, type SourceLoc } from '../../types';
import { arr, isScalar, sizeOf, typeName, type CType } from '../ctypes';
import type { GStep, Runtime, SF } from '../hostState';
import type { Cx, GVar, Sym } from '../scope';
import { field, fields, type N } from '../syntax';
import { bad, frameAlloc, nestingError, type CompileContext } from './context';
import { initCount, initOps } from './init';
import { declarator, specs } from './types';
import { conv } from './values';

/** A declarator's initialisation: the statement, and (generator code) the steps hoisted before it. */
export interface DeclInit {
  sf: SF;
  steps: GStep[] | null;
}

/** Declares globals (file scope) or locals; returns per-declarator initialisation code. */
export function declaration(cc: CompileContext, n: N, cx: Cx, fileScope: boolean): DeclInit[] {
  const sp = specs(cc, n, cx);
  const out: DeclInit[] = [];
  for (const dn of fields(n, 'declarator')) {
    const initN = dn.type === 'init_declarator' ? field(dn, 'value') : undefined;
    const d = declarator(cc, sp.t, dn, cx);
    const loc = cx.src.loc(dn);
    if (!d.name) continue;
    if (d.t.k === 'fn') {
      const f = cc.declareFn(d.name, d.t, loc);
      if (!fileScope) cx.scope.syms.set(d.name, { k: 'fn', f });
      continue;
    }
    if (fileScope || sp.storage.has('extern')) {
      const g = declareGlobal(cc, d.name, d.t, loc, !sp.storage.has('extern') || !!initN, sp.storage.has('static'));
      const sym: Sym = { k: 'global', t: g.t, g, name: d.name };
      cx.scope.syms.set(d.name, sym);
      if (initN) globalInit(cc, g, initN, cx);
      continue;
    }
    if (sp.storage.has('static')) {
      const g: GVar = { name: `${cx.fx.name}.${d.name}`, t: d.t, addr: -1, loc, defined: true, isStatic: true };
      const key = `${cx.fx.name}.${d.name}@${dn.id}`;
      const prev = cc.staticKeys.get(key);
      if (prev) {
        cx.scope.syms.set(d.name, { k: 'global', t: prev.t, g: prev, name: d.name });
        continue;
      }
      cc.staticKeys.set(key, g);
      if (initN && g.t.k === 'arr' && g.t.n === undefined) g.t = arr(g.t.of, initCount(cc, g.t, initN, cx));
      addGlobal(cc, g);
      cx.scope.syms.set(d.name, { k: 'global', t: g.t, g, name: d.name });
      if (initN) globalInit(cc, g, initN, cx);
      continue;
    }
    const part = localVar(cc, d.name, d.t, initN, cx, loc);
    if (part) out.push(part);
  }
  return out;
}

/** An automatic variable: a register slot when it is a scalar whose address is never taken, else a place in the MEM frame; its initialisation code. */
function localVar(cc: CompileContext, name: string, declared: CType, initN: N | undefined, cx: Cx, loc: SourceLoc): DeclInit | undefined {
  let t = declared;
  if (initN && t.k === 'arr' && t.n === undefined) t = arr(t.of, initCount(cc, t, initN, cx));
  if (t.k === 'arr' && t.n === undefined) bad(loc, `array '${name}' has no size`);
  if (t.k === 'void') bad(loc, `variable '${name}' declared void`);
  if (t.k === 'struct' && !t.complete) bad(loc, `variable '${name}' has incomplete type ${typeName(t)}`);
  const fx = cx.fx;
  const lines = { fromLine: loc.line, toLine: loc.line };
  let sym: Sym;
  if (isScalar(t) && !fx.addrTaken.has(name)) {
    if (fx.noFrame) bad(loc, `not simulated: declaration in ${fx.noFrame}`, 'not-simulated');
    const slot = fx.nslots++;
    sym = { k: 'slot', t, slot, name: name };
    fx.locals.push({ name: name, type: t, slot, ...lines });
  } else {
    const off = frameAlloc(cx, t, loc);
    sym = { k: 'frame', t, off, name: name };
    fx.locals.push({ name: name, type: t, offset: off, ...lines });
  }
  cx.scope.syms.set(name, sym);
  if (!initN) return undefined;
  const steps: GStep[] | null = cx.hoist ? [] : null;
  const icx: Cx = { ...cx, hoist: steps };
  if (sym.k === 'slot') {
    const V = conv(cc.rval(initN, icx), t, initN, icx).f;
    const slot = sym.slot;
    return {
      sf: (fr) => {
        fr[slot] = V(fr);
        return 0;
      },
      steps,
    };
  } else {
    const off = sym.off;
    const size = sizeOf(t);
    const ops = initOps(cc, t, initN, icx);
    const rt: Runtime = cc.rt;
    return {
      sf: (fr) => {
        const base = fr[0] + off;
        rt.writing(base, size);
        if (size > 0 && (t.k === 'arr' || t.k === 'struct')) rt.mem.fill(0, base, base + size);
        for (let i = 0; i < ops.length; i++) ops[i](fr, base);
        return 0;
      },
      steps,
    };
  }
}

export function declareGlobal(cc: CompileContext, name: string, t: CType, loc: SourceLoc, definition: boolean, isStatic: boolean): GVar {
  let g = cc.gByName.get(name);
  if (g) {
    if (g.t.k === 'arr' && g.t.n === undefined && t.k === 'arr' && t.n !== undefined) g.t = t;
    if (definition) g.defined = true;
    return g;
  }
  g = { name, t, addr: -1, loc, defined: definition, isStatic };
  cc.gByName.set(name, g);
  addGlobal(cc, g);
  cc.varNames.add(name);
  return g;
}

export function addGlobal(cc: CompileContext, g: GVar): void {
  cc.gvars.push(g);
}

export function globalInit(cc: CompileContext, g: GVar, initN: N, cx: Cx): void {
  if (g.t.k === 'arr' && g.t.n === undefined) g.t = arr(g.t.of, initCount(cc, g.t, initN, cx));
  const gcx: Cx = { ...cx, fx: { ...cx.fx, noFrame: 'a static initialiser' }, hoist: null };
  g.initLoc = cx.src.loc(initN);
  try {
    const ops = initOps(cc, g.t, initN, gcx);
    g.init = (fr) => {
      for (let i = 0; i < ops.length; i++) ops[i](fr, g.addr);
    };
  } catch (caught) {
    const e = nestingError(caught, () => cx.src.loc(initN)) ?? caught;
    if (!(e instanceof SimError)) throw e;
    cc.problems.push(e);
    g.init = () => {
      throw cc.rt.err(e.message, e.loc, e.kind);
    };
  }
}
