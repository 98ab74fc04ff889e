/**
 * Run and Debug read a program as the checker does: a header found only through the
 * `tensorLens.includePaths` setting (relative, from the workspace folder) runs with Run Program and
 * with the debugger, whose Debug Console gets the dumps.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type RunResult, file, log } from './util';
import { type TestCase, waitFor } from './suite';

const PROGRAM = 'test/fixtures/run-include/prog/inc.m';

async function withIncludePaths(paths: string[], body: () => Promise<void>): Promise<void> {
  const c = vscode.workspace.getConfiguration('tensorLens');
  await c.update('includePaths', paths, vscode.ConfigurationTarget.Global);
  try {
    await body();
  } finally {
    await c.update('includePaths', undefined, vscode.ConfigurationTarget.Global);
  }
}

async function runWithIncludePaths(): Promise<void> {
  const uri = file(PROGRAM);
  await withIncludePaths(['test/fixtures/run-include/include'], async () => {
    const r = await vscode.commands.executeCommand<RunResult>('tensorLens.run', uri.toString());
    assert.ok(r, 'tensorLens.run returned nothing');
    assert.equal(r.error, null, r.error?.message);
  });
}

async function debugWithIncludePaths(): Promise<void> {
  const uri = file(PROGRAM);
  let out = '';
  let ended = false;
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory('tensor-lens', {
    createDebugAdapterTracker: () => ({
      onDidSendMessage: (m: { type?: string; event?: string; body?: { output?: string } }) => {
        if (m.type === 'event' && m.event === 'output') out += m.body?.output ?? '';
      },
    }),
  });
  const ends = vscode.debug.onDidTerminateDebugSession((s) => {
    if (s.type === 'tensor-lens') ended = true;
  });
  try {
    await withIncludePaths(['test/fixtures/run-include/include'], async () => {
      const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], {
        type: 'tensor-lens',
        request: 'launch',
        name: 'include paths',
        program: uri.fsPath,
        trace: false,
        dump: ['MEM:r:1:i32'],
      });
      assert.ok(started, 'startDebugging returned false');
      await waitFor('the session to end', () => (ended ? true : undefined), 30_000);
    });
    log(`    (Debug Console: ${out.trim().split('\n').join(' | ')})`);
    assert.match(out, /MEM:r:i32 = 42/);
  } finally {
    tracker.dispose();
    ends.dispose();
  }
}

export const TESTS: TestCase[] = [
  ['Run Program reads a header through the tensorLens.includePaths setting', runWithIncludePaths],
  ['Debug reads a header through the tensorLens.includePaths setting', debugWithIncludePaths],
];
