/**
 * TT-Metalium batch mapping (`TTLayout.forwardMany`) on the paths the other batch tests leave out: transposed
 * tiles, rank-4 tensors (rows computed beforehand) of every kernel with coordinates outside the tensor, and the
 * element-by-element path taken when a page table would be too long. Expected addresses are computed here from the
 * definitions (research layouts.md B.3, B.6): a 32×32 bf16 tile is four 16×16 faces of 512 B; transposed, the faces
 * go in column order and each face is stored column by column; interleaved page p is in bank p mod 12 at page slot
 * ⌊p / 12⌋ (Wormhole DRAM); a height shard of k pages holds k consecutive page rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type CoreRange, TTLayout, type TTSpec } from '../../core/layout/models/tt';
import { TT_ARCHS } from '../../core/layout/models/ttArch';

const WH = TT_ARCHS.wormhole_b0;
const B = 0x10000;
const R = (x0: number, y0: number, x1: number, y1: number): CoreRange => ({ x0, y0, x1, y1 });
const tt = (s: Partial<TTSpec> & { shape: number[] }) =>
  new TTLayout({ arch: WH, dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED', base: B, ...s });

/** Byte of (r, c) in a 32×32 bf16 tile, faces in row order. */
const tileByte = (r: number, c: number) => (((r % 32) >> 4) * 2 + ((c % 32) >> 4)) * 512 + (r % 16) * 32 + (c % 16) * 2;

/**
 * forwardMany over every coordinate of the tensor and, after them, each dimension once at its size and once at -1,
 * against `want` (address, unit) inside and (NaN, -1) outside; then again without units into a given array.
 */
function expectBatch(t: TTLayout, want: (c: number[]) => [number, number]): void {
  const shape = t.shape;
  const coords: number[][] = [[]];
  for (const n of shape) coords.splice(0, coords.length, ...coords.flatMap((c) => Array.from({ length: n }, (_, v) => [...c, v])));
  const inside = coords.length;
  for (let d = 0; d < shape.length; d++) for (const v of [shape[d], -1]) coords.push(shape.map((_, e) => (e === d ? v : 0)));
  const flat = Int32Array.from(coords.flat());
  // units one longer than the coordinates: the entry after them is left alone
  const units = new Int32Array(coords.length + 1).fill(-9);
  const got = [...t.forwardMany(flat, undefined, units)];
  const expected = coords.map((c, i) => (i < inside ? want(c) : [NaN, -1]));
  assert.deepEqual(
    got,
    expected.map((w) => w[0]),
  );
  assert.deepEqual([...units], [...expected.map((w) => w[1]), -9]);
  // into a longer array: only the first coords.length entries are written
  const into = new Float64Array(coords.length + 1).fill(-7);
  assert.equal(t.forwardMany(flat, into), into);
  assert.deepEqual([...into], [...got, -7]);
}

test('transposed tiles: 64×64 in 32×32 and 32×64 in 16×32 tiles, interleaved', () => {
  // 32×32 transposed: element = face column·2·256 + face row·256 + (c mod 16)·16 + r mod 16; 2×2 pages → banks 0–3
  expectBatch(tt({ shape: [64, 64], transposeTile: true }), ([r, c]) => [
    B + 2 * (((c % 32) >> 4) * 512 + ((r % 32) >> 4) * 256 + (c % 16) * 16 + (r % 16)),
    (r >> 5) * 2 + (c >> 5),
  ]);
  // 16×32 transposed: one face row, two face columns: element = (c mod 32 ≥ 16)·256 + (c mod 16)·16 + r mod 16; 1024 B pages,
  // 2×2 pages of 16 rows × 32 columns
  expectBatch(tt({ shape: [32, 64], tile: [16, 32], transposeTile: true }), ([r, c]) => [
    B + 2 * (((c % 32) >> 4) * 256 + (c % 16) * 16 + (r % 16)),
    (r >> 4) * 2 + (c >> 5),
  ]);
});

test('rank 4: tile height-sharded, row-major interleaved and row-major height-sharded, with coordinates outside', () => {
  // 2×2×32×64 in 64×64 shards on 2 cores: page row = a·2 + b, core = a, local page = b·2 + tile column
  expectBatch(tt({ shape: [2, 2, 32, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [64, 64], grid: [R(0, 0, 1, 0)], base: 0x1000 }), ([a, b, r, c]) => [
    0x1000 + (b * 2 + (c >> 5)) * 2048 + tileByte(r, c),
    a,
  ]);
  // 2×3×4×10 ROW_MAJOR: 24 row pages of 20 B (aligned to 32); row = (a·3 + b)·4 + r in bank row mod 12, slot ⌊row/12⌋
  expectBatch(tt({ shape: [2, 3, 4, 10], layout: 'ROW_MAJOR' }), ([a, b, r, c]) => {
    const row = (a * 3 + b) * 4 + r;
    return [B + Math.floor(row / 12) * 32 + c * 2, row % 12];
  });
  // 2×2×4×8 ROW_MAJOR height-sharded in 4-row shards on 4 L1 cores: row pages of 16 B, core = ⌊row/4⌋, local page = row mod 4
  expectBatch(
    tt({ shape: [2, 2, 4, 8], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [4, 8], grid: [R(0, 0, 3, 0)], base: 0x100 }),
    ([a, b, r, c]) => {
      const row = (a * 2 + b) * 4 + r;
      return [0x100 + (row % 4) * 16 + c * 2, row >> 2];
    },
  );
});

test('element by element when a table would be too long: 2^21 + 1 columns of uint8, ND shards of 2^20 columns', () => {
  // 13 row pages of 2,097,153 B, aligned to 2,097,184 (32): row 12 → bank 0, slot 1
  const wide = tt({ shape: [13, 2 ** 21 + 1], dtype: 'uint8', layout: 'ROW_MAJOR' });
  const coords = Int32Array.from([0, 0, 1, 5, 12, 2 ** 21, 12, -1, 13, 0, 5, 2 ** 21 + 1, 11, 7]);
  // one entry longer than the 7 coordinates: left alone
  const units = new Int32Array(8).fill(-9);
  assert.deepEqual([...wide.forwardMany(coords, new Float64Array(8).fill(-7), units)], [B, B + 5, B + 2097184 + 2 ** 21, NaN, NaN, NaN, B + 7, -7]);
  assert.deepEqual([...units], [0, 1, 0, -1, -1, -1, 11, -9]);
  assert.deepEqual([...wide.forwardMany(coords)], [B, B + 5, B + 2097184 + 2 ** 21, NaN, NaN, NaN, B + 7]);
  // 2×2^20 ND-sharded in 1×2^20 shards on 2 cores: shard a on core a, byte c of its only page
  const nd = tt({
    shape: [2, 2 ** 20],
    dtype: 'uint8',
    layout: 'ROW_MAJOR',
    buffer: 'L1',
    memory: 'ND_SHARDED',
    shard: [1, 2 ** 20],
    grid: [R(0, 0, 1, 0)],
    base: 0,
  });
  const u2 = new Int32Array(4);
  assert.deepEqual([...nd.forwardMany(Int32Array.from([0, 9, 1, 2 ** 20 - 1, 2, 0, 1, 2 ** 20]), undefined, u2)], [9, 2 ** 20 - 1, NaN, NaN]);
  assert.deepEqual([...u2], [0, 1, -1, -1]);
});

test('ND sharding over 49 cores (rank 2): shard 49 is the second slot of core 0', () => {
  // 32×(50·32) in 32×32 shards: 50 shards (one page each), shard s = ⌊c/32⌋ on core s mod 49 at slot ⌊s/49⌋ (2048 B)
  const t = tt({ shape: [32, 1600], buffer: 'L1', memory: 'ND_SHARDED', shard: [32, 32], grid: [R(0, 0, 6, 6)], base: 0 });
  const coords = Int32Array.from([0, 0, 5, 1567, 0, 1568, 31, 1599, 31, 1600]);
  const units = new Int32Array(5);
  assert.deepEqual([...t.forwardMany(coords, undefined, units)], [0, tileByte(5, 1567), 2048, 2048 + tileByte(31, 1599), NaN]);
  assert.deepEqual([...units], [0, 48, 0, 0, -1]);
});

test('ranks 1 and 3 of the sharded and row-major kernels: a 1-D tensor is one row, a batch adds rows', () => {
  // [96] width-sharded in 32×32 tiles on 3 cores: one tile row, tile column ⌊c/32⌋ = core, local page 0
  expectBatch(tt({ shape: [96], buffer: 'L1', memory: 'WIDTH_SHARDED', shard: [32, 32], grid: [R(0, 0, 2, 0)], base: 0 }), ([c]) => [tileByte(0, c), c >> 5]);
  // [10] ROW_MAJOR interleaved: one 20-byte page in bank 0
  expectBatch(tt({ shape: [10], layout: 'ROW_MAJOR' }), ([c]) => [B + c * 2, 0]);
  // [64] ROW_MAJOR width-sharded in 16-element shards on 4 cores: pages of 32 B, core ⌊c/16⌋
  expectBatch(tt({ shape: [64], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'WIDTH_SHARDED', shard: [1, 16], grid: [R(0, 0, 3, 0)], base: 0 }), ([c]) => [
    (c % 16) * 2,
    c >> 4,
  ]);
  // [2, 4, 8] ROW_MAJOR height-sharded in 4-row shards on 2 cores: row a·4 + r on core a, local page r (16 B)
  expectBatch(
    tt({ shape: [2, 4, 8], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [4, 8], grid: [R(0, 0, 1, 0)], base: 0 }),
    ([a, r, c]) => [r * 16 + c * 2, a],
  );
});

test('ND sharding of block floats: the shared exponents come first in every page (bfloat8_b rank 3, bfloat4_b rank 2)', () => {
  // element in a 32×32 tile (faces in row order) and the 64 exponent bytes (16 rows × 4 faces) before the data
  const elem = (r: number, c: number) => (((r % 32) >> 4) * 2 + ((c % 32) >> 4)) * 256 + (r % 16) * 16 + (c % 16);
  // bfloat8_b 2×64×64 in 1×32×64 shards on 2 cores: pages of 64 + 1024 = 1088 B; shard s = a·2 + ⌊r/32⌋ on core s mod 2,
  // slot ⌊s/2⌋ of 2 pages, page ⌊c/32⌋ in the shard
  expectBatch(
    tt({ shape: [2, 64, 64], dtype: 'bfloat8_b', buffer: 'L1', memory: 'ND_SHARDED', shard: [1, 32, 64], grid: [R(0, 0, 1, 0)], base: 0 }),
    ([a, r, c]) => {
      const s = a * 2 + (r >> 5);
      return [(s >> 1) * 2 * 1088 + (c >> 5) * 1088 + 64 + elem(r, c), s % 2];
    },
  );
  // bfloat4_b 64×64 in 32×64 shards on 3 cores: pages of 64 + 512 = 576 B, two elements per byte; shard ⌊r/32⌋ on that core
  expectBatch(tt({ shape: [64, 64], dtype: 'bfloat4_b', buffer: 'L1', memory: 'ND_SHARDED', shard: [32, 64], grid: [R(0, 0, 2, 0)], base: 0 }), ([r, c]) => [
    (c >> 5) * 576 + 64 + (elem(r, c) >> 1),
    r >> 5,
  ]);
});

test('element by element past int32: 2^32 physical rows (rank 3), and a row of 2^32 + 5 columns', () => {
  // [4, 2^30, 32]: (3, 5, 7) is row 3·2^30 + 5, tile row 3·2^25 = page 100,663,296 (one tile per row of tiles):
  // bank 100,663,296 mod 12 = 0 (2^25 mod 12 = 8, 3·8 mod 12 = 0), slot 100,663,296 / 12 = 2^23 → 2^23·2048 = 2^34
  const tall = tt({ shape: [4, 2 ** 30, 32] });
  const units = new Int32Array(2);
  assert.deepEqual([...tall.forwardMany(Int32Array.from([3, 5, 7, 4, 0, 0]), undefined, units)], [B + 2 ** 34 + tileByte(5, 7), NaN]);
  assert.deepEqual([...units], [0, -1]);
  // [1, 2^32 + 5]: column 7 is in page 0; column 2^31 - 1 in page 2^26 - 1, bank (2^26 - 1) mod 12 = 3, slot (2^26 - 4) / 12 = 5,592,405
  const wide = tt({ shape: [1, 2 ** 32 + 5] });
  assert.deepEqual([...wide.forwardMany(Int32Array.from([0, 7, 0, 2 ** 31 - 1]), undefined, units)], [B + 14, B + 5592405 * 2048 + tileByte(0, 31)]);
  assert.deepEqual([...units], [0, 3]);
});

test('ND sharding with 2^32 shards (past int32): element by element, shard s on core s mod 2 at slot ⌊s/2⌋', () => {
  // 65536×65536 uint8 ROW_MAJOR in 1×1 shards: one 1-byte page per shard (aligned to 16 in L1); (65535, 65535) is shard 2^32 - 1
  const t = tt({
    shape: [65536, 65536],
    dtype: 'uint8',
    layout: 'ROW_MAJOR',
    buffer: 'L1',
    memory: 'ND_SHARDED',
    shard: [1, 1],
    grid: [R(0, 0, 1, 0)],
    base: 0,
  });
  const units = new Int32Array(3);
  assert.deepEqual([...t.forwardMany(Int32Array.from([65535, 65535, 1, 2, 40000, 3]), undefined, units)], [(2 ** 31 - 1) * 16, 32769 * 16, 1310720001 * 16]);
  // shard 65538 = 1·65536 + 2 → core 0, slot 32769; shard 40000·65536 + 3 = 2,621,440,003 → core 1, slot 1,310,720,001
  assert.deepEqual([...units], [1, 0, 1]);
});

test('ND sharding of a 1-D tensor: [256] ROW_MAJOR in [64] shards on 3 cores', () => {
  // the 1-D tensor is the last dim of the 2-D folding: shard s = ⌊c/64⌋ on core s mod 3, slot ⌊s/3⌋ of one 128-byte page
  expectBatch(tt({ shape: [256], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'ND_SHARDED', shard: [64], grid: [R(0, 0, 2, 0)], base: 0x40 }), ([c]) => [
    0x40 + Math.floor((c >> 6) / 3) * 128 + (c % 64) * 2,
    (c >> 6) % 3,
  ]);
});
