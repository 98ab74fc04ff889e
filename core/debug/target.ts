/**
 * The debug target: runs a tensor program on the simulator with the host interpreter's stop points
 * compiled in (core/sim/host/compile.ts `DebugPort`), and answers the debug adapter's requests.
 *
 * It runs in a worker thread (core/debug/worker.ts). Stopping blocks that thread inside the stop
 * point: `pause()` posts a `stopped` event and then serves requests (stack, variables, evaluation,
 * memory) from the blocked thread until a resume command arrives, so every closure, generator and
 * JS frame of the interpreter stays exactly where it was. Both tensor-engine processes are threads
 * 1 (pid 0) and 2 (pid 1); the process that stops and the other one are stopped together.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { PcoreView } from '../project/pcoreAdapter';
import type { Project } from '../project/project';
import type { TensorExecutor } from '../sim/engine/execute';
import type { ElementAt, SteppedTransfer } from '../sim/engine/stepped';
import type { Compiler, DebugPort, DebugStmt } from '../sim/host/compile';
import { normalizer, sizeOf, typeName as cTypeName, type CType, type StructT } from '../sim/host/ctypes';
import type { EF, FnCode, Frame, Hart } from '../sim/host/runtime';
import type { EvalCtx, Scope, Sym } from '../sim/host/scope';
import type { Machine } from '../sim/machine';
import { prepareRun, type PreparedRun, type RunHost } from '../sim/prepare';
import { runProgram, type RunDebugHooks, type RunResult } from '../sim/run';
import { warningText } from '../sim/runWarning';
import type { TraceStep } from '../sim/trace';
import { SimError } from '../sim/types';
import { pcoreAddr } from '../tprog/explain';
import { LIMITS } from '../tprog/machine';
import type { MemberInfo } from '../tprog/pcoreView';
import { StopHistory } from './stops';
import { CTL, MSG, PAUSE, STEP, WATCH, type FromTarget, type LaunchArgs, type ToTarget } from './protocol';

/** How the target talks to the adapter (worker.ts implements it with a MessagePort and Atomics). */
export interface TargetChannel {
  /** The shared control words (`CTL` is read by every compiled statement). */
  ctl: Int32Array;
  /** Blocks until at least one message has arrived. */
  wait(): ToTarget[];
  /** Messages already there (clears the `MSG` bit). */
  poll(): ToTarget[];
  post(m: FromTarget): void;
}

/** Files and paths (Node in the worker). */
export interface TargetIO extends Omit<RunHost, 'loadPcore'> {
  writeBytes(path: string, data: Uint8Array): void;
  /** A project reading files with `read`; the run's own project takes its PCORE loader. */
  project(read: (path: string) => string | undefined): Project;
}

type Where = { v: number } | { a: number };

/** A paused frame: hart, index of its call triple in `hart.calls`. */
interface FrameRef {
  hid: 0 | 1;
  i: number;
}

type VarRef =
  | { k: 'locals'; f: FrameRef }
  | { k: 'globals' }
  | { k: 'tensor'; hid: 0 | 1 }
  | { k: 'machine' }
  | { k: 'obj'; t: CType; a: number; expr: string; f?: FrameRef }
  | { k: 'deref'; t: CType; a: number; expr: string; f?: FrameRef }
  | { k: 'list'; items: DebugProtocol.Variable[] }
  | { k: 'pcore'; hid: 0 | 1 }
  | { k: 'xfer' }
  | { k: 'pmem'; hid: 0 | 1; m: MemberInfo; pcore?: number; thread?: number };

interface Bp {
  id: number;
  line: number;
  stmts: number[];
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
  hits: number;
}

interface DataBp {
  id: number;
  space: string;
  lo: number;
  len: number;
  what: string;
  /** Copy of the watched elements (ranges up to 64 Ki elements): changes by C code are caught too. */
  copy?: Uint8Array | Int16Array;
}

interface Ctx {
  ec: EvalCtx;
  fr: Frame;
  f?: FrameRef;
  stmt?: DebugStmt;
}

const SPACES = ['MEM', 'SCRATCH', 'PCORE0', 'PCORE0S', 'PCORE1', 'PCORE1S', 'SPU'] as const;
const POS_LEN = 1 << 14;
const MAX_TRACE_LINES = 5000;

/** Frame id of the transfer being stepped through (above the C frames of its process). */
const XFER_FRAME = 999_999;

const hex8 = (v: number) => '0x' + (v >>> 0).toString(16).padStart(8, '0');

/** Runs one debug session's program; resolves when the program has ended (or failed to start). */
export async function runTarget(launch: LaunchArgs, ch: TargetChannel, io: TargetIO): Promise<void> {
  const t = new DebugTarget(launch, ch, io);
  await t.run();
}

export class DebugTarget {
  readonly port: DebugPort;
  private c?: Compiler;
  private m?: Machine;
  private ex?: TensorExecutor;
  private trace: TraceStep[] = [];
  private pcore?: PcoreView;
  private stmts: DebugStmt[] = [];
  private attached = false;
  private configured = false;
  private paused = false;
  private evaluating = 0;
  private stoppedHart: 0 | 1 = 0;
  private step: { kind: 'in' | 'over' | 'out'; hart: 0 | 1; depth: number; reason: string } | null = null;
  private bpsByFile = new Map<string, Bp[]>();
  private bpsByStmt = new Map<number, Bp[]>();
  private nextId = 1;
  private handles = new Map<number, VarRef>();
  private exprs = new Map<string, { t: CType; f: EF }>();
  private stopOnFaults = true;
  private faulted = new WeakSet<SimError>();
  private lastFault?: SimError;
  private dataBps: DataBp[] = [];
  private traceLines = 0;
  /** Paused at a stop point, before its statement runs. */
  private atStmt = false;
  /** The process whose next transfer runs in batches (a stepIn on a `>` statement). */
  private enterXfer: 0 | 1 | undefined;
  /** The transfer being stepped through, while paused between its batches. */
  private xfer?: { t: SteppedTransfer; at: { loc: { file: string; line: number; column: number }; text: string; process: 0 | 1 } };
  /** After a stop inside a transfer: move the next batch and stop again, or the rest of it. */
  private xferMode: 'batch' | 'finish' = 'batch';
  private xferStepIn = false;
  /** Memory at each stop, for the memory inspector (`memoryStops`, `memoryAtStop`). */
  private stops?: StopHistory;
  /** The program, absolute (set when the run is prepared). */
  private file = '';

  constructor(
    private readonly launch: LaunchArgs,
    private readonly ch: TargetChannel,
    private readonly io: TargetIO,
  ) {
    this.port = {
      hit: new Uint8Array(0),
      ctl: ch.ctl,
      pos: [new Int32Array(POS_LEN), new Int32Array(POS_LEN)],
      stop: (id, fr) => this.onStmt(id, fr),
      fault: (e) => this.onFault(e),
      compiled: (c) => this.onCompiled(c),
    };
  }

  // ================================================================= the run

  async run(): Promise<void> {
    const L = this.launch;
    let prepared: PreparedRun;
    try {
      const read = (p: string) => L.overlay?.[p] ?? this.io.readText(p);
      // the program is read as the checker reads it (include paths, dialect, its .p)
      prepared = prepareRun(L, { ...this.io, readText: read, loadPcore: this.io.project(read).opts.loadPcore });
    } catch (e) {
      this.ch.post({ t: 'launchError', message: (e as Error).message });
      return;
    }
    this.file = prepared.file;
    const hooks: RunDebugHooks = {
      port: this.port,
      attach: (p) => {
        this.m = p.machine;
        this.ex = p.executor;
        this.trace = p.trace;
        this.pcore = p.pcore;
        this.attached = true;
        this.stops = new StopHistory(p.histories, p.trace);
        p.executor.stepHook = { enter: (process) => this.enterTransfer(process), between: (t, at) => this.betweenBatches(t, at) };
        this.ch.post({ t: 'ready', entry: p.entry });
        this.serveUntil(() => this.configured);
        if (L.stopOnEntry) this.setStep({ kind: 'in', hart: 0, depth: 0, reason: 'entry' });
      },
      onStep: (s) => this.onTensorStep(s),
      onOutput: (text) => this.output(text, 'stdout'),
    };
    let r: RunResult;
    try {
      r = await runProgram({ ...prepared.options, debug: hooks });
    } catch (e) {
      if (!this.attached) this.ch.post({ t: 'launchError', message: (e as Error).message });
      else {
        this.output(`internal error: ${(e as Error).stack ?? e}\n`, 'stderr');
        this.ch.post({ t: 'end', exitCode: 1 });
      }
      return;
    }
    if (!this.attached) {
      const er = r.error;
      this.ch.post({ t: 'launchError', message: er ? `${er.file}:${er.line}:${er.column}: ${er.message}` : 'the program did not start' });
      return;
    }
    for (const d of r.dumps) {
      if (d.file && d.bytes) {
        const path = prepared.dumpPath(d.file);
        try {
          this.io.writeBytes(path, d.bytes);
          this.output(`${d.space}:${d.where} → ${path}\n`, 'console');
        } catch (e) {
          this.output(`cannot write ${path}: ${(e as Error).message}\n`, 'stderr');
        }
      } else this.output(`${d.space}:${d.where}:${d.dtype} = ${(d.values ?? []).join(' ')}\n`, 'console');
    }
    for (const w of r.warnings) this.output(warningText(w, w.file) + '\n', 'console');
    const s = r.summary;
    if (r.error) {
      this.output(`${r.error.file}:${r.error.line}:${r.error.column}: error: ${r.error.message}\n${r.error.stack.map((f) => `    at ${f}\n`).join('')}`, 'stderr');
    }
    this.output(`[run] ${r.entry}: ${s.statements} tensor statements, ${s.steps} steps, ${s.bytesMoved} bytes moved\n`, 'console');
    // the last records for trace views (the session cannot be asked once it has ended)
    this.ch.post({ t: 'event', event: 'tensorTrace', body: { total: this.trace.length, steps: this.trace.slice(-1000) } });
    this.ch.post({ t: 'end', exitCode: r.error ? 1 : 0 });
  }

  /** C type names with typedef names for structs (`Point *` rather than `struct <anonymous> *`). */
  private typeName(t: CType): string {
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
  private typedefs?: Map<CType, string>;

  private onCompiled(c: Compiler): void {
    this.c = c;
    this.stmts = c.dbgStmts;
    // run-time faults stop the program where they happen, with the C stack intact
    const rt = c.rt;
    const err = rt.err.bind(rt);
    rt.err = (msg, loc, kind) => {
      const e = err(msg, loc, kind);
      this.onFault(e);
      return e;
    };
  }

  private output(text: string, category: 'stdout' | 'stderr' | 'console'): void {
    this.ch.post({ t: 'event', event: 'output', body: { category, output: text } });
  }

  // ================================================================= stop points

  private onStmt(id: number, fr: Frame): void {
    if (this.evaluating || !this.attached) return;
    const ctl = this.ch.ctl;
    const bits = ctl[CTL];
    if (bits & MSG) this.serveRunning();
    const c = this.c!;
    const h = c.rt.cur;
    if (bits & PAUSE) {
      Atomics.and(ctl, CTL, ~PAUSE);
      this.pause('pause', h.id, {}, true);
      return;
    }
    if (this.port.hit[id]) {
      const ids = this.checkBreakpoints(id, fr);
      if (ids) {
        this.pause('breakpoint', h.id, { hitBreakpointIds: ids }, true);
        return;
      }
    }
    if (bits & WATCH) {
      const d = this.changedData();
      if (d) {
        this.pause('data breakpoint', h.id, { hitBreakpointIds: [d.id], description: `${d.what} changed` }, true);
        return;
      }
    }
    const s = this.step;
    if (s) {
      let done: boolean;
      if (h.id !== s.hart) done = !c.rt.inDual; // the stepped process has finished its part
      else done = s.kind === 'in' || (s.kind === 'over' ? h.n <= s.depth : h.n < s.depth);
      if (done) this.pause(s.reason, h.id, {}, true);
    }
  }

  /** The executor asks before each transfer: run it in batches when a stepIn entered it. */
  private enterTransfer(process: 0 | 1): boolean {
    if (this.evaluating || this.enterXfer !== process) return false;
    this.enterXfer = undefined;
    this.xferMode = 'batch';
    return true;
  }

  /**
   * Before the first batch and between batches of a transfer being stepped through: stops (the
   * stack shows the transfer and its progress) unless a continue or stepOut said to finish it, and
   * returns the size of the next batch.
   */
  private betweenBatches(t: SteppedTransfer, at: NonNullable<DebugTarget['xfer']>['at']): number {
    if (this.xferMode === 'finish') return Infinity;
    this.xfer = { t, at };
    try {
      this.pause('step', at.process);
    } finally {
      this.xfer = undefined;
    }
    if ((this.xferMode as string) === 'finish') return Infinity;
    const n = t.nextBatch();
    // stepping in past the last batch: a following transfer of the same `>` statement is entered too
    if (this.xferStepIn && t.done + n >= t.total) this.enterXfer = at.process;
    return n;
  }

  private onFault(e: SimError): void {
    if (this.evaluating || !this.attached || !this.configured || this.paused || this.faulted.has(e)) return;
    this.faulted.add(e);
    this.lastFault = e;
    if (!this.stopOnFaults) return;
    this.pause('exception', this.c!.rt.cur.id, { description: e.message, text: e.kind });
  }

  private onTensorStep(s: TraceStep): void {
    if (this.launch.trace !== false && this.traceLines < MAX_TRACE_LINES) {
      this.traceLines++;
      const w = s.written ? ` → ${s.written.space}[${s.written.lo}..${s.written.hi}]` : '';
      this.output(`[tensor #${s.step}] pid ${s.process} ${baseName(s.file)}:${s.line} ${s.kind} ${s.elements} el${w}  ${s.text}\n${this.traceLines === MAX_TRACE_LINES ? '[tensor] (further statements are not printed; the tensorTrace request lists them all)\n' : ''}`, 'console');
    }
    if (this.dataBps.length === 0 || this.evaluating) return;
    const w = s.written;
    if (!w) return;
    for (const d of this.dataBps) {
      if (d.space !== w.space || w.hi < d.lo || w.lo >= d.lo + d.len) continue;
      if (d.copy && !this.refresh(d)) continue;
      this.pause('data breakpoint', s.process, { hitBreakpointIds: [d.id], description: `${d.what} written by ${s.kind} at line ${s.line}` });
      return;
    }
  }

  private checkBreakpoints(id: number, fr: Frame): number[] | undefined {
    const list = this.bpsByStmt.get(id);
    if (!list) return undefined;
    const st = this.stmts[id];
    const ids: number[] = [];
    for (const bp of list) {
      if (bp.condition) {
        try {
          if (!this.evalScalar({ ec: st.ec, fr, stmt: st }, bp.condition)) continue;
        } catch (e) {
          this.output(`breakpoint condition \`${bp.condition}\` at line ${bp.line}: ${(e as Error).message}\n`, 'stderr');
        }
      }
      bp.hits++;
      if (bp.hitCondition && !hitMatches(bp.hitCondition, bp.hits)) continue;
      if (bp.logMessage) {
        this.output(this.interpolate(bp.logMessage, { ec: st.ec, fr, stmt: st }) + '\n', 'console');
        continue;
      }
      ids.push(bp.id);
    }
    return ids.length ? ids : undefined;
  }

  private interpolate(msg: string, ctx: Ctx): string {
    return msg.replace(/\{([^{}]+)\}/g, (_m, expr: string) => {
      try {
        return this.evaluate(ctx, expr.trim(), false).result;
      } catch (e) {
        return `<${(e as Error).message}>`;
      }
    });
  }

  private setStep(s: NonNullable<DebugTarget['step']>): void {
    this.step = s;
    Atomics.or(this.ch.ctl, CTL, STEP);
  }

  private clearStep(): void {
    this.step = null;
    Atomics.and(this.ch.ctl, CTL, ~STEP);
  }

  /** Stops: tells the adapter, then serves requests on this (blocked) thread until a resume. */
  private pause(reason: string, hid: 0 | 1, extra: { hitBreakpointIds?: number[]; description?: string; text?: string } = {}, atStmt = false): void {
    this.clearStep();
    this.enterXfer = undefined;
    this.atStmt = atStmt;
    this.paused = true;
    this.stoppedHart = hid;
    this.markStop(reason, hid);
    this.ch.post({ t: 'event', event: 'stopped', body: { reason, threadId: hid + 1, allThreadsStopped: true, ...extra } });
    try {
      this.serveUntil(() => !this.paused);
    } finally {
      this.paused = false;
      this.atStmt = false;
      this.handles.clear();
    }
  }

  /** Records the memory state of this stop (before the `stopped` event: the inspector reads after it). */
  private markStop(reason: string, hid: 0 | 1): void {
    if (!this.stops) return;
    const top = this.frameRefs(hid)[0];
    const loc = this.xfer?.at.loc ?? (top && this.frameLoc(top)) ?? { file: '', line: 0, column: 0 };
    const x = this.xfer ? `, transfer ${this.xfer.t.done}/${this.xfer.t.total} elements` : '';
    this.stops.mark({ reason, process: hid, file: loc.file, line: loc.line, column: loc.column, text: `${reason} at ${baseName(loc.file)}:${loc.line} (pid ${hid}${x})` });
  }

  private serveUntil(done: () => boolean): void {
    while (!done()) for (const m of this.ch.wait()) this.dispatch(m);
  }

  /** Messages that arrived while the program runs (breakpoint changes, memory reads). */
  private serveRunning(): void {
    for (const m of this.ch.poll()) this.dispatch(m);
  }

  private dispatch(m: ToTarget): void {
    if (m.t !== 'req') return;
    try {
      const body = this.request(m.command, (m.args ?? {}) as Record<string, unknown>);
      this.ch.post({ t: 'res', seq: m.seq, body });
    } catch (e) {
      this.ch.post({ t: 'res', seq: m.seq, error: e instanceof Error ? e.message : String(e) });
    }
  }

  // ================================================================= requests

  private request(command: string, a: Record<string, unknown>): unknown {
    const needPause = (): void => {
      if (!this.paused) throw new Error('the program is running: pause it first');
    };
    switch (command) {
      case 'configurationDone':
        this.configured = true;
        return undefined;
      case 'setBreakpoints':
        return this.setBreakpoints(a as unknown as DebugProtocol.SetBreakpointsArguments);
      case 'setExceptionBreakpoints':
        this.stopOnFaults = ((a.filters as string[] | undefined) ?? []).includes('faults');
        return undefined;
      case 'dataBreakpointInfo':
        return this.dataBreakpointInfo(a as unknown as DebugProtocol.DataBreakpointInfoArguments);
      case 'setDataBreakpoints':
        return this.setDataBreakpoints(a as unknown as DebugProtocol.SetDataBreakpointsArguments);
      case 'threads':
        return { threads: [{ id: 1, name: 'pid 0' }, { id: 2, name: 'pid 1' }] };
      case 'continue':
        this.clearStep();
        this.xferMode = 'finish';
        this.paused = false;
        return { allThreadsContinued: true };
      case 'next':
      case 'stepIn':
      case 'stepOut': {
        needPause();
        if (this.xfer) {
          // inside a transfer: next/stepIn move the next batch (after the last one, the next statement), stepOut the rest
          const hid = this.xfer.at.process;
          this.xferMode = command === 'stepOut' ? 'finish' : 'batch';
          this.xferStepIn = command === 'stepIn';
          this.setStep({ kind: command === 'stepIn' ? 'in' : 'over', hart: hid, depth: this.hart(hid).n, reason: 'step' });
          this.paused = false;
          return undefined;
        }
        let hid = (Number(a.threadId ?? 1) - 1) as 0 | 1;
        if (hid !== 1 || !this.c!.rt.inDual) hid = 0;
        const h = this.hart(hid);
        // stepIn on a `>` statement enters its transfer
        if (command === 'stepIn' && this.atStmt && hid === this.stoppedHart) {
          const f = this.frameRefs(hid)[0];
          if (f && this.stmtOf(f)?.tensor) this.enterXfer = hid;
        }
        this.setStep({ kind: command === 'next' ? 'over' : command === 'stepIn' ? 'in' : 'out', hart: hid, depth: h.n, reason: 'step' });
        this.paused = false;
        return undefined;
      }
      case 'stackTrace':
        return this.stackTrace(a as unknown as DebugProtocol.StackTraceArguments);
      case 'scopes':
        needPause();
        return this.scopes(Number(a.frameId));
      case 'variables':
        needPause();
        return { variables: this.variables(a as unknown as DebugProtocol.VariablesArguments) };
      case 'evaluate': {
        needPause();
        const ctx = this.ctxOf(a.frameId as number | undefined);
        const hex = !!(a.format as { hex?: boolean } | undefined)?.hex;
        return this.evaluate(ctx, String(a.expression ?? ''), hex);
      }
      case 'setVariable':
        needPause();
        return this.setVariable(a as unknown as DebugProtocol.SetVariableArguments);
      case 'setExpression': {
        needPause();
        const ctx = this.ctxOf(a.frameId as number | undefined);
        const r = this.evaluate(ctx, `(${String(a.expression)}) = (${String(a.value)})`, false);
        return { value: r.result, type: r.type, variablesReference: r.variablesReference };
      }
      case 'readMemory':
        return this.readMemory(a as unknown as DebugProtocol.ReadMemoryArguments);
      case 'writeMemory':
        needPause();
        return this.writeMemory(a as unknown as DebugProtocol.WriteMemoryArguments);
      case 'exceptionInfo': {
        const e = this.lastFault;
        if (!e) throw new Error('no exception');
        return { exceptionId: e.kind, description: e.message, breakMode: 'always', details: { message: e.message, stackTrace: e.stack_.join('\n') } };
      }
      case 'tensorTrace': {
        const start = Math.max(0, Number(a.start ?? 0));
        const count = Math.max(0, Math.min(Number(a.count ?? 1000), 100_000));
        return { total: this.trace.length, steps: this.trace.slice(start, start + count) };
      }
      case 'memoryStops': {
        // the stops so far with the pages each changed, the spaces' sizes, the C globals
        const st = this.stops;
        if (!st) return { total: 0, oldest: 0, paused: this.paused, sizes: {}, globals: [], stops: [] };
        const from = Math.max(0, Number(a.from ?? 0));
        const count = Math.max(0, Math.min(Number(a.count ?? 1000), 100_000));
        const globals = (this.c?.gvars ?? []).filter((g) => g.addr >= 0 && !g.name.includes('.')).map((g) => ({ name: g.name, address: g.addr, size: sizeOf(g.t), type: this.typeName(g.t) }));
        return { total: st.count, oldest: st.oldest, paused: this.paused, sizes: st.sizes(), globals, stops: st.records(from, count) };
      }
      case 'memoryAtStop': {
        if (!this.stops) throw new Error('the program has not started');
        const len = Math.max(0, Math.min(Number(a.length ?? 0), 1 << 24));
        return { data: toBase64(this.stops.read(String(a.space), Number(a.offset ?? 0), len, Number(a.stop))) };
      }
      case 'stopPoints':
        return { stops: this.stmts.map((s) => ({ id: s.id, file: s.loc.file, line: s.loc.line, fn: s.fn, tensor: s.tensor })) };
    }
    throw new Error(`unsupported request '${command}'`);
  }

  // ----------------------------------------------------------------- breakpoints

  private setBreakpoints(a: DebugProtocol.SetBreakpointsArguments): DebugProtocol.SetBreakpointsResponse['body'] {
    const path = a.source.path ?? '';
    for (const bp of this.bpsByFile.get(path) ?? []) for (const id of bp.stmts) this.bpsByStmt.delete(id);
    const mine = this.stmts.filter((s) => samePath(s.loc.file, path));
    const lines = [...new Set(mine.map((s) => s.loc.line))].sort((x, y) => x - y);
    const out: DebugProtocol.Breakpoint[] = [];
    const bps: Bp[] = [];
    for (const req of a.breakpoints ?? (a.lines ?? []).map((line): DebugProtocol.SourceBreakpoint => ({ line }))) {
      const id = this.nextId++;
      if (lines.length === 0) {
        out.push({ id, verified: false, line: req.line, message: 'no executable code in this file' });
        continue;
      }
      const line = lines.find((l) => l >= req.line) ?? lines[lines.length - 1];
      const stmts = mine.filter((s) => s.loc.line === line).map((s) => s.id);
      const bp: Bp = { id, line, stmts, condition: req.condition || undefined, hitCondition: req.hitCondition || undefined, logMessage: req.logMessage || undefined, hits: 0 };
      if (bp.condition) {
        try {
          for (const s of stmts) this.compileExpr(this.stmts[s].ec, s, bp.condition);
        } catch (e) {
          out.push({ id, verified: false, line, message: `condition: ${(e as Error).message}` });
          continue;
        }
      }
      bps.push(bp);
      out.push({ id, verified: true, line, source: { path } });
    }
    this.bpsByFile.set(path, bps);
    for (const bp of bps) {
      for (const s of bp.stmts) {
        let l = this.bpsByStmt.get(s);
        if (!l) this.bpsByStmt.set(s, (l = []));
        l.push(bp);
      }
    }
    this.rebuildHits();
    return { breakpoints: out };
  }

  private rebuildHits(): void {
    const hit = this.port.hit;
    hit.fill(0);
    for (const id of this.bpsByStmt.keys()) if (id < hit.length) hit[id] = 1;
  }

  // ----------------------------------------------------------------- data breakpoints

  private dataBreakpointInfo(a: DebugProtocol.DataBreakpointInfoArguments): DebugProtocol.DataBreakpointInfoResponse['body'] {
    const none = (why: string) => ({ dataId: null, description: why });
    let target: { space: string; lo: number; len: number; what: string } | undefined;
    const ref = a.variablesReference ? this.handles.get(a.variablesReference) : undefined;
    if (ref?.k === 'machine') {
      const sp = this.space(a.name);
      if (sp) target = { space: a.name, lo: 0, len: sp.length, what: a.name };
    } else if (ref) {
      const v = this.childTarget(ref, a.name);
      if (!v) return none(`${a.name}: no such variable`);
      if (!('a' in v.w)) return none(`${a.name} is a register local (it has no MEM address)`);
      target = { space: 'MEM', lo: v.w.a, len: Math.max(1, sizeOf(v.t)), what: v.expr };
    } else {
      const m = /^(MEM|SCRATCH|SPU|PCORE[01]S?):(0x[0-9a-f]+|\d+):(0x[0-9a-f]+|\d+)$/i.exec(a.name.trim());
      if (m) target = { space: m[1].toUpperCase(), lo: Number(m[2]), len: Number(m[3]), what: a.name.trim() };
      else {
        const g = this.c?.gvars.find((x) => x.name === a.name);
        if (g && g.addr >= 0) target = { space: 'MEM', lo: g.addr, len: Math.max(1, sizeOf(g.t)), what: g.name };
      }
    }
    if (!target) return none(`${a.name}: cannot watch this`);
    const unit = target.space.startsWith('PCORE') || target.space === 'SPU' ? 'words' : 'bytes';
    return { dataId: `${target.space}:${target.lo}:${target.len}:${target.what}`, description: `${target.what} (${target.len} ${unit} of ${target.space} at ${target.lo})`, accessTypes: ['write'], canPersist: true };
  }

  private setDataBreakpoints(a: DebugProtocol.SetDataBreakpointsArguments): DebugProtocol.SetDataBreakpointsResponse['body'] {
    this.dataBps = [];
    const out: DebugProtocol.Breakpoint[] = [];
    for (const b of a.breakpoints) {
      const id = this.nextId++;
      const m = /^([A-Z0-9]+):(\d+):(\d+):(.*)$/s.exec(b.dataId);
      const buf = m ? this.space(m[1]) : undefined;
      if (!m || !buf) {
        out.push({ id, verified: false, message: `bad data breakpoint ${b.dataId}` });
        continue;
      }
      const d: DataBp = { id, space: m[1], lo: Number(m[2]), len: Number(m[3]), what: m[4] || m[1] };
      if (d.len <= 65536) d.copy = buf.slice(d.lo, d.lo + d.len);
      this.dataBps.push(d);
      out.push({ id, verified: true, message: d.what });
    }
    if (this.dataBps.some((d) => d.copy)) Atomics.or(this.ch.ctl, CTL, WATCH);
    else Atomics.and(this.ch.ctl, CTL, ~WATCH);
    return { breakpoints: out };
  }

  /** Updates a data breakpoint's copy; true when the watched elements changed. */
  private refresh(d: DataBp): boolean {
    const buf = this.space(d.space);
    if (!buf || !d.copy) return false;
    let changed = false;
    const n = Math.min(d.copy.length, buf.length - d.lo);
    for (let i = 0; i < n; i++) {
      if (d.copy[i] !== buf[d.lo + i]) {
        changed = true;
        d.copy[i] = buf[d.lo + i];
      }
    }
    return changed;
  }

  private changedData(): DataBp | undefined {
    for (const d of this.dataBps) if (d.copy && this.refresh(d)) return d;
    return undefined;
  }

  // ----------------------------------------------------------------- frames

  private hart(hid: 0 | 1): Hart {
    const rt = this.c!.rt;
    return hid === 0 ? rt.main : rt.second;
  }

  /** Frames of a hart, innermost first (pid 1 has none outside ztaDualHartExecute). */
  private frameRefs(hid: 0 | 1): FrameRef[] {
    if (!this.c) return [];
    const rt = this.c.rt;
    if (hid === 1 && !rt.inDual) return [];
    const h = this.hart(hid);
    const out: FrameRef[] = [];
    for (let i = h.n - 3; i >= 0; i -= 3) out.push({ hid, i });
    return out;
  }

  private stmtOf(f: FrameRef): DebugStmt | undefined {
    const rt = this.c!.rt;
    let hid = f.hid;
    // pid 1's outer frames are pid 0's (copied when ztaDualHartExecute started)
    if (hid === 1 && rt.second.calls[f.i + 2] === rt.main.calls[f.i + 2]) hid = 0;
    return this.stmts[this.port.pos[hid][f.i + 3]];
  }

  private frameLoc(f: FrameRef): { file: string; line: number; column: number } | undefined {
    const h = this.hart(f.hid);
    if (f.i + 3 < h.n) {
      const site = h.calls[f.i + 4] as { file: string; line: number; column: number } | undefined;
      if (site) return site;
    }
    return this.stmtOf(f)?.loc;
  }

  private frameId(f: FrameRef): number {
    return f.hid * 100_000 + f.i / 3 + 1;
  }

  private frameOf(id: number): FrameRef | undefined {
    if (id === XFER_FRAME) return this.xfer ? this.frameRefs(this.xfer.at.process)[0] : undefined;
    const hid = (id >= 100_000 ? 1 : 0) as 0 | 1;
    const i = ((id - hid * 100_000 - 1) | 0) * 3;
    if (i < 0 || i >= this.hart(hid).n) return undefined;
    return { hid, i };
  }

  private stackTrace(a: DebugProtocol.StackTraceArguments): DebugProtocol.StackTraceResponse['body'] {
    if (!this.paused) return { stackFrames: [], totalFrames: 0 };
    const hid = (a.threadId === 2 ? 1 : 0) as 0 | 1;
    const refs: (FrameRef | 'xfer')[] = this.frameRefs(hid);
    if (this.xfer && this.xfer.at.process === hid) refs.unshift('xfer');
    const start = a.startFrame ?? 0;
    const levels = a.levels ? a.levels : refs.length;
    const frames = refs.slice(start, start + levels).map((f) => {
      if (f === 'xfer') return this.xferFrame();
      const code = this.hart(f.hid).calls[f.i] as FnCode;
      const loc = this.frameLoc(f);
      const sf: DebugProtocol.StackFrame = { id: this.frameId(f), name: code.name, line: loc?.line ?? 0, column: loc?.column ?? 0 };
      if (loc && loc.file && !loc.file.startsWith('<')) sf.source = { name: baseName(loc.file), path: loc.file };
      else sf.presentationHint = 'subtle';
      return sf;
    });
    return { stackFrames: frames, totalFrames: refs.length };
  }

  /** The frame of the transfer being stepped through: its progress as the name, at its `>` statement. */
  private xferFrame(): DebugProtocol.StackFrame {
    const { t, at } = this.xfer!;
    return { id: XFER_FRAME, name: `transfer ${t.done}/${t.total} elements`, line: at.loc.line, column: at.loc.column, source: { name: baseName(at.loc.file), path: at.loc.file } };
  }

  /** The Transfer scope: progress, the next batch, the next element of each side, what has been written. */
  private xferVars(): DebugProtocol.Variable[] {
    const { t, at } = this.xfer!;
    const n = t.nextBatch();
    const st = t.stats;
    const v = (name: string, value: string, memoryReference?: string): DebugProtocol.Variable => ({ name, value, variablesReference: 0, ...(memoryReference ? { memoryReference } : {}) });
    const out = [
      v('statement', at.text),
      v('done', `${t.done} of ${t.total} elements`),
      v('next batch', `elements ${t.done}..${t.done + n - 1} (${n})`),
      v('last batch', t.done ? `elements ${t.lastFrom}..${t.done - 1} (${t.done - t.lastFrom})` : '(none yet)'),
      elementVar('destination', t.dstAt(t.done)),
      elementVar('source', t.srcAt(t.done)),
    ];
    const w = st.written;
    const words = w && (w.space.startsWith('PCORE') || w.space === 'SPU');
    out.push(w ? v('written so far', `${w.count} ${words ? 'words' : 'bytes'} within ${w.space} ${words ? w.lo : hex8(w.lo)}..${words ? w.hi : hex8(w.hi)}`, memRefOf(w.space, w.lo)) : v('written so far', 'nothing'));
    out.push(v('padded', String(st.padded)), v('skipped', String(st.skipped)));
    return out;
  }

  private scopes(frameId: number): DebugProtocol.ScopesResponse['body'] {
    const f = this.frameOf(frameId);
    const scopes: DebugProtocol.Scope[] = [];
    if (frameId === XFER_FRAME && this.xfer) scopes.push({ name: 'Transfer', presentationHint: 'locals', variablesReference: this.handle({ k: 'xfer' }), expensive: false });
    if (f) scopes.push({ name: 'Locals', presentationHint: 'locals', variablesReference: this.handle({ k: 'locals', f }), expensive: false });
    scopes.push({ name: 'Globals', variablesReference: this.handle({ k: 'globals' }), expensive: false });
    scopes.push({ name: 'Tensor variables', variablesReference: this.handle({ k: 'tensor', hid: f?.hid ?? this.stoppedHart }), expensive: false });
    if (this.pcore) scopes.push({ name: 'PCORE variables', variablesReference: this.handle({ k: 'pcore', hid: f?.hid ?? this.stoppedHart }), expensive: false });
    scopes.push({ name: 'Machine', presentationHint: 'registers', variablesReference: this.handle({ k: 'machine' }), expensive: false });
    return { scopes };
  }

  private handle(r: VarRef): number {
    const id = this.nextId++;
    this.handles.set(id, r);
    return id;
  }

  // ----------------------------------------------------------------- evaluation contexts

  private frameCtx(f: FrameRef): Ctx {
    const h = this.hart(f.hid);
    const fr = h.calls[f.i + 2] as Frame;
    const stmt = this.stmtOf(f);
    return { ec: stmt?.ec ?? this.globalEc(), fr, f, stmt };
  }

  private globalEc(): EvalCtx {
    const c = this.c!;
    return { scope: c.global, fx: c.globalCx().fx, loc: { file: this.file, line: 1, column: 1 }, macros: c.pp.macros, cache: new Map() };
  }

  private ctxOf(frameId: number | undefined): Ctx {
    const f = frameId !== undefined ? this.frameOf(frameId) : this.frameRefs(this.stoppedHart)[0];
    return f ? this.frameCtx(f) : { ec: this.globalEc(), fr: [0, 0] };
  }

  private compileExpr(ec: EvalCtx, key: number | string, text: string): { t: CType; f: EF } {
    const k = `${key}\u0000${text}`;
    let e = this.exprs.get(k);
    if (!e) {
      e = this.c!.debugExpr(ec, text);
      this.exprs.set(k, e);
    }
    return e;
  }

  /** Runs debugger-evaluated code: no stops inside, and the harts are restored even when it faults. */
  private guarded<T>(f: () => T): T {
    const rt = this.c!.rt;
    const saved = [rt.main, rt.second].map((h) => ({ h, n: h.n, sp: h.sp }));
    const cur = rt.cur;
    this.evaluating++;
    try {
      return f();
    } finally {
      this.evaluating--;
      rt.cur = cur;
      for (const s of saved) {
        s.h.n = s.n;
        s.h.sp = s.sp;
      }
    }
  }

  private evalScalar(ctx: Ctx, text: string): number {
    const e = this.compileExpr(ctx.ec, ctx.stmt?.id ?? 'g', text);
    return this.guarded(() => e.f(ctx.fr));
  }

  private evaluate(ctx: Ctx, text: string, hex: boolean): DebugProtocol.EvaluateResponse['body'] {
    const expr = text.trim();
    if (!expr) throw new Error('empty expression');
    const tv = /^\$\w+$/.test(expr) ? this.tensorVars(ctx.f?.hid ?? this.stoppedHart).get(expr) : undefined;
    if (tv) {
      const v = this.tensorVar(expr, tv);
      return { result: v.value, type: v.type, variablesReference: v.variablesReference };
    }
    let e: { t: CType; f: EF };
    try {
      e = this.compileExpr(ctx.ec, ctx.stmt?.id ?? 'g', expr);
    } catch (err) {
      throw new Error(err instanceof SimError ? `cannot evaluate \`${expr}\`: ${err.message}` : (err as Error).message);
    }
    const value = this.guarded(() => e.f(ctx.fr));
    const agg = e.t.k === 'arr' || e.t.k === 'struct';
    const v = this.variable('', e.t, agg ? { a: value } : { v: value }, expr, ctx.f, hex);
    return { result: v.value, type: v.type, variablesReference: v.variablesReference, indexedVariables: v.indexedVariables, namedVariables: v.namedVariables, memoryReference: v.memoryReference };
  }

  // ----------------------------------------------------------------- variables

  private variables(a: DebugProtocol.VariablesArguments): DebugProtocol.Variable[] {
    const r = this.handles.get(a.variablesReference);
    if (!r) return [];
    const hex = !!a.format?.hex;
    switch (r.k) {
      case 'locals': {
        const ctx = this.frameCtx(r.f);
        return this.locals(ctx).map(([name, s]) => this.symVar(name, s, ctx, hex));
      }
      case 'globals':
        return this.c!.gvars.filter((g) => g.addr >= 0).map((g) => this.variable(g.name, g.t, { a: g.addr }, g.name.includes('.') ? '' : g.name, undefined, hex));
      case 'tensor':
        return [...this.tensorVars(r.hid)].map(([name, slot]) => this.tensorVar(name, slot));
      case 'machine':
        return this.machineVars();
      case 'list':
        return r.items;
      case 'xfer':
        return this.xfer ? this.xferVars() : [];
      case 'pcore':
      case 'pmem':
        return this.pcoreVars(r, hex);
      case 'obj':
      case 'deref':
        return this.children(r, a.start ?? 0, a.count, hex);
    }
  }

  /** Locals visible at a frame's statement: parameters and block variables, outer blocks first. */
  private locals(ctx: Ctx): [string, Sym][] {
    const chain: Scope[] = [];
    for (let s: Scope | undefined = ctx.ec.scope; s && s !== this.c!.global; s = s.parent) chain.unshift(s);
    const out = new Map<string, Sym>();
    for (const s of chain) for (const [name, sym] of s.syms) if (sym.k === 'slot' || sym.k === 'frame' || sym.k === 'global') out.set(name, sym);
    return [...out];
  }

  private symWhere(s: Sym, fr: Frame): Where | undefined {
    if (s.k === 'slot') return { v: fr[s.slot] };
    if (s.k === 'frame') return { a: fr[0] + s.off };
    if (s.k === 'global') return { a: s.g.addr };
    return undefined;
  }

  private symVar(name: string, s: Sym, ctx: Ctx, hex: boolean): DebugProtocol.Variable {
    const w = this.symWhere(s, ctx.fr)!;
    return this.variable(name, (s as { t: CType }).t, w, name, ctx.f, hex);
  }

  private variable(name: string, t: CType, w: Where, expr: string, f: FrameRef | undefined, hex = false): DebugProtocol.Variable {
    const v: DebugProtocol.Variable = { name, value: '', type: this.typeName(t), variablesReference: 0 };
    if (expr) v.evaluateName = expr;
    if ('a' in w) v.memoryReference = `MEM:${hex8(w.a)}`;
    try {
      switch (t.k) {
        case 'int':
        case 'float': {
          const x = 'v' in w ? w.v : this.load(t, w.a);
          v.value = fmtScalar(t, x, hex);
          break;
        }
        case 'ptr': {
          const p = ('v' in w ? w.v : this.load(t, w.a)) >>> 0;
          const fn = t.to.k === 'fn' ? this.c!.rt.fnAt(p) : undefined;
          if (fn) {
            v.value = `${fn.name} (${hex8(p)})`;
            break;
          }
          v.value = hex8(p);
          v.memoryReference = `MEM:${hex8(p)}`;
          const to = t.to;
          if (p !== 0 && this.valid(p, Math.max(1, sizeOf(to)))) {
            if (to.k === 'int' && to.size === 1) v.value += ` "${this.cstring(p, 48)}"`;
            if (to.k !== 'void' && to.k !== 'fn' && !(to.k === 'struct' && !to.complete)) {
              v.variablesReference = this.handle({ k: 'deref', t: to, a: p, expr, f });
              if (to.k === 'struct') v.namedVariables = to.fields.length;
            }
          }
          break;
        }
        case 'arr': {
          const a = 'a' in w ? w.a : w.v;
          v.memoryReference = `MEM:${hex8(a)}`;
          const n = t.n ?? 0;
          const el = t.of;
          const shown = Math.min(n, 8);
          const items: string[] = [];
          if (el.k === 'int' || el.k === 'float') for (let i = 0; i < shown; i++) items.push(fmtScalar(el, this.load(el, a + i * sizeOf(el)), hex));
          v.value = el.k === 'int' || el.k === 'float' ? `[${n}] {${items.join(', ')}${n > shown ? ', …' : ''}}` : `[${n}] @ ${hex8(a)}`;
          if (n > 0) {
            v.variablesReference = this.handle({ k: 'obj', t, a, expr, f });
            v.indexedVariables = n;
          }
          break;
        }
        case 'struct': {
          const a = 'a' in w ? w.a : w.v;
          v.memoryReference = `MEM:${hex8(a)}`;
          v.value = this.structPreview(t, a, hex);
          v.variablesReference = this.handle({ k: 'obj', t, a, expr, f });
          v.namedVariables = t.fields.length;
          break;
        }
        case 'fn':
          v.value = this.c!.rt.fnAt('v' in w ? w.v : 0)?.name ?? 'function';
          break;
        case 'void':
          v.value = 'void';
          break;
      }
    } catch (e) {
      v.value = `<${(e as Error).message}>`;
      v.variablesReference = 0;
    }
    return v;
  }

  private structPreview(t: StructT, a: number, hex: boolean): string {
    const parts: string[] = [];
    for (const fl of t.fields.slice(0, 6)) {
      const ft = fl.t;
      if (ft.k === 'int' || ft.k === 'float') parts.push(`${fl.name}=${fmtScalar(ft, this.load(ft, a + fl.off), hex)}`);
      else if (ft.k === 'ptr') parts.push(`${fl.name}=${hex8(this.load(ft, a + fl.off))}`);
      else parts.push(`${fl.name}={…}`);
    }
    return `{${parts.join(', ')}${t.fields.length > 6 ? ', …' : ''}}`;
  }

  private children(r: VarRef & { k: 'obj' | 'deref' }, start: number, count: number | undefined, hex: boolean): DebugProtocol.Variable[] {
    const t = r.t;
    const paren = /^[\w.[\]]+$/.test(r.expr) ? r.expr : `(${r.expr})`;
    if (t.k === 'struct') {
      const sep = r.k === 'deref' ? '->' : '.';
      return t.fields.map((fl) => this.variable(fl.name || '<anonymous>', fl.t, { a: r.a + fl.off }, r.expr && fl.name ? `${paren}${sep}${fl.name}` : '', r.f, hex));
    }
    if (r.k === 'deref') return [this.variable(`*${r.expr || 'p'}`, t, { a: r.a }, r.expr ? `*${paren}` : '', r.f, hex)];
    if (t.k === 'arr') {
      const n = t.n ?? 0;
      const es = sizeOf(t.of);
      const end = Math.min(n, start + (count ?? Math.min(n, 10_000)));
      const out: DebugProtocol.Variable[] = [];
      for (let i = start; i < end; i++) out.push(this.variable(`[${i}]`, t.of, { a: r.a + i * es }, r.expr ? `${paren}[${i}]` : '', r.f, hex));
      return out;
    }
    return [];
  }

  /** The variable `name` inside container `r`: its type, where it is, its C expression. */
  private childTarget(r: VarRef, name: string): { t: CType; w: Where; expr: string; ctx: Ctx; slot?: number } | undefined {
    switch (r.k) {
      case 'locals': {
        const ctx = this.frameCtx(r.f);
        const s = new Map(this.locals(ctx)).get(name);
        if (!s || (s.k !== 'slot' && s.k !== 'frame' && s.k !== 'global')) return undefined;
        return { t: s.t, w: this.symWhere(s, ctx.fr)!, expr: name, ctx, slot: s.k === 'slot' ? s.slot : undefined };
      }
      case 'globals': {
        const g = this.c!.gvars.find((x) => x.name === name);
        return g ? { t: g.t, w: { a: g.addr }, expr: name, ctx: this.ctxOf(undefined) } : undefined;
      }
      case 'obj':
      case 'deref': {
        const ctx = r.f ? this.frameCtx(r.f) : this.ctxOf(undefined);
        const t = r.t;
        if (t.k === 'struct') {
          const fl = t.fields.find((x) => x.name === name);
          return fl ? { t: fl.t, w: { a: r.a + fl.off }, expr: `${r.expr}${r.k === 'deref' ? '->' : '.'}${name}`, ctx } : undefined;
        }
        if (r.k === 'deref') return { t, w: { a: r.a }, expr: `*${r.expr}`, ctx };
        const m = /^\[(\d+)\]$/.exec(name);
        if (t.k === 'arr' && m && Number(m[1]) < (t.n ?? 0)) return { t: t.of, w: { a: r.a + Number(m[1]) * sizeOf(t.of) }, expr: `${r.expr}[${m[1]}]`, ctx };
        return undefined;
      }
    }
    return undefined;
  }

  private setVariable(a: DebugProtocol.SetVariableArguments): DebugProtocol.SetVariableResponse['body'] {
    const r = this.handles.get(a.variablesReference);
    const target = r ? this.childTarget(r, a.name) : undefined;
    if (!target) throw new Error(`${a.name}: cannot set this variable`);
    const { t, w, ctx } = target;
    if (t.k === 'arr' || t.k === 'fn' || t.k === 'void') throw new Error(`${a.name}: cannot assign a value of type ${this.typeName(t)}`);
    const e = this.compileExpr(ctx.ec, ctx.stmt?.id ?? 'g', a.value);
    const v = this.guarded(() => e.f(ctx.fr));
    if (t.k === 'struct') {
      if (e.t !== t) throw new Error(`${a.name}: cannot assign ${this.typeName(e.t)} to ${this.typeName(t)}`);
      if (!('a' in w)) throw new Error('internal: struct without an address');
      this.m!.mem.copyWithin(w.a, v, v + sizeOf(t));
    } else {
      if (e.t.k === 'struct' || e.t.k === 'arr' && t.k !== 'ptr') throw new Error(`${a.name}: cannot assign ${this.typeName(e.t)} to ${this.typeName(t)}`);
      const norm = normalizer(t);
      const x = norm ? norm(t.k === 'int' ? Math.trunc(v) : v) : v;
      if ('a' in w) this.store(t, w.a, x);
      else if (target.slot !== undefined) ctx.fr[target.slot] = x;
    }
    const nv = this.variable(a.name, t, 'a' in w ? w : { v: ctx.fr[target.slot!] }, target.expr, ctx.f, !!a.format?.hex);
    return { value: nv.value, type: nv.type, variablesReference: nv.variablesReference, indexedVariables: nv.indexedVariables, namedVariables: nv.namedVariables };
  }

  // ----------------------------------------------------------------- tensor variables and the machine

  private tensorVars(hid: 0 | 1): Map<string, TensorSlot> {
    const ex = this.ex as unknown as { slots?: [Map<string, TensorSlot>, Map<string, TensorSlot>] } | undefined;
    return ex?.slots?.[hid] ?? new Map();
  }

  private tensorVar(name: string, s: TensorSlot): DebugProtocol.Variable {
    const d = s.desc;
    const dims = d.levels.map((l) => `${l.label}${l.count !== undefined ? `[${l.count}]` : ''}`).join('');
    const base = d.base === undefined ? '?' : d.space === 'MEM' || d.space === 'SCRATCH' ? hex8(d.base) : String(d.base);
    const value = `${d.written}${d.shared ? ' shared' : ''} @${base} ${d.dtype ?? ''} ${dims} (${d.total ?? '?'} elements)`.replace(/\s+/g, ' ');
    const items: DebugProtocol.Variable[] = [
      { name: 'space', value: d.written, variablesReference: 0 },
      { name: 'base', value: base, variablesReference: 0, memoryReference: d.base !== undefined ? spaceRef(d.space, d.base, d.shared) : undefined },
      { name: 'dtype', value: d.dtype ?? '(default)', variablesReference: 0 },
      { name: 'elements', value: String(d.total ?? '?'), variablesReference: 0 },
    ];
    if (d.member) items.push({ name: 'member', value: `${d.member.fullName} (${d.member.type}, word offset ${d.member.offset ?? '?'})`, variablesReference: 0 });
    if (d.pad !== undefined) items.push({ name: 'pad', value: String(d.pad), variablesReference: 0 });
    if (d.repeat) items.push({ name: 'repeat', value: 'true', variablesReference: 0 });
    const levels = d.levels.map((l, i) => ({ name: `[${i}] ${l.label}`, value: `begin ${l.begin ?? '?'}, step ${l.step ?? '?'}, count ${l.count ?? '?'}, stride ${l.stride ?? '?'}${l.checkHigh ? '' : ', unchecked'}`, variablesReference: 0 }));
    items.push({ name: 'levels', value: dims || '(none)', variablesReference: levels.length ? this.handle({ k: 'list', items: levels }) : 0 });
    items.push({ name: 'defined at', value: `line ${s.info.unit.buf.firstLine + 1}`, variablesReference: 0 });
    return { name, value, type: 'tensor variable', variablesReference: this.handle({ k: 'list', items }), evaluateName: name };
  }

  /**
   * PCORE class variables of a process (its page): each private variable per PCORE and thread, each
   * shared one per PCORE, as arrays of 12-bit words.
   */
  private pcoreVars(r: VarRef & { k: 'pcore' | 'pmem' }, hex: boolean): DebugProtocol.Variable[] {
    const view = this.pcore;
    const m = this.m;
    if (!view || !m) return [];
    const fmt = (w: number) => (hex ? '0x' + (w & 0xfff).toString(16).padStart(3, '0') : String(w));
    const page = m.pages[r.hid];
    if (r.k === 'pcore') {
      const out: DebugProtocol.Variable[] = [];
      for (const cls of view.classNames()) {
        for (const mem of view.members(cls)) {
          if ((mem.storage !== 'private' && mem.storage !== 'shared') || mem.offset === undefined) continue;
          out.push({ name: mem.fullName, value: `${mem.type} [${mem.len}] ${mem.storage}, word ${mem.offset}`, type: mem.type, variablesReference: this.handle({ k: 'pmem', hid: r.hid, m: mem }), indexedVariables: LIMITS.numPcore });
        }
      }
      return out;
    }
    const mem = r.m;
    const shared = mem.storage === 'shared';
    const words = (base: number) => Array.from(shared ? page.shared.subarray(base, base + mem.len) : page.priv.subarray(base, base + mem.len));
    const leaf = (base: number, name: string): DebugProtocol.Variable => {
      const ws = words(base);
      const items = ws.map((w, k) => ({ name: `[${k}]`, value: fmt(w), variablesReference: 0 }));
      return { name, value: `{${ws.slice(0, 8).map(fmt).join(', ')}${ws.length > 8 ? ', …' : ''}}`, type: `${mem.type} [${mem.len}]`, variablesReference: this.handle({ k: 'list', items }), indexedVariables: ws.length, memoryReference: `PCORE${r.hid}${shared ? 'S' : ''}:${base * 2}` };
    };
    const off = mem.offset ?? 0;
    if (r.pcore === undefined) {
      const out: DebugProtocol.Variable[] = [];
      for (let p = 0; p < LIMITS.numPcore; p++) {
        if (shared) out.push(leaf(p * LIMITS.pcoreWordsPerProcess + off, `pcore ${p}`));
        else out.push({ name: `pcore ${p}`, value: `${LIMITS.numThread} threads`, variablesReference: this.handle({ ...r, pcore: p }), indexedVariables: LIMITS.numThread });
      }
      return out;
    }
    const out: DebugProtocol.Variable[] = [];
    for (let t = 0; t < LIMITS.numThread; t++) out.push(leaf(r.pcore * LIMITS.pcoreWordsPerProcess + t * LIMITS.privateWords + off, `thread ${t}`));
    return out;
  }

  private machineVars(): DebugProtocol.Variable[] {
    const m = this.m!;
    const out: DebugProtocol.Variable[] = [];
    for (const s of SPACES) {
      const b = this.space(s)!;
      const words = b instanceof Int16Array;
      out.push({ name: s, value: `${b.length} ${words ? '12-bit words' : 'bytes'}`, type: 'memory space', variablesReference: 0, memoryReference: s });
    }
    out.push({ name: '_global[0]', value: String(m.globals[0]), type: 'kernel parameter register', variablesReference: 0 });
    out.push({ name: '_global[1]', value: String(m.globals[1]), type: 'kernel parameter register', variablesReference: 0 });
    out.push({ name: 'tensor statements executed', value: String(this.trace.length), variablesReference: 0 });
    const last = this.trace[this.trace.length - 1];
    if (last) out.push({ name: 'last tensor statement', value: `#${last.step} line ${last.line} (pid ${last.process}): ${last.text}`, variablesReference: 0 });
    return out;
  }

  // ----------------------------------------------------------------- memory

  private space(name: string): Uint8Array | Int16Array | undefined {
    const m = this.m;
    if (!m) return undefined;
    switch (name.toUpperCase()) {
      case 'MEM': return m.mem;
      case 'SCRATCH': return m.scratch;
      case 'SPU': return m.spu;
      case 'PCORE0': case 'PCORE': return m.pages[0].priv;
      case 'PCORE0S': return m.pages[0].shared;
      case 'PCORE1': return m.pages[1].priv;
      case 'PCORE1S': return m.pages[1].shared;
    }
    return undefined;
  }

  /** `SPACE` or `SPACE:ADDRESS` (bytes; PCORE spaces: 2 bytes per word) → the space's bytes and the address. */
  private memRef(ref: string, offset: number): { bytes: Uint8Array; words: Int16Array | undefined; addr: number } {
    const m = /^\s*([A-Z0-9]+)(?::\s*(0x[0-9a-f]+|\d+))?\s*$/i.exec(ref);
    const buf = m ? this.space(m[1]) : undefined;
    if (!m || !buf) throw new Error(`unknown memory reference '${ref}' (use MEM, SCRATCH, SPU, PCORE0, PCORE0S, PCORE1, PCORE1S, optionally :ADDRESS)`);
    const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    return { bytes, words: buf instanceof Int16Array ? buf : undefined, addr: (m[2] ? Number(m[2]) : 0) + offset };
  }

  private readMemory(a: DebugProtocol.ReadMemoryArguments): DebugProtocol.ReadMemoryResponse['body'] {
    const { bytes, addr } = this.memRef(a.memoryReference, a.offset ?? 0);
    const count = Math.max(0, Math.min(a.count, 1 << 24));
    const lo = Math.max(0, Math.min(addr, bytes.length));
    const hi = Math.max(lo, Math.min(addr + count, bytes.length));
    const skipped = Math.max(0, Math.min(count, lo - addr));
    const data = bytes.subarray(lo, hi);
    return { address: hex8(addr + skipped), data: toBase64(data), unreadableBytes: count - data.length };
  }

  private writeMemory(a: DebugProtocol.WriteMemoryArguments): DebugProtocol.WriteMemoryResponse['body'] {
    const { bytes, words, addr } = this.memRef(a.memoryReference, a.offset ?? 0);
    const data = fromBase64(a.data);
    if (addr < 0 || addr + data.length > bytes.length) {
      if (!a.allowPartial || addr < 0 || addr >= bytes.length) throw new Error(`cannot write ${data.length} bytes at ${hex8(addr)} (the space has ${bytes.length} bytes)`);
    }
    const n = Math.min(data.length, bytes.length - addr);
    bytes.set(data.subarray(0, n), addr);
    // PCORE and SPU words are 12-bit signed
    if (words) for (let i = addr >> 1; i < (addr + n + 1) >> 1; i++) words[i] = (words[i] << 20) >> 20;
    return { bytesWritten: n };
  }

  private valid(a: number, n: number): boolean {
    return a >= 0 && a + n <= (this.m?.mem.length ?? 0);
  }

  private load(t: CType, a: number): number {
    const size = t.k === 'ptr' ? 4 : t.k === 'int' || t.k === 'float' ? t.size : 0;
    if (!this.valid(a, size)) throw new Error(`cannot read ${size} bytes at ${hex8(a)}`);
    const dv = new DataView(this.m!.mem.buffer, this.m!.mem.byteOffset);
    if (t.k === 'ptr') return dv.getUint32(a, true);
    if (t.k === 'float') return t.size === 4 ? dv.getFloat32(a, true) : dv.getFloat64(a, true);
    if (t.k !== 'int') return NaN;
    if (t.bool) return dv.getUint8(a) !== 0 ? 1 : 0;
    switch (t.size) {
      case 1: return t.signed ? dv.getInt8(a) : dv.getUint8(a);
      case 2: return t.signed ? dv.getInt16(a, true) : dv.getUint16(a, true);
      case 4: return t.signed ? dv.getInt32(a, true) : dv.getUint32(a, true);
      default: return (t.signed ? dv.getInt32(a + 4, true) : dv.getUint32(a + 4, true)) * 4294967296 + dv.getUint32(a, true);
    }
  }

  private store(t: CType, a: number, v: number): void {
    const size = t.k === 'ptr' ? 4 : t.k === 'int' || t.k === 'float' ? t.size : 0;
    if (!this.valid(a, size)) throw new Error(`cannot write ${size} bytes at ${hex8(a)}`);
    const dv = new DataView(this.m!.mem.buffer, this.m!.mem.byteOffset);
    if (t.k === 'ptr') dv.setUint32(a, v >>> 0, true);
    else if (t.k === 'float') {
      if (t.size === 4) dv.setFloat32(a, v, true);
      else dv.setFloat64(a, v, true);
    } else if (t.k === 'int') {
      switch (t.size) {
        case 1: dv.setUint8(a, v & 255); break;
        case 2: dv.setUint16(a, v & 65535, true); break;
        case 4: dv.setUint32(a, v >>> 0, true); break;
        default: {
          const b = BigInt.asUintN(64, BigInt(Math.trunc(v)));
          dv.setBigUint64(a, b, true);
        }
      }
    }
  }

  private cstring(a: number, max: number): string {
    const mem = this.m!.mem;
    let s = '';
    for (let i = 0; i < max && a + i < mem.length; i++) {
      const c = mem[a + i];
      if (c === 0) return s;
      s += c >= 32 && c < 127 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
    }
    return s + '…';
  }
}

/** The executor's record of a `$` tensor variable (its evaluated descriptor). */
interface TensorSlot {
  info: { unit: { buf: { firstLine: number } } };
  desc: import('../tprog/descriptor').Descriptor;
}

function fmtScalar(t: CType, v: number, hex: boolean): string {
  if (t.k === 'float') return String(v);
  if (t.k !== 'int') return String(v);
  if (t.bool) return v ? 'true' : 'false';
  if (hex) {
    const bits = t.size * 8;
    const u = v < 0 ? (bits >= 32 ? (bits === 32 ? v >>> 0 : v + 2 ** bits) : v + 2 ** bits) : v;
    return '0x' + u.toString(16).padStart(t.size * 2, '0');
  }
  if (t.size === 1 && /char/.test(t.name)) {
    const c = v & 255;
    return `${v} '${c >= 32 && c < 127 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`}'`;
  }
  return String(v);
}

/** `N` (hits ≥ N), `>N`, `>=N`, `<N`, `<=N`, `==N`/`=N`, `%N` (every N-th hit). */
export function hitMatches(cond: string, hits: number): boolean {
  const m = /^\s*(>=|<=|==|=|>|<|%)?\s*(\d+)\s*$/.exec(cond);
  if (!m) return true;
  const n = Number(m[2]);
  switch (m[1]) {
    case '>': return hits > n;
    case '>=': case undefined: return hits >= n;
    case '<': return hits < n;
    case '<=': return hits <= n;
    case '%': return n > 0 && hits % n === 0;
    default: return hits === n;
  }
}

/** A memory reference (readMemory) at an element of a space: bytes of MEM/SCRATCH, words (2 bytes each) of PCORE/SPU. */
function memRefOf(space: string, at: number): string {
  return space.startsWith('PCORE') || space === 'SPU' ? `${space}:${at * 2}` : `${space}:${hex8(at)}`;
}

/** The next element of one side of a transfer being stepped through. */
function elementVar(name: string, e: ElementAt): DebugProtocol.Variable {
  let where: string;
  if (e.note === 'constant') where = '(constant)';
  else if (e.note === 'exhausted') where = '(source exhausted: PAD)';
  else if (e.address === undefined) where = name === 'source' ? '(out of bound: PAD)' : '(out of bound: write skipped)';
  else if (e.space.startsWith('PCORE')) where = `${e.space} word ${e.address} ${pcoreAddr(e.address, e.space.endsWith('S'))}`;
  else where = e.space === 'SPU' ? `SPU word ${e.address}` : `${e.space} ${hex8(e.address)}`;
  const v: DebugProtocol.Variable = { name, value: `${e.coord} @ ${where}`, variablesReference: 0 };
  if (e.address !== undefined) v.memoryReference = memRefOf(e.space, e.address);
  return v;
}

function spaceRef(space: string, base: number, shared?: boolean): string {
  if (space === 'PCORE') return `PCORE0${shared ? 'S' : ''}:${base * 2}`;
  return `${space}:${hex8(base)}`;
}

function baseName(p: string): string {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  const n = (p: string) => p.replace(/\\/g, '/').replace(/^([a-z]):/i, (_m, d: string) => d.toLowerCase() + ':');
  return n(a) === n(b);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function toBase64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 3) {
    const x = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    s += B64[(x >> 18) & 63] + B64[(x >> 12) & 63] + (i + 1 < b.length ? B64[(x >> 6) & 63] : '=') + (i + 2 < b.length ? B64[x & 63] : '=');
  }
  return s;
}

export function fromBase64(s: string): Uint8Array {
  const clean = s.replace(/[^A-Za-z0-9+/]/g, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < clean.length; i += 4) {
    const v = [0, 1, 2, 3].map((k) => (i + k < clean.length ? B64.indexOf(clean[i + k]) : 0));
    const x = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
    if (o < out.length) out[o++] = (x >> 16) & 255;
    if (o < out.length && i + 2 < clean.length) out[o++] = (x >> 8) & 255;
    if (o < out.length && i + 3 < clean.length) out[o++] = x & 255;
  }
  return out.subarray(0, o);
}
