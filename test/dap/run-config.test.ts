/**
 * The debugger reads the program as the checker does: a launch configuration's `includePaths` and
 * `dialect` (filled by the extension from the `tensorLens.*` settings) reach the run, relative ones
 * from `cwd`; loads and dumps may be objects or command-line text, and a malformed one fails the launch.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { collectOutput, ended, ROOT, startAdapter, type Harness } from './harness';

const FIX = join(ROOT, 'test', 'fixtures', 'run-include');
const INC_M = join(FIX, 'prog', 'inc.m');

let h: Harness | undefined;
before(async () => {
  h = await startAdapter();
});
after(async () => {
  await h?.close();
});

async function client(): Promise<DebugClient> {
  await h?.close();
  h = await startAdapter();
  return h.dc;
}

/** Launches to the end of the program; the Debug Console's text and the exit code. */
async function runToEnd(args: Record<string, unknown>): Promise<{ console: string; code: number | undefined }> {
  const dc = await client();
  const out = collectOutput(dc);
  await dc.initializeRequest({ adapterID: 'tensor-lens', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
  const launched = dc.launchRequest({ trace: false, ...args } as DebugProtocol.LaunchRequestArguments);
  await dc.waitForEvent('initialized');
  await dc.configurationDoneRequest();
  await launched;
  const code = await ended(dc);
  return { console: out.text('console'), code };
}

test('includePaths: the header found through them, absolute or relative to cwd', { timeout: 60_000 }, async () => {
  const abs = await runToEnd({ program: INC_M, includePaths: [join(FIX, 'include')], dump: ['MEM:r:1:i32'] });
  assert.equal(abs.code, 0);
  assert.match(abs.console, /MEM:r:i32 = 42\n/);
  const rel = await runToEnd({ program: 'prog/inc.m', cwd: FIX, includePaths: ['include'], dump: [{ space: 'MEM', where: 'r', count: 1, dtype: 'i32' }] });
  assert.equal(rel.code, 0);
  assert.match(rel.console, /MEM:r:i32 = 42\n/);
});

test('without them the launch fails where the include is', { timeout: 60_000 }, async () => {
  const dc = await client();
  await dc.initializeRequest();
  await assert.rejects(dc.launchRequest({ program: INC_M } as DebugProtocol.LaunchRequestArguments), /inc\.m:2:2: cannot open include file "scale\.h"/);
});

test('dialect: a guide program is refused read as ztachip', { timeout: 60_000 }, async () => {
  const dc = await client();
  await dc.initializeRequest();
  await assert.rejects(
    dc.launchRequest({ program: join(ROOT, 'examples', 'guide', 'transfers.m'), dialect: 'ztachip' } as DebugProtocol.LaunchRequestArguments),
    /the program has errors; fix them first: DTYPE is not defined/,
  );
  const guide = await runToEnd({ program: join(ROOT, 'examples', 'guide', 'transfers.m'), dialect: 'guide' });
  assert.equal(guide.code, 0);
});

test('a malformed dump fails the launch with its message', { timeout: 60_000 }, async () => {
  const dc = await client();
  await dc.initializeRequest();
  await assert.rejects(
    dc.launchRequest({ program: INC_M, dump: ['NOPE:r:1:i32'] } as DebugProtocol.LaunchRequestArguments),
    /SPACE must be MEM, SCRATCH, PCORE or PCORE@1/,
  );
});
