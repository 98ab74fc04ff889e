// The in-process test runner of `npm run mutate` (a Stryker plugin, "node-test-inproc"). Stryker's tap runner starts one
// `node --import tsx FILE` per test file and mutant, which on a shared 2-core machine means a few mutants a second at
// best. This runner imports each test file once per worker process (tsx and the node:test stand-in are loaded by
// --import, see register.mjs) and runs its recorded test functions again for every mutant, with the mutant switched on
// through Stryker's global (__stryker__.activeMutant). Coverage is per test, not per file, so a mutant runs only the
// tests that reached it.
//
// What it cannot see (documented in README "Mutation testing"): code that a test file runs at load time ran without the
// mutant (such mutants are "static" and ignored), and state a module caches across tests is shared between mutants of
// one worker, as with Stryker's mocha runner.
import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { PluginKind, commonTokens, declareClassPlugin, tokens } from '@stryker-mutator/api/plugin';
import { DryRunStatus, MutantRunStatus, TestStatus, determineHitLimitReached, toMutantRunResult } from '@stryker-mutator/api/test-runner';
import { INSTRUMENTER_CONSTANTS as ID } from '@stryker-mutator/api/core';

const registry = (globalThis.__mutateNodeTest ??= { sink: undefined });
const ns = () => (globalThis[ID.NAMESPACE] ??= {});

/** An error thrown asynchronously while a test runs is that test's failure. */
let stray;
process.on('uncaughtException', (e) => (stray ??= e));
process.on('unhandledRejection', (e) => (stray ??= e));

class InProcessNodeTestRunner {
  static inject = tokens(commonTokens.options);

  constructor(options) {
    this.patterns = options.testFiles ?? [];
    /** id → { id, file, name, fn, befores } in load order */
    this.tests = new Map();
    this.loaded = new Set();
    this.afters = [];
    process.once('exit', () => this.afters.forEach((fn) => fn()));
  }

  capabilities() {
    return { reloadEnvironment: false };
  }

  async init() {}

  async dispose() {
    for (const fn of this.afters.splice(0)) await fn();
  }

  async dryRun(options) {
    const files = options.testFiles ?? this.allFiles();
    const g = ns();
    g[ID.ACTIVE_MUTANT] = undefined;
    // created before any instrumented module loads: the coverage helper keeps this object
    if (options.coverageAnalysis !== 'off') g[ID.MUTATION_COVERAGE_OBJECT] ??= { static: {}, perTest: {} };
    try {
      for (const f of files) await this.load(f);
    } catch (e) {
      return { status: DryRunStatus.Error, errorMessage: String(e?.stack ?? e) };
    }
    const ids = [...this.tests.keys()];
    const results = await this.run(ids, { perTest: options.coverageAnalysis === 'perTest', bail: false });
    return {
      status: DryRunStatus.Complete,
      tests: results,
      mutantCoverage: options.coverageAnalysis === 'off' ? undefined : g[ID.MUTATION_COVERAGE_OBJECT],
    };
  }

  async mutantRun(options) {
    const g = ns();
    const ids = options.testFilter ?? (await this.loadAll());
    try {
      for (const id of ids) await this.load(resolve(id.split(' › ')[0]));
    } catch (e) {
      return { status: MutantRunStatus.Error, errorMessage: String(e?.stack ?? e) };
    }
    g[ID.ACTIVE_MUTANT] = options.activeMutant.id;
    g[ID.HIT_LIMIT] = options.hitLimit;
    g[ID.HIT_COUNT] = options.hitLimit === undefined ? undefined : 0;
    try {
      const results = await this.run(ids, { perTest: false, bail: !options.disableBail });
      const hit = determineHitLimitReached(g[ID.HIT_COUNT], g[ID.HIT_LIMIT]);
      return toMutantRunResult(hit ?? { status: DryRunStatus.Complete, tests: results });
    } finally {
      g[ID.ACTIVE_MUTANT] = undefined;
      g[ID.HIT_COUNT] = undefined;
      g[ID.HIT_LIMIT] = undefined;
    }
  }

  async run(ids, { perTest, bail }) {
    const g = ns();
    const results = [];
    for (const id of ids) {
      const t = this.tests.get(id);
      if (!t) {
        results.push({ id, name: id, status: TestStatus.Failed, failureMessage: `no test ${id} in this process`, timeSpentMs: 0 });
        if (bail) break;
        continue;
      }
      if (perTest) g[ID.CURRENT_TEST_ID] = id;
      const started = performance.now();
      let failure;
      stray = undefined;
      try {
        for (const h of t.befores) {
          if (!h.done) {
            h.done = true;
            try {
              await h.fn();
            } catch (e) {
              h.error = e;
            }
          }
          if (h.error) throw h.error;
        }
        await t.fn(context(t.name));
        // let a stray rejection of this test surface before the next one starts
        await new Promise((r) => setImmediate(r));
        if (stray) throw stray;
      } catch (e) {
        failure = e;
      } finally {
        if (perTest) g[ID.CURRENT_TEST_ID] = undefined;
      }
      const timeSpentMs = Math.round(performance.now() - started);
      const base = { id, name: id, fileName: t.file, timeSpentMs };
      results.push(failure ? { ...base, status: TestStatus.Failed, failureMessage: oneLine(failure) } : { ...base, status: TestStatus.Success });
      if (failure && bail) break;
    }
    return results;
  }

  /** Imports a test file once, recording its tests under ids "relative/path › suite › name". */
  async load(file) {
    if (this.loaded.has(file)) return;
    this.loaded.add(file);
    const rel = relative(process.cwd(), file).split('\\').join('/');
    const sink = { file: rel, tests: [], suites: [], scopes: [[]], afters: this.afters };
    registry.sink = sink;
    try {
      await import(pathToFileURL(file).href);
    } finally {
      registry.sink = undefined;
    }
    for (const t of sink.tests) {
      let id = [rel, ...t.path].join(' › ');
      for (let n = 2; this.tests.has(id); n++) id = `${[rel, ...t.path].join(' › ')} #${n}`;
      this.tests.set(id, { id, file: rel, name: t.path.join(' › '), fn: t.fn, befores: t.befores });
    }
  }

  async loadAll() {
    for (const f of this.allFiles()) await this.load(f);
    return [...this.tests.keys()];
  }

  /** The test files of the patterns (a `*` in the file name only, as stryker.config.mjs writes them). */
  allFiles() {
    return this.patterns.flatMap((p) => {
      if (!p.includes('*')) return [resolve(p)];
      const dir = dirname(p);
      const re = new RegExp(
        '^' +
          p
            .slice(dir.length + 1)
            .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '.*') +
          '$',
      );
      return readdirSync(dir)
        .filter((n) => re.test(n))
        .sort()
        .map((n) => resolve(join(dir, n)));
    });
  }
}

/** The little of node:test's TestContext the unit tests may touch. */
function context(name) {
  return { name, diagnostic() {}, plan() {}, skip() {}, todo() {}, signal: new AbortController().signal };
}

function oneLine(e) {
  return String(e?.message ?? e)
    .split('\n')
    .slice(0, 3)
    .join(' ');
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'node-test-inproc', InProcessNodeTestRunner)];
