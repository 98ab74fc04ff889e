/**
 * A C function compiled to its runnable code: parameters in slots (or copied into the MEM frame),
 * the body (plain or generator), and the `run` that pushes the call record and the MEM frame.
 */
import { SimError, type SourceLoc } from '../../types';
import { alignUp, sizeOf, type CType } from '../ctypes';
import { storer } from '../memops';
import type { FnCode, FnRec, Frame, Hart, Runtime } from '../hostState';
import { Scope, type Cx, type Fx } from '../scope';
import { eachNode, field, named, type N } from '../syntax';
import { frameAlloc, type CompileContext, type Item, type ParamD } from './context';
import { block } from './stmt';
import { blockG } from './stmtGen';

export function compileFn(cc: CompileContext, f: FnRec, gen: boolean): FnCode & { run: unknown } {
  const def = cc.defs.get(f)!;
  const body = field(def.n, 'body')!;
  const fx: Fx = { name: f.name, fn: f, gen, nslots: 2, frameSize: 0, addrTaken: addrTaken(cc, body), ret: f.type.ret, locals: [] };
  for (const a of cc.tensorAddr) fx.addrTaken.add(a);
  const scope = new Scope(cc.global);
  const cx: Cx = { fx, scope, hoist: null, src: cc.src };
  const loc = f.loc;
  const prologue = bindParams(cx, def.params, loc);
  let item: Item;
  if (cc.syntaxBroken.has(f)) {
    const e = cc.problems.find((p) => p.loc && p.loc.line >= loc.line) ?? new SimError('syntax error', loc, [], 'compile');
    item = {
      g: false,
      f: () => {
        throw cc.rt.err(e.message, e.loc, 'compile');
      },
    };
  } else if (gen) item = blockG(cc, body, cx, false);
  else item = { g: false, f: block(cc, body, cx, false) };
  const nslots = fx.nslots;
  const proto: Frame = new Array(nslots).fill(0);
  const code: FnCode = { name: f.name, gen, nslots, proto, frameSize: alignUp(fx.frameSize, 8), locals: fx.locals };
  return runner(cc.rt, code, item, prologue, loc);
}

/**
 * The function's `run`: pushes the call record (code, call site, frame) on the hart's call stack, counts
 * a step, sets up the MEM frame when there is one (zeroed; MEM-homed parameters copied in), runs the
 * body and pops. Small functions without a MEM frame get the shortest path.
 */
function runner(rt: Runtime, code: FnCode, item: Item, prologue: Prologue, loc: SourceLoc): FnCode & { run: unknown } {
  const stores = prologue.map((p) => ({ ...p, st: storer(rt, p.t, loc, true), size: sizeOf(p.t) }));
  const frameSize = code.frameSize;
  const depth = rt.maxCalls / 3;
  const enter = (nf: Frame, site: SourceLoc | undefined): number => {
    const h = rt.cur;
    const calls = h.calls;
    const n = h.n;
    if (n >= rt.maxCalls) rt.fault(`stack overflow: more than ${depth} nested calls`, site ?? loc);
    calls[n] = code;
    calls[n + 1] = site;
    calls[n + 2] = nf;
    h.n = n + 3;
    let sp0 = 0;
    if (frameSize !== 0) {
      if (h.top === 0) rt.allocStack(h, site ?? loc);
      sp0 = h.sp;
      const bp = sp0 - frameSize;
      if (bp < h.lo) rt.fault(`stack overflow: the ${rt.stackBytes}-byte C stack in MEM is full`, site ?? loc);
      h.sp = bp;
      nf[0] = bp;
      rt.writing(bp, frameSize);
      rt.mem.fill(0, bp, sp0);
      for (const p of stores) {
        if (p.t.k === 'struct') rt.memcpy(bp + p.off, nf[p.slot], p.size, site ?? loc);
        else p.st(bp + p.off, nf[p.slot]);
      }
    }
    const b = rt.b;
    if (--b.steps < rt.mark) rt.tick(site ?? loc);
    return sp0;
  };
  const leave = (h: Hart, sp0: number): void => {
    if (frameSize !== 0) h.sp = sp0;
    h.n -= 3;
  };
  if (!item.g) {
    const B = item.f;
    if (frameSize === 0) {
      // the hot path of small functions: no MEM frame
      const max = rt.maxCalls;
      return Object.assign(code, {
        run(nf: Frame, site: SourceLoc | undefined): number {
          const h = rt.cur;
          const n = h.n;
          if (n >= max) rt.fault(`stack overflow: more than ${depth} nested calls`, site ?? loc);
          const calls = h.calls;
          calls[n] = code;
          calls[n + 1] = site;
          calls[n + 2] = nf;
          h.n = n + 3;
          const b = rt.b;
          if (--b.steps < rt.mark) rt.tick(site ?? loc);
          B(nf);
          h.n = n;
          return nf[1];
        },
      });
    }
    return Object.assign(code, {
      run(nf: Frame, site: SourceLoc | undefined): number {
        const h = rt.cur;
        const sp0 = enter(nf, site);
        B(nf);
        leave(h, sp0);
        return nf[1];
      },
    });
  }
  const G = item.f;
  return Object.assign(code, {
    *run(nf: Frame, site: SourceLoc | undefined): Generator<void, number, void> {
      const h = rt.cur;
      const sp0 = enter(nf, site);
      yield* G(nf);
      leave(h, sp0);
      return nf[1];
    },
  });
}

/** Names used as `&name` in a function body (those locals live in MEM). */
export function addrTaken(cc: CompileContext, body: N): Set<string> {
  const out = new Set<string>();
  eachNode(body, (n) => {
    if (n.type === 'pointer_expression' && n.kids[0]?.type === '&') {
      let a = field(n, 'argument');
      while (a && a.type === 'parenthesized_expression') a = named(a)[0];
      if (a?.type === 'identifier') out.add(cc.text(a));
    }
  });
  return out;
}

/** Parameters held in MEM (structs, address taken): copied from their slot into the frame on entry. */
type Prologue = { slot: number; off: number; t: CType }[];

/** Declares the parameters: slots 2.. in order; the MEM-homed ones get a frame offset and a prologue copy. */
function bindParams(cx: Cx, params: ParamD[], loc: SourceLoc): Prologue {
  const prologue: Prologue = [];
  params.forEach((p) => {
    const slot = cx.fx.nslots++;
    if (!p.name) return;
    if (p.t.k === 'struct' || cx.fx.addrTaken.has(p.name)) {
      const off = frameAlloc(cx, p.t, loc);
      cx.scope.syms.set(p.name, { k: 'frame', t: p.t, off, name: p.name });
      cx.fx.locals.push({ name: p.name, type: p.t, offset: off, fromLine: loc.line, toLine: loc.line });
      prologue.push({ slot, off, t: p.t });
    } else {
      cx.scope.syms.set(p.name, { k: 'slot', t: p.t, slot, name: p.name });
      cx.fx.locals.push({ name: p.name, type: p.t, slot, fromLine: loc.line, toLine: loc.line });
    }
  });
  return prologue;
}
