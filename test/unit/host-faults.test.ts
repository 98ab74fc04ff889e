import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SimError } from '../../core/sim/types';
import { build, fake, run } from '../fixtures/host/harness';

interface Expect {
  kind: SimError['kind'];
  message: RegExp;
  line: number;
  column?: number;
  stack?: string[];
}

function expectFault(e: unknown, x: Expect): true {
  assert.ok(e instanceof SimError, `expected a SimError, got ${e}`);
  assert.equal(e.kind, x.kind, e.message);
  assert.match(e.message, x.message);
  assert.equal(e.loc?.file, 't.m');
  assert.equal(e.loc?.line, x.line, `line of ${e.message}`);
  if (x.column !== undefined) assert.equal(e.loc?.column, x.column, `column of ${e.message}`);
  if (x.stack) assert.deepEqual(e.stack_, x.stack);
  return true;
}

async function fails(src: string, x: Expect, fo: Parameters<typeof fake>[0] = {}, bo: Parameters<typeof build>[1] = {}): Promise<void> {
  await assert.rejects(run(src, 'main', [], fo, bo), (e) => expectFault(e, x));
}

describe('host C: faults carry file:line:col and the C call stack', () => {
  test('bad MEM address (read and write)', async () => {
    await fails('int main(void) {\n  int *p = (int *)0x7FFFFFF0;\n  return *p;\n}', {
      kind: 'fault',
      message: /bad MEM address: 4-byte read at 0x7ffffff0/,
      line: 3,
      column: 10,
      stack: ['main (t.m:3:10)'],
    });
    await fails('#include <stdint.h>\nstatic uint8_t a[4];\nvoid put(int i) { a[i] = 1; }\nint main(void) {\n  put(-5000);\n  return 0;\n}', {
      kind: 'fault',
      message: /bad MEM address: 1-byte write/,
      line: 3,
      column: 19,
      stack: ['put (t.m:3:19)', 'main (t.m:5:3)'],
    });
  });

  test('null pointer dereference', async () => {
    await fails('typedef struct { int a, b; } S;\nint main(void) {\n  S *s = 0;\n  s->b = 3;\n  return 0;\n}', {
      kind: 'fault',
      message: /null pointer dereference: 4-byte write at address 0x00000004/,
      line: 4,
      column: 3,
    });
  });

  test('division and remainder by zero', async () => {
    await fails('int main(void) {\n  int a = 0;\n  return 10 / a;\n}', { kind: 'fault', message: /^division by zero$/, line: 3, column: 10 });
    await fails('int main(void) {\n  unsigned a = 0;\n  return 10u % a;\n}', { kind: 'fault', message: /division by zero \(remainder\)/, line: 3, column: 10 });
  });

  test('stack overflow: call depth limit and full MEM stack', async () => {
    await fails(
      'static int f(int n) {\n  return f(n + 1) + 1;\n}\nint main(void) { return f(0); }',
      { kind: 'fault', message: /stack overflow: more than 100 nested calls/, line: 2 },
      {},
      { maxCallDepth: 100 },
    );
    await fails(
      'static void g(int n) {\n  char big[1000];\n  big[0] = n;\n  g(n + 1);\n}\nint main(void) { g(0); return 0; }',
      { kind: 'fault', message: /stack overflow: the 4096-byte C stack in MEM is full/, line: 4 },
      {},
      { stackBytes: 4096 },
    );
  });

  test('step budget exhausted (and the steps are consumed from services.budget)', async () => {
    await fails(
      'int main(void) {\n  int x = 0;\n  while (1) {\n    x++;\n  }\n}',
      { kind: 'budget', message: /step budget exhausted/, line: 3 },
      { steps: 5000 },
    );
    const f = fake({ steps: 1000 });
    (await build('int main(void) { int s = 0; for (int i = 0; i < 100; i++) s += i; return s; }')).run('main', [], f);
    assert.ok(f.budget.steps < 1000 - 100 && f.budget.steps > 0, `steps left ${f.budget.steps}`);
  });

  test('cancellation is seen within 65536 steps', async () => {
    let calls = 0;
    const fo = {
      builtins: {
        poke: (_a: number[]) => {
          calls++;
          return 0;
        },
      },
    };
    const prog = await build('int main(void) {\n  for (int i = 0; ; i++) {\n    if (i == 1000) poke();\n  }\n}');
    const f = fake(fo);
    f.builtin = (name, args, scope) => {
      if (name === 'poke') f.budget.cancelled = true;
      return fo.builtins.poke(args) ?? scope.process;
    };
    const before = f.budget.steps;
    assert.throws(
      () => prog.run('main', [], f),
      (e) => expectFault(e, { kind: 'cancelled', message: /cancelled/, line: 2 }),
    );
    assert.equal(calls, 1);
    assert.ok(before - f.budget.steps < 1000 * 3 + 65536 * 2, 'stopped promptly');
  });

  test('unsupported constructs raise not-simulated where they are reached, and are listed in problems', async () => {
    const src = 'int main(int go) {\n  int x = 0;\n  if (go) {\n    goto done;\n  }\n  x = 1;\ndone:\n  return x;\n}';
    const prog = await build(src);
    assert.deepEqual(
      prog.problems.map((p) => [p.kind, p.message, p.loc?.line]),
      [
        ['not-simulated', 'not simulated: goto statement', 4],
        ['not-simulated', 'not simulated: labeled statement (goto target)', 7],
      ],
    );
    const f = fake();
    assert.throws(
      () => prog.run('main', [1], f),
      (e) => expectFault(e, { kind: 'not-simulated', message: /^not simulated: goto statement$/, line: 4, column: 5, stack: ['main (t.m:4:5)'] }),
    );
    await fails('struct B { int a : 3; };\nint main(void) {\n  struct B b;\n  b.a = 1;\n  return 0;\n}', {
      kind: 'not-simulated',
      message: /not simulated: member access in a struct with bit-fields/,
      line: 4,
    });
  });

  test('a call without a C body that services.builtin does not know', async () => {
    await fails('int main(void) {\n  int r = 1;\n  r += ztaFancy(r, 2);\n  return r;\n}', {
      kind: 'not-simulated',
      message: /^not simulated: call to ztaFancy$/,
      line: 3,
      column: 8,
      stack: ['main (t.m:3:8)'],
    });
  });

  test('call through an invalid function pointer; unknown kernel', async () => {
    await fails('typedef int (*F)(int);\nint main(void) {\n  F f = (F)0x1234;\n  return f(1);\n}', {
      kind: 'fault',
      message: /invalid function pointer \(0x1234\)/,
      line: 4,
    });
    await fails(
      '#include <stdint.h>\nint main(void) {\n  uint32_t k = $nope::kernel;\n  return k;\n}',
      { kind: 'fault', message: /unknown kernel \$nope::kernel/, line: 3 },
      {},
      { kernelAddress: () => undefined },
    );
  });

  test('syntax errors: at file scope the compile fails; inside a function it fails when called', async () => {
    await assert.rejects(build('int x = ;\nint main(void) { return 0; }'), (e) => {
      assert.ok(e instanceof SimError);
      assert.equal(e.kind, 'compile');
      assert.equal(e.loc?.line, 1);
      return true;
    });
    const prog = await build('int ok(void) { return 3; }\nint bad(void) {\n  return 1 +* ;\n}');
    assert.equal(prog.problems.length, 1);
    assert.equal(prog.run('ok', [], fake()), 3);
    assert.throws(
      () => prog.run('bad', [], fake()),
      (e) => expectFault(e, { kind: 'compile', message: /syntax error/, line: 3 }),
    );
  });

  test('undeclared names are compile problems raised when reached', async () => {
    const prog = await build('int main(int a) {\n  if (a) return nosuch + 1;\n  return 2;\n}');
    assert.equal(prog.problems[0].message, "'nosuch' undeclared");
    assert.equal(prog.run('main', [0], fake()), 2);
    assert.throws(
      () => prog.run('main', [1], fake()),
      (e) => expectFault(e, { kind: 'compile', message: /'nosuch' undeclared/, line: 2, column: 17 }),
    );
  });

  test('a fault on hart 1 reports hart 1 call stack', async () => {
    const src =
      'static void h(void *p, int pid) {\n' +
      '  ztaTaskYield();\n' +
      '  if (pid == 1) {\n' +
      '    int z = 0;\n' +
      '    z = pid / z;\n' +
      '  }\n' +
      '}\n' +
      'int main(void) {\n' +
      '  ztaDualHartExecute(h, 0);\n' +
      '  return 0;\n' +
      '}';
    await fails(src, { kind: 'fault', message: /division by zero/, line: 5, stack: ['h (t.m:5:9)', 'main (t.m:9:3)'] });
  });

  test('errors thrown by services get the C location and stack', async () => {
    const src = 'void k(void) {\n  > EXE_LOCKSTEP(x::y, 8);\n}\nint main(void) {\n  k();\n  return 0;\n}';
    const prog = await build(src);
    const f = fake();
    f.tensor = () => {
      throw new SimError('engine says no');
    };
    assert.throws(
      () => prog.run('main', [], f),
      (e) => expectFault(e, { kind: 'fault', message: /engine says no/, line: 2, column: 3, stack: ['k (t.m:2:3)', 'main (t.m:5:3)'] }),
    );
  });
});
