/**
 * Runs fuzz properties and explicit inputs (fuzz-harness.ts) in worker threads under a watchdog. A
 * worker that reports no progress for `hangMs` is terminated: the task in progress is reported as a
 * hang with its last input and the call in progress, and the remaining tasks continue in a fresh
 * worker. Used by test/unit/fuzz.test.ts (bounded, `assert` mode: fast-check shrinks a failure) and
 * by scripts/fuzz.mjs (`campaign` mode: every failing input is collected; a hang restarts the job).
 */
import { Worker } from 'node:worker_threads';
import type { MutationLimits, Violation } from './fuzz-harness';

export type FuzzKind = 'tprog' | 'tprog-bytes' | 'tprog-soup' | 'pcore' | 'tlayout' | 'csfbin' | 'cli';

/** The checks an explicit input can go through (every kind maps to one). */
export type CaseKind = 'tprog' | 'pcore' | 'tlayout' | 'csfbin' | 'cli';

export const caseKindOf = (k: FuzzKind): CaseKind => (k === 'tprog-bytes' || k === 'tprog-soup' ? 'tprog' : k);

export interface FuzzJob {
  kind: FuzzKind;
  mode: 'assert' | 'campaign';
  numRuns: number;
  seed: number;
  /** fast-check stops (without failing) after this much time. */
  timeLimitMs?: number;
  /** Per-call time bound of the checks. */
  limitMs: number;
  maxMutations?: number;
  maxBytes?: number;
  limits?: MutationLimits;
}

export interface FuzzInput {
  path: string;
  text: string;
  pcoreText?: string;
}

/** One explicit input checked by checkTprog/checkPcore/checkLayout/checkCsf (edge cases, hang re-runs). */
export interface CaseTask {
  type: 'case';
  kind: CaseKind;
  input: FuzzInput & Record<string, unknown>;
  limitMs: number;
}

export type Task = { type: 'fuzz'; job: FuzzJob } | CaseTask;

export interface CallStats {
  n: number;
  max: number;
  total: number;
}

export interface FuzzDone {
  tried: number;
  runs: number;
  seed: number;
  path?: string;
  interrupted: boolean;
  counterexample?: { input: FuzzInput; violations: Violation[] };
  error?: string;
  stats: Record<string, CallStats>;
}

export type WorkerMessage =
  | { type: 'task-start'; index: number }
  | { type: 'input'; index: number; input: FuzzInput; tried: number }
  | { type: 'call'; index: number; where: string }
  | { type: 'failure'; index: number; input: FuzzInput; violations: Violation[] }
  | { type: 'task-done'; index: number; fuzz?: FuzzDone; violations?: Violation[] };

export interface TaskOutcome {
  fuzz?: FuzzDone;
  violations?: Violation[];
  /** Set when the worker hung or died during this task. */
  hang?: { input?: FuzzInput; call?: string; problem: string };
  /** Campaign-mode failures reported while the task ran. */
  failures: { input: FuzzInput; violations: Violation[] }[];
  /** Inputs the task reported (fuzz tasks). */
  tried: number;
}

const WORKER = `${__dirname}/fuzz-worker.ts`;

function startWorker(tasks: Task[]): Worker {
  // worker threads do not inherit the tsx loader of `node --import tsx`: register it inside
  const code = `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register(); require(${JSON.stringify(WORKER)});`;
  return new Worker(code, { eval: true, workerData: { tasks }, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
}

/**
 * Runs `tasks` in order in one worker (a fresh one after a hang); one promise per task.
 * `onMessage` sees every worker message (progress, campaign failures).
 */
export function runTasks(tasks: Task[], opts: { hangMs: number; onMessage?: (m: WorkerMessage, task: number) => void }): Promise<TaskOutcome>[] {
  const resolvers: ((o: TaskOutcome) => void)[] = [];
  const results = tasks.map(() => new Promise<TaskOutcome>((r) => resolvers.push(r)));
  const outcomes: TaskOutcome[] = tasks.map(() => ({ failures: [], tried: 0 }));
  const startAt = (first: number) => {
    if (first >= tasks.length) return;
    const w = startWorker(tasks.slice(first));
    let current = first;
    let lastInput: FuzzInput | undefined;
    let call: string | undefined;
    let finished = false;
    const fail = (problem: string) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      void w.terminate();
      outcomes[current].hang = { input: lastInput, call, problem };
      resolvers[current](outcomes[current]);
      startAt(current + 1);
    };
    let timer = setTimeout(() => fail(`worker start-up took more than ${opts.hangMs + 20_000} ms`), opts.hangMs + 20_000);
    w.on('message', (m: WorkerMessage) => {
      clearTimeout(timer);
      timer = setTimeout(() => fail(`no progress for ${opts.hangMs} ms: hang (infinite loop or extreme slowness)`), opts.hangMs);
      const index = first + m.index;
      opts.onMessage?.(m, index);
      const o = outcomes[index];
      switch (m.type) {
        case 'task-start':
          current = index;
          lastInput = undefined;
          call = undefined;
          break;
        case 'input':
          lastInput = m.input;
          o.tried = m.tried;
          break;
        case 'call':
          call = m.where;
          break;
        case 'failure':
          o.failures.push({ input: m.input, violations: m.violations });
          break;
        case 'task-done':
          o.fuzz = m.fuzz;
          o.violations = m.violations;
          resolvers[index](o);
          if (index === tasks.length - 1) {
            finished = true;
            clearTimeout(timer);
            void w.terminate();
          }
          break;
      }
    });
    w.on('error', (e) => fail(`worker failed: ${e?.stack ?? e}`));
    w.on('exit', (code) => fail(`worker exited with code ${code}`));
  };
  startAt(0);
  return results;
}

export interface FuzzFailure {
  kind: FuzzKind;
  seed: number;
  input: FuzzInput;
  violations: Violation[];
}

export interface FuzzReport {
  kind: FuzzKind;
  /** Inputs checked (in assert mode including shrinking attempts). */
  tried: number;
  failures: FuzzFailure[];
  hangs: FuzzFailure[];
  /** Set in assert mode when fast-check found a (shrunk) counterexample. */
  counterexample?: FuzzFailure & { path?: string };
  error?: string;
  seeds: number[];
  stats: Record<string, CallStats>;
  ms: number;
}

export function toReport(job: FuzzJob, o: TaskOutcome, ms: number): FuzzReport {
  const r: FuzzReport = { kind: job.kind, tried: o.tried, failures: [], hangs: [], seeds: [job.seed], stats: o.fuzz?.stats ?? {}, ms };
  for (const f of o.failures) r.failures.push({ kind: job.kind, seed: job.seed, ...f });
  if (o.hang)
    r.hangs.push({
      kind: job.kind,
      seed: job.seed,
      input: o.hang.input ?? { path: '?', text: '(no input reported)' },
      violations: [{ where: o.hang.call ?? 'watchdog', problem: o.hang.problem }],
    });
  if (o.fuzz?.counterexample) r.counterexample = { kind: job.kind, seed: job.seed, path: o.fuzz.path, ...o.fuzz.counterexample };
  if (o.fuzz?.error) r.error = o.fuzz.error;
  return r;
}

function mergeStats(into: Record<string, CallStats>, from: Record<string, CallStats>): void {
  for (const [k, s] of Object.entries(from)) {
    const t = (into[k] ??= { n: 0, max: 0, total: 0 });
    t.n += s.n;
    t.total += s.total;
    t.max = Math.max(t.max, s.max);
  }
}

/**
 * A campaign: runs `job` until its runs or `totalTimeMs` are used up. After a hang (recorded in
 * `hangs`) a fresh worker continues with a new seed.
 */
export async function runCampaign(
  job: FuzzJob,
  opts: { hangMs: number; totalTimeMs?: number; onProgress?: (tried: number) => void; onFailure?: (f: FuzzFailure, hang: boolean) => void },
): Promise<FuzzReport> {
  const t0 = Date.now();
  const report: FuzzReport = { kind: job.kind, tried: 0, failures: [], hangs: [], seeds: [], stats: {}, ms: 0 };
  let seed = job.seed;
  for (;;) {
    const timeLeft = opts.totalTimeMs === undefined ? undefined : opts.totalTimeMs - (Date.now() - t0);
    const runsLeft = job.numRuns - report.tried;
    if (runsLeft <= 0 || (timeLeft !== undefined && timeLeft <= 0)) break;
    const j: FuzzJob = { ...job, mode: 'campaign', seed, numRuns: runsLeft, timeLimitMs: timeLeft };
    report.seeds.push(seed);
    const base = report.tried;
    const [p] = runTasks([{ type: 'fuzz', job: j }], {
      hangMs: opts.hangMs,
      onMessage: (m) => {
        if (m.type === 'input') {
          report.tried = base + m.tried;
          if (report.tried % 100 === 0) opts.onProgress?.(report.tried);
        } else if (m.type === 'failure') {
          const f = { kind: job.kind, seed, input: m.input, violations: m.violations };
          report.failures.push(f);
          opts.onFailure?.(f, false);
        }
      },
    });
    const o = await p;
    if (o.fuzz) mergeStats(report.stats, o.fuzz.stats);
    if (!o.hang) break;
    const input = o.hang.input ?? { path: '?', text: '(no input reported)' };
    // find the call that hangs: re-check the input alone, reporting each call
    let call = o.hang.call;
    if (o.hang.input && !call) {
      const [again] = runTasks([{ type: 'case', kind: caseKindOf(job.kind), input: o.hang.input as CaseTask['input'], limitMs: job.limitMs }], {
        hangMs: opts.hangMs,
      });
      const a = await again;
      call =
        a.hang?.call ??
        (a.violations?.length
          ? `${a.violations[0].where} (did not hang when re-run alone: ${a.violations[0].problem.split('\n')[0]})`
          : '(did not hang when re-run alone)');
    }
    const h: FuzzFailure = { kind: job.kind, seed, input, violations: [{ where: call ?? 'watchdog', problem: o.hang.problem }] };
    report.hangs.push(h);
    opts.onFailure?.(h, true);
    report.tried++; // the input that hung
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  }
  report.ms = Date.now() - t0;
  return report;
}
