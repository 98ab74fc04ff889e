/** Real-VS-Code tests of layout specs and the layout map (issue 4); index.ts runs them after the foundation tests. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { languageBecomes, open, positionOf } from './util';
import { type TestCase, fmtDiag, hintLabel, hoverText, waitFor } from './suite';

const LAYOUT = 'tensor-layout';
const VIEW_TYPE = 'tensorLens.layoutMap';

interface MapState {
  id: string;
  title: string;
  visible: boolean;
  problem?: string;
  requests: Record<string, number>;
  map?: { title: string; summary?: string; model: string; shape: number[]; panels: number; cols: number; rows: number };
}

const states = async () => (await vscode.commands.executeCommand<MapState[]>('tensorLens.layoutMap.debugState')) ?? [];

function layoutTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(VIEW_TYPE));
}

async function inlayOn(doc: vscode.TextDocument, line: number): Promise<string[]> {
  const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', doc.uri, new vscode.Range(0, 0, doc.lineCount, 0));
  return (hints ?? []).filter((h) => h.position.line === line).map(hintLabel);
}

async function openLayout(rel: string): Promise<vscode.TextDocument> {
  const uri = await open(rel);
  return languageBecomes(uri, LAYOUT);
}

/** T1 of research/layouts.md: (40,17) of a 64×64 bf16 tiled tensor → page 2 → DRAM bank 2, byte 770 (+ base 0x100000). */
async function probeAddresses(): Promise<void> {
  const doc = await openLayout('examples/layouts/tenstorrent.tlayout');
  const probe = positionOf(doc, /^probe a\[40, 17\]/, '40');
  const hints = await waitFor('the inlay hint of probe a[40, 17]', async () => {
    const h = await inlayOn(doc, probe.line);
    return h.length ? h : undefined;
  });
  assert.deepEqual(hints, ['→ DRAM bank 2: 0x100302']);
  const hv = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, probe);
  const text = hoverText(hv ?? []);
  assert.match(text, /DRAM bank 2, address `0x100302`/);
  assert.match(text, /face 1 \(16×16\), in face \(8, 1\)/);
  const errors = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
  assert.deepEqual(errors.map(fmtDiag), []);
}

/** A `.csfbin` beside the spec is read by the server: real entry count in the hint, fiber 1 → entry 2 at byte 16. */
async function csfbinSpec(): Promise<void> {
  const doc = await openLayout('examples/layouts/csfbin.tlayout');
  const t = positionOf(doc, /^tensor A/, 'A');
  const probe = positionOf(doc, /^probe A\[1, 2\]/, '1');
  const summary = await waitFor('the summary hint of tensor A', async () => {
    const h = await inlayOn(doc, t.line);
    return h.length ? h : undefined;
  });
  assert.deepEqual(summary, ['3 entries (50.0 % dense) · 24 B main + 6 metadata words']);
  assert.deepEqual(await inlayOn(doc, probe.line), ['→ 0x10']);
  const hv = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, probe);
  assert.match(hoverText(hv ?? []), /metadata word 4 = t \+ 1 \+ 2 \+ 1/);
}

/** T1 of research/layouts.md as an untitled spec (edited below; an example file on disk must never change). */
const T1 = `target wormhole_b0
tensor a: bfloat16[64, 64] = tt(layout=tile, buffer=dram) at 0x100000
probe a[40, 17]
`;

/** The code lens opens a webview tab of our view type; the page greets the extension and the picture follows edits. */
async function codeLensOpensMap(): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: LAYOUT, content: T1 });
  const ed = await vscode.window.showTextDocument(doc, { preview: false });
  const lenses = await waitFor('the code lenses of the spec', async () => {
    const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    return l && l.length ? l : undefined;
  });
  const lens = lenses.find((l) => l.range.start.line === 1 && l.command?.command === 'tensorLens.openLayoutMap');
  assert.ok(lens, `a "Show layout map" lens on line 2 (got ${lenses.map((l) => `${l.range.start.line + 1}:${l.command?.title}`).join(', ')})`);
  assert.equal(lens.command!.title, 'Show layout map');
  assert.deepEqual(lens.command!.arguments, [doc.uri.toString(), 'a']);
  try {
    const r = await vscode.commands.executeCommand<{ viewType: string; title: string; problem?: string }>(lens.command!.command, ...lens.command!.arguments!);
    assert.equal(r.viewType, VIEW_TYPE);
    assert.equal(r.problem, undefined);
    assert.equal(r.title, 'Layout: a');
    await waitFor('a layout-map webview tab', () => layoutTabs().find((t) => t.label === 'Layout: a'));
    // the page loaded (CSP, script) and asked for the map
    const st = await waitFor('the layout map page to say hello', async () => (await states()).find((s) => s.title === 'Layout: a' && s.requests.hello));
    // T1: 2×2 tiles over 12 DRAM banks, one panel per bank
    assert.equal(st.map?.model, 'tt');
    assert.deepEqual(st.map?.shape, [64, 64]);
    assert.equal(st.map?.panels, 12);
    assert.match(st.map?.summary ?? '', /4 pages over 12 banks/);
    // the picture's locate answer for (40, 17): tile (1, 0) = page 2 → bank 2, byte 770 of the buffer at 0x100000
    const hit = await vscode.commands.executeCommand<{ unit?: number; address?: number } | null>('tensorLens.layoutMap.debugLocate', 'a', [40, 17]);
    assert.equal(hit?.unit, 2);
    assert.equal(hit?.address, 0x100000 + 770);

    // edit the spec: 64×128 has 2×4 = 8 tiles; the open map follows
    await vscode.window.showTextDocument(doc, { preview: false });
    const at = new vscode.Position(1, T1.split('\n')[1].indexOf('64, 64'));
    assert.ok(await ed.edit((e) => e.replace(new vscode.Range(at, at.translate(0, 6)), '64, 128')));
    const after = await waitFor('the map to show the edited tensor', async () =>
      (await states()).find((s) => s.title === 'Layout: a' && s.map?.shape[1] === 128),
    );
    assert.match(after.map?.summary ?? '', /8 pages over 12 banks/);
    // the same lens again reveals the same panel instead of opening a second one
    await vscode.commands.executeCommand(lens.command!.command, ...lens.command!.arguments!);
    assert.equal(layoutTabs().filter((t) => t.label === 'Layout: a').length, 1);
  } finally {
    // close only what this test opened (later suites rely on the editors they opened before)
    await vscode.window.tabGroups.close(layoutTabs());
    await vscode.window.showTextDocument(doc, { preview: false });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await waitFor('the layout map to close', async () => ((await states()).length === 0 ? true : undefined));
}

export const TESTS: TestCase[] = [
  ['layout: a .tlayout becomes tensor-layout; probe inlay hint and hover give the T1 address', probeAddresses],
  ['layout: a .csfbin referenced by the spec is read and validated by the server', csfbinSpec],
  ['layout: the "Show layout map" code lens opens the layout-map webview, which follows edits', codeLensOpensMap],
];
