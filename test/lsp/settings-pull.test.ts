/**
 * The server's settings by the pull model (server/src/settings.ts): a client that answers
 * `workspace/configuration` is asked for the `tensorLens` section once per workspace folder, each folder's
 * dialect and include paths (relative ones from that folder) apply to the programs in it, and a
 * `workspace/didChangeConfiguration` without a payload makes the server ask again. Also
 * `tensorLens/documentStatus` (the client's language status item): the dialect a program is read in,
 * the setting it came from, the files paired with it, a layout spec's tensors.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeConfigurationNotification, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { DocumentStatusRequest } from '../../core/protocol/lspExt';
import { tempTree } from '../helpers/run';
import { LspClient, PCORE, ROOT, TPROG, uriOf } from './lspClient';

const INC = '#include "size.h"\nvoid kernel_f(unsigned p) {\n> DTYPE(INT16)MEM(p)[0:N-1] <= DTYPE(INT16)MEM(p)[0:N-1];\n}\n';
// only the guide's DDR: read as guide under `auto`, an error under `ztachip`
const DDR = 'void f(unsigned p){\n> DDR(p)[0:7] <= DDR(p)[0:7];\n}\n';
const root = tempTree({ 'a/inc.m': INC, 'a/ddr.m': DDR, 'b/inc.m': INC, 'b/ddr.m': DDR, 'include/size.h': '#define N 8\n' }, 'tl-settings-');
const folderUri = (f: string) => pathToFileURL(join(root, f)).href;

// what the "user" has set: folder a finds size.h through a relative include path and reads ztachip; b sets nothing
const conf: Record<string, object> = { a: { includePaths: ['../include'], dialect: 'ztachip' }, b: {}, global: { dialect: 'auto', includePaths: [] } };
const asked: { section?: string; scopeUri?: string }[] = [];
let lsp: LspClient;

before(async () => {
  lsp = await LspClient.start({
    workspaceFolders: [join(root, 'a'), join(root, 'b')],
    configuration: (item) => {
      asked.push(item);
      if (item.section !== 'tensorLens') return null;
      return item.scopeUri === folderUri('a') ? { ...conf.global, ...conf.a } : item.scopeUri === folderUri('b') ? { ...conf.global, ...conf.b } : conf.global;
    },
  });
});
after(async () => {
  await lsp?.shutdown();
});

const unknownN = (p: PublishDiagnosticsParams) => p.diagnostics.filter((d) => d.code === 'tprog.unknown-name').map((d) => d.range.start.character);

test('each workspace folder is asked for its own settings, and its include paths and dialect apply to its programs', { timeout: 30_000 }, async () => {
  const aInc = await lsp.open(join(root, 'a/inc.m'), TPROG);
  const bInc = await lsp.open(join(root, 'b/inc.m'), TPROG);
  // a: size.h is found through ../include (from folder a), so N is declared
  await lsp.diagnostics(aInc, (p) => unknownN(p).length === 0);
  assert.ok(
    asked.some((i) => i.section === 'tensorLens' && i.scopeUri === folderUri('a')) &&
      asked.some((i) => i.section === 'tensorLens' && i.scopeUri === folderUri('b')),
    `the server did not ask for each folder's section: ${JSON.stringify(asked)}`,
  );
  // b: no include path, N is unknown on both terms of line 3 (columns 24 and 53, 1-based)
  const b = await lsp.diagnostics(bInc, (p) => unknownN(p).length > 0);
  assert.deepEqual(unknownN(b), [23, 52]);

  const aDdr = await lsp.open(join(root, 'a/ddr.m'), TPROG);
  const bDdr = await lsp.open(join(root, 'b/ddr.m'), TPROG);
  const aD = await lsp.diagnostics(aDdr);
  const bD = await lsp.diagnostics(bDdr);
  // ztachip in a: DDR is an error (severity 1) at both terms; auto in b: the program is guide, DDR a hint (4)
  assert.deepEqual(
    aD.diagnostics.filter((d) => d.code === 'tprog.guide-ddr').map((d) => [d.severity, d.range.start.character]),
    [
      [1, 2],
      [1, 17],
    ],
  );
  assert.deepEqual(
    bD.diagnostics.filter((d) => d.code === 'tprog.guide-ddr').map((d) => [d.severity, d.range.start.character]),
    [
      [4, 2],
      [4, 17],
    ],
  );
  assert.deepEqual(await lsp.conn.sendRequest(DocumentStatusRequest, { uri: aDdr }), {
    language: TPROG,
    dialect: 'ztachip',
    dialectSetting: 'ztachip',
    paired: [],
  });
  assert.deepEqual(await lsp.conn.sendRequest(DocumentStatusRequest, { uri: bDdr }), { language: TPROG, dialect: 'guide', dialectSetting: 'auto', paired: [] });
});

test('didChangeConfiguration without settings: the server pulls again and re-checks', { timeout: 30_000 }, async () => {
  const bInc = pathToFileURL(join(root, 'b/inc.m')).href;
  const n = asked.length;
  conf.b = { includePaths: ['../include'] };
  await lsp.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  const p = await lsp.diagnostics(bInc, (x) => unknownN(x).length === 0);
  assert.deepEqual(unknownN(p), []);
  assert.ok(
    asked.slice(n).some((i) => i.scopeUri === folderUri('b')),
    'no new pull for folder b',
  );
});

test("documentStatus: the .p paired with a .m (and back), a layout spec's tensors, a document that is not open", { timeout: 30_000 }, async () => {
  const m = await lsp.open(join(ROOT, 'examples/test/test.m'), TPROG);
  const p = await lsp.open(join(ROOT, 'examples/test/test.p'), PCORE);
  const layout = await lsp.open(join(ROOT, 'examples/layouts/spyre.tlayout'), 'tensor-layout');
  // examples/test is outside both folders: the global settings (auto); test.m writes MEM/DTYPE, so ztachip
  assert.deepEqual(await lsp.conn.sendRequest(DocumentStatusRequest, { uri: m }), {
    language: TPROG,
    dialect: 'ztachip',
    dialectSetting: 'auto',
    paired: [uriOf('examples/test/test.p')],
  });
  assert.deepEqual(await lsp.conn.sendRequest(DocumentStatusRequest, { uri: p }), { language: PCORE, paired: [uriOf('examples/test/test.m')] });
  // spyre.tlayout declares 7 tensors: act, padded, w, cols, sparse, printed, odd
  assert.deepEqual(await lsp.conn.sendRequest(DocumentStatusRequest, { uri: layout }), { language: 'tensor-layout', paired: [], tensors: 7 });
  assert.deepEqual(await lsp.conn.sendRequest(DocumentStatusRequest, { uri: uriOf('examples/blur/blur.m') }), { paired: [] });
});
