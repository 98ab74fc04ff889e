/** Real-VS-Code tests of the debugger (issue 7); index.ts runs them after the foundation tests. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { languageBecomes, log, open } from './util';
import { hoverText, TPROG, type TestCase, waitFor } from './suite';

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
 * Starts debugging examples/test/test.m (entry kernel_test) with a breakpoint on `line` (1-based) and
 * runs `body` with the stopped events seen so far; removes the breakpoint and ends the session after.
 */
async function debugTestM(
  line: number,
  name: string,
  body: (uri: vscode.Uri, stops: { reason: string; threadId: number }[], ended: () => boolean) => Promise<void>,
): Promise<void> {
  const uri = await open('examples/test/test.m');
  await languageBecomes(uri, TPROG);
  const bp = new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(line - 1, 0)));
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
    const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], {
      type: 'tensor-lens',
      request: 'launch',
      name,
      program: uri.fsPath,
      entry: 'kernel_test',
      trace: false,
    });
    assert.ok(started, 'startDebugging returned false');
    await body(uri, stops, () => ended);
    vscode.debug.removeBreakpoints([bp]);
    const session = vscode.debug.activeDebugSession;
    if (session?.type === 'tensor-lens') await session.customRequest('continue', { threadId: 1 });
    await waitFor('the session to end', () => (ended ? true : undefined), 30_000);
  } finally {
    vscode.debug.removeBreakpoints([bp]);
    tracker.dispose();
    ends.dispose();
    if (!ended && vscode.debug.activeDebugSession?.type === 'tensor-lens') await vscode.debug.stopDebugging(vscode.debug.activeDebugSession);
  }
}

/**
 * F5 on examples/test/test.m with a breakpoint on `req.input = ...` (line 29): the session stops
 * there on pid 0, the Variables request shows the globals filled by the loop above (inbuf[i] =
 * i − 1000) and the local struct, and the program then runs to its end.
 */
async function breakpointStopsAndVariables(): Promise<void> {
  const t0 = Date.now();
  await debugTestM(29, 'debug test.m', async (_uri, stops) => {
    const stop = await waitFor('the breakpoint to be hit', () => stops[0], 30_000);
    log(`    (stopped after ${Date.now() - t0} ms: ${stop.reason} on thread ${stop.threadId})`);
    assert.deepEqual([stop.reason, stop.threadId], ['breakpoint', 1]);
    const session = vscode.debug.activeDebugSession;
    assert.ok(session && session.type === 'tensor-lens', 'no active tensor-lens session');
    const st = (await session.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: Frame[] };
    assert.deepEqual(
      st.stackFrames.map((f) => [f.name, f.line]),
      [['kernel_test', 29]],
    );
    const sc = (await session.customRequest('scopes', { frameId: st.stackFrames[0].id })) as { scopes: { name: string; variablesReference: number }[] };
    const ref = (name: string) => sc.scopes.find((s) => s.name === name)!.variablesReference;
    const globals = (await session.customRequest('variables', { variablesReference: ref('Globals') })) as { variables: Var[] };
    const inbuf = globals.variables.find((v) => v.name === 'inbuf');
    assert.equal(inbuf?.value, '[2048] {-1000, -999, -998, -997, -996, -995, -994, -993, …}');
    const locals = (await session.customRequest('variables', { variablesReference: ref('Locals') })) as { variables: Var[] };
    assert.deepEqual(
      locals.variables.map((v) => [v.name, v.value]),
      [['req', '{input=0, output=0}']],
    );
    const ev = (await session.customRequest('evaluate', { expression: 'inbuf[2047] + 1', frameId: st.stackFrames[0].id, context: 'repl' })) as {
      result: string;
    };
    assert.equal(ev.result, '1048');
  });
}

interface Row {
  addr: string;
  hex: string;
  chg?: string;
}
interface ViewDump {
  panelTitle: string;
  space: string;
  step: number;
  complete: boolean;
  rows: Row[];
  title: string;
}

/**
 * The memory inspector follows a debug session of test.m: stopped at the store `>` of line 22 on pid 0,
 * "Open Memory Inspector" shows the paused program's memory; continuing stops at the same line on pid 1,
 * and between the two stops only pid 0's store ran: MEM(req->output)[0:1023] <= PCORE _Z, i.e.
 * outbuf[k] = inbuf[k] + 1 = k − 999 for k < 1024. The panel then shows stop 1, at outbuf (it follows
 * the changes), with exactly those bytes highlighted as changed.
 */
async function inspectorFollowsStops(): Promise<void> {
  await debugTestM(22, 'debug test.m (inspector)', async (_uri, stops) => {
    const first = await waitFor('the breakpoint on line 22 (pid 0)', () => stops[0], 30_000);
    assert.deepEqual([first.reason, first.threadId], ['breakpoint', 1]);
    const session = vscode.debug.activeDebugSession!;
    const g = ((await session.customRequest('memoryStops', { from: 0, count: 0 })) as { globals: { name: string; address: number }[] }).globals;
    const outbuf = g.find((x) => x.name === 'outbuf')!.address;
    assert.equal(
      await vscode.commands.executeCommand<boolean>('tensorLens.openMemoryInspector'),
      true,
      'the command opens the inspector on the paused program',
    );
    const title = 'Memory: test.m (kernel_test)';
    const dump = (what: string, ok: (d: ViewDump) => boolean) =>
      waitFor(
        what,
        async () => {
          const d = await vscode.commands.executeCommand<ViewDump>('tensorLens.inspector.debugState', title);
          return d && d.complete && d.space === 'MEM' && ok(d) ? d : undefined;
        },
        30_000,
        250,
      );
    const d0 = await dump('the panel on stop 0', (d) => d.step === 0);
    assert.equal(d0.title, `${title} — debugging`);
    // outbuf is still zero at stop 0
    const rowAt = (d: ViewDump, a: number) => d.rows.find((r) => parseInt(r.addr, 16) === a);
    await session.customRequest('continue', { threadId: 1 });
    const second = await waitFor('the breakpoint on line 22 (pid 1)', () => stops[1], 30_000);
    assert.deepEqual([second.reason, second.threadId], ['breakpoint', 2]);
    // the panel moves to stop 1 and to what changed: outbuf
    const d1 = await dump('the panel on stop 1 at outbuf', (d) => d.step === 1 && !!rowAt(d, outbuf) && d.rows.some((r) => r.chg));
    const i16hex = (values: number[]) => values.flatMap((v) => [v & 0xff, (v >> 8) & 0xff]).map((b) => b.toString(16).padStart(2, '0'));
    let rows = 0;
    for (const r of d1.rows) {
      const a = parseInt(r.addr, 16);
      const k0 = (a - outbuf) / 2;
      if (k0 < 0 || k0 + 8 > 1024) {
        // outside outbuf[0..1023]: nothing changed there between the stops
        assert.equal(r.chg, undefined, `row 0x${a.toString(16)} is outside what the store wrote (${r.chg})`);
        continue;
      }
      const values = Array.from({ length: 8 }, (_, j) => k0 + j - 999);
      assert.deepEqual(r.hex.trim().split(/\s+/), i16hex(values), `row 0x${a.toString(16)}: outbuf[${k0}..] = inbuf + 1`);
      // outbuf was 0: the changed bytes are the non-zero ones
      const want = i16hex(values)
        .map((b, j) => (b === '00' ? -1 : j))
        .filter((j) => j >= 0)
        .join(',');
      assert.equal(r.chg ?? '', want, `row 0x${a.toString(16)}: its changed bytes`);
      rows++;
    }
    assert.ok(rows >= 4, `at least 4 rows of outbuf in view (had ${rows})`);
    log(`    (stop 1: ${rows} rows of outbuf highlighted as changed)`);
  });
}

/**
 * At a stop the extension sends the language server what each `>` statement did so far (the adapter's
 * runValues → tensorLens/debugValues): the `<=` hover of line 19 says "at this stop". Breakpoint on
 * line 22: pid 0 ran line 19 (step 0), its EXE (1) and yielded (2); pid 1 ran line 19 (step 3), EXE (4),
 * yielded (5); pid 0 stops before line 22 — line 19 ran twice, last by pid 1, 1,024 = 8×16×8 elements.
 * When the session ends the values go.
 */
async function hoverAtThisStop(): Promise<void> {
  let hover: () => Promise<string> = async () => '';
  await debugTestM(22, 'debug test.m (at this stop)', async (uri, stops) => {
    await waitFor('the breakpoint to be hit', () => stops[0], 30_000);
    const doc = await vscode.workspace.openTextDocument(uri);
    const pos = new vscode.Position(18, doc.lineAt(18).text.indexOf('<='));
    hover = async () => hoverText((await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos)) ?? []);
    const md = await waitFor('the hover to show the stop', async () => {
      const t = await hover();
      return t.includes('at this stop') ? t : undefined;
    });
    assert.match(md, /\*\*at this stop\*\* — ran 2 times; the last time \(trace step 3, pid 1\): \*\*1,024\*\* elements \(8×16×8\), 0 padded, 0 skipped/);
    // the static form stays above it
    assert.ok(md.indexOf('**transfer** 1024 elements') >= 0 && md.indexOf('**transfer** 1024 elements') < md.indexOf('at this stop'), md);
  });
  // the session ran on and ended: the stop's values are gone
  await waitFor('the stop values to go', async () => ((await hover()).includes('at this stop') ? undefined : true));
}

export const TESTS: TestCase[] = [
  ['debugging test.m: a breakpoint on a C line stops pid 0, variables and evaluate answer, the run ends', breakpointStopsAndVariables],
  [
    'the memory inspector follows a debug session: open while stopped, continue, the bytes the store wrote between the stops are highlighted',
    inspectorFollowsStops,
  ],
  [
    'at a debugger stop the <= hover shows what the statement did "at this stop" (sent by the extension at each stop), ' +
      'and no longer once the session has ended',
    hoverAtThisStop,
  ],
];
