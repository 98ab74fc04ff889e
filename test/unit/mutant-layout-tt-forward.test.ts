/**
 * One element of a TT-NN buffer (tt/forward.ts) both ways, whole answers pinned with every explanation step: the
 * coordinate → page → bank or core → address of each memory kind (interleaved tile and row-major pages, 2-D shards in
 * L1 cores and in DRAM banks, ND shards round-robin, a 1-D tensor), block-float exponents and nibbles, a transposed
 * tile; and an address in a bank or core → the element, exponent, padding, alignment, unused slot, or why it is
 * outside. Expected values come from research layouts.md part B: a 32×32 tile has four 16×16 faces stored one after
 * another, element (r, c) of a tile is elem = face·256 + ir·16 + ic; page p of an interleaved buffer is in bank
 * p mod banks at slot ⌊p / banks⌋; a 2-D shard (R, C) holds local page i·sw + j; ND shard s goes to core s mod cores
 * at slot ⌊s / cores⌋; offset = local page · aligned page + byte in page; Wormhole odd DRAM banks add 1 GiB.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type CoreRange, TTLayout, type TTSpec } from '../../core/layout/models/tt';
import type { Step, UnitRef } from '../../core/layout/model';
import { TT_ARCHS } from '../../core/layout/models/ttArch';
import { CoordError } from '../../core/layout/util';

const WH = TT_ARCHS.wormhole_b0;
const B = 0x10000;
const GiB = 2 ** 30;
const R = (x0: number, y0: number, x1: number, y1: number): CoreRange => ({ x0, y0, x1, y1 });
const tt = (s: Partial<TTSpec> & { shape: number[] }) =>
  new TTLayout({ arch: WH, dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED', base: B, ...s });
const step = (name: string, value: string) => ({ name, value });
/** Steps of the answers as [name, value] pairs, the way they read. */
const pairs = (steps: readonly { name: string; value: string }[]) => steps.map((s) => [s.name, s.value]);
/** The answer of an inverse that lands on byte `byte` of element `coord`, in a bank or core. */
const element = (address: number, unit: UnitRef, coord: number[], byte: number, steps: Step[]) => ({
  model: 'tt',
  address,
  unit,
  kind: 'element',
  coord,
  byteInElement: byte,
  steps,
});
const bank = (index: number, label = `DRAM bank ${index}`): UnitRef => ({ kind: 'bank', index, label });

test('interleaved tile in DRAM: (40, 17) of 64×64 bf16 is byte 770 of page 2 in bank 2 — the whole answer', () => {
  // page (⌊40/32⌋, ⌊17/32⌋) = (1, 0) → 1·2 + 0 = 2; in tile (8, 17): face 1 (top right), in face (8, 1) → elem
  // 256 + 8·16 + 1 = 385, byte 770; bank 2 mod 12 = 2, slot 0; offset 0·2048 + 770; bank 2 is even: no channel offset
  assert.deepEqual(tt({ shape: [64, 64] }).forward([40, 17]), {
    model: 'tt',
    coord: [40, 17],
    size: 2,
    steps: [
      step('coordinate', '(40, 17)'),
      step('tile (page)', 'page 2 = tile (1, 0) of 2×2'),
      step('in tile', '(8, 17)'),
      step('face', 'face 1 (16×16), in face (8, 1)'),
      step('element in tile', '385'),
      step('byte in page', '770 of 2048'),
      step('bank', '2 = page 2 mod 12'),
      step('page in bank', '0 = ⌊2 / 12⌋ (aligned page 2048 B)'),
      step('offset in bank', '770 = 0·2048 + 770'),
      step('address', 'DRAM bank 2: 0x10302 (B+770)'),
    ],
    row: 40,
    col: 17,
    page: 2,
    pageRow: 1,
    pageCol: 0,
    tile: { rr: 8, cc: 17, face: 1, ir: 8, ic: 1, elem: 385 },
    pageByte: 770,
    exponentByte: undefined,
    nibble: undefined,
    address: 0x10302,
    unit: { kind: 'bank', index: 2, label: 'DRAM bank 2' },
    bank: 2,
    core: undefined,
    shard: undefined,
    shardCoord: undefined,
    localPage: 0,
    offset: 770,
    bankOffset: 0,
  });
});

test('a rank-3 tensor folds to (row, col) first; an odd Wormhole bank shows its channel address; base 0 has no B+', () => {
  // [2, 40, 64] pads to [2, 64, 64] = 128×64; (1, 5, 33) → row 64 + 5 = 69, col 33 → page (2, 1) = 2·2 + 1 = 5;
  // in tile (5, 1): face 0, elem 5·16 + 1 = 81, byte 162; bank 5, slot 0 → offset 162 = 0xa2; bank 5 is odd: + 1 GiB
  const f = tt({ shape: [2, 40, 64], base: 0 }).forward([1, 5, 33]);
  assert.deepEqual(pairs(f.steps), [
    ['coordinate', '(1, 5, 33)'],
    ['physical (row, col)', '(69, 33) of 128×64'],
    ['tile (page)', 'page 5 = tile (2, 1) of 4×2'],
    ['in tile', '(5, 1)'],
    ['face', 'face 0 (16×16), in face (5, 1)'],
    ['element in tile', '81'],
    ['byte in page', '162 of 2048'],
    ['bank', '5 = page 5 mod 12'],
    ['page in bank', '0 = ⌊5 / 12⌋ (aligned page 2048 B)'],
    ['offset in bank', '162 = 0·2048 + 162'],
    ['address', 'DRAM bank 5: 0xa2'],
    ['channel address', '0x400000a2 (bank offset +1 GiB)'],
  ]);
  assert.deepEqual([f.bank, f.address, f.bankOffset], [5, 0xa2, GiB]);
});

test('row-major interleaved in DRAM: a page is a row of 100 bf16 (200 B, aligned to 224)', () => {
  // (13, 57): page 13 = row 13, byte 57·2 = 114; bank 13 mod 12 = 1, slot 1 → 224 + 114 = 338; bank 1 is odd
  const f = tt({ shape: [64, 100], layout: 'ROW_MAJOR' }).forward([13, 57]);
  assert.deepEqual(pairs(f.steps), [
    ['coordinate', '(13, 57)'],
    ['page (row)', 'page 13 = row 13'],
    ['byte in page', '114 of 200'],
    ['bank', '1 = page 13 mod 12'],
    ['page in bank', '1 = ⌊13 / 12⌋ (aligned page 224 B)'],
    ['offset in bank', '338 = 1·224 + 114'],
    ['address', 'DRAM bank 1: 0x10152 (B+338)'],
    ['channel address', '0x40010152 (bank offset +1 GiB)'],
  ]);
  assert.deepEqual([f.size, f.tile, f.pageByte, f.bank, f.localPage, f.offset, f.address], [2, undefined, 114, 1, 1, 338, B + 338]);
});

test('width-sharded row-major in L1 cores: (10, 130) of 64×256 is segment 2 of row 10, on core (2,0)', () => {
  // pages are 64-element segments (128 B): row 10, segment ⌊130/64⌋ = 2 → page 10·4 + 2 = 42, byte (130 − 128)·2 = 4;
  // a shard is 64 rows × 1 segment: shard (0, 2) of 1×4 → core (2,0), local page 10·1 + 0 = 10 → 10·128 + 4 = 1284
  const t = tt({ shape: [64, 256], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'WIDTH_SHARDED', shard: [64, 64], grid: [R(0, 0, 3, 0)], base: 0 });
  const f = t.forward([10, 130]);
  assert.deepEqual(pairs(f.steps), [
    ['coordinate', '(10, 130)'],
    ['page (row)', 'page 42 = row 10, segment 2 (64 elements)'],
    ['byte in page', '4 of 128'],
    ['shard', '2 = (0, 2) of 1×4, page (10, 0) in it'],
    ['core', 'core (2,0)'],
    ['local page', '10 = 10·1 + 0'],
    ['offset in core', '1,284 = 10·128 + 4'],
    ['address', 'core (2,0): 0x504'],
  ]);
  assert.deepEqual(
    [f.unit, f.bank, f.core, f.shard, f.shardCoord, f.localPage, f.offset, f.bankOffset],
    [{ kind: 'core', index: 2, label: 'core (2,0)' }, undefined, [2, 0], 2, [0, 2], 10, 1284, 0],
  );
});

test('width-sharded tiles in DRAM banks: the grid x is the bank, with its channel offset', () => {
  // 64×256 bf16 = 2×8 tiles, shard 64×64 = 2×2 tiles → shards (0, 0..3) on grid x 2..5 = banks 2..5. (40, 200): page
  // (1, 6) = 14; in tile (8, 8): face 0, elem 8·16 + 8 = 136, byte 272; shard (0, 3) → unit 3 = bank 5, page (1, 0) in
  // it → local 1·2 + 0 = 2 → offset 2·2048 + 272 = 4368 = 0x1110; bank 5 is odd: + 1 GiB
  const t = tt({ shape: [64, 256], memory: 'WIDTH_SHARDED', shard: [64, 64], grid: [R(2, 0, 5, 0)] });
  const f = t.forward([40, 200]);
  assert.deepEqual(pairs(f.steps).slice(6), [
    ['shard', '3 = (0, 3) of 1×4, page (1, 0) in it'],
    ['bank', 'DRAM bank 5'],
    ['local page', '2 = 1·2 + 0'],
    ['offset in bank', '4,368 = 2·2048 + 272'],
    ['address', 'DRAM bank 5: 0x11110 (B+4368)'],
    ['channel address', '0x40011110 (bank offset +1 GiB)'],
  ]);
  assert.deepEqual(
    [f.page, f.unit, f.bank, f.core, f.shard, f.localPage, f.address, f.bankOffset],
    [14, { kind: 'bank', index: 3, label: 'DRAM bank 5' }, 5, undefined, 3, 2, B + 4368, GiB],
  );
});

test('a coordinate outside the tensor is refused before any arithmetic', () => {
  const t = tt({ shape: [64, 64] });
  for (const [c, msg] of [
    [[64, 0], 'index 64 is out of range for dimension 0: valid is 0..63'],
    [[0, -1], 'index -1 is out of range for dimension 1: valid is 0..63'],
    [[0], 'the tensor has 2 dimensions but 1 index were given'],
  ] as const)
    assert.throws(
      () => t.forward(c),
      (e: unknown) => e instanceof CoordError && e.message === msg,
    );
});

test('ND shards round-robin: (2, 10, 40) of [4, 128, 128] is in shard 4 on core (0,0), slot 1', () => {
  // row 2·128 + 10 = 266, col 40 → page (8, 1) of 16×4 = 33; in tile (10, 8): face 0, elem 168, byte 336.
  // page coordinate (2, ⌊10/32⌋, 1) = (2, 0, 1); shard (2, 2, 2) pages → grid (1, 0, 0) of [2, 2, 2] = shard 4, page
  // (0, 0, 1) in it; 8 shards on 4 cores: core 4 mod 4 = 0, slot ⌊4/4⌋ = 1 → local 1·8 + 1 = 9 → 9·2048 + 336
  const t = tt({ shape: [4, 128, 128], buffer: 'L1', memory: 'ND_SHARDED', shard: [2, 64, 64], grid: [R(0, 0, 3, 0)] });
  const f = t.forward([2, 10, 40]);
  assert.deepEqual(pairs(f.steps), [
    ['coordinate', '(2, 10, 40)'],
    ['physical (row, col)', '(266, 40) of 512×128'],
    ['tile (page)', 'page 33 = tile (8, 1) of 16×4'],
    ['in tile', '(10, 8)'],
    ['face', 'face 0 (16×16), in face (10, 8)'],
    ['element in tile', '168'],
    ['byte in page', '336 of 2048'],
    ['page coordinate', '(2, 0, 1)'],
    ['shard', '4 = grid (1, 0, 0) of [2, 2, 2], page (0, 0, 1) in it'],
    ['core', 'core (0,0) = shard 4 mod 4 (round-robin), shard slot 1'],
    ['local page', '9 = 1·8 + 1'],
    ['offset in core', '18,768 = 9·2048 + 336'],
    ['address', 'core (0,0): 0x14950 (B+18768)'],
  ]);
  assert.deepEqual([f.unit?.index, f.core, f.bank, f.shard, f.shardCoord, f.localPage], [0, [0, 0], undefined, 4, [1, 0, 0], 9]);
});

test('a 1-D row-major tensor in ND shards of 64: element 200 is segment 3, shard 3 on core (1,0), slot 1', () => {
  // [256] is one row of 256; pages are 64-element segments (128 B): element 200 → segment 3, byte (200 − 192)·2 = 16;
  // page coordinate (0, 3), shards of (1, 1) pages → shard 3 of [1, 4]; 2 cores: core 3 mod 2 = 1, slot 1 → local 1
  const t = tt({ shape: [256], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'ND_SHARDED', shard: [64], grid: [R(0, 0, 1, 0)], base: 0 });
  const f = t.forward([200]);
  assert.deepEqual(pairs(f.steps), [
    ['coordinate', '(200)'],
    ['physical (row, col)', '(0, 200) of 1×256'],
    ['page (row)', 'page 3 = row 0, segment 3 (64 elements)'],
    ['byte in page', '16 of 128'],
    ['page coordinate', '(0, 3)'],
    ['shard', '3 = grid (0, 3) of [1, 4], page (0, 0) in it'],
    ['core', 'core (1,0) = shard 3 mod 2 (round-robin), shard slot 1'],
    ['local page', '1 = 1·1 + 0'],
    ['offset in core', '144 = 1·128 + 16'],
    ['address', 'core (1,0): 0x90'],
  ]);
});

test('block floats and transposed tiles: the shared exponent, the nibble, the tile order in the steps', () => {
  // bfloat8_b: 64 exponent bytes (one per face row), then one byte per element: (40, 17) is face 1, row 8 → exponent
  // byte 16 + 8 = 24; element 385 → byte 64 + 385 = 449 of 1088
  const b8 = tt({ shape: [64, 64], dtype: 'bfloat8_b' }).forward([40, 17]);
  assert.deepEqual(pairs(b8.steps).slice(4, 7), [
    ['element in tile', '385'],
    ['shared exponent', 'byte 24 of the tile'],
    ['byte in page', '449 of 1088'],
  ]);
  // bfloat4_b: two elements a byte, the even one low: element 385 → byte 64 + 192 = 256, high nibble; 384 low
  const b4 = tt({ shape: [64, 64], dtype: 'bfloat4_b' });
  assert.deepEqual(
    [b4.forward([40, 17]), b4.forward([40, 16])].map((f) => pairs(f.steps).slice(6, 7)[0]),
    [
      ['byte in page', '256, high nibble of 576'],
      ['byte in page', '256, low nibble of 576'],
    ],
  );
  // a transposed tile stores faces column by column and each face column-major: (1, 0) is element 1
  assert.deepEqual(pairs(tt({ shape: [64, 64], transposeTile: true }).forward([1, 0]).steps).slice(1, 5), [
    ['tile (page)', 'page 0 = tile (0, 0) of 2×2'],
    ['in tile', '(1, 0)'],
    ['face', 'face 0 (16×16), in face (1, 0)'],
    ['element in tile', '1 (transposed tile)'],
  ]);
});

test('inverse: which bank or core — required when there are several, one of them, or the only one', () => {
  const dram = tt({ shape: [64, 64] });
  const block = tt({ shape: [64, 64], buffer: 'L1', memory: 'BLOCK_SHARDED', shard: [32, 32], grid: [R(0, 0, 1, 1)] });
  const out = (t: TTLayout, address: number, unit: number | undefined, reason: string) =>
    assert.deepEqual(t.inverse(address, unit), { model: 'tt', address, kind: 'outside', steps: [], reason });
  out(dram, B, undefined, 'the buffer is spread over 12 banks: say which (bank N)');
  out(block, B, undefined, 'the buffer is spread over 4 cores: say which (core (x,y))');
  out(dram, B, 12, 'no bank 12: the buffer uses 12 banks');
  out(dram, B, -1, 'no bank -1: the buffer uses 12 banks');
  out(block, B, 4, 'no core 4: the buffer uses 4 cores');
  // bank 0 and bank 11 exist: page 0 is in bank 0; bank 11 holds no page of 4 (lockstep)
  assert.equal(dram.inverse(B, 0).kind, 'element');
  assert.equal(dram.inverse(B, 11).kind, 'unused');
  // one core: no need to say which. 64×64 height-sharded on core (0,0): byte 771 of local page 0 = host page 0 is
  // byte 1 of element 385 = face 1, in face (8, 1) → in tile (8, 17)
  const one = tt({ shape: [64, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [64, 64], grid: [R(0, 0, 0, 0)] });
  assert.deepEqual(
    one.inverse(B + 771),
    element(B + 771, { kind: 'core', index: 0, label: 'core (0,0)' }, [8, 17], 1, [
      step('offset in core', '771'),
      step('local page', '0, byte 771'),
      step('host page', '0 = (0, 0)'),
      step('element in tile', '385 = face 1, in tile (8, 17)'),
      step('physical (row, col)', '(8, 17)'),
      step('coordinate', '(8, 17)'),
    ]),
  );
});

test('inverse: outside the reservation of a bank, an unused lockstep slot, an edge shard PADDING page', () => {
  // 4 pages over 12 banks: each bank reserves one 2048-byte page, 0x10000..0x107ff
  const t = tt({ shape: [64, 64] });
  for (const [a, off] of [
    [B + 2048, '2,048'],
    [B - 1, '-1'],
  ] as const)
    assert.deepEqual(t.inverse(a, 0), {
      model: 'tt',
      address: a,
      unit: bank(0),
      kind: 'outside',
      steps: [step('offset in bank', off)],
      reason: 'the buffer occupies 0x10000..0x107ff in every bank',
    });
  // the last byte: (31, 31) = elem 1023, byte 2047, the high byte of the bf16
  assert.deepEqual([t.inverse(B + 2047, 0).coord, t.inverse(B + 2047, 0).byteInElement], [[31, 31], 1]);
  assert.deepEqual(t.inverse(B + 5, 7), {
    model: 'tt',
    address: B + 5,
    unit: bank(7),
    kind: 'unused',
    steps: [step('offset in bank', '5'), step('local page', '0, byte 5')],
    reason: 'reserved in lockstep: DRAM bank 7 holds no page at local page 0',
  });
  // 900×64 height-sharded on 8 cores: 29 tile rows, shards of 4 → core 7 holds tile rows 28 (pages 56, 57) and then
  // PADDING; slot 3 of core 7 is tile row 29, past the tensor
  const edge = tt({ shape: [900, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [128, 64], grid: [R(0, 0, 7, 0)] });
  assert.deepEqual(edge.inverse(B + 3 * 2048 + 4, 7), {
    model: 'tt',
    address: B + 3 * 2048 + 4,
    unit: { kind: 'core', index: 7, label: 'core (7,0)' },
    kind: 'padding',
    steps: [step('offset in core', '6,148'), step('local page', '3, byte 4')],
    reason: 'PADDING page: shard 7 is an edge shard with no page at this slot',
  });
});

test('inverse of row-major pages: an element with its byte, the alignment tail of a page, alignment padding', () => {
  // [64, 100] bf16 rows: 200-byte pages aligned to 224 in DRAM. Bank 1, byte 224 + 115: slot 1 → page 1·12 + 1 = 13,
  // byte 115 of it → column ⌊115/2⌋ = 57, byte 1
  const rm = tt({ shape: [64, 100], layout: 'ROW_MAJOR' });
  assert.deepEqual(
    rm.inverse(B + 339, 1),
    element(B + 339, bank(1), [13, 57], 1, [
      step('offset in bank', '339'),
      step('local page', '1, byte 115'),
      step('host page', '13 = (13, 0)'),
      step('physical (row, col)', '(13, 57)'),
      step('coordinate', '(13, 57)'),
    ]),
  );
  // bytes 200..223 of a page only round it up to the 32-byte DRAM alignment
  assert.deepEqual(rm.inverse(B + 210, 0), {
    model: 'tt',
    address: B + 210,
    unit: bank(0),
    kind: 'alignment',
    steps: [step('offset in bank', '210'), step('local page', '0, byte 210'), step('host page', '0 = (0, 0)')],
    reason: 'bytes 200..223 of the page round it up to the 32-byte alignment',
  });
  // [64, 100] width-sharded in 64-wide segments pads the width to 128: core 1 holds columns 64..127 of each row;
  // byte 80 of its page 0 is column 64 + 40 = 104 of row 0, past 100
  const ws = tt({ shape: [64, 100], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'WIDTH_SHARDED', shard: [64, 64], grid: [R(0, 0, 1, 0)] });
  const p = ws.inverse(B + 80, 1);
  assert.deepEqual(
    [p.kind, p.reason, pairs(p.steps).slice(2)],
    [
      'padding',
      '(0, 104) is alignment padding of the [64, 100] tensor (padded [64, 128])',
      [
        ['host page', '1 = (0, 1)'],
        ['physical (row, col)', '(0, 104)'],
      ],
    ],
  );
});

test('inverse in tiles: tile padding, shared exponents and their padding, both nibbles of a bfloat4_b byte', () => {
  // [1, 3, 50, 70] pads to 64×96 per batch: page 2 (bank 2) is tile (0, 2), columns 64..95; element 10 is column 74
  const pad = tt({ shape: [1, 3, 50, 70] }).inverse(B + 20, 2);
  assert.deepEqual([pad.kind, pad.reason], ['padding', '(0, 74) is tile padding of the [1, 3, 50, 70] tensor (padded [1, 3, 64, 96])']);
  // bfloat8_b in 4×32 tiles: 2 faces of 4×16 → 8 exponent bytes, padded to 16. Byte 5 is face 1, row 1; bytes 8..15
  // padding
  const small = tt({ shape: [4, 32], dtype: 'bfloat8_b', tile: [4, 32] });
  const meta = (a: number, reason: string) =>
    assert.deepEqual(small.inverse(a, 0), {
      model: 'tt',
      address: a,
      unit: bank(0),
      kind: 'metadata',
      steps: [step('offset in bank', String(a - B)), step('local page', `0, byte ${a - B}`), step('host page', '0 = (0, 0)')],
      reason,
    });
  meta(B + 5, 'shared exponent of face 1, row 1');
  meta(B + 8, 'exponent section padding (rounded up to 16 bytes)');
  // data byte 33 (byte 49 of the page) is element 33: face 0, in face (2, 1) — one byte, one element
  assert.deepEqual(
    small.inverse(B + 49, 0),
    element(B + 49, bank(0), [2, 1], 0, [
      step('offset in bank', '49'),
      step('local page', '0, byte 49'),
      step('host page', '0 = (0, 0)'),
      step('element in tile', '33 = face 0, in tile (2, 1)'),
      step('physical (row, col)', '(2, 1)'),
      step('coordinate', '(2, 1)'),
    ]),
  );
  // bfloat4_b 64×64: byte 64 + 192 of page 3 (bank 3, tile (1, 1)) holds elements 384 (low) and 385 (high) = in tile
  // (8, 16) and (8, 17) → rows 32 + 8, columns 32 + 16 and 32 + 17: (40, 48) and (40, 49)
  const b4 = tt({ shape: [64, 64], dtype: 'bfloat4_b' }).inverse(B + 256, 3);
  assert.deepEqual(
    [b4.kind, b4.coord, b4.byteInElement, pairs(b4.steps).slice(2)],
    [
      'element',
      [40, 48],
      0,
      [
        ['host page', '3 = (1, 1)'],
        ['element in tile', '384 = face 1, in tile (8, 16)'],
        ['nibbles', 'low: (40, 48), high: (40, 49)'],
      ],
    ],
  );
  // [40, 21] pads to 64×32: (0, 20) is element 256 + 4 = 260, byte 64 + 130 = 194, low nibble; its high nibble (0, 21)
  // is padding. [40, 20]: both are padding
  const nib = (shape: number[]) => tt({ shape, dtype: 'bfloat4_b' }).inverse(B + 194, 0);
  const real = nib([40, 21]);
  assert.deepEqual([real.kind, real.coord, real.steps.at(-1)], ['element', [0, 20], step('nibbles', 'low: (0, 20), high: padding')]);
  const none = nib([40, 20]);
  assert.deepEqual(
    [none.kind, none.reason, none.steps.at(-1)],
    ['padding', 'both elements of this byte are tile padding', step('nibbles', 'low: padding, high: padding')],
  );
});
