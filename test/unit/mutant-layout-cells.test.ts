/**
 * 16-byte Core Memory cells (research formats.md part B), whole answers pinned: the rule messages with their fields,
 * indices and quick fixes, forward and inverse with every explanation step, the summary facts, the batch loop past the
 * table limit, and the element encodings (binary16 rounding, int32/float16/float32 round trips). Every expected value
 * is worked out here from the rules: an innermost row of n elements of s bytes takes R = ⌈n·s / cell⌉ cells, element
 * j of storage row q sits at cell base/cell + q·R + ⌊j / E⌋ (E = cell / s), byte (j mod E)·s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CellLayout, fromHalfBits, toHalfBits, validateCells } from '../../core/layout/models/cells';
import { CoordError } from '../../core/layout/util';

const SUPPORTED = 'supported: int8, int16, float16, float32, int32';

test('rule messages: dtype, rank, sizes, cell size, storage order and base, with fields, indices and fixes', () => {
  // bfloat16 gets its own reason; another unknown type does not
  assert.deepEqual(validateCells({ shape: [4], dtype: 'bfloat16' }), [
    {
      code: 'CELL002',
      severity: 'error',
      message: `bfloat16 is not a documented Core Memory type (bfloat16 is unconfirmed and rejected until it is); ${SUPPORTED}`,
      field: '@dtype',
      index: undefined,
      fixes: undefined,
    },
  ]);
  assert.deepEqual(
    validateCells({ shape: [4], dtype: 'float64' }).map((i) => i.message),
    [`float64 is not a documented Core Memory type; ${SUPPORTED}`],
  );
  // each bad size is reported with the index of its dimension
  assert.deepEqual(validateCells({ shape: [2, 0, 1.5], dtype: 'int8' }), [
    { code: 'CELL001', severity: 'error', message: 'dimension 1 is 0; sizes must be integers ≥ 1', field: '@shape', index: 1, fixes: undefined },
    { code: 'CELL001', severity: 'error', message: 'dimension 2 is 1.5; sizes must be integers ≥ 1', field: '@shape', index: 2, fixes: undefined },
  ]);
  assert.deepEqual(validateCells({ shape: [1, 1, 1, 1, 2], dtype: 'int8' })[0].fixes, [
    { title: 'Allow more than 4 dims', field: 'relax_rank', newText: 'true' },
  ]);
  // a 1-byte cell holds exactly one int8: valid, and (3) int8 then takes cells 0, 1, 2 with no padding
  assert.deepEqual(validateCells({ shape: [3], dtype: 'int8', cellBytes: 1 }), []);
  assert.deepEqual(new CellLayout({ shape: [3], dtype: 'int8', cellBytes: 1 }).forward([2]).address, 2);
  // a 0-byte cell is CELL004 alone: no boundary can be checked against it (8 % 0 is NaN, not a misalignment)
  assert.deepEqual(validateCells({ shape: [3], dtype: 'int8', cellBytes: 0, base: 8 }), [
    { code: 'CELL004', severity: 'error', message: 'cell size 0: a cell is a whole number of bytes', field: 'cell', index: undefined, fixes: undefined },
  ]);
  assert.deepEqual(
    validateCells({ shape: [3], dtype: 'float32', cellBytes: 6 }).map((i) => i.message),
    ['a float32 element (4 B) does not divide a 6-byte cell, so elements would straddle cells'],
  );
  // the example of a right order uses the names only when every dim has one
  const order = (names?: (string | undefined)[]) =>
    validateCells({ shape: [2, 3], names, dtype: 'int8', order: [0, 0] }).map((i) => [i.code, i.field, i.message]);
  assert.deepEqual(order(['N', 'C']), [['CELL005', 'order', 'order must list each of the 2 dims once (outermost first), e.g. [N, C]']]);
  assert.deepEqual(order(['N', undefined]), [['CELL005', 'order', 'order must list each of the 2 dims once (outermost first), e.g. [0, 1]']]);
  assert.deepEqual(order(), [['CELL005', 'order', 'order must list each of the 2 dims once (outermost first), e.g. [0, 1]']]);
  // base 0x28 = 40 in 16-byte cells: the next boundary is 48 = 0x30, cell 48 / 16 = 3
  assert.deepEqual(validateCells({ shape: [2, 16], dtype: 'int8', base: 0x28 }), [
    {
      code: 'CELL003',
      severity: 'error',
      message: 'tensors start on a cell boundary: 0x28 is not a multiple of 16 (use 0x30, cell 3)',
      field: '@at',
      index: undefined,
      fixes: [{ title: 'Round up to 0x30', field: '@at', newText: '0x30', preferred: true }],
    },
  ]);
});

test('CELL006 messages: row padding over half the bytes is a warning, up to half is information', () => {
  // int16 (2, 3): a row of 3 × 2 B = 6 B takes 1 cell, 10 zero bytes; 2 cells = 32 B of which 20 B (62.5 %) padding
  assert.deepEqual(validateCells({ shape: [2, 3], dtype: 'int16' }), [
    {
      code: 'CELL006',
      severity: 'warning',
      message: 'each innermost row of 3 × 2 B uses 1 cell with 10 zero bytes: 62.5 % of the 32 B is padding',
      field: '@shape',
      index: undefined,
      fixes: undefined,
    },
  ]);
  // float32 (2, 5): a row of 20 B takes ⌈20/16⌉ = 2 cells, 12 zero bytes; 64 B of which 24 B (37.5 %) padding
  assert.deepEqual(
    validateCells({ shape: [2, 5], dtype: 'float32' }).map((i) => [i.severity, i.message]),
    [['information', 'each innermost row (5 × 4 B) is padded with 12 zero bytes to 2 cells']],
  );
  // stored as (5, 2): rows of 2 float32 = 8 B in 1 cell, 8 zero bytes each: 40 B of 80 B, exactly 50 % → information
  assert.deepEqual(
    validateCells({ shape: [2, 5], dtype: 'float32', order: [1, 0] }).map((i) => [i.severity, i.message]),
    [['information', 'each innermost row (2 × 4 B) is padded with 8 zero bytes to 1 cell']],
  );
});

// int16 (A, B, C) = (2, 3, 10) stored as (B, A, C) at 0x40: storage shape (3, 2, 10), E = 8, R = ⌈20/16⌉ = 2,
// 6 rows, 12 cells = 192 B at cells 4..15 (0x40..0xff)
const permuted = () => new CellLayout({ shape: [2, 3, 10], names: ['A', 'B', 'C'], dtype: 'int16', order: [1, 0, 2], base: 0x40 });

test('forward of a named, permuted int16 tensor at 0x40: every step', () => {
  // (A=1, B=2, C=9): storage (2, 1, 9), row 2·2 + 1 = 5, cell 4 + 5·2 + ⌊9/8⌋ = 15, byte (9 mod 8)·2 = 2,
  // address 16·15 + 2 = 242 = 0xf2, bits 8·2 + 16 − 1 = 31 down to 16
  assert.deepEqual(permuted().forward([1, 2, 9]), {
    model: 'cells',
    coord: [1, 2, 9],
    address: 0xf2,
    size: 2,
    steps: [
      { name: 'coordinate', value: '(A=1, B=2, C=9)' },
      { name: 'storage order', value: '(B=2, A=1, C=9)' },
      { name: 'row', value: '5 (2 cells per row, 8 elements per cell)' },
      { name: 'cell', value: '15 = 4 + 5·2 + ⌊9/8⌋' },
      { name: 'byte in cell', value: '2 (bits 31:16 of the 128-bit cell, little-endian)' },
      { name: 'address', value: '0xf2 = 16·15 + 2' },
    ],
    storage: [2, 1, 9],
    row: 5,
    cell: 15,
    byte: 2,
    bits: [31, 16],
  });
  assert.throws(() => permuted().forward([2, 0, 0]), { name: 'RangeError', message: 'index 2 is out of range for A (dimension 0): valid is 0..1' });
  assert.throws(() => permuted().forward([0, 0, 10]), CoordError);
  assert.equal(permuted().checkCoord([1, 3, 0]), 'index 3 is out of range for B (dimension 1): valid is 0..2');
  assert.equal(permuted().checkCoord([1, 2, 9]), undefined);
});

test('forward with one dim named and the written order: unnamed dims are d<i>, no storage-order step', () => {
  // int8 (2, 3) with names (–, W): E = 16, R = 1; (1, 2): row 1, cell 1 + ⌊2/16⌋ = 1, byte 2, address 18 = 0x12
  const m = new CellLayout({ shape: [2, 3], names: [undefined, 'W'], dtype: 'int8' });
  assert.deepEqual(m.forward([1, 2]).steps, [
    { name: 'coordinate', value: '(d0=1, W=2)' },
    { name: 'row', value: '1 (1 cell per row, 16 elements per cell)' },
    { name: 'cell', value: '1 = 1·1 + ⌊2/16⌋' },
    { name: 'byte in cell', value: '2 (bits 23:16 of the 128-bit cell, little-endian)' },
    { name: 'address', value: '0x12 = 16·1 + 2' },
  ]);
  // an order that only names the same dims in the same place is not a permutation
  assert.deepEqual(new CellLayout({ shape: [2, 3], dtype: 'int8', order: [0, 1] }).forward([1, 2]).steps[0], { name: 'coordinate', value: '(1, 2)' });
  assert.equal(new CellLayout({ shape: [2, 3], dtype: 'int8', order: [0, 1] }).forward([1, 2]).steps.length, 5);
});

test('inverse of the permuted tensor: element with the byte in it, row padding, outside with the cell range', () => {
  const m = permuted();
  // 0xf3 − 0x40 = 179: cell 11 (absolute 15), byte 3; row ⌊11/2⌋ = 5, cell 1 of the row; element 8 + ⌊3/2⌋ = 9;
  // storage (unravel(5, (3, 2)), 9) = (2, 1, 9) → (A, B, C) = (1, 2, 9), byte 3 mod 2 = 1 of the element
  assert.deepEqual(m.inverse(0xf3), {
    model: 'cells',
    address: 0xf3,
    kind: 'element',
    coord: [1, 2, 9],
    byteInElement: 1,
    steps: [
      { name: 'cell', value: '15, byte 3' },
      { name: 'row', value: '5, cell 1 of 2 in it' },
      { name: 'coordinate', value: '(1, 2, 9)' },
    ],
  });
  // byte 4 of that cell is element 10 of a 10-element row: padding
  assert.deepEqual(m.inverse(0xf4), {
    model: 'cells',
    address: 0xf4,
    kind: 'padding',
    steps: [
      { name: 'cell', value: '15, byte 4' },
      { name: 'row', value: '5, cell 1 of 2 in it' },
    ],
    reason: 'zero padding after the 10 elements of row 5',
  });
  for (const a of [0x3f, 0x100])
    assert.deepEqual(m.inverse(a), { model: 'cells', address: a, kind: 'outside', steps: [], reason: 'the tensor occupies 0x40..0xff (cells 4..15)' });
});

test('summary of the permuted tensor: every fact', () => {
  // 60 elements × 2 B = 120 B of 192 B; 12 cells × 8 slots = 96 slots, 36 of them padding; 72 B = 37.5 % padding
  assert.deepEqual(permuted().summary(), {
    model: 'cells',
    elements: 60,
    slots: 96,
    paddingSlots: 36,
    bytes: 192,
    breakdown: { element: 120, padding: 72, alignment: 0, unused: 0, metadata: 0, replica: 0, slack: 0, gap: 0 },
    paddingPercent: 37.5,
    blocks: { name: 'cell', count: 12, bytes: 16 },
    short: '192 B · 12 cells · 37.5 % padding',
    facts: [
      { name: 'dtype', value: 'int16, 2 B (two’s complement, little-endian), 8 per 16-byte cell' },
      { name: 'storage order', value: '(B=3, A=2, C=10), last innermost' },
      { name: 'rows', value: '6 innermost rows of 10 elements → 2 cells each (20 data + 12 zero bytes)' },
      { name: 'cells', value: '12 = 6 × 2, 192 B' },
      { name: 'address', value: '0x40..0xff (cells 4..15)' },
    ],
  });
  // cell 11 of the tensor (absolute 15) is cell 1 of row 5 = storage (2, 1): elements 8, 9 of 10, first (A, B, C) = (1, 2, 8)
  assert.deepEqual(permuted().regions().slot(0, 11), { kind: 'partial', index: 15, elements: 2, first: [1, 2, 8], label: 'cell 15: row 5, 2/8 elements' });
  // one dim named: the others are d<i>
  assert.deepEqual(new CellLayout({ shape: [2, 3], names: [undefined, 'W'], dtype: 'int8' }).summary().facts[1], {
    name: 'storage order',
    value: '(d0=2, W=3), last innermost',
  });
  // unnamed: the storage order lists the sizes only
  assert.deepEqual(new CellLayout({ shape: [2, 3], dtype: 'int8', order: [1, 0] }).summary().facts[1], {
    name: 'storage order',
    value: '(3, 2), last innermost',
  });
});

test('batch loop past the table limit: row strides above 1, element ≥ E in a row, a caller buffer longer than the batch', () => {
  // int8 (3, 2, 2^21) at 0x100: E = 16, R = 2^21 / 16 = 131072 cells per row, row strides (2, 1);
  // (a, b, c) → 0x100 + ((2a + b)·R + ⌊c/16⌋)·16 + c mod 16
  const C = 2 ** 21;
  const R = C / 16;
  const m = new CellLayout({ shape: [3, 2, C], dtype: 'int8', base: 0x100 });
  const at = (a: number, b: number, c: number) => 0x100 + ((2 * a + b) * R + Math.floor(c / 16)) * 16 + (c % 16);
  const q = [
    [1, 0, 0],
    [2, 1, 17],
    [0, 1, C - 1],
    [3, 0, 0],
  ];
  const out = new Float64Array(5).fill(-7);
  const got = m.forwardMany(Int32Array.from(q.flat()), out);
  assert.equal(got, out);
  assert.deepEqual([...got.slice(0, 3)], [at(1, 0, 0), at(2, 1, 17), at(0, 1, C - 1)]);
  assert.ok(Number.isNaN(got[3]));
  assert.equal(got[4], -7, 'only the batch is written');
  // the same answers one by one
  assert.deepEqual(
    q.slice(0, 3).map((c) => m.forward(c).address),
    [...got.slice(0, 3)],
  );
  // stored as (c, a, b) past the limit: int16 (3, 2^21, 2) with order [1, 0, 2]: storage (2^21, 3, 2), R = 1,
  // rows (b, a) with strides (a: 1, b: 3); (a, b, c) → ((3b + a)·1)·16 + c·2
  const p = new CellLayout({ shape: [3, C, 2], dtype: 'int16', order: [1, 0, 2] });
  assert.deepEqual([...p.forwardMany(Int32Array.from([2, 5, 1, 1, C - 1, 0]))], [(3 * 5 + 2) * 16 + 2, (3 * (C - 1) + 1) * 16]);
});

test('pack and unpack at a non-zero base: offsets are relative to the tensor', () => {
  // values 0..59 in logical row-major order: (A, B, C) = (1, 2, 9) is value 30 + 20 + 9 = 59, at 0xf2 − 0x40 = 178,
  // and (1, 2, 8) = 58 at 176; byte 180 is padding (element 10 of row 5); (0, 1, 0) = 10 is in storage row
  // (B, A) = (1, 0) = row 2, which starts at 2·2·16 = 64
  const m = permuted();
  const values = Array.from({ length: 60 }, (_, i) => i);
  const b = m.pack(values);
  assert.equal(b.length, 192);
  assert.deepEqual([b[178], b[179], b[64], b[65], b[176], b[180]], [59, 0, 10, 0, 58, 0]);
  assert.deepEqual(m.unpack(b, true), values);
});

test('element encodings: int32, float16 and float32 packed and read back', () => {
  // int32 (3): 1, −2, 0x12345678 little-endian, then 4 zero bytes of padding
  const i32 = new CellLayout({ shape: [3], dtype: 'int32' });
  const b = i32.pack([1, -2, 0x12345678]);
  assert.deepEqual([...b], [1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0]);
  assert.deepEqual(i32.unpack(b, true), [1, -2, 0x12345678]);
  // float16 (2): 1.5 = 0x3e00, −0.25 = 0xb400
  const f16 = new CellLayout({ shape: [2], dtype: 'float16' });
  const h = f16.pack([1.5, -0.25]);
  assert.deepEqual([...h.slice(0, 4)], [0x00, 0x3e, 0x00, 0xb4]);
  assert.deepEqual(f16.unpack(h), [1.5, -0.25]);
  // float32 (2): 0.5 = 0x3f000000, −3 = 0xc0400000
  const f32 = new CellLayout({ shape: [2], dtype: 'float32' });
  const f = f32.pack([0.5, -3]);
  assert.deepEqual([...f.slice(0, 8)], [0, 0, 0, 0x3f, 0, 0, 0x40, 0xc0]);
  assert.deepEqual(f32.unpack(f), [0.5, -3]);
});

test('binary16: round to nearest even in normal and subnormal range, infinities and NaN', () => {
  // 1 + 3·2^-12: mantissa bits below the 10 kept ones are 0b11 of 0b100 → more than half → 0x3c00 + 1
  assert.equal(toHalfBits(1 + 3 * 2 ** -12), 0x3c01);
  // 1 + 2^-11 is a tie on an even mantissa (stays 0x3c00); 1 + 3·2^-11 a tie on an odd one (up to 0x3c02)
  assert.equal(toHalfBits(1 + 2 ** -11), 0x3c00);
  assert.equal(toHalfBits(1 + 3 * 2 ** -11), 0x3c02);
  // subnormals are multiples of 2^-24: 1.5·2^-24 is a tie on 1 (odd) → 2; 2.5·2^-24 a tie on 2 (even) → 2; 1.75 → 2
  assert.equal(toHalfBits(1.5 * 2 ** -24), 0x0002);
  assert.equal(toHalfBits(2.5 * 2 ** -24), 0x0002);
  assert.equal(toHalfBits(-1.75 * 2 ** -24), 0x8002);
  assert.equal(toHalfBits(1.25 * 2 ** -24), 0x0001);
  assert.equal(toHalfBits(2 ** -26), 0x0000);
  // the edges of the ranges: 2^-15 is the largest subnormal exponent (512·2^-24); 1.5·2^-25 rounds up to 2^-24;
  // 2^-40 is far below (0, signed); 1.5·2^16 overflows to +∞
  assert.equal(toHalfBits(2 ** -15), 0x0200);
  assert.equal(toHalfBits(1.5 * 2 ** -25), 0x0001);
  assert.equal(toHalfBits(-(2 ** -40)), 0x8000);
  assert.equal(toHalfBits(1.5 * 2 ** 16), 0x7c00);
  assert.equal(toHalfBits(-Infinity), 0xfc00);
  assert.equal(toHalfBits(NaN), 0x7e00);
  // and back: exponent 0x1f is ±∞ or NaN; exponent 0 is m·2^-24
  assert.equal(fromHalfBits(0x7c00), Infinity);
  assert.equal(fromHalfBits(0xfc00), -Infinity);
  assert.ok(Number.isNaN(fromHalfBits(0x7e00)));
  assert.equal(fromHalfBits(0x8003), -3 * 2 ** -24);
  assert.equal(fromHalfBits(0x3c01), 1 + 2 ** -10);
});
