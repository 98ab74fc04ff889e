/** core/inspect/decode: typed decoding (fp16, bf16, fp32, 12-bit words), byte order, radixes, parsing and search patterns. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  bf16ToFloat,
  decode,
  encodeValue,
  floatToBf16,
  floatToHalf,
  formatAddress,
  formatByte,
  formatFloat,
  formatValue,
  halfToFloat,
  parseNumber,
  parseSearch,
  rawBits,
  word12,
  asciiChar,
} from '../../core/inspect/decode';

const b = (...x: number[]) => new Uint8Array(x);

test('fp16: known encodings decode and print like NumPy (shortest round trip)', () => {
  const cases: [number, number, string][] = [
    [0x3c00, 1, '1'],
    [0xc000, -2, '-2'],
    [0x7bff, 65504, '65500'],
    [0x3555, 0.333251953125, '0.3333'],
    [0x0001, 2 ** -24, '6e-8'],
    [0x0400, 2 ** -14, '6.104e-5'],
    [0x8000, -0, '-0'],
    [0x7c00, Infinity, 'Inf'],
    [0xfc00, -Infinity, '-Inf'],
  ];
  for (const [bits, v, text] of cases) {
    assert.equal(halfToFloat(bits), v, `0x${bits.toString(16)}`);
    assert.equal(formatValue(b(bits & 0xff, bits >> 8), 0, 'f16'), text);
    if (!Number.isNaN(v)) assert.equal(floatToHalf(v), bits);
  }
  assert.ok(Number.isNaN(halfToFloat(0x7e00)));
  assert.equal(formatValue(b(0x00, 0x7e), 0, 'f16'), 'NaN');
});

test('fp16 encoding rounds to nearest even and saturates to Inf', () => {
  assert.equal(floatToHalf(1 + 2 ** -11), 0x3c00); // tie → even
  assert.equal(floatToHalf(1 + 3 * 2 ** -11), 0x3c02); // tie → even (up)
  assert.equal(floatToHalf(65520), 0x7c00);
  assert.equal(floatToHalf(2 ** -25), 0x0000); // half of the smallest subnormal → 0 (even)
  assert.equal(floatToHalf(3 * 2 ** -26), 0x0001);
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0xffff }), (h) => {
      const v = halfToFloat(h);
      if (Number.isNaN(v)) return true;
      return floatToHalf(v) === h;
    }),
  );
});

test('bf16: decode, round-to-nearest-even encode, printing', () => {
  assert.equal(bf16ToFloat(0x3f80), 1);
  assert.equal(bf16ToFloat(0x4049), 3.140625);
  assert.equal(formatFloat(bf16ToFloat(0x4049), 'bf16'), '3.14');
  assert.equal(formatFloat(bf16ToFloat(0x3dcd), 'bf16'), '0.1');
  assert.equal(formatFloat(bf16ToFloat(0x7f7f), 'bf16'), '3.39e38');
  assert.equal(formatFloat(bf16ToFloat(0xff80), 'bf16'), '-Inf');
  assert.equal(floatToBf16(1), 0x3f80);
  assert.equal(floatToBf16(0.1), 0x3dcd);
  assert.equal(floatToBf16(1 + 2 ** -8), 0x3f80); // tie → even
  assert.equal(floatToBf16(1 + 3 * 2 ** -8), 0x3f82);
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0xffff }), (h) => {
      const v = bf16ToFloat(h);
      return Number.isNaN(v) || floatToBf16(v) === h;
    }),
  );
});

test('fp32 printing: shortest text that reads back, exponent form outside 1e-4..1e7', () => {
  assert.equal(formatValue(b(0, 0, 0xc0, 0x3f), 0, 'f32'), '1.5');
  assert.equal(formatValue(b(0xcd, 0xcc, 0xcc, 0xbd), 0, 'f32'), '-0.1');
  assert.equal(formatValue(b(0xff, 0xff, 0x7f, 0x7f), 0, 'f32'), '3.4028235e38');
  assert.equal(formatValue(b(1, 0, 0, 0), 0, 'f32'), '1e-45');
  assert.equal(formatValue(b(0x3f, 0xc0, 0, 0), 0, 'f32', true), '1.5');
  fc.assert(
    fc.property(
      fc.float({ noNaN: true }),
      (f) =>
        Object.is(Math.fround(Number(formatFloat(f, 'f32').replace('Inf', 'Infinity'))), f) ||
        (f === 0 && formatFloat(f, 'f32') === (Object.is(f, -0) ? '-0' : '0')),
    ),
  );
});

test('12-bit PCORE words: low 12 bits, sign-extended; the high nibble is ignored', () => {
  assert.equal(decode(b(0xff, 0x0f), 0, 'w12'), -1);
  assert.equal(decode(b(0xff, 0x07), 0, 'w12'), 2047);
  assert.equal(decode(b(0x00, 0x08), 0, 'w12'), -2048);
  assert.equal(decode(b(0x05, 0xf0), 0, 'w12'), 5);
  assert.equal(decode(b(0xff, 0xff), 0, 'w12'), -1); // simulator Int16Array value -1
  assert.equal(decode(b(0x0f, 0xff), 0, 'w12', true), -1);
  assert.equal(formatValue(b(0xbc, 0x0a), 0, 'w12', false, 'hex'), 'abc');
  assert.equal(formatValue(b(0xbc, 0x0a), 0, 'w12', false, 'dec'), '-1348');
  assert.equal(word12(4095), -1);
  assert.deepEqual([...encodeValue(-1, 'w12')], [0xff, 0xff]);
  assert.deepEqual([...encodeValue(2047, 'w12')], [0xff, 0x07]);
  assert.throws(() => encodeValue(2048 * 2, 'w12'), /does not fit/);
});

test('integers in both byte orders and all radixes', () => {
  const x = b(0x34, 0x12, 0xfe, 0xff);
  assert.equal(decode(x, 0, 'u16'), 0x1234);
  assert.equal(decode(x, 0, 'u16', true), 0x3412);
  assert.equal(decode(x, 0, 'i32'), -126412);
  assert.equal(decode(x, 0, 'u32'), 0xfffe1234);
  assert.equal(decode(x, 0, 'u32', true), 0x3412feff);
  assert.equal(decode(x, 2, 'i16'), -2);
  assert.equal(decode(x, 3, 'i8'), -1);
  assert.equal(rawBits(x, 0, 'i32', true), 0x3412feff);
  assert.equal(formatValue(x, 2, 'i16', false, 'hex'), 'fffe');
  assert.equal(formatValue(x, 2, 'i16', false, 'dec'), '-2');
  assert.equal(formatValue(x, 0, 'u8', false, 'bin'), '00110100');
  assert.equal(formatValue(x, 0, 'u8', false, 'oct'), '064');
  assert.equal(formatValue(x, 0, 'u16', false, 'oct'), '011064');
  assert.equal(formatByte(0x0f), '0f');
  assert.equal(formatByte(0x0f, 'dec'), '015');
  assert.equal(formatByte(0x0f, 'oct'), '017');
  assert.equal(formatByte(0x0f, 'bin'), '00001111');
  assert.equal(formatAddress(0x3fffff0, 7), '3fffff0');
  assert.equal(asciiChar(0x41), 'A');
  assert.equal(asciiChar(0x7f), '.');
  fc.assert(fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.boolean(), (v, be) => decode(encodeValue(v, 'i32', be), 0, 'i32', be) === v));
  fc.assert(fc.property(fc.integer({ min: -32768, max: 32767 }), fc.boolean(), (v, be) => decode(encodeValue(v, 'i16', be), 0, 'i16', be) === v));
});

test('parseNumber accepts the spellings users type', () => {
  assert.equal(parseNumber('0x1f'), 31);
  assert.equal(parseNumber('0X1F'), 31);
  assert.equal(parseNumber('-0x10'), -16);
  assert.equal(parseNumber('0b101'), 5);
  assert.equal(parseNumber('0o17'), 15);
  assert.equal(parseNumber('1_000'), 1000);
  assert.equal(parseNumber('1.5e3'), 1500);
  assert.equal(parseNumber('-inf'), -Infinity);
  assert.ok(Number.isNaN(parseNumber('nan')!));
  assert.equal(parseNumber('0x'), undefined);
  assert.equal(parseNumber('0b102'), undefined);
  assert.equal(parseNumber('$x'), undefined);
  assert.equal(parseNumber(''), undefined);
});

test('search patterns: hex with wildcards, text, typed values in either order', () => {
  assert.deepEqual([...parseSearch('de ad be ef', 'hex').pattern], [0xde, 0xad, 0xbe, 0xef]);
  assert.deepEqual([...parseSearch('deadbeef', 'hex').pattern], [0xde, 0xad, 0xbe, 0xef]);
  const w = parseSearch('de ?? ef', 'hex');
  assert.deepEqual([...w.mask!], [0xff, 0, 0xff]);
  assert.deepEqual([...parseSearch('Hi', 'ascii').pattern], [72, 105]);
  assert.deepEqual([...parseSearch('2.5', 'f32').pattern], [0, 0, 0x20, 0x40]);
  assert.deepEqual([...parseSearch('2.5', 'f32', true).pattern], [0x40, 0x20, 0, 0]);
  assert.deepEqual([...parseSearch('1 -1', 'i16').pattern], [1, 0, 0xff, 0xff]);
  assert.deepEqual([...parseSearch('1', 'f16').pattern], [0x00, 0x3c]);
  assert.deepEqual([...parseSearch('1', 'bf16').pattern], [0x80, 0x3f]);
  const p = parseSearch('-1', 'w12');
  assert.deepEqual([...p.pattern], [0xff, 0xff]);
  assert.deepEqual([...p.mask!], [0xff, 0x0f]);
  assert.throws(() => parseSearch('zz', 'hex'), /not a hex byte/);
  assert.throws(() => parseSearch('300', 'u8'), /does not fit/);
  assert.throws(() => parseSearch('', 'u8'), /nothing/);
});
