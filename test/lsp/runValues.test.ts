/**
 * Hovers and inlay hints with the values of a real run, over stdio against the built server (`npm run
 * build`): a program whose sizes are all run-time values (test/fixtures/run-values/rows.m: in = 0x40000,
 * out = 0x50000, w = 40, h = 3) shows "?" before a run; after `tensorLens/run` the `<=` hover and the
 * hints show what each statement did the last time it ran, against values computed by hand. Edits mark or
 * drop them. At a debugger stop (the adapter's `runValues`, sent as `tensorLens/debugValues` as the
 * extension does) they are the values "at this stop".
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { HoverRequest, InlayHintRequest, type Hover, type Position } from 'vscode-languageserver-protocol/node';
import { DebugValuesNotification, RunRequest } from '../../core/protocol/lspExt';
import { checkStatementRuns } from '../../core/protocol/trace';
import { ended, startAdapter, stopped } from '../dap/harness';
import { LspClient, posOf, ROOT, TPROG } from './lspClient';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'run-values', 'rows.m');
const TEXT = readFileSync(FIXTURE, 'utf8');
const LINES = TEXT.split('\n');
/** 0-based lines of the fixture's `>` statements: the loop's row copy, the padded INT16 copy, `$t :=`, the copy from `$t`. */
const ROW = 12;
const PADDED = 14;
const DEF = 15;
const FROM_VAR = 16;

let lsp: LspClient;
before(async () => {
  lsp = await LspClient.start();
});
after(async () => {
  await lsp?.shutdown();
});

async function hoverText(uri: string, position: Position): Promise<string> {
  const h: Hover | null = await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  const c = h?.contents;
  return c && typeof c === 'object' && 'value' in c ? c.value : '';
}

async function hints(uri: string, lines = LINES.length): Promise<[number, number, string][]> {
  const r = await lsp.conn.sendRequest(InlayHintRequest.type, {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: lines, character: 0 } },
  });
  return (r ?? []).map((h) => [h.position.line, h.position.character, typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')]);
}

/** `f()` once `ok` holds for it (polled for up to 10 s), else its last value. */
async function eventually<T>(f: () => Promise<T>, ok: (x: T) => boolean): Promise<T> {
  const t0 = Date.now();
  let x = await f();
  while (!ok(x) && Date.now() - t0 < 10_000) {
    await new Promise((r) => setTimeout(r, 50));
    x = await f();
  }
  return x;
}

/** The hint after a statement's `;` (the end of its line in the fixture). */
const endOf = (line: number) => LINES[line].length;
const op = (line: number) => posOf(TEXT, line, '<=');

test('after a run, the <= hover and the hints show the last run beside the static form; edits mark or drop them', { timeout: 90_000 }, async () => {
  const uri = await lsp.open(FIXTURE, TPROG);
  await lsp.diagnostics(uri);
  // before a run: the static form only — every size is a run-time value
  const before = await hoverText(uri, op(ROW));
  assert.match(before, /^\*\*transfer\*\* \? elements/);
  assert.doesNotMatch(before, /last run/);
  assert.deepEqual(await hints(uri), []);

  const r = await lsp.conn.sendRequest(RunRequest, { uri });
  assert.equal(r.error, null, r.error?.message);
  assert.equal('statements' in r, false, 'the records stay in the server');

  // the records follow the run's result (the worker makes them after posting it)
  const md = await eventually(
    () => hoverText(uri, op(ROW)),
    (x) => x.includes('**last run**'),
  );
  // the static form first, unchanged
  assert.ok(md.startsWith(before), md);
  const run = md.slice(before.length);
  // the loop ran for r = 0, 1, 2 (trace steps 0..2); the last time it moved row 2: 40 bytes at 2·40 = 0x50 into each tensor
  assert.ok(run.startsWith('\n\n---\n\n**last run** — ran 3 times; the last time (trace step 2, pid 0): **40** elements (1×40), 0 padded, 0 skipped\n\n'), run);
  const dst = run.slice(run.indexOf('destination — '), run.indexOf('source — '));
  const src = run.slice(run.indexOf('source — '), run.indexOf('```'));
  assert.match(dst, /iteration \(outermost first\): req-\\>out\[0\] 2, req-\\>out\[1\] 0:39/);
  assert.match(dst, /elements: 40 \(1×40\) of UINT8 \(1 byte each\)/);
  assert.match(dst, /bytes 0x50050–0x50077 \(40 bytes span\)/);
  assert.match(dst, /first element at 0x50050, last at 0x50077/);
  assert.match(src, /bytes 0x40050–0x40077 \(40 bytes span\)/);
  assert.match(src, /first element at 0x40050, last at 0x40077/);
  const table = run.slice(run.indexOf('```\n') + 4, run.lastIndexOf('\n```')).split('\n');
  assert.deepEqual(table.slice(2, 5), ['req->out[2][0]   <=  req->in[2][0]', 'req->out[2][1]   <=  req->in[2][1]', 'req->out[2][2]   <=  req->in[2][2]']);
  assert.equal(table.length, 2 + 16 + 1);
  assert.equal(table[table.length - 1], '… 24 more (40 elements in all)');

  // the padded INT16 copy: rows 1..3 of a 3-row source, every other column — row 3 (20 elements) is PAD 7
  const padded = await hoverText(uri, op(PADDED));
  assert.match(padded, /\*\*last run\*\* — ran once; the last time \(trace step 3, pid 0\): \*\*60\*\* elements \(3×20\), 20 padded, 0 skipped/);
  // element (i, j) of the 3×40 INT16 source at 0x40100 is at 0x40100 + 2·(40·i + j): first (1, 0), last (3, 38)
  assert.match(padded, /first element at 0x40150, last at 0x4023c \(outside the bounds: not accessed\)/);
  assert.match(padded, /\nreq->out\+0x100\[0\]\[0\] {3}<= {2}req->in\+0x100\[1\]\[0\]\n/);

  // a term's hover: its side as it ran
  const term = await hoverText(uri, posOf(TEXT, ROW, 'MEM', 1));
  assert.match(term, /\*\*last run\*\* \(ran 3 times; the last time, trace step 2\):  \n\*\*MEM\*\*[^]*bytes 0x50050–0x50077/);

  // hints where the static hint has nothing: element count and shape
  assert.deepEqual(await hints(uri), [
    [ROW, endOf(ROW), '⟨run: 40 elements, 1×40⟩'],
    [PADDED, endOf(PADDED), '⟨run: 60 elements, 3×20⟩'],
    [DEF, endOf(DEF), '⟨run: ≔ 120 elements, 3×40⟩'],
    [FROM_VAR, endOf(FROM_VAR), '⟨run: 120 elements, 3×40⟩'],
  ]);

  // an edit below the statements: they still read as they ran, marked "before your edits"
  const end = { line: LINES.length - 1, character: 0 };
  await lsp.change(uri, [{ range: { start: end, end }, text: '// a comment\n' }]);
  assert.match(await hoverText(uri, op(ROW)), /\*\*last run, before your edits\*\* — ran 3 times/);
  assert.deepEqual((await hints(uri)).map((h) => h[2])[0], '⟨run, before edits: 40 elements, 1×40⟩');

  // an edited statement loses its values (they described other code); the others keep theirs
  const w = LINES[ROW].indexOf('req->w-1');
  await lsp.change(uri, [{ range: { start: { line: ROW, character: w }, end: { line: ROW, character: w + 8 } }, text: 'req->w-2' }]);
  assert.doesNotMatch(await hoverText(uri, op(ROW)), /last run/);
  assert.deepEqual(
    (await hints(uri)).map((h) => h[0]),
    [PADDED, DEF, FROM_VAR],
  );

  // a line inserted above: every statement moved, no value is shown for code it does not describe
  await lsp.change(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '\n' }]);
  assert.deepEqual(await hints(uri, LINES.length + 2), []);
  assert.doesNotMatch(await hoverText(uri, { line: PADDED + 1, character: op(PADDED).character }), /last run/);
  await lsp.close(uri);
});

test('at a debugger stop: the adapter answers runValues, and the hover and hints say "at this stop"', { timeout: 90_000 }, async () => {
  const uri = await lsp.open(FIXTURE, TPROG);
  await lsp.diagnostics(uri);
  const h = await startAdapter();
  try {
    const dc = h.dc;
    await dc.initializeRequest({ adapterID: 'tensor-lens', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const launched = dc.launchRequest({ program: FIXTURE, trace: false } as DebugProtocol.LaunchRequestArguments);
    await dc.waitForEvent('initialized');
    // stop before the padded copy (1-based line PADDED + 1), then before the copy from $t
    await dc.setBreakpointsRequest({ source: { path: FIXTURE }, breakpoints: [{ line: PADDED + 1 }, { line: FROM_VAR + 1 }] });
    await dc.configurationDoneRequest();
    await launched;
    assert.equal((await stopped(dc)).reason, 'breakpoint');
    const first = (await dc.customRequest('runValues')) as DebugProtocol.Response;
    const atFirst = checkStatementRuns(first.body.statements);
    // only the loop's transfer has run (3 times); the padded copy has not yet
    assert.deepEqual(
      atFirst.map((s) => [s.file, s.line, s.runs, s.elements]),
      [[FIXTURE, ROW + 1, 3, 40]],
    );
    await lsp.conn.sendNotification(DebugValuesNotification, { session: 's1', statements: atFirst });
    assert.match(await hoverText(uri, op(ROW)), /\*\*at this stop\*\* — ran 3 times; the last time \(trace step 2, pid 0\): \*\*40\*\* elements/);
    // a statement that has not run at this stop shows no values (not an older run's)
    assert.doesNotMatch(await hoverText(uri, op(PADDED)), /at this stop|last run/);
    assert.deepEqual(await hints(uri), [[ROW, endOf(ROW), '⟨at this stop: 40 elements, 1×40⟩']]);

    // Step Into the padded copy: stopped before its first batch, then after it (a row of 20 elements, all read
    // from source row 1): the execution in progress, with its resolved sides
    const inProgress = async () => {
      const all = checkStatementRuns(((await dc.customRequest('runValues')) as DebugProtocol.Response).body.statements);
      return all.find((s) => s.line === PADDED + 1);
    };
    await dc.stepInRequest({ threadId: 1 });
    await stopped(dc);
    let x = await inProgress();
    assert.deepEqual([x?.runs, x?.step, x?.elements, x?.running], [1, 3, 0, { done: 0, total: 60 }]);
    await dc.stepInRequest({ threadId: 1 });
    await stopped(dc);
    x = await inProgress();
    assert.deepEqual([x?.elements, x?.padded, x?.running], [20, 0, { done: 20, total: 60 }]);
    assert.deepEqual([x?.src?.first, x?.src?.last], [0x40100 + 2 * 40, 0x40100 + 2 * (40 * 3 + 38)]);
    await lsp.conn.sendNotification(DebugValuesNotification, { session: 's1', statements: [x!] });
    assert.match(
      await hoverText(uri, op(PADDED)),
      /\*\*at this stop\*\* — running now, execution 1 \(trace step 3, pid 0\): \*\*20\*\* of 60 elements moved so far \(3×20\), 0 padded/,
    );
    assert.deepEqual(await hints(uri), [[PADDED, endOf(PADDED), '⟨at this stop: 20/60 elements, 3×20⟩']]);

    // continue finishes the transfer and runs to the next breakpoint
    await dc.continueRequest({ threadId: 1 });
    assert.equal((await stopped(dc)).reason, 'breakpoint');
    const second = checkStatementRuns(((await dc.customRequest('runValues')) as DebugProtocol.Response).body.statements);
    assert.deepEqual(
      second.map((s) => [s.line, s.kind, s.runs, s.elements, s.padded]),
      [
        [ROW + 1, 'transfer', 3, 40, 0],
        [PADDED + 1, 'transfer', 1, 60, 20],
        [DEF + 1, 'define', 1, 0, 0],
      ],
    );
    await lsp.conn.sendNotification(DebugValuesNotification, { session: 's1', statements: second });
    assert.match(await hoverText(uri, op(PADDED)), /\*\*at this stop\*\* — ran once; [^]*\*\*60\*\* elements \(3×20\), 20 padded/);
    assert.deepEqual(
      (await hints(uri)).map((x) => x[2]),
      ['⟨at this stop: 40 elements, 1×40⟩', '⟨at this stop: 60 elements, 3×20⟩', '⟨at this stop: ≔ 120 elements, 3×40⟩'],
    );

    // the session runs on: the stop's values go (the last run's, from the first test, come back)
    await lsp.conn.sendNotification(DebugValuesNotification, { session: 's1', statements: null });
    assert.match(await hoverText(uri, op(ROW)), /\*\*last run\*\* — ran 3 times/);
    // a malformed notification is refused, not taken
    await lsp.conn.sendNotification(DebugValuesNotification, { session: 's2', statements: [{ file: FIXTURE, line: 'x' }] } as never);
    assert.doesNotMatch(await hoverText(uri, op(ROW)), /at this stop/);
    await dc.continueRequest({ threadId: 1 });
    await ended(dc);
  } finally {
    await h.close();
    await lsp.close(uri);
  }
});
