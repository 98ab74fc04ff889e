/**
 * The `tensor-lens` debug adapter driven by a real DAP client (@vscode/debugadapter-testsupport):
 * breakpoints on C lines and on `>` statements, conditions, hit counts, logpoints, stepping, both
 * tensor-engine processes as threads, variables, evaluation, setVariable, memory reads and writes,
 * data breakpoints, faults, pause, outputs at the end. Expected values are worked out by hand from
 * the fixture (test/dap/fixtures/dbg.m):
 *   data[i] = 3i − 8                       → −8 −5 −2 1 4 7 10 13 16 19 22 25 28 31 34 37
 *   counter = sum_squares(5) = 0+1+4+9+16  = 30, pt.y = counter + 1
 *   line 35: SCRATCH[0..15] = data; line 36: data[0..7] = SCRATCH[8..15]; counter *= 2.
 * and from test/dap/fixtures/xfer.m:
 *   src[i] = 100 + i (a 4×6 matrix), dst[i] = −1; line 12 writes the 6×4 dst in ordinal n = 4r + c
 *   from src[R][C] with FOR(C) FOR(R), i.e. R = n mod 4, C = n div 4: dst[n] = 100 + 6·(n mod 4) + n div 4
 *   → 100 106 112 118 101 107 113 119 102 108 114 120 103 … 123 (the transpose); dst rows are 4
 *   elements, so stepping moves 8 elements (two rows) per batch; line 13 adds 1 to dst[0]; line 14 copies dst to src.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { checkTraceSlice } from '../../core/protocol/trace';
import { hitMatches } from '../../debug/breakpoints';
import { fromBase64, toBase64 } from '../../debug/format';
import { children, collectOutput, ended, ROOT, scopeVars, startAdapter, stopped, top, type Harness } from './harness';

const DBG = join(ROOT, 'test', 'dap', 'fixtures', 'dbg.m');
const FAULT = join(ROOT, 'test', 'dap', 'fixtures', 'fault.m');
const SPIN = join(ROOT, 'test', 'dap', 'fixtures', 'spin.m');
const TEST_M = join(ROOT, 'examples', 'test', 'test.m');
const XFER = join(ROOT, 'test', 'dap', 'fixtures', 'xfer.m');

let h: Harness;
before(async () => {
  h = await startAdapter();
});
after(async () => {
  await h?.close();
});

/** A fresh client on the shared in-process server. */
async function client(): Promise<DebugClient> {
  await h.close();
  h = await startAdapter();
  return h.dc;
}

/** initialize → launch → (initialized) → breakpoints → configurationDone. */
async function launch(dc: DebugClient, args: Record<string, unknown>, setup: () => Promise<void> = async () => undefined): Promise<void> {
  await dc.initializeRequest({ adapterID: 'tensor-lens', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
  const launched = dc.launchRequest(args as DebugProtocol.LaunchRequestArguments);
  await dc.waitForEvent('initialized');
  await setup();
  await dc.configurationDoneRequest();
  await launched;
}

const values = (m: Map<string, DebugProtocol.Variable>) => Object.fromEntries([...m].map(([k, v]) => [k, v.value]));

function i16(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) out.push(((bytes[i] | (bytes[i + 1] << 8)) << 16) >> 16);
  return out;
}

async function readMem(
  dc: DebugClient,
  memoryReference: string,
  count: number,
  offset = 0,
): Promise<{ address: string; bytes: Uint8Array; unreadable: number }> {
  const r = (await dc.customRequest('readMemory', { memoryReference, offset, count })) as DebugProtocol.ReadMemoryResponse;
  return { address: r.body!.address, bytes: fromBase64(r.body!.data ?? ''), unreadable: r.body!.unreadableBytes ?? 0 };
}

test('breakpoints verify to the nearest executable line (C and > statements)', { timeout: 60_000 }, async () => {
  const dc = await client();
  await launch(dc, { program: DBG, trace: false }, async () => {
    const r = await dc.setBreakpointsRequest({ source: { path: DBG }, breakpoints: [{ line: 27 }, { line: 34 }, { line: 36 }, { line: 2 }] });
    // `void kernel_dbg(void) {` → `int k = 5;`; the empty line 34 → the `>` statement of line 35
    assert.deepEqual(
      r.body.breakpoints.map((b) => [b.verified, b.line]),
      [
        [true, 28],
        [true, 35],
        [true, 36],
        [true, 15],
      ],
    );
    await dc.setBreakpointsRequest({ source: { path: DBG }, breakpoints: [{ line: 36 }] });
  });
  const s = await stopped(dc);
  assert.equal(s.reason, 'breakpoint');
  const f = await top(dc);
  assert.equal(f.name, 'kernel_dbg');
  assert.equal(f.line, 36);
  // the first `>` statement has run: SCRATCH holds data (−8 −5 … 37), the second has not
  const tr = (await dc.customRequest('tensorTrace', { start: 0, count: 10 })) as DebugProtocol.Response;
  checkTraceSlice(tr.body); // the answer is a slice of protocol trace steps (the Tensor Trace view checks it so)
  assert.equal(tr.body.total, 1);
  assert.equal(tr.body.steps[0].line, 35);
  assert.deepEqual([tr.body.steps[0].written.space, tr.body.steps[0].written.lo, tr.body.steps[0].written.hi], ['SCRATCH', 0, 31]);
  const scratch = await readMem(dc, 'SCRATCH', 32);
  assert.deepEqual(i16(scratch.bytes), [-8, -5, -2, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37]);
  assert.equal(scratch.address, '0x00000000');
  const last = dc.waitForEvent('tensorTrace');
  await dc.continueRequest({ threadId: 1 });
  // at the end the target sends the trace's last records (for the Tensor Trace view)
  const tt = (await last) as DebugProtocol.Event;
  checkTraceSlice(tt.body);
  assert.equal(tt.body.total, 2);
  assert.deepEqual(
    tt.body.steps.map((x: { line: number; kind: string }) => `${x.kind}@${x.line}`),
    ['transfer@35', 'transfer@36'],
  );
  await ended(dc);
});

test('stop in a callee, inspect, set a variable, step out / over / in, read and write memory, outputs at the end', { timeout: 60_000 }, async () => {
  const dc = await client();
  const out = collectOutput(dc);
  await launch(dc, { program: DBG, trace: false, dump: [{ space: 'MEM', where: 'data', count: 16, dtype: 'i16' }, 'MEM:counter:1:i32'] }, async () => {
    await dc.setBreakpointsRequest({ source: { path: DBG }, breakpoints: [{ line: 16, condition: 'v == 3' }] });
  });
  let s = await stopped(dc);
  assert.equal(s.reason, 'breakpoint');
  assert.equal(s.threadId, 1);
  const st = await dc.stackTraceRequest({ threadId: 1 });
  assert.deepEqual(
    st.body.stackFrames.map((f) => [f.name, f.line]),
    [
      ['square', 16],
      ['sum_squares', 22],
      ['kernel_dbg', 32],
    ],
  );
  assert.equal(st.body.stackFrames[0].source?.path, DBG);
  const [fSquare, fSum] = st.body.stackFrames;
  const sq = await scopeVars(dc, fSquare.id, 'Locals');
  assert.deepEqual(values(sq), { v: '3', r: '9' });
  assert.equal(sq.get('r')!.type, 'int');
  // the caller's frame: n = 5, i = 3, s = 0 + 1 + 4
  assert.deepEqual(values(await scopeVars(dc, fSum.id, 'Locals')), { n: '5', s: '5', i: '3' });
  const e1 = await dc.evaluateRequest({ expression: 's + n * 2', frameId: fSum.id, context: 'watch' });
  assert.equal(e1.body.result, '15');
  const e2 = await dc.evaluateRequest({ expression: 'pt.tag[2]', frameId: fSquare.id, context: 'hover' });
  assert.deepEqual([e2.body.result, e2.body.type], ['3', 'uint8_t']);
  const e3 = await dc.evaluateRequest({ expression: 'data[15]', frameId: fSquare.id, context: 'repl' });
  assert.equal(e3.body.result, '37');
  await assert.rejects(dc.evaluateRequest({ expression: 'nosuchname + 1', frameId: fSquare.id, context: 'repl' }), /nosuchname/);
  // r = 10 instead of 9: sum_squares(5) becomes 0+1+4+10+16 = 31
  const sv = await dc.setVariableRequest({
    variablesReference: (await dc.scopesRequest({ frameId: fSquare.id })).body.scopes[0].variablesReference,
    name: 'r',
    value: '9 + 1',
  });
  assert.equal(sv.body.value, '10');
  // step out: back in sum_squares at the next statement run there, the loop body for i = 4
  await dc.stepOutRequest({ threadId: 1 });
  s = await stopped(dc);
  assert.equal(s.reason, 'step');
  let f = await top(dc);
  assert.deepEqual([f.name, f.line], ['sum_squares', 22]);
  assert.deepEqual(values(await scopeVars(dc, f.id, 'Locals')), { n: '5', s: '15', i: '4' });
  // next: square(4) runs without stopping, the loop ends, `return s;`
  await dc.nextRequest({ threadId: 1 });
  await stopped(dc);
  f = await top(dc);
  assert.deepEqual([f.name, f.line], ['sum_squares', 24]);
  assert.equal(values(await scopeVars(dc, f.id, 'Locals')).s, '31');
  await dc.nextRequest({ threadId: 1 });
  await stopped(dc);
  f = await top(dc);
  assert.deepEqual([f.name, f.line], ['kernel_dbg', 33]);
  const loc = await scopeVars(dc, f.id, 'Locals');
  assert.deepEqual([...loc.keys()], ['k', 'pp'], 'the for loop variable is out of scope');
  assert.equal(loc.get('k')!.value, '5');
  assert.equal(loc.get('pp')!.type, 'Point *');
  const glob = await scopeVars(dc, f.id, 'Globals');
  assert.equal(glob.get('counter')!.value, '31');
  assert.equal(glob.get('data')!.value, '[16] {-8, -5, -2, 1, 4, 7, 10, 13, …}');
  assert.equal(glob.get('data')!.indexedVariables, 16);
  const elems = await children(dc, glob.get('data')!, 14, 2);
  assert.deepEqual(values(elems), { '[14]': '34', '[15]': '37' });
  // pointers are MEM addresses; expanding one shows the struct it points to
  const ptAddr = Number(glob.get('pt')!.memoryReference!.split(':')[1]);
  assert.equal(loc.get('pp')!.value, '0x' + ptAddr.toString(16).padStart(8, '0'));
  const pfields = await children(dc, loc.get('pp')!);
  assert.deepEqual([pfields.get('x')!.value, pfields.get('y')!.value, pfields.get('tag')!.value], ['3', '-7', '[4] {1, 2, 3, 4}']);
  assert.equal(pfields.get('y')!.evaluateName, 'pp->y');
  // read memory at pt: x = 3 (2 bytes + 2 padding), y = -7, tag = 1 2 3 4
  const mem = await readMem(dc, glob.get('pt')!.memoryReference!, 12);
  assert.deepEqual([...mem.bytes], [3, 0, 0, 0, 0xf9, 0xff, 0xff, 0xff, 1, 2, 3, 4]);
  // write pt.x = 0x0102 through writeMemory, read it back through evaluate
  await dc.customRequest('writeMemory', { memoryReference: glob.get('pt')!.memoryReference!, offset: 0, data: toBase64(new Uint8Array([2, 1])) });
  assert.equal((await dc.evaluateRequest({ expression: 'pt.x', frameId: f.id })).body.result, '258');
  // step in on a statement without calls: the next statement, the first `>`
  await dc.stepInRequest({ threadId: 1 });
  await stopped(dc);
  f = await top(dc);
  assert.deepEqual([f.name, f.line], ['kernel_dbg', 35]);
  assert.equal((await dc.evaluateRequest({ expression: 'pt.y', frameId: f.id })).body.result, '32');
  await dc.nextRequest({ threadId: 1 });
  await stopped(dc);
  assert.equal((await top(dc)).line, 36);
  await dc.continueRequest({ threadId: 1 });
  assert.equal(await ended(dc), 0);
  // data[0..7] = old data[8..15]; counter = 31 · 2
  assert.match(out.text('console'), /MEM:data:i16 = 16 19 22 25 28 31 34 37 16 19 22 25 28 31 34 37\n/);
  assert.match(out.text('console'), /MEM:counter:i32 = 62\n/);
});

test('hit counts, logpoints and a breakpoint on a > statement', { timeout: 60_000 }, async () => {
  const dc = await client();
  const out = collectOutput(dc);
  await launch(dc, { program: DBG, trace: true }, async () => {
    await dc.setBreakpointsRequest({
      source: { path: DBG },
      breakpoints: [{ line: 15, hitCondition: '%2' }, { line: 31, logMessage: 'data[{i}] <- {i * 3 - 8}' }, { line: 36 }],
    });
  });
  // square() is called with v = 0,1,2,3,4: every second hit stops (v = 1, v = 3)
  for (const v of ['1', '3']) {
    const s = await stopped(dc);
    assert.equal(s.reason, 'breakpoint');
    const f = await top(dc);
    assert.deepEqual([f.name, f.line], ['square', 15]);
    assert.equal(values(await scopeVars(dc, f.id, 'Locals')).v, v);
    await dc.continueRequest({ threadId: 1 });
  }
  await stopped(dc);
  const f = await top(dc);
  assert.deepEqual([f.name, f.line], ['kernel_dbg', 36]);
  const log = out.text('console');
  assert.match(log, /^data\[0\] <- -8\ndata\[1\] <- -5\n/m);
  assert.match(log, /data\[15\] <- 37\n/);
  assert.equal(log.match(/<- /g)?.length, 16);
  // the tensor trace printed the first `>` statement (16 elements written to SCRATCH bytes 0..31)
  assert.match(log, /\[tensor #0\] pid 0 dbg\.m:35 transfer 16 el → SCRATCH\[0\.\.31\]/);
  await dc.continueRequest({ threadId: 1 });
  await ended(dc);
});

test('both tensor-engine processes are threads: pid 0 and pid 1 stop at the same > statement', { timeout: 60_000 }, async () => {
  const dc = await client();
  const out = collectOutput(dc);
  await launch(dc, { program: TEST_M, entry: 'kernel_test', trace: false, dump: [{ space: 'MEM', where: 'outbuf', count: 4, dtype: 'i16' }] }, async () => {
    await dc.setBreakpointsRequest({ source: { path: TEST_M }, breakpoints: [{ line: 22 }] });
  });
  const th = await dc.threadsRequest();
  assert.deepEqual(
    th.body.threads.map((t) => [t.id, t.name]),
    [
      [1, 'pid 0'],
      [2, 'pid 1'],
    ],
  );
  let s = await stopped(dc);
  assert.equal(s.threadId, 1);
  assert.equal(s.allThreadsStopped, true);
  const t1 = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  assert.deepEqual(
    t1.map((f) => [f.name, f.line]),
    [
      ['do_add', 22],
      ['kernel_test', 31],
    ],
  );
  // pid 1 is parked at its ztaTaskYield() (line 21), below it the shared caller
  const t2 = (await dc.stackTraceRequest({ threadId: 2 })).body.stackFrames;
  assert.deepEqual(
    t2.map((f) => [f.name, f.line]),
    [
      ['do_add', 21],
      ['kernel_test', 31],
    ],
  );
  assert.deepEqual(values(await scopeVars(dc, t2[0].id, 'Locals')), {
    p: values(await scopeVars(dc, t1[0].id, 'Locals')).p,
    pid: '1',
    req: values(await scopeVars(dc, t1[0].id, 'Locals')).req,
    from: '1024',
    to: '2047',
  });
  assert.equal((await dc.evaluateRequest({ expression: 'to - from + 1', frameId: t2[0].id })).body.result, '1024');
  // PCORE variables per process, PCORE and thread: element e of a transfer goes to pcore e / 128,
  // thread (e / 8) % 16, lane e % 8, and _Z = _A + 1: pid 0 pcore 1 thread 2 holds inbuf[144..151] + 1
  const z0 = (await scopeVars(dc, t1[0].id, 'PCORE variables')).get('test::_Z')!;
  const th12 = (await children(dc, (await children(dc, z0)).get('pcore 1')!)).get('thread 2')!;
  assert.equal(th12.value, '{-855, -854, -853, -852, -851, -850, -849, -848}');
  assert.deepEqual(i16((await readMem(dc, th12.memoryReference!, 16)).bytes), [-855, -854, -853, -852, -851, -850, -849, -848]);
  // pid 1 (its own PCORE page) started at element 1024: inbuf[1024] + 1 = 25
  const z1 = (await scopeVars(dc, t2[0].id, 'PCORE variables')).get('test::_Z')!;
  assert.equal((await children(dc, (await children(dc, z1)).get('pcore 0')!)).get('thread 0')!.value, '{25, 26, 27, 28, 29, 30, 31, 32}');
  await dc.continueRequest({ threadId: 1 });
  s = await stopped(dc);
  assert.equal(s.threadId, 2);
  assert.deepEqual(
    (await dc.stackTraceRequest({ threadId: 2 })).body.stackFrames.map((f) => [f.name, f.line]),
    [
      ['do_add', 22],
      ['kernel_test', 31],
    ],
  );
  // pid 0 has finished its half: outbuf[0..3] = inbuf + 1 = -999 -998 -997 -996
  const g = await scopeVars(dc, (await top(dc, 2)).id, 'Globals');
  assert.equal(g.get('outbuf')!.value, '[2048] {-999, -998, -997, -996, -995, -994, -993, -992, …}');
  await dc.continueRequest({ threadId: 2 });
  await ended(dc);
  assert.match(out.text('console'), /MEM:outbuf:i16 = -999 -998 -997 -996\n/);
});

test('a run-time fault stops where it happens with its C stack', { timeout: 60_000 }, async () => {
  const dc = await client();
  const out = collectOutput(dc);
  await launch(dc, { program: FAULT, trace: false });
  const s = await stopped(dc);
  assert.equal(s.reason, 'exception');
  assert.match(String(s.description), /null pointer dereference/);
  const st = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  assert.deepEqual(
    st.map((f) => [f.name, f.line]),
    [
      ['poke', 5],
      ['main', 10],
    ],
  );
  assert.deepEqual(values(await scopeVars(dc, st[0].id, 'Locals')), { p: '0x00000000', v: '7' });
  const info = await dc.exceptionInfoRequest({ threadId: 1 });
  assert.equal(info.body.exceptionId, 'fault');
  await dc.continueRequest({ threadId: 1 });
  assert.equal(await ended(dc), 1);
  assert.match(out.text('stderr'), /fault\.m:5:\d+: error: null pointer dereference/);
});

test('data breakpoints: a C global changed by C code, a SCRATCH range written by a > statement', { timeout: 60_000 }, async () => {
  const dc = await client();
  await launch(dc, { program: DBG, trace: false, stopOnEntry: true });
  let s = await stopped(dc);
  assert.equal(s.reason, 'entry');
  let f = await top(dc);
  assert.deepEqual([f.name, f.line], ['kernel_dbg', 28]);
  const globals = (await dc.scopesRequest({ frameId: f.id })).body.scopes.find((x) => x.name === 'Globals')!;
  const info = await dc.dataBreakpointInfoRequest({ variablesReference: globals.variablesReference, name: 'counter' });
  assert.ok(info.body.dataId, info.body.description);
  assert.deepEqual(info.body.accessTypes, ['write']);
  const scratch = await dc.dataBreakpointInfoRequest({ name: 'SCRATCH:16:8' });
  const set = await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.body.dataId! }, { dataId: scratch.body.dataId! }] });
  assert.deepEqual(
    set.body.breakpoints.map((b) => b.verified),
    [true, true],
  );
  // counter = sum_squares(k) (line 32) changes counter: the stop is before the next statement
  await dc.continueRequest({ threadId: 1 });
  s = await stopped(dc);
  assert.equal(s.reason, 'data breakpoint');
  f = await top(dc);
  assert.deepEqual([f.name, f.line], ['kernel_dbg', 33]);
  assert.equal((await dc.evaluateRequest({ expression: 'counter', frameId: f.id })).body.result, '30');
  // the first `>` statement writes SCRATCH bytes 0..31, which covers bytes 16..23
  await dc.continueRequest({ threadId: 1 });
  s = await stopped(dc);
  assert.equal(s.reason, 'data breakpoint');
  assert.match(String(s.description), /SCRATCH:16:8 written by transfer at line 35/);
  assert.equal((await top(dc)).line, 35);
  await dc.setDataBreakpointsRequest({ breakpoints: [] });
  await dc.continueRequest({ threadId: 1 });
  await ended(dc);
});

test('step into a > transfer: batches of elements, progress in the stack, partial memory, step out, continue', { timeout: 60_000 }, async () => {
  const dc = await client();
  const out = collectOutput(dc);
  await launch(dc, { program: XFER, trace: false, dump: ['MEM:src:24:i16'] }, async () => {
    await dc.setBreakpointsRequest({ source: { path: XFER }, breakpoints: [{ line: 12 }, { line: 14 }] });
  });
  assert.equal((await stopped(dc)).reason, 'breakpoint');
  let f = await top(dc);
  assert.deepEqual([f.name, f.line], ['kernel_xfer', 12]);
  const glob = await scopeVars(dc, f.id, 'Globals');
  const dstRef = glob.get('dst')!.memoryReference!;
  const dstAddr = Number(dstRef.split(':')[1]);
  const srcAddr = Number(glob.get('src')!.memoryReference!.split(':')[1]);
  const want = Array.from({ length: 24 }, (_, n) => 100 + 6 * (n % 4) + Math.floor(n / 4));
  const written = (k: number) => want.map((v, n) => (n < k ? v : -1));
  const frames = async () => (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames.map((x) => [x.name, x.line]);
  const dstNow = async () => i16((await readMem(dc, dstRef, 48)).bytes);

  // stepIn enters the transfer before its first element: nothing written yet
  await dc.stepInRequest({ threadId: 1 });
  assert.deepEqual(await stopped(dc), { reason: 'step', threadId: 1, allThreadsStopped: true });
  assert.deepEqual(await frames(), [
    ['transfer 0/24 elements', 12],
    ['kernel_xfer', 12],
  ]);
  f = await top(dc);
  let tv = values(await scopeVars(dc, f.id, 'Transfer'));
  assert.equal(tv.statement, 'DTYPE(INT16)MEM((uint32_t)&dst[0],6,4)[0:5][0:3] <= FOR(C=0:5) FOR(R=0:3) DTYPE(INT16)MEM((uint32_t)&src[0],4,6)[R][C]');
  assert.equal(tv.done, '0 of 24 elements');
  assert.equal(tv['next batch'], 'elements 0..7 (8)');
  assert.equal(tv['written so far'], 'nothing');
  assert.deepEqual(await dstNow(), written(0));
  // the enclosing C frame still evaluates
  assert.equal((await dc.evaluateRequest({ expression: 'src[23]', frameId: f.id })).body.result, '123');

  // each stepIn / next moves one batch of 8 (two 4-element rows) and stops again
  await dc.stepInRequest({ threadId: 1 });
  await stopped(dc);
  assert.deepEqual(await frames(), [
    ['transfer 8/24 elements', 12],
    ['kernel_xfer', 12],
  ]);
  assert.deepEqual(await dstNow(), written(8));
  f = await top(dc);
  const tvars = await scopeVars(dc, f.id, 'Transfer');
  tv = values(tvars);
  assert.equal(tv.done, '8 of 24 elements');
  assert.equal(tv['last batch'], 'elements 0..7 (8)');
  assert.equal(tv['next batch'], 'elements 8..15 (8)');
  // element 8: dst row 2, column 0 ← src row 0, column 2 (FOR(C) outer)
  const hex = (a: number) => '0x' + a.toString(16).padStart(8, '0');
  assert.match(tv.destination, new RegExp(`\\[2\\]\\[0\\] @ MEM ${hex(dstAddr + 16)}$`));
  assert.match(tv.source, new RegExp(`\\[0\\]\\[2\\] @ MEM ${hex(srcAddr + 4)}$`));
  assert.equal(tvars.get('destination')!.memoryReference, `MEM:${hex(dstAddr + 16)}`);
  assert.equal(tv['written so far'], `16 bytes within MEM ${hex(dstAddr)}..${hex(dstAddr + 15)}`);
  assert.deepEqual([tv.padded, tv.skipped], ['0', '0']);

  await dc.nextRequest({ threadId: 1 });
  await stopped(dc);
  assert.deepEqual(await frames(), [
    ['transfer 16/24 elements', 12],
    ['kernel_xfer', 12],
  ]);
  assert.deepEqual(await dstNow(), written(16));
  // the inspector's view of these stops: the last one changed dst's page, and the one before it is the 8-element state
  const ms = ((await dc.customRequest('memoryStops', { from: 0 })) as DebugProtocol.Response).body;
  assert.deepEqual(
    ms.stops.map((x: { text: string }) => x.text.replace(/^.*\(pid 0, /, '').replace(/\)$/, '')),
    ['breakpoint at xfer.m:12 (pid 0', 'transfer 0/24 elements', 'transfer 8/24 elements', 'transfer 16/24 elements'],
  );
  assert.deepEqual(ms.stops[3].changed, { MEM: [Math.floor(dstAddr / 4096)] });
  const at = async (stop: number) =>
    i16(fromBase64(((await dc.customRequest('memoryAtStop', { space: 'MEM', offset: dstAddr, length: 48, stop })) as DebugProtocol.Response).body.data));
  assert.deepEqual(await at(2), written(8));
  assert.deepEqual(await at(1), written(0));
  // the trace has no record of the statement until it has finished
  assert.equal(((await dc.customRequest('tensorTrace', {})) as DebugProtocol.Response).body.total, 0);

  // stepOut finishes the transfer and stops at the next statement
  await dc.stepOutRequest({ threadId: 1 });
  await stopped(dc);
  assert.deepEqual(await frames(), [['kernel_xfer', 13]]);
  assert.deepEqual(await dstNow(), want);
  const tr = ((await dc.customRequest('tensorTrace', {})) as DebugProtocol.Response).body;
  assert.equal(tr.total, 1);
  assert.deepEqual(
    [tr.steps[0].elements, tr.steps[0].written, tr.steps[0].read],
    [24, { space: 'MEM', lo: dstAddr, hi: dstAddr + 47, count: 48 }, { space: 'MEM', lo: srcAddr, hi: srcAddr + 47, count: 48 }],
  );

  // line 14: enter the contiguous copy (one batch of 24: its single row), then continue finishes it normally
  await dc.continueRequest({ threadId: 1 });
  assert.equal((await stopped(dc)).reason, 'breakpoint');
  await dc.stepInRequest({ threadId: 1 });
  await stopped(dc);
  assert.deepEqual(await frames(), [
    ['transfer 0/24 elements', 14],
    ['kernel_xfer', 14],
  ]);
  assert.equal(values(await scopeVars(dc, (await top(dc)).id, 'Transfer'))['next batch'], 'elements 0..23 (24)');
  await dc.continueRequest({ threadId: 1 });
  assert.equal(await ended(dc), 0);
  assert.match(out.text('console'), new RegExp(`MEM:src:i16 = ${[want[0] + 1, ...want.slice(1)].join(' ')}\\n`));
});

test('memory at each stop for the inspector: memoryStops lists the pages each stop changed, memoryAtStop reads past stops', { timeout: 60_000 }, async () => {
  const dc = await client();
  await launch(dc, { program: DBG, trace: false }, async () => {
    await dc.setBreakpointsRequest({ source: { path: DBG }, breakpoints: [{ line: 35 }, { line: 36 }] });
  });
  type Stops = {
    total: number;
    oldest: number;
    paused: boolean;
    sizes: Record<string, number>;
    globals: { name: string; address: number; size: number }[];
    stops: { step: number; kind: string; line: number; text: string; changed: Record<string, number[]> }[];
  };
  const stopsReq = async (from = 0) => ((await dc.customRequest('memoryStops', { from })) as DebugProtocol.Response).body as Stops;
  const atStop = async (space: string, offset: number, length: number, stop: number) =>
    fromBase64(((await dc.customRequest('memoryAtStop', { space, offset, length, stop })) as DebugProtocol.Response).body.data);
  await stopped(dc);
  let st = await stopsReq();
  assert.deepEqual([st.total, st.paused, st.sizes.SCRATCH, st.sizes.PCORE0], [1, true, 32768, 8 * 4096 * 2]);
  const data = st.globals.find((g) => g.name === 'data')!;
  assert.equal(data.size, 32);
  const dataPage = Math.floor(data.address / 4096);
  // stop 0 (line 35) against the program's start: the C code filled data[] (and pt, counter); SCRATCH untouched
  assert.deepEqual([st.stops[0].step, st.stops[0].kind, st.stops[0].line], [0, 'stop', 35]);
  assert.match(st.stops[0].text, /^breakpoint at dbg\.m:35 \(pid 0\)$/);
  assert.ok(st.stops[0].changed.MEM?.includes(dataPage), `MEM page ${dataPage} changed: ${JSON.stringify(st.stops[0].changed)}`);
  assert.equal(st.stops[0].changed.SCRATCH, undefined);
  assert.deepEqual(i16(await atStop('MEM', data.address, 32, -1)), new Array(16).fill(0));
  const dataNow = Array.from({ length: 16 }, (_, i) => 3 * i - 8);
  assert.deepEqual(i16(await atStop('MEM', data.address, 32, 0)), dataNow);
  await dc.continueRequest({ threadId: 1 });
  await stopped(dc);
  // stop 1 (line 36): only the `>` of line 35 ran in between, writing SCRATCH[0..31]
  st = await stopsReq(1);
  assert.equal(st.total, 2);
  assert.deepEqual(
    st.stops.map((x) => [x.step, x.line, x.changed]),
    [[1, 36, { SCRATCH: [0] }]],
  );
  assert.deepEqual(i16(await atStop('SCRATCH', 0, 32, 0)), new Array(16).fill(0));
  assert.deepEqual(i16(await atStop('SCRATCH', 0, 32, 1)), dataNow);
  assert.deepEqual(i16((await readMem(dc, 'SCRATCH', 32)).bytes), dataNow);
  await assert.rejects(dc.customRequest('memoryAtStop', { space: 'MEM', offset: 0, length: 4, stop: 2 }), /no stop 2/);
  await dc.continueRequest({ threadId: 1 });
  assert.equal(await ended(dc), 0);
});

test('pause a running program, evaluate, terminate', { timeout: 60_000 }, async () => {
  const dc = await client();
  await launch(dc, { program: SPIN, trace: false });
  await new Promise((r) => setTimeout(r, 200));
  await dc.pauseRequest({ threadId: 1 });
  const s = await stopped(dc);
  assert.equal(s.reason, 'pause');
  const f = await top(dc);
  assert.equal(f.name, 'spin');
  const x = Number((await dc.evaluateRequest({ expression: 'x', frameId: f.id })).body.result);
  assert.ok(x > 0, `x = ${x}`);
  // the program keeps running from where it was: x grows
  await dc.continueRequest({ threadId: 1 });
  await new Promise((r) => setTimeout(r, 100));
  await dc.pauseRequest({ threadId: 1 });
  await stopped(dc);
  const x2 = Number((await dc.evaluateRequest({ expression: 'x', frameId: (await top(dc)).id })).body.result);
  assert.ok(x2 > x, `x went from ${x} to ${x2}`);
  await dc.terminateRequest({});
  await ended(dc);
});

test('launch errors are reported with their location', { timeout: 60_000 }, async () => {
  const dc = await client();
  await dc.initializeRequest();
  await assert.rejects(dc.launchRequest({ program: join(ROOT, 'test', 'dap', 'fixtures', 'missing.m') } as DebugProtocol.LaunchRequestArguments), /missing\.m/);
  const dc2 = await client();
  await dc2.initializeRequest();
  await assert.rejects(dc2.launchRequest({ program: DBG, entry: 'nosuch' } as DebugProtocol.LaunchRequestArguments), /no function named nosuch/);
});

test('hit conditions', () => {
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => hitMatches('3', n)),
    [false, false, true, true],
  );
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => hitMatches('==3', n)),
    [false, false, true, false],
  );
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => hitMatches('>2', n)),
    [false, false, true, true],
  );
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => hitMatches('<3', n)),
    [true, true, false, false],
  );
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => hitMatches('%2', n)),
    [false, true, false, true],
  );
  assert.deepEqual([...fromBase64(toBase64(new Uint8Array([0, 255, 1, 2, 3])))], [0, 255, 1, 2, 3]);
  assert.equal(toBase64(new Uint8Array([0x4d, 0x61, 0x6e])), 'TWFu');
});

test('the stdio adapter (debug/main.ts) runs a program to its end', { timeout: 60_000 }, async () => {
  const { DebugClient } = await import('@vscode/debugadapter-testsupport');
  const dc = new DebugClient('node', join(ROOT, 'debug', 'main.ts'), 'tensor-lens', {
    env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import tsx`.trim() },
    cwd: ROOT,
  });
  dc.defaultTimeout = 30_000;
  await dc.start();
  try {
    let exitCode: number | undefined;
    dc.on('exited', (e: DebugProtocol.ExitedEvent) => (exitCode = e.body.exitCode));
    const done = new Promise<void>((r) => dc.on('terminated', () => r()));
    const out = collectOutput(dc);
    await launch(dc, { program: DBG, trace: false, dump: ['MEM:counter:1:i32'] });
    await done;
    assert.equal(exitCode, 0);
    assert.match(out.text('console'), /MEM:counter:i32 = 60\n/);
  } finally {
    await dc.stop().catch(() => undefined);
  }
});

test('a dump over the program (by any path to it) or over an open document is refused and the file left as it was', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-dap-dump-'));
  try {
    const prog = join(dir, 'dbg.m');
    const other = join(dir, 'notes.m');
    const out = join(dir, 'counter.bin');
    copyFileSync(DBG, prog);
    writeFileSync(other, '// on disk\n');
    symlinkSync(prog, join(dir, 'alias.m'));
    const before = [prog, other].map((f) => readFileSync(f));
    const dc = await client();
    const text = collectOutput(dc);
    await launch(dc, {
      program: prog,
      trace: false,
      // notes.m is open in the editor with unsaved changes (the launch's overlay); the run does not read it
      overlay: { [other]: '// unsaved\n' },
      dump: [`MEM:counter:1:i32=${prog}`, `MEM:counter:1:i32=${join(dir, 'alias.m')}`, `MEM:counter:1:i32=${other}`, `MEM:counter:1:i32=${out}`],
    });
    assert.equal(await ended(dc), 1);
    const err = text.text('stderr');
    assert.match(err, /cannot write .*dbg\.m: .*dbg\.m is an input of this run; it is not overwritten\n/);
    assert.match(err, /cannot write .*alias\.m: .*alias\.m is an input of this run; it is not overwritten\n/);
    assert.match(err, /cannot write .*notes\.m: .*notes\.m is open in the editor; it is not overwritten\n/);
    assert.deepEqual(
      [prog, other].map((f) => readFileSync(f)),
      before,
    );
    // the dump that names neither is written (counter = 60)
    assert.deepEqual([...readFileSync(out)], [60, 0, 0, 0]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
