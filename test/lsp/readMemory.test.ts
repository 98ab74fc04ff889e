/**
 * `tensorLens/readMemory` checks the names a client sends against the one table of spaces: `__proto__`,
 * `constructor` or `toString` as a space get a clear error answer, and the run stays readable (the
 * simulator worker used to look the name up on a plain object and die). Uses the built server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ReadMemoryRequest, RunRequest, type ReadMemoryParams } from '../../core/protocol/lspExt';
import { nodeSimulator } from '../../server/src/simulator';
import { LspClient, ROOT, SERVER_JS, TPROG } from './lspClient';

let lsp: LspClient;
before(async () => {
  lsp = await LspClient.start();
});
after(async () => {
  await lsp?.shutdown();
});

const read = (p: ReadMemoryParams) => lsp.conn.sendRequest(ReadMemoryRequest, p);

test('readMemory: prototype names and malformed numbers are refused; MEM of the same run still reads', { timeout: 60_000 }, async () => {
  const uri = await lsp.open(join(ROOT, 'examples', 'guide', 'transfers.m'), TPROG);
  await lsp.diagnostics(uri);
  const r = await lsp.conn.sendRequest(RunRequest, { uri, dialect: 'guide' });
  assert.equal(r.error, null, r.error?.message);
  const before = await read({ runId: r.runId, space: 'MEM', start: 0, length: 64 });
  assert.equal(before.unit, 1);
  assert.ok(before.size > 0);
  for (const space of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'mem', '']) {
    await assert.rejects(read({ runId: r.runId, space, start: 0, length: 16 }), (e: Error) => {
      assert.match(e.message, /no memory space/);
      assert.match(e.message, /known: MEM, SCRATCH/);
      return true;
    });
  }
  const bad = [
    { runId: r.runId, space: 'MEM', start: -1, length: 4 },
    { runId: r.runId, space: 'MEM', start: 'x', length: 4 },
    { runId: r.runId, space: 'MEM', start: 0, length: 1e300 },
    { runId: r.runId, space: 'MEM', start: 0, length: 4, step: 0.5 },
    { runId: 'x', space: 'MEM', start: 0, length: 4 },
    { runId: r.runId, space: { toString: 1 }, start: 0, length: 4 },
  ];
  for (const p of bad) await assert.rejects(read(p as unknown as ReadMemoryParams), /readMemory: /);
  const again = await read({ runId: r.runId, space: 'MEM', start: 0, length: 64 });
  assert.deepEqual(again, before);
  assert.ok(lsp.alive);
});

test('the simulator worker answers a read of any name with an error and keeps the run', { timeout: 60_000 }, async () => {
  // the worker itself (behind the server's check): a read it cannot answer must not stop it
  const sim = nodeSimulator(join(SERVER_JS, '..'));
  try {
    const file = join(ROOT, 'examples', 'guide', 'transfers.m');
    const r = await sim.run(
      { runId: 1, file, overlay: {}, dialect: 'guide' },
      () => undefined,
      () => false,
      () => undefined,
    );
    assert.equal(r.error, null, r.error?.message);
    const good = await sim.read(1, 'MEM', 0, 16);
    assert.equal(good.error, undefined);
    for (const space of ['__proto__', 'constructor', 'toString']) {
      const x = await sim.read(1, space, 0, 16);
      assert.match(x.error ?? '', /no memory space/);
    }
    const odd = await sim.read(1, 'MEM', Number.NaN, 16);
    assert.match(odd.error ?? '', /integers/);
    assert.deepEqual((await sim.read(1, 'MEM', 0, 16)).data, good.data);
    assert.deepEqual(sim.kept(), [1]);
  } finally {
    sim.dispose();
  }
});
