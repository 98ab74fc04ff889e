/**
 * Hostile tensor programs through the real run entry (core/sim/run.ts runProgram) and `tensor-lens run`:
 * endless loops, unbounded recursion, huge transfers, MEM exhaustion, deep nesting, processes that yield
 * forever, division by zero and cancellation. Each must end within a bounded time and memory with a
 * located error (`file:line:col`), never a JS crash or a hung process.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Project } from '../../core/project/project';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import { nodeLoadWasm } from '../../node/wasm';
import { runProgram, type RunOptions, type RunResult } from '../../core/sim/run';
import { parseDump } from '../../core/sim/dump';
import { nodeFs } from '../../cli/nodeFs';
import { runRun } from '../../cli/run';

const PCORE = 'vint16 t::a[8];\n_kernel_ void t::k() { }\n';

/** Writes `name.m` (and a small `name.p`) into a fresh folder; returns the program's path. */
function program(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tl-hostile-'));
  writeFileSync(join(dir, `${name}.m`), text);
  writeFileSync(join(dir, `${name}.p`), PCORE);
  return join(dir, `${name}.m`);
}

interface Expect {
  kind: string;
  message: RegExp;
  line: number;
  column?: number;
  /** Innermost C function of the error's stack. */
  fn?: string;
  /** Most milliseconds the run may take (generous: the machine is shared). */
  ms?: number;
}

async function run(file: string, opts: Partial<RunOptions> = {}): Promise<{ r: RunResult; ms: number }> {
  const t0 = Date.now();
  const r = await runProgram({ project: new Project({ fs: nodeFs, loadPcore: loadPcoreView }), file, loadWasm: nodeLoadWasm, ...opts });
  return { r, ms: Date.now() - t0 };
}

/** Runs `text` and checks the run stopped with the expected located error. */
async function fails(name: string, text: string, x: Expect, opts: Partial<RunOptions> = {}): Promise<RunResult> {
  const file = program(name, text);
  const { r, ms } = await run(file, opts);
  const e = r.error;
  assert.ok(e, `${name}: expected an error, the run ended normally`);
  assert.equal(e.kind, x.kind, e.message);
  assert.match(e.message, x.message);
  assert.equal(e.file, file);
  assert.equal(e.line, x.line, `line of ${e.message}`);
  if (x.column !== undefined) assert.equal(e.column, x.column, `column of ${e.message}`);
  if (x.fn) assert.match(e.stack[0] ?? '', new RegExp(`^${x.fn} \\(${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+\\)$`), e.stack.join(' | '));
  assert.ok(ms < (x.ms ?? 20_000), `${name} took ${ms} ms`);
  return r;
}

const infiniteLoop = 'void kernel_x(void) {\n   int x = 0;\n   while (1) {\n      x++;\n   }\n}\n';

describe('hostile programs: bounded time and memory, located errors', () => {
  test('an endless C loop stops at the step budget, at the loop', async () => {
    const r = await fails(
      'loop',
      infiniteLoop,
      { kind: 'budget', message: /^step budget exhausted/, line: 3, column: 4, fn: 'kernel_x' },
      { stepBudget: 5_000_000 },
    );
    assert.equal(r.summary.steps, 5_000_000);
  });

  test('unbounded recursion: a stack-overflow fault at the recursive call, never a JS RangeError', async () => {
    await fails('rec', 'static int f(int n) {\n   return f(n + 1) + 1;\n}\nvoid kernel_x(void) {\n   f(0);\n}\n', {
      kind: 'fault',
      message: /^stack overflow: more than \d+ nested calls/,
      line: 2,
      column: 11,
      fn: 'f',
    });
    // big frames fill the MEM stack first
    await fails('recbig', 'static int f(int n) {\n   char a[4000];\n   a[0] = n;\n   return f(n + 1) + a[0];\n}\nvoid kernel_x(void) {\n   f(0);\n}\n', {
      kind: 'fault',
      message: /^stack overflow: the \d+-byte C stack in MEM is full/,
      line: 4,
      fn: 'f',
    });
    // through a function pointer, and inside a process of ztaDualHartExecute (a resumable C function)
    await fails(
      'recptr',
      'typedef int (*F)(int);\nstatic int g(int n);\nstatic F fp = g;\nstatic int g(int n) {\n   return fp(n + 1);\n}\nvoid kernel_x(void) {\n   g(0);\n}\n',
      { kind: 'fault', message: /^stack overflow/, line: 5, fn: 'g' },
    );
    await fails(
      'recyield',
      'static int r(int n) {\n' +
        '   ztaTaskYield();\n' +
        '   return r(n + 1) + 1;\n' +
        '}\n' +
        'static void h(void *p, int pid) {\n' +
        '   r(pid);\n' +
        '}\n' +
        'void kernel_x(void) {\n' +
        '   ztaDualHartExecute(h, 0);\n' +
        '}\n',
      { kind: 'fault', message: /^stack overflow/, line: 3, fn: 'r' },
    );
  });

  test('a local array bigger than the C stack', async () => {
    await fails('biglocal', 'static void f(void) {\n   char big[100000000];\n   big[0] = 1;\n}\nvoid kernel_x(void) {\n   f();\n}\n', {
      kind: 'fault',
      message: /^stack overflow: the \d+-byte C stack in MEM is full/,
      line: 6,
      fn: 'f',
    });
  });

  test('a FOR over 2^31 elements is refused by the budget before it runs', async () => {
    const text =
      '#include <stdint.h>\n' +
      'static int16_t b[16];\n' +
      'void kernel_x(void) {\n' +
      '   > FOR(I=0:2147483647) DTYPE(INT16)MEM((uint32_t)&b[0])[I] <= DTYPE(INT16)MEM((uint32_t)&b[0])[0];\n' +
      '}\n';
    const r = await fails('for31', text, {
      kind: 'budget',
      message: /step budget exhausted .*this transfer moves 2147483648 elements/,
      line: 4,
      fn: 'kernel_x',
      ms: 5000,
    });
    assert.equal(r.trace.length, 0, 'nothing moved');
    assert.equal(r.summary.steps, 500_000_000);
  });

  test('more elements than the engine handles, and bytes outside MEM, are refused with the location', async () => {
    await fails(
      'dims32',
      '#include <stdint.h>\n' +
        'static uint8_t b[16];\n' +
        'void kernel_x(void) {\n' +
        '   > DTYPE(UINT8)MEM((uint32_t)&b[0],4,4)[0:65535][0:65535] <= DTYPE(UINT8)MEM((uint32_t)&b[0],4,4)[0:65535][0:65535];\n' +
        '}\n',
      {
        kind: 'fault',
        message: /4294967296 elements is more than the engine's 2\^31 element limit/,
        line: 4,
        fn: 'kernel_x',
      },
      { stepBudget: 1e10 },
    );
    await fails(
      'outside',
      '#include <stdint.h>\n' +
        'static int16_t b[16];\n' +
        'void kernel_x(void) {\n' +
        '   > DTYPE(INT16)MEM((uint32_t)&b[0],2147483647)[0:2147483646] <= DTYPE(INT16)MEM((uint32_t)&b[0],2147483647)[0:2147483646];\n' +
        '}\n',
      {
        kind: 'fault',
        message: /outside MEM/,
        line: 4,
        fn: 'kernel_x',
      },
      { stepBudget: 4e9 },
    );
  });

  test('a loop of big transfers stops at the budget (each element moved is a step)', async () => {
    const text = 'void kernel_x(void) {\n   for (;;) {\n      > DTYPE(INT16)MEM(0x1000000)[0:999999] <= DTYPE(INT16)MEM(0x2000000)[0:999999];\n   }\n}\n';
    const r = await fails(
      'bigloop',
      text,
      { kind: 'budget', message: /^step budget exhausted .*1000000 elements/, line: 3, fn: 'kernel_x', ms: 10_000 },
      { stepBudget: 10_000_000 },
    );
    assert.ok(r.trace.length >= 9 && r.trace.length <= 10, `${r.trace.length} transfers`);
  });

  test('malloc and globals beyond MEM: located faults, nothing allocated', async () => {
    const r = await fails('malloc', '#include <stdlib.h>\nvoid kernel_x(void) {\n   char *p = malloc(2000000000);\n   p[0] = 1;\n}\n', {
      kind: 'fault',
      message: /^malloc\(2000000000\): out of simulated MEM: 2000000000 bytes requested/,
      line: 3,
      column: 14,
      fn: 'kernel_x',
    });
    assert.equal(r.machine.mem.length, 64 * 2 ** 20);
    await fails(
      'mallocloop',
      '#include <stdlib.h>\nvoid kernel_x(void) {\n   while (1) {\n      char *p = malloc(1000000);\n      p[0] = 1;\n   }\n}\n',
      { kind: 'fault', message: /^malloc\(1000000\): out of simulated MEM/, line: 4, column: 17, fn: 'kernel_x' },
      { memBytes: 8 * 2 ** 20 },
    );
    await fails('bigglobal', 'static char big[1000000000];\nvoid kernel_x(void) {\n   big[0] = 1;\n}\n', {
      kind: 'fault',
      message: /^cannot allocate big \(1000000000 bytes\): out of simulated MEM/,
      line: 1,
      column: 13,
    });
  });

  test('a > statement in an endless loop stops at the budget', async () => {
    const text =
      '#include <stdint.h>\n' +
      'static int16_t b[16];\n' +
      'void kernel_x(void) {\n' +
      '   for (;;) {\n' +
      '      > DTYPE(INT16)MEM((uint32_t)&b[0])[0:7] <= DTYPE(INT16)MEM((uint32_t)&b[8])[0:7];\n' +
      '   }\n' +
      '}\n';
    await fails('stmtloop', text, { kind: 'budget', message: /^step budget exhausted/, line: 5, fn: 'kernel_x' }, { stepBudget: 100_000 });
  });

  test('... and at the trace limit when the budget is large', async () => {
    const text =
      '#include <stdint.h>\n' +
      'static int16_t b[16];\n' +
      'void kernel_x(void) {\n' +
      '   for (;;) {\n' +
      '      > DTYPE(INT16)MEM((uint32_t)&b[0])[0:7] <= DTYPE(INT16)MEM((uint32_t)&b[8])[0:7];\n' +
      '   }\n' +
      '}\n';
    const r = await fails(
      'stmtcap',
      text,
      { kind: 'budget', message: /^stopped after 3000 tensor steps, the most a run records/, line: 5, fn: 'kernel_x' },
      { maxTraceSteps: 3000 },
    );
    assert.equal(r.trace.length, 3000);
  });

  test('... and at the memory-history limit when each step changes memory', async () => {
    // every step writes a different value over 64 KiB: 16 pages saved per step
    const text =
      '#include <stdint.h>\n' +
      'void kernel_x(void) {\n' +
      '   for (int i = 0; ; i++) {\n' +
      '      > DTYPE(INT16)MEM(0x100000)[0:32767] <= PAD(i) DTYPE(INT16)MEM(0x100000,1)[5:32772];\n' +
      '   }\n' +
      '}\n';
    const r = await fails(
      'histcap',
      text,
      { kind: 'budget', message: /^stopped after \d+ tensor steps: the memory history of the run holds more than 4 MiB/, line: 4, fn: 'kernel_x' },
      { maxHistoryBytes: 4 * 2 ** 20 },
    );
    const kept = [...r.histories.values()].reduce((n, h) => n + h.bytesKept, 0);
    assert.ok(kept <= 4 * 2 ** 20 + 65536 + 4096, `${kept} bytes kept`);
  });

  test('deep nesting in C (5,000 parentheses, operators, blocks, calls): runs, or a located compile error; never a JS stack overflow', async () => {
    // [name, body of kernel_x, line of the statement]; how deep the compiler gets depends on the JS stack
    const bodies: [string, string, number][] = [
      ['parens', `int x = ${'('.repeat(5000)}1${')'.repeat(5000)};`, 3],
      ['binary', `int x = 1${' + 1'.repeat(5000)};`, 3],
      ['unary', `int x = ${'- '.repeat(5000)}1;`, 3],
      ['calls', `int x = ${'f('.repeat(5000)}1${')'.repeat(5000)};`, 3],
      ['blocks', `int x = 0;\n   ${'{'.repeat(5000)}x++;${'}'.repeat(5000)}`, 4],
      ['ifs', `int x = 0;\n   ${'if (x) '.repeat(5000)}x++;`, 4],
      ['parens20k', `int x = ${'('.repeat(20000)}1${')'.repeat(20000)};`, 3],
    ];
    let refused = 0;
    for (const [name, body, line] of bodies) {
      const { r, ms } = await run(program(`deep_${name}`, `static int f(int a) { return a; }\nvoid kernel_x(void) {\n   ${body}\n   (void)x;\n}\n`));
      assert.ok(ms < 20_000, `${name} took ${ms} ms`);
      if (!r.error) continue;
      refused++;
      assert.equal(r.error.kind, 'compile', `${name}: ${r.error.message}`);
      assert.match(r.error.message, /^nested too deeply for the simulator/, name);
      assert.equal(r.error.line, line, `${name}: line of ${r.error.message}`);
      assert.match(r.error.stack[0], /^kernel_x \(/);
    }
    // 20,000 levels are beyond any default JS stack
    assert.ok(refused >= 1, 'no case reached the nesting limit');
    // nesting the simulator handles runs normally
    const ok = await run(
      program(
        'nest_ok',
        `static int f(int a) { return a + 1; }\nstatic int r;\nvoid kernel_x(void) {\n   r = ${'f('.repeat(300)}1${')'.repeat(300)} ` +
          `+ ${'('.repeat(500)}2${')'.repeat(500)};\n}\n`,
      ),
      { dumps: [parseDump('MEM:r:1:i32')] },
    );
    assert.equal(ok.r.error, null, JSON.stringify(ok.r.error));
    assert.deepEqual(ok.r.dumps[0].values, [303]);
  });

  test('deep nesting in a global initialiser', async () => {
    await fails('deep_global', `static int g = ${'('.repeat(5000)}1${')'.repeat(5000)};\nvoid kernel_x(void) {\n   (void)g;\n}\n`, {
      kind: 'compile',
      message: /nested too deeply/,
      line: 1,
    });
  });

  test('never calling ztaJobDone, both processes yielding forever: stops at the budget or the trace limit', async () => {
    const text = 'static void h(void *p, int pid) {\n   for (;;)\n      ztaTaskYield();\n}\nvoid kernel_x(void) {\n   ztaDualHartExecute(h, 0);\n}\n';
    await fails('yieldforever', text, { kind: 'budget', message: /^step budget exhausted/, line: 2, fn: 'h' }, { stepBudget: 100_000 });
    const r = await fails('yieldcap', text, { kind: 'budget', message: /^stopped after 5000 tensor steps/, line: 3, fn: 'h' }, { maxTraceSteps: 5000 });
    assert.deepEqual(new Set(r.trace.map((s) => s.kind)), new Set(['yield']));
  });

  test('division by zero: integer faults at the operator; float gives inf like C', async () => {
    await fails('div0', 'void kernel_x(void) {\n   int a = 0;\n   int b = 7 / a;\n   (void)b;\n}\n', {
      kind: 'fault',
      message: /^division by zero$/,
      line: 3,
      column: 12,
      fn: 'kernel_x',
    });
    await fails('mod0', 'void kernel_x(void) {\n   unsigned a = 0;\n   unsigned b = 7u % a;\n   (void)b;\n}\n', {
      kind: 'fault',
      message: /^division by zero \(remainder\)$/,
      line: 3,
      column: 17,
    });
    await fails('div0assign', 'void kernel_x(void) {\n   int a = 0;\n   int b = 7;\n   b /= a;\n}\n', { kind: 'fault', message: /division by zero/, line: 4 });
    const f = await run(program('fdiv0', 'static float r;\nvoid kernel_x(void) {\n   float a = 0;\n   r = 7 / a;\n}\n'), { dumps: [parseDump('MEM:r:1:f32')] });
    assert.equal(f.r.error, null);
    assert.deepEqual(f.r.dumps[0].values, [Infinity]);
  });

  test('cancellation from another thread stops a running C loop within a bounded time', async () => {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    // the budget's `cancelled` reads a flag that a worker thread sets after 300 ms (as a host would on "Cancel")
    const budget = {
      steps: 1e15,
      get cancelled() {
        return Atomics.load(flag, 0) === 1;
      },
      set cancelled(v: boolean) {
        Atomics.store(flag, 0, v ? 1 : 0);
      },
    };
    const w = new Worker('const { workerData } = require("node:worker_threads"); setTimeout(() => Atomics.store(new Int32Array(workerData), 0, 1), 300);', {
      eval: true,
      workerData: flag.buffer,
    });
    try {
      const { r, ms } = await run(program('cancel', infiniteLoop), { budget });
      assert.equal(r.error?.kind, 'cancelled', JSON.stringify(r.error));
      assert.match(r.error!.message, /cancelled/);
      assert.equal(r.error!.line, 3);
      assert.match(r.error!.stack[0], /^kernel_x \(/);
      assert.ok(ms >= 250 && ms < 10_000, `${ms} ms`);
    } finally {
      await w.terminate();
    }
  });

  test('cancellation during a > statement loop (set from the progress callback)', async () => {
    const text =
      '#include <stdint.h>\n' +
      'static int16_t b[16];\n' +
      'void kernel_x(void) {\n' +
      '   for (;;) {\n' +
      '      > DTYPE(INT16)MEM((uint32_t)&b[0])[0:7] <= DTYPE(INT16)MEM((uint32_t)&b[8])[0:7];\n' +
      '   }\n' +
      '}\n';
    const budget = { steps: 1e15, cancelled: false };
    const { r } = await run(program('cancel2', text), { budget, onProgress: (n) => n >= 1000 && (budget.cancelled = true) });
    assert.equal(r.error?.kind, 'cancelled', JSON.stringify(r.error));
    assert.equal(r.error!.line, 5);
    assert.ok(r.trace.length > 1000 && r.trace.length < 1300, `${r.trace.length} steps`);
  });
});

describe('tensor-lens run on hostile programs', () => {
  async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runRun(
      argv,
      (s) => out.push(s),
      (s) => err.push(s),
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  test('exit 1 with file:line:col: error: for each', async () => {
    const cases: [string, string, RegExp][] = [
      ['loop', infiniteLoop, /loop\.m:3:4: error: step budget exhausted/],
      ['rec', 'static int f(int n) {\n   return f(n + 1);\n}\nvoid kernel_x(void) {\n   f(0);\n}\n', /rec\.m:2:11: error: stack overflow/],
      ['deep', `void kernel_x(void) {\n   int x = ${'('.repeat(20000)}1${')'.repeat(20000)};\n   (void)x;\n}\n`, /deep\.m:2:4: error: nested too deeply/],
      [
        'malloc',
        '#include <stdlib.h>\nvoid kernel_x(void) {\n   char *p = malloc(2000000000);\n   p[0] = 1;\n}\n',
        /malloc\.m:3:14: error: malloc\(2000000000\): out of simulated MEM/,
      ],
      ['div', 'void kernel_x(void) {\n   int a = 0;\n   (void)(1 / a);\n}\n', /div\.m:3:11: error: division by zero/],
    ];
    for (const [name, text, want] of cases) {
      const r = await cli(program(name, text), '--steps', '2000000');
      assert.equal(r.code, 1, `${name}: ${r.err}`);
      assert.match(r.err.split('\n')[0], want);
    }
  });
});
