// `npm test`: type check, lint, build, then every suite through real parts — unit tests of core/,
// language-server tests over stdio, grammar tests, webview tests in Chromium and the integration
// suite in a real VS Code. Prints one closing line `N passed, M failed` over all suites. A test suite
// is FAILED when it exits non-zero, ran no tests, or (node:test) reports cancelled, skipped or todo
// tests; its line `=== NAME: …` gives the counts.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';

/** Node 20's --test does not expand globs: list `dir/*<suffix>` ourselves. */
const files = (dir, suffix = '.test.ts') =>
  readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => `${dir}/${f}`);

const only = process.argv.slice(2);
const node = process.execPath;
const steps = [
  { name: 'typecheck', cmd: node, args: ['node_modules/typescript/bin/tsc', '-p', '.', '--noEmit'] },
  { name: 'lint', cmd: node, args: ['node_modules/eslint/bin/eslint.js', '.'] },
  { name: 'format', cmd: node, args: ['node_modules/prettier/bin/prettier.cjs', '--check', '**/*.{ts,mjs}'] },
  { name: 'build', cmd: node, args: ['scripts/build.mjs'] },
  {
    name: 'unit+lsp',
    cmd: node,
    args: ['--import', 'tsx', '--test', '--test-reporter=spec', ...files('test/unit'), ...files('test/lsp'), ...files('test/dap')],
    counted: 'node',
  },
  { name: 'webview', cmd: node, args: ['--import', 'tsx', '--test', '--test-reporter=spec', ...files('test/webview')], counted: 'node' },
  { name: 'grammar', cmd: node, args: ['scripts/test-grammar.mjs'], counted: 'plain' },
  { name: 'vscode', cmd: node, args: ['scripts/test-vscode.mjs'], counted: 'plain' },
  { name: 'vscode-web', cmd: node, args: ['scripts/test-vscode-web.mjs'], counted: 'plain' },
  { name: 'e2e', cmd: node, args: ['--import', 'tsx', '--test', '--test-reporter=spec', 'test/e2e/scenarios.test.ts'], counted: 'node' },
];

function run(step) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    console.log(`\n=== ${step.name} ===`);
    const child = spawn(step.cmd, step.args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('close', (code) => {
      const r = { step, code, passed: 0, failed: 0, problems: [] };
      if (step.counted === 'node') {
        // node:test's closing summary: `ℹ tests N`, `ℹ pass N`, … (spec reporter) or `# tests N`, … (TAP)
        const tests = figure(out, 'tests');
        r.passed = figure(out, 'pass') ?? 0;
        r.skipped = figure(out, 'skipped') ?? 0;
        r.todo = figure(out, 'todo') ?? 0;
        r.cancelled = figure(out, 'cancelled') ?? 0;
        // a cancelled test did not pass: it counts as failed
        r.failed = (figure(out, 'fail') ?? 0) + r.cancelled;
        if (tests === undefined) r.problems.push('no node:test summary');
        else if (tests === 0) r.problems.push('ran no tests');
        if (r.cancelled) r.problems.push(`${r.cancelled} cancelled`);
        // a skipped or todo test checks nothing: the suite is not green until it runs for real
        if (r.skipped) r.problems.push(`${r.skipped} skipped`);
        if (r.todo) r.problems.push(`${r.todo} todo`);
      } else if (step.counted === 'plain') {
        const m = [...out.matchAll(/^(?:\w+: )?(\d+) passed, (\d+) failed/gm)].pop();
        if (m) [r.passed, r.failed] = [Number(m[1]), Number(m[2])];
        if (!m) r.problems.push('no "N passed, M failed" line');
        else if (r.passed + r.failed === 0) r.problems.push('ran no tests');
      }
      if (code !== 0) r.problems.unshift(`exit ${code}`);
      // a suite that failed without a failing test (crash, nothing ran, skipped tests) still counts once
      if (r.problems.length && r.failed === 0) r.failed = 1;
      const counts = step.counted
        ? ` (${r.passed} passed, ${r.failed} failed` + (step.counted === 'node' ? `, ${r.skipped} skipped, ${r.todo} todo, ${r.cancelled} cancelled` : '') + ')'
        : '';
      console.log(`=== ${step.name}: ${verdict(r)} in ${((Date.now() - t0) / 1000).toFixed(1)} s${counts}`);
      resolve(r);
    });
  });
}

/** The last `ℹ KEY N` / `# KEY N` line of a node:test summary, or undefined. */
function figure(out, key) {
  const m = [...out.matchAll(new RegExp(`^(?:ℹ|#) ${key} (\\d+)\\s*$`, 'gm'))].pop();
  return m ? Number(m[1]) : undefined;
}

const verdict = (r) => (r.problems.length ? `FAILED (${r.problems.join(', ')})` : 'ok');

const results = [];
for (const step of steps) {
  if (only.length && !only.includes(step.name)) continue;
  results.push(await run(step));
}
const passed = results.reduce((s, r) => s + r.passed, 0);
const failed = results.reduce((s, r) => s + r.failed, 0);
const bad = results.filter((r) => r.problems.length);
console.log(`\nsuites: ${results.map((r) => `${r.step.name} ${verdict(r)}`).join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(bad.length ? 1 : 0);
