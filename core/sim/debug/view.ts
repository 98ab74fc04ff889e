/**
 * The simulator's debug view: the one face a debugger (debug/target.ts) has on a running program. It
 * owns the host interpreter's stop-point port (core/sim/host/compile.ts `DebugPort`) and, once the
 * program is attached, answers in C and machine terms — the harts' frames, locals, globals, C
 * expressions evaluated in a frame, values in MEM, the `$` tensor variables, PCORE class variables,
 * the memory spaces and the memory at each stop — so the debugger never reaches into the compiler,
 * the runtime, the executor or the machine.
 *
 * It speaks no Debug Adapter Protocol: presenting these as DAP variables, frames and breakpoints is
 * the debugger's job.
 */
import type { PcoreView } from '../../project/pcoreAdapter';
import type { MemberInfo } from '../../tprog/pcoreView';
import type { SteppedTransfer } from '../engine/stepped';
import type { TensorExecutor, TensorVariable } from '../engine/execute';
import type { Compiler, DebugPort, DebugStmt } from '../host/compile';
import { typeName as cTypeName, type CType } from '../host/ctypes';
import type { EF, FnCode, Frame, Hart } from '../host/hostState';
import type { EvalCtx, Scope } from '../host/scope';
import type { Machine } from '../machine';
import type { RunDebugHooks } from '../run';
import type { TraceStep } from '../../protocol/trace';
import { SimError, type SourceLoc } from '../types';
import { MemoryView } from './memory';
import { StopHistory } from './stops';

/** A paused frame: hart (process), index of its call triple in the hart's call stack. */
export interface FrameRef {
  hid: 0 | 1;
  i: number;
}

/** Where a C value is: a register local's value, or a MEM address. */
export type Where = { v: number } | { a: number };

/** What C expressions are evaluated in: a frame's statement scope, or the globals. */
export interface EvalScope {
  ec: EvalCtx;
  fr: Frame;
  f?: FrameRef;
  stmt?: StopPoint;
}

/** A stop point: one compiled statement (a C statement or a `>` statement). */
export type StopPoint = DebugStmt;

/** A local visible at a statement (parameter or block variable). */
export interface LocalVar {
  name: string;
  t: CType;
  where: Where;
  /** Register slot in the frame (register locals only). */
  slot?: number;
}

/** Where a transfer being stepped through is. */
export interface TransferAt {
  loc: SourceLoc;
  text: string;
  process: 0 | 1;
}

/** What the debugger is told; the view calls none of these while it evaluates for the debugger. */
export interface DebugListener {
  /** Before stop point `id` runs on the current hart (its break flag or a control bit is set). */
  stop(id: number, fr: Frame): void;
  /** A run-time error, before it unwinds (the C stack is intact). */
  fault(e: SimError): void;
  /** Compiled, initialised and loaded: the entry function runs when this returns. */
  attached(entry: string): void;
  /** Every executed tensor step. */
  step(s: TraceStep): void;
  output(text: string): void;
  /** Before a transfer of `process` runs: step through it in batches? */
  enterTransfer(process: 0 | 1): boolean;
  /** Before the first batch and between batches: how many elements to move next (Infinity: the rest). */
  betweenBatches(t: SteppedTransfer, at: TransferAt): number;
}

/** Slots of the per-hart position arrays (≥ 3 · the deepest call depth + 3). */
const POS_LEN = 1 << 14;

export class DebugView {
  /** Pass to `runProgram({ debug })`. */
  readonly hooks: RunDebugHooks;
  private readonly port: DebugPort;
  private c?: Compiler;
  private m?: Machine;
  private ex?: TensorExecutor;
  private pcore?: PcoreView;
  private mv?: MemoryView;
  private evaluating_ = 0;
  private attached_ = false;
  private typedefs?: Map<CType, string>;
  private exprs = new Map<string, { t: CType; f: EF }>();
  /** The program's trace so far (shared with the run). */
  trace: readonly TraceStep[] = [];
  /** Memory at each stop, for the memory inspector. */
  stops?: StopHistory;

  /**
   * `ctl` is the shared control word array: a non-zero `ctl[0]` makes every statement call
   * `listener.stop` (stepping, pause, pending messages, watched data).
   */
  constructor(
    ctl: Int32Array,
    private readonly listener: DebugListener,
    private readonly file: string,
  ) {
    this.port = {
      hit: new Uint8Array(0),
      ctl,
      pos: [new Int32Array(POS_LEN), new Int32Array(POS_LEN)],
      stop: (id, fr) => {
        if (!this.evaluating_ && this.attached_) listener.stop(id, fr);
      },
      fault: (e) => this.fault(e),
      compiled: (c) => this.compiled(c),
    };
    this.hooks = {
      port: this.port,
      attach: (p) => {
        this.m = p.machine;
        this.ex = p.executor;
        this.trace = p.trace;
        this.pcore = p.pcore;
        this.mv = new MemoryView(p.machine);
        this.attached_ = true;
        this.stops = new StopHistory(p.histories, p.trace);
        p.executor.stepHook = {
          enter: (process) => !this.evaluating_ && listener.enterTransfer(process),
          between: (t, at) => listener.betweenBatches(t, at),
        };
        listener.attached(p.entry);
      },
      onStep: (s) => listener.step(s),
      onOutput: (text) => listener.output(text),
    };
  }

  private compiled(c: Compiler): void {
    this.c = c;
    // run-time faults stop the program where they happen, with the C stack intact
    const rt = c.rt;
    const err = rt.err.bind(rt);
    rt.err = (msg, loc, kind) => {
      const e = err(msg, loc, kind);
      this.fault(e);
      return e;
    };
  }

  private fault(e: SimError): void {
    if (!this.evaluating_ && this.attached_) this.listener.fault(e);
  }

  /** The program is attached (its machine exists and its entry is about to run or running). */
  get attached(): boolean {
    return this.attached_;
  }

  /** Debugger-evaluated code is running (its statements, faults and steps are not the program's). */
  get evaluating(): boolean {
    return this.evaluating_ > 0;
  }

  // ================================================================= stop points

  /** Every stop point of the program, by id (empty before compilation). */
  get stopPoints(): readonly StopPoint[] {
    return this.c?.dbgStmts ?? [];
  }

  /** Sets the stop points that call `stop` even when no control bit is set (breakpoints). */
  setBreaks(ids: Iterable<number>): void {
    const hit = this.port.hit;
    hit.fill(0);
    for (const id of ids) if (id < hit.length) hit[id] = 1;
  }

  isBreak(id: number): boolean {
    return !!this.port.hit[id];
  }

  // ================================================================= harts and frames

  private hart(hid: 0 | 1): Hart {
    const rt = this.c!.rt;
    return hid === 0 ? rt.main : rt.second;
  }

  /** The process (hart) running now. */
  get current(): 0 | 1 {
    return this.c!.rt.cur.id;
  }

  /** Inside ztaDualHartExecute: pid 1 runs too. */
  get inDual(): boolean {
    return this.c!.rt.inDual;
  }

  /** Call depth of a hart (compare before and after a step). */
  depth(hid: 0 | 1): number {
    return this.hart(hid).n;
  }

  /** Frames of a hart, innermost first (pid 1 has none outside ztaDualHartExecute). */
  frames(hid: 0 | 1): FrameRef[] {
    if (!this.c) return [];
    if (hid === 1 && !this.c.rt.inDual) return [];
    const h = this.hart(hid);
    const out: FrameRef[] = [];
    for (let i = h.n - 3; i >= 0; i -= 3) out.push({ hid, i });
    return out;
  }

  /** The frame at `level` (0 = the outermost) of a hart, if it is live. */
  frameAt(hid: 0 | 1, level: number): FrameRef | undefined {
    const i = level * 3;
    if (i < 0 || i >= this.hart(hid).n) return undefined;
    return { hid, i };
  }

  /** The stop point a frame is at. */
  stopPointOf(f: FrameRef): StopPoint | undefined {
    const rt = this.c!.rt;
    let hid = f.hid;
    // pid 1's outer frames are pid 0's (copied when ztaDualHartExecute started)
    if (hid === 1 && rt.second.calls[f.i + 2] === rt.main.calls[f.i + 2]) hid = 0;
    return this.stopPoints[this.port.pos[hid][f.i + 3]];
  }

  /** Where a frame is: the call site of its callee, else its own statement. */
  frameLoc(f: FrameRef): SourceLoc | undefined {
    const h = this.hart(f.hid);
    if (f.i + 3 < h.n) {
      const site = h.calls[f.i + 4] as SourceLoc | undefined;
      if (site) return site;
    }
    return this.stopPointOf(f)?.loc;
  }

  /** The C function of a frame. */
  frameName(f: FrameRef): string {
    return (this.hart(f.hid).calls[f.i] as FnCode).name;
  }

  // ================================================================= evaluation

  /** The scope of a frame's statement, or the globals' without a frame. */
  scopeOf(f: FrameRef | undefined): EvalScope {
    if (!f) return { ec: this.globalEc(), fr: [0, 0] };
    const fr = this.hart(f.hid).calls[f.i + 2] as Frame;
    const stmt = this.stopPointOf(f);
    return { ec: stmt?.ec ?? this.globalEc(), fr, f, stmt };
  }

  /** The scope of stop point `id` with frame `fr` (a breakpoint's condition, a logpoint). */
  stopScope(id: number, fr: Frame): EvalScope {
    const stmt = this.stopPoints[id];
    return { ec: stmt.ec, fr, stmt };
  }

  private globalEc(): EvalCtx {
    const c = this.c!;
    return { scope: c.global, fx: c.globalCx().fx, loc: { file: this.file, line: 1, column: 1 }, macros: c.pp.macros, cache: new Map() };
  }

  /** Compiles a C expression at stop point `key` (cached); throws on an error. */
  compile(ec: EvalCtx, key: number | string, text: string): { t: CType; f: EF } {
    const k = `${key}\u0000${text}`;
    let e = this.exprs.get(k);
    if (!e) {
      e = this.c!.debugExpr(ec, text);
      this.exprs.set(k, e);
    }
    return e;
  }

  /** Runs debugger-evaluated code: no stops inside, and the harts are restored even when it faults. */
  guarded<T>(f: () => T): T {
    const rt = this.c!.rt;
    const saved = [rt.main, rt.second].map((h) => ({ h, n: h.n, sp: h.sp }));
    const cur = rt.cur;
    this.evaluating_++;
    try {
      return f();
    } finally {
      this.evaluating_--;
      rt.cur = cur;
      for (const s of saved) {
        s.h.n = s.n;
        s.h.sp = s.sp;
      }
    }
  }

  /** The value of a C expression in `s` (a condition). */
  evalScalar(s: EvalScope, text: string): number {
    const e = this.compile(s.ec, s.stmt?.id ?? 'g', text);
    return this.guarded(() => e.f(s.fr));
  }

  /** A C expression's type and value (an address for arrays and structs). */
  evaluate(s: EvalScope, text: string): { t: CType; value: number } {
    let e: { t: CType; f: EF };
    try {
      e = this.compile(s.ec, s.stmt?.id ?? 'g', text);
    } catch (err) {
      throw new Error(err instanceof SimError ? `cannot evaluate \`${text}\`: ${err.message}` : (err as Error).message);
    }
    return { t: e.t, value: this.guarded(() => e.f(s.fr)) };
  }

  /** Locals visible at a scope's statement: parameters and block variables, outer blocks first. */
  locals(s: EvalScope): LocalVar[] {
    const chain: Scope[] = [];
    for (let sc: Scope | undefined = s.ec.scope; sc && sc !== this.c!.global; sc = sc.parent) chain.unshift(sc);
    const out = new Map<string, LocalVar>();
    for (const sc of chain) {
      for (const [name, sym] of sc.syms) {
        if (sym.k === 'slot') out.set(name, { name, t: sym.t, where: { v: s.fr[sym.slot] }, slot: sym.slot });
        else if (sym.k === 'frame') out.set(name, { name, t: sym.t, where: { a: s.fr[0] + sym.off } });
        else if (sym.k === 'global') out.set(name, { name, t: sym.t, where: { a: sym.g.addr } });
      }
    }
    return [...out.values()];
  }

  /** Writes a register local of a scope's frame. */
  setSlot(s: EvalScope, slot: number, v: number): void {
    s.fr[slot] = v;
  }

  /** C globals in MEM (`function.name` for static locals), in declaration order. */
  globals(): { name: string; t: CType; addr: number }[] {
    return (this.c?.gvars ?? []).filter((g) => g.addr >= 0);
  }

  /** A C global by name (it may not be in MEM yet: address −1). */
  global(name: string): { name: string; t: CType; addr: number } | undefined {
    return this.c?.gvars.find((g) => g.name === name);
  }

  /** The function a function pointer points to. */
  fnAt(p: number): string | undefined {
    return this.c?.rt.fnAt(p)?.name;
  }

  /** C type names with typedef names for structs (`Point *` rather than `struct <anonymous> *`). */
  typeName(t: CType): string {
    if (!this.typedefs) {
      this.typedefs = new Map();
      for (const [name, s] of this.c?.global.syms ?? []) if (s.k === 'type' && s.t.k === 'struct' && !this.typedefs.has(s.t)) this.typedefs.set(s.t, name);
    }
    switch (t.k) {
      case 'struct':
        return this.typedefs.get(t) ?? cTypeName(t);
      case 'ptr':
        return t.to.k === 'fn' ? cTypeName(t) : `${this.typeName(t.to)} *`;
      case 'arr':
        return `${this.typeName(t.of)} [${t.n ?? ''}]`;
      default:
        return cTypeName(t);
    }
  }

  // ================================================================= memory, tensor and PCORE variables

  /** The machine's memories (after attach). */
  get memory(): MemoryView | undefined {
    return this.mv;
  }

  /** The `$` tensor variables a process has defined, by name. */
  tensorVariables(hid: 0 | 1): ReadonlyMap<string, TensorVariable> {
    return this.ex?.tensorVariables(hid) ?? new Map();
  }

  /** The program has a PCORE program (its class variables can be shown). */
  get hasPcore(): boolean {
    return !!this.pcore && !!this.m;
  }

  /** PCORE class variables with a place in a process page: private (per PCORE and thread) and shared (per PCORE). */
  pcoreMembers(): MemberInfo[] {
    const view = this.pcore;
    if (!view) return [];
    const out: MemberInfo[] = [];
    for (const cls of view.classNames())
      for (const mem of view.members(cls)) if ((mem.storage === 'private' || mem.storage === 'shared') && mem.offset !== undefined) out.push(mem);
    return out;
  }

  /** The words of a process page: private or shared. */
  pageWords(hid: 0 | 1, shared: boolean): Int16Array {
    const page = this.m!.pages[hid];
    return shared ? page.shared : page.priv;
  }

  /** The kernel parameter registers `_global[0]`, `_global[1]`. */
  kernelParams(): readonly number[] {
    return this.m ? [this.m.globals[0], this.m.globals[1]] : [];
  }
}
