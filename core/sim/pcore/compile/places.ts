/**
 * Storage places of lvalues (`Place`): where a variable lives (PCORE memory, a frame slot, an integer,
 * pointer or accumulator register), the address token of a subscript or a dereference with its bounds
 * check, and the read closure of a place. Constant indices are folded and checked once, at compile time.
 */
import type * as A from '../../../pcore/ast';
import type { PcoreParam, PcoreSymbol, PcoreVarInfo } from '../../../pcore/model';
import * as R from '../kernelState';
import { CompilerBase } from './base';
import { bad, CErr, notSim, type Num, type Place, type Rel, type Val } from './types';
import { isIntType, type FnUnit } from './unit';

// Bound once (see base.ts).
const { LANES, PCORE_WORDS, SHARED_HALF, SHARED_TAG, SHARED_TOKEN, THREAD_WORDS, wrap13 } = R;

/** Where a variable lives. */
type Home =
  | { w: 'priv' | 'shared'; off: number }
  | { w: 'frame'; unit: FnUnit; off: number }
  | { w: 'acc'; reg: number }
  | { w: 'ireg'; reg: number }
  | { w: 'preg'; reg: number };

export abstract class PlaceCompiler extends CompilerBase {
  /** Where a variable, parameter or local lives, from the analyzer's offsets and register numbers. */
  private homeOf(node: A.Node, sym: PcoreSymbol): { info: PcoreVarInfo; home: Home; name: string } {
    const L = this.L;
    switch (sym.kind) {
      case 'variable': {
        const v = sym.variable;
        switch (v.storage) {
          case 'private':
          case 'shared':
            if (v.offset === undefined || !v.sizeKnown) bad(node, `\`${v.fullName}\` has no memory offset (its size could not be evaluated)`);
            return { info: v, home: { w: v.storage === 'private' ? 'priv' : 'shared', off: v.offset }, name: v.fullName };
          case 'accumulator':
            if (v.register === undefined || !v.sizeKnown) bad(node, `\`${v.fullName}\` has no accumulator register`);
            return { info: v, home: { w: 'acc', reg: v.register }, name: v.fullName };
          case 'integer':
            if (v.register === undefined) bad(node, `\`${v.fullName}\` has no integer register`);
            return { info: v, home: { w: 'ireg', reg: L.int0 + v.register }, name: v.fullName };
          case 'pointer':
            if (v.register === undefined) bad(node, `\`${v.fullName}\` has no pointer register`);
            return { info: v, home: { w: 'preg', reg: L.ptr0 + v.register }, name: v.fullName };
        }
        break;
      }
      case 'param': {
        const p = sym.param;
        const u = this.unitOfParam(node, p);
        const o = u.slots.get(p);
        if (o !== undefined) return { info: p, home: { w: 'frame', unit: u, off: o }, name: p.name };
        if (p.offset === undefined || !p.sizeKnown) bad(node, `parameter \`${p.name}\` has no memory offset`);
        return { info: p, home: { w: 'priv', off: p.offset }, name: p.name };
      }
      case 'local': {
        const l = sym.local;
        const u = this.cur;
        const o = u.slots.get(l);
        if (o === undefined) bad(node, `local \`${l.name}\` has an unknown size`);
        return { info: l, home: { w: 'frame', unit: u, off: o }, name: l.name };
      }
      default:
        break;
    }
    return bad(node, 'not a variable');
  }

  /** The unit owning a parameter (the one being compiled; anything else is a misuse). */
  private unitOfParam(node: A.Node, p: PcoreParam): FnUnit {
    const u = this.cur;
    if (u.k.fullName !== p.kernel) bad(node, `parameter \`${p.name}\` of \`${p.kernel}\` used outside its function`);
    return u;
  }

  /** Place designated by an lvalue-like expression. */
  place(e: A.Expr): Place {
    switch (e.kind) {
      case 'Identifier':
        return this.identPlace(e, e, []);
      case 'Index': {
        const idx: A.Expr[] = [];
        let root: A.Expr = e;
        while (root.kind === 'Index') {
          idx.push(root.index);
          root = root.object;
        }
        idx.reverse();
        if (root.kind === 'Identifier' && root.symbol && root.symbol.kind !== 'builtin') return this.identPlace(e, root, idx);
        const p = this.rv(root);
        if (p.k !== 'ptr') bad(e, 'subscripted value is not an array, a vector or a pointer');
        return this.derefPlace(e, p, idx);
      }
      case 'Unary':
        if (e.op === '*') {
          const p = this.rv(e.argument);
          if (p.k !== 'ptr') bad(e, '`*` needs a pointer');
          return this.derefPlace(e, p, []);
        }
        break;
      default:
        break;
    }
    return bad(e, 'invalid assignment target (expected a variable, an array element or `*pointer`)');
  }

  /** A named variable (or `_VMASK`) subscripted by `idxExprs`. */
  private identPlace(node: A.Expr, id: A.Identifier, idxExprs: A.Expr[]): Place {
    const sym = id.symbol;
    if (!sym) bad(id, `undefined name \`${id.name}\``);
    if (sym.kind === 'builtin') {
      if (sym.name !== '_VMASK') bad(id, `\`${sym.name}\` is read-only`);
      if (idxExprs.length) bad(node, '`_VMASK` is not an array');
      const M = this.M;
      return {
        k: 'int',
        unit: 1,
        prep: () => M.so,
        get: (a) => M.S[a],
        set: (a, v) => {
          M.S[a] = wrap13(v);
        },
        fast: { k: 'int', f: () => M.S[M.so] },
        noAddr: 'address of `_VMASK`',
      };
    }
    if (sym.kind === 'function' || sym.kind === 'intrinsic') bad(id, `\`${id.name}\` is a function, not a variable`);
    const { info, home, name } = this.homeOf(id, sym);
    return this.varPlace(node, info, home, name, idxExprs);
  }

  /** A variable, subscripted by `idxExprs`: an `int`, a pointer (subscripts dereference it) or data. */
  private varPlace(node: A.Expr, info: PcoreVarInfo, home: Home, name: string, idxExprs: A.Expr[]): Place {
    if (home.w === 'ireg' || (home.w === 'frame' && isIntType(info.type) && !info.pointer)) {
      if (idxExprs.length) bad(node, `subscripted value \`${name}\` is not an array`);
      return this.intVarPlace(home);
    }
    if (info.pointer) {
      const pl = this.ptrVarPlace(node, info, home, name);
      if (!idxExprs.length) return pl;
      return this.derefPlace(node, this.read(pl, node) as Val & { k: 'ptr' }, idxExprs);
    }
    return this.dataVarPlace(node, info, home, name, idxExprs);
  }

  /** An `int` variable: an integer register of the thread state or a frame slot, wrapped to 13 bits. */
  private intVarPlace(home: Extract<Home, { w: 'ireg' | 'frame' }>): Place {
    const M = this.M;
    if (home.w === 'ireg') {
      const r = home.reg;
      return {
        k: 'int',
        unit: 1,
        prep: () => M.so + r,
        get: (a) => M.S[a],
        set: (a, v) => {
          M.S[a] = wrap13(v);
        },
        fast: { k: 'int', f: () => M.S[M.so + r] },
        noAddr: 'address of an `int` variable',
        slot: { reg: r },
      };
    }
    const fr = home.unit.fr;
    const o = home.off;
    return {
      k: 'int',
      unit: 1,
      prep: () => o,
      get: (a) => fr[a],
      set: (a, v) => {
        fr[a] = wrap13(v);
      },
      fast: { k: 'int', f: () => fr[o] },
      noAddr: 'address of an `int` variable',
      slot: { fr, o },
    };
  }

  /** A pointer variable: a pointer register of the thread state or a frame slot. */
  private ptrVarPlace(node: A.Expr, info: PcoreVarInfo, home: Home, name: string): Place {
    const M = this.M;
    const unit: 1 | 8 = info.type === 'vint16' ? 8 : info.type === 'int16' ? 1 : notSim(node, `pointer to \`${info.type}\``);
    if (home.w === 'preg') {
      const r = home.reg;
      return {
        k: 'ptr',
        unit,
        prep: () => M.so + r,
        get: (a) => M.S[a],
        set: (a, v) => {
          M.S[a] = v | 0;
        },
        fast: { k: 'ptr', unit, f: () => M.S[M.so + r] },
        noAddr: 'address of a pointer variable',
        slot: { reg: r },
      };
    }
    if (home.w === 'frame') {
      const fr = home.unit.fr;
      const o = home.off;
      return {
        k: 'ptr',
        unit,
        prep: () => o,
        get: (a) => fr[a],
        set: (a, v) => {
          fr[a] = v | 0;
        },
        fast: { k: 'ptr', unit, f: () => fr[o] },
        noAddr: 'address of a pointer variable',
        slot: { fr, o },
      };
    }
    return bad(node, `pointer \`${name}\` has no register`);
  }

  /**
   * An int16/vint16 or accumulator variable with `idxExprs` subscripts: an array (fewer subscripts than
   * dimensions), a vector (all dimensions of a vint16) or a word (also a vector's lane).
   */
  private dataVarPlace(node: A.Expr, info: PcoreVarInfo, home: Home, name: string, idxExprs: A.Expr[]): Place {
    const t = info.type;
    const isAcc = info.storage === 'accumulator';
    if (!isAcc && t !== 'int16' && t !== 'vint16') notSim(node, `\`${t}\` variables`);
    const d = info.dims.length;
    const n = idxExprs.length;
    const lanes = info.lanes;
    if (n > d + (lanes > 1 ? 1 : 0)) bad(node, `too many indices for \`${name}\``);
    // element kind
    let k: Place['k'];
    let width: 1 | 8;
    if (n < d) {
      if (isAcc) notSim(node, 'accumulator array used as a value');
      k = 'array';
      width = lanes === 8 ? 8 : 1;
    } else if (n === d && lanes === 8) {
      k = 'vec';
      width = 8;
    } else {
      k = 'word';
      width = 1;
    }
    // strides over shape (dims + lanes)
    const shape = info.shape;
    const strides: number[] = [];
    for (let i = 0; i < n; i++) {
      let s = 1;
      for (let j = i + 1; j < shape.length; j++) s *= shape[j];
      strides.push(s);
    }
    const idx = idxExprs.map((x) => this.indexVal(x));
    const rel = this.relOf(idx, strides, 0);
    const span = k === 'vec' ? 8 : k === 'word' ? 1 : 0;
    switch (home.w) {
      case 'priv':
      case 'shared':
        return this.memPlace(node, home.w === 'shared', home.off, rel, k, width, span);
      case 'frame':
        return this.framePlace(node, home.unit, home.off, info.len, rel, k, width, span, isAcc, name);
      case 'acc':
        return this.accPlace(node, home.reg, rel, k, span);
      default:
        return bad(node, `\`${name}\` is not a memory variable`);
    }
  }

  /** A subscript: a scalar value. */
  private indexVal(x: A.Expr): Val {
    const v = this.rv(x);
    if (v.k === 'vec') notSim(x, 'vector used as an index');
    if (v.k === 'ptr') bad(x, 'pointer used as an index');
    if (v.k === 'void') bad(x, 'void value used as an index');
    return v;
  }

  /** Σ idx·stride + base, folding constant indices. */
  private relOf(idx: Val[], strides: number[], base: number): Rel {
    let c = base;
    const dyn: { f: Num; s: number }[] = [];
    idx.forEach((v, i) => {
      if (v.k === 'const') c += v.v * strides[i];
      else dyn.push({ f: (v as { f: Num }).f, s: strides[i] });
    });
    if (dyn.length === 0) return { c, f: () => c };
    if (dyn.length === 1) {
      const { f, s } = dyn[0];
      return { c: undefined, f: s === 1 ? () => c + f() : () => c + f() * s };
    }
    if (dyn.length === 2) {
      const [a, b] = dyn;
      const fa = a.f,
        sa = a.s,
        fb = b.f,
        sb = b.s;
      return { c: undefined, f: () => c + fa() * sa + fb() * sb };
    }
    return {
      c: undefined,
      f: () => {
        let r = c;
        for (let i = 0; i < dyn.length; i++) r += dyn[i].f() * dyn[i].s;
        return r;
      },
    };
  }

  /**
   * PCORE memory words of a private or shared variable at `off + rel`: the token is the word's index in
   * `M.priv` (thread base `M.pb`) or `M.shared` (PCORE base `M.cb`), checked unless the index is a
   * constant inside the space; `addr` is the pointer value (`SHARED_TAG` for shared, vector units for vectors).
   */
  private memPlace(node: A.Node, shared: boolean, off: number, relIdx: Rel, k: Place['k'], width: 1 | 8, span: number): Place {
    const M = this.M;
    const ops = shared ? this.sharedOps : this.privOps;
    const lim = PCORE_WORDS - Math.max(span, 1);
    const c = relIdx.c === undefined ? undefined : off + relIdx.c;
    const rf = relIdx.f;
    const rel: Num = c !== undefined ? () => c : () => off + rf();
    let prep: Num;
    const safe = c !== undefined && c >= 0 && c + span <= (shared ? PCORE_WORDS : THREAD_WORDS);
    if (shared) {
      if (safe) prep = () => M.cb + c;
      else {
        prep = () => {
          const r = rel();
          const a = M.cb + r;
          if ((a - M.cb) >>> 0 > lim) throw this.oob(node, true, r, span);
          return a;
        };
      }
    } else if (safe) prep = () => M.pb + c;
    else {
      prep = () => {
        const r = rel();
        const a = M.pb + r;
        if ((a - M.cb) >>> 0 > lim) throw this.oob(node, false, r, span);
        return a;
      };
    }
    const tag = shared ? SHARED_TAG : 0;
    let addr: Num;
    if (width === 8) {
      addr = () => {
        const r = rel();
        if ((r & 7) !== 0) throw this.raise(node.start, `vector address ${r} is not a multiple of 8 words`, 'fault');
        return tag + (r >> 3);
      };
    } else addr = () => tag + rel();
    const pl: Place = { k, unit: width, prep, addr, ...ops };
    if (k === 'vec' && safe && !(shared && this.deferShared)) {
      const out = new Int32Array(LANES);
      pl.fast = shared
        ? {
            k: 'vec',
            f: () => {
              const m = M.shared;
              const a = M.cb + c;
              for (let i = 0; i < 8; i++) out[i] = m[a + i];
              return out;
            },
          }
        : {
            k: 'vec',
            f: () => {
              const m = M.priv;
              const a = M.pb + c;
              for (let i = 0; i < 8; i++) out[i] = m[a + i];
              return out;
            },
          };
    }
    return pl;
  }

  /** Words of a local (or helper parameter) in its unit's frame, checked against the local's length. */
  private framePlace(
    node: A.Node,
    u: FnUnit,
    base: number,
    len: number,
    relIdx: Rel,
    k: Place['k'],
    width: 1 | 8,
    span: number,
    acc: boolean,
    name: string,
  ): Place {
    const ops = this.frameOps(u, !acc);
    const rf = relIdx.f;
    const c = relIdx.c;
    const n = Math.max(span, 1);
    let prep: Num;
    if (c !== undefined && c >= 0 && c + n <= len) {
      const a = base + c;
      prep = () => a;
    } else {
      prep = () => {
        const r = rf();
        if (r < 0 || r + n > len) throw this.raise(node.start, `index out of range: word ${r} of local \`${name}\` (${len} words)`, 'fault');
        return base + r;
      };
    }
    const pl: Place = { k, unit: width, prep, noAddr: `address of local variable \`${name}\``, ...ops };
    if (k === 'vec' && c !== undefined && c >= 0 && c + 8 <= len) {
      const view = u.fr.subarray(base + c, base + c + 8);
      pl.fast = { k: 'vec', f: () => view };
    }
    return pl;
  }

  /** Lanes of an accumulator register in the thread state, checked against the accumulator lanes. */
  private accPlace(node: A.Node, reg: number, relIdx: Rel, k: Place['k'], span: number): Place {
    const M = this.M;
    const L = this.L;
    const rf = relIdx.f;
    const base = L.acc0 + reg;
    const lim = L.accLanes - span;
    const c = relIdx.c;
    let prep: Num;
    if (c !== undefined && reg + c >= 0 && reg + c <= lim) {
      const o = base + c;
      prep = () => M.so + o;
    } else {
      prep = () => {
        const r = rf();
        if (reg + r < 0 || reg + r > lim) {
          throw this.raise(node.start, `accumulator index out of range: lane ${reg + r} of ${L.accLanes}`, 'fault');
        }
        return M.so + base + r;
      };
    }
    return { k, unit: k === 'vec' ? 8 : 1, prep, noAddr: 'address of an accumulator', ...this.accOps };
  }

  /** `p[i]`, `p[i][lane]`, `*p` for a pointer value. */
  private derefPlace(node: A.Expr, p: Val & { k: 'ptr' }, idxExprs: A.Expr[]): Place {
    const M = this.M;
    const unit = p.unit;
    if (idxExprs.length > (unit === 8 ? 2 : 1)) bad(node, 'too many indices for a pointer');
    const iv = idxExprs.length ? this.indexVal(idxExprs[0]) : ({ k: 'const', v: 0 } as Val);
    const lv = idxExprs.length > 1 ? this.indexVal(idxExprs[1]) : undefined;
    const k: Place['k'] = unit === 8 && !lv ? 'vec' : 'word';
    const span = k === 'vec' ? 8 : 1;
    const lim = PCORE_WORDS - span;
    const pf = p.f;
    const fi: Num =
      iv.k === 'const'
        ? (
            (c) => () =>
              c
          )(iv.v)
        : (iv as { f: Num }).f;
    const fl: Num = !lv
      ? () => 0
      : lv.k === 'const'
        ? (
            (c) => () =>
              c
          )(lv.v)
        : (lv as { f: Num }).f;
    let prep: Num;
    if (!lv && iv.k === 'const') {
      const ci = iv.v;
      prep = () => {
        const r = pf();
        if (r >= SHARED_HALF) {
          const w = (r - SHARED_TAG + ci) * unit;
          const a = M.cb + w;
          if ((a - M.cb) >>> 0 > lim) throw this.oob(node, true, w, span);
          return a + SHARED_TOKEN;
        }
        const w = (r + ci) * unit;
        const a = M.pb + w;
        if ((a - M.cb) >>> 0 > lim) throw this.oob(node, false, w, span);
        return a;
      };
    } else {
      prep = () => {
        const r = pf();
        if (r >= SHARED_HALF) {
          const w = (r - SHARED_TAG + fi()) * unit + fl();
          const a = M.cb + w;
          if ((a - M.cb) >>> 0 > lim) throw this.oob(node, true, w, span);
          return a + SHARED_TOKEN;
        }
        const w = (r + fi()) * unit + fl();
        const a = M.pb + w;
        if ((a - M.cb) >>> 0 > lim) throw this.oob(node, false, w, span);
        return a;
      };
    }
    const addr: Num = !lv
      ? () => pf() + fi()
      : () => {
          const r = pf();
          const sh = r >= SHARED_HALF;
          return (sh ? SHARED_TAG : 0) + ((sh ? r - SHARED_TAG : r) + fi()) * 8 + fl();
        };
    return { k, unit: k === 'vec' ? 8 : 1, prep, addr, ...this.dynOps };
  }

  /** Value of a place. */
  read(pl: Place, node: A.Node): Val & { k: 'int' | 'word' | 'vec' | 'ptr' } {
    if (pl.fast) return pl.fast as Val & { k: 'int' | 'word' | 'vec' | 'ptr' };
    const prep = pl.prep;
    switch (pl.k) {
      case 'int': {
        const get = pl.get!;
        return { k: 'int', f: () => get(prep()) };
      }
      case 'word': {
        const get = pl.get!;
        return { k: 'word', f: () => get(prep()) };
      }
      case 'ptr': {
        const get = pl.get!;
        return { k: 'ptr', unit: pl.unit, f: () => get(prep()) };
      }
      case 'vec': {
        const load = pl.load!;
        const out = new Int32Array(LANES);
        return {
          k: 'vec',
          f: () => {
            load(prep(), out);
            return out;
          },
        };
      }
      case 'array': {
        const addr = pl.addr;
        if (!addr) notSim(node, pl.noAddr ?? 'array used as a value');
        return { k: 'ptr', unit: pl.unit, f: addr };
      }
    }
  }

  /** place() with the node's offset attached to location-less errors. */
  protected placeNode(e: A.Expr): Place {
    try {
      return this.place(e);
    } catch (err) {
      if (err instanceof CErr && err.off === 0 && e.start !== 0) throw new CErr(e.start, err.msg, err.kind);
      throw err;
    }
  }
}
