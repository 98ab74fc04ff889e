/**
 * The server's simulator host keeps the last runs readable by run id (one worker per run, a cap, a clear
 * error for an evicted or unknown run). Uses the built worker (dist/server/simWorker.js: `npm run build`).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { nodeSimulator, KEPT_RUNS } from '../../server/src/simulator';

const ROOT = resolve(__dirname, '..', '..');
const DIST = resolve(ROOT, 'dist/server');
const PROGRAM = resolve(ROOT, 'examples/test/test.m');

test('runs are kept by id up to the cap; an evicted, cancelled or unknown run is a clear error', { timeout: 120_000 }, async () => {
  assert.ok(existsSync(resolve(DIST, 'simWorker.js')), 'dist/server/simWorker.js is missing: run `npm run build` first');
  assert.equal(KEPT_RUNS, 3);
  const sim = nodeSimulator(DIST);
  try {
    const run = (runId: number, memBytes: number) =>
      sim.run(
        { runId, file: PROGRAM, overlay: {}, entry: 'kernel_test', memBytes },
        () => undefined,
        () => false,
        () => undefined,
      );
    // four runs, each with its own MEM size so that a read tells which run answered
    const mib = 1 << 20;
    for (let id = 1; id <= 4; id++) {
      const r = await run(id, id * mib);
      assert.equal(r.error, null, r.error?.message);
      assert.equal(r.runId, id);
    }
    assert.deepEqual(sim.kept(), [2, 3, 4]);
    for (let id = 2; id <= 4; id++) {
      const r = await sim.read(id, 'MEM', 0, 16);
      assert.equal(r.error, undefined);
      assert.equal(r.size, id * mib, `run ${id} answers with its own memory`);
    }
    // test.m: inbuf[i] = i - 1000 (int16) and outbuf = inbuf + 1; the globals say where they are
    const last = await run(5, 4 * mib);
    const g = (last.globals as { name: string; address: number }[]).find((x) => x.name === 'outbuf')!;
    const out = await sim.read(5, 'MEM', g.address, 8);
    assert.deepEqual([...new Int16Array(out.data!.buffer, out.data!.byteOffset, 4)], [-999, -998, -997, -996]);
    // and before the first step outbuf was still zero
    const before = await sim.read(5, 'MEM', g.address, 8, -1);
    assert.deepEqual([...before.data!], [0, 0, 0, 0, 0, 0, 0, 0]);
    assert.match((await sim.read(2, 'MEM', 0, 16)).error ?? '', /^run 2 is no longer kept \(only the last 3 runs stay readable\)/);
    assert.match((await sim.read(1, 'MEM', 0, 16)).error ?? '', /^run 1 is no longer kept/);
    assert.equal((await sim.read(77, 'MEM', 0, 16)).error, 'no run 77');
    // a cancelled run has no memory
    let cancel: () => void = () => undefined;
    const p = sim.run(
      { runId: 6, file: PROGRAM, overlay: {}, entry: 'kernel_test' },
      () => undefined,
      () => true,
      (f) => (cancel = f),
    );
    cancel();
    assert.equal((await p).cancelled, true);
    assert.match((await sim.read(6, 'MEM', 0, 16)).error ?? '', /^run 6 has no memory to read/);
    assert.deepEqual(sim.kept(), [3, 4, 5]);
  } finally {
    sim.dispose();
  }
});
