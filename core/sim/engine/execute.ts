/** Executes the `>` statements of a tensor program against the machine, recording a trace step for each. */
import type { Term } from '../../tprog/ast';
import type { StmtInfo, TprogAnalysis, Unit } from '../../tprog/analyze';
import { describe, type Descriptor } from '../../tprog/descriptor';
import { canonicalType, LIMITS, type DataType } from '../../tprog/machineConstants';
import type { MemberInfo, PcoreIndexView } from '../../tprog/pcoreView';
import type { SpaceHistory } from '../history';
import type { Machine } from '../machine';
import { YIELD_KIND, type StatementRun, type TraceStep } from '../../protocol/trace';
import {
  SimError,
  type Budget,
  type HostScope,
  type HostServices,
  type MmioPort,
  type PcoreRunner,
  type SourceLoc,
  type ZtaMachinePort,
  faultAddress,
} from '../types';
import { fromWord, toWord } from './convert';
import { byteAddress } from '../../common/address';
import { SteppedTransfer } from './stepped';
import { runTransfer, type EngineContext, type Side, type TransferStats } from './transfer';
import { Walker } from './walk';
import { uncheckedClip } from './unchecked';
import { StatementRuns } from './statementRuns';
import { SPACE_NAMES } from '../spaces';

const TYPE_CODES: Record<number, DataType> = { 3: 'INT16', 2: 'INT8', 4: 'UINT8' };

interface VarSlot {
  info: StmtInfo;
  desc: Descriptor;
  /** Index of the `[$]` level in desc.levels, or -1. */
  placeholder: number;
  member?: MemberInfo;
  side: Omit<Side, 'desc'>;
  pad: number;
  repeat: boolean;
}

/** A `$` tensor variable as a debugger shows it: its defining statement and evaluated descriptor. */
export type TensorVariable = Readonly<Pick<VarSlot, 'info' | 'desc'>>;

/** The `>` statements of an included tensor program (a driver that includes a kernel file), numbered from `base`. */
export interface IncludedProgram {
  a: TprogAnalysis;
  base: number;
}

export interface ExecOptions {
  a: TprogAnalysis;
  /** Included tensor programs whose units follow the program's own (see IncludedProgram). */
  included?: IncludedProgram[];
  m: Machine;
  pcore?: PcoreIndexView;
  runner?: PcoreRunner;
  budget: Budget;
  history: (space: string) => SpaceHistory | undefined;
  /** Called after every step with its record. */
  onStep: (s: TraceStep) => void;
  /** CALLBACK events. */
  onCallback: (f: number, p: number) => void;
  print: (s: string) => void;
  /** What the simulator does differently from the hardware at `at` (a run warning). */
  warn?: (message: string, at: SourceLoc) => void;
  /** Kernel code address (the encoded `$cls::k` value >> 4) → kernel name. */
  kernelByAddress: (addr: number) => string | undefined;
}

/** The debugger's hook on `>` transfers (debug runs only: plain runs leave `TensorExecutor.stepHook` unset). */
export interface TransferStepHook {
  /** Before a transfer of process `process` runs: run it in batches (through `between`)? */
  enter(process: 0 | 1): boolean;
  /** Before the first batch and between batches: how many elements to move before the next call (Infinity: the rest). */
  between(t: SteppedTransfer, at: { loc: SourceLoc; text: string; process: 0 | 1 }): number;
}

export class TensorExecutor {
  private readonly slots: [Map<string, VarSlot>, Map<string, VarSlot>] = [new Map(), new Map()];
  step = 0;
  bytesMoved = 0;
  /** Set by a debugger to step into transfers. */
  stepHook?: TransferStepHook;
  laneOps = 0;
  /** Each `>` transfer and definition as it last ran, with how many times (hovers and inlay hints after a run or at a stop). */
  // Stryker disable next-line OptionalChaining: a use is recorded only after its variable resolved (its slot exists); a definition has a source term
  readonly statementRuns = new StatementRuns((t, p) => (t.kind === 'var' ? (this.slots[p].get(t.name!.text)?.info.src?.term ?? t) : t));

  constructor(private readonly o: ExecOptions) {
    if (o.included?.length) this.includedOf = new Map(o.included.flatMap((p) => p.a.units.map((u) => [u, p.a] as const)));
  }

  /** What each `>` transfer and definition did the last time it ran so far (StatementRun records, placed as trace steps are). */
  statementRecords(): StatementRun[] {
    return this.statementRuns.records((info, offset) => this.locOf(info, offset));
  }

  /** The `$` tensor variables process `process` has defined, by name (for a debugger). */
  tensorVariables(process: 0 | 1): ReadonlyMap<string, TensorVariable> {
    return this.slots[process];
  }

  /** Runs every statement of `>` unit `unit` in `scope`. */
  run(unit: number, scope: HostScope): void {
    const u = this.unitAt(unit);
    if (!u) throw new SimError(`internal: no tensor statement #${unit}`);
    const p = u.parsed.problems.find((x) => x.severity === 'error');
    if (p)
      throw new SimError(
        `cannot run a statement with a syntax error: ${p.message}`,
        this.locOf(u.stmts[0] ?? ({ unit: u } as StmtInfo), p.span.start),
        scope.stack(),
        'compile',
      );
    for (const info of u.stmts) {
      try {
        this.hostBoundary();
        this.exec(info, scope);
      } catch (e) {
        if (e instanceof SimError) {
          // a fault of one side is reported at that term, any other at the statement
          // (a destination term starts where its statement does)
          const term = e.side === 'src' ? info.stmt.src : info.stmt;
          if (!e.loc) e.loc = this.locOf(info, term!.span.start);
          if (!e.stack_.length) e.stack_ = scope.stack();
        }
        throw e;
      }
    }
  }

  private unitAt(i: number): Unit | undefined {
    if (i < this.o.a.units.length) return this.o.a.units[i];
    // Stryker disable next-line ArrayDeclaration: a list of anything without a base matches no unit number, as the empty list
    for (const p of this.o.included ?? []) if (i >= p.base && i < p.base + p.a.units.length) return p.a.units[i - p.base];
    return undefined;
  }

  /** The analysis a unit belongs to (the program's, or an included tensor program's). */
  private analysisOf(u: Unit): TprogAnalysis {
    return this.includedOf?.get(u) ?? this.o.a;
  }

  private readonly includedOf?: Map<Unit, TprogAnalysis>;

  locOf(info: StmtInfo, bufOffset: number): SourceLoc {
    const a = this.analysisOf(info.unit);
    const p = a.lines.position(a.docSpan(info.unit, { start: bufOffset, end: bufOffset }).start);
    return { file: a.file, line: p.line + 1, column: p.character + 1 };
  }

  /** MEM pages written by host C code since the last step, committed before the next step runs. */
  private hostChanged?: Record<string, number[]>;

  /**
   * Ends the host interval before the next step: MEM pages host code wrote since the previous step are
   * kept in the history under the key `step − 0.5` and reported with the next step (`hostChanged`).
   */
  private hostBoundary(): void {
    const h = this.o.history('MEM');
    if (!h?.dirty) return;
    const pages = h.commitHost(this.step);
    if (!pages.length) return;
    const prev = this.hostChanged?.MEM;
    this.hostChanged = { MEM: prev ? [...new Set([...prev, ...pages])].sort((a, b) => a - b) : pages };
  }

  private record(info: StmtInfo, scope: HostScope, kind: string, st: Partial<TransferStats> & { kernel?: string; laneOps?: number }): void {
    const loc = this.locOf(info, info.stmt.span.start);
    const text = info.unit.buf.text.slice(info.stmt.span.start, info.stmt.span.end);
    this.emit(loc, info.unit.buf.lastLine + 1, text, scope.process, kind, st);
  }

  /** Commits the step's memory history and reports the step. */
  private emit(
    loc: SourceLoc,
    endLine: number,
    text: string,
    process: 0 | 1,
    kind: string,
    st: Partial<TransferStats> & { kernel?: string; laneOps?: number; register?: TraceStep['register'] },
  ): void {
    const changed: Record<string, number[]> = {};
    for (const name of SPACE_NAMES) {
      const h = this.o.history(name);
      if (!h) continue;
      const pages = h.commit(this.step);
      if (pages.length) changed[name] = pages;
    }
    const s: TraceStep = {
      step: this.step++,
      kind,
      file: loc.file,
      line: loc.line,
      column: loc.column,
      endLine,
      text,
      process,
      elements: st.elements ?? 0,
      padded: st.padded ?? 0,
      skipped: st.skipped ?? 0,
      read: st.read,
      written: st.written,
      kernel: st.kernel,
      laneOps: st.laneOps,
      changed,
    };
    if (this.hostChanged) {
      s.hostChanged = this.hostChanged;
      this.hostChanged = undefined;
    }
    if (st.register) s.register = st.register;
    if (st.written && (st.written.space === 'MEM' || st.written.space === 'SCRATCH')) this.bytesMoved += st.written.count;
    else if (st.written) this.bytesMoved += st.written.count * 2;
    this.o.onStep(s);
  }

  private exec(info: StmtInfo, scope: HostScope): void {
    const s = info.stmt;
    const ev = (t: string) => scope.eval(t);
    if (--this.o.budget.steps < 0) throw new SimError('step budget exhausted (raise the step budget setting)', undefined, [], 'budget');
    if (this.o.budget.cancelled) throw new SimError('run cancelled', undefined, [], 'cancelled');
    switch (s.kind) {
      case 'nop':
      case 'vardecl':
      case 'export':
        return;
      case 'barrier':
      case 'log_on':
      case 'log_off':
        this.record(info, scope, s.kind, {});
        return;
      case 'print': {
        const [x, y] = s.args!.map((a) => ev(a.text));
        this.o.m.globals[0] = x | 0;
        this.o.m.globals[1] = y | 0;
        this.o.print(`PRINT ${x} ${y}\n`);
        this.record(info, scope, 'print', {});
        return;
      }
      case 'callback': {
        const [f, p] = s.args!.map((a) => ev(a.text));
        this.postCallback(f, p);
        this.record(info, scope, 'callback', {});
        return;
      }
      case 'exe':
        this.exe(info, scope);
        return;
      case 'vardef':
        this.define(info, scope, ev);
        return;
      case 'transfer':
        this.transfer(info, scope, ev);
        return;
    }
  }

  private dtypeOf(term: Term, ev: (t: string) => number): DataType {
    const p = term.prefixes.find((x) => x.kind === 'DTYPE' || x.kind === 'CAST');
    if (term.kind === 'const') return canonicalType(term.constType) ?? 'INT16';
    if (!p?.arg) return 'INT16';
    const t = canonicalType(p.arg.text);
    if (t) return t;
    const code = ev(p.arg.text);
    const r = TYPE_CODES[code];
    if (!r) throw new SimError(`DTYPE(${p.arg.text}) is ${code}, not a data type code (INT16=3, INT8=2, UINT8=4)`);
    return r;
  }

  /** The PCORE variable of a PCORE term (a member written on another space is the checker's error, tprog.member-space). */
  private memberOf(term: Term): MemberInfo | undefined {
    if (!term.member || term.space !== 'PCORE') return undefined;
    if (!this.o.pcore)
      throw new SimError(`no PCORE program: ${term.member.name.text} cannot be resolved (put the .p beside the .m or pass --pcore)`, undefined, [], 'compile');
    const r = this.o.pcore.lookupMember(term.member.name.text);
    if (!r.ok) throw new SimError(`${term.member.name.text}: ${r.message}`, undefined, [], 'compile');
    const m = r.member;
    if (m.storage !== 'private' && m.storage !== 'shared') throw new SimError(`${m.fullName} is not PCORE memory (${m.storage})`, undefined, [], 'compile');
    if (m.offset === undefined) throw new SimError(`${m.fullName} has no PCORE memory offset`, undefined, [], 'compile');
    return m;
  }

  private side(term: Term, desc: Descriptor, dtype: DataType, ev: (t: string) => number): Side {
    const remapP = term.prefixes.find((p) => p.kind === 'REMAP');
    const remapV = remapP ? ev(remapP.arg!.text) : undefined;
    let space: Side['space'];
    if (term.kind === 'const') space = 'CONST';
    else if (desc.space === 'MEM' || desc.space === 'SCRATCH' || desc.space === 'PCORE' || desc.space === 'SPU' || desc.space === 'PROG') space = desc.space;
    else throw new SimError(`not simulated: memory space ${term.space ?? term.kind}`, undefined, [], 'not-simulated');
    const side: Side = { desc, space, dtype, shared: desc.shared, remap: remapV, constValue: desc.constValue };
    if (space === 'MEM' || space === 'SCRATCH') {
      // a run-time DTYPE(t): describe knew neither the element size nor the INT16 alignment of the address
      desc.elemBytes = dtype === 'INT16' ? 2 : 1;
      if (dtype === 'INT16') desc.base &&= desc.base & ~1;
    }
    // the broadcast of a PCORE destination (a transfer reads it of its destination only)
    if (space === 'PCORE') side.mcast = this.mcast(term, desc);
    return side;
  }

  /** Word offsets a broadcast (`[*]`) PCORE destination element is also written to (research §6.4.5). */
  private mcast(term: Term, desc: Descriptor): number[] {
    const shape = desc.pcoreShape ?? [LIMITS.numPcore];
    const wild = term.indices.slice(0, shape.length).map((i) => i.kind === 'wildcard');
    const P = LIMITS.numPcore;
    const all = [...Array(P).keys()].map((p) => p * 4096);
    if (!wild.some(Boolean)) return [0];
    if (shape.length === 1 || (wild[0] && wild[1])) return all; // every PCORE, even if n < NUM_PCORE
    const c = shape[1];
    if (wild[0]) return [...Array(Math.max(1, Math.floor(P / c))).keys()].map((r) => r * c * 4096); // [*][j]: p & (c-1) == j
    return [...Array(c).keys()].map((q) => q * 4096); // [i][*]: PCOREs i*c .. i*c+c-1
  }

  private resolve(term: Term, ev: (t: string) => number): { side: Side; pad: number; repeat: boolean } {
    if (term.kind === 'var') {
      const slot = this.slots[this.currentProcess].get(term.name!.text);
      if (!slot) throw new SimError(`tensor variable ${term.name!.text} has not been defined in process ${this.currentProcess}`);
      let desc = slot.desc;
      if (term.varIndex) {
        if (slot.placeholder >= 0) {
          desc = { ...desc, levels: desc.levels.map((l) => ({ ...l })) };
          const lvl = desc.levels[slot.placeholder];
          const body = term.varIndex.body.text;
          const parts = body.split(':');
          const b = ev(parts[0]);
          const e = parts.length > 1 ? ev(parts[parts.length - 1]) : b;
          const st = parts.length > 2 ? ev(parts[1]) : 1;
          lvl.begin = b;
          lvl.step = st;
          lvl.count = Math.floor((e - b) / st) + 1;
          lvl.checkHigh = false;
          desc.total = desc.levels.reduce((x, l) => x * (l.count ?? NaN), 1);
        } else {
          // no placeholder: the definition is re-evaluated here and the index ignored
          const t = slot.info.src!.term;
          desc = describe(t, { ev, member: slot.member });
        }
      } else if (slot.placeholder >= 0) throw new SimError(`${term.name!.text} has a [$] placeholder: give its index`);
      return { side: { ...slot.side, desc }, pad: slot.pad, repeat: slot.repeat };
    }
    const member = this.memberOf(term);
    const desc = describe(term, { ev, member });
    const dtype = this.dtypeOf(term, ev);
    const side = this.side(term, desc, dtype, ev);
    const pad = desc.pad ?? 0;
    return { side, pad, repeat: desc.repeat };
  }

  private currentProcess: 0 | 1 = 0;

  private define(info: StmtInfo, scope: HostScope, ev: (t: string) => number): void {
    this.currentProcess = scope.process;
    const term = info.stmt.src!;
    const member = this.memberOf(term);
    // C text starting with `$` (the placeholder) is given at each use, not now (the parser's texts are trimmed)
    const desc = describe(term, { ev: (t) => (t.startsWith('$') ? NaN : ev(t)), member });
    const placeholder = desc.levels.findIndex((l) => l.index?.kind === 'placeholder');
    const dtype = this.dtypeOf(term, ev);
    const side = this.side(term, desc, dtype, ev);
    const { desc: _desc, ...rest } = side;
    const name = info.stmt.names![0].text;
    const slots = this.slots[scope.process];
    if (!slots.has(name) && slots.size >= LIMITS.maxTensorVars)
      throw new SimError(`more than ${LIMITS.maxTensorVars} tensor variables in process ${scope.process}`);
    slots.set(name, { info, desc, placeholder, member, side: rest, pad: desc.pad ?? 0, repeat: desc.repeat });
    this.statementRuns.note(info, 'define', this.step, scope.process, undefined, side, {});
    this.record(info, scope, 'define', {});
  }

  private transfer(info: StmtInfo, scope: HostScope, ev: (t: string) => number): void {
    this.currentProcess = scope.process;
    const s = info.stmt;
    const dstT = s.dst!;
    const srcT = s.src!;
    if (dstT.kind === 'global') {
      if (!this.o.pcore) throw new SimError('no PCORE program for a _global assignment', undefined, [], 'compile');
      const r = this.o.pcore.lookupMember(dstT.name!.text);
      if (!r.ok || !r.member.global) throw new SimError(`${dstT.name!.text} is not a _global int kernel parameter`, undefined, [], 'compile');
      const v = ev(srcT.constValue!.text);
      this.o.m.globals[r.member.globalSlot ?? 0] = srcT.constType === 'INT8' ? (v << 24) >> 24 : (v << 16) >> 16;
      this.record(info, scope, 'global', { elements: 1 });
      return;
    }
    const d = this.resolve(dstT, ev);
    const src = this.resolve(srcT, ev);
    if (s.proc && s.proc.arg) {
      const n = ev(s.proc.arg.text);
      if (d.side.space === 'PCORE') d.side.remap = n;
      else src.side.remap = n;
    }
    if (d.side.space === 'PROG') {
      this.o.m.progEntries = d.side.desc.total ?? 0;
      this.record(info, scope, 'prog', { elements: d.side.desc.total });
      return;
    }
    // one budget step per element, charged before the transfer runs: big transfers in a loop stop at the budget too
    const cost = d.side.desc.total ?? 0;
    if ((this.o.budget.steps -= cost) < 0) {
      this.o.budget.steps = 0;
      throw new SimError(
        `step budget exhausted (raise the step budget setting): this transfer moves ${cost} elements, each counts as a step`,
        undefined,
        [],
        'budget',
      );
    }
    const ctx: EngineContext = { m: this.o.m, process: scope.process, history: this.o.history };
    const hook = this.stepHook;
    const stats = hook?.enter(scope.process) ? this.stepped(hook, info, ctx, d.side, src) : runTransfer(ctx, d.side, src.side, src.pad, src.repeat);
    const conc = [...dstT.prefixes, ...srcT.prefixes].some((p) => p.kind === 'CONCURRENT' || p.kind === 'SCATTER');
    if (conc) this.clobberScratch(d.side.space === 'PCORE' ? d.side : src.side, scope.process);
    if (this.o.warn && (stats.padded || stats.skipped)) this.warnUnchecked(info, d.side.desc, src.side.desc);
    this.statementRuns.note(info, 'transfer', this.step, scope.process, d.side, src.side, stats);
    this.record(info, scope, 'transfer', stats);
  }

  /** A transfer that clipped an index the hardware does not check: a run warning at that term. */
  private warnUnchecked(info: StmtInfo, dst: Descriptor, src: Descriptor): void {
    const d = uncheckedClip(dst, 'dst');
    if (d) this.o.warn!(d, this.locOf(info, info.stmt.dst!.span.start));
    const s = info.stmt.src && uncheckedClip(src, 'src');
    if (s) this.o.warn!(s, this.locOf(info, info.stmt.src!.span.start));
  }

  /** A transfer moved batch by batch, the hook deciding (and pausing) before each batch. */
  private stepped(hook: TransferStepHook, info: StmtInfo, ctx: EngineContext, dst: Side, src: { side: Side; pad: number; repeat: boolean }): TransferStats {
    const t = new SteppedTransfer(ctx, dst, src.side, src.pad, src.repeat);
    const at = { loc: this.locOf(info, info.stmt.span.start), text: info.unit.buf.text.slice(info.stmt.span.start, info.stmt.span.end), process: ctx.process };
    // while the debugger pauses between batches, the statement's record shows this execution in progress
    this.statementRuns.started({ info, step: this.step, process: ctx.process, dst, src: src.side, progress: t });
    try {
      while (!t.finished) t.run(Math.max(1, hook.between(t, at)));
    } finally {
      this.statementRuns.started(undefined);
    }
    return t.stats;
  }

  /** CONCURRENT passes the data through SCRATCH from address 0 (research §6.4.4): those bytes are overwritten. */
  private clobberScratch(pc: Side, process: 0 | 1): void {
    const w = new Walker(pc.desc, 'CONCURRENT');
    const el = pc.dtype === 'INT16' ? 2 : 1;
    // Stryker disable next-line ArithmeticOperator: the cap only saves work (typed arrays drop writes past their end, the history clamps its range)
    const n = Math.min(w.total, Math.floor(this.o.m.scratch.length / el));
    const locs = new Int32Array(n);
    w.fill(0, n, locs);
    const words = pc.shared ? this.o.m.pages[process].shared : this.o.m.pages[process].priv;
    this.o.history('SCRATCH')?.touch(0, n * el - 1);
    const sc = this.o.m.scratch;
    for (let i = 0; i < n; i++) {
      // a word outside the page (an index the hardware does not check) passes as 0
      const v = fromWord(words[locs[i]] ?? 0, pc.dtype);
      sc[i * el] = v & 0xff;
      if (el === 2) sc[i * el + 1] = (v >> 8) & 0xff;
    }
  }

  private exe(info: StmtInfo, scope: HostScope): void {
    const args = info.stmt.args!;
    let kernel: string | undefined;
    let np: number;
    let nt = LIMITS.numThread;
    const k = args[0].text;
    if (args.length === 1) {
      const w = scope.eval(k);
      const dec = decodeExeWord(w);
      kernel = this.o.kernelByAddress(dec.func);
      np = dec.np;
      nt = dec.nt;
      if (!kernel) throw new SimError(`EXE_LOCKSTEP(${k}): command word 0x${(w >>> 0).toString(16)} does not name a kernel of the PCORE program`);
    } else {
      // a kernel's name (the lookup finds only `class::name`), else C text whose value is a kernel's code address
      if (this.o.pcore?.kernel(k)) kernel = k;
      else {
        const addr = scope.eval(k);
        kernel = this.o.kernelByAddress(addr >> 4);
        if (!kernel) throw new SimError(`EXE_LOCKSTEP: ${k} = ${addr} is not the address of a kernel of the PCORE program`);
      }
      np = scope.eval(args[1].text);
      if (args[2]) nt = scope.eval(args[2].text);
    }
    const laneOps = this.launch(kernel, np, nt, scope.process, this.locOf(info, info.stmt.span.start));
    this.record(info, scope, 'exe', { kernel, laneOps, elements: np * nt });
  }

  /** Runs kernel `kernel` on PCOREs < np, threads < nt of the process page; returns lane operations. */
  private launch(kernel: string, np: number, nt: number, process: 0 | 1, at: SourceLoc): number {
    if (np < 1 || np > LIMITS.numPcore) throw new SimError(`EXE_LOCKSTEP: PCORE count ${np} is outside 1..${LIMITS.numPcore}`);
    if (nt < 1 || nt > LIMITS.numThread) throw new SimError(`EXE_LOCKSTEP: thread count ${nt} is outside 1..${LIMITS.numThread}`);
    if (!this.o.runner) throw new SimError(`not simulated: EXE_LOCKSTEP(${kernel}) — no PCORE program is loaded`, undefined, [], 'not-simulated');
    const page = this.o.m.pages[process];
    const hp = this.o.history(`PCORE${process}`);
    const hs = this.o.history(`PCORE${process}S`);
    // Stryker disable next-line ArithmeticOperator: a history clamps the range it is given to its buffer
    hp?.touch(0, page.priv.length - 1);
    // Stryker disable next-line ArithmeticOperator: as above
    hs?.touch(0, page.shared.length - 1);
    const laneOps = this.o.runner.launch({ kernel, process, numPcore: np, numThread: nt, globals: this.o.m.globals, page, budget: this.o.budget, at });
    this.laneOps += laneOps;
    return laneOps;
  }

  // ---------------------------------------------------------------- host hooks: yields and registers

  /** The services a host interpreter gives this executor besides `tensor`: process switches, the register window, the runtime library's machine side. */
  hostHooks(): Pick<HostServices, 'mmio' | 'onYield' | 'zta'> {
    return { mmio: this.registers, onYield: (at, scope) => this.yieldAt(at, scope), zta: this.zta };
  }

  /** Indications posted by CALLBACK (the `ztaJobDone` job ids), oldest first, until ztaReadResponse reads them. */
  private readonly responses: number[] = [];

  readonly zta: ZtaMachinePort = {
    loadStreams: (addr, words, at, scope) => this.loadStreams(addr, words, at, scope),
    callback: (f, p, at, scope) => {
      this.hostBoundary();
      this.postCallback(f, p);
      this.emit(at, at.line, `CALLBACK(${f},${p})`, scope.process, 'callback', {});
    },
    readResponse: () => this.responses.shift(),
  };

  private postCallback(f: number, p: number): void {
    this.o.m.globals[0] = f | 0;
    this.o.m.globals[1] = p | 0;
    this.responses.push(p >>> 0);
    this.o.onCallback(f, p);
  }

  /** `SPU <= DTYPE(INT16)MEM(addr)[0:words-1]` as ztaInitStream issues it: INT16 elements resized to 12-bit table words. */
  private loadStreams(addr: number, words: number, at: SourceLoc, scope: HostScope): void {
    const m = this.o.m;
    const a = addr >>> 0;
    if (!(words >= 0 && words <= m.spu.length))
      throw new SimError(
        `ztaInitStream: ${words} table words do not fit the stream processor (${m.spu.length} words: ${LIMITS.spuTables} tables of 128 entries)`,
        at,
        scope.stack(),
        'fault',
      );
    if (a + 2 * words > m.mem.length)
      throw new SimError(`ztaInitStream: stream tables at ${faultAddress(a)} (${2 * words} bytes) are outside MEM`, at, scope.stack(), 'fault');
    this.hostBoundary();
    // Stryker disable next-line ArithmeticOperator: the SPU's 1024 words are one history page, and a history clamps its range to the buffer
    this.o.history('SPU')?.touch(0, words - 1);
    for (let i = 0; i < words; i++) m.spu[i] = toWord(m.mem[a + 2 * i] | (m.mem[a + 2 * i + 1] << 8), 'INT16');
    this.bytesMoved += 2 * words;
    this.emit(at, at.line, `SPU <= DTYPE(INT16)MEM(${byteAddress(a)})[0:${words - 1}]`, scope.process, 'transfer', { elements: words });
  }

  /** A hart reached `ztaTaskYield()` inside ztaDualHartExecute: a `yield` step at the call. */
  yieldAt(at: SourceLoc, scope: HostScope): void {
    this.hostBoundary();
    this.emit(at, at.line, 'ztaTaskYield()', scope.process, YIELD_KIND, {});
  }

  /**
   * Memory-mapped ztachip registers as host C code reaches them with `ZTAM_GREG(r2,r,vm)` (research
   * §10.1: a 32-bit store to 0x80000000 + 4·((r2 << 5) + r)). What the research defines is simulated:
   * `_global` parameters (PARM0/1, r = 23/24), REG_DP_RUN (r = 5) commands EXE, CALLBACK, PRINT,
   * BARRIER, LOG_ON/LOG_OFF; descriptor template fields (r = 8) and `$v` restores (r = 13) are recorded.
   * A transfer command (its descriptor programmed field by field), other registers and every register
   * read stop the run with "not simulated".
   */
  readonly registers: MmioPort = {
    base: REG_BASE,
    size: REG_BYTES,
    store: (addr, bytes, value, at, scope) => this.registerStore(addr, bytes, value, at, scope),
    load: (addr, _bytes, at) => {
      const { r2, r } = regOf(addr);
      throw new SimError(`not simulated: read of ztachip register ZTAM_GREG(${r2},${r},·) (address 0x${addr.toString(16)})`, at, [], 'not-simulated');
    },
  };

  private registerStore(addr: number, bytes: number, value: number, at: SourceLoc, scope: HostScope): void {
    const { r2, r } = regOf(addr);
    const name = `ZTAM_GREG(${r2},${r},·)`;
    if (bytes !== 4 || (addr & 3) !== 0)
      throw new SimError(
        `not simulated: ${bytes}-byte store at 0x${addr.toString(16)} in the ztachip register window (registers take aligned 32-bit stores)`,
        at,
        [],
        'not-simulated',
      );
    const v = value >>> 0;
    const m = this.o.m;
    m.regs[(r2 << 5) + r] = v;
    m.regStores++;
    const register = { r2, r, value: v };
    const text = `${name} = 0x${v.toString(16)}`;
    if (r === REG_DP_TEMPLATE || r === REG_DP_RESTORE) return; // recorded: a transfer command would use them
    if (r2 === 0 && (r === REG_PARM0 || r === REG_PARM0 + 1)) {
      m.globals[r - REG_PARM0] = v | 0;
      this.beginRegisterStep();
      this.emit(at, at.line, text, scope.process, 'global', { elements: 1, register });
      return;
    }
    if (r2 !== 0 || r !== REG_DP_RUN)
      throw new SimError(
        `not simulated: store to ztachip register ${name} (address 0x${addr.toString(16)}, value 0x${v.toString(16)})`,
        at,
        [],
        'not-simulated',
      );
    this.beginRegisterStep();
    const op = v & 7;
    if (op === 4) {
      const dec = decodeExeWord(v);
      const kernel = this.o.kernelByAddress(dec.func);
      if (!kernel)
        throw new SimError(
          `REG_DP_RUN: command word 0x${v.toString(16)} runs kernel address ${dec.func}, which is not a kernel of the PCORE program`,
          at,
          [],
          'fault',
        );
      const laneOps = this.launch(kernel, dec.np, dec.nt, scope.process, at);
      this.emit(at, at.line, text, scope.process, 'exe', { kernel, laneOps, elements: dec.np * dec.nt, register });
      return;
    }
    const [g0, g1] = m.globals;
    if (v === CMD_CALLBACK) {
      this.postCallback(g0, g1);
      this.emit(at, at.line, text, scope.process, 'callback', { register });
      return;
    }
    if (v === CMD_PRINT) {
      this.o.print(`PRINT ${g0} ${g1}\n`);
      this.emit(at, at.line, text, scope.process, 'print', { register });
      return;
    }
    const sync = { [CMD_BARRIER]: 'barrier', [CMD_LOG_ON]: 'log_on', [CMD_LOG_OFF]: 'log_off' }[v];
    if (sync) {
      this.emit(at, at.line, text, scope.process, sync, { register });
      return;
    }
    if (op === 1)
      throw new SimError(
        `not simulated: a tensor transfer started by a raw REG_DP_RUN store (${text}); its descriptor is programmed register by register — write the ` +
          `transfer as a \`>\` statement`,
        at,
        [],
        'not-simulated',
      );
    throw new SimError(`not simulated: REG_DP_RUN command 0x${v.toString(16)} (${text})`, at, [], 'not-simulated');
  }

  /** A register store that acts like a statement: budget, cancellation and the host interval before it. */
  private beginRegisterStep(): void {
    if (--this.o.budget.steps < 0) throw new SimError('step budget exhausted (raise the step budget setting)', undefined, [], 'budget');
    if (this.o.budget.cancelled) throw new SimError('run cancelled', undefined, [], 'cancelled');
    this.hostBoundary();
  }
}

/** The register window of `ZTAM_GREG(r2,r,vm)` (research §10.1): 32-bit registers at 0x80000000 + 4·((r2 << 5) + r). */
export const REG_BASE = 0x80000000;
export const REG_BYTES = 4 * 32 * 32;
export const REG_DP_RUN = 5;
export const REG_DP_TEMPLATE = 8;
export const REG_DP_RESTORE = 13;
export const REG_PARM0 = 23;
/** REG_DP_RUN command words without operands (research §10.1). */
export const CMD_BARRIER = 0 + (11 << 3);
export const CMD_LOG_ON = 2 + (11 << 3);
export const CMD_LOG_OFF = 3 + (11 << 3);
export const CMD_CALLBACK = 6 + (11 << 3);
export const CMD_PRINT = 7;

function regOf(addr: number): { r2: number; r: number } {
  // REG_BASE is a multiple of 4096: the register index is bits 2..11 of the address
  const i = (addr >>> 2) & 1023;
  return { r2: i >> 5, r: i & 31 };
}

/** DP_EXE_CMD word (research §10.1): 4 + func<<7 + (np-1)<<18 + lockstep<<23 + p0<<24 + p1<<25 + (nt-1)<<26. */
export function encodeExeWord(func: number, np: number, nt: number): number {
  return (4 + ((func & 0x7ff) << 7) + ((np - 1) << 18) + (1 << 23) + ((nt - 1) << 26)) | 0;
}

export function decodeExeWord(w: number): { func: number; np: number; nt: number } {
  return { func: (w >>> 7) & 0x7ff, np: ((w >>> 18) & 31) + 1, nt: ((w >>> 26) & 15) + 1 };
}
