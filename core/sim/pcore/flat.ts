/**
 * Flat code of a kernel for interleaved execution (runner.ts). The hardware gives every thread its own
 * program counter and issues one instruction of each thread in turn; to stop a thread after any
 * statement and resume it later, the kernel body becomes a list of steps: each step is a closure that
 * runs one statement, or one loop/branch test, of the running thread and returns the index of the
 * thread's next step (END when the kernel returns). Loops and branches become tests and jumps.
 *
 * Steps marked `free` are plain jumps (break, continue, the end of a then-branch or of a loop body):
 * they stand for no instruction of their own, so the runner follows them within the same turn.
 *
 * Budget and lane-operation accounting follow the tree code of compile/statements.ts: a statement
 * counts as it does there, a loop test counts one step per iteration.
 */
import type * as A from '../../pcore/ast';
import { evaluateConstant } from '../../pcore/evaluate';
import type { PcoreKernel } from '../../pcore/model';
import type { Compiler, FnUnit, Stmt } from './compile';

/** Program counter of a thread whose kernel has returned. */
export const END = -1;

export interface FlatCode {
  steps: (() => number)[];
  /** 1 where the step is a free jump. */
  free: Uint8Array;
  /** The kernel's unit: its frame holds the running thread's locals (the runner swaps them per thread). */
  unit: FnUnit;
}

interface Label {
  pc: number;
}

interface Loop {
  brk: Label;
  cnt: Label;
}

export function flatten(C: Compiler, k: PcoreKernel): FlatCode {
  const { u, code } = C.flatUnit(k, () => {
    const f = new Flattener(C);
    f.stmt(k.node.body, null);
    f.emit(() => END, true);
    return f;
  });
  const free = new Uint8Array(code.steps.length);
  for (const i of code.freeAt) free[i] = 1;
  return { steps: code.steps, free, unit: u };
}

class Flattener {
  readonly steps: (() => number)[] = [];
  readonly freeAt: number[] = [];
  /** Exit of the whole body: `break` outside a loop ends the kernel, as in the tree code. */
  private readonly out: Label = { pc: END };

  constructor(private readonly C: Compiler) {}

  emit(op: () => number, free = false): number {
    const i = this.steps.length;
    this.steps.push(op);
    if (free) this.freeAt.push(i);
    return i;
  }

  private here(l: Label): void {
    l.pc = this.steps.length;
  }

  private jump(l: Label): void {
    this.emit(() => l.pc, true);
  }

  /** A statement of the tree compiler as one step. */
  private run(f: Stmt): void {
    const next = this.steps.length + 1;
    this.emit(() => {
      f();
      return next;
    });
  }

  /** A test step: continues at `yes` (the next step when null) when `e` is non-zero, else at `no`. */
  private test(e: A.Expr | null, off: number, yes: Label | null, no: Label): void {
    const C = this.C;
    const M = C.M;
    const poll = C.poll;
    const next = this.steps.length + 1;
    if (e === null) {
      this.emit(() => {
        if (--M.left < M.mark) poll(off);
        return yes ? yes.pc : next;
      });
      return;
    }
    const [t, cost] = C.piece(e, 'test');
    this.emit(() => {
      if (--M.left < M.mark) poll(off);
      M.ops += cost;
      return t() !== 0 ? (yes ? yes.pc : next) : no.pc;
    });
  }

  /** An expression evaluated for its effect (for-loop init and update), continuing at `to` (the next step when null). */
  private effect(e: A.Expr, to: Label | null, tick: boolean): void {
    const C = this.C;
    const M = C.M;
    const poll = C.poll;
    const [f, cost] = C.piece(e, 'effect');
    const next = this.steps.length + 1;
    const off = e.start;
    this.emit(() => {
      if (tick && --M.left < M.mark) poll(off);
      M.ops += cost;
      f();
      return to ? to.pc : next;
    });
  }

  stmt(s: A.Stmt, loop: Loop | null): void {
    switch (s.kind) {
      case 'Empty':
      case 'PragmaStmt':
        return;
      case 'Block':
        for (const x of s.body) this.stmt(x, loop);
        return;
      case 'ExprStmt':
      case 'DeclStmt':
      case 'ErrorStmt': {
        const f = this.C.stmt(s);
        if (f) this.run(f);
        return;
      }
      case 'Return': {
        if (!s.argument) {
          this.emit(() => END, true);
          return;
        }
        const f = this.C.stmt(s) ?? ((): number => 0);
        this.emit(() => {
          f();
          return END;
        });
        return;
      }
      case 'Break':
        this.jump(loop ? loop.brk : this.out);
        return;
      case 'Continue':
        this.jump(loop ? loop.cnt : this.out);
        return;
      case 'If': {
        const els: Label = { pc: END };
        const end: Label = { pc: END };
        this.test(s.test, s.start, null, els);
        this.stmt(s.consequent, loop);
        if (s.alternate) {
          this.jump(end);
          this.here(els);
          this.stmt(s.alternate, loop);
          this.here(end);
        } else this.here(els);
        return;
      }
      case 'For': {
        if (s.init) {
          if (s.init.kind === 'DeclStmt') {
            const f = this.C.stmt(s.init);
            if (f) this.run(f);
          } else this.effect(s.init, null, true);
        }
        const top: Label = { pc: END };
        const end: Label = { pc: END };
        const cnt: Label = { pc: END };
        this.here(top);
        this.test(s.test, s.test ? s.test.start : s.start, null, end);
        this.stmt(s.body, { brk: end, cnt });
        this.here(cnt);
        if (s.update) this.effect(s.update, top, false);
        else this.jump(top);
        this.here(end);
        return;
      }
      case 'While': {
        const top: Label = { pc: END };
        const end: Label = { pc: END };
        this.here(top);
        this.test(s.test, s.start, null, end);
        this.stmt(s.body, { brk: end, cnt: top });
        this.jump(top);
        this.here(end);
        return;
      }
      case 'DoWhile': {
        const top: Label = { pc: END };
        const end: Label = { pc: END };
        const cnt: Label = { pc: END };
        this.here(top);
        this.stmt(s.body, { brk: end, cnt });
        this.here(cnt);
        this.test(s.test, s.test.start, top, end);
        this.here(end);
        return;
      }
      case 'Switch':
        this.switchStmt(s, loop);
        return;
    }
  }

  private switchStmt(s: A.SwitchStmt, loop: Loop | null): void {
    const C = this.C;
    const M = C.M;
    const poll = C.poll;
    const off = s.start;
    const [disc, cost] = C.piece(s.discriminant, 'switch');
    const end: Label = { pc: END };
    const starts = new Map<number, Label>();
    let def: Label = end;
    let badLabel: A.Expr | undefined;
    const labels: Label[] = s.cases.map((c) => {
      const l: Label = { pc: END };
      if (c.test) {
        const v = evaluateConstant(c.test);
        if (v === undefined || !Number.isInteger(v)) badLabel ??= c.test;
        else if (!starts.has(v)) starts.set(v, l);
      } else if (def === end) def = l;
      return l;
    });
    if (badLabel) {
      const at = badLabel.start;
      this.emit(() => {
        throw C.raise(at, '`case` label must be an integer constant', 'compile');
      });
      return;
    }
    this.emit(() => {
      if (--M.left < M.mark) poll(off);
      M.ops += cost;
      return (starts.get(disc()) ?? def).pc;
    });
    const inner: Loop = { brk: end, cnt: loop ? loop.cnt : this.out };
    s.cases.forEach((c, i) => {
      this.here(labels[i]);
      for (const x of c.consequent) this.stmt(x, inner);
    });
    this.here(end);
  }
}
