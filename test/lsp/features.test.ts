/**
 * Language-server features over stdio through a real LSP client (read-only queries on the example
 * programs; edits are in editing.test.ts). The documents are opened with their real file:// URIs, so
 * the server pairs each `.m` with the `.p` beside it on disk and reads the `#include`d headers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  CodeActionRequest,
  CompletionRequest,
  DefinitionRequest,
  DiagnosticSeverity,
  DocumentSymbolRequest,
  HoverRequest,
  InlayHintRequest,
  ReferencesRequest,
  SemanticTokensRequest,
  SignatureHelpRequest,
  type CompletionItem,
  type Diagnostic,
  type DocumentSymbol,
  type Location,
  type MarkupContent,
  type Range,
} from 'vscode-languageserver-protocol/node';
import { ServerStatusRequest, TransferPreviewRequest } from '../../core/protocol/lspExt';
import { LspClient, PCORE, posOf, ROOT, TPROG, uriOf } from './lspClient';

const read = (p: string) => readFileSync(`${ROOT}/${p}`, 'utf8');
const TEST_M = read('examples/test/test.m');
const TEST_P = read('examples/test/test.p');
const BLUR_M = read('examples/blur/blur.m');
const MISTAKES_M = read('examples/mistakes/mistakes.m');

/** Text of `range` in `text` (LSP positions, single- or multi-line). */
function textAt(text: string, range: Range): string {
  const lines = text.split(/\r\n|\r|\n/);
  if (range.start.line === range.end.line) return lines[range.start.line].slice(range.start.character, range.end.character);
  return [
    lines[range.start.line].slice(range.start.character),
    ...lines.slice(range.start.line + 1, range.end.line),
    lines[range.end.line].slice(0, range.end.character),
  ].join('\n');
}

function assertInside(text: string, r: Range, what: string): void {
  const lines = text.split(/\r\n|\r|\n/);
  for (const p of [r.start, r.end]) {
    assert.ok(p.line >= 0 && p.line < lines.length, `${what}: line ${p.line} outside the document (${lines.length} lines)`);
    assert.ok(
      p.character >= 0 && p.character <= lines[p.line].length,
      `${what}: character ${p.character} outside line ${p.line} (length ${lines[p.line].length})`,
    );
  }
  assert.ok(r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character), `${what}: start after end`);
}

const markdown = (h: { contents: unknown } | null): string => {
  assert.ok(h, 'expected a hover');
  const c = h.contents as MarkupContent;
  assert.equal(c.kind, 'markdown');
  return c.value;
};

describe('language server over stdio (examples/)', () => {
  let lsp: LspClient;
  const uri = {
    test: uriOf('examples/test/test.m'),
    testP: uriOf('examples/test/test.p'),
    blur: uriOf('examples/blur/blur.m'),
    mistakes: uriOf('examples/mistakes/mistakes.m'),
    guide: uriOf('examples/guide/transfers.m'),
    broken: uriOf('test/fixtures/lsp/broken.p'),
  };

  before(async () => {
    lsp = await LspClient.start();
    await lsp.open('examples/test/test.m', TPROG);
    await lsp.open('examples/blur/blur.m', TPROG);
    await lsp.open('examples/mistakes/mistakes.m', TPROG);
    await lsp.open('examples/guide/transfers.m', TPROG);
  });

  after(async () => {
    if (!lsp) return;
    const errors = lsp.logs.filter((l) => /\[error\]|\[uncaught\]/.test(l));
    if (lsp.alive) {
      const code = await lsp.shutdown();
      assert.equal(code, 0, `server exit code after shutdown/exit\nstderr:\n${lsp.stderr}`);
    }
    assert.deepEqual(errors, [], 'the server logged internal errors');
  });

  it('announces its capabilities', () => {
    const caps = lsp.initializeResult.capabilities;
    assert.equal(lsp.initializeResult.serverInfo?.name, 'tensor-lens');
    assert.equal(caps.textDocumentSync, 2, 'incremental sync');
    assert.ok(
      caps.hoverProvider &&
        caps.inlayHintProvider &&
        caps.definitionProvider &&
        caps.referencesProvider &&
        caps.documentSymbolProvider &&
        caps.codeActionProvider,
    );
    assert.ok(caps.completionProvider?.triggerCharacters?.includes('$'));
    assert.ok(caps.signatureHelpProvider?.triggerCharacters?.includes('('));
    assert.ok(caps.semanticTokensProvider && caps.semanticTokensProvider.legend.tokenTypes.length > 0);
  });

  it('reports the mistakes of examples/mistakes/mistakes.m on their lines', async () => {
    const p = await lsp.diagnostics(uri.mistakes);
    assert.equal(p.version, 1);
    for (const d of p.diagnostics) {
      assert.equal(d.source, 'tensor-lens');
      assertInside(MISTAKES_M, d.range, `diagnostic ${d.code}`);
    }
    const at = (code: string, line1: number, severity: DiagnosticSeverity = DiagnosticSeverity.Error): Diagnostic => {
      const d = p.diagnostics.find((x) => x.code === code && x.range.start.line === line1 - 1);
      assert.ok(d, `expected ${code} on line ${line1}; got:\n${p.diagnostics.map((x) => `  ${x.range.start.line + 1}: ${x.code}`).join('\n')}`);
      assert.equal(d.severity, severity, `severity of ${code} on line ${line1}`);
      return d;
    };
    assert.equal(textAt(MISTAKES_M, at('tprog.no-dtype', 10).range), 'MEM');
    assert.equal(textAt(MISTAKES_M, at('tprog.for-unused', 12).range).slice(0, 4), 'FOR(');
    at('tprog.for-twice', 13);
    const unknown = at('tprog.unknown-member', 15);
    assert.equal(textAt(MISTAKES_M, unknown.range), 'calc::inn');
    assert.match(String(unknown.message), /did you mean calc::in\b/);
    at('tprog.not-storage', 16);
    at('tprog.shared-thread', 18);
    at('tprog.dtype-mismatch', 20);
    at('tprog.dtype-mismatch', 21);
    at('tprog.index-count', 23);
    at('tprog.write-skipped', 24, DiagnosticSeverity.Warning);
    at('tprog.exe-one-arg', 26);
    assert.equal(textAt(MISTAKES_M, at('tprog.unknown-kernel', 27).range), 'calc::runn');
    at('tprog.not-global', 30);
    assert.equal(textAt(MISTAKES_M, at('tprog.guide-ddr', 32).range), 'DDR');
    at('tprog.no-dtype', 32);
    at('tprog.undefined-var', 34);
    at('tprog.unterminated', 36);
    // the correct lines of the file are not flagged
    for (const line1 of [8, 29])
      assert.deepEqual(
        p.diagnostics.filter((d) => d.range.start.line === line1 - 1).map((d) => d.code),
        [],
        `line ${line1}`,
      );
  });

  it('finds no errors in examples/test/test.m, examples/blur/blur.m and examples/guide/transfers.m', async () => {
    for (const [u, text] of [
      [uri.test, TEST_M],
      [uri.blur, BLUR_M],
      [uri.guide, read('examples/guide/transfers.m')],
    ] as const) {
      const p = await lsp.diagnostics(u);
      const errors = p.diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error);
      assert.deepEqual(
        errors.map((d) => `${d.range.start.line + 1}: ${d.code} ${d.message}`),
        [],
        u,
      );
      for (const d of p.diagnostics) assertInside(text, d.range, `${u} ${d.code}`);
    }
  });

  it('hover on the `<=` of the first transfer of test.m shows 1024 elements and the element table', async () => {
    const pos = posOf(TEST_M, 18, '<=');
    const h = await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri: uri.test }, position: pos });
    const md = markdown(h);
    assert.match(md, /\b1024 elements\b/);
    assert.match(md, /```\nPCORE\s+THREAD\s+_A\s+<=\s+MEM\n-+\n0\s+0\s+0\s+<=/, 'a table whose header names the destination levels and the source');
    assert.match(md, /1008 more \(1024 elements in all\)/);
    assert.ok(h?.range);
    assert.equal(textAt(TEST_M, h.range), '<=');
  });

  it('hover on test::_A shows the member and its word offset 0', async () => {
    const h = await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri: uri.test }, position: posOf(TEST_M, 18, 'test::_A', 7) });
    const md = markdown(h);
    assert.match(md, /`test::_A`/);
    assert.match(md, /word offset 0\b/);
    assert.match(md, /test\.p/);
    assert.equal(textAt(TEST_M, h!.range!), 'test::_A');
  });

  it('hover on a macro shows its value from the header, an expression macro its evaluated value, a machine constant its value', async () => {
    const hover = async (u: string, text: string, line: number, name: string, n = 0) => {
      const h = await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri: u }, position: posOf(text, line, name, 2, n) });
      assert.equal(textAt(text, h!.range!), name);
      return markdown(h);
    };
    // test.h: #define BUFSZ 2048, used in the host C of test.m (line 17)
    assert.equal(await hover(uri.test, TEST_M, 16, 'BUFSZ'), '`#define BUFSZ 2048`  \nfrom test.h');
    // blur.h: #define BLK_H 6, #define TILE_H (BLK_H+2) → 8, used in a tensor statement of blur.m (line 21)
    assert.equal(await hover(uri.blur, BLUR_M, 20, 'TILE_H'), '`#define TILE_H (BLK_H+2)` = **8**  \nfrom blur.h');
    assert.equal(await hover(uri.blur, BLUR_M, 20, 'BLK_H'), '`#define BLK_H 6`  \nfrom blur.h');
    // in host C (line 48): #define BLK_W 4
    assert.equal(await hover(uri.blur, BLUR_M, 47, 'BLK_W'), '`#define BLK_W 4`  \nfrom blur.h');
    // NUM_PCORE is not #defined by the example: the simulator's machine constant (8 PCOREs)
    assert.equal(await hover(uri.test, TEST_M, 18, 'NUM_PCORE'), '`NUM_PCORE` = **8** (machine constant)');
  });

  it('hover outside statements and past the end answers without failing', async () => {
    for (const position of [
      { line: 0, character: 0 },
      { line: 200, character: 3 },
      { line: 18, character: 500 },
    ]) {
      await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri: uri.test }, position });
    }
    assert.equal(
      await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf('examples/not-open.m') }, position: { line: 0, character: 0 } }),
      null,
    );
  });

  it('inlay hints of test.m: the element count and shape at the end of the first transfer', async () => {
    const lines = TEST_M.split('\n');
    const all = await lsp.conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri: uri.test },
      range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
    });
    assert.ok(all);
    const first = all.find((h) => h.position.line === 18);
    assert.ok(first, `hint on line 19; got ${JSON.stringify(all)}`);
    assert.equal(first.label, '1,024 × INT16 (8×16×8)');
    assert.equal(first.position.character, lines[18].length, 'at the end of the statement');
    assert.match(String(first.tooltip), /1024 elements/);
    for (const h of all) assertInside(TEST_M, { start: h.position, end: h.position }, 'inlay hint');
    // range-scoped: no transfer ends in lines 1-10
    const none = await lsp.conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri: uri.test },
      range: { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } },
    });
    assert.deepEqual(none, []);
  });

  it('inlay hints of blur.m stay inside the document', async () => {
    const all = await lsp.conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri: uri.blur },
      range: { start: { line: 0, character: 0 }, end: { line: 60, character: 0 } },
    });
    assert.ok(all && all.length > 0);
    for (const h of all) assertInside(BLUR_M, { start: h.position, end: h.position }, 'inlay hint');
  });

  it('go to definition of test::_A lands on the member _A of its declaration in test.p, from the class part of the name too', async () => {
    for (const delta of [0, 3, 7]) {
      const r = (await lsp.conn.sendRequest(DefinitionRequest.type, {
        textDocument: { uri: uri.test },
        position: posOf(TEST_M, 18, 'test::_A', delta),
      })) as Location[];
      assert.match(TEST_P.split('\n')[1], /^vint16 test::_A;/);
      // `vint16 test::` is 13 characters: the member is 13..15 of line 1, not the class at 7
      assert.deepEqual(
        r.map((l) => [l.uri, l.range]),
        [[uri.testP, { start: { line: 1, character: 13 }, end: { line: 1, character: 15 } }]],
        `from character ${delta} of test::_A`,
      );
    }
  });

  it('go to definition of the kernel test::add lands on add in test.p', async () => {
    const r = (await lsp.conn.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: uri.test },
      position: posOf(TEST_M, 19, 'test::add', 7),
    })) as Location[];
    assert.match(TEST_P.split('\n')[4], /^_kernel_ void test::add\(\) \{/);
    // `_kernel_ void test::` is 20 characters
    assert.deepEqual(
      r.map((l) => [l.uri, l.range]),
      [[uri.testP, { start: { line: 4, character: 20 }, end: { line: 4, character: 23 } }]],
    );
  });

  it('references of the tensor variable $out_pc in blur.m', async () => {
    const pos = posOf(BLUR_M, 41, '$out_pc', 1);
    const withDecl = (await lsp.conn.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: uri.blur },
      position: pos,
      context: { includeDeclaration: true },
    }))!;
    assert.deepEqual(
      withDecl.map((l) => [l.uri, l.range.start.line]),
      [
        [uri.blur, 37],
        [uri.blur, 41],
      ],
    );
    for (const l of withDecl) assert.match(textAt(BLUR_M, l.range), /^\$?out_pc$/);
    const uses = (await lsp.conn.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: uri.blur },
      position: pos,
      context: { includeDeclaration: false },
    }))!;
    assert.deepEqual(
      uses.map((l) => l.range.start.line),
      [41],
    );
    const dst = (await lsp.conn.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: uri.blur },
      position: posOf(BLUR_M, 38, '$dst_mem', 2),
      context: { includeDeclaration: true },
    }))!;
    assert.deepEqual(
      dst.map((l) => l.range.start.line),
      [38, 41],
    );
  });

  it('definition of a $ variable goes to its := definition', async () => {
    const r = (await lsp.conn.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: uri.blur },
      position: posOf(BLUR_M, 41, '$out_pc', 2),
    })) as Location[];
    assert.deepEqual(
      r.map((l) => [l.uri, l.range.start.line]),
      [[uri.blur, 37]],
    );
  });

  const labels = (items: CompletionItem[] | { items: CompletionItem[] } | null) =>
    (items ? (Array.isArray(items) ? items : items.items) : []).map((i) => i.label);

  it('completion after `test::` lists the members of class test', async () => {
    const l = labels(await lsp.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: uri.test }, position: posOf(TEST_M, 18, 'test::', 6) }));
    assert.ok(l.includes('_A') && l.includes('_Z'), JSON.stringify(l));
    assert.ok(!l.includes('EXE_LOCKSTEP'));
  });

  it('completion after `test::` inside EXE_LOCKSTEP( lists the kernels of class test', async () => {
    const l = labels(await lsp.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: uri.test }, position: posOf(TEST_M, 19, 'test::', 6) }));
    assert.deepEqual(l, ['add']);
  });

  it('completion after `$` lists the tensor variables', async () => {
    const l = labels(await lsp.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: uri.blur }, position: posOf(BLUR_M, 41, '$', 1) }));
    assert.ok(l.includes('$out_pc') && l.includes('$dst_mem'), JSON.stringify(l));
  });

  it('completion at the start of a statement lists EXE_LOCKSTEP, DTYPE, PCORE and MEM', async () => {
    const l = labels(await lsp.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: uri.test }, position: posOf(TEST_M, 19, '> ', 2) }));
    for (const k of ['EXE_LOCKSTEP', 'DTYPE', 'PCORE', 'MEM']) assert.ok(l.includes(k), `${k} in ${JSON.stringify(l)}`);
  });

  it('completion outside `>` statements returns nothing', async () => {
    const l = labels(await lsp.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: uri.test }, position: { line: 15, character: 10 } }));
    assert.deepEqual(l, []);
  });

  it('signature help inside EXE_LOCKSTEP( follows the argument', async () => {
    const s0 = await lsp.conn.sendRequest(SignatureHelpRequest.type, { textDocument: { uri: uri.test }, position: posOf(TEST_M, 19, '(', 1) });
    assert.ok(s0);
    assert.match(s0.signatures[0].label, /^EXE_LOCKSTEP\(kernel, num_pcore/);
    assert.equal(s0.activeParameter, 0);
    const s1 = await lsp.conn.sendRequest(SignatureHelpRequest.type, { textDocument: { uri: uri.test }, position: posOf(TEST_M, 19, ',', 1) });
    assert.equal(s1?.activeParameter, 1);
    assert.equal(await lsp.conn.sendRequest(SignatureHelpRequest.type, { textDocument: { uri: uri.test }, position: { line: 15, character: 5 } }), null);
  });

  it('document symbols: C functions with their tensor statements', async () => {
    const syms = (await lsp.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uri.test } })) as DocumentSymbol[];
    assert.deepEqual(
      syms.map((s) => s.name),
      ['do_add', 'kernel_test'],
    );
    const kids = syms[0].children!.map((c) => c.name);
    assert.ok(kids.includes('test::_A <= req->input'), JSON.stringify(kids));
    assert.ok(kids.includes('EXE_LOCKSTEP test::add'), JSON.stringify(kids));
    const walk = (s: DocumentSymbol) => {
      assertInside(TEST_M, s.range, `symbol ${s.name}`);
      assertInside(TEST_M, s.selectionRange, `symbol ${s.name}`);
      s.children?.forEach(walk);
    };
    syms.forEach(walk);
  });

  it('semantic tokens: non-empty, well-formed and typed by the legend', async () => {
    const legend = lsp.initializeResult.capabilities.semanticTokensProvider!.legend;
    const { data } = (await lsp.conn.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: uri.test } }))!;
    assert.ok(data.length > 0);
    assert.equal(data.length % 5, 0);
    const lines = TEST_M.split('\n');
    const toks: { line: number; char: number; text: string; type: string }[] = [];
    let line = 0;
    let char = 0;
    for (let i = 0; i < data.length; i += 5) {
      line += data[i];
      char = data[i] === 0 ? char + data[i + 1] : data[i + 1];
      assert.ok(data[i + 3] < legend.tokenTypes.length);
      assert.ok(line < lines.length && char + data[i + 2] <= lines[line].length, `token ${i / 5} at ${line}:${char}+${data[i + 2]} outside its line`);
      toks.push({ line, char, text: lines[line].slice(char, char + data[i + 2]), type: legend.tokenTypes[data[i + 3]] });
    }
    assert.ok(
      toks.some((t) => t.line === 18 && t.text === 'DTYPE' && t.type === 'keyword'),
      JSON.stringify(toks.filter((t) => t.line === 18)),
    );
    assert.ok(
      toks.every((t) => /^\s*>/.test(lines[t.line]) || /\$\w/.test(t.text) || t.type === 'function'),
      'tokens only on statement lines (or kernel references in C)',
    );
  });

  it('code actions: the DDR → MEM quick fix on mistakes.m line 32', async () => {
    const d = (await lsp.diagnostics(uri.mistakes)).diagnostics.filter((x) => x.range.start.line === 31);
    const actions = (await lsp.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: uri.mistakes },
      range: { start: { line: 31, character: 0 }, end: { line: 31, character: 0 } },
      context: { diagnostics: d },
    }))!;
    const mem = actions.find((a) => 'edit' in a && a.edit?.changes?.[uri.mistakes]?.some((e) => e.newText === 'MEM'));
    assert.ok(mem && 'kind' in mem, `a quick fix writing MEM; got ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(mem.kind, 'quickfix');
    assert.equal(mem.isPreferred, true);
    assert.equal(mem.diagnostics?.[0].code, 'tprog.guide-ddr');
    const edit = mem.edit!.changes![uri.mistakes][0];
    assert.equal(textAt(MISTAKES_M, edit.range), 'DDR');
    assert.ok(actions.some((a) => a.title === 'Add DTYPE(INT16)'));
    // the unterminated statement gets `Add ;`
    const semi = (await lsp.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: uri.mistakes },
      range: { start: { line: 35, character: 0 }, end: { line: 35, character: 1 } },
      context: { diagnostics: [] },
    }))!;
    const add = semi.find((a) => a.title === 'Add `;`');
    assert.ok(add && 'edit' in add);
    assert.equal(add.edit!.changes![uri.mistakes][0].range.start.character, MISTAKES_M.split('\n')[35].length);
    // a line without mistakes has no action
    assert.deepEqual(
      await lsp.conn.sendRequest(CodeActionRequest.type, {
        textDocument: { uri: uri.mistakes },
        range: { start: { line: 7, character: 0 }, end: { line: 7, character: 0 } },
        context: { diagnostics: [] },
      }),
      [],
    );
  });

  it('a `.p` document gets its own PCORE diagnostics, hover and outline', async () => {
    const text = read('test/fixtures/lsp/broken.p');
    await lsp.open('test/fixtures/lsp/broken.p', PCORE);
    const p = await lsp.diagnostics(uri.broken);
    const got = p.diagnostics.map((d) => `${d.range.start.line + 1}: ${d.code}`);
    assert.ok(got.includes('7: pcore.undefined'), JSON.stringify(got));
    assert.ok(got.includes('8: pcore.syntax'), JSON.stringify(got));
    assert.ok(p.diagnostics.every((d) => d.severity === DiagnosticSeverity.Error && d.source === 'tensor-lens'));
    for (const d of p.diagnostics) assertInside(text, d.range, d.code as string);
    assert.equal(textAt(text, p.diagnostics.find((d) => d.code === 'pcore.undefined')!.range), 'undefined_thing');
    const h = await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri: uri.broken }, position: posOf(text, 11, 'gain', 1) });
    assert.match(markdown(h), /gain/);
    const syms = (await lsp.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uri.broken } })) as DocumentSymbol[];
    assert.deepEqual(
      syms.map((s) => s.name),
      ['brk'],
    );
    assert.deepEqual(syms[0].children!.map((c) => c.name).sort(), ['a', 'ok', 'run', 'tab'].sort());
  });

  it('an example `.p` opened as pcore has no errors', async () => {
    const u = await lsp.open('examples/test/test.p', PCORE);
    const p = await lsp.diagnostics(u);
    assert.deepEqual(
      p.diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error),
      [],
    );
  });

  it('custom request tensorLens/transferPreview', async () => {
    const fn = await lsp.conn.sendRequest(TransferPreviewRequest, { uri: uri.test, function: 'do_add', rows: 4 });
    assert.equal(fn.transfers, 2);
    assert.match(fn.markdown, /^# Transfers of `do_add`/);
    assert.match(fn.markdown, /## line 19\n/);
    assert.match(fn.markdown, /## line 22\n/);
    assert.match(fn.markdown, /PCORE\s+THREAD\s+_A\s+<=\s+MEM/);
    assert.match(fn.markdown, /… 1020 more \(1024 elements in all\)/, 'rows limit honoured');
    const none = await lsp.conn.sendRequest(TransferPreviewRequest, { uri: uri.test, function: 'kernel_test' });
    assert.equal(none.transfers, 0);
    assert.match(none.markdown, /_no transfers_/);
    const file = await lsp.conn.sendRequest(TransferPreviewRequest, { uri: uri.blur });
    assert.ok(file.transfers >= 5, `blur.m transfers: ${file.transfers}`);
    const notOpen = await lsp.conn.sendRequest(TransferPreviewRequest, { uri: uriOf('examples/nothing.m') });
    assert.equal(notOpen.transfers, 0);
  });

  it('custom request tensorLens/serverStatus', async () => {
    const s = await lsp.conn.sendRequest(ServerStatusRequest);
    assert.ok(s.documents >= 4);
    assert.equal(typeof s.version, 'string');
    assert.ok(s.lastCheckMs >= 0);
  });
});
