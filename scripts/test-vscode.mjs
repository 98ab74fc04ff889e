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
import { HarnessError, createHarness, launchChromium, runHarness, suiteOutput, waitForSuite } from './lib/suiteHarness.mjs';
import { freePort, quietSettings, waitForHttp as waitForServer, writeJson } from './lib/vscodeServer.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TESTS_JS = join(REPO, 'dist', 'test', 'vscode', 'index.js');
const ARTIFACTS = join(REPO, 'test-artifacts', 'vscode');
const h = createHarness({ name: 'test-vscode', timeoutEnv: 'TENSOR_LENS_VSCODE_TIMEOUT', defaultTimeoutS: 180, repo: REPO });
const { say, secs } = h;

/** The server answers `url` (a HarnessError that points at the server log otherwise). */
const waitForHttp = (url, timeoutMs, isAlive) =>
  waitForServer(url, timeoutMs, isAlive, (m) => new HarnessError(/exited/.test(m) ? `${m} (see test-artifacts/vscode/server.log)` : m));

/** Stops a process group started with detached: true (SIGTERM, then SIGKILL). */
function stopGroup(child, name) {
  return new Promise((res) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      res();
      return;
    }
    const kill = (sig) => {
      try {
        process.kill(-child.pid, sig);
      } catch {
        try {
          child.kill(sig);
        } catch {
          /* gone */
        }
      }
    };
    const timer = setTimeout(() => {
      if (h.verbose) say(`${name} did not stop on SIGTERM; SIGKILL`);
      kill('SIGKILL');
    }, 4000);
    child.once('exit', () => {
      clearTimeout(timer);
      setTimeout(() => {
        kill('SIGKILL');
        res();
      }, 50);
    });
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
  else h.onCleanup(() => rmSync(tmp, { recursive: true, force: true }));
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
  const server = spawn(
    vs.node,
    [
      vs.serverMain,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      '--enable-smoke-test-driver',
      '--user-data-dir',
      U,
      '--server-data-dir',
      S,
      '--extensions-dir',
      E,
      '--disable-telemetry',
      '--disable-workspace-trust',
    ],
    {
      cwd: tmp,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  // Last resort (also on an early process.exit): the server's whole process group goes, synchronously.
  process.on('exit', () => {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  });
  let serverExited = false;
  server.on('exit', (code, sig) => {
    serverExited = true;
    if (h.verbose) say(`VS Code server exited (${sig ?? code})`);
  });
  server.stdout.pipe(serverLog, { end: false });
  server.stderr.pipe(serverLog, { end: false });
  if (h.verbose) {
    server.stdout.pipe(process.stdout);
    server.stderr.pipe(process.stderr);
  }
  h.onCleanup(() => stopGroup(server, 'VS Code server').then(() => new Promise((r) => serverLog.end(r))));
  say(`VS Code ${vs.vscodeVersion} server (Node ${spawnSync(vs.node, ['--version'], { encoding: 'utf8' }).stdout.trim()}) on ${base}, state in ${tmp}`);
  await waitForHttp(`${base}/version`, 60_000, () => !serverExited).catch(async (e) => {
    if (e instanceof HarnessError && /did not answer/.test(e.message)) await waitForHttp(`${base}/`, 5_000, () => !serverExited);
    else throw e;
  });
  say(`server ready after ${secs()}`);

  // ---- 3. chromium with a fresh profile
  const profile = join(tmp, 'chromium-profile');
  const { page } = await launchChromium(h, chromiumLib, { executablePath: vs.chromium, profile });

  const workbenchLog = createWriteStream(join(ARTIFACTS, 'workbench.log'));
  h.onCleanup(() => new Promise((r) => workbenchLog.end(r)));
  let sawCodeAutomationLog = false;
  // The suite tags each of its lines (test/vscode/index.ts); the workbench logs much else besides.
  const TAG = '[tensor-lens-suite] ';
  const NOISE = /manifest\.json|Failed to load resource|open-vsx\.org|ENOTFOUND|authentication provider 'github'|\[Service Worker\]|vsda|marketplace|gallery/i;
  const { hostLines, take, screenshot } = suiteOutput(h, {
    page,
    artifacts: ARTIFACTS,
    parse: (line) => {
      const i = line.indexOf(TAG);
      return i < 0 ? undefined : { text: line.slice(i + TAG.length) };
    },
  });
  const handle = (level, text) => {
    workbenchLog.write(`[${level}] ${text}\n`);
    const suite = take(text);
    if (!suite && (h.verbose || (level === 'error' && !NOISE.test(text)))) console.log(`  [workbench ${level}] ${text}`);
  };
  let resolveExit;
  const exited = new Promise((r) => {
    resolveExit = r;
  });
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
    } catch {
      /* logs are a bonus */
    }
    resolveExit({ code });
  });
  page.on('console', (msg) => {
    // Only needed by workbenches without codeAutomationLog (they print the host's output here).
    if (sawCodeAutomationLog) {
      if (h.verbose) console.log(`  [page ${msg.type()}] ${msg.text()}`);
      return;
    }
    handle(msg.type() === 'error' ? 'error' : 'info', msg.text());
  });
  page.on('pageerror', (e) => {
    if (h.verbose) console.log(`  [page error] ${e.message}`);
  });
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
  const result = await waitForSuite(h, exited, screenshot);
  return { ...result, hostLines };
}

await runHarness(h, main);
