/**
 * Statements, compiled to closures returning a completion code (NORMAL/BRK/CNT/RET). Each statement (and
 * each loop iteration) decrements the step budget and adds its static lane-operation count. A construct
 * the interpreter does not support compiles into a statement that throws SimError('not-simulated') when
 * it is reached, so the rest of the program still runs.
 */
import type * as A from '../../../pcore/ast';
import { evaluateConstant } from '../../../pcore/evaluate';
import type { PcoreLocal } from '../../../pcore/model';
import * as R from '../kernelState';
import { CallCompiler } from './calls';
import { bad, CErr, fnOf, notSim, type Stmt } from './types';

// Bound once (see base.ts).
const { BRK, CNT, NORMAL, RET, sat12, wrap13 } = R;

export abstract class StmtCompiler extends CallCompiler {
  /** Compiles a statement; unsupported constructs become a statement that throws when reached. */
  stmt(s: A.Stmt): Stmt | null {
    const saved = this.cost;
    this.cost = 0;
    try {
      return this.stmtInner(s);
    } catch (err) {
      if (!(err instanceof CErr)) throw err;
      const off = err.off || s.start;
      const msg = err.msg;
      const kind = err.kind;
      const M = this.M;
      const poll = this.poll;
      return () => {
        if (--M.left < M.mark) poll(s.start);
        throw this.raise(off, msg, kind);
      };
    } finally {
      this.cost = saved;
    }
  }

  /** A block: statements in order until one completes other than NORMAL. */
  private list(stmts: A.Stmt[]): Stmt {
    const fs: Stmt[] = [];
    for (const s of stmts) {
      const f = this.stmt(s);
      if (f) fs.push(f);
    }
    if (fs.length === 0) return () => NORMAL;
    if (fs.length === 1) return fs[0];
    if (fs.length === 2) {
      const [a, b] = fs;
      return () => {
        const r = a();
        if (r !== NORMAL) return r;
        return b();
      };
    }
    const n = fs.length;
    return () => {
      for (let i = 0; i < n; i++) {
        const r = fs[i]();
        if (r !== NORMAL) return r;
      }
      return NORMAL;
    };
  }

  /** A statement's closure, or null when it does nothing (throws CErr for what cannot be compiled). */
  private stmtInner(s: A.Stmt): Stmt | null {
    switch (s.kind) {
      case 'Empty':
      case 'PragmaStmt':
        return null;
      case 'ErrorStmt':
        return bad(s, 'syntax error');
      case 'Block':
        return this.list(s.body);
      case 'ExprStmt': {
        const f = this.effect(s.expression);
        return this.counted(s.start, f, NORMAL);
      }
      case 'DeclStmt':
        return this.decl(s.declaration);
      case 'If':
        return this.ifStmt(s);
      case 'For':
        return this.forStmt(s);
      case 'While':
        return this.whileStmt(s);
      case 'DoWhile':
        return this.doWhileStmt(s);
      case 'Switch':
        return this.switchStmt(s);
      case 'Break':
        return () => BRK;
      case 'Continue':
        return () => CNT;
      case 'Return':
        return this.returnStmt(s);
    }
  }

  /** One step running `f` (with the cost compiled so far), then completing with `code`. */
  private counted(off: number, f: () => unknown, code: number): Stmt {
    const M = this.M;
    const poll = this.poll;
    const cost = this.cost;
    return () => {
      if (--M.left < M.mark) poll(off);
      M.ops += cost;
      f();
      return code;
    };
  }

  /** `if`: the test is the step, the branch taken runs its own steps. */
  private ifStmt(s: A.IfStmt): Stmt {
    const M = this.M;
    const poll = this.poll;
    const off = s.start;
    const t = this.test(s.test);
    const cost = this.cost;
    const a = this.stmt(s.consequent) ?? (() => NORMAL);
    const b = s.alternate ? (this.stmt(s.alternate) ?? (() => NORMAL)) : null;
    if (b) {
      return () => {
        if (--M.left < M.mark) poll(off);
        M.ops += cost;
        return t() !== 0 ? a() : b();
      };
    }
    return () => {
      if (--M.left < M.mark) poll(off);
      M.ops += cost;
      return t() !== 0 ? a() : NORMAL;
    };
  }

  /** `for`: the init counts as one step, each iteration one more (at the test). */
  private forStmt(s: A.ForStmt): Stmt {
    const M = this.M;
    const poll = this.poll;
    const off = s.start;
    let init: Stmt | null = null;
    let initCost = 0;
    if (s.init) {
      if (s.init.kind === 'DeclStmt') init = this.stmt(s.init);
      else {
        const [f, c] = this.withCost(() => this.effect(s.init as A.Expr));
        initCost = c;
        init = () => {
          f();
          return NORMAL;
        };
      }
    }
    const [test, testCost] = this.withCost(() => (s.test ? this.test(s.test) : null));
    const [upd, updCost] = this.withCost(() => (s.update ? this.effect(s.update) : null));
    const body = this.stmt(s.body) ?? (() => NORMAL);
    const toff = s.test ? s.test.start : off;
    return () => {
      if (--M.left < M.mark) poll(off);
      M.ops += initCost;
      if (init !== null && init() === RET) return RET;
      for (;;) {
        if (--M.left < M.mark) poll(toff);
        if (test !== null) {
          M.ops += testCost;
          if (test() === 0) break;
        }
        const r = body();
        if (r === BRK) break;
        if (r === RET) return RET;
        if (upd !== null) {
          M.ops += updCost;
          upd();
        }
      }
      return NORMAL;
    };
  }

  /** `while`: each test is a step. */
  private whileStmt(s: A.WhileStmt): Stmt {
    const M = this.M;
    const poll = this.poll;
    const off = s.start;
    const [test, testCost] = this.withCost(() => this.test(s.test));
    const body = this.stmt(s.body) ?? (() => NORMAL);
    return () => {
      for (;;) {
        if (--M.left < M.mark) poll(off);
        M.ops += testCost;
        if (test() === 0) break;
        const r = body();
        if (r === BRK) break;
        if (r === RET) return RET;
      }
      return NORMAL;
    };
  }

  /** `do … while`: the body first, then each test is a step. */
  private doWhileStmt(s: A.DoWhileStmt): Stmt {
    const M = this.M;
    const poll = this.poll;
    const [test, testCost] = this.withCost(() => this.test(s.test));
    const body = this.stmt(s.body) ?? (() => NORMAL);
    const toff = s.test.start;
    return () => {
      for (;;) {
        const r = body();
        if (r === BRK) break;
        if (r === RET) return RET;
        if (--M.left < M.mark) poll(toff);
        M.ops += testCost;
        if (test() === 0) break;
      }
      return NORMAL;
    };
  }

  /** `switch`: the case labels are constants, mapped to where their statements start; fall-through as in C. */
  private switchStmt(s: A.SwitchStmt): Stmt {
    const M = this.M;
    const poll = this.poll;
    const off = s.start;
    const d = this.rv(s.discriminant);
    if (d.k === 'vec') notSim(s.discriminant, 'switch on a vector');
    const disc = this.rawFn(d, s.discriminant);
    const cost = this.cost;
    const flat: Stmt[] = [];
    const starts = new Map<number, number>();
    let def = -1;
    for (const c of s.cases) {
      const at = flat.length;
      if (c.test) {
        const v = evaluateConstant(c.test);
        if (v === undefined || !Number.isInteger(v)) bad(c.test, '`case` label must be an integer constant');
        if (!starts.has(v)) starts.set(v, at);
      } else if (def < 0) def = at;
      for (const x of c.consequent) {
        const f = this.stmt(x);
        if (f) flat.push(f);
      }
    }
    const n = flat.length;
    return () => {
      if (--M.left < M.mark) poll(off);
      M.ops += cost;
      const start = starts.get(disc()) ?? def;
      if (start < 0) return NORMAL;
      for (let i = start; i < n; i++) {
        const r = flat[i]();
        if (r === BRK) return NORMAL;
        if (r !== NORMAL) return r;
      }
      return NORMAL;
    };
  }

  /** `return v`: stores the value, converted to the function's return type, in the unit's return buffer. */
  private returnStmt(s: A.ReturnStmt): Stmt {
    const off = s.start;
    const u = this.cur;
    if (!s.argument) return () => RET;
    if (u.k.isKernel) bad(s, 'a kernel cannot return a value');
    const v = this.rv(s.argument);
    const rb = u.retBuf;
    let f: () => void;
    switch (u.ret) {
      case 'void':
        return notSim(s, `functions returning \`${u.k.returnType}\``);
      case 'int': {
        if (v.k === 'vec') notSim(s.argument, 'returning a vector from an `int` function');
        const g = this.sf(v, s.argument);
        f = () => {
          rb[0] = wrap13(g());
        };
        break;
      }
      case 'word': {
        if (v.k === 'vec') notSim(s.argument, 'returning a vector from an `int16` function');
        const g = this.sf(v, s.argument);
        f = () => {
          rb[0] = sat12(g());
        };
        break;
      }
      case 'vec': {
        const g = this.vf(v, s.argument);
        f = () => {
          const x = g();
          for (let i = 0; i < 8; i++) rb[i] = sat12(x[i]);
        };
        break;
      }
    }
    return this.counted(off, f, RET);
  }

  /** A declaration's initialisers, in order (`extern` declares nothing to run). */
  private decl(d: A.Declaration): Stmt | null {
    if (d.specifiers.some((x) => x.name === 'extern')) return null;
    const fs: Stmt[] = [];
    for (const dc of d.declarators) {
      if (!dc.init) continue;
      const sym = dc.symbol;
      if (!sym || sym.kind !== 'local') continue;
      const f = this.declInit(dc, sym.local);
      if (f) fs.push(f);
    }
    if (!fs.length) return null;
    if (fs.length === 1) return fs[0];
    return () => {
      for (let i = 0; i < fs.length; i++) fs[i]();
      return NORMAL;
    };
  }

  /** A local's initialisation: an assignment, or constant words stored at once for an initializer list. */
  private declInit(dc: A.Declarator, local: PcoreLocal): Stmt | null {
    const init = dc.init!;
    const o = this.cur.slots.get(local);
    if (o === undefined) bad(dc, `local \`${local.name}\` has an unknown size`);
    if (init.kind === 'InitList') return this.listInit(dc, local, init, o);
    const id: A.Identifier = {
      kind: 'Identifier',
      name: local.name,
      member: local.name,
      start: dc.nameStart,
      end: dc.nameEnd,
      symbol: { kind: 'local', local },
    };
    const pl = this.placeNode(id);
    const c0 = this.cost;
    const v = this.rv(init);
    if (this.cost === c0) this.cost += pl.k === 'vec' ? 8 : 1;
    const f = fnOf(this.assign(dc, pl, null, v, 'none'));
    return this.counted(dc.start, f, NORMAL);
  }

  /** `= { … }`: the constants, converted as the local stores them, copied into its frame words (o). */
  private listInit(dc: A.Declarator, local: PcoreLocal, init: A.InitList, o: number): Stmt {
    const M = this.M;
    const poll = this.poll;
    const off = dc.start;
    if (local.storage === 'pointer' || local.storage === 'integer') bad(init, 'initializer list for a scalar');
    const vals: number[] = [];
    const flat = (x: A.Expr): void => {
      if (x.kind === 'InitList') {
        x.elements.forEach(flat);
        return;
      }
      const c = this.constOf(x);
      if (c === undefined) notSim(x, 'non-constant initializer in a list');
      vals.push(c);
    };
    flat(init);
    if (vals.length > local.len) bad(init, 'too many initializers');
    const acc = local.storage === 'accumulator';
    const data = new Int32Array(local.len);
    vals.forEach((v, i) => {
      data[i] = acc ? v | 0 : sat12(v);
    });
    const fr = this.cur.fr;
    const cost = local.len;
    return () => {
      if (--M.left < M.mark) poll(off);
      M.ops += cost;
      fr.set(data, o);
      return NORMAL;
    };
  }
}
