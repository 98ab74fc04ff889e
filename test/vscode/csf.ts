/** Real-VS-Code tests of the .csfbin viewer (issue 5); index.ts runs them after the foundation tests. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { file, log } from './util';
import { waitFor, type TestCase } from './suite';

const VIEW_TYPE = 'tensorLens.csfbin';
const FIXTURE = 'examples/sparse/matrix.csfbin';

const allTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);

interface ViewerState {
  uri: string;
  size: number;
  source?: string;
  header?: { order: number; shape: number[]; nnz: number; fibers: number };
  rows: number;
  served: Record<string, number>;
  validation: { state: string; ok?: boolean; problems: { code: string; offset?: number }[] };
}

async function viewerOf(uri: vscode.Uri, what: string, ok: (s: ViewerState) => boolean): Promise<ViewerState> {
  return waitFor(what, async () => {
    const states = (await vscode.commands.executeCommand<ViewerState[]>('tensorLens.csfbin.debugState')) ?? [];
    const s = states.find((x) => x.uri === uri.toString());
    return s && ok(s) ? s : undefined;
  });
}

async function opensInCustomEditor(): Promise<void> {
  const uri = file(FIXTURE);
  await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE, { preview: false, preserveFocus: false });
  const tab = await waitFor(`a ${VIEW_TYPE} tab for ${FIXTURE}`, () =>
    allTabs().find((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === VIEW_TYPE && t.input.uri.toString() === uri.toString()),
  );
  assert.equal(tab.label, 'matrix.csfbin');
  // the webview really loaded: it said hello and asked for the fiber table and the bytes
  const s = await viewerOf(
    uri,
    'the viewer webview to ask for its pages and the validation to finish',
    (x) => (x.served['csf.hello'] ?? 0) > 0 && (x.served['csf.rows'] ?? 0) > 0 && (x.served['csf.hex'] ?? 0) > 0 && x.validation.state === 'done',
  );
  assert.deepEqual(s.header, { order: 2, shape: [2, 3], nnz: 3, fibers: 2, density: 0.5 });
  assert.equal(s.size, 56);
  assert.equal(s.source, 'positioned reads', 'a local file in the Node extension host is read lazily');
  assert.equal(s.rows, 5, '2 fiber rows + 3 entry rows');
  assert.equal(s.validation.ok, true);
  log(`    (viewer requests: ${JSON.stringify(s.served)})`);
}

async function corruptFileProblems(): Promise<void> {
  const uri = file('examples/sparse/unsorted.csfbin');
  await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE, { preview: false, preserveFocus: false });
  const s = await viewerOf(uri, 'the validation of unsorted.csfbin', (x) => x.validation.state === 'done' && (x.served['csf.hello'] ?? 0) > 0);
  assert.equal(s.validation.ok, false);
  assert.deepEqual(
    s.validation.problems.map((p) => [p.code, p.offset]),
    [['csf.unsorted-index', 32]],
  );
}

async function showInAcceleratorMemory(): Promise<void> {
  const uri = file(FIXTURE);
  await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE, { preview: false, preserveFocus: false });
  const title = await vscode.commands.executeCommand<string | undefined>('tensorLens.csfbin.showInMemory', uri);
  assert.equal(title, 'Accelerator memory: matrix.csfbin');
  const tab = await waitFor('the memory inspector panel on the accelerator memory', () =>
    allTabs().find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('tensorLens.inspector') && t.label === title),
  );
  assert.ok(tab);
  // what the inspector renders: the main-memory bank, entry 0 = (index 1, 1.5), entry 1 = (0, -2.0)
  const dump = await waitFor('the inspector to render the main-memory bank', async () => {
    const d = await vscode.commands.executeCommand<{ space: string; complete: boolean; rows: { addr: string; hex: string }[] } | undefined>(
      'tensorLens.inspector.debugState',
      title,
    );
    return d && d.complete && d.rows.length > 0 ? d : undefined;
  });
  assert.equal(dump.space, 'csf:main');
  assert.match(dump.rows[0].hex.replace(/\s+/g, ''), /^010000000000c03f00000000000000c0/i);
  // leave the workbench as we found it: close the viewers and this inspector panel
  const mine = allTabs().filter((t) => (t.input instanceof vscode.TabInputCustom && t.input.viewType === VIEW_TYPE) || t === tab);
  await vscode.window.tabGroups.close(mine);
}

export const TESTS: TestCase[] = [
  ['csfbin: opens in the read-only custom editor, whose webview pages through the file', opensInCustomEditor],
  ['csfbin: a corrupt file is validated in the background with the problem at its byte offset', corruptFileProblems],
  ['csfbin: "Show in accelerator memory" opens the memory inspector on the two banks', showInAcceleratorMemory],
];
