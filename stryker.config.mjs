// StrykerJS configuration for `npm run mutate` (scripts/mutate.mjs). On demand only, never in CI: a run of the four
// modules takes tens of minutes on 2 cores.
//
// The unit tests are node:test files run through tsx. Our runner (scripts/mutate/runner.mjs, "node-test-inproc")
// imports each test file once per worker and runs its tests again for every mutant, with per-test coverage: a mutant
// runs only the tests that reached it and stops at the first that fails. Stryker's tap runner (`npm run mutate --
// --runner tap`) starts one process per test file and mutant instead: exact for load-time code, but about ten times
// slower here.
//
// Each module lists the test files that exercise it, so the initial (coverage) run stays short. The fuzz suites
// (fuzz.test.ts, pcore-robustness.test.ts) are left out: they assert "no crash", not answers, and would be run for
// every mutant they reach. layout-properties.test.ts is in (last): its properties are answers (forwardMany = forward,
// inverse ∘ forward = identity, every byte accounted for), on random specs — a mutant it kills is a real failure, but
// which mutants it kills may vary from run to run.

/**
 * The modules whose answers users rely on: name → files to mutate and the test files that exercise them, fast and
 * targeted files first (a mutant's tests run in this order).
 */
export const modules = {
  csf: {
    mutate: ['core/csf/**/*.ts', '!core/csf/index.ts'],
    tests: [
      'test/unit/mutant-csf*.test.ts',
      'test/unit/csf-codec.test.ts',
      'test/unit/csf-validate.test.ts',
      'test/unit/csf-counts.test.ts',
      'test/unit/csf-npy.test.ts',
      'test/unit/csf-memory.test.ts',
      'test/unit/csf-contract.test.ts',
      'test/unit/csf-cli.test.ts',
      'test/unit/layout-csf*.test.ts',
      'test/unit/common-npy.test.ts',
      'test/unit/inspect-export.test.ts',
      'test/unit/inspect-host.test.ts',
      // any other csf test (csf-slice, and those to come)
      'test/unit/csf-*.test.ts',
    ],
  },
  layout: {
    mutate: ['core/layout/models/**/*.ts', '!core/layout/models/*/index.ts'],
    tests: [
      'test/unit/mutant-layout*.test.ts',
      'test/unit/layout-tt.test.ts',
      'test/unit/layout-tt-batch.test.ts',
      'test/unit/layout-spyre.test.ts',
      'test/unit/layout-spyre-sticks.test.ts',
      'test/unit/layout-cells.test.ts',
      'test/unit/layout-cells-batch.test.ts',
      'test/unit/layout-csf.test.ts',
      'test/unit/layout-sparse-batch.test.ts',
      'test/unit/layout-strided-views.test.ts',
      'test/unit/layout-cli.test.ts',
      'test/unit/layout-language.test.ts',
      // last (slowest): forwardMany against forward, inverse ∘ forward, byte accounting on random specs
      'test/unit/layout-properties.test.ts',
    ],
  },
  check: {
    mutate: ['core/tprog/check.ts', 'core/tprog/check[A-Z]*.ts'],
    tests: [
      'test/unit/mutant-check*.test.ts',
      'test/unit/tprog-ztachip-mistakes.test.ts',
      'test/unit/tprog-diagnostics.test.ts',
      'test/unit/tprog-realworld.test.ts',
      'test/unit/tprog-guide-tables.test.ts',
      'test/unit/tprog-incremental.test.ts',
    ],
  },
  engine: {
    mutate: ['core/sim/engine/**/*.ts'],
    tests: [
      'test/unit/mutant-engine*.test.ts',
      'test/unit/sim-stepped.test.ts',
      'test/unit/sim-convert.test.ts',
      'test/unit/sim-exec-stepped.test.ts',
      'test/unit/sim-unchecked.test.ts',
      'test/unit/sim-transfer-bounds.test.ts',
      'test/unit/sim-walk.test.ts',
      'test/unit/sim-statement-records.test.ts',
      'test/unit/sim-registers.test.ts',
      'test/unit/statementRuns.test.ts',
      'test/unit/sim-transfer.test.ts',
      'test/unit/sim-statements.test.ts',
      'test/unit/sim-hw-bounds.test.ts',
      'test/unit/sim-guide.test.ts',
      'test/unit/sim-remap.test.ts',
      'test/unit/sim-spaces.test.ts',
      'test/unit/sim-qconv.test.ts',
      'test/unit/sim-run.test.ts',
      'test/unit/host-kernel.test.ts',
      'test/unit/sim-runs.test.ts',
      'test/unit/engine-hardening.test.ts',
    ],
  },
};

/** Options shared by every module; scripts/mutate.mjs adds mutate, the test files and the report paths per module. */
export const base = {
  testRunner: 'node-test-inproc',
  testRunnerNodeArgs: ['--import', 'tsx', '--import', new URL('./scripts/mutate/register.mjs', import.meta.url).href],
  coverageAnalysis: 'perTest',
  // for --runner tap
  tap: {
    nodeArgs: ['--test-reporter=tap', '--import', 'tsx', '-r', '{{hookFile}}', '{{testFile}}'],
    forceBail: true,
  },
  // The machine has 2 cores shared with other developers.
  concurrency: 2,
  // tsx type-strips without checking; a mutant that would not type-check still runs (and is usually killed).
  disableTypeChecks: true,
  // A busy shared machine: a mutant is a timeout only well past its covering tests' normal time.
  timeoutMS: 5000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 10,
  // Only what the unit tests read is copied into the sandbox (node_modules is linked).
  ignorePatterns: [
    'dist',
    'out',
    'docs',
    'media',
    'test-artifacts',
    '.vscode-test',
    '.vscode-test-web',
    '.chromium-profile',
    '.prof',
    '*.vsix',
    'reports',
    '.stryker-tmp*',
  ],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // Message wording (StringLiteral) is left out: about a sixth of all mutants, and the texts users read are pinned by
  // the diagnostics and CLI tests. Mutants run only at module load (tables built once) are ignored: each one would
  // need fresh processes for every test file.
  mutator: { excludedMutations: ['StringLiteral'] },
  ignoreStatic: true,
  appendPlugins: ['./scripts/mutate/runner.mjs', './scripts/mutate/live.mjs'],
  reporters: ['html', 'json', 'progress', 'live-survivors'],
  thresholds: { high: 90, low: 80 },
  fileLogLevel: 'off',
  logLevel: 'info',
};

/**
 * Stryker's own testFiles keeps the order given (the tap runner's glob does not); the tap runner still wants its list
 * for the runs that have no coverage to go by.
 */
export function testFiles(patterns) {
  const files = [...new Set(patterns)];
  return { testFiles: files, tap: { ...structuredClone(base.tap), testFiles: files } };
}

/** `npx stryker run` without the script: all four modules in one run. */
// (copies: Stryker fills its defaults into the options objects it is given)
export default {
  ...structuredClone(base),
  mutate: Object.values(modules).flatMap((m) => m.mutate),
  ...testFiles(Object.values(modules).flatMap((m) => m.tests)),
  htmlReporter: { fileName: 'reports/mutation/all.html' },
  jsonReporter: { fileName: 'reports/mutation/all.json' },
  incremental: true,
  incrementalFile: 'reports/mutation/all.incremental.json',
};
