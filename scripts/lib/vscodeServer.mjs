// Starts a real VS Code (the server bundled in code-server, installed by scripts/setup-vscode.mjs) on a
// free loopback port with private user-data, server-data and extensions folders, the packaged extension
// installed from a .vsix the way a user installs it. Used by `npm start` (scripts/start.mjs) and by the
// end-to-end scenarios (test/e2e/).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensureVSCode } from '../setup-vscode.mjs';

export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

export function writeJson(file, value) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

/** Polls `url` until it answers 200; `alive()` false (the server exited) or the timeout throws `makeError(message)`. */
export async function waitForHttp(url, timeoutMs, alive, makeError = (m) => new Error(m)) {
  const end = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < end) {
    if (!alive()) throw makeError('VS Code server exited during startup');
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
      last = `HTTP ${r.status}`;
    } catch (e) {
      last = e.message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw makeError(`VS Code server did not answer ${url} within ${timeoutMs / 1000} s (${last})`);
}

/** Settings of a quiet, offline workbench (no gallery, no telemetry, no welcome page). */
export function quietSettings(extra = {}) {
  return {
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'workbench.startupEditor': 'none',
    'workbench.enableExperiments': false,
    'workbench.tips.enabled': false,
    'git.enabled': false,
    'chat.disableAIFeatures': true,
    'security.workspace.trust.enabled': false,
    ...extra,
  };
}

/**
 * Installs `vsix` into fresh folders and starts VS Code's server. Returns `{ base, port, url(folder),
 * vs, dir, stop() }`. `log` receives the server's output lines; `settings` are the user settings.
 */
export async function startVSCodeServer({ vsix, settings = quietSettings(), logFile, port, keepState = false }) {
  const vs = await ensureVSCode();
  const dir = mkdtempSync(join(tmpdir(), 'tensor-lens-vscode-'));
  const U = join(dir, 'user-data');
  const S = join(dir, 'server-data');
  const E = join(dir, 'extensions');
  writeJson(join(S, 'data', 'Machine', 'settings.json'), settings);
  writeJson(join(U, 'User', 'settings.json'), settings);
  mkdirSync(E, { recursive: true });
  const env = { ...process.env, NODE_OPTIONS: '' };
  const inst = spawnSync(
    vs.node,
    [vs.serverMain, '--install-extension', vsix, '--extensions-dir', E, '--user-data-dir', U, '--server-data-dir', S, '--accept-server-license-terms'],
    { encoding: 'utf8', env },
  );
  if (inst.status !== 0 || !/successfully installed/.test(inst.stdout)) throw new Error(`installing ${vsix} failed: ${inst.stdout}${inst.stderr}`);
  port ??= await freePort();
  const base = `http://127.0.0.1:${port}`;
  const out = logFile ? createWriteStream(logFile) : undefined;
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
      '--user-data-dir',
      U,
      '--server-data-dir',
      S,
      '--extensions-dir',
      E,
      '--disable-telemetry',
      ...(settings['security.workspace.trust.enabled'] === false ? ['--disable-workspace-trust'] : []),
    ],
    { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  let exited = false;
  server.on('exit', () => {
    exited = true;
  });
  if (out) {
    server.stdout.pipe(out, { end: false });
    server.stderr.pipe(out, { end: false });
  } else {
    server.stdout.resume();
    server.stderr.resume();
  }
  const killGroup = (sig) => {
    try {
      process.kill(-server.pid, sig);
    } catch {
      /* gone */
    }
  };
  const onExit = () => killGroup('SIGKILL');
  process.on('exit', onExit);
  const stop = () =>
    new Promise((res) => {
      process.off('exit', onExit);
      const done = () => {
        out?.end();
        if (!keepState) rmSync(dir, { recursive: true, force: true });
        res();
      };
      if (exited) return done();
      const t = setTimeout(() => killGroup('SIGKILL'), 4000);
      server.once('exit', () => {
        clearTimeout(t);
        killGroup('SIGKILL');
        done();
      });
      killGroup('SIGTERM');
    });
  try {
    await waitForHttp(`${base}/version`, 60_000, () => !exited);
  } catch (e) {
    await stop();
    throw e;
  }
  return { base, port, vs, dir, server, stop, url: (folder) => `${base}/?folder=${encodeURIComponent(folder)}` };
}
