/**
 * The ▶ Run code lens over stdio on a program laid out like ztachip's kernel files
 * (test/fixtures/lsp/runlens/fill.m): the entry `kernel_fill_exe` takes its request's arguments on many
 * lines and still gets the lens; a worker handed to ztaDualHartExecute and a helper with parameters do
 * not; a function without parameters that nothing calls does. The lens's entry then runs with arguments.
 * Uses the built server (`npm run build`).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CodeLensRequest, type CodeLens } from 'vscode-languageserver-protocol/node';
import { RUN_COMMAND, RunRequest } from '../../core/protocol/lspExt';
import { LspClient, ROOT, TPROG } from './lspClient';

const FILE = 'test/fixtures/lsp/runlens/fill.m';
const TEXT = readFileSync(`${ROOT}/${FILE}`, 'utf8');
const lineOf = (s: string) => TEXT.split('\n').findIndex((l) => l.includes(s));

describe('▶ Run code lens on ztachip-style entries', () => {
  let lsp: LspClient;
  let uri: string;
  before(async () => {
    lsp = await LspClient.start();
    uri = await lsp.open(FILE, TPROG);
  });
  after(async () => {
    await lsp?.shutdown();
  });

  it('kernel_fill_exe (parameters on many lines) and the uncalled fill_selftest get ▶ Run; fill_half and value_at do not', async () => {
    const lenses: CodeLens[] = (await lsp.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
    const runs = lenses.filter((l) => l.command?.command === RUN_COMMAND);
    assert.deepEqual(
      runs.map((l) => [l.command!.title, l.command!.arguments, l.range.start.line, l.range.start.character, l.range.end.character]),
      [
        // `void kernel_fill_exe(` and `void fill_selftest(void) {`: the name starts at character 5
        ['▶ Run', [uri, 'kernel_fill_exe'], lineOf('void kernel_fill_exe('), 5, 5 + 'kernel_fill_exe'.length],
        ['▶ Run', [uri, 'fill_selftest'], lineOf('void fill_selftest('), 5, 5 + 'fill_selftest'.length],
      ],
    );
    assert.match(runs[0].command!.tooltip ?? '', /arguments of its tensorlens\.run\.json configuration/);
    // the worker has the transfers: its lens previews them
    const previews = lenses.filter((l) => l.command?.title === 'Preview transfers').map((l) => l.command!.arguments?.[1]);
    assert.deepEqual(previews, ['fill_half']);
  });

  it("the lens's entry runs with the request's arguments: dst_buf[i] = base + i*step", async () => {
    const r = await lsp.conn.sendRequest(RunRequest, {
      uri,
      entry: 'kernel_fill_exe',
      args: [7, -40, 3],
      dump: [{ space: 'MEM', where: 'dst_buf', count: 16, dtype: 'i16' }],
    });
    assert.equal(r.error, null, r.error?.message);
    assert.deepEqual(r.dumps[0].values, [-40, -37, -34, -31, -28, -25, -22, -19, -16, -13, -10, -7, -4, -1, 2, 5]);
  });
});
