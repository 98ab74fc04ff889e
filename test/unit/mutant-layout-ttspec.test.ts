/**
 * The pieces every TT-NN mapping stands on, each pinned by hand: the page geometry of a buffer (tt/spec.ts `geometry`:
 * the 2-D fold, the default alignment per memory kind, the page width), the core order of a grid (`enumerateCores`),
 * tile faces transposed and back (ttTile.ts), the real data bytes of a partial block-float tile, the arch overrides
 * of a target (ttArch.ts `withOverrides`) and the one rule a spec can break only once it is built (TT026).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TT_DTYPES } from '../../core/layout/dtypes';
import { issue } from '../../core/layout/issues';
import { validateTT } from '../../core/layout/models/tt';
import { type CoreRange, enumerateCores, geometry, type TTSpec } from '../../core/layout/models/tt/spec';
import { TT_ARCHS, withOverrides } from '../../core/layout/models/ttArch';
import { fromTileElem, inTile, realDataBytes, tileGeometry } from '../../core/layout/models/ttTile';

const WH = TT_ARCHS.wormhole_b0;
const R = (x0: number, y0: number, x1: number, y1: number): CoreRange => ({ x0, y0, x1, y1 });
const spec = (s: Partial<TTSpec> & { shape: number[] }): TTSpec => ({
  arch: WH,
  dtype: 'uint16',
  layout: 'ROW_MAJOR',
  buffer: 'L1',
  memory: 'INTERLEAVED',
  ...s,
});
/** The page grid of a geometry, without its dtype record and tile. */
const pages = (s: TTSpec) => {
  const { align, padded, physH, physW, pageH, pageW, pageSize, Hp, Wp, shape2 } = geometry(s);
  return { shape2, align, padded, physH, physW, pageH, pageW, pageSize, Hp, Wp };
};

test('geometry of ROW_MAJOR buffers: one row per page when interleaved or height-sharded, one shard row otherwise', () => {
  // uint16 4×10: pages are whole rows of 10 elements = 20 B
  const whole = { shape2: [4, 10], align: [1], padded: [4, 10], physH: 4, physW: 10, pageH: 1, pageW: 10, pageSize: 20, Hp: 4, Wp: 1 };
  assert.deepEqual(pages(spec({ shape: [4, 10] })), whole);
  assert.deepEqual(pages(spec({ shape: [4, 10], memory: 'HEIGHT_SHARDED', shard: [2, 10], grid: [R(0, 0, 1, 0)] })), whole);
  // width, block and ND sharding: the width is padded to the shard width 4 (10 → 12) and a page is one shard row (4 × 2 B)
  const shardRows = { shape2: [4, 10], align: [4], padded: [4, 12], physH: 4, physW: 12, pageH: 1, pageW: 4, pageSize: 8, Hp: 4, Wp: 3 };
  for (const memory of ['WIDTH_SHARDED', 'BLOCK_SHARDED', 'ND_SHARDED'] as const)
    assert.deepEqual(pages(spec({ shape: [4, 10], memory, shard: [4, 4], grid: [R(0, 0, 2, 0)] })), shardRows, memory);
  // a height-sharded page is a whole row even when the shard is narrower (TT005 reports that shard)
  assert.equal(geometry(spec({ shape: [4, 10], memory: 'HEIGHT_SHARDED', shard: [2, 4], grid: [R(0, 0, 1, 0)] })).pageW, 10);
  // a 1-D tensor is one row; 3-D folds all but the last dim into the height
  assert.deepEqual(pages(spec({ shape: [10] })), { ...whole, shape2: [1, 10], padded: [1, 10], physH: 1, Hp: 1 });
  assert.deepEqual(pages(spec({ shape: [2, 3, 10] })), { ...whole, shape2: [2, 3, 10], padded: [2, 3, 10], physH: 6, Hp: 6 });
  // a custom alignment applies to the last dims only
  assert.deepEqual(pages(spec({ shape: [2, 3, 10], alignment: [4, 8] })), {
    shape2: [2, 3, 10],
    align: [4, 8],
    padded: [2, 4, 16],
    physH: 8,
    physW: 16,
    pageH: 1,
    pageW: 16,
    pageSize: 32,
    Hp: 8,
    Wp: 1,
  });
});

test('geometry of TILE buffers: padded to whole tiles (or the alignment), pages of one tile', () => {
  // bf16 40×50 in 32×32 tiles: 64×64, 2×2 pages of 2048 B
  assert.deepEqual(pages(spec({ shape: [40, 50], dtype: 'bfloat16', layout: 'TILE' })), {
    shape2: [40, 50],
    align: [32, 32],
    padded: [64, 64],
    physH: 64,
    physW: 64,
    pageH: 32,
    pageW: 32,
    pageSize: 2048,
    Hp: 2,
    Wp: 2,
  });
  // 16×32 tiles of float32 (2048 B), alignment [64, 64]: 64×64 → 4 × 2 pages
  const g = pages(spec({ shape: [40, 50], dtype: 'float32', layout: 'TILE', tile: [16, 32], alignment: [64, 64] }));
  assert.deepEqual([g.padded, g.pageH, g.pageW, g.pageSize, g.Hp, g.Wp], [[64, 64], 16, 32, 2048, 4, 2]);
});

test('enumerateCores: ROW_MAJOR runs x fastest, COL_MAJOR y fastest, inside each range, ranges in the order written', () => {
  const grid = [R(2, 1, 3, 2), R(5, 0, 5, 1)];
  assert.deepEqual(enumerateCores(grid, 'ROW_MAJOR'), [
    [2, 1],
    [3, 1],
    [2, 2],
    [3, 2],
    [5, 0],
    [5, 1],
  ]);
  assert.deepEqual(enumerateCores(grid, 'COL_MAJOR'), [
    [2, 1],
    [2, 2],
    [3, 1],
    [3, 2],
    [5, 0],
    [5, 1],
  ]);
  // a 3-wide, 2-high range away from the origin: 6 cores
  assert.deepEqual(enumerateCores([R(4, 6, 6, 7)], 'COL_MAJOR'), [
    [4, 6],
    [4, 7],
    [5, 6],
    [5, 7],
    [6, 6],
    [6, 7],
  ]);
});

test('transposed tiles: faces column-major and elements column-major inside a face, and back', () => {
  const t = tileGeometry(32, 32, true)!;
  // (1, 0) is the 2nd element of face 0; (0, 1) the 17th; (16, 0) starts face 1 (below), (0, 16) face 2 (right)
  assert.deepEqual([inTile(1, 0, t).elem, inTile(0, 1, t).elem, inTile(16, 0, t).elem, inTile(0, 16, t).elem], [1, 16, 256, 512]);
  assert.deepEqual(fromTileElem(1, t), { rr: 1, cc: 0, face: 0 });
  assert.deepEqual(fromTileElem(16, t), { rr: 0, cc: 1, face: 0 });
  assert.deepEqual(fromTileElem(256, t), { rr: 16, cc: 0, face: 1 });
  assert.deepEqual(fromTileElem(512 + 17, t), { rr: 1, cc: 17, face: 2 });
  assert.deepEqual(fromTileElem(1023, t), { rr: 31, cc: 31, face: 3 });
  // 16×32 transposed: one face row, two face columns
  const w = tileGeometry(16, 32, true)!;
  assert.deepEqual(fromTileElem(256 + 3, w), { rr: 3, cc: 16, face: 1 });
  for (const g of [t, w, tileGeometry(32, 16, true)!])
    for (let e = 0; e < g.tH * g.tW; e++) {
      const p = fromTileElem(e, g);
      assert.equal(inTile(p.rr, p.cc, g).elem, e);
    }
});

test('real data bytes of a partial block-float tile: bfp8 a byte per element, bfp4 a byte per pair along the stored row', () => {
  const g = tileGeometry(32, 32)!;
  const bf8 = TT_DTYPES.bfloat8_b!;
  const bf4 = TT_DTYPES.bfloat4_b!;
  // 3×5 in face 0 only
  assert.equal(realDataBytes(3, 5, g, bf8), 15);
  // bfp4: 3 rows of ⌈5/2⌉ = 3 bytes
  assert.equal(realDataBytes(3, 5, g, bf4), 9);
  // transposed: 5 stored rows (the columns) of ⌈3/2⌉ = 2 bytes
  assert.equal(realDataBytes(3, 5, tileGeometry(32, 32, true)!, bf4), 10);
  // 20×17 spans 4 faces: 16×16 + 16×1 + 4×16 + 4×1 → bfp4 16·8 + 16·1 + 4·8 + 4·1 = 180
  assert.equal(realDataBytes(20, 17, g, bf4), 180);
  assert.equal(realDataBytes(0, 17, g, bf4), 0);
  assert.equal(realDataBytes(20, 0, g, bf8), 0);
  // float32 20×17: every element 4 bytes
  assert.equal(realDataBytes(20, 17, g, TT_DTYPES.float32!), 20 * 17 * 4);
});

test('withOverrides: DRAM bank offsets given per bank (missing ones 0), bank count first, grid and L1 banks', () => {
  const a = withOverrides(WH, { dram_offsets: [5, 6] });
  assert.deepEqual(a.dramOffsets, [5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  // fewer banks keep their own offsets (odd banks +1 GiB), then an explicit list replaces them
  assert.deepEqual(withOverrides(WH, { dram_banks: 3 }).dramOffsets, [0, 2 ** 30, 0]);
  assert.deepEqual(withOverrides(WH, { dram_banks: 3, dram_offsets: [7] }).dramOffsets, [7, 0, 0]);
  const g = withOverrides(WH, { grid: [4, 2] });
  assert.deepEqual([g.grid, g.l1Banks], [{ x: 4, y: 2 }, 8]);
  assert.deepEqual(withOverrides(WH, { grid: [4, 2], l1_banks: 3 }).l1Banks, 3);
  // every scalar property; none given: an equal copy
  assert.deepEqual(withOverrides(WH, { dram_bank_size: 1000, dram_alignment: 64, l1_alignment: 32, l1_size: 5000, l1_reserved: 100 }, 'mine'), {
    ...WH,
    name: 'mine',
    dramBankSize: 1000,
    dramAlignment: 64,
    l1Alignment: 32,
    l1Size: 5000,
    l1Reserved: 100,
  });
  assert.deepEqual(withOverrides(WH, {}), WH);
  // a grid needs two numbers
  assert.deepEqual(withOverrides(WH, { grid: [4] }).grid, { x: 8, y: 8 });
  // the base arch is not changed
  assert.equal(WH.dramOffsets[0], 0);
  assert.deepEqual(WH.grid, { x: 8, y: 8 });
});

test('validateTT: warnings of the structural rules (TT014, TT013) do not stop the advice of the built buffer', () => {
  // 64×64 bf16 height-sharded [32, 64] in DRAM banks: over two one-core ranges (banks 0 and 1), bank 1 is odd (+1 GiB, TT017)
  const sharded = (more: Partial<TTSpec>) =>
    validateTT(spec({ shape: [64, 64], dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'HEIGHT_SHARDED', shard: [32, 64], ...more }));
  const two = sharded({ grid: [R(0, 0, 0, 0), R(1, 0, 1, 0)] });
  assert.deepEqual(
    two.map((i) => [i.code, i.severity]),
    [
      ['TT014', 'warning'],
      ['TT017', 'information'],
    ],
  );
  const swapped = sharded({ grid: [R(0, 0, 1, 0)], swappedShard: true });
  assert.deepEqual(
    swapped.map((i) => i.code),
    ['TT013', 'TT017'],
  );
});

test('TT026: a spec that passes the structural rules but cannot be built (more than 2^53 elements)', () => {
  assert.deepEqual(validateTT(spec({ shape: [2 ** 40, 2 ** 40], dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM' })), [
    issue('TT026', 'error', 'the element count (1.2089258196146292e+24) is larger than 2^53 and cannot be mapped exactly', '@layout'),
  ]);
});
