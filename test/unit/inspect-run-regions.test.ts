/**
 * core/inspect/runRegions.ts: a run's dumps, named buffers, loads and `@buffer` arguments as inspector
 * regions (dumps first: a fresh inspector starts there), the run configuration's views as pictures, and
 * a debugger variable's picture from its memory reference and C type — addresses worked out by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cArrayType, configViews, parseMemoryReference, runRegions, viewOfVariable } from '../../core/inspect/runRegions';

const places = {
  buffers: [
    { name: 'input', address: 0x10000, bytes: 120000 },
    { name: 'output', address: 0x30000, bytes: 40000 },
  ],
  globals: [{ name: 'table', address: 0x400, size: 64 }],
};

test('regions: dumps first (by address, global+bytes, buffer), then buffers, loads, @buffer and address arguments; the rest said', () => {
  const { regions, unplaced } = runRegions({
    ...places,
    dumps: [
      { space: 'MEM', where: 'output', dtype: 'u8', file: 'out/edges.npy', shape: [200, 200] },
      { space: 'MEM', where: 'table+16', dtype: 'i16', values: [1, 2, 3, 4] },
      { space: 'MEM', where: '0x2000', dtype: 'f32', count: 8 },
      { space: 'PCORE@0', where: '0.1.k::w', dtype: 'word12', values: [1] },
    ],
    load: ['table=coef.bin', { where: '0x9000', file: 'x.bin' }],
    args: [3, '@input', '@output+100', '@nothing', 0x10010, 0x43f, 0x440, 200],
  });
  assert.deepEqual(regions, [
    { kind: 'dump', name: 'output → edges.npy', space: 'MEM', offset: 0x30000, bytes: 40000, dtype: 'u8', shape: [200, 200] },
    { kind: 'dump', name: 'table+16', space: 'MEM', offset: 0x410, bytes: 8, dtype: 'i16', shape: undefined },
    { kind: 'dump', name: '0x2000', space: 'MEM', offset: 0x2000, bytes: 32, dtype: 'f32', shape: undefined },
    { kind: 'buffer', name: 'input', space: 'MEM', offset: 0x10000, bytes: 120000 },
    { kind: 'buffer', name: 'output', space: 'MEM', offset: 0x30000, bytes: 40000 },
    { kind: 'load', name: 'table ← coef.bin', space: 'MEM', offset: 0x400, bytes: 64 },
    { kind: 'argument', name: 'arg 1: @input', space: 'MEM', offset: 0x10000, bytes: 120000 },
    { kind: 'argument', name: 'arg 2: @output+100', space: 'MEM', offset: 0x30064, bytes: 39900 },
    // numbers: 0x10010 is 16 bytes into input (120000 − 16 left), 0x43f the last byte of table (0x400 + 64 − 1); 0x440 and 200 are in nothing
    { kind: 'argument', name: 'arg 4: 0x10010 (in input)', space: 'MEM', offset: 0x10010, bytes: 119984 },
    { kind: 'argument', name: 'arg 5: 0x43f (in table ← coef.bin)', space: 'MEM', offset: 0x43f, bytes: 1 },
  ]);
  assert.deepEqual(unplaced, ['dump PCORE@0:0.1.k::w', 'load 0x9000', 'argument 3 @nothing']);
});

test("the configuration's views: image by default for u8, heatmap for other types; an unknown place is a problem naming the view", () => {
  const r = configViews(
    [
      { where: 'input', shape: [3, 200, 200] },
      { where: 'output', dtype: 'i16', shape: [100, 200], label: 'edges' },
      { where: '0x5000', bytes: 256, as: 'heatmap', width: 16 },
      { where: 'nowhere' },
    ],
    places,
  );
  assert.deepEqual(r.views, [
    { label: 'input', space: 'MEM', offset: 0x10000, bytes: 120000, mode: 'image', shape: [3, 200, 200] },
    { label: 'edges', space: 'MEM', offset: 0x30000, bytes: 40000, mode: 'heatmap', dtype: 'i16', shape: [100, 200] },
    { label: '0x5000', space: 'MEM', offset: 0x5000, bytes: 256, mode: 'heatmap', width: 16 },
  ]);
  assert.deepEqual(r.problems, ['views[3]: "nowhere" is not a buffer, a C global or an address with a size ("bytes")']);
});

test('debugger variables: memory reference and C array type give the picture', () => {
  assert.deepEqual(parseMemoryReference('MEM:0x00001000'), { space: 'MEM', offset: 4096 });
  assert.deepEqual(parseMemoryReference('PCORE0S:512'), { space: 'PCORE0S', offset: 512 });
  assert.equal(parseMemoryReference('not a ref!'), undefined);
  assert.deepEqual(cArrayType('const uint8_t [3][20][30]'), { dtype: 'u8', dims: [3, 20, 30] });
  assert.deepEqual(cArrayType('int16_t *'), { dtype: 'i16', dims: [] });
  assert.deepEqual(viewOfVariable({ name: 'img', type: 'uint8_t [3][20][30]', memoryReference: 'MEM:0x00002000' }, 'image'), {
    label: 'img',
    space: 'MEM',
    offset: 0x2000,
    bytes: 1800,
    mode: 'image',
    shape: [3, 20, 30],
  });
  assert.deepEqual(viewOfVariable({ name: 'acc', type: 'int32_t [8]', memoryReference: 'MEM:0x100' }, 'heatmap'), {
    label: 'acc',
    space: 'MEM',
    offset: 256,
    bytes: 32,
    mode: 'heatmap',
    dtype: 'i32',
    width: 8,
  });
  // a PCORE variable without a C type: 12-bit words, 4096 bytes, 32 words a row
  assert.deepEqual(viewOfVariable({ name: 'w', memoryReference: 'PCORE0:1024' }, 'heatmap'), {
    label: 'w',
    space: 'PCORE0',
    offset: 1024,
    bytes: 4096,
    mode: 'heatmap',
    dtype: 'w12',
    width: 32,
  });
  assert.equal(viewOfVariable({ name: 'n', type: 'int' }, 'heatmap'), undefined);
});
