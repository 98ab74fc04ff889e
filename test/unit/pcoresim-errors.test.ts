/**
 * PCORE kernel interpreter: every error path, with its kind, message, source location and PCORE call stack.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { AT, expectSimError, locOf, sim, type Sim } from '../fixtures/pcoresim/harness';
import type { SimError } from '../../core/sim/types';

const s: Sim = sim('errors.p');

function at(e: SimError, needle: string, nth = 0): void {
  const want = locOf(s.text, needle, nth);
  assert.deepEqual(e.loc, { file: 'errors.p', line: want.line, column: want.column }, `${e.message} @ ${JSON.stringify(e.loc)}`);
}

function frame(fn: string, needle: string, nth = 0): string {
  const l = locOf(s.text, needle, nth);
  return `${fn} (errors.p:${l.line}:${l.column})`;
}

describe('pcoresim errors: not simulated', () => {
  test('division by a non-constant', () => {
    const e = expectSimError(() => s.run('err::divide', { globals: [3, 0] }));
    assert.equal(e.kind, 'not-simulated');
    assert.match(e.message, /^not simulated: division/);
    at(e, 'n / d');
    assert.deepEqual(e.stack_, [frame('err::divide', 'n / d')]);
  });

  test('float2 variables', () => {
    const e = expectSimError(() => s.run('err::floaty'));
    assert.equal(e.kind, 'not-simulated');
    assert.match(e.message, /not simulated: `float2` variables/);
    at(e, 'f = 1');
  });

  test('unsupported intrinsic', () => {
    const e = expectSimError(() => s.run('err::fma'));
    assert.equal(e.kind, 'not-simulated');
    assert.match(e.message, /not simulated: intrinsic `FMA`/);
    at(e, 'FMA(v, v)');
  });

  test('relational operator on vectors', () => {
    const e = expectSimError(() => s.run('err::vcond'));
    assert.equal(e.kind, 'not-simulated');
    assert.match(e.message, /not simulated: relational operator `>` on vectors/);
    at(e, 'v > 0');
  });

  test('recursion, reported inside the helper with the PCORE call stack', () => {
    const e = expectSimError(() => s.run('err::recurse'));
    assert.equal(e.kind, 'not-simulated');
    assert.match(e.message, /not simulated: recursive call of `err::loop`/);
    at(e, 'loop(x - 1)');
    assert.deepEqual(e.stack_, [frame('err::loop', 'loop(x - 1)'), frame('err::recurse', 'loop(3)')]);
  });

  test('unsupported code that is not reached does not stop the kernel', () => {
    const v = s.off('err::v');
    const z = s.off('err::z');
    s.page.priv[v] = 41;
    s.run('err::lazy', { globals: [0, 0] });
    assert.equal(s.page.priv[z], 42);
    const e = expectSimError(() => s.run('err::lazy', { globals: [1, 0] }));
    assert.equal(e.kind, 'not-simulated');
    at(e, 'FMA(v, v)', 1);
  });
});

describe('pcoresim errors: compile', () => {
  test('undefined name', () => {
    const e = expectSimError(() => s.run('err::undefinedname'));
    assert.equal(e.kind, 'compile');
    assert.match(e.message, /undefined name `nosuch`/);
    at(e, 'nosuch');
  });
});

describe('pcoresim errors: faults', () => {
  test('vector pointer beyond the 4096-word shared space', () => {
    const e = expectSimError(() => s.run('err::sharedoob'));
    assert.equal(e.kind, 'fault');
    assert.match(e.message, /address out of range: shared vector at word 4808 .*\(PCORE 0, thread 0\)/);
    at(e, '*p = 1');
    assert.deepEqual(e.stack_, [frame('err::sharedoob', '*p = 1')]);
  });

  test('private word beyond the PCORE space (aliasing into other threads is allowed)', () => {
    s.page.priv.fill(0);
    const e = expectSimError(() => s.run('err::privoob'));
    assert.equal(e.kind, 'fault');
    assert.match(e.message, /private word at word 4018 of thread 1 .* \(PCORE 0, thread 1\)/);
    at(e, 'q[4000]');
    // thread 0 wrote word 18 + 4000, which is in thread 15's private words
    assert.equal(s.page.priv[4018], 1);
  });

  test('step budget exhausted in an endless loop', () => {
    const budget = { steps: 1001, cancelled: false };
    const e = expectSimError(() => s.run('err::forever', { budget }));
    assert.equal(e.kind, 'budget');
    assert.match(e.message, /step budget exhausted.*\(PCORE 0, thread 0\)/);
    assert.equal(budget.steps, 0);
    const lines = [locOf(s.text, 'while (1)').line, locOf(s.text, 'n++;').line];
    assert.ok(e.loc && lines.includes(e.loc.line), `line ${e.loc?.line}`);
  });

  test('cancellation is polled at least every 65536 steps', () => {
    let reads = 0;
    const budget = {
      steps: 1e9,
      get cancelled(): boolean {
        return reads++ > 0;
      },
    };
    const e = expectSimError(() => s.run('err::forever', { budget }));
    assert.equal(e.kind, 'cancelled');
    const used = 1e9 - budget.steps;
    assert.ok(used > 0 && used <= 65537, `used ${used}`);
  });

  test('cancelled before the launch', () => {
    const e = expectSimError(() => s.run('err::forever', { budget: { steps: 10, cancelled: true } }));
    assert.equal(e.kind, 'cancelled');
    assert.deepEqual(e.loc, AT);
  });

  test('negative shift count', () => {
    const e = expectSimError(() => s.run('err::negshift', { globals: [-1, 0] }));
    assert.equal(e.kind, 'fault');
    assert.match(e.message, /negative shift count/);
    at(e, 'v >> s');
  });

  test('accumulator index out of range', () => {
    s.run('err::accoob', { globals: [7, 0] }); // lanes 56..63: within the 64 accumulator lanes
    const e = expectSimError(() => s.run('err::accoob', { globals: [8, 0] }));
    assert.equal(e.kind, 'fault');
    assert.match(e.message, /accumulator index out of range: lane 64 of 64/);
    at(e, 'acc[k]');
  });

  test('local array index out of range', () => {
    const e = expectSimError(() => s.run('err::localoob', { globals: [2, 0] }));
    assert.equal(e.kind, 'fault');
    assert.match(e.message, /index out of range: word 16 of local `tmp` \(16 words\)/);
    at(e, 'tmp[k]');
  });

  test('fault in a helper: location in the helper, stack innermost first', () => {
    const e = expectSimError(() => s.run('err::deep', { globals: [4090, 0] }));
    assert.equal(e.kind, 'fault');
    assert.match(e.message, /private word at word 4108 of thread 0/);
    at(e, 'q[at]');
    assert.deepEqual(e.stack_, [frame('err::poke', 'q[at]'), frame('err::deep', 'poke(at)')]);
  });
});

describe('pcoresim errors: launch', () => {
  test('unknown kernel, helper launched as a kernel, bad counts, small page', () => {
    const cases: [() => unknown, RegExp][] = [
      [() => s.run('err::nope'), /unknown kernel `err::nope`/],
      [() => s.run('err::loop'), /`err::loop` is not a kernel/],
      [() => s.run('err::lazy', { np: 9 }), /invalid PCORE count 9/],
      [() => s.run('err::lazy', { nt: 0 }), /invalid thread count 0/],
      [() => s.run('err::lazy', { page: { priv: new Int16Array(4096), shared: new Int16Array(4096) } }), /page too small/],
    ];
    for (const [fn, re] of cases) {
      const e = expectSimError(fn);
      assert.equal(e.kind, 'fault');
      assert.match(e.message, re);
      assert.deepEqual(e.loc, AT);
    }
  });
});
