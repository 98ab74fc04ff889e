/**
 * `fibers(file=…)` in the language server reads only in the workspace folders and the spec's own folder
 * (#16 item 10): an absolute path, `../` out of them or a symbolic link whose real path is outside is
 * refused with a clear diagnostic, a text file named `.csfbin` is "not a .csfbin file (bad magic)"
 * without its bytes, and a folder the client adds to the workspace becomes readable.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeWorkspaceFoldersNotification } from 'vscode-languageserver-protocol/node';
import { LspClient, ROOT } from './lspClient';

const LAYOUT = 'tensor-layout';
const A = readFileSync(join(ROOT, 'examples', 'layouts', 'A.csfbin'));
let base: string;
let ws: string;
let out: string;
let lsp: LspClient;

before(async () => {
  base = mkdtempSync(join(tmpdir(), 'tl-lsp-csf-'));
  ws = join(base, 'ws');
  out = join(base, 'outside');
  mkdirSync(join(ws, 'specs'), { recursive: true });
  mkdirSync(out);
  writeFileSync(join(ws, 'A.csfbin'), A);
  writeFileSync(join(out, 'B.csfbin'), A);
  writeFileSync(join(out, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
  writeFileSync(join(ws, 'text.csfbin'), 'root:x:0:0\n');
  if (process.platform !== 'win32') {
    symlinkSync(join(out, 'passwd'), join(ws, 'link.csfbin'));
    symlinkSync(join(ws, 'loop2.csfbin'), join(ws, 'loop1.csfbin'));
    symlinkSync(join(ws, 'loop1.csfbin'), join(ws, 'loop2.csfbin'));
  }
  lsp = await LspClient.start({ workspaceFolders: [ws] });
});
after(async () => {
  await lsp?.shutdown();
  rmSync(base, { recursive: true, force: true });
});

/** The CSF009 message of a spec reading `file` (undefined when it reads without error). */
async function readError(file: string, n: number): Promise<string | undefined> {
  const path = join(ws, 'specs', `s${n}.tlayout`);
  const text = `tensor s: float32[2, 3] = fibers(file=${JSON.stringify(file)})\n`;
  const uri = await lsp.open(path, LAYOUT, text);
  const p = await lsp.diagnostics(uri);
  const m = p.diagnostics.find((d) => d.code === 'CSF009')?.message;
  return typeof m === 'string' ? m : m?.value;
}

let n = 0;
test('inside the workspace folder: read (also ../ within it)', { timeout: 30_000 }, async () => {
  assert.equal(await readError('../A.csfbin', ++n), undefined);
  assert.equal(await readError(join(ws, 'A.csfbin'), ++n), undefined);
});

test('outside: absolute paths, ../ and links are refused; no bytes of a text file are shown', { timeout: 30_000 }, async () => {
  assert.match((await readError('/etc/passwd.csfbin', ++n)) ?? '', /is outside the workspace/);
  assert.match((await readError('../../outside/B.csfbin', ++n)) ?? '', /is outside the workspace/);
  const text = (await readError('../text.csfbin', ++n)) ?? '';
  assert.equal(text, '../text.csfbin: not a .csfbin file (bad magic)');
  if (process.platform !== 'win32') {
    const link = (await readError('../link.csfbin', ++n)) ?? '';
    assert.match(link, /a symbolic link leading outside the workspace/);
    assert.doesNotMatch(link, /1953460082|found/);
    assert.match((await readError('../loop1.csfbin', ++n)) ?? '', /file not found/);
  }
});

test('a folder added to the workspace becomes readable', { timeout: 30_000 }, async () => {
  await lsp.conn.sendNotification(DidChangeWorkspaceFoldersNotification.type, {
    event: { added: [{ uri: pathToFileURL(out).href, name: 'outside' }], removed: [] },
  });
  assert.equal(await readError('../../outside/B.csfbin', ++n), undefined);
  assert.ok(lsp.alive);
});
