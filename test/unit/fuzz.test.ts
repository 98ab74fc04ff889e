/**
 * Robustness of the engine (bounded; `npm run fuzz` runs the same properties for longer): random
 * bytes, random mutations of the real example programs and random statements go through
 * Project.analyze / analyzeTprog / analyzePcore and every feature function; mutated layout specs go
 * through analyzeLayout and the layout features; mutated and truncated .csfbin files go through the
 * validator, the codec, the accelerator load and the viewer model and host. Nothing may throw, every
 * call must return within LIMIT_MS, every range must lie inside the document and every .csfbin
 * problem's byte offset inside the file. The properties
 * run in worker threads under a watchdog, so a hang fails the test (naming the input) instead of
 * blocking the runner.
 *
 * FUZZ_SEED=<n> changes the (otherwise fixed) seed; FUZZ_SCALE=<x> multiplies the run counts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { describeInput, formatViolations, TPROG_SEEDS } from './fuzz-harness';
import { runTasks, toReport, type CaseTask, type FuzzJob, type FuzzReport } from './fuzz-runner';

const LIMIT_MS = 2000;
const HANG_MS = 20_000;
const SEED = Number(process.env.FUZZ_SEED ?? 20260522);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);

function verdict(r: FuzzReport): void {
  const parts: string[] = [];
  if (r.counterexample)
    parts.push(
      `counterexample (seed ${r.counterexample.seed}, path ${r.counterexample.path}):\n  input ` +
        `${describeInput(r.counterexample.input)}\n${formatViolations(r.counterexample.violations)}`,
    );
  for (const h of r.hangs) parts.push(`hang/crash (seed ${h.seed}):\n  input ${describeInput(h.input)}\n${formatViolations(h.violations)}`);
  if (r.error) parts.push(`error: ${r.error}`);
  assert.ok(parts.length === 0, `${r.kind}: ${parts.join('\n\n')}`);
  assert.ok(r.tried > 0, 'no input was tried');
}

// Bounded so this file runs in well under 30 s: the run counts are reached on a fast machine, the
// time caps on a slow one. All properties run one after the other in one worker.
const limits = { maxLine: 20_000, maxNest: 1500 };
const jobs: (Partial<FuzzJob> & { kind: FuzzJob['kind']; numRuns: number; timeLimitMs: number })[] = [
  { kind: 'tprog', numRuns: 60, timeLimitMs: 8000, limits },
  { kind: 'tprog-bytes', numRuns: 40, timeLimitMs: 1000 },
  { kind: 'tprog-soup', numRuns: 40, timeLimitMs: 1000 },
  { kind: 'pcore', numRuns: 80, timeLimitMs: 2000, limits },
  { kind: 'tlayout', numRuns: 300, timeLimitMs: 3000, limits: { maxLine: 4000, maxNest: 1000, maxList: 5000 } },
  { kind: 'csfbin', numRuns: 300, timeLimitMs: 2000 },
  { kind: 'cli', numRuns: 150, timeLimitMs: 2000 },
];
const fuzzJobs: FuzzJob[] = jobs.map((j) => ({
  mode: 'assert',
  seed: SEED,
  limitMs: LIMIT_MS,
  ...j,
  numRuns: Math.max(1, Math.round(j.numRuns * SCALE)),
  timeLimitMs: j.timeLimitMs * SCALE,
}));
const t0 = Date.now();
const fuzzResults = runTasks(
  fuzzJobs.map((job) => ({ type: 'fuzz', job })),
  { hangMs: HANG_MS },
);

async function fuzz(i: number): Promise<FuzzReport> {
  const r = toReport(fuzzJobs[i], await fuzzResults[i], Date.now() - t0);
  const slowest = Object.entries(r.stats).sort((a, b) => b[1].max - a[1].max)[0];
  console.log(`# fuzz ${r.kind}: ${r.tried} inputs (seed ${SEED}); slowest call ${slowest?.[0]} ${slowest?.[1].max.toFixed(0)} ms`);
  return r;
}

describe('fuzz: the engine never throws, hangs or answers outside the document', () => {
  it('tensor programs: random mutations of the example programs', async () => verdict(await fuzz(0)));
  it('tensor programs: random bytes and random text', async () => verdict(await fuzz(1)));
  it('tensor programs: random statements built from the language', async () => verdict(await fuzz(2)));
  it('PCORE programs: random mutations and random bytes', async () => verdict(await fuzz(3)));
  it('layout specs: random mutations of the example specs, random bytes and text', async () => verdict(await fuzz(4)));
  it('.csfbin files: mutated, truncated and random bytes through validator, codec, load and viewer', async () => verdict(await fuzz(5)));
});

describe('edge cases through every feature function', () => {
  const test = TPROG_SEEDS.find((s) => s.path.endsWith('/test.m'))!;
  const at = Array.from({ length: 10 }, (_, i) => i / 10);
  /** name → text, or [text, known bug] for a case that fails because of a reported core bug (run as `todo`). */
  const cases: Record<string, string | [string, string]> = {
    empty: '',
    'only >': '>',
    'only > in a function': 'void f(void) {\n>\n}\n',
    'statement without a function': '> DTYPE(INT16)MEM(p)[0:7] <= INT16(0);\n',
    'continuation at end of file': 'void f(void) {\n   > DTYPE(INT16)MEM(p)[0:7] <= \\',
    '100,000-character statement line': `void f(void) {\n   > DTYPE(INT16)MEM(p)[0:1] <= ${'1+'.repeat(50_000)}1;\n}\n`,
    '100,000-character C line': `int q = ${'1+'.repeat(50_000)}1;\n${test.text}`,
    '10,000 nested [ ] in a statement': `void f(void) {\n   > DTYPE(INT16)MEM(p)${'['.repeat(10_000)}0${']'.repeat(10_000)} <= INT16(0);\n}\n`,
    '10,000 nested ( ) in a statement': `void f(void) {\n   > DTYPE(INT16)MEM(p,${'('.repeat(10_000)}8${')'.repeat(10_000)})[0] <= INT16(0);\n}\n`,
    '10,000 unclosed ( in a statement': `void f(void) {\n   > DTYPE(INT16)MEM(p,${'('.repeat(10_000)}8[0] <= INT16(0);\n}\n`,
    '10,000 nested { } in C': `void f(void) {${'{'.repeat(10_000)}\n   > BARRIER;\n${'}'.repeat(10_000)}}\n`,
    '10,000 nested ( ) in a C initializer':
      `int x = ${'('.repeat(10_000)}1${')'.repeat(10_000)};\n` + 'void f(int p) {\n   > DTYPE(INT16)MEM(p)[0:x] <= INT16(0);\n}\n',
    'CRLF line ends': test.text.replace(/\n/g, '\r\n'),
    'CR line ends': test.text.replace(/\n/g, '\r'),
    'CRLF line ends with #define': '#define N 4\r\n#define M (N*2)\r\nvoid f(int p) {\r\n   > DTYPE(INT16)MEM(p,M)[0:N-1] <= INT16(0);\r\n}\r\n',
    'BOM and NUL bytes': '\ufeff' + test.text.replace(/;/g, ';\0'),
    'lone surrogates': test.text.replace(/_A/g, '_\ud800A'),
    'every line a continuation': test.text.replace(/\n/g, '\\\n'),
    'object-prototype names as identifiers and macros':
      '#define constructor 4\n' +
      'void f(int p) {\n' +
      '   int __proto__ = 3;\n' +
      '   > DTYPE(INT16)MEM(p,toString,hasOwnProperty)[0:constructor][0:__proto__] <= ' +
      'DTYPE(INT16)PCORE(valueOf)[0].THREAD[prototype].test::_A[0:7];\n' +
      '   > EXE_LOCKSTEP(constructor::__proto__,NUM_PCORE);\n' +
      '   > $constructor := DTYPE(INT16)MEM(p)[0:7];\n' +
      '   > $__proto__ <= $constructor;\n' +
      '}\n',
    'huge and odd numbers':
      'void f(int p) {\n' +
      '   > DTYPE(INT16)MEM(p,99999999999999999999,0x7fffffff)[0:1e9][-2147483648/-1:1<<40] <= INT16(1/0);\n' +
      '   > DTYPE(INT16)PCORE(2147483647)[0:2147483646].THREAD[0:99999999].test::_A[0:0xffffffff] <= INT16(0);\n' +
      '   > FOR(I=0:2147483647) DTYPE(INT16)MEM(p)[I] <= INT16(0);\n' +
      '}\n',
  };
  const pcoreCases: Record<string, string | [string, string]> = {
    'PCORE: empty': '',
    'PCORE: 10,000 nested ( )': `_kernel_ void a::k() { int x = ${'('.repeat(10_000)}1${')'.repeat(10_000)}; }\n`,
    'PCORE: 10,000 nested { }': `_kernel_ void a::k() ${'{'.repeat(10_000)}${'}'.repeat(10_000)}\n`,
    'PCORE: 100,000-character line': `vint16 a::v[${'1+'.repeat(50_000)}1];\n`,
    'PCORE: recursive macros': '#define A B\n#define B A\n#define F(x) F(x)\nvint16 a::v[A];\n_kernel_ void a::k() { v[0] = F(1) + B; }\n',
    'PCORE: unterminated comment and string': 'vint16 a::v;\n/* never closed\n_kernel_ void a::k() { "x',
    'PCORE: self-include': '#include "self.p"\nvint16 a::v;\n',
    'PCORE: character constant ending in backslash + CRLF': "vint16 a::v;\r\nint16 'ab\\\r\nc;\r\n",
  };
  const names = [...Object.keys(cases), ...Object.keys(pcoreCases)];
  // one worker checks all cases, started now: it runs beside the (sequential) fuzz workers on the second core
  const results = runTasks(
    [
      ...Object.values(cases).map((c): CaseTask => ({
        type: 'case',
        kind: 'tprog',
        limitMs: LIMIT_MS,
        input: { path: test.path, text: typeof c === 'string' ? c : c[0], dialect: 'auto', at },
      })),
      ...Object.values(pcoreCases).map((c): CaseTask => ({
        type: 'case',
        kind: 'pcore',
        limitMs: LIMIT_MS,
        input: { path: '/w/fixtures/self.p', text: typeof c === 'string' ? c : c[0], at, lookups: ['a::v', 'a::k.x', '::', ''] },
      })),
    ],
    { hangMs: 3000 },
  );
  names.forEach((name, i) => {
    const c = cases[name] ?? pcoreCases[name];
    const todo = Array.isArray(c) ? c[1] : undefined;
    it(todo ? `${name} (known bug)` : name, { todo }, async () => {
      const o = await results[i];
      const v = o.hang ? [{ where: o.hang.call ?? 'watchdog', problem: o.hang.problem }] : (o.violations ?? []);
      assert.deepEqual(v, [], formatViolations(v));
    });
  });
});

/** Runs `code` (CommonJS, tsx registered, `core` = absolute path of core/) in a worker; resolves its result, or 'timeout'. */
function inWorker(code: string, timeoutMs: number): Promise<{ result?: unknown; timeout?: boolean; error?: string }> {
  const core = `${__dirname}/../../core`;
  const src =
    `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register(); const core = ${JSON.stringify(core)}; const { parentPort } = ` +
    `require('node:worker_threads'); (async () => { ${code} })().then((r) => parentPort.postMessage({ result: r }), (e) => parentPort.postMessage({ ` +
    'error: String(e && e.stack || e) }));';
  return new Promise((resolve) => {
    const w = new Worker(src, { eval: true });
    let start: ReturnType<typeof setTimeout> | undefined;
    const done = (r: { result?: unknown; timeout?: boolean; error?: string }) => {
      clearTimeout(start);
      void w.terminate();
      resolve(r);
    };
    w.on('message', (m: { ready?: boolean; result?: unknown; error?: string }) => {
      if (m.ready) start = setTimeout(() => done({ timeout: true }), timeoutMs);
      else done(m);
    });
    w.on('error', (e) => done({ error: String(e) }));
  });
}

// Bugs in core/ found by fuzzing, kept as regression tests.
// (they used to hang or take seconds; each must now finish well within its limit).
describe('bugs found by fuzzing, fixed', { concurrency: true }, () => {
  it('references() at offset -1 returns (it used to loop on an empty name)', async () => {
    const r = await inWorker(
      `const { analyzeTprog } = require(core + '/tprog/analyze'); const { references } = require(core + '/tprog/features/navigate');
       const a = analyzeTprog('void f(void) {}', { file: '/x.m' }); parentPort.postMessage({ ready: true }); return references(a, -1, true).length;`,
      1000,
    );
    assert.ok(!r.timeout, 'references(a, -1, true) did not return within 1 s');
    assert.equal(r.error, undefined);
  });

  it('layout words named like Object.prototype members (`__proto__`, `constructor`, `toString`) are no table entries', async () => {
    // fuzz input (tlayout): hover on `__proto__` returned Object.prototype as its markdown; `spyre(constructor=` threw in
    // completion, `tt(layout=constructor)` was accepted as a layout and hover on a term named `__proto__` threw
    const text =
      'target toString\n' +
      'target wormhole_b0(__proto__=1)\n' +
      'tensor t: float16[4] = spyre(constructor=1, __proto__=2)\n' +
      'tensor u: constructor[4] = tt(layout=constructor, buffer=__proto__)\n' +
      'tensor v: float16[4] = __proto__()\n' +
      'tensor w: float16[4] = tt(layout=\n' +
      'probe t[valueOf]\n' +
      '4constructor\n';
    const at = Array.from({ length: text.length + 1 }, (_, i) => i / (text.length + 1));
    const [o] = runTasks([{ type: 'case', kind: 'tlayout', limitMs: LIMIT_MS, input: { path: '/w/layouts/x.tlayout', text, at } }], { hangMs: HANG_MS });
    const r = await o;
    const v = r.hang ? [{ where: r.hang.call ?? 'watchdog', problem: r.hang.problem }] : (r.violations ?? []);
    assert.deepEqual(v, [], formatViolations(v));
    const { analyzeLayout } = await import('../../core/layout/analyze');
    const codes = analyzeLayout('tensor u: float16[64, 64] = tt(layout=constructor)\n', '/x.tlayout').diagnostics.map((d) => d.code);
    assert.ok(codes.includes('TL004'), `layout=constructor is not a layout: ${codes.join(', ')}`);
  });

  it('layout values nested 30,000 deep are skipped with an error (the parser used to overflow the stack)', async () => {
    const cases = [
      '['.repeat(30_000),
      `${'['.repeat(30_000)}1${']'.repeat(30_000)}`,
      'f(x='.repeat(20_000),
      '(-'.repeat(20_000) + '1',
      'a-'.repeat(20_000) + 'b',
    ];
    const outcomes = runTasks(
      cases.map((body): CaseTask => {
        const text = `tensor t: float16[4] = spyre(x=${body})\nprobe t[0]\n`;
        return { type: 'case', kind: 'tlayout', limitMs: LIMIT_MS * 2, input: { path: '/w/layouts/x.tlayout', text, at: [0, 0.5, 0.99] } };
      }),
      { hangMs: HANG_MS },
    );
    for (const [i, o] of outcomes.entries()) {
      const r = await o;
      const v = r.hang ? [{ where: r.hang.call ?? 'watchdog', problem: r.hang.problem }] : (r.violations ?? []);
      assert.deepEqual(v, [], `${cases[i].slice(0, 8)}…: ${formatViolations(v)}`);
    }
    const { analyzeLayout } = await import('../../core/layout/analyze');
    const a = analyzeLayout(`tensor t: float16[4] = spyre(x=${'['.repeat(3000)})\n`, '/x.tlayout');
    assert.ok(
      a.diagnostics.some((d) => /nested more than \d+ deep/.test(d.message)),
      a.diagnostics.map((d) => d.message).join('; '),
    );
  });

  it('.csfbin: parseCsf drops 0xFFFFFFFF entries even when a trailing-bytes warning is the one warning listed', async () => {
    // fuzz input (csfbin): order 1, shape [4], entries (0xFFFFFFFF, 2, 3), ptr [0, 3], one trailing byte. With the default
    // maxIssues = 1 the trailing-bytes warning hid the sentinel's, so the sentinel was kept and encodeCsf threw
    const hex = '010000000400000003000000ffffffff8551dd9f02000000d90826b60300000064a7b34c02000000000000000300000016';
    const bytes = new Uint8Array(Buffer.from(hex, 'hex'));
    const { parseCsf } = await import('../../core/csf/codec');
    const p = parseCsf(bytes, { dropEmptySentinel: true, allowTrailing: true });
    assert.ok(p.ok);
    assert.deepEqual(
      [[...p.tensor.indices], [...p.tensor.ptr]],
      [
        [2, 3],
        [0, 2],
      ],
    );
    const [o] = runTasks(
      [
        {
          type: 'case',
          kind: 'csfbin',
          limitMs: LIMIT_MS,
          input: { path: '/w/fuzz.csfbin', text: Buffer.from(bytes).toString('latin1'), at: [0, 0.3, 0.6, 0.9] },
        },
      ],
      { hangMs: HANG_MS },
    );
    const r = await o;
    const v = r.hang ? [{ where: r.hang.call ?? 'watchdog', problem: r.hang.problem }] : (r.violations ?? []);
    assert.deepEqual(v, [], formatViolations(v));
  });

  it('unclosed nested calls `F(F(F(…` at top level are analysed in linear time', async () => {
    const r = await inWorker(
      [
        "const { analyzeTprog } = require(core + '/tprog/analyze'); const text = 'F('.repeat(20000) + '\\nvoid f(void) {\\n > BARRIER;\\n}\\n';",
        "       analyzeTprog('void g(void) {}', { file: '/w.m' }); parentPort.postMessage({ ready: true }); const t0 = performance.now(); " +
          "analyzeTprog(text, { file: '/x.m' }); return performance.now() - t0;",
      ].join('\n'),
      LIMIT_MS,
    );
    assert.ok(!r.timeout, `analysis of 40 KB of unclosed F( took more than ${LIMIT_MS} ms`);
  });
});
