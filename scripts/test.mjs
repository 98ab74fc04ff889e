// `npm test`: type check, lint, build, then every suite through real parts — unit tests of core/,
// language-server tests over stdio, grammar tests, webview tests in Chromium and the integration
// suite in a real VS Code. Prints one closing line `N passed, M failed` over all suites.
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
      let passed = 0;
      let failed = 0;
      if (step.counted === 'node') {
        passed = Number(/^ℹ pass (\d+)/m.exec(out)?.[1] ?? /^# pass (\d+)/m.exec(out)?.[1] ?? 0);
        failed = Number(/^ℹ fail (\d+)/m.exec(out)?.[1] ?? /^# fail (\d+)/m.exec(out)?.[1] ?? 0);
      } else if (step.counted === 'plain') {
        const m = [...out.matchAll(/^(?:\w+: )?(\d+) passed, (\d+) failed/gm)].pop();
        if (m) [passed, failed] = [Number(m[1]), Number(m[2])];
      }
      if (code !== 0 && failed === 0) failed = 1;
      console.log(`=== ${step.name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      resolve({ step, code, passed, failed });
    });
  });
}

const results = [];
for (const step of steps) {
  if (only.length && !only.includes(step.name)) continue;
  results.push(await run(step));
}
const passed = results.reduce((s, r) => s + r.passed, 0);
const failed = results.reduce((s, r) => s + r.failed, 0);
const bad = results.filter((r) => r.code !== 0).map((r) => r.step.name);
console.log(`\nsuites: ${results.map((r) => `${r.step.name} ${r.code === 0 ? 'ok' : 'FAILED'}`).join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(bad.length ? 1 : 0);
