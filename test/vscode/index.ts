/**
 * Integration suite that runs INSIDE a real VS Code extension host (the `extensionTestsPath` module).
 * The same bundle (dist/test/vscode/index.js) serves both launchers:
 *   - scripts/test-vscode.mjs: VS Code 1.139 server from code-server, workbench in Chromium (offline);
 *   - test/vscode/runElectron.ts: @vscode/test-electron with a desktop build (VSCODE_EXECUTABLE).
 * Both open the repository as the workspace. The tests are listed explicitly below (no file globbing);
 * the last line printed is `N passed, M failed`, and run() rejects when anything failed.
 */
import * as path from 'node:path';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import { type RunResult, log, setRoot, file, open, languageBecomes, positionOf, liveDoc } from './util';
import { EXTENSION_ID, TPROG, PCORE, type TensorLensApi, type TestCase, runSuite, sleep, waitFor, codeOf, fmtDiag, hoverText, hintLabel } from './suite';
import { TESTS as CSF_TESTS } from './csf';
import { TESTS as LAYOUT_TESTS } from './layout';
import { TESTS as INSPECTOR_TESTS } from './inspector';
import { TESTS as DEBUG_TESTS } from './debug';
import { TESTS as RUN_VALUES_TESTS } from './runValues';
import { TESTS as DEBUG_EDITOR_TESTS } from './debugEditors';
import { TESTS as RUN_CONFIG_TESTS } from './runConfig';
import { TESTS as CREATE_RUN_CONFIG_TESTS } from './createRunConfig';
import { TESTS as RECOVERY_TESTS } from './recovery';
import { TESTS as WALKTHROUGH_TESTS } from './walkthrough';
import { TESTS as COMMAND_LINE_TESTS } from './commandLine';
import { TESTS as LAZY_TESTS } from './lazy';

// ---------------------------------------------------------------- tests

const FIRST_TRANSFER = /^\s*>.*<=/;
let api: TensorLensApi;

function locateExtension(): void {
  const ext = vscode.extensions.getExtension<TensorLensApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded (extensionDevelopmentPath must be the repository)`);
  setRoot(ext.extensionUri);
}

async function activates(): Promise<void> {
  const ext = vscode.extensions.getExtension<TensorLensApi>(EXTENSION_ID)!;
  log(
    `  VS Code ${vscode.version}, extension at ${file('.').toString()}, ` +
      `workspace ${vscode.workspace.workspaceFolders?.map((f) => f.uri.toString()).join(', ') ?? '(none)'}`,
  );
  api = await ext.activate();
  assert.ok(api && api.ready, 'activate() must return { client, ready }');
  await api.ready;
  const commands = await vscode.commands.getCommands(true);
  for (const c of ['tensorLens.previewTransfers', 'tensorLens.showServerStatus', 'tensorLens.restartServer'])
    assert.ok(commands.includes(c), `command ${c} is not registered`);
}

async function mistakesBecomesTprog(): Promise<void> {
  const t0 = Date.now();
  const uri = file('examples/mistakes/mistakes.m');
  const doc = await vscode.workspace.openTextDocument(uri);
  const t1 = Date.now();
  await vscode.window.showTextDocument(doc, { preview: false });
  const t2 = Date.now();
  await languageBecomes(uri, TPROG);
  log(`    (opened in ${t1 - t0} ms, shown in ${t2 - t1} ms, switched to ${TPROG} ${Date.now() - t2} ms later)`);
}

async function mistakesDiagnostics(): Promise<void> {
  const uri = file('examples/mistakes/mistakes.m');
  await languageBecomes(uri, TPROG);
  // [1-based line, code, severity]
  const expected: [number, string, vscode.DiagnosticSeverity][] = [
    [10, 'tprog.no-dtype', vscode.DiagnosticSeverity.Error],
    [12, 'tprog.for-unused', vscode.DiagnosticSeverity.Error],
    [13, 'tprog.for-twice', vscode.DiagnosticSeverity.Error],
    [15, 'tprog.unknown-member', vscode.DiagnosticSeverity.Error],
    [20, 'tprog.dtype-mismatch', vscode.DiagnosticSeverity.Error],
    [24, 'tprog.write-skipped', vscode.DiagnosticSeverity.Warning],
    [27, 'tprog.unknown-kernel', vscode.DiagnosticSeverity.Error],
    [32, 'tprog.guide-ddr', vscode.DiagnosticSeverity.Error],
    [36, 'tprog.unterminated', vscode.DiagnosticSeverity.Error],
  ];
  const has = (ds: vscode.Diagnostic[], [line, code, sev]: (typeof expected)[number]) =>
    ds.some((d) => d.range.start.line + 1 === line && codeOf(d) === code && d.severity === sev);
  let diags: vscode.Diagnostic[] = [];
  try {
    diags = await waitFor(
      'diagnostics of mistakes.m',
      () => {
        const ds = vscode.languages.getDiagnostics(uri);
        return expected.every((e) => has(ds, e)) ? ds : undefined;
      },
      30_000,
    );
  } catch (e) {
    diags = vscode.languages.getDiagnostics(uri);
    const missing = expected.filter((x) => !has(diags, x)).map(([l, c, s]) => `${l} ${c} ${vscode.DiagnosticSeverity[s]}`);
    throw new Error(
      `${(e as Error).message}\n      missing: ${missing.join('; ')}\n      got ${diags.length}:\n        ${diags.map(fmtDiag).join('\n        ')}`,
    );
  }
  const noDtype = diags.find((d) => codeOf(d) === 'tprog.no-dtype' && d.range.start.line === 9)!;
  assert.match(noDtype.message, /DTYPE is not defined/);
  assert.ok(diags.length >= 15, `expected at least 15 diagnostics, got ${diags.length}`);
  // Nothing is reported on comment lines or on the lines that are plain C.
  for (const line of [1, 2, 3, 5, 7, 8, 9])
    assert.ok(
      !diags.some((d) => d.range.start.line + 1 === line),
      `unexpected diagnostic on line ${line}: ${diags
        .filter((d) => d.range.start.line + 1 === line)
        .map(fmtDiag)
        .join('; ')}`,
    );
}

async function testMClean(): Promise<void> {
  const t0 = Date.now();
  const uri = await open('examples/test/test.m');
  const t1 = Date.now();
  const doc = await languageBecomes(uri, TPROG);
  const t2 = Date.now();
  // A hover answered proves the server has the document and has analysed it; diagnostics are
  // published right after the open, so give them a quiet window in which no error may appear.
  const pos = positionOf(doc, FIRST_TRANSFER, '<=');
  await waitFor('a hover from the server on test.m', async () => {
    const hs = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos);
    return hs && hs.length > 0 ? hs : undefined;
  });
  const t3 = Date.now();
  log(`    (shown in ${t1 - t0} ms, switched ${t2 - t1} ms later, first hover ${t3 - t2} ms later)`);
  while (Date.now() - t3 < 1500) {
    const errors = vscode.languages.getDiagnostics(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
    assert.deepEqual(errors.map(fmtDiag), [], 'test.m must have no error diagnostics');
    await sleep(100);
  }
}

async function hoverOnTransfer(): Promise<void> {
  const uri = file('examples/test/test.m');
  const doc = await languageBecomes(uri, TPROG);
  const pos = positionOf(doc, FIRST_TRANSFER, '<=');
  assert.equal(pos.line + 1, 19, 'the first transfer of test.m is on line 19');
  const text = await waitFor('hover on the first <= of test.m', async () => {
    const t = hoverText((await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos.translate(0, 1))) ?? []);
    return t.includes('**transfer**') ? t : undefined;
  });
  assert.match(text, /\*\*transfer\*\* 1024 elements/);
  assert.match(text, /elements: 1024 \(8×16×8\) of INT16/);
  assert.match(text, /^PCORE\s+THREAD\s+_A\s+<=\s+MEM\s*$/m, `hover has no table header:\n${text}`);
  assert.match(text, /^0\s+0\s+0\s+<=\s+\S+\s*$/m, `hover has no first table row:\n${text}`);
  assert.match(text, /1024 elements in all/);
}

async function inlayHint(): Promise<void> {
  const uri = file('examples/test/test.m');
  const doc = await languageBecomes(uri, TPROG);
  const range = new vscode.Range(0, 0, doc.lineCount, 0);
  const hints = await waitFor('inlay hints of test.m', async () => {
    const hs = await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', uri, range);
    return hs && hs.length > 0 ? hs : undefined;
  });
  const h = hints.find((x) => hintLabel(x).includes('1,024'));
  assert.ok(h, `no inlay hint with 1,024: ${hints.map((x) => `${x.position.line + 1}: ${hintLabel(x)}`).join('; ')}`);
  assert.equal(h.position.line + 1, 19);
  assert.match(hintLabel(h), /1,024 × INT16/);
}

async function definitionIntoP(): Promise<void> {
  const uri = file('examples/test/test.m');
  const doc = await languageBecomes(uri, TPROG);
  const pos = positionOf(doc, FIRST_TRANSFER, 'test::_A').translate(0, 'test::'.length + 1);
  const locs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', uri, pos);
  assert.ok(locs && locs.length > 0, 'no definition for test::_A');
  const first = locs[0];
  const target =
    'targetUri' in first ? { uri: first.targetUri, range: first.targetSelectionRange ?? first.targetRange } : { uri: first.uri, range: first.range };
  assert.equal(path.posix.basename(target.uri.path), 'test.p', `definition went to ${target.uri.toString()}`);
  assert.equal(target.uri.toString(), file('examples/test/test.p').toString());
  const pDoc = await vscode.workspace.openTextDocument(target.uri);
  assert.equal(target.range.start.line + 1, 2);
  assert.match(pDoc.lineAt(target.range.start.line).text, /vint16 test::_A;/);
}

async function documentSymbols(): Promise<void> {
  const uri = file('examples/test/test.m');
  await languageBecomes(uri, TPROG);
  const syms = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[]>('vscode.executeDocumentSymbolProvider', uri);
  assert.ok(syms && syms.length > 0, 'no document symbols for test.m');
  const names: string[] = [];
  const walk = (s: vscode.DocumentSymbol | vscode.SymbolInformation) => {
    names.push(s.name);
    if ('children' in s) s.children.forEach(walk);
  };
  syms.forEach(walk);
  assert.ok(names.includes('do_add'), `do_add missing from ${names.join(', ')}`);
  assert.ok(names.includes('kernel_test'), `kernel_test missing from ${names.join(', ')}`);
  const doAdd = syms.find((s) => s.name === 'do_add')!;
  assert.equal(doAdd.kind, vscode.SymbolKind.Function);
}

async function pBecomesPcore(): Promise<void> {
  const uri = await open('examples/test/test.p');
  await languageBecomes(uri, PCORE);
}

async function plainMStaysAlone(): Promise<void> {
  const plain = await open('test/vscode/fixtures/plain.m');
  // A tensor program opened after it is switched; once that happened, the (earlier) plain.m has had
  // its turn too. Then allow a further moment before checking.
  const control = await open('examples/guide/transfers.m', false);
  await languageBecomes(control, TPROG);
  await sleep(750);
  const d = liveDoc(plain);
  assert.ok(d, 'plain.m is not open');
  assert.notEqual(d.languageId, TPROG, 'plain.m (Objective-C) was switched to tensor-program');
  assert.notEqual(d.languageId, PCORE);
  log(`    (plain.m stays ${d.languageId})`);
}

async function previewTransfers(): Promise<void> {
  const uri = file('examples/test/test.m');
  await languageBecomes(uri, TPROG);
  const before = new Set(vscode.workspace.textDocuments);
  await vscode.commands.executeCommand('tensorLens.previewTransfers', uri.toString());
  const md = await waitFor('the transfer preview document', () => vscode.workspace.textDocuments.find((d) => !before.has(d) && d.languageId === 'markdown'));
  assert.match(md.getText(), /transfer|<=/i);
}

async function runProgram(): Promise<void> {
  const uri = file('examples/test/test.m');
  await languageBecomes(uri, TPROG);
  // examples/test/tensorlens.run.json dumps outbuf and inbuf; the kernel adds 1 to every element
  const r = await vscode.commands.executeCommand<RunResult>('tensorLens.run', uri.toString());
  assert.ok(r, 'tensorLens.run returned nothing');
  assert.equal(r.error, null, r.error?.message);
  // 6 transfers and kernels, and ztaJobDone's CALLBACK
  assert.equal(r.summary.statements, 7);
  const [out, inp] = r.dumps.map((d) => d.values ?? []);
  assert.equal(out.length, 16);
  out.forEach((v, i) => assert.equal(v, inp[i] + 1, `outbuf[${i}]`));
}

async function runErrorBecomesDiagnostic(): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: TPROG, content: 'void main(void) {\n   int x = 1;\n   mystery_call(x);\n}\n' });
  const r = await vscode.commands.executeCommand<RunResult>('tensorLens.run', doc.uri.toString());
  assert.ok(r?.error, 'the run should fail');
  assert.match(r.error.message, /not simulated/);
  const d = await waitFor('a run diagnostic on line 3', () =>
    vscode.languages.getDiagnostics(doc.uri).find((x) => codeOf(x)?.startsWith('run.') && x.range.start.line === 2),
  );
  assert.match(d.message, /mystery_call/);
}

async function openMemoryInspector(): Promise<void> {
  const uri = file('examples/test/test.m');
  await languageBecomes(uri, TPROG);
  const r = await vscode.commands.executeCommand<RunResult>('tensorLens.run', uri.toString());
  assert.ok(r, 'tensorLens.run returned nothing');
  assert.equal(r.error, null, r.error?.message);
  const opened = await vscode.commands.executeCommand<boolean>('tensorLens.openMemoryInspector');
  assert.equal(opened, true, 'tensorLens.openMemoryInspector did not open the panel');
  const tab = await waitFor('a memory inspector tab', () =>
    vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('tensorLens.inspector')),
  );
  assert.match(tab.label, /^Memory: test\.m/);
}

const TESTS: TestCase[] = [
  ['the extension activates, its language server starts and its commands exist', activates],
  ['mistakes.m (a .m file) becomes tensor-program', mistakesBecomesTprog],
  ['mistakes.m gets its diagnostics on the right lines with the right codes', mistakesDiagnostics],
  ['test.m becomes tensor-program and has no error diagnostics', testMClean],
  ['hover on the <= of the first transfer of test.m shows 1024 elements and a table', hoverOnTransfer],
  ['inlay hint on the first transfer of test.m says 1,024', inlayHint],
  ['go to definition of test::_A in test.m jumps into test.p', definitionIntoP],
  ['document symbols of test.m list do_add', documentSymbols],
  ['test.p becomes pcore', pBecomesPcore],
  ['an Objective-C plain.m does not become tensor-program', plainMStaysAlone],
  ['tensorLens.previewTransfers opens a markdown preview of test.m', previewTransfers],
  ['tensorLens.run runs test.m on the simulator with its run configuration', runProgram],
  ['a run-time error becomes a diagnostic at the faulting line', runErrorBecomesDiagnostic],
  ['tensorLens.openMemoryInspector opens the memory inspector on the last run of test.m', openMemoryInspector],
];

// ---------------------------------------------------------------- runner

export function run(): Promise<void> {
  return runSuite(Mocha, {
    title: `Tensor Lens in VS Code ${vscode.version}`,
    timeout: 60_000,
    log,
    before: ['find the extension under test', locateExtension],
    // the lazy-start tests first: nothing of ours may have been opened before them
    tests: [
      ...LAZY_TESTS,
      ...TESTS,
      ...CSF_TESTS,
      ...LAYOUT_TESTS,
      ...INSPECTOR_TESTS,
      ...RUN_VALUES_TESTS,
      ...DEBUG_TESTS,
      ...DEBUG_EDITOR_TESTS,
      ...RUN_CONFIG_TESTS,
      ...CREATE_RUN_CONFIG_TESTS,
      ...WALKTHROUGH_TESTS,
      ...COMMAND_LINE_TESTS,
      ...RECOVERY_TESTS,
    ],
    after: [
      'leave the editor showing mistakes.m and its problems',
      async () => {
        try {
          await open('examples/mistakes/mistakes.m');
          await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
          await vscode.commands.executeCommand('workbench.actions.view.problems');
          await sleep(1000);
          // A launcher may take a screenshot now, while the extension host (and its diagnostics) still
          // lives: scripts/test-vscode.mjs does, into test-artifacts/vscode/problems.png.
          log('@screenshot problems');
          await sleep(2000);
        } catch {
          /* cosmetic only */
        }
      },
    ],
  });
}
