/**
 * `tensorLens/run` over stdio reads the program as the checker does: the `tensorLens.includePaths` and
 * `tensorLens.dialect` settings (or the request's own), a run error replaces the last one in the
 * Problems panel and is cleared by a run that succeeds. Uses the built server (`npm run build`).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DidChangeConfigurationNotification } from 'vscode-languageserver-protocol/node';
import { RunRequest, type RunParams } from '../../core/protocol/lspExt';
import { traceStepsError } from '../../core/protocol/trace';
import { LspClient, ROOT, TPROG } from './lspClient';

const FIX = join(ROOT, 'test', 'fixtures', 'run-include');
const INCLUDE = join(FIX, 'include');
const DUMP_R = [{ space: 'MEM' as const, where: 'r', count: 1, dtype: 'i32' as const }];

let lsp: LspClient;
before(async () => {
  lsp = await LspClient.start({ initializationOptions: { includePaths: [INCLUDE] } });
});
after(async () => {
  await lsp?.shutdown();
});

const run = (p: RunParams) => lsp.conn.sendRequest(RunRequest, p);
const settings = (tensorLens: object) => lsp.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: { tensorLens } });
/** The diagnostics published for `uri` after `n` publications so far. */
const publishedAfter = (uri: string, n: number) => lsp.diagnostics(uri, () => (lsp.published.get(uri)?.length ?? 0) > n);

test('a header found only through tensorLens.includePaths: checked and run alike', { timeout: 60_000 }, async () => {
  const uri = await lsp.open(join(FIX, 'prog', 'inc.m'), TPROG);
  const checked = await lsp.diagnostics(uri);
  assert.deepEqual(
    checked.diagnostics.filter((d) => d.severity === 1),
    [],
  );
  const r = await run({ uri, dump: DUMP_R });
  assert.equal(r.error, null, r.error?.message);
  assert.equal(r.entry, 'kernel_inc');
  assert.deepEqual(r.dumps[0].values, [42]);
  assert.deepEqual(r.warnings, []);

  // the setting changes: the run no longer finds the header, and says where
  await settings({ includePaths: [] });
  const n = lsp.published.get(uri)?.length ?? 0;
  const failed = await run({ uri, dump: DUMP_R });
  assert.match(failed.error?.message ?? '', /cannot open include file "scale.h"/);
  assert.equal(failed.error!.line, 2);
  const shown = await lsp.diagnostics(uri, (p) => p.diagnostics.some((d) => String(d.code).startsWith('run.')), 10_000);
  assert.ok((lsp.published.get(uri)?.length ?? 0) > n);
  const d = shown.diagnostics.find((x) => String(x.code).startsWith('run.'))!;
  assert.equal(d.severity, 1);
  assert.equal(d.range.start.line, 1);

  // the request's own include paths (what the client sends from the settings) win; the error goes away
  const m = lsp.published.get(uri)!.length;
  const again = await run({ uri, dump: DUMP_R, includePaths: [INCLUDE] });
  assert.equal(again.error, null, again.error?.message);
  const cleared = await publishedAfter(uri, m);
  assert.deepEqual(
    cleared.diagnostics.filter((x) => String(x.code).startsWith('run.')),
    [],
  );
  await settings({ includePaths: [INCLUDE] });
});

test('tensorLens.dialect: a guide program is refused read as ztachip, runs read as guide', { timeout: 60_000 }, async () => {
  const uri = await lsp.open(join(ROOT, 'examples', 'guide', 'transfers.m'), TPROG);
  await lsp.diagnostics(uri);
  assert.equal((await run({ uri })).error, null);
  await settings({ dialect: 'ztachip' });
  const refused = await run({ uri });
  assert.equal(refused.error?.kind, 'compile');
  assert.match(refused.error!.message, /^the program has errors; fix them first: DTYPE is not defined/);
  const asGuide = await run({ uri, dialect: 'guide' });
  assert.equal(asGuide.error, null, asGuide.error?.message);
  // the steps cross the LSP as the simulator recorded them, and conform to the one step schema
  assert.ok(asGuide.trace.length > 0);
  assert.equal(traceStepsError(asGuide.trace), undefined);
  await settings({ dialect: 'auto' });
});

test('a run warning (an index the hardware does not check) is a Warning in the Problems panel at its term', { timeout: 60_000 }, async () => {
  const uri = await lsp.open(join(ROOT, 'test', 'fixtures', 'run-warning', 'clip.m'), TPROG);
  const checked = await lsp.diagnostics(uri);
  assert.deepEqual(
    checked.diagnostics.filter((d) => d.severity === 1 || d.severity === 2),
    [],
  );
  const n = lsp.published.get(uri)?.length ?? 0;
  const r = await run({ uri });
  assert.equal(r.error, null, r.error?.message);
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0].message, /^dimension 0 of the MEM destination: index -1\.\.2 is outside 0\.\.3/);
  const shown = await lsp.diagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'run.warning'), 10_000);
  assert.ok((lsp.published.get(uri)?.length ?? 0) > n);
  const d = shown.diagnostics.find((x) => x.code === 'run.warning')!;
  assert.equal(d.severity, 2);
  assert.deepEqual([d.range.start.line, d.range.start.character], [8, 5]);
  assert.match(String(d.message), /ztachip.s hardware does not check the lower bound of a destination/);
});

test('a dump over an input of the run or over an open document is refused, naming it; the file stays as it was', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-run-dump-'));
  try {
    mkdirSync(join(dir, 'prog'));
    mkdirSync(join(dir, 'include'));
    const prog = join(dir, 'prog', 'inc.m');
    const header = join(dir, 'include', 'scale.h');
    const other = join(dir, 'prog', 'notes.m');
    copyFileSync(join(FIX, 'prog', 'inc.m'), prog);
    copyFileSync(join(INCLUDE, 'scale.h'), header);
    writeFileSync(other, '// not part of the run\n');
    // a link to the program is the program (compared by real path)
    symlinkSync(prog, join(dir, 'prog', 'alias.m'));
    const before = [prog, header, other].map((f) => readFileSync(f));
    const uri = await lsp.open(prog, TPROG);
    const otherUri = await lsp.open(other, TPROG);
    const dumpTo = (file: string) => run({ uri, includePaths: [join(dir, 'include')], dump: [{ ...DUMP_R[0], file }] });

    const self = await dumpTo(prog);
    assert.match(self.error?.message ?? '', /^dump MEM:r:1:i32=.*inc\.m: .*inc\.m is an input of this run; it is not overwritten$/);
    const alias = await dumpTo(join(dir, 'prog', 'alias.m'));
    assert.match(alias.error?.message ?? '', /alias\.m is an input of this run; it is not overwritten/);
    // a header is read while compiling: refused after the run, before anything is written
    const head = await dumpTo(header);
    assert.match(head.error?.message ?? '', /scale\.h is an input of this run; it is not overwritten/);
    // open in the editor, not read by the run
    const open = await dumpTo(other);
    assert.match(open.error?.message ?? '', /notes\.m is open in the editor; it is not overwritten/);
    assert.deepEqual(
      [prog, header, other].map((f) => readFileSync(f)),
      before,
    );

    // a file that is neither is written
    const out = join(dir, 'r.bin');
    const ok = await dumpTo(out);
    assert.equal(ok.error, null, ok.error?.message);
    assert.deepEqual([...readFileSync(out)], [42, 0, 0, 0]);
    await lsp.close(otherUri);
    await lsp.close(uri);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
