#!/usr/bin/env node
// `npm start`: checks the bundled examples with the CLI (the main job, as CI would run it), packages the
// extension (tensor-lens.vsix), installs it into a real VS Code (1.139, from code-server; installed once
// per machine into ~/.cache/tensor-lens by scripts/setup-vscode.mjs) and serves the examples/ workspace
// on http://127.0.0.1:PORT/ until stopped with Ctrl+C. Open the printed URL in a browser.
//
// Usage: node scripts/start.mjs [--port N] [--folder DIR] [--smoke]
//   --smoke   start, check the workbench answers with the extension installed, stop (used by CI)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVSCodeServer } from './lib/vscodeServer.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const SMOKE = argv.includes('--smoke');
const FOLDER = resolve(opt('--folder') ?? join(REPO, 'examples'));
const PORT = opt('--port') ? Number(opt('--port')) : Number(process.env.TENSOR_LENS_PORT ?? 0) || undefined;
const say = (m) => console.log(`[start] ${m}`);

function step(title, cmd, args) {
  say(title);
  const r = spawnSync(cmd, args, { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) {
    say(`${title}: failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

// 1. the main job: every bundled example checked by the CLI (examples/mistakes/ has errors on purpose)
step('checking the examples with the CLI (tensor-lens check --summary examples)', process.execPath, [
  join(REPO, 'bin', 'tensor-lens'),
  'check',
  '--summary',
  '--exit-zero',
  'examples',
]);
// 2. the packaged extension
step('packaging the extension (npm run package)', process.execPath, [join(REPO, 'scripts', 'package.mjs')]);
const vsix = join(REPO, 'tensor-lens.vsix');
if (!existsSync(vsix)) {
  say('tensor-lens.vsix was not written');
  process.exit(1);
}
// 3. a real VS Code with it installed, on the examples
say('starting VS Code (the first start installs it into ~/.cache/tensor-lens: a few minutes, once)');
let vscode;
try {
  vscode = await startVSCodeServer({ vsix, port: PORT });
} catch (e) {
  say(`VS Code did not start: ${e.message}`);
  process.exit(1);
}
const installed = readdirSync(join(vscode.dir, 'extensions')).filter((d) => d.startsWith('tensor-lens.'));
const url = vscode.url(FOLDER);
if (SMOKE) {
  const r = await fetch(url).catch((e) => ({ ok: false, status: e.message }));
  await vscode.stop();
  if (!r.ok || installed.length !== 1) {
    say(`smoke check failed: workbench ${r.status}, installed ${installed.join(', ') || 'nothing'}`);
    process.exit(1);
  }
  say(`smoke check passed: VS Code ${vscode.vs.vscodeVersion} served ${FOLDER} with ${installed[0]} installed`);
  process.exit(0);
}
say(`VS Code ${vscode.vs.vscodeVersion} with ${installed[0]} installed is serving ${FOLDER}`);
console.log(`\n    Open ${url}\n`);
say('Ctrl+C stops it.');
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    if (stopping) process.exit(130);
    stopping = true;
    say('stopping VS Code');
    await vscode.stop();
    process.exit(0);
  });
}
vscode.server.on('exit', (code, sig) => {
  if (stopping) return;
  say(`VS Code's server exited (${sig ?? code})`);
  process.exit(1);
});
