/** Real-VS-Code tests of the debugger (issue 7); index.ts runs them after the foundation tests. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TPROG, type TestCase, languageBecomes, log, open, waitFor } from './util';

interface Frame {
  id: number;
  name: string;
  line: number;
}
interface Var {
  name: string;
  value: string;
  variablesReference: number;
}

/**
 * F5 on examples/test/test.m with a breakpoint on `req.input = ...` (line 29): the session stops
 * there on pid 0, the Variables request shows the globals filled by the loop above (inbuf[i] =
 * i − 1000) and the local struct, and the program then runs to its end.
 */
async function breakpointStopsAndVariables(): Promise<void> {
  const uri = await open('examples/test/test.m');
  await languageBecomes(uri, TPROG);
  const bp = new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(28, 0)));
  vscode.debug.addBreakpoints([bp]);
  const stops: { reason: string; threadId: number }[] = [];
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory('tensor-lens', {
    createDebugAdapterTracker: () => ({
      onDidSendMessage: (m: { type?: string; event?: string; body?: { reason: string; threadId: number } }) => {
        if (m.type === 'event' && m.event === 'stopped' && m.body) stops.push(m.body);
      },
    }),
  });
  let ended = false;
  const ends = vscode.debug.onDidTerminateDebugSession((s) => {
    if (s.type === 'tensor-lens') ended = true;
  });
  try {
    const t0 = Date.now();
    const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], { type: 'tensor-lens', request: 'launch', name: 'debug test.m', program: uri.fsPath, entry: 'kernel_test', trace: false });
    assert.ok(started, 'startDebugging returned false');
    const stop = await waitFor('the breakpoint to be hit', () => stops[0], 30_000);
    log(`    (stopped after ${Date.now() - t0} ms: ${stop.reason} on thread ${stop.threadId})`);
    assert.deepEqual([stop.reason, stop.threadId], ['breakpoint', 1]);
    const session = vscode.debug.activeDebugSession;
    assert.ok(session && session.type === 'tensor-lens', 'no active tensor-lens session');
    const st = (await session.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: Frame[] };
    assert.deepEqual(st.stackFrames.map((f) => [f.name, f.line]), [['kernel_test', 29]]);
    const sc = (await session.customRequest('scopes', { frameId: st.stackFrames[0].id })) as { scopes: { name: string; variablesReference: number }[] };
    const ref = (name: string) => sc.scopes.find((s) => s.name === name)!.variablesReference;
    const globals = (await session.customRequest('variables', { variablesReference: ref('Globals') })) as { variables: Var[] };
    const inbuf = globals.variables.find((v) => v.name === 'inbuf');
    assert.equal(inbuf?.value, '[2048] {-1000, -999, -998, -997, -996, -995, -994, -993, …}');
    const locals = (await session.customRequest('variables', { variablesReference: ref('Locals') })) as { variables: Var[] };
    assert.deepEqual(locals.variables.map((v) => [v.name, v.value]), [['req', '{input=0, output=0}']]);
    const ev = (await session.customRequest('evaluate', { expression: 'inbuf[2047] + 1', frameId: st.stackFrames[0].id, context: 'repl' })) as { result: string };
    assert.equal(ev.result, '1048');
    vscode.debug.removeBreakpoints([bp]);
    await session.customRequest('continue', { threadId: 1 });
    await waitFor('the session to end', () => (ended ? true : undefined), 30_000);
  } finally {
    vscode.debug.removeBreakpoints([bp]);
    tracker.dispose();
    ends.dispose();
    if (!ended && vscode.debug.activeDebugSession?.type === 'tensor-lens') await vscode.debug.stopDebugging(vscode.debug.activeDebugSession);
  }
}

export const TESTS: TestCase[] = [['debugging test.m: a breakpoint on a C line stops pid 0, variables and evaluate answer, the run ends', breakpointStopsAndVariables]];
