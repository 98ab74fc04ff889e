/**
 * Decides, statically, whether a kernel can observe the order in which its threads run: it can when
 * some shared word it may read is a word it may write (directly or through a pointer), in the kernel or
 * in a helper it calls. Other kernels give the same result whether threads run one after another or
 * interleaved, so the runner keeps its fast sequential path for them (runner.ts).
 *
 * Shared words are tracked by variable (word range of its allocation, so classes that overlay each
 * other's memory are handled). A pointer is assumed to point into a shared variable whose address the
 * program takes somewhere (`&x[i]`, `x` as a pointer); when the program has pointer parameters (set by
 * the host) or casts to a pointer type, a pointer may point anywhere in shared memory.
 */
import type * as A from '../../pcore/ast';
import type { PcoreKernel, PcoreProgram, PcoreVarInfo, PcoreVariable } from '../../pcore/model';
import { PCORE_WORDS } from './kernelState';

type Range = readonly [number, number];

const ALL: Range = [0, PCORE_WORDS];

/** What a set of functions does with shared memory. */
class Uses {
  readonly reads: Range[] = [];
  readonly writes: Range[] = [];
  /** Ranges whose address is taken. */
  readonly addr: Range[] = [];
  ptrRead = false;
  ptrWrite = false;
  /** A pointer value may come from outside the program's address-of expressions. */
  untracked = false;
  readonly calls: PcoreKernel[] = [];
}

type Mode = 'r' | 'w' | 'rw' | 'addr';

function rangeOf(v: PcoreVariable): Range {
  return v.offset !== undefined && v.sizeKnown ? [v.offset, v.offset + v.len] : ALL;
}

function sharedVar(e: A.Expr): PcoreVariable | undefined {
  if (e.kind !== 'Identifier') return undefined;
  const s = e.symbol;
  return s && s.kind === 'variable' && s.variable.storage === 'shared' ? s.variable : undefined;
}

function isPointer(e: A.Expr): boolean {
  if (e.kind !== 'Identifier') return true;
  const s = e.symbol;
  if (!s) return false;
  const info: PcoreVarInfo | undefined = s.kind === 'variable' ? s.variable : s.kind === 'param' ? s.param : s.kind === 'local' ? s.local : undefined;
  return info !== undefined && info.pointer;
}

class Walker {
  constructor(readonly u: Uses) {}

  private record(r: Range, mode: Mode): void {
    if (mode === 'addr') this.u.addr.push(r);
    if (mode === 'r' || mode === 'rw') this.u.reads.push(r);
    if (mode === 'w' || mode === 'rw') this.u.writes.push(r);
  }

  private deref(mode: Mode): void {
    if (mode === 'r' || mode === 'rw') this.u.ptrRead = true;
    if (mode === 'w' || mode === 'rw') this.u.ptrWrite = true;
  }

  expr(e: A.Expr | null | undefined, mode: Mode = 'r'): void {
    if (!e) return;
    switch (e.kind) {
      case 'Identifier': {
        const v = sharedVar(e);
        if (!v) return;
        // an array named without an index decays into its address
        this.record(rangeOf(v), v.dims.length > 0 && mode === 'r' ? 'addr' : mode);
        return;
      }
      case 'Index': {
        let root: A.Expr = e;
        while (root.kind === 'Index') {
          this.expr(root.index);
          root = root.object;
        }
        const v = sharedVar(root);
        if (v) this.record(rangeOf(v), mode);
        else if (isPointer(root)) {
          this.expr(root);
          if (mode !== 'addr') this.deref(mode);
        }
        return;
      }
      case 'Unary':
        if (e.op === '&') this.expr(e.argument, 'addr');
        else if (e.op === '*') {
          this.expr(e.argument);
          if (mode !== 'addr') this.deref(mode);
        } else this.expr(e.argument);
        return;
      case 'Assign':
        this.expr(e.target, e.op === '=' ? 'w' : 'rw');
        this.expr(e.value);
        return;
      case 'Update':
        this.expr(e.argument, 'rw');
        return;
      case 'Call': {
        const s = e.callee.kind === 'Identifier' ? e.callee.symbol : undefined;
        if (s && s.kind === 'function') this.u.calls.push(s.fn);
        for (const a of e.args) this.expr(a);
        return;
      }
      case 'Cast':
        if (e.pointer > 0) this.u.untracked = true;
        this.expr(e.argument, mode);
        return;
      case 'Binary':
      case 'Logical':
        this.expr(e.left);
        this.expr(e.right);
        return;
      case 'Conditional':
        this.expr(e.test);
        this.expr(e.consequent, mode);
        this.expr(e.alternate, mode);
        return;
      case 'Member':
        this.expr(e.object, mode);
        return;
      case 'Sequence':
        e.expressions.forEach((x, i) => this.expr(x, i === e.expressions.length - 1 ? mode : 'r'));
        return;
      case 'InitList':
        for (const x of e.elements) this.expr(x);
        return;
      default:
        return;
    }
  }

  stmt(s: A.Stmt | null): void {
    if (!s) return;
    switch (s.kind) {
      case 'Block':
        for (const x of s.body) this.stmt(x);
        return;
      case 'DeclStmt':
        for (const d of s.declaration.declarators) this.expr(d.init);
        return;
      case 'ExprStmt':
        this.expr(s.expression);
        return;
      case 'If':
        this.expr(s.test);
        this.stmt(s.consequent);
        this.stmt(s.alternate);
        return;
      case 'For':
        if (s.init && s.init.kind === 'DeclStmt') this.stmt(s.init);
        else this.expr(s.init as A.Expr | null);
        this.expr(s.test);
        this.expr(s.update);
        this.stmt(s.body);
        return;
      case 'While':
      case 'DoWhile':
        this.expr(s.test);
        this.stmt(s.body);
        return;
      case 'Switch':
        this.expr(s.discriminant);
        for (const c of s.cases) for (const x of c.consequent) this.stmt(x);
        return;
      case 'Return':
        this.expr(s.argument);
        return;
      default:
        return;
    }
  }

  fn(k: PcoreKernel): void {
    if (k.isKernel && k.params.some((p) => p.pointer)) this.u.untracked = true;
    this.stmt(k.node.body);
  }
}

/** Where the program's pointers may point in shared memory (cached per program). */
const targetsCache = new WeakMap<PcoreProgram, Range[]>();

function pointerTargets(program: PcoreProgram): Range[] {
  let t = targetsCache.get(program);
  if (t) return t;
  const u = new Uses();
  const w = new Walker(u);
  for (const k of program.kernels.values()) w.fn(k);
  t = u.untracked ? [ALL] : u.addr;
  targetsCache.set(program, t);
  return t;
}

function overlap(a: Range[], b: Range[]): boolean {
  for (const x of a) for (const y of b) if (x[0] < y[1] && y[0] < x[1]) return true;
  return false;
}

/** True when threads of `k` may read shared words that threads of `k` write (see the file header). */
export function threadOrderVisible(program: PcoreProgram, k: PcoreKernel): boolean {
  const u = new Uses();
  const w = new Walker(u);
  const seen = new Set<PcoreKernel>([k]);
  w.fn(k);
  for (let i = 0; i < u.calls.length; i++) {
    const c = u.calls[i];
    if (seen.has(c)) continue;
    seen.add(c);
    w.fn(c);
  }
  if (!u.writes.length && !u.ptrWrite) return false;
  if (!u.reads.length && !u.ptrRead) return false;
  const targets = pointerTargets(program);
  const reads = u.ptrRead ? [...u.reads, ...targets] : u.reads;
  const writes = u.ptrWrite ? [...u.writes, ...targets] : u.writes;
  return overlap(reads, writes);
}
