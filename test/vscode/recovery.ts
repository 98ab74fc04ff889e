/**
 * Real-VS-Code tests of the language server's crash recovery (client/src/serverHealth.ts): the server
 * process is killed (its pid from `tensorLens/serverStatus`), the client restarts it and reports it, and
 * diagnostics and hovers work again; after too many crashes it stays stopped until *Tensor Lens: Restart
 * Language Server*. index.ts runs these last (they kill the server).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SERVER_NODE_FLAGS } from '../../core/protocol/serverProcess';
import { file, languageBecomes, log, open, positionOf } from './util';
import { EXTENSION_ID, TPROG, type TestCase, codeOf, hoverText, waitFor } from './suite';

interface HealthEvent {
  kind: 'crashed' | 'restarted' | 'stopped' | 'init-failed';
  at: number;
  message: string;
}
interface Api {
  client: { sendRequest<R>(method: string): Promise<R>; isRunning(): boolean };
  serverHealth: { events: HealthEvent[] };
  statusItems(): { id: string; text: string; severity: string; command?: string }[];
}

const api = () => vscode.extensions.getExtension<Api>(EXTENSION_ID)!.exports;
const events = (kind: HealthEvent['kind'], since: number) => api().serverHealth.events.filter((e) => e.kind === kind && e.at >= since);

/**
 * The running server's pid (waits until the client is running and the server answers); the process
 * must have been started with the client's Node flags (SERVER_NODE_FLAGS), a restarted one too.
 */
async function serverPid(not?: number): Promise<number> {
  return waitFor(
    `a running language server${not ? ` other than pid ${not}` : ''}`,
    async () => {
      const a = api();
      if (!a.client.isRunning()) return undefined;
      const st = await a.client.sendRequest<{ pid?: number; execArgv?: string[] }>('tensorLens/serverStatus');
      assert.equal(typeof st.pid, 'number', 'tensorLens/serverStatus has no pid');
      if (st.pid === not) return undefined;
      for (const f of SERVER_NODE_FLAGS)
        assert.ok(st.execArgv?.includes(f), `the language server was started without ${f} (execArgv: ${JSON.stringify(st.execArgv)})`);
      return st.pid;
    },
    30_000,
    200,
  );
}

function kill(pid: number): void {
  process.kill(pid, 'SIGKILL');
  log(`    (killed the language server, pid ${pid})`);
}

/** A hover from the server on the first transfer of test.m. */
async function hoverWorks(what: string): Promise<void> {
  const uri = file('examples/test/test.m');
  const doc = await languageBecomes(uri, TPROG);
  const pos = positionOf(doc, /^\s*>.*<=/, '<=').translate(0, 1);
  await waitFor(
    `a hover ${what}`,
    async () => {
      const t = hoverText((await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos)) ?? []);
      return t.includes('**transfer**') ? t : undefined;
    },
    30_000,
    200,
  );
}

const PROGRAM =
  '#include <stdint.h>\n' +
  'static uint8_t buf[64];\n' +
  'void k(void) {\n' +
  '   uint32_t p = (uint32_t)&buf[0];\n' +
  '   > DTYPE(UINT8)MEM(p)[0:7] <= DTYPE(UINT8)MEM(p)[8:15];\n' +
  '}\n';

/** Removes the source's DTYPE in `doc` and waits for the server's "missing DTYPE" error. */
async function diagnosticsWork(doc: vscode.TextDocument, what: string): Promise<void> {
  const line = doc.lineAt(4);
  const at = line.text.lastIndexOf('DTYPE(UINT8)');
  const edit = new vscode.WorkspaceEdit();
  edit.delete(doc.uri, new vscode.Range(4, at, 4, at + 'DTYPE(UINT8)'.length));
  assert.ok(await vscode.workspace.applyEdit(edit));
  await waitFor(
    `the missing-DTYPE error ${what}`,
    () => (vscode.languages.getDiagnostics(doc.uri).some((d) => d.range.start.line === 4 && codeOf(d) === 'tprog.no-dtype') ? true : undefined),
    30_000,
    200,
  );
  // put it back for the next check
  const undo = new vscode.WorkspaceEdit();
  undo.insert(doc.uri, new vscode.Position(4, at), 'DTYPE(UINT8)');
  assert.ok(await vscode.workspace.applyEdit(undo));
  await waitFor(
    'the error to go away',
    () => (vscode.languages.getDiagnostics(doc.uri).some((d) => codeOf(d) === 'tprog.no-dtype') ? undefined : true),
    30_000,
    200,
  );
}

async function killedServerRestarts(): Promise<void> {
  await open('examples/test/test.m');
  const doc = await vscode.workspace.openTextDocument({ language: TPROG, content: PROGRAM });
  await vscode.window.showTextDocument(doc, { preview: false });
  await diagnosticsWork(doc, 'before the crash');
  const pid = await serverPid();
  const t0 = Date.now();
  kill(pid);
  const restarted = await waitFor('the restart to be reported', () => events('restarted', t0)[0], 30_000, 100);
  log(`    (restart reported ${restarted.at - t0} ms after the kill: "${restarted.message}")`);
  assert.ok(
    events('crashed', t0).some((e) => /stopped unexpectedly; restarting it/.test(e.message)),
    'the crash was not reported',
  );
  const again = await serverPid(pid);
  assert.notEqual(again, pid);
  await hoverWorks('after the restart');
  await diagnosticsWork(doc, 'after the restart');
  log(`    (hover and diagnostics back ${Date.now() - t0} ms after the kill)`);
}

async function tooManyCrashesStop(): Promise<void> {
  const t0 = Date.now();
  let pid: number | undefined;
  for (let i = 0; i < 8 && events('stopped', t0).length === 0; i++) {
    pid = await serverPid(pid);
    const crashes = api().serverHealth.events.length;
    kill(pid);
    await waitFor('the crash to be handled', () => (api().serverHealth.events.length > crashes ? true : undefined), 30_000, 100);
  }
  const stopped = events('stopped', t0)[0];
  assert.ok(stopped, 'the client never gave up restarting');
  assert.match(stopped.message, /crashed \d+ times in the last 3 minutes and was stopped/);
  assert.match(stopped.message, /Tensor Lens: Restart Language Server/);
  // it stays stopped
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(api().client.isRunning(), false, 'the server was restarted after the give-up');
  // the language status item says so, and its command is the restart (client/src/statusItem.ts)
  const serverItem = () =>
    api()
      .statusItems()
      .find((s) => s.id === 'tensorLens.server');
  assert.deepEqual([serverItem()?.text, serverItem()?.severity, serverItem()?.command], ['Tensor Lens: stopped', 'error', 'tensorLens.restartServer']);
  // the command brings it back
  await vscode.commands.executeCommand('tensorLens.restartServer');
  await serverPid(pid);
  await hoverWorks('after Restart Language Server');
  await waitFor('the status item to say ready again', () => (serverItem()?.text === 'Tensor Lens: ready' ? true : undefined));
  // and a crash after that is restarted again (a fresh allowance)
  const t1 = Date.now();
  kill(await serverPid());
  await waitFor('a restart after the manual restart', () => events('restarted', t1)[0], 30_000, 100);
  await hoverWorks('after the next crash');
}

export const TESTS: TestCase[] = [
  ['recovery: a killed language server is restarted and reported; diagnostics and hover work again', killedServerRestarts],
  ['recovery: after too many crashes the server stays stopped with a message; Restart Language Server brings it back', tooManyCrashesStop],
];
