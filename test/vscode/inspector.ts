/**
 * Real-VS-Code tests of the memory inspector (issue 6); index.ts runs them after the foundation tests.
 * What the panel shows is asked from the webview itself (`tensorLens.inspector.debugState`: the page
 * reports the text of the rows it rendered), so the assertions are about the rendered view.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { file, languageBecomes, log, open, positionOf } from './util';
import { EXTENSION_ID, TPROG, type TestCase, sleep, waitFor } from './suite';

interface Run {
  runId: number;
  error: { message: string } | null;
  trace: unknown[];
  globals?: { name: string; address: number; size: number; type: string }[];
}
interface Row {
  addr: string;
  hex: string;
  typed: string;
  ascii: string;
  ov: string;
}
interface ViewDump {
  panelTitle: string;
  runId?: number;
  space: string;
  cursor: number;
  step: number;
  complete: boolean;
  rows: Row[];
  status: string;
  title: string;
  /** The Views pane's picture: what it shows and the RGBA of its pixel (0, 0) once painted. */
  picture?: { label: string; describe: string; error?: string; pixel0?: number[] };
  /** Every picture of the Views pane, its tiles in order. */
  pictures?: { label: string; describe: string; error?: string; pixel0?: number[] }[];
}
interface Api {
  client: { sendRequest<R>(method: string, params: unknown): Promise<R> };
}

const api = () => vscode.extensions.getExtension<Api>(EXTENSION_ID)!.exports;

/** int16 little-endian bytes of `values` as the hex column prints them. */
const i16hex = (values: number[]) => values.flatMap((v) => [v & 0xff, (v >> 8) & 0xff]).map((b) => b.toString(16).padStart(2, '0'));
const bytesOf = (r: Row) => r.hex.trim().split(/\s+/);

async function runTestM(): Promise<Run> {
  // other areas' tests may have closed it
  const uri = await open('examples/test/test.m');
  await languageBecomes(uri, TPROG);
  const r = await vscode.commands.executeCommand<Run>('tensorLens.run', uri.toString());
  assert.ok(r, 'tensorLens.run returned nothing');
  assert.equal(r.error, null, r.error?.message);
  return r;
}

/** Polls the panel (the last used one, or the one titled `title`) until a complete frame shows a row at byte address `addr` of MEM. */
async function rowAt(addr: number, what: string, title?: string): Promise<{ dump: ViewDump; row: Row }> {
  let last: ViewDump | undefined;
  try {
    return await waitFor(
      what,
      async () => {
        const d = await vscode.commands.executeCommand<ViewDump>('tensorLens.inspector.debugState', title);
        last = d;
        if (!d || !d.complete || d.space !== 'MEM') return undefined;
        const row = d.rows.find((r) => parseInt(r.addr, 16) === addr);
        return row ? { dump: d, row } : undefined;
      },
      30_000,
      250,
    );
  } catch (e) {
    log(`    last view: ${JSON.stringify(last && { ...last, rows: last.rows.slice(0, 4) })}`);
    throw e;
  }
}

/** The Views pane's picture in the panel titled `title`. */
async function debugPicture(title: string): Promise<ViewDump['picture']> {
  return (await vscode.commands.executeCommand<ViewDump>('tensorLens.inspector.debugState', title))?.picture;
}

async function panelShowsRunBytes(): Promise<void> {
  const r = await runTestM();
  const inbuf = r.globals?.find((g) => g.name === 'inbuf');
  const outbuf = r.globals?.find((g) => g.name === 'outbuf');
  assert.ok(inbuf && outbuf, `the run reports the C globals inbuf and outbuf (got ${JSON.stringify(r.globals?.map((g) => g.name))})`);
  assert.equal(inbuf.type, 'int16_t [2048]');
  const opened = await vscode.commands.executeCommand<boolean>('tensorLens.openMemoryInspector');
  assert.equal(opened, true);
  // the panel starts at the run's first dump, outbuf (examples/test/tensorlens.run.json): outbuf[i] = inbuf[i] + 1 = i - 999
  assert.equal(outbuf.address, inbuf.address + 4096);
  const { dump, row } = await rowAt(outbuf.address, `the panel to show outbuf (the first dump) at 0x${outbuf.address.toString(16)}`);
  assert.match(dump.panelTitle, /^Memory: test\.m/);
  assert.equal(dump.runId, r.runId, 'the panel shows the run just made');
  assert.deepEqual(bytesOf(row), i16hex([-999, -998, -997, -996, -995, -994, -993, -992]));
  assert.match(row.ov, /outbuf/, 'the row is labelled with the global');
  assert.match(row.ov, /MEM\(req->output\)/, 'and with the transfer term that wrote it');
  // the configuration's view: outbuf as a 64 × 32 i16 heatmap in the Views pane; its first element, −999, is the smallest: blue
  const pic = await waitFor(
    'the Views pane to paint outbuf',
    async () => {
      const p = await debugPicture(dump.panelTitle);
      return p?.pixel0 || p?.error ? p : undefined;
    },
    30_000,
    250,
  );
  assert.equal(pic.error, undefined, pic.error);
  assert.equal(pic.label, 'outbuf');
  assert.equal(pic.describe, 'i16 heatmap [64, 32]');
  assert.deepEqual(pic.pixel0, [0, 0, 255, 255]);
  // View as Heatmap (the Variables menu's command) on inbuf: its C type gives i16 elements, 2048 of them in rows of 32
  const variable = { name: 'inbuf', type: 'int16_t [2048]', memoryReference: `MEM:0x${inbuf.address.toString(16).padStart(8, '0')}` };
  assert.equal(await vscode.commands.executeCommand<boolean>('tensorLens.inspector.viewVariableAsHeatmap', { variable }), true);
  const pin = await waitFor(
    'the Views pane to paint inbuf',
    async () => {
      const p = await debugPicture(dump.panelTitle);
      return p?.label === 'inbuf' && (p.pixel0 || p.error) ? p : undefined;
    },
    30_000,
    250,
  );
  assert.equal(pin.error, undefined, pin.error);
  assert.equal(pin.describe, 'i16 heatmap [64, 32]');
  assert.deepEqual(pin.pixel0, [0, 0, 255, 255], 'inbuf[0] = −1000, the smallest: blue');
  // inbuf opened as a second tile beside the configured outbuf (side by side, both painted)
  const tiles = (await vscode.commands.executeCommand<ViewDump>('tensorLens.inspector.debugState', dump.panelTitle))?.pictures ?? [];
  assert.deepEqual(
    tiles.map((t) => [t.label, t.pixel0]),
    [
      ['outbuf', [0, 0, 255, 255]],
      ['inbuf', [0, 0, 255, 255]],
    ],
  );
  // closed again: the later tests of this panel see the whole grid (the pane would stack under it in a narrow panel)
  assert.equal(await vscode.commands.executeCommand<boolean>('tensorLens.inspector.closeView', dump.panelTitle), true);
  await waitFor('the Views pane to close', async () => !(await debugPicture(dump.panelTitle)), 10_000, 100);
  // a second view of the same run: its own panel, same bytes
  const second = await vscode.commands.executeCommand<string>('tensorLens.inspector.newView');
  assert.equal(second, `${dump.panelTitle} · view 2`);
  const v2 = await rowAt(outbuf.address, 'the second view to show outbuf', second);
  assert.equal(v2.dump.runId, r.runId);
  assert.deepEqual(bytesOf(v2.row), bytesOf(row));
  const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === second);
  assert.ok(tab, 'the second view has a tab');
  await vscode.window.tabGroups.close(tab);
}

async function editorTermHighlightsBytes(): Promise<void> {
  const uri = file('examples/test/test.m');
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false, viewColumn: vscode.ViewColumn.One });
  // the hover provider is the tensor-program language's
  const doc = await languageBecomes(uri, TPROG);
  const outbuf = (await vscode.commands.executeCommand<Run>('tensorLens.run', uri.toString()))!.globals!.find((g) => g.name === 'outbuf')!;
  // hover on MEM(req->output) of the store transfer: the panel jumps to what it wrote last (process 1's half of outbuf)
  const pos = positionOf(doc, /^\s*>.*MEM\(req->output\).*<=/, 'MEM(req->output)').translate(0, 2);
  await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, pos);
  const at = outbuf.address + 2048;
  const { dump, row } = await rowAt(at, `the hovered term's bytes (outbuf+2048 = 0x${at.toString(16)}) in the panel`);
  // outbuf = inbuf + 1 (test::add): outbuf[1024 + k] = 1024 + k - 1000 + 1
  assert.deepEqual(bytesOf(row), i16hex([25, 26, 27, 28, 29, 30, 31, 32]));
  assert.match(row.ov, /outbuf/);
  assert.equal(dump.cursor, at, 'the cursor is at the start of the highlighted range');
  // the command does the same for the cursor: on inbuf's transfer (right of <=)
  const editor = await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
  const p2 = positionOf(doc, /^\s*>.*<=.*MEM\(req->input\)/, 'MEM(req->input)').translate(0, 1);
  editor.selection = new vscode.Selection(p2, p2);
  assert.equal(await vscode.commands.executeCommand<boolean>('tensorLens.inspector.showTerm'), true);
  const inbuf = outbuf.address - 4096;
  await rowAt(inbuf + 2048, 'the read range of the load transfer (inbuf+2048)');
  // a launcher takes a screenshot of the workbench with the panel now (test-artifacts/vscode/inspector.png)
  log('@screenshot inspector');
  await sleep(1500);
}

async function runsKeptByIdWithCap(): Promise<void> {
  const c = api().client;
  const ids: number[] = [];
  for (let i = 0; i < 4; i++) ids.push((await runTestM()).runId);
  const read = (runId: number) =>
    c.sendRequest<{ data: string; unit: number; size: number }>('tensorLens/readMemory', { runId, space: 'MEM', start: 0, length: 16 });
  // the last three runs stay readable, each its own
  for (const id of ids.slice(1)) assert.equal((await read(id)).data.length > 0, true, `run ${id} is readable`);
  await assert.rejects(read(ids[0]), /run \d+ is no longer kept/, 'the oldest run was evicted with a clear error');
  await assert.rejects(read(99999), /no run 99999/);
}

export const TESTS: TestCase[] = [
  [
    "the memory inspector opens on the run's first dump (outbuf), labelled with the global and the transfer term, with the configured view painted",
    panelShowsRunBytes,
  ],
  ['hovering a tensor term in test.m highlights its bytes in the panel (outbuf = inbuf + 1); showTerm follows the cursor', editorTermHighlightsBytes],
  ['readMemory serves several runs by runId and reports an evicted run clearly', runsKeptByIdWithCap],
];
