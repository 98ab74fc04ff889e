/**
 * Real-VS-Code test of the values of a real run (issue 15, section 3): after Run Program, the inlay hint
 * of a transfer whose size is a run-time value and its `<=` hover show what it did the last time it ran.
 * examples/test/test.m: line 22 `MEM(req->output)[from:to] <= PCORE…` has no static size (from, to are
 * C locals); each process runs it once on its half of the 2,048-element buffer (pid 0 at step 6, pid 1 at
 * step 7), so the last run moved 1,024 elements, twice.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { languageBecomes, log, open } from './util';
import { hintLabel, hoverText, TPROG, type TestCase, waitFor } from './suite';

async function runValuesAfterRun(): Promise<void> {
  const uri = await open('examples/test/test.m');
  const doc = await languageBecomes(uri, TPROG);
  const line = 21;
  const hints = async () =>
    ((await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', uri, new vscode.Range(line, 0, line + 1, 0))) ?? [])
      .filter((h) => h.position.line === line)
      .map(hintLabel);
  const r = await vscode.commands.executeCommand<{ error: { message: string } | null }>('tensorLens.run', uri.toString());
  assert.equal(r?.error, null, r?.error?.message);
  // the records follow the run's result (the server's worker makes them after posting it)
  const shown = await waitFor('the run hint on line 22', async () => {
    const h = await hints();
    return h.length ? h : undefined;
  });
  assert.deepEqual(shown, ['⟨run: 1,024 elements⟩']);
  const pos = new vscode.Position(line, doc.lineAt(line).text.indexOf('<='));
  const md = hoverText((await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos)) ?? []);
  assert.match(md, /\*\*last run\*\* — ran 2 times; the last time \(trace step 7, pid 1\): \*\*1,024\*\* elements, 0 padded, 0 skipped/);
  // the static form stays above it
  assert.ok(md.indexOf('**transfer**') >= 0 && md.indexOf('**transfer**') < md.indexOf('**last run**'), md);
  log(`    (hint ${shown[0]})`);
}

export const TESTS: TestCase[] = [['after Run Program, a transfer sized at run time gets its run hint and its <= hover the last run', runValuesAfterRun]];
