/**
 * The structural rules a TT-NN buffer spec must meet (tt/structural.ts, research layouts.md B.7), pinned whole: for
 * each rule a spec on each side of its boundary and the exact findings (code, severity, message with its numbers,
 * field, index, fix). Expected numbers are worked out by hand from the rules: tiles 32×32 unless given, pages of one
 * tile row × tile column, a 2-D tensor folded to physH = product of all dims but the last, physW = last dim (padded to
 * the alignment), HEIGHT shards keep whole rows, WIDTH shards whole columns, BLOCK shards need one CoreRange of
 * ⌈physW/sw⌉ × ⌈physH/sh⌉ cores (ROW_MAJOR: columns along x), DRAM buffers on 32-byte boundaries and L1 buffers on
 * 16-byte ones on Wormhole (8×8 grid, 12 DRAM banks).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { issue, type Issue } from '../../core/layout/issues';
import { type CoreRange, structuralTT, type TTSpec } from '../../core/layout/models/tt';
import { TT_ARCHS } from '../../core/layout/models/ttArch';

const WH = TT_ARCHS.wormhole_b0;
const R = (x0: number, y0: number, x1: number, y1: number): CoreRange => ({ x0, y0, x1, y1 });
const rules = (s: Partial<TTSpec>): Issue[] =>
  structuralTT({ arch: WH, shape: [64, 64], dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED', ...s });
const fix = (title: string, field: string, newText: string, preferred?: boolean) =>
  preferred ? { title, field, newText, preferred } : { title, field, newText };

test('TT002: an unsupported dtype stops the check; a block float outside TILE layout', () => {
  assert.deepEqual(rules({ dtype: 'float16' }), [
    issue('TT002', 'error', 'TT-NN does not support float16; supported: bfloat16, float32, uint32, int32, uint16, uint8, bfloat8_b, bfloat4_b', '@dtype'),
  ]);
  // the dtype stops everything else: a bad tile is not reported
  assert.equal(rules({ dtype: 'float16', tile: [3, 3] }).length, 1);
  assert.deepEqual(rules({ dtype: 'bfloat8_b', layout: 'ROW_MAJOR' }), [
    issue('TT002', 'error', 'bfloat8_b is a block-float format and exists only in TILE layout (validate_dtype_and_layout)', 'layout', {
      fixes: [fix('Use TILE layout', 'layout', 'TILE', true)],
    }),
  ]);
  assert.deepEqual(rules({ dtype: 'bfloat8_b' }), []);
  assert.deepEqual(rules({ dtype: 'uint16', layout: 'ROW_MAJOR' }), []);
});

test('TT023: no dimension, and each dimension that is not an integer ≥ 1 (with its index)', () => {
  assert.deepEqual(rules({ shape: [] }), [issue('TT023', 'error', 'a TT-NN buffer needs at least one dimension', '@shape')]);
  assert.deepEqual(rules({ shape: [0, 64, 2.5, 1] }), [
    issue('TT023', 'error', 'dimension 0 is 0; sizes must be integers ≥ 1', '@shape', { index: 0 }),
    issue('TT023', 'error', 'dimension 2 is 2.5; sizes must be integers ≥ 1', '@shape', { index: 2 }),
  ]);
  assert.deepEqual(rules({ shape: [1] }), []);
});

test('TT001: tile shapes, transpose_tile heights; TT022 transposed block floats', () => {
  assert.deepEqual(rules({ tile: [32, 8] }), [
    issue(
      'TT001',
      'error',
      'tile 32×8 is not valid for TT hardware; supported: 32x32, 16x32, 32x16, 16x16, 8x32, 4x32, 2x32, 1x32, 8x16, 4x16, 2x16, 1x16',
      'tile',
      { fixes: [fix('Use 32×32 tiles', 'tile', '32x32')] },
    ),
  ]);
  // 16 and 32 high tiles may be transposed; an 8-high one may not
  assert.deepEqual(rules({ tile: [16, 32], transposeTile: true }), []);
  assert.deepEqual(rules({ tile: [32, 16], transposeTile: true }), []);
  assert.deepEqual(rules({ tile: [8, 32], transposeTile: true }), [
    issue('TT001', 'error', 'transpose_tile needs tile height 16 or 32 (this is 8)', 'transpose_tile'),
  ]);
  assert.deepEqual(rules({ dtype: 'bfloat4_b', transposeTile: true }), [
    issue(
      'TT022',
      'error',
      'transpose_tile with block-float bfloat4_b is not modelled (the shared-exponent order of transposed faces is not documented)',
      'transpose_tile',
    ),
  ]);
  // ROW_MAJOR has no tiles: its tile field is not checked
  assert.deepEqual(rules({ layout: 'ROW_MAJOR', tile: [3, 3] }), []);
});

test('TT003: a TILE alignment must be whole tiles in its last two entries; every entry an integer ≥ 1', () => {
  const tt003 = (a: number[], tH = 32, tW = 32) =>
    issue(
      'TT003',
      'error',
      `TILE alignment [${a.join(', ')}]: the innermost entry must be a multiple of the tile width ${tW} and the second-innermost a multiple of the ` +
        `tile height ${tH}`,
      'alignment',
      { fixes: [fix(`Use [${tH}, ${tW}]`, 'alignment', `[${tH}, ${tW}]`, true)] },
    );
  assert.deepEqual(rules({ alignment: [64, 96] }), []);
  assert.deepEqual(rules({ alignment: [7, 64, 32] }), []);
  assert.deepEqual(rules({ alignment: [32] }), [tt003([32])]);
  assert.deepEqual(rules({ alignment: [32, 48] }), [tt003([32, 48])]);
  assert.deepEqual(rules({ alignment: [48, 32] }), [tt003([48, 32])]);
  // 16×32 tiles: height 16 divides 48
  assert.deepEqual(rules({ alignment: [48, 32], tile: [16, 32] }), []);
  assert.deepEqual(rules({ alignment: [16, 16], tile: [16, 32] }), [tt003([16, 16], 16, 32)]);
  // ROW_MAJOR: any integers; 0 is not
  assert.deepEqual(rules({ layout: 'ROW_MAJOR', alignment: [3, 5] }), []);
  assert.deepEqual(rules({ layout: 'ROW_MAJOR', alignment: [3, 0] }), [issue('TT003', 'error', 'alignment entries must be integers ≥ 1', 'alignment')]);
  // a tile-invalid alignment check needs a valid tile: with a bad tile only TT001 is said
  assert.deepEqual(
    rules({ tile: [5, 5], alignment: [32] }).map((i) => i.code),
    ['TT001'],
  );
});

test('TT004: a sharded buffer with an alignment of rank > 2; TT021 the base address on its bank alignment', () => {
  const sharded = { layout: 'ROW_MAJOR' as const, memory: 'HEIGHT_SHARDED' as const, buffer: 'L1' as const, shard: [32, 64], grid: [R(0, 0, 1, 0)] };
  assert.deepEqual(rules({ ...sharded, alignment: [1, 1, 1] }), [
    issue('TT004', 'error', 'Tensor must be interleaved if alignment has rank greater than 2! (alignment [1, 1, 1])', 'alignment'),
  ]);
  assert.deepEqual(rules({ ...sharded, alignment: [1, 1] }), []);
  assert.deepEqual(rules({ alignment: [1, 32, 32] }), []);
  // DRAM: 32-byte boundary on Wormhole; 0x40 is on it, 0x30 is not (round up to 0x40)
  assert.deepEqual(rules({ base: 0x40 }), []);
  assert.deepEqual(rules({ base: 0x30 }), [
    issue('TT021', 'error', 'DRAM buffers start on a 32-byte boundary on wormhole_b0; 0x30 is not (use 0x40)', '@at', {
      fixes: [fix('Round up to 0x40', '@at', '0x40', true)],
    }),
  ]);
  // L1: 16-byte boundary, so 0x30 is fine there and 0x38 is not
  assert.deepEqual(rules({ ...sharded, base: 0x30 }), []);
  assert.deepEqual(rules({ ...sharded, base: 0x38 }), [
    issue('TT021', 'error', 'L1 buffers start on a 16-byte boundary on wormhole_b0; 0x38 is not (use 0x40)', '@at', {
      fixes: [fix('Round up to 0x40', '@at', '0x40', true)],
    }),
  ]);
});

test('TT024: shard or grid on an interleaved buffer is ignored, with a warning on the field given', () => {
  assert.deepEqual(rules({ shard: [32, 32] }), [issue('TT024', 'warning', 'shard and grid are ignored for an interleaved buffer', 'shard')]);
  assert.deepEqual(rules({ grid: [R(0, 0, 0, 0)] }), [issue('TT024', 'warning', 'shard and grid are ignored for an interleaved buffer', 'grid')]);
  assert.deepEqual(rules({ grid: [] }), []);
});

test('TT011/TT019: the core grid of a sharded buffer — empty, not a range, off the grid, overlapping', () => {
  // one shard of 64×64: fits any grid of at least one core
  const hs = (s: Partial<TTSpec>) => rules({ memory: 'HEIGHT_SHARDED', buffer: 'L1', shard: [64, 64], ...s });
  assert.deepEqual(hs({ grid: [] }), [issue('TT011', 'error', 'a sharded buffer needs a non-empty core grid, e.g. grid=(0,0)-(7,0)', 'grid')]);
  assert.deepEqual(
    hs({ grid: undefined }).map((i) => i.code),
    ['TT011'],
  );
  const notRange = (r: string) => issue('TT019', 'error', `core range ${r} is not a range: corners are (x0,y0)-(x1,y1) with x0 ≤ x1 and y0 ≤ y1`, 'grid');
  assert.deepEqual(hs({ grid: [R(1, 0, 0, 0)] }), [notRange('(1,0)-(0,0)')]);
  assert.deepEqual(hs({ grid: [R(0, 1, 0, 0)] }), [notRange('(0,1)-(0,0)')]);
  assert.deepEqual(hs({ grid: [R(-1, 0, 0, 0)] }), [notRange('(-1,0)-(0,0)')]);
  assert.deepEqual(hs({ grid: [R(0, 0, 0.5, 0)] }), [notRange('(0,0)-(0.5,0)')]);
  // the 8×8 grid: x and y up to 7
  assert.deepEqual(hs({ grid: [R(7, 7, 7, 7)] }), []);
  const leaves = (r: string) => issue('TT019', 'error', `core range ${r} leaves the 8×8 compute grid of wormhole_b0`, 'grid');
  assert.deepEqual(hs({ grid: [R(7, 0, 8, 0)] }), [leaves('(7,0)-(8,0)')]);
  assert.deepEqual(hs({ grid: [R(0, 7, 0, 8)] }), [leaves('(0,7)-(0,8)')]);
  // DRAM sharding: x = bank (12 banks), y = 0 only
  const dram = (g: CoreRange) => hs({ buffer: 'DRAM', grid: [g] });
  assert.deepEqual(dram(R(11, 0, 11, 0)), []);
  assert.deepEqual(dram(R(0, 0, 12, 0)), [issue('TT019', 'error', 'core range (0,0)-(12,0) leaves the 12 DRAM banks (x = bank, y = 0)', 'grid')]);
  assert.deepEqual(dram(R(0, 1, 0, 1)), [issue('TT019', 'error', 'core range (0,1)-(0,1) leaves the 12 DRAM banks (x = bank, y = 0)', 'grid')]);
  // overlap: touching corners overlap, neighbours do not (in x and in y)
  const overlap = (a: string, b: string) => issue('TT019', 'error', `core ranges ${a} and ${b} overlap`, 'grid');
  assert.deepEqual(hs({ grid: [R(0, 0, 1, 1), R(1, 1, 2, 2)] }), [overlap('(0,0)-(1,1)', '(1,1)-(2,2)')]);
  assert.deepEqual(
    hs({ grid: [R(0, 0, 1, 1), R(2, 0, 3, 1)] }).map((i) => i.code),
    ['TT014'],
  );
  assert.deepEqual(
    hs({ grid: [R(0, 0, 1, 1), R(0, 2, 1, 3)] }).map((i) => i.code),
    ['TT014'],
  );
  assert.deepEqual(hs({ grid: [R(2, 2, 3, 3), R(0, 0, 2, 2)] }), [overlap('(2,2)-(3,3)', '(0,0)-(2,2)')]);
  assert.deepEqual(hs({ grid: [R(0, 0, 0, 0), R(5, 5, 5, 5), R(0, 0, 0, 0)] }), [overlap('(0,0)-(0,0)', '(0,0)-(0,0)')]);
  // a range right of (or below) the one before it does not overlap it
  assert.deepEqual(
    hs({ grid: [R(2, 0, 3, 0), R(0, 0, 1, 0)] }).map((i) => i.code),
    ['TT014'],
  );
  assert.deepEqual(
    hs({ grid: [R(0, 2, 0, 3), R(0, 0, 0, 1)] }).map((i) => i.code),
    ['TT014'],
  );
  // ranges that only share x (or only y) do not overlap
  assert.deepEqual(
    hs({ grid: [R(0, 0, 3, 0), R(0, 1, 3, 1)] }).map((i) => i.code),
    ['TT014'],
  );
  assert.deepEqual(
    hs({ grid: [R(0, 0, 0, 3), R(1, 0, 1, 3)] }).map((i) => i.code),
    ['TT014'],
  );
});

test('TT011/TT025: the shard shape — missing, zero or fractional entries, the wrong rank for the memory kind', () => {
  const base = { buffer: 'L1' as const, grid: [R(0, 0, 1, 0)] };
  assert.deepEqual(rules({ ...base, memory: 'HEIGHT_SHARDED' }), [issue('TT011', 'error', 'a sharded buffer needs a shard shape [height, width]', 'shard')]);
  assert.deepEqual(rules({ ...base, memory: 'ND_SHARDED' }), [
    issue('TT011', 'error', 'an ND-sharded buffer needs a shard shape with one entry per tensor dim', 'shard'),
  ]);
  assert.deepEqual(rules({ ...base, memory: 'HEIGHT_SHARDED', shard: [0, 64] }), [
    issue('TT011', 'error', 'shard[0] is 0; shard sizes must be integers ≥ 1 (the shard volume must not be 0)', 'shard', { index: 0 }),
  ]);
  assert.deepEqual(rules({ ...base, memory: 'HEIGHT_SHARDED', shard: [32, 1.5] }), [
    issue('TT011', 'error', 'shard[1] is 1.5; shard sizes must be integers ≥ 1 (the shard volume must not be 0)', 'shard', { index: 1 }),
  ]);
  assert.deepEqual(rules({ ...base, memory: 'ND_SHARDED', shard: [32] }), [
    issue('TT011', 'error', "ND sharding needs a shard of the tensor's rank 2; this shard has 1 entries", 'shard'),
  ]);
  assert.deepEqual(rules({ ...base, memory: 'ND_SHARDED', shard: [32, 32] }), []);
  assert.deepEqual(rules({ ...base, memory: 'WIDTH_SHARDED', shard: [2, 64, 32] }), [
    issue(
      'TT025',
      'error',
      'WIDTH_SHARDED sharding takes a 2-D shard [height, width] of the folded 2-D tensor; this has 3 entries (use nd_sharded for an N-D shard)',
      'shard',
    ),
  ]);
});

test('TT008: TILE shards are whole tiles in their last two dims (with the rounded shard); TT009 ROW_MAJOR widths on the alignment', () => {
  const tt008 = (shard: string, fixed: string, t = '32×32') =>
    issue(
      'TT008',
      'error',
      `shard ${shard} is not a whole number of ${t} tiles (pages): the last two shard dims must be multiples of the tile (e.g. ${fixed})`,
      'shard',
      { fixes: [fix(`Round shard shape up to tiles: ${fixed}`, 'shard', fixed, true)] },
    );
  const hs = (s: Partial<TTSpec>) => rules({ memory: 'HEIGHT_SHARDED', buffer: 'L1', grid: [R(0, 0, 3, 0)], ...s });
  assert.deepEqual(hs({ shard: [40, 64] }), [tt008('[40, 64]', '[64, 64]')]);
  assert.deepEqual(hs({ shard: [32, 70] }), [tt008('[32, 70]', '[32, 96]')]);
  // 16×16 tiles: 48 is whole
  assert.deepEqual(hs({ shard: [16, 64], tile: [16, 16] }), []);
  assert.deepEqual(hs({ shard: [16, 8], tile: [16, 16] }), [tt008('[16, 8]', '[16, 16]', '16×16')]);
  // ND: only the last two are rounded
  assert.deepEqual(rules({ memory: 'ND_SHARDED', buffer: 'L1', grid: [R(0, 0, 3, 0)], shape: [3, 64, 64], shard: [1, 33, 32] }), [
    tt008('[1, 33, 32]', '[1, 64, 32]'),
  ]);
  // ROW_MAJOR: no tiles; width sharding wants shard widths on the width alignment
  const rm = (memory: TTSpec['memory'], shard: number[], alignment?: number[]) =>
    rules({ layout: 'ROW_MAJOR', memory, buffer: 'L1', grid: [R(0, 0, 3, 3)], shard, alignment });
  assert.deepEqual(rm('WIDTH_SHARDED', [64, 16], [1, 8]), []);
  assert.deepEqual(rm('WIDTH_SHARDED', [64, 12], [1, 8]), [
    issue('TT009', 'error', 'ROW_MAJOR WIDTH_SHARDED: the shard width 12 must be a multiple of the width alignment 8', 'shard', { index: 1 }),
  ]);
  assert.deepEqual(rm('BLOCK_SHARDED', [16, 12], [8]), [
    issue('TT009', 'error', 'ROW_MAJOR BLOCK_SHARDED: the shard width 12 must be a multiple of the width alignment 8', 'shard', { index: 1 }),
  ]);
  // TILE: the width alignment is whole tiles (TT003), not a rule on the shard width: [64, 32] shards under [32, 64] are fine
  assert.deepEqual(rules({ memory: 'WIDTH_SHARDED', buffer: 'L1', grid: [R(0, 0, 1, 0)], shard: [64, 32], alignment: [32, 64] }), []);
  // HEIGHT sharding keeps whole rows: no width alignment rule (its own TT005 says the width is wrong)
  assert.deepEqual(
    rm('HEIGHT_SHARDED', [16, 64], [1, 7]).map((i) => i.code),
    ['TT005'],
  );
});

test('TT005: HEIGHT shards keep whole rows and need at most one shard per core (the shard height that fits)', () => {
  // 64×64 tiled: physH 64, physW 64
  const hs = (shard: number[], grid: CoreRange[]) => rules({ memory: 'HEIGHT_SHARDED', buffer: 'L1', shard, grid });
  assert.deepEqual(hs([32, 64], [R(0, 0, 1, 0)]), []);
  assert.deepEqual(hs([32, 32], [R(0, 0, 1, 0)]), [
    issue('TT005', 'error', 'HEIGHT sharding keeps whole rows: the shard width must be the physical width 64, not 32', 'shard', {
      index: 1,
      fixes: [fix('Set the shard width to 64', 'shard', '[32, 64]', true)],
    }),
  ]);
  // 200×64 in shards of 32 rows: ⌈200/32⌉ = 7 shards on 3 cores; ⌈200/3⌉ = 67 → 96 rows (whole tiles) fit
  // (the shape pads to 224 rows: 7 tile rows, ⌈224/3⌉ = 75 → 96)
  assert.deepEqual(rules({ shape: [200, 64], memory: 'HEIGHT_SHARDED', buffer: 'L1', shard: [32, 64], grid: [R(0, 0, 2, 0)] }), [
    issue('TT005', 'error', '224 physical rows in shards of 32 make 7 shards but the grid has 3 cores; a shard height of at least 96 fits', 'shard', {
      index: 0,
      fixes: [fix('Set the shard height to 96', 'shard', '[96, 64]', true)],
    }),
  ]);
  // exactly as many shards as cores: fine; one core fewer is not (ROW_MAJOR pages are 1 row: the height that fits is not rounded to 32)
  const rmh = (cores: number) =>
    rules({ layout: 'ROW_MAJOR', shape: [10, 8], memory: 'HEIGHT_SHARDED', buffer: 'L1', shard: [2, 8], grid: [R(0, 0, cores - 1, 0)] });
  assert.deepEqual(rmh(5), []);
  assert.deepEqual(rmh(4), [
    issue('TT005', 'error', '10 physical rows in shards of 2 make 5 shards but the grid has 4 cores; a shard height of at least 3 fits', 'shard', {
      index: 0,
      fixes: [fix('Set the shard height to 3', 'shard', '[3, 8]', true)],
    }),
  ]);
  assert.deepEqual(rules({ layout: 'ROW_MAJOR', shape: [10, 8], memory: 'HEIGHT_SHARDED', buffer: 'L1', shard: [10, 8], grid: [R(0, 0, 0, 0)] }), []);
  // one core: "1 core"
  assert.match(
    rules({ layout: 'ROW_MAJOR', shape: [10, 8], memory: 'HEIGHT_SHARDED', buffer: 'L1', shard: [5, 8], grid: [R(0, 0, 0, 0)] })[0].message,
    /the grid has 1 core;/,
  );
});

test('TT006: WIDTH shards keep whole columns and need at most one shard per core', () => {
  const ws = (s: Partial<TTSpec>) => rules({ memory: 'WIDTH_SHARDED', buffer: 'L1', ...s });
  assert.deepEqual(ws({ shard: [64, 32], grid: [R(0, 0, 1, 0)] }), []);
  assert.deepEqual(ws({ shard: [32, 32], grid: [R(0, 0, 1, 0)] }), [
    issue('TT006', 'error', 'WIDTH sharding keeps whole columns: the shard height must be the physical height 64, not 32', 'shard', {
      index: 0,
      fixes: [fix('Set the shard height to 64', 'shard', '[64, 32]', true)],
    }),
  ]);
  // 64×160 tiled: 5 tile columns, shards of 32 → 5 shards on 2 cores; ⌈160/2⌉ = 80 → 96 (whole tiles)
  assert.deepEqual(ws({ shape: [64, 160], shard: [64, 32], grid: [R(0, 0, 1, 0)] }), [
    issue('TT006', 'error', 'width 160 in shards of 32 makes 5 shards but the grid has 2 cores; a shard width of at least 96 fits', 'shard', {
      index: 1,
      fixes: [fix('Set the shard width to 96', 'shard', '[64, 96]', true)],
    }),
  ]);
  // TILE: the width said is the padded one (150 → 160), ⌈160/32⌉ = 5 shards; ⌈160/2⌉ = 80 → 96
  assert.deepEqual(
    ws({ shape: [64, 150], shard: [64, 32], grid: [R(0, 0, 1, 0)] })[0].message,
    'width 160 in shards of 32 makes 5 shards but the grid has 2 cores; a shard width of at least 96 fits',
  );
  // ROW_MAJOR: the width is the unpadded last dim (10), not the one padded to the shard width (12); tiles are 1×1
  const rmw = (cores: number, sw: number) =>
    rules({ layout: 'ROW_MAJOR', shape: [4, 10], memory: 'WIDTH_SHARDED', buffer: 'L1', shard: [4, sw], grid: [R(0, 0, cores - 1, 0)] });
  assert.deepEqual(rmw(3, 4), []);
  assert.deepEqual(rmw(2, 4), [
    issue('TT006', 'error', 'width 10 in shards of 4 makes 3 shards but the grid has 2 cores; a shard width of at least 5 fits', 'shard', {
      index: 1,
      fixes: [fix('Set the shard width to 5', 'shard', '[4, 5]', true)],
    }),
  ]);
});

test('TT007: BLOCK shards need one CoreRange of shard columns × shard rows (COL_MAJOR swaps them), with a grid that fits', () => {
  const bs = (s: Partial<TTSpec>) => rules({ memory: 'BLOCK_SHARDED', buffer: 'L1', shape: [96, 128], shard: [32, 32], ...s });
  // 96×128: 3 shard rows × 4 shard columns
  assert.deepEqual(bs({ grid: [R(0, 0, 3, 2)] }), []);
  assert.deepEqual(bs({ grid: [R(2, 1, 6, 4)] }), []);
  assert.deepEqual(bs({ grid: [R(0, 0, 3, 0), R(0, 1, 3, 2)] }), [
    issue('TT007', 'error', 'BLOCK sharding needs a core grid that is exactly one CoreRange; this has 2', 'grid'),
    issue(
      'TT014',
      'warning',
      'the grid has 2 core ranges: the ROW_MAJOR orientation applies inside each range only; ranges are used in the order written',
      'grid',
    ),
  ]);
  assert.deepEqual(bs({ grid: [R(1, 1, 3, 3)] }), [
    issue('TT007', 'error', 'BLOCK ROW_MAJOR: 3 shard rows × 4 shard columns need a grid of 4 (x) × 3 (y) cores, but (1,1)-(3,3) is 3×3', 'grid', {
      fixes: [fix('Use grid (1,1)-(4,3)', 'grid', '(1,1)-(4,3)')],
    }),
  ]);
  // too few rows (y)
  assert.deepEqual(
    bs({ grid: [R(0, 0, 3, 1)] })[0].message,
    'BLOCK ROW_MAJOR: 3 shard rows × 4 shard columns need a grid of 4 (x) × 3 (y) cores, but (0,0)-(3,1) is 4×2',
  );
  // COL_MAJOR: shard rows along x
  assert.deepEqual(bs({ grid: [R(0, 0, 2, 3)], orientation: 'COL_MAJOR' }), []);
  assert.deepEqual(bs({ grid: [R(0, 0, 3, 2)], orientation: 'COL_MAJOR' }), [
    issue(
      'TT007',
      'error',
      'BLOCK COL_MAJOR: 3 shard rows × 4 shard columns need a grid of 3 (x) × 4 (y) cores (COL_MAJOR puts shard rows along x), but (0,0)-(3,2) is 4×3',
      'grid',
      { fixes: [fix('Use grid (0,0)-(2,3)', 'grid', '(0,0)-(2,3)')] },
    ),
  ]);
  // a fit that would leave the 8×8 grid is not offered: from (6,6) 4×3 cores end at (9,8)
  assert.deepEqual(bs({ grid: [R(6, 6, 7, 7)] })[0].fixes, undefined);
  // from (4,5): (4,5)-(7,7) is the last that fits in x and y
  assert.deepEqual(bs({ grid: [R(4, 5, 5, 6)] })[0].fixes, [fix('Use grid (4,5)-(7,7)', 'grid', '(4,5)-(7,7)')]);
  assert.deepEqual(bs({ grid: [R(5, 5, 5, 6)] })[0].fixes, undefined);
  assert.deepEqual(bs({ grid: [R(4, 6, 5, 6)] })[0].fixes, undefined);
  // ROW_MAJOR layout: the width is the last dim (130 → ⌈130/32⌉ = 5 columns), the rows 96 → 3
  assert.deepEqual(rules({ layout: 'ROW_MAJOR', memory: 'BLOCK_SHARDED', buffer: 'L1', shape: [96, 130], shard: [32, 32], grid: [R(0, 0, 4, 2)] }), []);
  assert.deepEqual(
    rules({ layout: 'ROW_MAJOR', memory: 'BLOCK_SHARDED', buffer: 'L1', shape: [96, 130], shard: [32, 32], grid: [R(0, 0, 3, 2)] })[0].message,
    'BLOCK ROW_MAJOR: 3 shard rows × 5 shard columns need a grid of 5 (x) × 3 (y) cores, but (0,0)-(3,2) is 4×3',
  );
});

test('TT014: several core ranges, with the orientation named; ND sharding skips the 2-D rules', () => {
  assert.deepEqual(rules({ memory: 'HEIGHT_SHARDED', buffer: 'L1', shard: [32, 64], grid: [R(0, 0, 0, 0), R(1, 0, 1, 0)], orientation: 'COL_MAJOR' }), [
    issue(
      'TT014',
      'warning',
      'the grid has 2 core ranges: the COL_MAJOR orientation applies inside each range only; ranges are used in the order written',
      'grid',
    ),
  ]);
  // ND: a shard with more shards than cores is fine (round robin), and several ranges get no TT014 here
  assert.deepEqual(rules({ memory: 'ND_SHARDED', buffer: 'L1', shard: [32, 32], grid: [R(0, 0, 0, 0), R(1, 0, 1, 0)] }), []);
});

test('each stage stops at its errors: later rules are not reported on a spec already wrong', () => {
  // a misaligned L1 base (TT021) hides the missing grid and shard of the sharded buffer
  assert.deepEqual(
    rules({ memory: 'HEIGHT_SHARDED', buffer: 'L1', base: 0x38, grid: [] }).map((i) => i.code),
    ['TT021'],
  );
  // a zero shard entry (TT011) hides that 70 is not whole tiles (TT008)
  assert.deepEqual(
    rules({ memory: 'HEIGHT_SHARDED', buffer: 'L1', shard: [0, 70], grid: [R(0, 0, 1, 0)] }).map((i) => i.code),
    ['TT011'],
  );
  // a shard of partial tiles (TT008) hides that its width is not the tensor's (TT005)
  assert.deepEqual(
    rules({ memory: 'HEIGHT_SHARDED', buffer: 'L1', shard: [40, 32], grid: [R(0, 0, 1, 0)] }).map((i) => i.code),
    ['TT008'],
  );
  // a grid off the chip (TT019) hides the missing shard (TT011)
  assert.deepEqual(
    rules({ memory: 'HEIGHT_SHARDED', buffer: 'L1', grid: [R(0, 0, 8, 0)] }).map((i) => i.code),
    ['TT019', 'TT011'],
  );
});
