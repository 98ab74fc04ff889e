#!/usr/bin/env node
// Runs the integration suite (dist/test/vscode/index.js) inside a REAL VS Code, offline:
//   1. scripts/setup-vscode.mjs provides VS Code 1.139 (the server bundled in code-server), Node 24 and
//      Debian chromium, installed once per machine into a cache outside the repository;
//   2. VS Code's own server starts on a free loopback port with private user-data, server-data and
//      extensions folders under a temp dir (workspace trust off, so the extension is not restricted);
//   3. chromium (playwright-core, fresh profile) opens the workbench on this repository with a payload
//      naming extensionDevelopmentPath = the repo and extensionTestsPath = the suite; the workbench
//      (started with --enable-smoke-test-driver) runs the module in the Node extension host and calls
//      window.codeAutomationExit(0 | 1) when its run() resolves or rejects;
//   4. the in-host console output is forwarded here, a screenshot is saved under
//      test-artifacts/vscode/, and everything started is stopped.
// Exit status 0 only when run() resolved. The last line printed is `N passed, M failed`
// (`0 passed, 1 failed` when the harness itself failed).
//
// Usage: node scripts/test-vscode.mjs [--timeout SECONDS] [--headed] [--verbose]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureVSCode, SetupError } from './setup-vscode.mjs';
import { freePort, quietSettings, waitForHttp as waitForServer, writeJson } from './lib/vscodeServer.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TESTS_JS = join(REPO, 'dist', 'test', 'vscode', 'index.js');
const ARTIFACTS = join(REPO, 'test-artifacts', 'vscode');
const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 && argv[i + 1] ? argv[i + 1] : dflt; };
const TIMEOUT_S = Number(opt('--timeout', process.env.TENSOR_LENS_VSCODE_TIMEOUT ?? '180'));
const HEADED = argv.includes('--headed');
const VERBOSE = argv.includes('--verbose') || !!process.env.TENSOR_LENS_VSCODE_VERBOSE;
const SUMMARY = /^\s*(\d+) passed, (\d+) failed\s*$/;

const t0 = Date.now();
const say = (msg) => console.log(`[test-vscode] ${msg}`);
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

// Everything this run started, stopped in reverse order by cleanup().
const cleanups = [];
let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    for (const f of cleanups.reverse()) {
      let timer;
      try {
        await Promise.race([f(), new Promise((r) => { timer = setTimeout(r, 8000); })]);
      } catch { /* keep going */ } finally { clearTimeout(timer); }
    }
  })();
  return cleaning;
}
let signalled = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (signalled) process.exit(130); // a second signal: leave at once
    signalled = true;
    console.log(`[test-vscode] ${sig}: stopping`);
    setTimeout(() => process.exit(130), 10_000);
    void cleanup().then(() => { console.log('0 passed, 1 failed'); process.exit(130); });
  });
}

class HarnessError extends Error {}

/** The server answers `url` (a HarnessError that points at the server log otherwise). */
const waitForHttp = (url, timeoutMs, isAlive) =>
  waitForServer(url, timeoutMs, isAlive, (m) => new HarnessError(/exited/.test(m) ? `${m} (see test-artifacts/vscode/server.log)` : m));

/** Stops a process group started with detached: true (SIGTERM, then SIGKILL). */
function stopGroup(child, name) {
  return new Promise((res) => {
    if (child.exitCode !== null || child.signalCode !== null) { res(); return; }
    const kill = (sig) => { try { process.kill(-child.pid, sig); } catch { try { child.kill(sig); } catch { /* gone */ } } };
    const timer = setTimeout(() => { if (VERBOSE) say(`${name} did not stop on SIGTERM; SIGKILL`); kill('SIGKILL'); }, 4000);
    child.once('exit', () => { clearTimeout(timer); setTimeout(() => { kill('SIGKILL'); res(); }, 50); });
    kill('SIGTERM');
  });
}

async function main() {
  // ---- 0. the suite must be built (npm ci runs `prepare`, which builds)
  if (!existsSync(TESTS_JS) || !existsSync(join(REPO, 'dist', 'client', 'node.js')) || !existsSync(join(REPO, 'dist', 'server', 'node.js'))) {
    say('dist/ is incomplete: running `node scripts/build.mjs` …');
    const b = spawnSync(process.execPath, [join(REPO, 'scripts', 'build.mjs')], { cwd: REPO, stdio: 'inherit' });
    if (b.status !== 0 || !existsSync(TESTS_JS)) throw new HarnessError('the build failed; run `npm run build` and retry');
  }
  let chromiumLib;
  try {
    chromiumLib = (await import('playwright-core')).chromium;
  } catch (e) {
    throw new HarnessError(`playwright-core is not installed (npm ci): ${e.message}`);
  }

  // ---- 1. VS Code, Node 24 and chromium
  let vs;
  try {
    vs = await ensureVSCode();
  } catch (e) {
    throw new HarnessError(`VS Code setup failed: ${e instanceof SetupError ? e.message : (e?.stack ?? e)}`);
  }

  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'tensor-lens-vscode-'));
  if (process.env.TENSOR_LENS_KEEP_TMP) say(`keeping ${tmp} (TENSOR_LENS_KEEP_TMP)`);
  else cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  const U = join(tmp, 'user-data');
  const S = join(tmp, 'server-data');
  const E = join(tmp, 'extensions');
  const settings = quietSettings({ 'files.watcherExclude': { '**/node_modules/**': true, '**/dist/**': true } });
  writeJson(join(S, 'data', 'Machine', 'settings.json'), settings);
  writeJson(join(U, 'User', 'settings.json'), settings);
  mkdirSync(E, { recursive: true });

  // ---- 2. VS Code's server
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const serverLog = createWriteStream(join(ARTIFACTS, 'server.log'));
  const server = spawn(vs.node, [
    vs.serverMain,
    '--host', '127.0.0.1', '--port', String(port),
    '--without-connection-token', '--accept-server-license-terms', '--enable-smoke-test-driver',
    '--user-data-dir', U, '--server-data-dir', S, '--extensions-dir', E,
    '--disable-telemetry', '--disable-workspace-trust',
  ], {
    cwd: tmp,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  // Last resort (also on an early process.exit): the server's whole process group goes, synchronously.
  process.on('exit', () => { try { process.kill(-server.pid, 'SIGKILL'); } catch { /* already gone */ } });
  let serverExited = false;
  server.on('exit', (code, sig) => { serverExited = true; if (VERBOSE) say(`VS Code server exited (${sig ?? code})`); });
  server.stdout.pipe(serverLog, { end: false });
  server.stderr.pipe(serverLog, { end: false });
  if (VERBOSE) { server.stdout.pipe(process.stdout); server.stderr.pipe(process.stderr); }
  cleanups.push(() => stopGroup(server, 'VS Code server').then(() => new Promise((r) => serverLog.end(r))));
  say(`VS Code ${vs.vscodeVersion} server (Node ${spawnSync(vs.node, ['--version'], { encoding: 'utf8' }).stdout.trim()}) on ${base}, state in ${tmp}`);
  await waitForHttp(`${base}/version`, 60_000, () => !serverExited).catch(async (e) => {
    if (e instanceof HarnessError && /did not answer/.test(e.message)) await waitForHttp(`${base}/`, 5_000, () => !serverExited);
    else throw e;
  });
  say(`server ready after ${secs()}`);

  // ---- 3. chromium with a fresh profile
  const profile = join(tmp, 'chromium-profile');
  const context = await chromiumLib.launchPersistentContext(profile, {
    executablePath: vs.chromium,
    headless: !HEADED,
    handleSIGINT: false, // this script stops the browser itself, after the server, in cleanup()
    handleSIGTERM: false,
    handleSIGHUP: false,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
  cleanups.push(() => context.close());
  const page = context.pages()[0] ?? (await context.newPage());

  const hostLines = []; // the suite's output as forwarded by the workbench
  const workbenchLog = createWriteStream(join(ARTIFACTS, 'workbench.log'));
  cleanups.push(() => new Promise((r) => workbenchLog.end(r)));
  let sawCodeAutomationLog = false;
  // The suite tags each of its lines (test/vscode/index.ts); the workbench logs much else besides.
  const TAG = '[tensor-lens-suite] ';
  const NOISE = /manifest\.json|Failed to load resource|open-vsx\.org|ENOTFOUND|authentication provider 'github'|\[Service Worker\]|vsda|marketplace|gallery/i;
  const takeScreenshot = async (name) => {
    const f = join(ARTIFACTS, `${name}.png`);
    try {
      await page.screenshot({ path: f, timeout: 10_000 });
      say(`screenshot: ${f.slice(REPO.length + 1)}`);
    } catch (e) {
      say(`no screenshot ${name}: ${e.message.split('\n')[0]}`);
    }
  };
  const handle = (level, text) => {
    workbenchLog.write(`[${level}] ${text}\n`);
    let suite = false;
    for (const line of text.split('\n')) {
      const i = line.indexOf(TAG);
      if (i < 0) continue;
      suite = true;
      const l = line.slice(i + TAG.length);
      if (hostLines.length === 0) say(`the suite started after ${secs()}`);
      hostLines.push(l);
      const shot = /^@screenshot ([\w-]+)\s*$/.exec(l);
      if (shot) { void takeScreenshot(shot[1]); continue; }
      console.log(`  | ${l}`);
    }
    if (!suite && (VERBOSE || (level === 'error' && !NOISE.test(text)))) console.log(`  [workbench ${level}] ${text}`);
  };
  let resolveExit;
  const exited = new Promise((r) => { resolveExit = r; });
  await page.exposeFunction('codeAutomationLog', (level, message) => {
    sawCodeAutomationLog = true;
    handle(String(level), String(message));
  });
  await page.exposeFunction('codeAutomationExit', (code, logs) => {
    try {
      for (const l of Array.isArray(logs) ? logs : []) {
        if (!l?.relativePath) continue;
        const f = join(ARTIFACTS, 'logs', l.relativePath.replace(/\.\.(\/|\\)/g, ''));
        mkdirSync(dirname(f), { recursive: true });
        writeFileSync(f, l.contents ?? '');
      }
    } catch { /* logs are a bonus */ }
    resolveExit({ code });
  });
  page.on('console', (msg) => {
    // Only needed by workbenches without codeAutomationLog (they print the host's output here).
    if (sawCodeAutomationLog) { if (VERBOSE) console.log(`  [page ${msg.type()}] ${msg.text()}`); return; }
    handle(msg.type() === 'error' ? 'error' : 'info', msg.text());
  });
  page.on('pageerror', (e) => { if (VERBOSE) console.log(`  [page error] ${e.message}`); });
  page.on('crash', () => resolveExit({ harness: 'the browser page crashed' }));
  server.on('exit', (code, sig) => resolveExit({ harness: `the VS Code server exited (${sig ?? code}) before the suite finished` }));

  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(REPO)],
    ['extensionTestsPath', remote(TESTS_JS)],
  ];
  const url = `${base}/?folder=${encodeURIComponent(REPO)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  say(`opening the workbench on ${REPO} and running ${TESTS_JS.slice(REPO.length + 1)} …`);
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });

  // ---- 4. wait for the suite
  let timer;
  const result = await Promise.race([
    exited,
    new Promise((r) => { timer = setTimeout(() => r({ harness: `timed out after ${TIMEOUT_S} s waiting for the suite (codeAutomationExit)` }), TIMEOUT_S * 1000); }),
  ]);
  clearTimeout(timer);
  if (result.code !== undefined) say(`codeAutomationExit(${result.code}) after ${secs()}`);
  await takeScreenshot(result.code === 0 ? 'workbench-end' : 'workbench-end-failed');
  return { ...result, hostLines };
}

let exitCode = 1;
let last = '0 passed, 1 failed';
try {
  const r = await main();
  const summary = [...r.hostLines].reverse().find((l) => SUMMARY.test(l));
  if (r.harness) {
    say(`HARNESS FAILURE: ${r.harness}`);
  } else {
    if (!summary) say('the suite printed no `N passed, M failed` line (its output did not reach the harness)');
    if (r.code === 0) exitCode = 0;
    else say(`the suite failed: run() rejected (codeAutomationExit ${r.code})`);
    if (summary) last = summary.trim();
    else if (r.code === 0) last = '0 passed, 0 failed';
    if (r.code !== 0 && summary && SUMMARY.exec(summary)[2] === '0') last = summary.replace(/(\d+) failed/, '1 failed').trim();
  }
} catch (e) {
  say(`HARNESS FAILURE: ${e instanceof HarnessError ? e.message : (e?.stack ?? e)}`);
}
const tc = Date.now();
await cleanup();
if (VERBOSE) say(`cleanup took ${Date.now() - tc} ms`);
say(`finished in ${secs()} (exit ${exitCode})`);
console.log(last);
process.exit(exitCode);
