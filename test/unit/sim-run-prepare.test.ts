/**
 * prepareRun (core/sim/prepare.ts) reads a program the way the checker does — include paths, dialect,
 * the `.p` beside it or the one named — and resolves loads and dumps from one folder (the CLI's
 * --include/--dialect: sim-cli.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SpecError } from '../../core/sim/dump';
import { prepareRun } from '../../core/sim/prepare';
import { nodeRunHost } from '../../node/runHost';
import { runProgram } from '../../core/sim/run';
import type { RunConfig } from '../../core/sim/runConfig';

const ROOT = resolve(__dirname, '..', '..');
const FIX = join(ROOT, 'test', 'fixtures', 'run-include');
const INC_M = join(FIX, 'prog', 'inc.m');
const GUIDE_M = join(ROOT, 'examples', 'guide', 'transfers.m');

async function run(config: RunConfig & { cwd?: string }, host = nodeRunHost()) {
  const p = prepareRun(config, host);
  return { p, r: await runProgram({ ...p.options, history: false }) };
}

test('include paths: a header found only through them is read, as the checker reads it', async () => {
  const dump = [{ space: 'MEM' as const, where: 'r', count: 1, dtype: 'i32' as const }];
  const without = (await run({ program: INC_M, dump })).r;
  assert.match(without.error?.message ?? '', /cannot open include file "scale.h"/);
  const { r } = await run({ program: INC_M, dump, includePaths: [join(FIX, 'include')] });
  assert.equal(r.error, null, r.error?.message);
  assert.deepEqual(r.dumps[0].values, [42]);
  // relative include paths start from cwd (the CLI's current folder, the debugger's cwd)
  const rel = (await run({ program: 'prog/inc.m', cwd: FIX, dump, includePaths: ['include'] })).r;
  assert.deepEqual(rel.dumps[0].values, [42]);
});

test('dialect: the guide example runs read as guide (or auto) and is refused read as ztachip', async () => {
  for (const dialect of ['auto', 'guide'] as const) {
    const { r } = await run({ program: GUIDE_M, dialect });
    assert.equal(r.error, null, `${dialect}: ${r.error?.message}`);
  }
  const { r } = await run({ program: GUIDE_M, dialect: 'ztachip' });
  assert.equal(r.error?.kind, 'compile');
  assert.match(r.error!.message, /^the program has errors; fix them first: DTYPE is not defined/);
});

test('the .p beside the program, or the one named; loads and dumps from one folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-prepare-'));
  for (const f of ['test.m', 'test.h', 'test.p']) writeFileSync(join(dir, f), readFileSync(join(ROOT, 'examples', 'test', f), 'utf8'));
  writeFileSync(join(dir, 'add2.p'), readFileSync(join(ROOT, 'examples', 'test', 'test.p'), 'utf8').replace('_Z = _A + 1;', '_Z = _A + 2;'));
  const dump = [{ space: 'MEM' as const, where: 'outbuf', count: 2, dtype: 'i16' as const }];
  assert.deepEqual((await run({ program: join(dir, 'test.m'), dump })).r.dumps[0].values, [-999, -998]);
  assert.deepEqual((await run({ program: join(dir, 'test.m'), dump, pcore: 'add2.p' })).r.dumps[0].values, [-998, -997]);
  // a load relative to cwd, a dump file relative to it
  writeFileSync(join(dir, 'in.bin'), new Uint8Array([0x10, 0, 0x20, 0]));
  const { p, r } = await run({ program: 'test.m', cwd: dir, load: [{ where: 'inbuf', file: 'in.bin' }], dump: [{ ...dump[0], file: 'out.npy' }] });
  assert.equal(p.file, join(dir, 'test.m'));
  assert.equal(p.dumpPath('out.npy'), join(dir, 'out.npy'));
  assert.equal(r.error, null, r.error?.message);
  assert.deepEqual([...p.options.loads![0].bytes], [0x10, 0, 0x20, 0]);
  assert.equal(r.dumps[0].file, 'out.npy');
  assert.equal(String.fromCharCode(...r.dumps[0].bytes!.subarray(1, 6)), 'NUMPY');
});

test('what cannot be prepared is a SpecError naming it', () => {
  assert.throws(
    () => prepareRun({ program: join(FIX, 'missing.m') }, nodeRunHost()),
    (e: Error) => e instanceof SpecError && /cannot read .*missing\.m/.test(e.message),
  );
  assert.throws(() => prepareRun({ program: INC_M, pcore: 'nope.p' }, nodeRunHost()), /cannot read PCORE program nope\.p/);
  assert.throws(() => prepareRun({ program: INC_M, load: [{ where: 'r', file: 'nope.bin' }] }, nodeRunHost()), /load r=nope\.bin: cannot read .*nope\.bin/);
  // the reason is kept: a device is refused as such (the editor's run and the debugger read through the same host)
  assert.throws(
    () => prepareRun({ program: INC_M, load: [{ where: 'r', file: '/dev/zero' }] }, nodeRunHost()),
    /load r=\/dev\/zero: cannot read \/dev\/zero: it is a character device, not a regular file/,
  );
  assert.throws(
    () => prepareRun({ program: INC_M, dump: [{ space: 'PCORE', where: '0', count: 1, dtype: 'f32' }] }, nodeRunHost()),
    /PCORE memory holds 12-bit words/,
  );
});

test('unsaved editor contents (the overlay) are what runs, headers included', async () => {
  const header = join(FIX, 'include', 'scale.h');
  const { r } = await run(
    { program: INC_M, includePaths: [join(FIX, 'include')], dump: [{ space: 'MEM', where: 'r', count: 1, dtype: 'i32' }] },
    nodeRunHost({ overlay: { [header]: '#define SCALE 10\n' } }),
  );
  assert.deepEqual(r.dumps[0].values, [70]);
});
