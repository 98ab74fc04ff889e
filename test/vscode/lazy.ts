/**
 * Real-VS-Code tests of the lazy start (client/src/lazyStart.ts), the language status items
 * (client/src/statusItem.ts) and the settings per resource (server/src/settings.ts, package.json
 * `scope`). index.ts runs these FIRST: the window must not have opened any document of ours yet, so that
 * an Objective-C file is the first thing the extension sees. They also log the idle memory (resident set
 * of the extension host and of the server process) before and after a document is adopted.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { file, languageBecomes, liveDoc, log, open } from './util';
import { EXTENSION_ID, TPROG, type TestCase, codeOf, sleep, waitFor } from './suite';

interface Snapshot {
  id: string;
  text: string;
  detail?: string;
  severity: string;
  busy: boolean;
  command?: string;
}
interface Api {
  client: { isRunning(): boolean };
  serverStartedBecause(): string | undefined;
  statusItems(): Snapshot[];
}

const ext = () => vscode.extensions.getExtension<Api>(EXTENSION_ID)!;
async function api(): Promise<Api> {
  return ext().isActive ? ext().exports : ext().activate();
}

/** Language-server processes this extension host started (their parent is this process; desktop: dist/server/node.js over IPC). */
function serverProcesses(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // field 4 of /proc/PID/stat is the parent; the command name (field 2) may hold spaces, so split after its ')'
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (cmd.some((a) => a.endsWith('dist/server/node.js'))) pids.push(Number(name));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return pids;
}

/** Resident set of a process in MB (/proc/PID/status VmRSS). */
function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return Math.round(kb / 102.4) / 10;
}

const item = (a: Api, id: string) => a.statusItems().find((s) => s.id === id);

async function objectiveCDoesNotStartServer(): Promise<void> {
  const a = await api();
  assert.equal(a.serverStartedBecause(), undefined, `the server was started before anything was opened: ${a.serverStartedBecause()}`);
  const plain = await open('test/vscode/fixtures/plain.m');
  // adoption is decided asynchronously (it may look for a same-named .p): give it time, then nothing may have started
  await sleep(1500);
  assert.notEqual(liveDoc(plain)?.languageId, TPROG, 'plain.m was adopted');
  assert.equal(a.serverStartedBecause(), undefined, `opening plain.m started the server: ${a.serverStartedBecause()}`);
  assert.equal(a.client.isRunning(), false);
  assert.deepEqual(serverProcesses(), [], 'a language server process runs');
  assert.equal(item(a, 'tensorLens.server')?.text, 'Tensor Lens: not started');
  log(`    (idle, no server: extension host RSS ${rssMb(process.pid)} MB; plain.m is ${liveDoc(plain)?.languageId})`);
}

async function adoptedMStartsServerAndShowsStatus(): Promise<void> {
  const a = await api();
  const uri = await open('examples/test/test.m');
  await languageBecomes(uri, TPROG);
  const why = await waitFor('the server to start', () => a.serverStartedBecause());
  assert.match(why, /^test\.m is open as tensor-program$/);
  const doc = await waitFor('the document status item of test.m', () => {
    const s = item(a, 'tensorLens.document');
    return s && !s.busy && s.text !== 'not checked yet' ? s : undefined;
  });
  // test.m writes MEM and DTYPE (the compiler's constructs) and test.p sits beside it
  assert.equal(doc.text, 'ztachip dialect · test.p');
  assert.equal(doc.detail, 'dialect detected from its statements (tensorLens.dialect: auto)');
  assert.equal(doc.command, 'vscode.open');
  const server = await waitFor('the server item to say ready', () =>
    item(a, 'tensorLens.server')?.text === 'Tensor Lens: ready' ? item(a, 'tensorLens.server') : undefined,
  );
  assert.equal(server.severity, 'information');
  assert.equal(server.command, 'tensorLens.showOutput');
  const pids = serverProcesses();
  assert.equal(pids.length, 1, `expected one server process, found ${pids.join(', ') || 'none'}`);
  // let the first check settle before reading the idle figure
  await sleep(2000);
  log(`    (one adopted .m: server pid ${pids[0]} RSS ${rssMb(pids[0])} MB, extension host RSS ${rssMb(process.pid)} MB)`);
}

async function layoutStatus(): Promise<void> {
  const a = await api();
  const uri = await open('examples/layouts/spyre.tlayout');
  await languageBecomes(uri, 'tensor-layout');
  // spyre.tlayout declares 7 tensors: act, padded, w, cols, sparse, printed, odd
  const s = await waitFor('the layout spec status item', () =>
    item(a, 'tensorLens.document')?.text.startsWith('Layout spec') ? item(a, 'tensorLens.document') : undefined,
  );
  assert.equal(s.text, 'Layout spec · 7 tensors');
  assert.equal(s.command, 'tensorLens.openLayoutMap');
}

async function settingsPerResource(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suite needs the repository as a workspace folder');
  // the repository is the workspace: its folder settings go to .vscode/settings.json, removed again if the test made it
  const settingsDir = file('.vscode').fsPath;
  const hadSettingsDir = existsSync(settingsDir);
  const uri = await open('test/vscode/fixtures/settings/prog/inc.m');
  await languageBecomes(uri, TPROG);
  const unknownN = () =>
    vscode.languages
      .getDiagnostics(uri)
      .filter((d) => codeOf(d) === 'tprog.unknown-name' && d.range.start.line === 3)
      .map((d) => d.range.start.character);
  // without an include path size.h is not found: N is unknown at both terms
  assert.deepEqual(await waitFor('N unknown in inc.m', () => (unknownN().length ? unknownN() : undefined)), [23, 52]);
  const folderConfig = () => vscode.workspace.getConfiguration('tensorLens', folder.uri);
  try {
    // a resource setting can be written for one folder (VS Code refuses that for a window setting)
    await folderConfig().update('includePaths', ['test/vscode/fixtures/settings/include'], vscode.ConfigurationTarget.WorkspaceFolder);
    await assert.rejects(Promise.resolve(folderConfig().update('trace.server', 'verbose', vscode.ConfigurationTarget.WorkspaceFolder)), /folder/i);
    assert.deepEqual(vscode.workspace.getConfiguration('tensorLens', uri).get('includePaths'), ['test/vscode/fixtures/settings/include']);
    // the server pulls the folder's value (relative to the folder) and checks again: N is declared
    await waitFor('N declared once the folder has the include path', () => (unknownN().length === 0 ? true : undefined), 20_000);
  } finally {
    await folderConfig().update('includePaths', undefined, vscode.ConfigurationTarget.WorkspaceFolder);
    if (!hadSettingsDir) rmSync(settingsDir, { recursive: true, force: true });
  }
  assert.deepEqual(await waitFor('N unknown again', () => (unknownN().length ? unknownN() : undefined), 20_000), [23, 52]);
}

/** VS Code substitutes package.nls.json into the manifest it loads: titles and setting texts are the English strings, not `%key%`. */
async function manifestStringsSubstituted(): Promise<void> {
  const pkg = ext().packageJSON as {
    displayName: string;
    contributes: { commands: { command: string; title: string }[]; configuration: { properties: Record<string, { markdownDescription?: string }> } };
  };
  assert.equal(pkg.displayName, 'Tensor Lens');
  assert.equal(pkg.contributes.commands.find((c) => c.command === 'tensorLens.run')?.title, 'Run Program');
  assert.equal(pkg.contributes.commands.find((c) => c.command === 'tensorLens.showOutput')?.title, 'Show Output');
  assert.match(
    pkg.contributes.configuration.properties['tensorLens.includePaths'].markdownDescription ?? '',
    /^Extra folders searched for `#include "\.\.\."` headers/,
  );
}

export const TESTS: TestCase[] = [
  ['lazy start: opening an Objective-C file does not start the language server (no process)', objectiveCDoesNotStartServer],
  ['lazy start: an adopted .m starts it; the status items show the dialect, the .p and the server ready', adoptedMStartsServerAndShowsStatus],
  ['the status item of a .tlayout counts its tensors', layoutStatus],
  ['settings per resource: a folder include path reaches the checker through the pull model', settingsPerResource],
  ['the manifest VS Code loaded has the strings of package.nls.json', manifestStringsSubstituted],
];
