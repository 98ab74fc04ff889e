/**
 * Real-VS-Code tests of what the workbench does around a debug session of a program whose memory
 * inspector is open (issue 17 item 9): the program stays one editor (no second copy in the inspector's
 * group), and every call stack VS Code loads at a stop is whole at once (the Call Stack view offers
 * "Load More Stack Frames" while a thread's loaded frames are fewer than its totalFrames).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { languageBecomes, log, open } from './util';
import { TPROG, type TestCase, sleep, waitFor } from './suite';

/** Text tabs of `uri` over every editor group, and those of another file of the same name (a copy opened by a path that is not the editor's). */
function tabsOf(uri: vscode.Uri): { group: number; uri: string }[] {
  const name = uri.path.split('/').pop();
  return vscode.window.tabGroups.all.flatMap((g) =>
    g.tabs
      .filter((t) => t.input instanceof vscode.TabInputText && (t.input.uri.toString() === uri.toString() || t.label === name))
      .map((t) => ({ group: g.viewColumn, uri: (t.input as vscode.TabInputText).uri.toString() })),
  );
}

const inspectorGroup = (): number | undefined =>
  vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.label.startsWith('Memory: test.m')))?.viewColumn;

interface Exchange {
  seq: number;
  threadId: number;
  levels?: number;
  frames?: number;
  total?: number;
  paths?: (string | undefined)[];
}

/**
 * Runs examples/test/test.m (its inspector opens beside it), puts the focus in the inspector, then debugs
 * it — by its absolute path, or relative to the workspace folder as a launch.json may give it — with a
 * breakpoint on the store of line 22 in do_add (called by kernel_test through ztaDualHartExecute: two
 * frames), which stops on pid 0 and then on pid 1.
 */
async function debugWithInspectorOpen(relative: boolean): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const uri = await open('examples/test/test.m');
  await languageBecomes(uri, TPROG);
  const run = await vscode.commands.executeCommand<{ error: { message: string } | null }>('tensorLens.run', uri.toString());
  assert.equal(run?.error, null, run?.error?.message);
  const panelGroup = await waitFor('the inspector panel beside the program', () => inspectorGroup(), 30_000, 200);
  const programGroup = tabsOf(uri)[0]?.group;
  assert.ok(programGroup !== undefined && programGroup !== panelGroup, `program in group ${programGroup}, inspector in ${panelGroup}`);
  // the user looks at memory: the inspector's group is the active one when the program stops
  assert.equal(await vscode.commands.executeCommand<boolean>('tensorLens.openMemoryInspector'), true);
  await waitFor('the inspector group to be active', () => (vscode.window.tabGroups.activeTabGroup.viewColumn === panelGroup ? true : undefined), 10_000, 100);

  const exchanges: Exchange[] = [];
  let ended = false;
  const stops: { reason: string; threadId: number }[] = [];
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory('tensor-lens', {
    createDebugAdapterTracker: () => ({
      onWillReceiveMessage: (m: { type?: string; command?: string; seq: number; arguments?: { threadId: number; levels?: number } }) => {
        if (m.type === 'request' && m.command === 'stackTrace' && m.arguments)
          exchanges.push({ seq: m.seq, threadId: m.arguments.threadId, levels: m.arguments.levels });
      },
      onDidSendMessage: (m: {
        type?: string;
        event?: string;
        command?: string;
        request_seq?: number;
        body?: { reason: string; threadId: number; stackFrames?: { source?: { path?: string } }[]; totalFrames?: number };
      }) => {
        if (m.type === 'event' && m.event === 'stopped' && m.body) stops.push(m.body);
        if (m.type === 'event' && m.event === 'terminated') ended = true;
        if (m.type === 'response' && m.command === 'stackTrace') {
          const x = exchanges.find((e) => e.seq === m.request_seq);
          if (x)
            Object.assign(x, { frames: m.body?.stackFrames?.length ?? 0, total: m.body?.totalFrames, paths: m.body?.stackFrames?.map((f) => f.source?.path) });
        }
      },
    }),
  });
  const bp = new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(21, 0)));
  vscode.debug.addBreakpoints([bp]);
  try {
    const program = relative ? 'examples/test/test.m' : uri.fsPath;
    const launch = { type: 'tensor-lens', request: 'launch', name: 'debug test.m (editors)', program, entry: 'kernel_test', trace: false };
    const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], launch);
    assert.ok(started, 'startDebugging returned false');
    for (const [k, thread] of [
      [0, 1],
      [1, 2],
    ]) {
      const stop = await waitFor(`stop ${k} (pid ${thread - 1})`, () => stops[k], 30_000);
      assert.deepEqual([stop.reason, stop.threadId], ['breakpoint', thread]);
      // VS Code loads the stopped thread's stack and reveals its top frame; the inspector follows the stop
      const asked = await waitFor(
        `VS Code's call stack of thread ${thread}`,
        () => exchanges.find((e) => e.threadId === thread && e.total !== undefined),
        15_000,
        100,
      );
      await sleep(1500);
      log(`    (stop ${k}: stackTrace ${JSON.stringify(exchanges.filter((e) => e.threadId === thread))}; tabs ${JSON.stringify(tabsOf(uri))})`);
      // do_add and kernel_test: the first answer holds both, so nothing is left to "load more"
      assert.equal(asked.total, 2);
      assert.equal(asked.frames, asked.total, `the first stackTrace answer of thread ${thread} holds every frame`);
      assert.deepEqual(asked.paths, [uri.fsPath, uri.fsPath], 'the frames name the file the editor has open');
      assert.deepEqual(tabsOf(uri), [{ group: programGroup, uri: uri.toString() }], 'the program stays one editor, in its own group');
      exchanges.length = 0;
      if (k === 0) await vscode.debug.activeDebugSession!.customRequest('continue', { threadId: 1 });
    }
    vscode.debug.removeBreakpoints([bp]);
    await vscode.debug.activeDebugSession?.customRequest('continue', { threadId: 2 });
    await waitFor('the session to end', () => (ended ? true : undefined), 30_000);
  } finally {
    vscode.debug.removeBreakpoints([bp]);
    tracker.dispose();
    if (!ended && vscode.debug.activeDebugSession?.type === 'tensor-lens') await vscode.debug.stopDebugging(vscode.debug.activeDebugSession);
  }
}

export const TESTS: TestCase[] = [
  [
    'debugging with the inspector open and active: the program stays one editor, and each stop loads its whole call stack at once',
    () => debugWithInspectorOpen(false),
  ],
  ['the same with the program relative to the workspace folder (launch.json): frames name the open file, no second copy', () => debugWithInspectorOpen(true)],
];
