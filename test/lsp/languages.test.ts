/**
 * Which language answers a document (server/src/languages/registry.ts): its language id when it is one
 * of ours, else its path (`.tlayout` → layout spec, `.p`/`.pcore` → PCORE program, anything else →
 * tensor program). A file opened under another language id (plain text, C) is checked exactly as under
 * its own; our language id wins over the path.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeLensRequest, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { OPEN_LAYOUT_MAP_COMMAND } from '../../core/protocol/lspExt';
import { LspClient, PCORE, ROOT, TPROG } from './lspClient';

const LAYOUT = 'tensor-layout';
const summary = (ds: Diagnostic[]) => ds.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code}`).sort();

describe('language routing over LSP', () => {
  let c: LspClient;
  let dir: string;
  /** `name` copied into the folder `sub` of the temp dir (with its `.p` sibling for a `.m`). */
  const copy = (sub: string, from: string): string => {
    mkdirSync(join(dir, sub), { recursive: true });
    const to = join(dir, sub, from.split('/').pop()!);
    copyFileSync(join(ROOT, from), to);
    return to;
  };
  const check = async (path: string, languageId: string) => (await c.diagnostics(await c.open(path, languageId))).diagnostics;
  /** Commands of the document's code lenses. */
  const lenses = async (path: string) =>
    ((await c.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: pathToFileURL(path).href } })) ?? []).map((l) => l.command?.command);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tl-languages-lsp-'));
    c = await LspClient.start();
  });

  after(async () => {
    await c?.shutdown();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a .tlayout under another language id is a layout spec', async () => {
    const own = await check(copy('own', 'examples/layouts/mistakes.tlayout'), LAYOUT);
    const other = copy('other', 'examples/layouts/mistakes.tlayout');
    const plain = await check(other, 'plaintext');
    assert.ok(own.length > 0, 'the example has mistakes');
    assert.deepEqual(summary(plain), summary(own));
    const spyre = copy('other', 'examples/layouts/spyre.tlayout');
    await check(spyre, 'plaintext');
    assert.ok((await lenses(spyre)).includes(OPEN_LAYOUT_MAP_COMMAND), "a layout spec's code lenses");
  });

  it('a .p under another language id is a PCORE program, a .m a tensor program', async () => {
    copy('own', 'examples/mistakes/mistakes.p');
    copy('other', 'examples/mistakes/mistakes.p');
    const ownP = await check(join(dir, 'own', 'mistakes.p'), PCORE);
    const otherP = await check(join(dir, 'other', 'mistakes.p'), 'c');
    assert.deepEqual(summary(otherP), summary(ownP));
    const ownM = await check(copy('own', 'examples/mistakes/mistakes.m'), TPROG);
    const otherM = await check(copy('other', 'examples/mistakes/mistakes.m'), 'c');
    assert.ok(ownM.length > 0, 'the example has mistakes');
    assert.deepEqual(summary(otherM), summary(ownM));
  });

  it('our language id wins over the path', async () => {
    const mistakes = copy('byId', 'examples/layouts/mistakes.tlayout');
    // the tensor-program checker finds no `>` statement in a layout spec: none of the layout problems
    assert.deepEqual(await check(mistakes, TPROG), []);
    const spyre = copy('byId', 'examples/layouts/spyre.tlayout');
    await check(spyre, TPROG);
    assert.deepEqual(await lenses(spyre), []);
  });
});
