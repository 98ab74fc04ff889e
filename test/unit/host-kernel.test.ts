import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, fake, FIXTURES } from '../fixtures/host/harness';
import { analyzeTprog } from '../../core/tprog/analyze';

test('host C: a kernel in the style of the ztachip corpus (fixtures/host/tile.m) runs on two harts', async () => {
  const text = readFileSync(join(FIXTURES, 'tile.m'), 'utf8');
  const a = analyzeTprog(text, { file: 'tile.m' });
  const kernels: Record<string, number> = { 'tile::s0': 0x10, 'tile::s1': 0x11, 'tile::s2': 0x12, 'tile::s3': 0x13 };
  const prog = await build(text, {
    file: 'tile.m',
    units: a.units.map((u) => u.buf),
    readInclude: (p) => {
      try {
        return readFileSync(join(FIXTURES, p), 'utf8');
      } catch {
        return undefined;
      }
    },
    kernelAddress: (n) => kernels[n],
  });
  assert.deepEqual(prog.problems, []);
  assert.deepEqual(a.units.length, 3);
  const f = fake({
    evals: { 0: ['r2', 'c2', 'step'], 1: ['f', 'kk'] },
    builtins: {
      ztaBuildKernelFunc: (args) => (args[0] | (args[2] << 16)) >>> 0,
    },
  });
  const req = f.alloc(32, 4);
  const w = (off: number, v: number): void => f.dv.setUint32(req + off, v, true);
  w(0, 0x8000); // src
  w(4, 0x9000); // dst
  w(12, 8); // rows
  w(16, 64); // cols
  w(20, 1); // pad
  w(24, 1); // layout = kInterleaved
  w(28, 3); // stages
  prog.run('kernel_tile', [req], f);

  const g = prog.globals();
  // ztaInitPcore(zta_pcore_img) is the runtime library's (the program's own image: nothing to report)
  assert.deepEqual(f.events.slice(0, 8), [
    'tensor:0@0',
    'ztaBuildKernelFunc@0', // hart 0 yields after building the first kernel word
    'tensor:0@1',
    'ztaBuildKernelFunc@1',
    'tensor:1@0',
    'ztaBuildKernelFunc@0',
    'tensor:1@1',
    'ztaBuildKernelFunc@1',
  ]);
  for (const p of [0, 1] as const) {
    const units = f.tensorCalls.filter((c) => c.process === p).map((c) => c.unit);
    assert.deepEqual(units, [0, 1, 1, 1, 2, 0, 1, 1, 1, 2], `hart ${p}`);
  }
  const defs = f.tensorCalls.filter((c) => c.unit === 0).map((c) => `${c.process}:${c.values.r2},${c.values.c2},${c.values.step}`);
  assert.deepEqual(defs.sort(), ['0:-1,-1,64', '0:1,-1,64', '1:3,-1,64', '1:5,-1,64']);
  const exes = f.tensorCalls
    .filter((c) => c.unit === 1 && c.process === 1)
    .slice(0, 3)
    .map((c) => [c.values.f, c.values.kk]);
  assert.deepEqual(exes, [
    [0x80010, 0],
    [0x80011, 1],
    [0x80012, 2],
  ]);
  const fsum = 0x80010 + 0x80011 + 0x80012;
  // ztaJobDone(checksum) posts CALLBACK(0, checksum)
  const done = f.builtinCalls.find((c) => c.name === 'callback')!;
  assert.equal(done.args[0], 0);
  assert.equal(done.args[1], 4 * fsum + 3 * (0 + 2 + 4 + 6));
  assert.equal(f.dv.getUint32(g.get('checksum')!.address, true), done.args[1]);
  assert.ok(g.has('tile_pass.stage_fn'));
});
