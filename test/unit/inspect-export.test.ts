/** core/inspect/export: .bin, .npy (through core/common/npy) and hex-dump text of memory ranges. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeNpy } from '../../core/common/npy';
import { exportBytes, exportName, toHexText, toNpy } from '../../core/inspect/export';

test('npy export of each element type reads back with the NumPy dtype', () => {
  const bytes = new Uint8Array([0x00, 0x3c, 0x00, 0xc0, 0xff, 0x0f, 0x80, 0x3f]);
  const u8 = decodeNpy(toNpy(bytes, 'u8'));
  assert.equal(u8.dtype, 'u1');
  assert.deepEqual(Array.from(u8.data), [...bytes]);
  const i16 = decodeNpy(toNpy(bytes, 'i16'));
  assert.deepEqual(Array.from(i16.data), [0x3c00, -16384, 0x0fff, 0x3f80]);
  const w12 = decodeNpy(toNpy(bytes, 'w12'));
  assert.equal(w12.dtype, 'i2');
  assert.deepEqual(Array.from(w12.data), [-1024, 0, -1, -128]);
  const bf = decodeNpy(toNpy(bytes.subarray(6), 'bf16'));
  assert.equal(bf.dtype, 'f4');
  assert.deepEqual(Array.from(bf.data), [1]);
  const f32 = decodeNpy(toNpy(new Uint8Array([0, 0, 0xc0, 0x3f, 0, 0, 0xc0, 0xbf]), 'f32'));
  assert.deepEqual(Array.from(f32.data), [1.5, -1.5]);
  const be = decodeNpy(toNpy(new Uint8Array([0x3f, 0xc0, 0, 0]), 'f32', true));
  assert.deepEqual(Array.from(be.data), [1.5]);
});

test('fp16 npy keeps the exact bits as <f2', () => {
  const bytes = new Uint8Array([0x00, 0x3c, 0xff, 0x7b, 0x01, 0x00]);
  const file = toNpy(bytes, 'f16');
  const header = new TextDecoder().decode(file.subarray(10, 80));
  assert.match(header, /'descr': '<f2'/);
  assert.deepEqual([...file.subarray(file.length - 6)], [...bytes]);
  // a partial trailing element is dropped
  assert.equal(toNpy(bytes.subarray(0, 5), 'f16').length, toNpy(bytes.subarray(0, 4), 'f16').length);
});

test('hex text: addresses in units, two groups of 8, ASCII column, short last line', () => {
  const bytes = new Uint8Array(20).map((_, i) => 0x41 + i);
  const t = toHexText(bytes, 0x1000);
  assert.equal(t, '1000: 41 42 43 44 45 46 47 48  49 4a 4b 4c 4d 4e 4f 50  |ABCDEFGHIJKLMNOP|\n' + `1010: 51 52 53 54${' '.repeat(48 - 11)}  |QRST|\n`);
  const w = toHexText(new Uint8Array([1, 0, 2, 0]), 0x40, { unitBytes: 2, width: 2, ascii: false });
  assert.equal(w, '0040: 01 00\n0041: 02 00\n');
});

test('exportBytes and names', () => {
  const data = new Uint8Array([1, 2, 3]);
  const bin = exportBytes(data, 'bin');
  assert.deepEqual([...bin], [1, 2, 3]);
  assert.notEqual(bin, data);
  assert.match(new TextDecoder().decode(exportBytes(data, 'hex', { address: 16 })), /^0010: 01 02 03/);
  assert.equal(exportName('PCORE0', 0x1200, 8, 'npy', 'w12'), 'PCORE0_0x1200_8_w12.npy');
  assert.equal(exportName('csf:main', 0, 48, 'hex'), 'csf_main_0x0_48.txt');
});
