/**
 * The engine's element conversions (core/sim/engine/convert.ts) against values worked out by hand from their
 * definitions: UINT8 → word = v & 0xff, INT8 → sign-extended low byte, INT16 → the sign bit and the low 11 bits
 * (VHDL signed resize 16 → 12); word → UINT8/INT8 low byte, word → INT16 sign-extends 12 bits; REMAP interpolation
 * on a hand-built SPU table: value + ((slope·r + 16) >> 5) at k = x[11:5], r = x[4:0], 12-bit wrap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dataValue, fromWord, remap, toWord, wrap12 } from '../../core/sim/engine/convert';

test('toWord UINT8 keeps the low byte, unsigned', () => {
  assert.equal(toWord(0x80, 'UINT8'), 128);
  assert.equal(toWord(0xff, 'UINT8'), 255);
  assert.equal(toWord(0x1ff, 'UINT8'), 0xff);
  assert.equal(toWord(-1, 'UINT8'), 255);
  assert.equal(toWord(0x234, 'UINT8'), 0x34);
});

test('toWord INT8 sign-extends the low byte', () => {
  assert.equal(toWord(0x80, 'INT8'), -128);
  assert.equal(toWord(0xff, 'INT8'), -1);
  assert.equal(toWord(0x7f, 'INT8'), 127);
  assert.equal(toWord(0x17f, 'INT8'), 127);
  assert.equal(toWord(0x1fe, 'INT8'), -2);
});

test('toWord INT16 keeps the sign bit and the low 11 bits', () => {
  assert.equal(toWord(1000, 'INT16'), 1000);
  // -1000 = 0xFC18: sign 1, low 11 bits 0x418 = 1048 → 1048 − 2048
  assert.equal(toWord(-1000, 'INT16'), -1000);
  assert.equal(toWord(-1, 'INT16'), -1);
  // 0xFFFF read as unsigned bytes is −1 too
  assert.equal(toWord(0xffff, 'INT16'), -1);
  // 2048 = 0x0800: sign 0, low 11 bits 0
  assert.equal(toWord(2048, 'INT16'), 0);
  assert.equal(toWord(0x7fff, 'INT16'), 2047);
  // 0x8000: sign 1, low bits 0 → −2048
  assert.equal(toWord(0x8000, 'INT16'), -2048);
  // -2049 = 0xF7FF: sign 1, low 11 bits 0x7FF → −1
  assert.equal(toWord(-2049, 'INT16'), -1);
  assert.equal(toWord(-2048, 'INT16'), -2048);
});

test('fromWord: UINT8 and INT8 take the low byte, INT16 sign-extends 12 bits', () => {
  assert.equal(fromWord(-1, 'UINT8'), 255);
  assert.equal(fromWord(0x123, 'UINT8'), 0x23);
  assert.equal(fromWord(0x80, 'UINT8'), 128);
  assert.equal(fromWord(0x80, 'INT8'), -128);
  assert.equal(fromWord(0x7ff, 'INT8'), -1);
  assert.equal(fromWord(0x17f, 'INT8'), 127);
  assert.equal(fromWord(-1, 'INT8'), -1);
  assert.equal(fromWord(0x800, 'INT16'), -2048);
  assert.equal(fromWord(0x7ff, 'INT16'), 2047);
  assert.equal(fromWord(0xfff, 'INT16'), -1);
  assert.equal(fromWord(0x1001, 'INT16'), 1);
  assert.equal(fromWord(-5, 'INT16'), -5);
  assert.equal(fromWord(300, 'INT16'), 300);
});

test('wrap12 wraps to a signed 12-bit word', () => {
  assert.equal(wrap12(2047), 2047);
  assert.equal(wrap12(2048), -2048);
  assert.equal(wrap12(4095), -1);
  assert.equal(wrap12(4096), 0);
  assert.equal(wrap12(-2049), 2047);
  assert.equal(wrap12(-2048), -2048);
  assert.equal(wrap12(5000), 5000 - 4096);
});

test('dataValue keeps the bits the DATA register holds per type', () => {
  assert.equal(dataValue(0x18000, 'INT16'), -32768);
  assert.equal(dataValue(0xffff, 'INT16'), -1);
  assert.equal(dataValue(1234, 'INT16'), 1234);
  assert.equal(dataValue(0x1ff, 'INT8'), -1);
  assert.equal(dataValue(0x7f, 'INT8'), 127);
  assert.equal(dataValue(0x180, 'INT8'), -128);
  assert.equal(dataValue(0x1ff, 'UINT8'), 255);
  assert.equal(dataValue(-1, 'UINT8'), 255);
  assert.equal(dataValue(0x100, 'UINT8'), 0);
});

test('remap interpolates on a hand-built table: entry k = x >> 5 of the stream, remainder r = x & 31', () => {
  const spu = new Int16Array(1024);
  // x = 0x123 = 291: k = 9, r = 3; stream 1 → entry at 256 + 2·9 = 274 (slope), 275 (value)
  spu[274] = 100;
  spu[275] = 50;
  // 50 + ((100·3 + 16) >> 5) = 50 + (316 >> 5) = 50 + 9
  assert.equal(remap(0x123, spu, 1), 59);
  // the stream number is taken modulo 4
  assert.equal(remap(0x123, spu, 5), 59);
  // other streams read other entries (all zero here)
  assert.equal(remap(0x123, spu, 0), 0);
  assert.equal(remap(0x123, spu, 2), 0);
  // negative slope: (−300 + 16) >> 5 = ⌊−8.875⌋ = −9
  spu[274] = -100;
  assert.equal(remap(0x123, spu, 1), 41);
  // the result wraps to 12 bits: 2040 + ((320·3 + 16) >> 5) = 2040 + 30 = 2070 → 2070 − 4096
  spu[274] = 320;
  spu[275] = 2040;
  assert.equal(remap(0x123, spu, 1), -2026);
  // x = −1 reads as 0xFFF: k = 127, r = 31; stream 0 → entry 254, 255: 7 + ((32·31 + 16) >> 5) = 7 + 31
  spu[254] = 32;
  spu[255] = 7;
  assert.equal(remap(-1, spu, 0), 38);
  assert.equal(remap(0xfff, spu, 0), 38);
  // rounding at half: slope 1, r = 15 → (15 + 16) >> 5 = 0; r = 16 → 1 (stream 2: entry 512, 513)
  spu[512] = 1;
  spu[513] = 10;
  assert.equal(remap(15, spu, 2), 10);
  assert.equal(remap(16, spu, 2), 11);
  // k = 1 for x = 32..63: entry 514, 515
  spu[514] = 64;
  spu[515] = -20;
  // −20 + ((64·5 + 16) >> 5) = −20 + 10
  assert.equal(remap(37, spu, 2), -10);
  // stream 3: entry 768 + 2k
  spu[768 + 2] = 0;
  spu[768 + 3] = 123;
  assert.equal(remap(40, spu, 3), 123);
});
