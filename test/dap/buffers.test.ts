/**
 * Named buffers through the debugger: a launch configuration's `buffers`, `"@name"` arguments and a dump
 * by buffer name reach the run (prepared as the CLI and the editor prepare it), and a forgotten input is a
 * warning in the Debug Console at the end.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { collectOutput, ended, ROOT, startAdapter, type Harness } from './harness';

const DIR = join(ROOT, 'test', 'fixtures', 'create-run-config');

let h: Harness | undefined;
before(async () => {
  h = await startAdapter();
});
after(async () => {
  await h?.close();
});

/** Launches cp.m (copies n bytes from in to out) to its end; the Debug Console's text and the exit code. */
async function runToEnd(buffers: Record<string, unknown>): Promise<{ console: string; code: number | undefined }> {
  await h?.close();
  h = await startAdapter();
  const dc = h.dc;
  const out = collectOutput(dc);
  await dc.initializeRequest({ adapterID: 'tensor-lens', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
  const launched = dc.launchRequest({
    program: 'cp.m',
    cwd: DIR,
    trace: false,
    buffers,
    args: ['@in', '@out', 8],
    dump: [{ buffer: 'out', dtype: 'u8' }],
  } as DebugProtocol.LaunchRequestArguments);
  await dc.waitForEvent('initialized');
  await dc.configurationDoneRequest();
  await launched;
  const code = await ended(dc);
  return { console: out.text('console'), code };
}

test('buffers from a file and by size, "@name" arguments, a dump by buffer name', { timeout: 60_000 }, async () => {
  const r = await runToEnd({ in: { file: 'in.bin' }, out: { bytes: 8 } });
  assert.equal(r.code, 0, r.console);
  // in.bin holds 5 4 3 2 1 0 7 9
  assert.match(r.console, /MEM:out:u8 = 5 4 3 2 1 0 7 9\n/);
  assert.doesNotMatch(r.console, /nothing wrote/);
});

test('an input that nothing wrote is a warning at the > statement', { timeout: 60_000 }, async () => {
  const r = await runToEnd({ in: { bytes: 8 }, out: { bytes: 8 } });
  assert.equal(r.code, 0, r.console);
  assert.match(r.console, /cp\.m:4:6: warning: reads MEM 0x[0-9a-f]+\.\.0x[0-9a-f]+, which nothing wrote before .*a forgotten input\? It reads as zeros/);
});
