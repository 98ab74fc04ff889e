/**
 * Calls: helper functions (compiled once into their own unit and frame; arguments are evaluated into
 * temporaries before they are bound, so nested calls of the same helper work; recursion is not simulated)
 * and the PCORE intrinsics.
 */
import type * as A from '../../../pcore/ast';
import type { PcoreKernel } from '../../../pcore/model';
import * as R from '../kernelState';
import { ExprCompiler } from './expressions';
import { bad, notSim, type Val } from './types';
import { isIntType, type FnUnit } from './unit';

// Bound once (see base.ts).
const { LANES, sat12, wrap13 } = R;

export abstract class CallCompiler extends ExprCompiler {
  /** A call of a helper function (its unit compiled on the first call) or of an intrinsic. */
  protected call(e: A.CallExpr, want: boolean): Val {
    const callee = e.callee;
    if (callee.kind !== 'Identifier') bad(e, 'called object is not a function');
    const sym = callee.symbol;
    if (!sym) bad(callee, `undefined function \`${callee.name}\``);
    if (sym.kind === 'intrinsic') return this.intrinsic(e, sym.name);
    if (sym.kind !== 'function') bad(callee, `\`${callee.name}\` is not a function`);
    const fn = sym.fn;
    if (fn.isKernel) notSim(e, `calling the kernel \`${fn.fullName}\` from PCORE code`);
    if (fn.params.length !== e.args.length) bad(e, `\`${fn.fullName}\` expects ${fn.params.length} argument(s), got ${e.args.length}`);
    const existing = this.units.get(fn);
    if (existing && existing.state === 'compiling') notSim(e, `recursive call of \`${fn.fullName}\``);
    const args = e.args.map((a) => this.rv(a));
    const u = this.unit(fn);
    const { evals, binds } = this.argBinders(e, fn, u, args);
    if (u.ret === 'void' && want && fn.returnType !== 'void') notSim(e, `functions returning \`${fn.returnType}\``);
    const M = this.M;
    const body = (): void => {
      for (let i = 0; i < evals.length; i++) evals[i]();
      u.enter();
      for (let i = 0; i < binds.length; i++) binds[i]();
      const d = M.depth;
      M.sites[d] = e.start;
      M.depth = d + 1;
      M.fns[d + 1] = fn.fullName;
      u.body();
      M.depth = d;
    };
    const rb = u.retBuf;
    switch (u.ret) {
      case 'void':
        return { k: 'void', f: body };
      case 'int':
        return {
          k: 'int',
          f: () => {
            body();
            return rb[0];
          },
        };
      case 'word':
        return {
          k: 'word',
          f: () => {
            body();
            return rb[0];
          },
        };
      case 'vec': {
        const out = new Int32Array(LANES);
        return {
          k: 'vec',
          f: () => {
            body();
            out.set(rb);
            return out;
          },
        };
      }
    }
  }

  /**
   * The arguments are evaluated into temporaries (`evals`), then bound into the callee's frame once it
   * is reset (`binds`), so that nested calls of the same helper work; each is converted as its parameter
   * stores it (13-bit wrap for `int`, 12-bit saturation for int16/vint16, pointers as they are).
   */
  private argBinders(e: A.CallExpr, fn: PcoreKernel, u: FnUnit, args: Val[]): { evals: (() => void)[]; binds: (() => void)[] } {
    const fr = u.fr;
    const n = args.length;
    const tmpS = new Float64Array(Math.max(n, 1));
    const evals: (() => void)[] = [];
    const binds: (() => void)[] = [];
    fn.params.forEach((p, i) => {
      const a = args[i];
      const o = u.slots.get(p);
      if (o === undefined) bad(e.args[i], `parameter \`${p.name}\` has an unknown size`);
      if (a.k === 'void') bad(e.args[i], 'void value used as an argument');
      if (p.pointer) {
        if (a.k === 'vec') bad(e.args[i], 'vector passed to a pointer parameter');
        const f = this.rawFn(a, e.args[i]);
        evals.push(() => {
          tmpS[i] = f();
        });
        binds.push(() => {
          fr[o] = tmpS[i];
        });
        return;
      }
      if (isIntType(p.type)) {
        if (a.k === 'vec') notSim(e.args[i], 'vector passed to an `int` parameter');
        const f = this.sf(a, e.args[i]);
        evals.push(() => {
          tmpS[i] = f();
        });
        binds.push(() => {
          fr[o] = wrap13(tmpS[i]);
        });
        return;
      }
      if (p.dims.length) notSim(e.args[i], 'array parameters');
      if (p.type === 'int16') {
        if (a.k === 'vec') notSim(e.args[i], 'vector passed to an `int16` parameter');
        const f = this.sf(a, e.args[i]);
        evals.push(() => {
          tmpS[i] = f();
        });
        binds.push(() => {
          fr[o] = sat12(tmpS[i]);
        });
        return;
      }
      if (p.type === 'vint16') {
        if (a.k === 'ptr') bad(e.args[i], 'pointer passed to a vector parameter');
        const f = this.vf(a, e.args[i]);
        const tmp = new Int32Array(LANES);
        evals.push(() => {
          tmp.set(f());
        });
        binds.push(() => {
          for (let l = 0; l < 8; l++) fr[o + l] = sat12(tmp[l]);
        });
        return;
      }
      notSim(e.args[i], `\`${p.type}\` parameters`);
    });
    return { evals, binds };
  }

  /** GE/GT/LE/LT/EQ/NE lane masks, ASN/ASN_RAW conversions, ADD/SUB/MUL. */
  private intrinsic(e: A.CallExpr, name: string): Val {
    const args = e.args;
    const need = (n: number): void => {
      if (args.length !== n) bad(e, `\`${name}\` expects ${n} argument(s), got ${args.length}`);
    };
    switch (name) {
      case 'GE':
      case 'GT':
      case 'LE':
      case 'LT':
      case 'EQ':
      case 'NE': {
        need(2);
        const a = this.rv(args[0]);
        const b = this.rv(args[1]);
        return this.compare(name, a, b, e);
      }
      case 'ASN_RAW': {
        need(1);
        const a = this.rv(args[0]);
        if (a.k === 'vec') notSim(e, '`ASN_RAW` of a vector');
        this.cost += 1;
        const f = this.sf(a, e);
        return { k: 'int', f: () => wrap13(f()) };
      }
      case 'ASN': {
        need(1);
        const a = this.rv(args[0]);
        if (a.k === 'void' || a.k === 'ptr') bad(e, '`ASN` needs a data value');
        this.cost += a.k === 'vec' ? 8 : 1;
        return a;
      }
      case 'ADD':
      case 'SUB':
      case 'MUL': {
        need(2);
        return this.binary(name === 'ADD' ? '+' : name === 'SUB' ? '-' : '*', this.rv(args[0]), this.rv(args[1]), e);
      }
      default:
        return notSim(e, `intrinsic \`${name}\``);
    }
  }
}
