/**
 * The advice of a valid TT-NN buffer (tt/advice.ts: TT010, TT012, TT015–TT018), pinned whole: code, severity,
 * message with its numbers, the field the checker turns into a range, and the fix. Every expected value is worked
 * out here from the rules of research layouts.md B.5–B.7: pages = tile rows × tile columns (32×32 bf16 tiles of
 * 2048 B), interleaved page p in bank p mod banks (lockstep: every bank reserves ⌈pages / banks⌉ aligned pages),
 * 2-D shards of sh×sw pages, Wormhole odd DRAM banks at +1 GiB in their channel. Each case sits on a boundary
 * (fits exactly / one alignment step over, 50 % padding / just over) so a loosened comparison changes the answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { issue, type Issue } from '../../core/layout/issues';
import { type CoreRange, TTLayout, type TTSpec } from '../../core/layout/models/tt';
import { TT_ARCHS, withOverrides } from '../../core/layout/models/ttArch';

const WH = TT_ARCHS.wormhole_b0;
const R = (x0: number, y0: number, x1: number, y1: number): CoreRange => ({ x0, y0, x1, y1 });
const advice = (s: Partial<TTSpec> & { shape: number[] }): Issue[] =>
  new TTLayout({ arch: WH, dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED', ...s }).advice();
const OFFSET_TAIL = 'channel offset: the channel address is the bank address plus it';

test('TT012 DRAM: 4 tiles over 12 banks reserve one 2048-byte page per bank; a 2048-byte bank holds it at 0, not at 0x20', () => {
  // 64×64 bf16 = 2×2 tiles = 4 pages; ⌈4/12⌉ = 1 slot of 2048 B per bank. Pages 0–3 → banks 0–3, of which 1 and 3 are odd (+1 GiB).
  const arch = withOverrides(WH, { dram_bank_size: 2048 });
  const tail = [
    issue('TT016', 'information', '4 pages over 12 banks: banks 4–11 get no page but reserve 2,048 B too (lockstep allocation)', '@layout'),
    issue('TT017', 'information', `on wormhole_b0 DRAM banks 1, 3 carry a +1 GiB ${OFFSET_TAIL}`, '@layout'),
  ];
  // 0 + 2048 = 2048 ≤ 2048: fits exactly
  assert.deepEqual(advice({ shape: [64, 64], arch, base: 0 }), tail);
  // 0x20 + 2048 = 2080 > 2048
  assert.deepEqual(advice({ shape: [64, 64], arch, base: 0x20 }), [
    issue('TT012', 'error', '2,048 B per bank at 0x20 does not fit in a 2,048 B DRAM bank of wormhole_b0', '@layout'),
    ...tail,
  ]);
});

test('TT012 L1: capacity of worker L1 and the reserved bottom, each on its boundary; lockstep cores without a shard (TT016)', () => {
  // 64×64 height-sharded in 32×64 shards: 2 tile rows → 2 shards of 1×2 pages = 4096 B per core; 4 cores, 2 get no shard
  const spec = (o: Parameters<typeof withOverrides>[1], base?: number): Partial<TTSpec> & { shape: number[] } => ({
    shape: [64, 64],
    buffer: 'L1',
    memory: 'HEIGHT_SHARDED',
    shard: [32, 64],
    grid: [R(0, 0, 3, 0)],
    arch: withOverrides(WH, o),
    base,
  });
  const idle = issue('TT016', 'information', '2 of the 4 cores in the grid get no shard but reserve 4,096 B at the same address (lockstep allocation)', 'grid');
  // 0x1000 + 4096 = 8192 = l1_size, and the buffer starts exactly at the reserved bottom: nothing to say
  assert.deepEqual(advice(spec({ l1_size: 8192, l1_reserved: 0x1000 }, 0x1000)), [idle]);
  // starts 16 B below the reserved bottom
  assert.deepEqual(advice(spec({ l1_size: 8192, l1_reserved: 0x1010 }, 0x1000)), [
    issue('TT012', 'error', 'L1 below 0x1010 is reserved on this target; the buffer starts at 0x1000', '@at'),
    idle,
  ]);
  // 0x1010 + 4096 = 8208 > 8192: the capacity error is the one reported, though 0x1010 is also below the reserved 0x2000
  assert.deepEqual(advice(spec({ l1_size: 8192, l1_reserved: 0x2000 }, 0x1010)), [
    issue('TT012', 'error', '4,096 B per core at 0x1010 does not fit in the 8,192 B of worker L1 on wormhole_b0', '@layout'),
    idle,
  ]);
  // no address written: the buffer is placed by the allocator, above the reserved bottom, so no error for base 0
  assert.deepEqual(advice(spec({ l1_size: 8192, l1_reserved: 16 })), [idle]);
});

test('TT010 and TT015: a 6-byte row page, a padded row page, tiles at exactly 50 % padding and above', () => {
  // [4, 3] bf16 ROW_MAJOR in 64 L1 banks: 4 row pages of 3·2 = 6 B (not a multiple of 4), no padding
  const lockstep64 = (pages: number, bytes: number) =>
    issue('TT016', 'information', `${pages} pages over 64 banks: banks ${pages}–63 get no page but reserve ${bytes} B too (lockstep allocation)`, '@layout');
  assert.deepEqual(advice({ shape: [4, 3], layout: 'ROW_MAJOR', buffer: 'L1' }), [
    issue('TT010', 'warning', 'ROW_MAJOR page of 6 B is not a multiple of 4: older tt-metal versions reject it (validate_buffer_parameters)', '@shape'),
    lockstep64(4, 16),
  ]);
  // [4, 2]: 4-byte pages are fine
  assert.deepEqual(advice({ shape: [4, 2], layout: 'ROW_MAJOR', buffer: 'L1' }), [lockstep64(4, 16)]);
  // [4, 3] aligned to width 8: pages of 16 B, 6 of them elements → 40 of 64 B padding = 62.5 %
  assert.deepEqual(advice({ shape: [4, 3], layout: 'ROW_MAJOR', buffer: 'L1', alignment: [1, 8] }), [
    issue('TT015', 'warning', '62.5 % of the page bytes are padding: [4, 3] is stored as 4×8', '@shape'),
    lockstep64(4, 16),
  ]);
  // [32, 16]: one tile, half of it elements: 1024 of 2048 B padding = 50 %, not over
  const oneTile = issue('TT016', 'information', '1 page over 12 banks: banks 1–11 get no page but reserve 2,048 B too (lockstep allocation)', '@layout');
  assert.deepEqual(advice({ shape: [32, 16] }), [oneTile]);
  // [32, 15]: 960 B of elements, 1088 B padding = 53.125 %
  assert.deepEqual(advice({ shape: [32, 15] }), [
    issue('TT015', 'warning', '53.1 % of the page bytes are padding: [32, 15] is stored as 32×32 in 1 tile', '@shape'),
    oneTile,
  ]);
  // [1, 33]: 2 tiles (4096 B) for 66 B of elements: 4030 / 4096 = 98.39 %; pages 0, 1 → bank 1 is odd
  assert.deepEqual(advice({ shape: [1, 33] }), [
    issue('TT015', 'warning', '98.4 % of the page bytes are padding: [1, 33] is stored as 32×64 in 2 tiles', '@shape'),
    issue('TT016', 'information', '2 pages over 12 banks: banks 2–11 get no page but reserve 2,048 B too (lockstep allocation)', '@layout'),
    issue('TT017', 'information', `on wormhole_b0 DRAM bank 1 carries a +1 GiB ${OFFSET_TAIL}`, '@layout'),
  ]);
});

test('TT016 interleaved: banks with one page fewer; TT017: which banks carry a channel offset, at most six named', () => {
  // [30, 100] bf16 ROW_MAJOR: 30 pages of 200 B (aligned to 224) over 12 banks: 30 mod 12 = 6 → banks 0–5 hold 3, 6–11 hold 2; 3·224 = 672 B
  assert.deepEqual(advice({ shape: [30, 100], layout: 'ROW_MAJOR' }), [
    issue('TT016', 'information', 'banks 6–11 hold one page fewer than banks 0–5 but reserve the same 672 B (lockstep allocation)', '@layout'),
    issue('TT017', 'information', `on wormhole_b0 DRAM banks 1, 3, 5, 7, 9, 11 carry a +1 GiB ${OFFSET_TAIL}`, '@layout'),
  ]);
  // 24 pages = 2 per bank: nothing about lockstep
  assert.deepEqual(advice({ shape: [24, 100], layout: 'ROW_MAJOR' }), [
    issue('TT017', 'information', `on wormhole_b0 DRAM banks 1, 3, 5, 7, 9, 11 carry a +1 GiB ${OFFSET_TAIL}`, '@layout'),
  ]);
  // banks 1–11 carry offsets (the first one's value is named): 11 banks, six listed
  const offs = withOverrides(WH, { dram_offsets: [0, 8192, ...new Array(10).fill(4096)] });
  assert.deepEqual(advice({ shape: [24, 100], layout: 'ROW_MAJOR', arch: offs }), [
    issue('TT017', 'information', `on wormhole_b0 DRAM banks 1, 2, 3, 4, 5, 6, … carry a +8,192 B ${OFFSET_TAIL}`, '@layout'),
  ]);
  // one page: only bank 0 is used, it has no offset
  assert.deepEqual(advice({ shape: [1, 100], layout: 'ROW_MAJOR' }), [
    issue('TT016', 'information', '1 page over 12 banks: banks 1–11 get no page but reserve 224 B too (lockstep allocation)', '@layout'),
  ]);
  // Grayskull has no channel offsets: 2 pages on 8 banks
  assert.deepEqual(advice({ shape: [2, 100], layout: 'ROW_MAJOR', arch: TT_ARCHS.grayskull }), [
    issue('TT016', 'information', '2 pages over 8 banks: banks 2–7 get no page but reserve 224 B too (lockstep allocation)', '@layout'),
  ]);
  // DRAM height-sharded over banks 2 and 3 (x = bank): 2 shards, both used; bank 3 is odd
  assert.deepEqual(advice({ shape: [64, 64], memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(2, 0, 3, 0)] }), [
    issue('TT017', 'information', `on wormhole_b0 DRAM bank 3 carries a +1 GiB ${OFFSET_TAIL}`, '@layout'),
  ]);
  // DRAM sharded over banks 4–7 with 2 shards: banks 6 and 7 hold none, so odd bank 7 is not named (only bank 5, which holds shard 1)
  assert.deepEqual(advice({ shape: [64, 64], memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(4, 0, 7, 0)] }), [
    issue('TT016', 'information', '2 of the 4 banks in the grid get no shard but reserve 4,096 B at the same address (lockstep allocation)', 'grid'),
    issue('TT017', 'information', `on wormhole_b0 DRAM bank 5 carries a +1 GiB ${OFFSET_TAIL}`, '@layout'),
  ]);
  // DRAM sharded over 3 banks with 2 shards: the lockstep message names banks, not cores (2 slots of 2048 B)
  assert.deepEqual(advice({ shape: [64, 64], memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(4, 0, 6, 0)] }), [
    issue('TT016', 'information', '1 of the 3 banks in the grid get no shard but reserve 4,096 B at the same address (lockstep allocation)', 'grid'),
    issue('TT017', 'information', `on wormhole_b0 DRAM bank 5 carries a +1 GiB ${OFFSET_TAIL}`, '@layout'),
  ]);
});

test('TT018: a block grid larger than the shard grid, in each orientation and in one direction only, with the fix', () => {
  // 64×96 in 32×32 shards: 2 shard rows × 3 shard columns, one page (2048 B) each
  const block = (grid: CoreRange, orientation: 'ROW_MAJOR' | 'COL_MAJOR') =>
    advice({ shape: [64, 96], buffer: 'L1', memory: 'BLOCK_SHARDED', shard: [32, 32], grid: [grid], orientation });
  const idle = (n: number, of: number) =>
    issue('TT016', 'information', `${n} of the ${of} cores in the grid get no shard but reserve 2,048 B at the same address (lockstep allocation)`, 'grid');
  const tt018 = (g: string, s: string, axes: string, fix: string) =>
    issue(
      'TT018',
      'warning',
      `the ${g} grid is larger than the ${s} shard grid: legacy buffers give shard k to the k-th core of the enumerated grid, newer ones (GRID_2D) to ` +
        `core ${axes}; this preview uses GRID_2D`,
      'grid',
      { fixes: [{ title: `Use grid ${fix}`, field: 'grid', newText: fix, preferred: true }] },
    );
  // ROW_MAJOR: shard columns along x (3), rows along y (2); (1,2)-(4,4) is 4×3 = 12 cores for 6 shards
  assert.deepEqual(block(R(1, 2, 4, 4), 'ROW_MAJOR'), [idle(6, 12), tt018('4×3', '3×2', '(x0+C, y0+R)', '(1,2)-(3,3)')]);
  // exactly 3×2: nothing
  assert.deepEqual(block(R(1, 2, 3, 3), 'ROW_MAJOR'), []);
  // x one too many, y right (4×2): larger
  assert.deepEqual(block(R(0, 0, 3, 1), 'ROW_MAJOR'), [idle(2, 8), tt018('4×2', '3×2', '(x0+C, y0+R)', '(0,0)-(2,1)')]);
  // x right, y one too many (3×3): still larger
  assert.deepEqual(block(R(0, 0, 2, 2), 'ROW_MAJOR'), [idle(3, 9), tt018('3×3', '3×2', '(x0+C, y0+R)', '(0,0)-(2,1)')]);
  // COL_MAJOR: shard rows along x (2), columns along y (3); (1,2)-(2,5) is 2×4
  assert.deepEqual(block(R(1, 2, 2, 5), 'COL_MAJOR'), [idle(2, 8), tt018('2×4', '2×3', '(x0+R, y0+C)', '(1,2)-(2,4)')]);
  assert.deepEqual(block(R(1, 2, 2, 4), 'COL_MAJOR'), []);
});
