/**
 * `tensorLens/readFile` (server → client): a document of a virtual workspace (`vscode-vfs://`) has its `.p`, its headers and its
 * spec's `.csfbin` read through the client, which this test is (it answers from the fixture folder test/vscode-web/workspace, as
 * the extension answers from vscode.workspace.fs). `file:` documents are read from disk and never ask; a client that did not
 * announce the capability is never asked. Expected diagnostics are those of `tensor-lens check` on the folder (README there).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  DidChangeWatchedFilesNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { CLIENT_READS_FILES, ReadFileRequest, type ReadFileParams, type ReadFileResult } from '../../core/protocol/lspExt';
import { LspClient, ROOT, TPROG, uriOf } from './lspClient';

const WS = join(ROOT, 'test/vscode-web/workspace');
const VFS = 'vscode-vfs://github/proj';
const read = (rel: string) => readFileSync(join(WS, rel));

/** The virtual workspace: URI → bytes, or a refusal. */
const files = new Map<string, Buffer | { refused: string }>([
  [`${VFS}/pair/pair.p`, read('pair/pair.p')],
  [`${VFS}/pair/pair.h`, read('pair/pair.h')],
  [`${VFS}/layout/A.csfbin`, read('layout/A.csfbin')],
  [`${VFS}/layout/dir.csfbin`, { refused: 'a folder, not a file' }],
]);

function answer(p: ReadFileParams): ReadFileResult {
  const f = files.get(p.uri);
  if (!f) return { kind: 'missing' };
  if (!Buffer.isBuffer(f)) return { kind: 'refused', reason: f.refused };
  return p.as === 'text' ? { kind: 'text', text: f.toString('utf8') } : { kind: 'bytes', base64: f.toString('base64') };
}

const brief = (p: PublishDiagnosticsParams) => p.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`);

describe('files read through the client (tensorLens/readFile)', () => {
  let lsp: LspClient;
  const asked: ReadFileParams[] = [];

  before(async () => {
    lsp = await LspClient.start({ experimental: { [CLIENT_READS_FILES]: true } });
    lsp.conn.onRequest(ReadFileRequest, (p) => {
      asked.push(p);
      return answer(p);
    });
  });
  after(() => lsp.shutdown());

  async function openVirtual(path: string, languageId: string): Promise<string> {
    const uri = `${VFS}/${path}`;
    await lsp.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text: read(path).toString('utf8') } });
    return uri;
  }

  it('a virtual .m is checked with its closed .p and header, and no check is published without them', async () => {
    const uri = await openVirtual('pair/pair.m', TPROG);
    const p = await lsp.diagnostics(uri, (x) => x.diagnostics.length > 0);
    // pair::_C is not in pair.p (which names pair::_A); LEN comes from pair.h
    assert.deepEqual(brief(p), ['6:75 tprog.unknown-member']);
    assert.match(String(p.diagnostics[0].message), /`pair::_C` is not a variable of the PCORE program; did you mean pair::_A\?/);
    // held back while the files were on their way: no publication ever said LEN was unknown or lacked the member check
    for (const q of lsp.published.get(uri) ?? []) assert.deepEqual(brief(q), ['6:75 tprog.unknown-member']);
    const texts = asked.filter((a) => a.as === 'text').map((a) => a.uri);
    assert.ok(texts.includes(`${VFS}/pair/pair.p`) && texts.includes(`${VFS}/pair/pair.h`), texts.join(', '));
    assert.ok(
      asked.every((a) => a.uri.startsWith(`${VFS}/`)),
      asked.map((a) => a.uri).join(', '),
    );
    // the hover on pair::_A shows it from the .p that is not open
    const line = read('pair/pair.m').toString('utf8').split('\n')[3];
    const h = await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 3, character: line.indexOf('pair::_A') + 7 } });
    assert.match(JSON.stringify(h?.contents), /pair::_A/);
  });

  it("a spec's .csfbin comes as bytes, confined to its roots; a refusal is shown with the client's reason", async () => {
    const spec = `${VFS}/layout/sparse.tlayout`;
    await lsp.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: spec, languageId: 'tensor-layout', version: 1, text: read('layout/sparse.tlayout').toString('utf8') },
    });
    const ok = await lsp.diagnostics(spec, () => true);
    assert.deepEqual(brief(ok), []);
    const req = asked.find((a) => a.uri === `${VFS}/layout/A.csfbin`);
    assert.equal(req?.as, 'bytes');
    assert.ok(req?.roots?.includes(`${VFS}/layout`), JSON.stringify(req?.roots));

    // the file changes in the client's file system, which says so (file events): asked again, the spec checked again
    const n = lsp.published.get(spec)!.length;
    files.set(`${VFS}/layout/A.csfbin`, Buffer.from('root:x:0:0\n'));
    await lsp.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: `${VFS}/layout/A.csfbin`, type: 2 }] });
    const bad = await lsp.diagnostics(spec, (x) => lsp.published.get(spec)!.indexOf(x) >= n && x.diagnostics.length > 0);
    assert.deepEqual(brief(bad), ['2:39 CSF009']);
    assert.equal(String(bad.diagnostics[0].message), 'A.csfbin: not a .csfbin file (bad magic)');
    files.set(`${VFS}/layout/A.csfbin`, read('layout/A.csfbin'));

    const refused = `${VFS}/layout/refused.tlayout`;
    await lsp.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: refused, languageId: 'tensor-layout', version: 1, text: 'tensor D: float32[2, 3] = fibers(file="dir.csfbin", main=0, meta=0)\n' },
    });
    const d = await lsp.diagnostics(refused, (x) => x.diagnostics.length > 0);
    assert.deepEqual(brief(d), ['1:39 CSF009']);
    assert.match(String(d.diagnostics[0].message), /^dir\.csfbin: .*dir\.csfbin: a folder, not a file$/);
  });

  it('an untitled document has no siblings to ask for', async () => {
    const n = asked.length;
    const uri = 'untitled:Untitled-1';
    await lsp.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: TPROG, version: 1, text: read('pair/pair.m').toString('utf8') },
    });
    const p = await lsp.diagnostics(uri, (x) => x.diagnostics.length > 0);
    assert.deepEqual(brief(p), ['4:82 tprog.unknown-name', '6:27 tprog.unknown-name']);
    assert.deepEqual(
      asked.slice(n).map((a) => a.uri),
      [],
    );
  });

  it('a file: document is read from disk: the client is not asked', async () => {
    const n = asked.length;
    const uri = await lsp.open('examples/test/test.m', TPROG);
    const p = await lsp.diagnostics(uri);
    assert.deepEqual(
      p.diagnostics.filter((d) => d.severity === 1),
      [],
    );
    assert.equal(uri, uriOf('examples/test/test.m'));
    assert.deepEqual(asked.slice(n), []);
  });
});

describe('a client that does not announce tensorLens/readFile', () => {
  it('is never asked: a virtual .m is checked without its .p and header', async () => {
    const lsp = await LspClient.start();
    let asked = 0;
    lsp.conn.onRequest(ReadFileRequest, () => {
      asked++;
      return { kind: 'missing' } as const;
    });
    try {
      const uri = `${VFS}/pair/pair.m`;
      await lsp.conn.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: TPROG, version: 1, text: read('pair/pair.m').toString('utf8') },
      });
      const p = await lsp.diagnostics(uri, (x) => x.diagnostics.length > 0);
      // LEN unknown on lines 4 and 6 (the header was not found); no member check without the .p
      assert.deepEqual(brief(p), ['4:82 tprog.unknown-name', '6:27 tprog.unknown-name']);
      assert.equal(asked, 0);
    } finally {
      await lsp.shutdown();
    }
  });
});
