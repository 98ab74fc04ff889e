/**
 * Worker side of fuzz-runner.ts: runs fast-check properties and explicit inputs over the engine in
 * a worker thread, reporting every input (and, for explicit inputs, every call) before it starts, so
 * the main thread can name the input of a hang (a synchronous infinite loop cannot be interrupted
 * from inside).
 */
import { parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import {
  bytesArb,
  checkCsf,
  checkLayout,
  checkPcore,
  checkTprog,
  csfInputArb,
  layoutInputArb,
  pcoreInputArb,
  soupArb,
  textArb,
  tprogInputArb,
  TPROG_SEEDS,
  type CheckOptions,
  type CsfInput,
  type LayoutInput,
  type PcoreInput,
  type TprogInput,
  type Violation,
} from './fuzz-harness';
import { checkCli, cliInputArb, type CliInput } from './fuzz-cli';
import { caseKindOf, type CallStats, type FuzzDone, type FuzzJob, type Task, type WorkerMessage } from './fuzz-runner';

type Input = TprogInput | PcoreInput | LayoutInput | CsfInput | CliInput;

const { tasks } = workerData as { tasks: Task[] };
const post = (m: WorkerMessage) => parentPort!.postMessage(m);

function arbitrary(job: FuzzJob): fc.Arbitrary<Input> {
  const at = fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 4, maxLength: 16 });
  const path = TPROG_SEEDS.find((s) => s.path.endsWith('/test.m'))!.path;
  switch (job.kind) {
    case 'tprog':
      return tprogInputArb({ maxMutations: job.maxMutations, limits: job.limits });
    case 'tprog-bytes':
      return fc
        .record({ text: fc.oneof(bytesArb(job.maxBytes ?? 4000), textArb(job.maxBytes ?? 2000)), at, dialect: fc.constant('auto' as const) })
        .map((r) => ({ ...r, path }));
    case 'tprog-soup':
      return fc.record({ text: soupArb(), at, dialect: fc.constantFrom('auto' as const, 'guide' as const) }).map((r) => ({ ...r, path }));
    case 'pcore':
      return pcoreInputArb({ maxMutations: job.maxMutations, limits: job.limits });
    case 'tlayout':
      return layoutInputArb({ maxMutations: job.maxMutations, maxBytes: job.maxBytes, limits: job.limits });
    case 'csfbin':
      return csfInputArb({ maxMutations: job.maxMutations, maxBytes: job.maxBytes });
    case 'cli':
      return cliInputArb();
  }
}

/** The checks of a kind (the `.csfbin` viewer model is asynchronous, the others are not). */
function check(kind: FuzzJob['kind'], i: Input, opts: CheckOptions): Violation[] | Promise<Violation[]> {
  switch (caseKindOf(kind)) {
    case 'pcore':
      return checkPcore(i as PcoreInput, opts);
    case 'tlayout':
      return checkLayout(i as LayoutInput, opts);
    case 'csfbin':
      return checkCsf(i as CsfInput, opts);
    case 'cli':
      return checkCli(i as CliInput, opts);
    case 'tprog':
      return checkTprog(i as TprogInput, opts);
  }
}

async function runFuzz(index: number, job: FuzzJob): Promise<FuzzDone> {
  const stats: Record<string, CallStats> = {};
  const onCall = (where: string, ms: number) => {
    const s = (stats[where] ??= { n: 0, max: 0, total: 0 });
    s.n++;
    s.total += ms;
    if (ms > s.max) s.max = ms;
  };
  let tried = 0;
  const verdict = (input: Input, v: Violation[]): boolean => {
    if (!v.length) return true;
    if (job.mode === 'campaign') {
      post({ type: 'failure', index, input, violations: v });
      return true;
    }
    throw new Error(`${v.length} violation(s): ${v[0].where}: ${v[0].problem.split('\n')[0]}`);
  };
  const started = (input: Input) => {
    tried++;
    post({ type: 'input', index, input, tried });
  };
  const params = { numRuns: job.numRuns, seed: job.seed, interruptAfterTimeLimit: job.timeLimitMs, markInterruptAsFailure: false, endOnFailure: false };
  const d =
    caseKindOf(job.kind) === 'csfbin' || job.kind === 'cli'
      ? await fc.check(
          fc.asyncProperty(arbitrary(job), async (input) => {
            started(input);
            return verdict(input, await check(job.kind, input, { limitMs: job.limitMs, onCall }));
          }),
          params,
        )
      : fc.check(
          fc.property(arbitrary(job), (input) => {
            started(input);
            return verdict(input, check(job.kind, input, { limitMs: job.limitMs, onCall }) as Violation[]);
          }),
          params,
        );
  let counterexample: FuzzDone['counterexample'];
  if (d.failed && d.counterexample) {
    const input = d.counterexample[0];
    counterexample = { input, violations: await check(job.kind, input, { limitMs: job.limitMs }) };
  }
  return {
    tried,
    runs: d.numRuns,
    seed: d.seed,
    path: d.counterexamplePath ?? undefined,
    interrupted: d.interrupted,
    counterexample,
    error: d.failed && !counterexample ? String(d.errorInstance) : undefined,
    stats,
  };
}

void (async () => {
  for (const [index, task] of tasks.entries()) {
    post({ type: 'task-start', index });
    if (task.type === 'fuzz') post({ type: 'task-done', index, fuzz: await runFuzz(index, task.job) });
    else {
      const onStart = (where: string) => post({ type: 'call', index, where });
      post({ type: 'task-done', index, violations: await check(task.kind, task.input as unknown as Input, { limitMs: task.limitMs, onStart }) });
    }
  }
})();
