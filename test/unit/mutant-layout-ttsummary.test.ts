/**
 * The closed-form summary of a TT-NN buffer (tt/summary.ts): bytes by kind and real pages per bank or core, worked out
 * by hand for tensors with partial edge tiles, a page count that is (or is not) a multiple of the banks, ND shards
 * with partial edge shards dealt round-robin, and more shards than the summary counts one by one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type CoreRange, TTLayout, type TTSpec } from '../../core/layout/models/tt';
import { TT_ARCHS } from '../../core/layout/models/ttArch';

const WH = TT_ARCHS.wormhole_b0;
const R = (x0: number, y0: number, x1: number, y1: number): CoreRange => ({ x0, y0, x1, y1 });
const summary = (s: Partial<TTSpec> & { shape: number[] }) =>
  new TTLayout({ arch: WH, dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED', ...s }).summary();
const zero = { element: 0, padding: 0, alignment: 0, unused: 0, metadata: 0, replica: 0, slack: 0, gap: 0 };

test('element bytes count the real elements of partial edge tiles (bf16 40×50: tiles of 32×32, 32×18, 8×32, 8×18)', () => {
  // 2 × 2 tiles of 2048 B over 12 banks: pages 0–3 in banks 0–3, banks 4–11 reserve a slot they do not use
  const s = summary({ shape: [40, 50] });
  // 2·(32·32 + 32·18 + 8·32 + 8·18) = 2048 + 1152 + 512 + 288 = 4000 = 2·40·50
  assert.deepEqual(s.breakdown, { ...zero, element: 4000, padding: 4 * 2048 - 4000, unused: 8 * 2048 });
  assert.deepEqual(s.units, {
    kind: 'bank',
    count: 12,
    used: 4,
    bytesPerUnit: 2048,
    pages: [
      { from: 0, to: 3, pages: 1 },
      { from: 4, to: 11, pages: 0 },
    ],
    slotsPerUnit: 1,
  });
  // 4 pages of 32×32 slots, 2000 of them elements; the facts shown, in order
  assert.deepEqual([s.slots, s.paddingSlots, s.bytes, s.blocks], [4096, 2096, 12 * 2048, { name: 'page', count: 4, bytes: 2048 }]);
  // padding 4192 of 4192 + 4000 bytes = 51.17 %
  assert.deepEqual(s.facts, [
    { name: 'target', value: 'wormhole_b0' },
    { name: 'dtype', value: 'bfloat16 (Float16_b)' },
    { name: 'layout', value: 'TILE 32×32, 4 faces of 16×16' },
    { name: 'logical → padded', value: '[40, 50] → [64, 64]' },
    { name: 'physical 2-D', value: '64 × 64' },
    { name: 'pages', value: '4 = 2 × 2 of 32×32, 2048 B each' },
    { name: 'memory', value: 'DRAM interleaved over 12 banks (page p → bank p mod 12)' },
    { name: 'per bank', value: '1 page slot = 2,048 B, reserved in every bank (banks 0–3: 1, banks 4–11: 0)' },
    { name: 'bytes', value: '24 KiB reserved (24,576 B): 4,000 B of elements, 51.2 % padding' },
    { name: 'address', value: '0x0..0x7ff in each bank' },
  ]);
  // 32×16 bf16 fills half a tile: 1,024 B of elements and 1,024 B of padding in the page: 50 %
  assert.equal(summary({ shape: [32, 16] }).paddingPercent, 50);
  // three batches of the same: 3·4000 B, 12 pages, one per bank
  const b = summary({ shape: [3, 40, 50] });
  assert.equal(b.breakdown.element, 12000);
  assert.deepEqual(b.units?.pages, [{ from: 0, to: 11, pages: 1 }]);
  // whole tiles only: 64×64 bf16 is 4 full tiles, no padding
  assert.deepEqual(summary({ shape: [64, 64] }).breakdown, { ...zero, element: 8192, unused: 8 * 2048 });
  // bfloat8_b 40×50: 1 B per element plus 64 B of exponents per tile (16 face rows × 4 faces), pages of 1088 B
  const bf8 = summary({ shape: [40, 50], dtype: 'bfloat8_b' });
  assert.deepEqual(bf8.breakdown, { ...zero, element: 2000, metadata: 4 * 64, padding: 4 * 1088 - 2000 - 256, unused: 8 * 1088 });
});

test('interleaved pages per bank: a multiple of the banks, and one more page in the first banks', () => {
  // 32×384 bf16 = 12 tiles over 12 banks: one each, a single group
  assert.deepEqual(summary({ shape: [32, 384] }).units?.pages, [{ from: 0, to: 11, pages: 1 }]);
  // 64×448 = 2 × 14 = 28 tiles: 28 = 2·12 + 4 → banks 0–3 hold 3, banks 4–11 hold 2; every bank reserves 3 slots
  const s = summary({ shape: [64, 448] });
  assert.deepEqual(s.units?.pages, [
    { from: 0, to: 3, pages: 3 },
    { from: 4, to: 11, pages: 2 },
  ]);
  assert.equal(s.units?.slotsPerUnit, 3);
  assert.equal(s.breakdown.unused, (36 - 28) * 2048);
});

test('ND shards dealt round-robin: real pages per core with partial edge shards in every dim', () => {
  // [3, 64, 96] bf16 in pages of 1 × 32 × 32: 3 × 2 × 3 pages; shard [2, 32, 64] = 2 × 1 × 2 pages;
  // shard grid ⌈3/2⌉ × 2 × ⌈3/2⌉ = 2 × 2 × 2 = 8 shards, shard s on core s mod 2. Real pages of shard (g0, g1, g2):
  // min(2, 3 − 2·g0) · min(1, 2 − g1) · min(2, 3 − 2·g2) → s = 0..7: 4, 2, 4, 2, 2, 1, 2, 1
  // core 0: 4 + 4 + 2 + 2 = 12, core 1: 2 + 2 + 1 + 1 = 6 (18 pages in all); each core reserves 4 shards × 4 slots
  const s = summary({ shape: [3, 64, 96], buffer: 'L1', memory: 'ND_SHARDED', shard: [2, 32, 64], grid: [R(0, 0, 1, 0)] });
  assert.deepEqual(s.units, {
    kind: 'core',
    count: 2,
    used: 2,
    bytesPerUnit: 16 * 2048,
    pages: [
      { from: 0, to: 0, pages: 12 },
      { from: 1, to: 1, pages: 6 },
    ],
    slotsPerUnit: 16,
  });
  // 32 slots reserved, 18 real pages: 14 PADDING slots in the partial shards
  assert.equal(s.breakdown.padding, 14 * 2048);
  assert.match(s.short, /^64 KiB · 8 shards on 2 cores · 32 KiB\/core · /);
  // 36 KiB of elements (3·64·96·2 B); padding 14·2048 = 28,672 of 28,672 + 36,864 B = 43.75 %
  assert.deepEqual(
    s.facts.slice(6).map((f) => f.value),
    [
      'L1 ND_SHARDED ROW_MAJOR over 2 cores (0,0)-(1,0)',
      '[2, 32, 64] = [2, 1, 2] pages; shard grid [2, 2, 2] = 8 shards, 4 per core (round-robin)',
      '16 page slots = 32 KiB, reserved on every core of the grid (real pages: core (0,0): 12, core (1,0): 6)',
      '14 PADDING page slots in partial shards',
      '64 KiB reserved (65,536 B): 36 KiB of elements, 43.8 % padding',
      '0x0..0x7fff in each core',
    ],
  );
  // three cores: shards 0,3,6 → 4+2+2 = 8; 1,4,7 → 2+2+1 = 5; 2,5 → 4+1 = 5
  const three = summary({ shape: [3, 64, 96], buffer: 'L1', memory: 'ND_SHARDED', shard: [2, 32, 64], grid: [R(0, 0, 2, 0)] });
  assert.deepEqual(three.units?.pages, [
    { from: 0, to: 0, pages: 8 },
    { from: 1, to: 2, pages: 5 },
  ]);
});

test('more than 2^22 shards are not counted one by one: no per-unit pages, every unit used up to the shard count', () => {
  // 4,194,305 rows of 32 uint8 in ND shards of one row: 2^22 + 1 shards over 12 DRAM banks, ⌈(2^22 + 1)/12⌉ = 349,526 slots
  // of 32 B per bank
  const s = summary({ shape: [4194305, 32], dtype: 'uint8', layout: 'ROW_MAJOR', memory: 'ND_SHARDED', shard: [1, 32], grid: [R(0, 0, 11, 0)] });
  assert.deepEqual(s.units, { kind: 'bank', count: 12, used: 12, bytesPerUnit: 349526 * 32, pages: undefined, slotsPerUnit: 349526 });
  assert.equal(s.short, '128 MiB · 4,194,305 shards on 12 banks · 10.67 MiB/bank · 0 % padding');
  // exactly 2^22 shards on 5 banks: still counted; 4,194,304 = 5·838,860 + 4 → banks 0–3 hold 838,861 pages, bank 4 838,860
  const c = summary({ shape: [4194304, 32], dtype: 'uint8', layout: 'ROW_MAJOR', memory: 'ND_SHARDED', shard: [1, 32], grid: [R(0, 0, 4, 0)] });
  assert.deepEqual(c.units?.pages, [
    { from: 0, to: 3, pages: 838861 },
    { from: 4, to: 4, pages: 838860 },
  ]);
});

test('facts of a one-face tile, a 1-D tensor, aligned pages and shared exponents', () => {
  // bfloat8_b [50] in 16×16 tiles (one face): one row padded to 16 × 64, 4 tiles of 256 B data + 16 B exponents (one byte
  // per face row, rounded to 16) = 272 B, on DRAM's 32-byte alignment 288 B
  const a = summary({ shape: [50], dtype: 'bfloat8_b', tile: [16, 16] });
  assert.deepEqual(
    a.facts.slice(2, 6).map((f) => f.value),
    ['TILE 16×16, 1 face of 16×16', '[50] → [64]', '16 × 64', '4 = 1 × 4 of 16×16, 272 B each, aligned to 288 B (16 B shared exponents + 256 B data)'],
  );
  // uint16 4×10 ROW_MAJOR: a page is a row of 20 B, aligned to 32
  const b = summary({ shape: [4, 10], dtype: 'uint16', layout: 'ROW_MAJOR' });
  assert.deepEqual(
    b.facts.slice(2, 6).map((f) => f.value),
    ['ROW_MAJOR', '[4, 10] → [4, 10]', '4 × 10', '4 = 4 × 1 of 1×10, 20 B each, aligned to 32 B'],
  );
  // transposed 32×32 float32 tiles
  assert.equal(summary({ shape: [32, 32], dtype: 'float32', transposeTile: true }).facts[2].value, 'TILE 32×32, 4 faces of 16×16, transposed');
});

test('facts of 2-D shards: orientation, shard pages, real pages per core as ranges, partial edge shards', () => {
  // 96×64 bf16 height-sharded in [32, 64] = 1×2 pages over 4 cores: 3 shards, cores (0,0)–(2,0) hold 2 pages, (3,0) none;
  // every core reserves 2 slots = 4,096 B; 12 KiB of elements (96·64·2), no padding
  const hs = summary({ shape: [96, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(0, 0, 3, 0)], orientation: 'COL_MAJOR' });
  assert.deepEqual(
    hs.facts.slice(6).map((f) => f.value),
    [
      'L1 HEIGHT_SHARDED COL_MAJOR over 4 cores (0,0)-(3,0)',
      '[32, 64] = 1×2 pages; 3×1 shards',
      '2 page slots = 4,096 B, reserved on every core of the grid (real pages: core (0,0)–(2,0): 2, core (3,0): 0)',
      '16 KiB reserved (16,384 B): 12 KiB of elements, 0 % padding',
      '0x0..0xfff in each core',
    ],
  );
  // 80×64 in [64, 64] shards (2×2 pages) on 2 cores: 3 tile rows → shard 0 full (4 pages), shard 1 one tile row (2 pages,
  // 2 PADDING slots); padding = 6·2048 − 10,240 in the pages + 2·2048 slots = 6,144 of 6,144 + 10,240 B = 37.5 %
  const edge = summary({ shape: [80, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [64, 64], grid: [R(0, 0, 1, 0)] });
  assert.deepEqual(
    edge.facts.slice(6).map((f) => f.value),
    [
      'L1 HEIGHT_SHARDED ROW_MAJOR over 2 cores (0,0)-(1,0)',
      '[64, 64] = 2×2 pages; 2×1 shards',
      '4 page slots = 8,192 B, reserved on every core of the grid (real pages: core (0,0): 4, core (1,0): 2)',
      '2 PADDING page slots in partial shards',
      '16 KiB reserved (16,384 B): 10 KiB of elements, 37.5 % padding',
      '0x0..0x1fff in each core',
    ],
  );
  assert.equal(edge.breakdown.padding, 6144);
  assert.equal(edge.short, '16 KiB · 2 shards on 2 cores · 8,192 B/core · 37.5 % padding');
});
