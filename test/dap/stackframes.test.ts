/**
 * The Call Stack over DAP as VS Code loads it: the adapter does not announce delayed stack loading (VS
 * Code would then ask for the top frame alone and offer "Load More Stack Frames" until it asks again,
 * and keep that entry when the rest equals the previous stop's frames), so VS Code asks for 20 frames
 * and then pages on while it holds fewer than totalFrames. Fixtures: test/dap/fixtures/dbg.m (3 frames),
 * deep.m (down() 24 times under kernel_deep: 25 frames).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { ROOT, startAdapter, stopped, type Harness } from './harness';

const FIX = join(ROOT, 'test', 'dap', 'fixtures');
let h: Harness | undefined;
after(async () => {
  await h?.close();
});

/** initialize (its capabilities returned) → launch `program` (as written, e.g. relative) with a breakpoint in `file` → the first stop. */
async function stopAt(program: string, line: number, file = program): Promise<{ dc: DebugClient; caps: DebugProtocol.Capabilities }> {
  await h?.close();
  h = await startAdapter();
  const dc = h.dc;
  const init = await dc.initializeRequest({ adapterID: 'tensor-lens', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
  const launched = dc.launchRequest({ program, trace: false } as DebugProtocol.LaunchRequestArguments);
  await dc.waitForEvent('initialized');
  await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [{ line }] });
  await dc.configurationDoneRequest();
  await launched;
  const s = await stopped(dc);
  assert.deepEqual([s.reason, s.threadId], ['breakpoint', 1]);
  return { dc, caps: init.body ?? {} };
}

/** What VS Code's call stack does without delayed loading: 20 frames, then 20 more while fewer than totalFrames are held. */
async function loadLikeVsCode(dc: DebugClient, threadId: number): Promise<{ requests: number; frames: DebugProtocol.StackFrame[]; total: number }> {
  const frames: DebugProtocol.StackFrame[] = [];
  let total = 0;
  let requests = 0;
  for (;;) {
    const r = await dc.stackTraceRequest({ threadId, startFrame: frames.length, levels: 20 });
    requests++;
    frames.push(...r.body.stackFrames);
    total = r.body.totalFrames ?? -1;
    // VS Code's rule: the end is reached when an answer is short of what was asked or all totalFrames are held
    if (r.body.stackFrames.length < 20 || frames.length === total) return { requests, frames, total };
    assert.ok(requests < 10, 'the stack never ends');
  }
}

test('no delayed stack loading: a 3-frame stack comes whole in the first answer, with totalFrames 3', { timeout: 60_000 }, async () => {
  const { dc, caps } = await stopAt(join(FIX, 'dbg.m'), 16);
  assert.notEqual(caps.supportsDelayedStackTraceLoading, true);
  const r = await dc.stackTraceRequest({ threadId: 1, startFrame: 0, levels: 20 });
  assert.deepEqual(
    r.body.stackFrames.map((f) => [f.name, f.line]),
    [
      ['square', 16],
      ['sum_squares', 22],
      ['kernel_dbg', 32],
    ],
  );
  assert.equal(r.body.totalFrames, 3);
  // pid 1 has not started: no frames, and nothing more to load
  const t2 = await dc.stackTraceRequest({ threadId: 2, startFrame: 0, levels: 20 });
  assert.deepEqual([t2.body.stackFrames.length, t2.body.totalFrames], [0, 0]);
  // a second stop in the same callee: the same whole answer
  await dc.continueRequest({ threadId: 1 });
  await stopped(dc);
  const again = await loadLikeVsCode(dc, 1);
  assert.deepEqual([again.requests, again.frames.length, again.total], [1, 3, 3]);
});

test('a 25-frame stack pages as 20 + 5, totalFrames 25 in both answers, innermost first', { timeout: 60_000 }, async () => {
  const { dc } = await stopAt(join(FIX, 'deep.m'), 7);
  const first = await dc.stackTraceRequest({ threadId: 1, startFrame: 0, levels: 20 });
  assert.deepEqual([first.body.stackFrames.length, first.body.totalFrames], [20, 25]);
  const rest = await dc.stackTraceRequest({ threadId: 1, startFrame: 20, levels: 20 });
  assert.deepEqual([rest.body.stackFrames.length, rest.body.totalFrames], [5, 25]);
  const all = await loadLikeVsCode(dc, 1);
  assert.equal(all.requests, 2);
  // down(0) at line 7, down(1..23) at their recursive call (line 10), kernel_deep at its call (line 14)
  assert.deepEqual(
    all.frames.map((f) => `${f.name}:${f.line}`),
    ['down:7', ...Array.from({ length: 23 }, () => 'down:10'), 'kernel_deep:14'],
  );
  assert.equal(new Set(all.frames.map((f) => f.id)).size, 25, 'each frame its own id');
  // past the end: nothing, the same total
  const past = await dc.stackTraceRequest({ threadId: 1, startFrame: 25, levels: 20 });
  assert.deepEqual([past.body.stackFrames.length, past.body.totalFrames], [0, 25]);
});

test('a program named by a relative path (no cwd) starts from the adapter folder: the frames name absolute paths', { timeout: 60_000 }, async () => {
  const abs = join(FIX, 'dbg.m');
  const rel = relative(process.cwd(), abs);
  assert.ok(!rel.startsWith('/'), rel);
  const { dc } = await stopAt(rel, 16, abs);
  const r = await dc.stackTraceRequest({ threadId: 1, startFrame: 0, levels: 20 });
  assert.deepEqual(
    r.body.stackFrames.map((f) => f.source?.path),
    [abs, abs, abs],
  );
});
