/**
 * Editing through the language server: incremental didChange, versioned diagnostics, quick fixes
 * applied as edits, completion while typing, re-checks of a `.m` when its `.p` changes, didClose.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  CodeActionRequest,
  CompletionRequest,
  HoverRequest,
  type CodeAction,
  type Diagnostic,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { LspClient, PCORE, posOf, ROOT, TPROG, uriOf } from './lspClient';

const read = (p: string) => readFileSync(`${ROOT}/${p}`, 'utf8');
const MISTAKES_M = read('examples/mistakes/mistakes.m');
const TEST_M = read('examples/test/test.m');
const TEST_P = read('examples/test/test.p');

const summary = (p: PublishDiagnosticsParams) => p.diagnostics.map((d) => `${d.range.start.line + 1}: ${d.code}`);
const has = (p: PublishDiagnosticsParams, code: string, line1: number) =>
  p.diagnostics.some((d: Diagnostic) => d.code === code && d.range.start.line === line1 - 1);

describe('editing through the language server', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await LspClient.start();
  });
  after(async () => {
    if (!lsp) return;
    const errors = lsp.logs.filter((l) => /\[error\]|\[uncaught\]/.test(l));
    if (lsp.alive) assert.equal(await lsp.shutdown(), 0, lsp.stderr);
    assert.deepEqual(errors, [], 'the server logged internal errors');
  });

  it('an incremental didChange that fixes a mistake removes its diagnostic (version-checked)', async () => {
    const uri = await lsp.open('examples/mistakes/mistakes.m', TPROG);
    const v1 = await lsp.diagnostics(uri);
    assert.equal(v1.version, 1);
    assert.ok(has(v1, 'tprog.unknown-member', 15) && has(v1, 'tprog.unterminated', 36), JSON.stringify(summary(v1)));
    // `calc::inn` → `calc::in` (delete one character) and add the missing `;` in one notification
    const n = posOf(MISTAKES_M, 14, 'calc::inn', 8);
    const eol = { line: 35, character: MISTAKES_M.split('\n')[35].length };
    const v = await lsp.change(uri, [
      { range: { start: n, end: { line: n.line, character: n.character + 1 } }, text: '' },
      { range: { start: eol, end: eol }, text: ';' },
    ]);
    assert.equal(v, 2);
    const v2 = await lsp.diagnostics(uri);
    assert.equal(v2.version, 2);
    assert.ok(!has(v2, 'tprog.unknown-member', 15), JSON.stringify(summary(v2)));
    assert.ok(!v2.diagnostics.some((d) => d.code === 'tprog.unterminated'), JSON.stringify(summary(v2)));
    // the other mistakes are still reported where they were
    for (const [code, line] of [
      ['tprog.not-storage', 16],
      ['tprog.guide-ddr', 32],
      ['tprog.undefined-var', 34],
    ] as const)
      assert.ok(has(v2, code, line), `${code} on line ${line}`);
    assert.equal(v2.diagnostics.length, v1.diagnostics.length - 2);
    // re-introduce the mistake: it comes back at the same place
    await lsp.change(uri, [{ range: { start: n, end: n }, text: 'n' }]);
    const v3 = await lsp.diagnostics(uri);
    assert.equal(v3.version, 3);
    assert.ok(has(v3, 'tprog.unknown-member', 15), JSON.stringify(summary(v3)));
    assert.equal(v3.diagnostics.find((d) => d.code === 'tprog.unknown-member')!.range.start.character, 32);
  });

  it('rapid edits: diagnostics of the last version arrive, none newer than the document', async () => {
    const uri = await lsp.open('examples/test/test.m', TPROG);
    await lsp.diagnostics(uri);
    const line = 18;
    const at = posOf(TEST_M, line, 'test::_A', 8);
    // type "BC" after _A one character at a time, then delete it again
    await lsp.change(uri, [{ range: { start: at, end: at }, text: 'B' }]);
    await lsp.change(uri, [{ range: { start: { line, character: at.character + 1 }, end: { line, character: at.character + 1 } }, text: 'C' }]);
    const v4 = await lsp.change(uri, [{ range: { start: at, end: { line, character: at.character + 2 } }, text: '' }]);
    const last = await lsp.diagnostics(uri);
    assert.equal(last.version, v4);
    assert.deepEqual(
      last.diagnostics.filter((d) => d.severity === 1),
      [],
      'the text is the original again',
    );
    for (const p of lsp.published.get(uri)!) assert.ok((p.version ?? 0) <= v4);
    // a request right after a change sees the new text (no stale analysis)
    await lsp.change(uri, [{ range: { start: at, end: at }, text: 'Q' }]);
    const h = await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character: at.character - 3 } });
    assert.match((h?.contents as { value: string }).value, /test::_AQ/);
    await lsp.change(uri, [{ range: { start: at, end: { line, character: at.character + 1 } }, text: '' }]);
    const clean = await lsp.diagnostics(uri);
    assert.deepEqual(
      clean.diagnostics.filter((d) => d.severity === 1),
      [],
    );
    await lsp.close(uri);
  });

  it('applying the DDR → MEM quick fix as an edit removes tprog.guide-ddr', async () => {
    const uri = uriOf('examples/mistakes/mistakes.m'); // still open from the first test, at version 3
    const before = await lsp.diagnostics(uri);
    assert.ok(has(before, 'tprog.guide-ddr', 32));
    const actions = (await lsp.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 31, character: 0 }, end: { line: 31, character: 0 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.diagnostics?.[0]?.code === 'tprog.guide-ddr');
    assert.ok(fix?.edit?.changes?.[uri], JSON.stringify(actions.map((a) => a.title)));
    const v = await lsp.change(
      uri,
      fix.edit.changes[uri].map((e) => ({ range: e.range, text: e.newText })),
    );
    const after = await lsp.diagnostics(uri);
    assert.equal(after.version, v);
    assert.ok(!after.diagnostics.some((d) => d.code === 'tprog.guide-ddr'), JSON.stringify(summary(after)));
    assert.ok(has(after, 'tprog.no-dtype', 32), 'MEM still needs a DTYPE');
    // and the DTYPE fix completes the line
    const more = (await lsp.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 31, character: 0 }, end: { line: 31, character: 0 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    const dtype = more.find((a) => a.title === 'Add DTYPE(INT16)');
    assert.ok(dtype?.edit?.changes?.[uri]);
    await lsp.change(
      uri,
      dtype.edit.changes[uri].map((e) => ({ range: e.range, text: e.newText })),
    );
    const done = await lsp.diagnostics(uri);
    assert.deepEqual(
      done.diagnostics.filter((d) => d.range.start.line === 31).map((d) => d.code),
      [],
    );
    await lsp.close(uri);
  });

  it('completion while typing a new statement: `cls::` members, then `$` variables', async () => {
    const uri = await lsp.open('examples/test/test.m', TPROG);
    await lsp.diagnostics(uri);
    const line = 20; // after `ztaTaskYield();`
    const typed = '   > DTYPE(INT16)PCORE(NUM_PCORE)[:].THREAD[:].test::';
    await lsp.change(uri, [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: typed + '\n' }]);
    const items = await lsp.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line, character: typed.length } });
    const labels = (Array.isArray(items) ? items : (items?.items ?? [])).map((i) => i.label);
    assert.deepEqual(labels.filter((l) => l.startsWith('_')).sort(), ['_A', '_Z']);
    // `$` with a variable defined above
    await lsp.change(uri, [
      { range: { start: { line, character: 0 }, end: { line, character: typed.length } }, text: '   > $v := DTYPE(INT16)MEM(req->input,1024)[:];\n   > $' },
    ]);
    const vars = await lsp.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: line + 1, character: 6 } });
    assert.deepEqual(
      (Array.isArray(vars) ? vars : (vars?.items ?? [])).map((i) => i.label),
      ['$v'],
    );
    await lsp.close(uri);
  });

  it('a change to the `.p` re-checks the open `.m` beside it', async () => {
    const mUri = await lsp.open('examples/test/test.m', TPROG);
    const clean = await lsp.diagnostics(mUri);
    assert.deepEqual(
      clean.diagnostics.filter((d) => d.severity === 1),
      [],
    );
    const pUri = await lsp.open('examples/test/test.p', PCORE, TEST_P);
    await lsp.diagnostics(pUri);
    // rename test::_A to test::_B in the (unsaved) PCORE program
    const decl = posOf(TEST_P, 1, '_A');
    const before = lsp.published.get(mUri)!.length;
    await lsp.change(pUri, [{ range: { start: decl, end: { line: decl.line, character: decl.character + 2 } }, text: '_B' }]);
    const broken = await lsp.diagnostics(
      mUri,
      (p) => lsp.published.get(mUri)!.indexOf(p) >= before && p.diagnostics.some((d) => d.code === 'tprog.unknown-member'),
    );
    assert.ok(has(broken, 'tprog.unknown-member', 19), JSON.stringify(summary(broken)));
    const n = lsp.published.get(mUri)!.length;
    await lsp.change(pUri, [{ range: { start: decl, end: { line: decl.line, character: decl.character + 2 } }, text: '_A' }]);
    const fixed = await lsp.diagnostics(mUri, (p) => lsp.published.get(mUri)!.indexOf(p) >= n);
    assert.deepEqual(
      fixed.diagnostics.filter((d) => d.severity === 1),
      [],
    );
    await lsp.close(pUri);
    await lsp.close(mUri);
  });

  it('didClose clears the diagnostics of the document', async () => {
    const uri = await lsp.open('examples/mistakes/mistakes.m', TPROG);
    const p = await lsp.diagnostics(uri);
    assert.ok(p.diagnostics.length > 5);
    const n = lsp.published.get(uri)!.length;
    await lsp.close(uri);
    const cleared = await lsp.diagnostics(uri, (x) => lsp.published.get(uri)!.indexOf(x) >= n);
    assert.deepEqual(cleared.diagnostics, []);
  });
});
