/**
 * The debug target: runs a tensor program on the simulator with the host interpreter's stop points
 * compiled in (through the simulator's debug view, core/sim/debug), and answers the debug adapter's
 * requests.
 *
 * It runs in a worker thread (debug/worker.ts). Stopping blocks that thread inside the stop point:
 * `pause()` posts a `stopped` event and then serves requests (stack, variables, evaluation, memory)
 * from the blocked thread until a resume command arrives, so every closure, generator and JS frame
 * of the interpreter stays exactly where it was. Both tensor-engine processes are threads 1 (pid 0)
 * and 2 (pid 1); the process that stops and the other one are stopped together.
 *
 * This file is the run and its control (stop points, stepping, pausing, the request dispatch);
 * breakpoints.ts holds the breakpoints, variables.ts the frames, scopes and variables of a stop.
 */
import type { Project } from '../core/project/project';
import { DebugView, sizeOf, type EvalScope, type Frame, type SteppedTransfer, type TransferAt } from '../core/sim/debug';
import { prepareRun, type PreparedRun, type RunHost } from '../core/sim/prepare';
import { runProgram, type RunResult } from '../core/sim/run';
import { errorText, warningText } from '../core/sim/runWarning';
import type { TraceSlice, TraceStep } from '../core/protocol/trace';
import type { SimError } from '../core/sim/types';
import type { TensorExecutor } from '../core/sim/engine/execute';
import { Breakpoints } from './breakpoints';
import { baseName, fromBase64, hex8, toBase64 } from './format';
import { CTL, MSG, PAUSE, STEP, WATCH, type FromTarget, type LaunchArgs, type ToTarget } from './protocol';
import { Ids, Variables, type SteppedXfer } from './variables';

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

/** What a run reads and what is open in the editor, so that no dump is written over one of them (node/runInputs.ts). */
export interface InputGuard {
  /** `host` with what it reads recorded as the run's inputs. */
  track<H extends Pick<RunHost, 'readText' | 'readBytes'>>(host: H): H;
  /** Why `path` must not be written (`name`: how the message names it), or undefined. */
  refusal(path: string, name?: string): string | undefined;
}

/** Files and paths (Node in the worker). */
export interface TargetIO extends Omit<RunHost, 'loadPcore'> {
  writeBytes(path: string, data: Uint8Array): void;
  /** A guard for one run; `open`: the documents open in the editor (the launch's overlay). */
  inputs(open: string[]): InputGuard;
  /** A project reading files with `read`; the run's own project takes its PCORE loader. */
  project(read: (path: string) => string | undefined): Project;
}

const MAX_TRACE_LINES = 5000;

/** Runs one debug session's program; resolves when the program has ended (or failed to start). */
export async function runTarget(launch: LaunchArgs, ch: TargetChannel, io: TargetIO): Promise<void> {
  const t = new DebugTarget(launch, ch, io);
  await t.run();
}

export class DebugTarget {
  private view?: DebugView;
  private vars?: Variables;
  private bps?: Breakpoints;
  private readonly ids = new Ids();
  private configured = false;
  private paused = false;
  stoppedHart: 0 | 1 = 0;
  private step: { kind: 'in' | 'over' | 'out'; hart: 0 | 1; depth: number; reason: string } | null = null;
  private stopOnFaults = true;
  private faulted = new WeakSet<SimError>();
  private lastFault?: SimError;
  private traceLines = 0;
  /** Paused at a stop point, before its statement runs. */
  private atStmt = false;
  /** The process whose next transfer runs in batches (a stepIn on a `>` statement). */
  private enterXfer: 0 | 1 | undefined;
  /** The transfer being stepped through, while paused between its batches. */
  xfer?: SteppedXfer;
  /** After a stop inside a transfer: move the next batch and stop again, or the rest of it. */
  private xferMode: 'batch' | 'finish' = 'batch';
  private xferStepIn = false;
  private executor?: TensorExecutor;

  constructor(
    private readonly launch: LaunchArgs,
    private readonly ch: TargetChannel,
    private readonly io: TargetIO,
  ) {}

  // ================================================================= the run

  async run(): Promise<void> {
    const L = this.launch;
    let prepared: PreparedRun;
    const inputs = this.io.inputs(Object.keys(L.overlay ?? {}));
    try {
      const host = inputs.track({ ...this.io, readText: (p: string) => L.overlay?.[p] ?? this.io.readText(p) });
      // the program is read as the checker reads it (include paths, dialect, its .p); a relative program
      // without cwd is the adapter's folder's, made absolute here: DAP sources, breakpoints and messages
      // name files by absolute path (a client opens another editor for a relative one)
      const program = L.cwd ? L.program : host.resolve('.', L.program);
      prepared = prepareRun({ ...L, program }, { ...host, loadPcore: this.io.project(host.readText).opts.loadPcore });
    } catch (e) {
      this.ch.post({ t: 'launchError', message: (e as Error).message });
      return;
    }
    const view = (this.view = new DebugView(
      this.ch.ctl,
      {
        stop: (id, fr) => this.onStmt(id, fr),
        fault: (e) => this.onFault(e),
        attached: (entry) => {
          this.ch.post({ t: 'ready', entry });
          this.serveUntil(() => this.configured);
          if (L.stopOnEntry) this.setStep({ kind: 'in', hart: 0, depth: 0, reason: 'entry' });
        },
        step: (s) => this.onTensorStep(s),
        output: (text) => this.output(text, 'stdout'),
        enterTransfer: (process) => this.enterTransfer(process),
        betweenBatches: (t, at) => this.betweenBatches(t, at),
      },
      prepared.file,
    ));
    this.vars = new Variables(view, this.ids, this);
    this.bps = new Breakpoints(view, this.ids, this.vars, (text, category) => this.output(text, category));
    let r: RunResult;
    try {
      // the executor answers `runValues` (what each statement did so far)
      const hooks = view.hooks;
      r = await runProgram({ ...prepared.options, debug: { ...hooks, attach: (p) => ((this.executor = p.executor), hooks.attach(p)) } });
    } catch (e) {
      if (!view.attached) this.ch.post({ t: 'launchError', message: (e as Error).message });
      else {
        this.output(`internal error: ${(e as Error).stack ?? e}\n`, 'stderr');
        this.ch.post({ t: 'end', exitCode: 1 });
      }
      return;
    }
    if (!view.attached) {
      const er = r.error;
      this.ch.post({ t: 'launchError', message: er ? `${er.file}:${er.line}:${er.column}: ${er.message}` : 'the program did not start' });
      return;
    }
    // a dump refused or not written ends the session with exit code 1, as a run error does
    let dumpFailed = false;
    for (const d of r.dumps) {
      if (d.file && d.bytes) {
        const path = prepared.dumpPath(d.file);
        // never over the program, a header, the .p, a load or an open document (the file stays as it was)
        const why = inputs.refusal(path);
        if (why) {
          this.output(`cannot write ${path}: ${why}\n`, 'stderr');
          dumpFailed = true;
          continue;
        }
        try {
          this.io.writeBytes(path, d.bytes);
          this.output(`${d.space}:${d.where} → ${path}\n`, 'console');
        } catch (e) {
          this.output(`cannot write ${path}: ${(e as Error).message}\n`, 'stderr');
          dumpFailed = true;
        }
      } else this.output(`${d.space}:${d.where}:${d.dtype} = ${(d.values ?? []).join(' ')}\n`, 'console');
    }
    for (const w of r.warnings) this.output(warningText(w, w.file) + '\n', 'console');
    const s = r.summary;
    if (r.error) {
      this.output(`${errorText(r.error, r.error.file)}\n${r.error.stack.map((f) => `    at ${f}\n`).join('')}`, 'stderr');
    }
    this.output(`[run] ${r.entry}: ${s.statements} tensor statements, ${s.steps} steps, ${s.bytesMoved} bytes moved\n`, 'console');
    // the last records for trace views (the session cannot be asked once it has ended)
    const trace = view.trace;
    const last: TraceSlice = { total: trace.length, steps: trace.slice(-1000) };
    this.ch.post({ t: 'event', event: 'tensorTrace', body: last });
    this.ch.post({ t: 'end', exitCode: r.error || dumpFailed ? 1 : 0 });
  }

  private output(text: string, category: 'stdout' | 'stderr' | 'console'): void {
    this.ch.post({ t: 'event', event: 'output', body: { category, output: text } });
  }

  // ================================================================= stop points

  private onStmt(id: number, fr: Frame): void {
    const ctl = this.ch.ctl;
    const bits = ctl[CTL];
    if (bits & MSG) this.serveRunning();
    const view = this.view!;
    const hid = view.current;
    if (bits & PAUSE) {
      Atomics.and(ctl, CTL, ~PAUSE);
      this.pause('pause', hid, {}, true);
      return;
    }
    if (view.isBreak(id)) {
      const ids = this.bps!.check(id, view.stopScope(id, fr), (msg, s) => this.interpolate(msg, s));
      if (ids) {
        this.pause('breakpoint', hid, { hitBreakpointIds: ids }, true);
        return;
      }
    }
    if (bits & WATCH) {
      const d = this.bps!.changed();
      if (d) {
        this.pause('data breakpoint', hid, { hitBreakpointIds: [d.id], description: `${d.what} changed` }, true);
        return;
      }
    }
    const s = this.step;
    if (s) {
      let done: boolean;
      if (hid !== s.hart)
        done = !view.inDual; // the stepped process has finished its part
      else {
        const n = view.depth(hid);
        done = s.kind === 'in' || (s.kind === 'over' ? n <= s.depth : n < s.depth);
      }
      if (done) this.pause(s.reason, hid, {}, true);
    }
  }

  /** The executor asks before each transfer: run it in batches when a stepIn entered it. */
  private enterTransfer(process: 0 | 1): boolean {
    if (this.enterXfer !== process) return false;
    this.enterXfer = undefined;
    this.xferMode = 'batch';
    return true;
  }

  /**
   * Before the first batch and between batches of a transfer being stepped through: stops (the
   * stack shows the transfer and its progress) unless a continue or stepOut said to finish it, and
   * returns the size of the next batch.
   */
  private betweenBatches(t: SteppedTransfer, at: TransferAt): number {
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
    if (!this.configured || this.paused || this.faulted.has(e)) return;
    this.faulted.add(e);
    this.lastFault = e;
    if (!this.stopOnFaults) return;
    this.pause('exception', this.view!.current, { description: e.message, text: e.kind });
  }

  private onTensorStep(s: TraceStep): void {
    if (this.launch.trace !== false && this.traceLines < MAX_TRACE_LINES) {
      this.traceLines++;
      const w = s.written ? ` → ${s.written.space}[${s.written.lo}..${s.written.hi}]` : '';
      this.output(
        `[tensor #${s.step}] pid ${s.process} ${baseName(s.file)}:${s.line} ${s.kind} ${s.elements} el${w}  ` +
          `${s.text}\n${this.traceLines === MAX_TRACE_LINES ? '[tensor] (further statements are not printed; the tensorTrace request lists them all)\n' : ''}`,
        'console',
      );
    }
    const bps = this.bps!;
    if (bps.data.length === 0 || this.view!.evaluating) return;
    const w = s.written;
    if (!w) return;
    for (const d of bps.data) {
      if (d.space !== w.space || w.hi < d.lo || w.lo >= d.lo + d.len) continue;
      if (d.copy && !bps.refresh(d)) continue;
      this.pause('data breakpoint', s.process, { hitBreakpointIds: [d.id], description: `${d.what} written by ${s.kind} at line ${s.line}` });
      return;
    }
  }

  /** A log message with each `{expression}` replaced by its value. */
  private interpolate(msg: string, s: EvalScope): string {
    return msg.replace(/\{([^{}]+)\}/g, (_m, expr: string) => {
      try {
        return this.vars!.evaluate(s, expr.trim(), false).result;
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
      this.vars!.clear();
    }
  }

  /** Records the memory state of this stop (before the `stopped` event: the inspector reads after it). */
  private markStop(reason: string, hid: 0 | 1): void {
    const view = this.view!;
    if (!view.stops) return;
    const top = view.frames(hid)[0];
    const loc = this.xfer?.at.loc ?? (top && view.frameLoc(top)) ?? { file: '', line: 0, column: 0 };
    const x = this.xfer ? `, transfer ${this.xfer.t.done}/${this.xfer.t.total} elements` : '';
    view.stops.mark({
      reason,
      process: hid,
      file: loc.file,
      line: loc.line,
      column: loc.column,
      text: `${reason} at ${baseName(loc.file)}:${loc.line} (pid ${hid}${x})`,
    });
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
      const body = this.request(m);
      this.ch.post({ t: 'res', seq: m.seq, body });
    } catch (e) {
      this.ch.post({ t: 'res', seq: m.seq, error: e instanceof Error ? e.message : String(e) });
    }
  }

  // ================================================================= requests

  private request(m: ToTarget): unknown {
    const needPause = (): void => {
      if (!this.paused) throw new Error('the program is running: pause it first');
    };
    const view = this.view!;
    const vars = this.vars!;
    const bps = this.bps!;
    switch (m.command) {
      case 'configurationDone':
        this.configured = true;
        return undefined;
      case 'setBreakpoints':
        return bps.set(m.args);
      case 'setExceptionBreakpoints':
        this.stopOnFaults = (m.args.filters ?? []).includes('faults');
        return undefined;
      case 'dataBreakpointInfo':
        return bps.dataInfo(m.args);
      case 'setDataBreakpoints': {
        const { body, watch } = bps.setData(m.args);
        if (watch) Atomics.or(this.ch.ctl, CTL, WATCH);
        else Atomics.and(this.ch.ctl, CTL, ~WATCH);
        return body;
      }
      case 'continue':
        this.clearStep();
        this.xferMode = 'finish';
        this.paused = false;
        return { allThreadsContinued: true };
      case 'next':
      case 'stepIn':
      case 'stepOut': {
        needPause();
        const command = m.command;
        if (this.xfer) {
          // inside a transfer: next/stepIn move the next batch (after the last one, the next statement), stepOut the rest
          const hid = this.xfer.at.process;
          this.xferMode = command === 'stepOut' ? 'finish' : 'batch';
          this.xferStepIn = command === 'stepIn';
          this.setStep({ kind: command === 'stepIn' ? 'in' : 'over', hart: hid, depth: view.depth(hid), reason: 'step' });
          this.paused = false;
          return undefined;
        }
        let hid = (Number(m.args.threadId ?? 1) - 1) as 0 | 1;
        if (hid !== 1 || !view.inDual) hid = 0;
        // stepIn on a `>` statement enters its transfer
        if (command === 'stepIn' && this.atStmt && hid === this.stoppedHart) {
          const f = view.frames(hid)[0];
          if (f && view.stopPointOf(f)?.tensor) this.enterXfer = hid;
        }
        this.setStep({ kind: command === 'next' ? 'over' : command === 'stepIn' ? 'in' : 'out', hart: hid, depth: view.depth(hid), reason: 'step' });
        this.paused = false;
        return undefined;
      }
      case 'stackTrace':
        if (!this.paused) return { stackFrames: [], totalFrames: 0 };
        return vars.stackTrace(m.args);
      case 'scopes':
        needPause();
        return vars.scopes(Number(m.args.frameId));
      case 'variables':
        needPause();
        return { variables: vars.variables(m.args) };
      case 'evaluate': {
        needPause();
        const s = vars.scopeOf(m.args.frameId);
        return vars.evaluate(s, String(m.args.expression ?? ''), !!m.args.format?.hex);
      }
      case 'setVariable':
        needPause();
        return vars.setVariable(m.args);
      case 'setExpression': {
        needPause();
        const s = vars.scopeOf(m.args.frameId);
        const r = vars.evaluate(s, `(${String(m.args.expression)}) = (${String(m.args.value)})`, false);
        return { value: r.result, type: r.type, variablesReference: r.variablesReference };
      }
      case 'readMemory': {
        const a = m.args;
        const mem = view.memory;
        if (!mem)
          throw new Error(`unknown memory reference '${a.memoryReference}' (use MEM, SCRATCH, SPU, PCORE0, PCORE0S, PCORE1, PCORE1S, optionally :ADDRESS)`);
        const r = mem.read(a.memoryReference, a.offset ?? 0, a.count);
        return { address: hex8(r.addr), data: toBase64(r.data), unreadableBytes: r.unreadable };
      }
      case 'writeMemory': {
        needPause();
        const a = m.args;
        return { bytesWritten: view.memory!.write(a.memoryReference, a.offset ?? 0, fromBase64(a.data), !!a.allowPartial) };
      }
      case 'exceptionInfo': {
        const e = this.lastFault;
        if (!e) throw new Error('no exception');
        return { exceptionId: e.kind, description: e.message, breakMode: 'always', details: { message: e.message, stackTrace: e.stack_.join('\n') } };
      }
      case 'tensorTrace': {
        const trace = view.trace;
        const start = Math.max(0, Number(m.args.start ?? 0));
        const count = Math.max(0, Math.min(Number(m.args.count ?? 1000), 100_000));
        const slice: TraceSlice = { total: trace.length, steps: trace.slice(start, start + count) };
        return slice;
      }
      case 'memoryStops': {
        // the stops so far with the pages each changed, the spaces' sizes, the C globals
        const st = view.stops;
        if (!st) return { total: 0, oldest: 0, paused: this.paused, sizes: {}, globals: [], stops: [] };
        const from = Math.max(0, Number(m.args.from ?? 0));
        const count = Math.max(0, Math.min(Number(m.args.count ?? 1000), 100_000));
        const globals = view
          .globals()
          .filter((g) => !g.name.includes('.'))
          .map((g) => ({ name: g.name, address: g.addr, size: sizeOf(g.t), type: view.typeName(g.t) }));
        return { total: st.count, oldest: st.oldest, paused: this.paused, sizes: st.sizes(), globals, stops: st.records(from, count) };
      }
      case 'memoryAtStop': {
        if (!view.stops) throw new Error('the program has not started');
        const len = Math.max(0, Math.min(Number(m.args.length ?? 0), 1 << 24));
        return { data: toBase64(view.stops.read(String(m.args.space), Number(m.args.offset ?? 0), len, Number(m.args.stop))) };
      }
      case 'runValues':
        return { statements: this.executor?.statementRecords() ?? [] };
      case 'stopPoints':
        return { stops: view.stopPoints.map((s) => ({ id: s.id, file: s.loc.file, line: s.loc.line, fn: s.fn, tensor: s.tensor })) };
    }
    throw new Error(`unsupported request '${(m as { command: string }).command}'`);
  }
}
