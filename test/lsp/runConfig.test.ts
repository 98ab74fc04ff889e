/**
 * tensorlens.run.json in the editor: the server checks it (server/src/languages/runConfig.ts) with every
 * problem at the exact JSON value — schema mistakes, unknown buffers, arguments against the entry's C
 * parameters read from the program — and checks it again when the program changes. Uses the built server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CodeLensRequest, InlayHintRequest, type CodeLens, type InlayHint } from 'vscode-languageserver-protocol/node';
import { CREATE_RUN_CONFIG_COMMAND, RunRequest } from '../../core/protocol/lspExt';
import { fileConfigurationSchema } from '../../core/sim/runConfig';
import { LspClient, ROOT, TPROG } from './lspClient';

const DIR = 'test/fixtures/lsp/runconfig';
const TEXT = readFileSync(`${ROOT}/${DIR}/tensorlens.run.json`, 'utf8');

/** The range of the `nth` occurrence of `needle` in the file's text (0-based lines and characters). */
function rangeOf(needle: string, nth = 0) {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = TEXT.indexOf(needle, at + 1);
  assert.ok(at >= 0, needle);
  const pos = (o: number) => {
    const before = TEXT.slice(0, o).split('\n');
    return { line: before.length - 1, character: before[before.length - 1].length };
  };
  return { start: pos(at), end: pos(at + needle.length) };
}

describe('tensorlens.run.json diagnostics', () => {
  let lsp: LspClient;
  let uri: string;
  before(async () => {
    lsp = await LspClient.start();
    uri = await lsp.open(`${DIR}/tensorlens.run.json`, 'json');
  });
  after(async () => {
    await lsp?.shutdown();
  });

  it('each problem at its JSON value, with its path', async () => {
    const d = await lsp.diagnostics(uri);
    const got = d.diagnostics.map((x) => ({ range: x.range, message: x.message, severity: x.severity }));
    const want = [
      ['{}', 'configurations[0].buffers.out: buffer out: give its size ("bytes") or its contents ("file")'],
      ['"@outt"', 'configurations[0].args[1]: no buffer named outt (buffers: input, out)'],
      ['["@input", "@outt", 3]', 'configurations[0].args: kernel_k() takes 4 argument(s) (in, out, n, m), 3 given'],
      ['"nope"', 'configurations[1].dump[0].buffer: no buffer named nope (this configuration has no buffers)'],
      ['[1, 2]', 'configurations[1].args: kernel_k() takes 4 argument(s) (in, out, n, m), 2 given'],
      // (the allowed properties are the schema's: runConfig.ts)
      ['"entyr"', `configurations[2].entyr: unknown property "entyr" (allowed: ${Object.keys(fileConfigurationSchema().properties!).join(', ')})`],
      ['48', 'configurations[3].buffers.a.align: must be a power of two (got 48)'],
      ['"kernel_x"', 'configurations[3].entry: no function named kernel_x in k.m (functions: kernel_k)'],
    ].map(([needle, message]) => ({ range: rangeOf(needle), message, severity: 1 }));
    assert.deepEqual(
      got.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character),
      want.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character),
    );
  });

  it('each argument is hinted with the name of the C parameter it goes to', async () => {
    const hints: InlayHint[] =
      (await lsp.conn.sendRequest(InlayHintRequest.type, {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 99, character: 0 } },
      })) ?? [];
    // 2 = InlayHintKind.Parameter; at the start of each argument
    assert.deepEqual(
      hints.map((h) => [h.label, h.position, h.kind, h.paddingRight]),
      [
        ['in:', rangeOf('"@input", "@outt"').start, 2, true],
        ['out:', rangeOf('"@outt"').start, 2, true],
        ['n:', rangeOf('3]').start, 2, true],
        ['in:', rangeOf('1, 2]').start, 2, true],
        ['out:', rangeOf('2]').start, 2, true],
      ],
    );
    assert.match(String(hints[0].tooltip), /^parameter 1 of kernel_k \(a pointer/);
  });

  it('checked again when the program changes: a program with three parameters makes the first configuration right', async () => {
    const prog = await lsp.open(`${DIR}/k.m`, TPROG, 'void kernel_k(unsigned char *in, unsigned char *out, int n) {\n}\n');
    await lsp.diagnostics(prog);
    const d = await lsp.diagnostics(uri, (p) => !p.diagnostics.some((x) => String(x.message).includes('3 given')));
    const messages = d.diagnostics.map((x) => String(x.message));
    assert.ok(messages.includes('configurations[1].args: kernel_k() takes 3 argument(s) (in, out, n), 2 given'), messages.join('\n'));
    assert.ok(!messages.some((m) => m.startsWith('configurations[0].args:')));
  });
});

describe('Create Run Configuration from the editor', () => {
  let lsp: LspClient;
  let uri: string;
  before(async () => {
    lsp = await LspClient.start();
    uri = await lsp.open(`${DIR}/k.m`, TPROG);
  });
  after(async () => {
    await lsp?.shutdown();
  });

  it('an entry with parameters gets the lens beside ▶ Run, with its name', async () => {
    const lenses: CodeLens[] = (await lsp.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
    const create = lenses.filter((l) => l.command?.command === CREATE_RUN_CONFIG_COMMAND);
    // `void kernel_k(` on line 3 (0-based): the name from character 5
    assert.deepEqual(
      create.map((l) => [l.command!.title, l.command!.arguments, l.range]),
      [['Create Run Configuration', [uri, 'kernel_k'], { start: { line: 3, character: 5 }, end: { line: 3, character: 13 } }]],
    );
  });

  it('a run of an entry without its arguments fails at the definition, kind entry-args (the client offers the command)', async () => {
    const r = await lsp.conn.sendRequest(RunRequest, { uri });
    assert.deepEqual(r.error && [r.error.uri, r.error.line, r.error.column, r.error.kind, r.error.message], [
      uri,
      4,
      1,
      'entry-args',
      'kernel_k() takes 4 argument(s) (in, out, n, m), 0 given: give them in the run configuration ("args", e.g. "@input" for a buffer\'s address)',
    ]);
  });
});

describe('a run that reads memory nothing wrote', () => {
  let lsp: LspClient;
  let uri: string;
  before(async () => {
    lsp = await LspClient.start();
    uri = await lsp.open(`${DIR}/forgot.m`, TPROG);
  });
  after(async () => {
    await lsp?.shutdown();
  });

  it('warns at the > statement in the run result and in the Problems panel; a buffer from a file does not', async () => {
    const message =
      'reads MEM 0x100000..0x10000f, which nothing wrote before (no load, buffer file, C store or earlier transfer): a forgotten input? It reads as zeros';
    const r = await lsp.conn.sendRequest(RunRequest, { uri, args: [0x100000, 0x200000] });
    assert.equal(r.error, null, r.error?.message);
    assert.deepEqual(r.warnings, [{ uri, line: 4, column: 6, message, count: 1 }]);
    const d = await lsp.diagnostics(uri, (p) => p.diagnostics.some((x) => String(x.message).includes('nothing wrote')));
    const w = d.diagnostics.find((x) => String(x.message).includes('nothing wrote'))!;
    // a warning (2) from the statement's first character
    assert.deepEqual([w.severity, w.range.start], [2, { line: 3, character: 5 }]);
    const fed = await lsp.conn.sendRequest(RunRequest, {
      uri,
      buffers: { input: { file: 'forgot.m' }, output: { bytes: 16 } },
      args: ['@input', '@output'],
    });
    assert.equal(fed.error, null, fed.error?.message);
    assert.deepEqual(fed.warnings, []);
    assert.deepEqual(
      fed.buffers?.map((b) => [b.name, b.bytes]),
      [
        ['input', readFileSync(`${ROOT}/${DIR}/forgot.m`).length],
        ['output', 16],
      ],
    );
  });
});
