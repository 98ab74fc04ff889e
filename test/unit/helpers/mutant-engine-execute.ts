/**
 * A TensorExecutor on a fresh machine for the mutant-engine-execute tests, with every option it reports through
 * recorded: trace steps, PRINT output, CALLBACK events, run warnings and kernel launches.
 */
import { evaluate } from '../../../core/cexpr/evaluate';
import { SpaceHistory } from '../../../core/sim/history';
import { Machine } from '../../../core/sim/machine';
import { TensorExecutor, type ExecOptions } from '../../../core/sim/engine/execute';
import type { TraceStep } from '../../../core/protocol/trace';
import type { TprogAnalysis } from '../../../core/tprog/analyze';
import type { HostScope, KernelLaunch, SourceLoc } from '../../../core/sim/types';

export interface Harness {
  m: Machine;
  ex: TensorExecutor;
  steps: TraceStep[];
  printed: string[];
  callbacks: [number, number][];
  warnings: [string, SourceLoc][];
  /** Kernel launches (without the machine page, globals and budget they carry). */
  launches: Omit<KernelLaunch, 'page' | 'globals' | 'budget'>[];
  histories: Map<string, SpaceHistory>;
  budget: { steps: number; cancelled: boolean };
  /** A scope of process `process` evaluating C text with `vars` (then the program's own #defines). */
  scope(vars?: Record<string, number>, process?: 0 | 1): HostScope;
}

export interface HarnessOptions extends Partial<Pick<ExecOptions, 'included' | 'kernelByAddress' | 'pcore'>> {
  steps?: number;
  /** A PCORE runner that records its launches (and returns this many lane operations), or none. */
  laneOps?: number;
  /** What the PCORE runner does to the machine on each launch (a kernel's writes). */
  onLaunch?: (l: KernelLaunch) => void;
  warn?: boolean;
  /** false: a run that keeps no memory history (every history lookup answers undefined). */
  histories?: false;
}

export function harness(a: TprogAnalysis, o: HarnessOptions = {}): Harness {
  const m = new Machine({ memBytes: 1 << 16 });
  const buffers: Record<string, Uint8Array | Int16Array> = {
    MEM: m.mem,
    SCRATCH: m.scratch,
    PCORE0: m.pages[0].priv,
    PCORE0S: m.pages[0].shared,
    PCORE1: m.pages[1].priv,
    PCORE1S: m.pages[1].shared,
    SPU: m.spu,
  };
  const histories = new Map(Object.entries(buffers).map(([name, buf]) => [name, new SpaceHistory(name, buf)]));
  const h: Omit<Harness, 'ex' | 'scope'> = {
    m,
    steps: [],
    printed: [],
    callbacks: [],
    warnings: [],
    launches: [],
    histories,
    budget: { steps: o.steps ?? 1e6, cancelled: false },
  };
  const ex = new TensorExecutor({
    a,
    included: o.included,
    m,
    pcore: 'pcore' in o ? o.pcore : a.pcore,
    runner:
      o.laneOps === undefined
        ? undefined
        : {
            launch: (l) => {
              h.launches.push({ kernel: l.kernel, process: l.process, numPcore: l.numPcore, numThread: l.numThread, at: l.at });
              o.onLaunch?.(l);
              return o.laneOps!;
            },
          },
    budget: h.budget,
    history: (s) => (o.histories === false ? undefined : histories.get(s)),
    onStep: (s) => h.steps.push(s),
    onCallback: (f, p) => h.callbacks.push([f, p]),
    print: (s) => h.printed.push(s),
    warn: o.warn ? (msg, at) => h.warnings.push([msg, at]) : undefined,
    kernelByAddress: o.kernelByAddress ?? (() => undefined),
  });
  const scope = (vars: Record<string, number> = {}, process: 0 | 1 = 0): HostScope => ({
    process,
    stack: () => ['f (/t/x.m:1:1)'],
    eval: (t) => {
      const v = evaluate(t, (n) => (n in vars ? vars[n] : a.units[0]?.stmts[0]?.resolve(n)));
      if (v === undefined) throw new Error(`test scope cannot evaluate ${t}`);
      return v;
    },
  });
  return { ...h, ex, scope };
}

/** Runs every `>` unit of the program in order in one scope. */
export function runAll(h: Harness, a: TprogAnalysis, vars: Record<string, number> = {}, process: 0 | 1 = 0): void {
  a.units.forEach((_, i) => h.ex.run(i, h.scope(vars, process)));
}

/** `x` without its undefined fields (trace steps as they cross the protocol), for deepEqual against written-out steps. */
export function plain<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}

/** A trace step of /t/x.m that moves nothing, as the executor reports a statement or hook without elements; `more` overrides. */
export function bare(step: number, kind: string, line: number, column: number, text: string, more: Partial<TraceStep> = {}): TraceStep {
  return { step, kind, file: '/t/x.m', line, column, endLine: line, text, process: 0, elements: 0, padded: 0, skipped: 0, changed: {}, ...more };
}
