/**
 * The one table of memory spaces (core/sim/spaces.ts) against what reads it: the machine's memories,
 * the settings' MEM bounds in package.json, the inspector's descriptions (local and remote alike).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Machine } from '../../core/sim/machine';
import { DEFAULT_MEM_BYTES, MAX_MEM_BYTES, MIN_MEM_BYTES, SPACES, spaceBuffer, unitBytesOf } from '../../core/sim/spaces';
import { machineSpaces } from '../../core/inspect/simSource';
import { remoteSpaces } from '../../core/inspect/remoteSource';

test('every space of the table is a memory of the default machine, of its default size and unit', () => {
  const m = new Machine();
  assert.deepEqual(
    SPACES.map((s) => s.name),
    ['MEM', 'SCRATCH', 'PCORE0', 'PCORE0S', 'PCORE1', 'PCORE1S', 'SPU'],
  );
  for (const s of SPACES) {
    const buf = spaceBuffer(m, s.name);
    assert.equal(buf.byteLength, s.defaultBytes, s.name);
    assert.equal(buf.BYTES_PER_ELEMENT, s.unitBytes, s.name);
    assert.equal(unitBytesOf(s.name), s.unitBytes);
  }
  // 8 PCOREs × 4096 words per page; 4 stream tables of 128 (slope, value) pairs; 32 KiB SCRATCH
  assert.deepEqual([m.pages[0].priv.length, m.spu.length, m.scratch.length], [8 * 4096, 4 * 256, 32768]);
  assert.equal(unitBytesOf('csf:main'), 1);
});

test('MEM size: the machine, the settings and the run configuration share one default and one range', () => {
  const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8'));
  const setting = pkg.contributes.configuration.properties['tensorLens.run.memBytes'];
  assert.deepEqual([setting.default, setting.minimum], [DEFAULT_MEM_BYTES, MIN_MEM_BYTES]);
  if (setting.maximum !== undefined) assert.equal(setting.maximum, MAX_MEM_BYTES);
  assert.equal(new Machine().mem.length, DEFAULT_MEM_BYTES);
  assert.throws(() => new Machine({ memBytes: MIN_MEM_BYTES - 1 }), /MEM size 65535 bytes is outside 65536\.\.2\^31 bytes/);
  assert.equal(new Machine({ memBytes: MIN_MEM_BYTES }).mem.length, 65536);
});

test('the inspector describes the spaces the same way for a local run and a remote one', () => {
  const m = new Machine({ memBytes: 1 << 20 });
  const local = machineSpaces(m).map((d) => d.info);
  const remote = remoteSpaces({ MEM: 1 << 20 }, false);
  assert.deepEqual(local, remote);
  assert.deepEqual(remote.find((s) => s.id === 'PCORE1')!.partitions, [
    { name: 'core', count: 8, strideBytes: 8192 },
    { name: 'thread', count: 16, strideBytes: 512 },
  ]);
});
