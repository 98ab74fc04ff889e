/**
 * TensorExecutor.run (core/sim/engine/execute.ts) on the statements besides transfers, where mutation testing found
 * answers no test pinned: which statements make a trace step and with what text and place, PRINT and CALLBACK
 * setting the `_global` slots, statements refused for a syntax error, the units of included tensor programs, where a
 * fault is reported (the term at fault, else the statement) and with which C stack, the step budget and
 * cancellation. Expected steps are written out by hand from the program text (lines and columns counted in it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import { analyzeTprog } from '../../core/tprog/analyze';
import { SimError } from '../../core/sim/types';
import { bare, harness, plain, type Harness } from './helpers/mutant-engine-execute';

/** The error `f` throws, as [message, kind, location as "line:column", C stack]. */
function failure(f: () => void): [string, string, string | undefined, string[]] {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof SimError, String(e));
    return [e.message, e.kind, e.loc && `${e.loc.line}:${e.loc.column}`, e.stack_];
  }
  assert.fail('no error');
}

const STACK = ['f (/t/x.m:1:1)'];

/** Where each step is and what it ran, as "file:line text". */
const placed = (h: Harness) => h.steps.map((s) => `${s.file}:${s.line} ${s.text}`);

/** The error of running unit `i`, which is no unit. */
const noUnit = (h: Harness, i: number) =>
  assert.deepEqual(
    failure(() => h.ex.run(i, h.scope())),
    [`internal: no tensor statement #${i}`, 'fault', undefined, []],
  );

test('NOP, VAR and EXPORT make no step; BARRIER, LOG_ON/OFF, PRINT and CALLBACK make one each, with their own text and place', () => {
  const a = analyze(
    [
      'void f(int x) {',
      '> NOP;',
      '> VAR $a;',
      '> EXPORT(x);',
      '> BARRIER;',
      // two statements in one `>` buffer: each step has its own text and column
      '> LOG_ON; LOG_OFF;',
      '> PRINT(x + 1,',
      '>       -5);',
      '> CALLBACK(9, x);',
      '}',
      '',
    ].join('\n'),
  );
  const h = harness(a);
  a.units.forEach((_, i) => h.ex.run(i, h.scope({ x: 40 })));
  assert.deepEqual(plain(h.steps), [
    bare(0, 'barrier', 5, 3, 'BARRIER'),
    bare(1, 'log_on', 6, 3, 'LOG_ON'),
    // "> LOG_ON; " is 10 characters: LOG_OFF starts at column 11
    bare(2, 'log_off', 6, 11, 'LOG_OFF'),
    // a statement over two `>` lines ends on the second; its text is the joined buffer's
    bare(3, 'print', 7, 3, 'PRINT(x + 1,-5)', { endLine: 8 }),
    bare(4, 'callback', 9, 3, 'CALLBACK(9, x)'),
  ]);
  assert.deepEqual(h.printed, ['PRINT 41 -5\n']);
  // CALLBACK overwrote the slots PRINT set: (function, parameter) = (9, x)
  assert.deepEqual(h.m.globals, [9, 40]);
  assert.deepEqual(h.callbacks, [[9, 40]]);
  // one budget step per statement that ran, with a step or not: 8 statements
  assert.equal(h.budget.steps, 1e6 - 8);
  assert.equal(h.ex.bytesMoved, 0);
});

test('a unit with a syntax error runs none of its statements; one with only a warning runs', () => {
  const a = analyze(['void f(int x) {', '> BARRIER; DTYPE(INT16)MEM(x)[0:3] <= ;', '> ;', '> BARRIER;', '}', ''].join('\n'));
  const h = harness(a);
  // the problem's place: "> BARRIER; DTYPE(INT16)MEM(x)[0:3] <= " is 38 characters, the missing term at column 39
  assert.deepEqual(
    failure(() => h.ex.run(0, h.scope())),
    ['cannot run a statement with a syntax error: Syntax error: a term is missing here', 'compile', '2:39', STACK],
  );
  // a unit with no statement at all is placed through the unit itself
  assert.deepEqual(
    failure(() => h.ex.run(1, h.scope())),
    [
      'cannot run a statement with a syntax error: Syntax error: not a tensor statement ' +
        '(expected a transfer `A <= B`, `$v := term`, EXE_LOCKSTEP, BARRIER, ...)',
      'compile',
      '3:3',
      STACK,
    ],
  );
  assert.deepEqual(h.steps, []);
  // a problem that is not an error does not stop the statement
  a.units[2].parsed.problems.push({ span: { start: 0, end: 1 }, code: 'test.warning', message: 'w', severity: 'warning' });
  h.ex.run(2, h.scope());
  assert.deepEqual(plain(h.steps), [bare(0, 'barrier', 4, 3, 'BARRIER')]);
  noUnit(h, 3);
});

test('units of an included tensor program follow the program own, numbered from its base, placed in its file', () => {
  const a = analyze('void f(void) {\n> BARRIER;\n}\n');
  const k = analyzeTprog('void g(int y) {\n\n> PRINT(y, 2);\n> LOG_ON;\n}\n', { file: '/t/k.m', dialect: 'auto' });
  // the kernel file's two units are numbers 1 and 2 right after the program's one unit ...
  const h = harness(a, { included: [{ a: k, base: 1 }] });
  for (const i of [0, 1, 2]) h.ex.run(i, h.scope({ y: 3 }));
  assert.deepEqual(placed(h), ['/t/x.m:2 BARRIER', '/t/k.m:3 PRINT(y, 2)', '/t/k.m:4 LOG_ON']);
  noUnit(h, 3);
  // ... or 20 and 21 after a gap: 1 and 19 are no unit, 22 is past the end
  const g = harness(a, { included: [{ a: k, base: 20 }] });
  for (const i of [1, 19, 22]) noUnit(g, i);
  g.ex.run(21, g.scope());
  g.ex.run(20, g.scope({ y: 3 }));
  assert.deepEqual(placed(g), ['/t/k.m:4 LOG_ON', '/t/k.m:3 PRINT(y, 2)']);
  assert.deepEqual(g.printed, ['PRINT 3 2\n']);
});

test('a fault of one side is placed at that term, any other at the statement; a stack of its own is kept', () => {
  const a = analyze(
    'void f(int p, int q) {\n> DTYPE(INT16)MEM(p)[0:3] <= DTYPE(INT16)MEM(q)[0:3];\n> EXE_LOCKSTEP(t::k, 2);\n}\n',
    '_kernel_ void t::k(void) { }\n',
  );
  const kernelAt = { file: '/t/x.p', line: 1, column: 10 };
  const h = harness(a, {
    laneOps: 0,
    onLaunch: () => {
      throw new SimError('kernel fault', kernelAt, ['t::k (/t/x.p:1:10)']);
    },
  });
  // MEM is 65536 bytes: 4 INT16 elements at 0xfffe reach 0x10005
  assert.deepEqual(
    failure(() => h.ex.run(0, h.scope({ p: 0xfffe, q: 0 }))),
    ['destination bytes 0xfffe..0x10005 are outside MEM (size 65536 bytes)', 'fault', '2:3', STACK],
  );
  // the source term starts after "> DTYPE(INT16)MEM(p)[0:3] <= ": column 30
  assert.deepEqual(
    failure(() => h.ex.run(0, h.scope({ p: 0, q: 0xfffe }))),
    ['source bytes 0xfffe..0x10005 are outside MEM (size 65536 bytes)', 'fault', '2:30', STACK],
  );
  assert.deepEqual(
    failure(() => h.ex.run(1, h.scope())),
    ['kernel fault', 'fault', '1:10', ['t::k (/t/x.p:1:10)']],
  );
  // the launch was asked with the statement's place
  assert.deepEqual(h.launches, [{ kernel: 't::k', process: 0, numPcore: 2, numThread: 16, at: { file: '/t/x.m', line: 3, column: 3 } }]);
  // a statement that is no one side's: at the statement (DTYPE(5) is no data type)
  const b = analyze('void f(int p, int d) {\n> DTYPE(INT16)MEM(p)[0:3] <= DTYPE(d)MEM(p)[4:7];\n}\n');
  const hb = harness(b);
  assert.deepEqual(
    failure(() => hb.ex.run(0, hb.scope({ p: 0, d: 5 }))),
    ['DTYPE(d) is 5, not a data type code (INT16=3, INT8=2, UINT8=4)', 'fault', '2:3', STACK],
  );
});

test('every statement spends one budget step, checked before it runs; a cancelled run stops at the next statement', () => {
  const a = analyze('void f(void) {\n> NOP;\n> BARRIER;\n}\n');
  const h = harness(a, { steps: 2 });
  h.ex.run(0, h.scope());
  h.ex.run(1, h.scope());
  assert.equal(h.budget.steps, 0);
  assert.deepEqual(
    failure(() => h.ex.run(1, h.scope())),
    ['step budget exhausted (raise the step budget setting)', 'budget', '3:3', STACK],
  );
  assert.equal(h.steps.length, 1);
  const c = harness(a);
  c.budget.cancelled = true;
  assert.deepEqual(
    failure(() => c.ex.run(1, c.scope())),
    ['run cancelled', 'cancelled', '3:3', STACK],
  );
  assert.deepEqual(c.steps, []);
});

test("an error that is not the simulator's passes through unchanged; a step has no hostChanged or register field it does not need", () => {
  const a = analyze('void f(int p) {\n> DTYPE(INT16)MEM(p)[0:1] <= INT16(1);\n> BARRIER;\n}\n');
  const h = harness(a);
  const boom = new Error('host evaluation failed');
  const sc = h.scope();
  assert.throws(
    () =>
      h.ex.run(0, {
        ...sc,
        eval: () => {
          throw boom;
        },
      }),
    (e) => e === boom && !('loc' in boom),
  );
  h.ex.run(1, sc);
  assert.deepEqual(Object.keys(h.steps[0]).sort(), [
    'changed',
    'column',
    'elements',
    'endLine',
    'file',
    'kernel',
    'kind',
    'laneOps',
    'line',
    'padded',
    'process',
    'read',
    'skipped',
    'step',
    'text',
    'written',
  ]);
});

test('several included programs: each unit number finds its own program, in whatever order they are listed', () => {
  const a = analyze('void f(void) {\n> BARRIER;\n}\n');
  const k1 = analyzeTprog('void g(void) {\n> LOG_ON;\n}\n', { file: '/t/k1.m', dialect: 'auto' });
  const k2 = analyzeTprog('void h(void) {\n> LOG_OFF;\n> NOP;\n> BARRIER;\n}\n', { file: '/t/k2.m', dialect: 'auto' });
  // k1 is unit 1, k2 units 2..4: listed in order, then in reverse
  for (const included of [
    [
      { a: k1, base: 1 },
      { a: k2, base: 2 },
    ],
    [
      { a: k2, base: 2 },
      { a: k1, base: 1 },
    ],
  ]) {
    const h = harness(a, { included });
    for (const i of [1, 2, 3, 4]) h.ex.run(i, h.scope());
    assert.deepEqual(placed(h), ['/t/k1.m:2 LOG_ON', '/t/k2.m:2 LOG_OFF', '/t/k2.m:4 BARRIER']);
    noUnit(h, 5);
  }
});
