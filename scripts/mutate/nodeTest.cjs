// What `node:test` is inside the in-process mutation test runner (scripts/mutate/runner.mjs): test, it, describe,
// before and after only record the tests of the file being loaded, so the runner can run them again for every mutant
// without starting a process. The unit tests use only these five (and plain `(t) => …` bodies).
'use strict';

/** Set by the runner while it imports one test file: { file, tests: [], suites: [], scopes: [[]] }. */
const registry = (globalThis.__mutateNodeTest ??= { sink: undefined });

function sink(what) {
  if (!registry.sink) throw new Error(`node:test ${what}() called outside a test file being loaded by the mutation runner`);
  return registry.sink;
}

/** node:test's (name?, options?, fn?) in any combination. */
function args(a, b, c) {
  const name = typeof a === 'string' ? a : (a?.name ?? '<anonymous>');
  const fn = [a, b, c].find((x) => typeof x === 'function');
  const options = [a, b].find((x) => x && typeof x === 'object') ?? {};
  return { name, fn, options };
}

function test(a, b, c) {
  const s = sink('test');
  const { name, fn, options } = args(a, b, c);
  if (options.skip || options.todo) throw new Error(`skipped or todo test '${name}': the suites allow none`);
  s.tests.push({ path: [...s.suites, name], fn: fn ?? (() => {}), befores: s.scopes.flat() });
}

function describe(a, b, c) {
  const s = sink('describe');
  const { name, fn } = args(a, b, c);
  s.suites.push(name);
  s.scopes.push([]);
  try {
    const r = fn?.();
    if (r && typeof r.then === 'function') throw new Error(`describe('${name}') with an async body is not supported by the mutation runner`);
  } finally {
    s.suites.pop();
    s.scopes.pop();
  }
}

/** A before hook runs once per process, before the first test of its scope that runs. */
function before(fn) {
  const s = sink('before');
  s.scopes[s.scopes.length - 1].push({ fn, done: false, error: undefined });
}

/** After hooks clean up temporary files: they run when the runner's process ends (see runner.mjs). */
function after(fn) {
  sink('after').afters.push(fn);
}

test.skip = () => sink('test.skip') && undefined;
module.exports = { test, it: test, describe, suite: describe, before, after, default: test };
