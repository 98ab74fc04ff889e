/**
 * TT-Metalium buffers: every worked example of research layouts.md B.8 (T1–T8), the padding example
 * of B.4, tiles and faces (B.3) and each rule of the B.7 catalogue. The tech report's page list
 * "Core (0,1) holds pages 2, 3, 7, and 8" is the typo of B.9 #1: core (1,0) holds 2, 3, 6, 7.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type CoreRange, enumerateCores, TTLayout, type TTSpec, validateTT } from '../../core/layout/models/tt';
import { TT_ARCHS, withOverrides } from '../../core/layout/models/ttArch';
import { inTile, tileGeometry, TILE_SHAPES } from '../../core/layout/models/ttTile';

const WH = TT_ARCHS.wormhole_b0;
const BH = TT_ARCHS.blackhole;
const GiB = 2 ** 30;
const B = 0x10000;
const tt = (s: Partial<TTSpec> & { shape: number[] }) =>
  new TTLayout({ arch: WH, dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED', base: B, ...s });
const R = (x0: number, y0: number, x1: number, y1: number): CoreRange => ({ x0, y0, x1, y1 });

/** Host pages held by each core, in local-page order; -1 = PADDING, -2 = unused. */
function corePages(t: TTLayout): Map<string, number[]> {
  const reg = t.regions();
  const out = new Map<string, number[]>();
  reg.units.forEach((u, i) => {
    const pages: number[] = [];
    for (let s = 0; s < u.slots; s++) {
      const sl = reg.slot(i, s);
      pages.push(sl.kind === 'unused' ? -2 : sl.label.includes('PADDING') ? -1 : sl.index!);
    }
    out.set(u.label, pages);
  });
  return out;
}

test('B.3 — tiles and faces', () => {
  assert.equal(TILE_SHAPES.length, 12);
  const g = tileGeometry(32, 32)!;
  assert.deepEqual([g.fH, g.fW, g.faces], [16, 16, 4]);
  assert.deepEqual([tileGeometry(16, 32)!.faces, tileGeometry(32, 16)!.faces, tileGeometry(8, 32)!.fH, tileGeometry(1, 16)!.faces], [2, 2, 8, 1]);
  assert.equal(tileGeometry(64, 64), undefined);
  assert.equal(inTile(0, 16, g).elem, 256);
  assert.equal(inTile(16, 0, g).elem, 512);
  assert.equal(inTile(31, 31, g).elem, 1023);
  assert.equal(inTile(8, 17, g).elem, 385);
  // transposed tile: faces in column order, transposed inside
  const gt = tileGeometry(32, 32, true)!;
  assert.equal(inTile(0, 16, gt).elem, 512);
  assert.equal(inTile(1, 0, gt).elem, 1);
  assert.equal(inTile(0, 1, gt).elem, 16);
});

test('T1 — 64×64 bf16 TILE interleaved in DRAM on Wormhole (12 banks, align 32)', () => {
  const t = tt({ shape: [64, 64] });
  assert.equal(t.pages, 4);
  assert.equal(t.geo.pageSize, 2048);
  assert.equal(t.alignedPage, 2048);
  const a = t.forward([40, 17]);
  assert.deepEqual([a.page, a.tile?.rr, a.tile?.cc, a.tile?.face, a.tile?.ir, a.tile?.ic, a.tile?.elem], [2, 8, 17, 1, 8, 1, 385]);
  assert.deepEqual([a.bank, a.offset, a.address], [2, 770, B + 770]);
  const b = t.forward([5, 40]);
  assert.deepEqual([b.page, b.bank, b.tile?.elem, b.offset, b.address], [1, 1, 88, 176, B + 176]);
  assert.equal(b.bankOffset, GiB, 'odd Wormhole bank: channel 0 + 1 GiB');
  assert.equal(t.forward([0, 16]).tile?.elem, 256);
  assert.equal(t.forward([16, 0]).tile?.elem, 512);
  assert.equal(t.forward([31, 31]).offset, 2046);
  // lockstep: all 12 banks reserve 2048 B
  const s = t.summary();
  assert.equal(s.units?.bytesPerUnit, 2048);
  assert.equal(s.bytes, 12 * 2048);
  assert.equal(s.breakdown.unused, 8 * 2048);
  assert.deepEqual(s.units?.pages, [
    { from: 0, to: 3, pages: 1 },
    { from: 4, to: 11, pages: 0 },
  ]);
  assert.deepEqual(t.inverse(B + 770, 2).coord, [40, 17]);
  assert.equal(t.inverse(B + 770, 7).kind, 'unused');
  // Blackhole: 8 banks, align 64; pages 0–3 → banks 0–3, page stays 2048
  const bh = tt({ shape: [64, 64], arch: BH });
  assert.deepEqual(
    [0, 1, 2, 3].map((p) => bh.forward([32 * Math.floor(p / 2), 32 * (p % 2)]).bank),
    [0, 1, 2, 3],
  );
  assert.equal(bh.alignedPage, 2048);
  // bfloat8_b: page 1088, aligned on WH (34×32) and BH (17×64); (40,17): exponent at 24, mantissa at 449
  const b8 = tt({ shape: [64, 64], dtype: 'bfloat8_b' });
  assert.equal(b8.geo.pageSize, 1088);
  assert.equal(b8.alignedPage, 1088);
  assert.equal(tt({ shape: [64, 64], dtype: 'bfloat8_b', arch: BH }).alignedPage, 1088);
  const e = b8.forward([40, 17]);
  assert.equal(e.exponentByte, 24);
  assert.equal(e.pageByte, 449);
  assert.equal(b8.inverse(B + 24, 2).kind, 'metadata');
  assert.deepEqual(b8.inverse(B + 449, 2).coord, [40, 17]);
  // bfloat4_b: 576-byte tiles, two elements per byte, low nibble first
  const b4 = tt({ shape: [64, 64], dtype: 'bfloat4_b' });
  assert.equal(b4.geo.pageSize, 576);
  const n = b4.forward([40, 17]);
  assert.deepEqual([n.pageByte, n.nibble], [64 + 192, 1]);
});

test('T2 — wrap-around: 256×384 bf16 TILE on Wormhole DRAM', () => {
  const t = tt({ shape: [256, 384] });
  assert.equal(t.pages, 96);
  assert.equal(t.summary().units?.bytesPerUnit, 16 * 1024);
  const p50 = t.forward([128, 64]); // tile (4, 2)
  assert.equal(p50.page, 50);
  assert.deepEqual([p50.bank, p50.offset], [2, 8192]);
  const f = t.forward([200, 300]);
  assert.deepEqual([f.pageRow, f.pageCol, f.page, f.bank, f.offset], [6, 9, 81, 9, 12568]);
});

test('T3 — row-major interleaved 64×100 bf16 on WH DRAM, BH DRAM and 64 L1 banks', () => {
  const rows: [string, TTSpec['arch'], 'DRAM' | 'L1', number, number, number, number, number][] = [
    ['WH DRAM', WH, 'DRAM', 224, 1, 224, 338, 1344],
    ['BH DRAM', BH, 'DRAM', 256, 5, 256, 370, 2048],
    ['L1 64 banks', WH, 'L1', 208, 13, 0, 114, 208],
  ];
  for (const [name, arch, buffer, aligned, bank, off, addr, perBank] of rows) {
    const t = tt({ shape: [64, 100], layout: 'ROW_MAJOR', arch, buffer });
    assert.equal(t.pages, 64, name);
    assert.equal(t.geo.pageSize, 200, name);
    assert.equal(t.alignedPage, aligned, name);
    const r = t.forward([13, 57]);
    assert.deepEqual([r.bank, r.localPage * t.alignedPage, r.offset], [bank, off, addr], name);
    assert.equal(t.summary().units?.bytesPerUnit, perBank, name);
  }
  assert.equal(tt({ shape: [64, 100], layout: 'ROW_MAJOR', buffer: 'L1' }).units, 64);
});

test('T4 — block-sharded 2×2: the tech report figure (128×128, shard 64×64)', () => {
  const t = tt({ shape: [128, 128], buffer: 'L1', memory: 'BLOCK_SHARDED', shard: [64, 64], grid: [R(0, 0, 1, 1)], orientation: 'ROW_MAJOR', base: 0x20000 });
  const pages = corePages(t);
  assert.deepEqual(pages.get('core (0,0)'), [0, 1, 4, 5]);
  assert.deepEqual(pages.get('core (1,0)'), [2, 3, 6, 7], 'B.9 #1: not "(0,1): 2, 3, 7, 8"');
  assert.deepEqual(pages.get('core (0,1)'), [8, 9, 12, 13]);
  assert.deepEqual(pages.get('core (1,1)'), [10, 11, 14, 15]);
  // local page k at B + k·2048
  const f = t.forward([32, 96]);
  assert.deepEqual([f.page, f.core, f.localPage, f.address], [7, [1, 0], 3, 0x20000 + 3 * 2048]);
  const col = tt({ shape: [128, 128], buffer: 'L1', memory: 'BLOCK_SHARDED', shard: [64, 64], grid: [R(0, 0, 1, 1)], orientation: 'COL_MAJOR' });
  const cp = corePages(col);
  assert.deepEqual(cp.get('core (0,1)'), [2, 3, 6, 7]);
  assert.deepEqual(cp.get('core (1,0)'), [8, 9, 12, 13]);
  // the seed document's smaller case: 64×64, shard 32×32 on 2×2
  const small = tt({ shape: [64, 64], buffer: 'L1', memory: 'BLOCK_SHARDED', shard: [32, 32], grid: [R(0, 0, 1, 1)] });
  const sp = corePages(small);
  assert.deepEqual([sp.get('core (0,0)'), sp.get('core (1,0)'), sp.get('core (0,1)'), sp.get('core (1,1)')], [[0], [1], [2], [3]]);
  assert.equal(small.summary().units?.bytesPerUnit, 2048);
  for (const c of [
    [0, 0],
    [10, 40],
    [40, 10],
    [63, 63],
  ])
    assert.equal(small.forward(c).address % 2048, small.forward(c).pageByte);
});

test('T5 — height sharding 1024×64 on 8 cores, the row-major variant, edge shards, orientation', () => {
  const t = tt({ shape: [1024, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [128, 64], grid: [R(0, 0, 7, 0)], base: 0 });
  assert.equal(t.pages, 64);
  assert.equal(t.summary().units?.bytesPerUnit, 16 * 1024);
  const cp = corePages(t);
  for (let k = 0; k < 8; k++)
    assert.deepEqual(
      cp.get(`core (${k},0)`),
      Array.from({ length: 8 }, (_, i) => 8 * k + i),
    );
  const f = t.forward([300, 50]);
  assert.deepEqual([f.pageRow, f.pageCol, f.page, f.core, f.localPage, f.offset], [9, 1, 19, [2, 0], 3, 7044]);
  const rm = tt({ shape: [1024, 64], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [128, 64], grid: [R(0, 0, 7, 0)], base: 0 });
  assert.equal(rm.geo.pageSize, 128);
  const g = rm.forward([300, 50]);
  assert.deepEqual([g.core, g.localPage, g.offset], [[2, 0], 44, 5732]);
  // 900×64: padded to 928 rows = 29 tile rows → 8 shards; core 7 holds pages 56, 57 and 6 PADDING slots
  const edge = tt({ shape: [900, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [128, 64], grid: [R(0, 0, 7, 0)] });
  assert.equal(edge.nShards, 8);
  assert.deepEqual(corePages(edge).get('core (7,0)'), [56, 57, -1, -1, -1, -1, -1, -1]);
  assert.equal(edge.summary().units?.bytesPerUnit, 16 * 1024);
  assert.equal(edge.inverse(B + 3 * 2048, 7).kind, 'padding');
  // orientation on a 2-wide grid
  assert.deepEqual(enumerateCores([R(0, 0, 1, 3)], 'ROW_MAJOR').slice(0, 4), [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ]);
  assert.deepEqual(enumerateCores([R(0, 0, 1, 3)], 'COL_MAJOR').slice(0, 5), [
    [0, 0],
    [0, 1],
    [0, 2],
    [0, 3],
    [1, 0],
  ]);
});

test('T6 — edge block shards: 96×96 in 64×64 shards on 2×2', () => {
  const t = tt({ shape: [96, 96], buffer: 'L1', memory: 'BLOCK_SHARDED', shard: [64, 64], grid: [R(0, 0, 1, 1)] });
  const cp = corePages(t);
  assert.deepEqual(cp.get('core (0,0)'), [0, 1, 3, 4]);
  assert.deepEqual(cp.get('core (1,0)'), [2, -1, 5, -1]);
  assert.deepEqual(cp.get('core (0,1)'), [6, 7, -1, -1]);
  assert.deepEqual(cp.get('core (1,1)'), [8, -1, -1, -1]);
  const s = t.summary();
  assert.equal(s.units?.bytesPerUnit, 8 * 1024);
  assert.deepEqual(
    s.units?.pages?.flatMap((g) => new Array(g.to - g.from + 1).fill(g.pages)),
    [4, 2, 2, 1],
  );
});

test('T7 — width-sharded row-major 64×256 on 4 cores', () => {
  const t = tt({ shape: [64, 256], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'WIDTH_SHARDED', shard: [64, 64], grid: [R(0, 0, 3, 0)], base: 0 });
  assert.equal(t.geo.pageSize, 128);
  const f = t.forward([10, 130]);
  assert.equal(f.page, 10 * 4 + 2, 'host page id = row·4 + C');
  assert.deepEqual([f.core, f.localPage, f.offset], [[2, 0], 10, 1284]);
  assert.equal(t.summary().units?.slotsPerUnit, 64);
});

test('T8 — ND sharding (4,4,4) pages in (2,2,2) shards on 4 cores; (4,4,3) in (2,2,3) on 3', () => {
  const t = tt({ shape: [4, 128, 128], buffer: 'L1', memory: 'ND_SHARDED', shard: [2, 64, 64], grid: [R(0, 0, 3, 0)] });
  assert.deepEqual(t.tensorPages, [4, 4, 4]);
  assert.equal(t.nShards, 8);
  const cp = corePages(t);
  assert.deepEqual(cp.get('core (0,0)'), [0, 1, 4, 5, 16, 17, 20, 21, 32, 33, 36, 37, 48, 49, 52, 53]);
  assert.deepEqual(cp.get('core (1,0)')!.slice(0, 8), [2, 3, 6, 7, 18, 19, 22, 23]);
  const u = tt({ shape: [4, 128, 96], buffer: 'L1', memory: 'ND_SHARDED', shard: [2, 64, 96], grid: [R(0, 0, 2, 0)] });
  assert.equal(u.nShards, 4);
  assert.equal(u.perCore, 2);
  const up = corePages(u);
  assert.equal(up.get('core (0,0)')!.filter((p) => p >= 0).length, 24);
  assert.deepEqual(up.get('core (1,0)')!.slice(12), new Array(12).fill(-2), 'a full shard of lockstep space');
  assert.deepEqual(up.get('core (2,0)')!.slice(12), new Array(12).fill(-2));
  // forward agrees with the placement
  const f = t.forward([2, 10, 40]);
  assert.deepEqual([f.shard, f.core, f.localPage], [4, [0, 0], 8 + 1]);
  const g = t.forward([2, 70, 10]);
  assert.deepEqual([g.shard, g.core, g.localPage], [6, [2, 0], 8]);
});

test('B.4 — logical [1,3,50,70] TILE → padded [1,3,64,96] → 192×96 → 18 pages, 36,864 B', () => {
  const t = tt({ shape: [1, 3, 50, 70] });
  assert.deepEqual(t.geo.padded, [1, 3, 64, 96]);
  assert.deepEqual([t.geo.physH, t.geo.physW, t.pages, t.pages * t.geo.pageSize], [192, 96, 18, 36864]);
  assert.equal(t.inverse(B + 20, 2).kind, 'padding', 'page 2 (bank 2) holds columns 64..95; element 10 is column 74: padding');
  assert.deepEqual(t.inverse(B + 10, 2).coord, [0, 0, 0, 69]);
  // [1,1,1,33] TILE → 32×64 = 2 tiles for 33 values (TT015)
  assert.ok(
    validateTT({ arch: WH, shape: [1, 1, 1, 33], dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED' }).some((i) => i.code === 'TT015'),
  );
});

test('B.7 — every catalogue rule fires on its case', () => {
  const base: TTSpec = { arch: WH, shape: [64, 64], dtype: 'bfloat16', layout: 'TILE', buffer: 'L1', memory: 'INTERLEAVED' };
  const cases: [string, Partial<TTSpec>][] = [
    ['TT001', { tile: [64, 64] }],
    ['TT001', { tile: [8, 32], transposeTile: true }],
    ['TT002', { dtype: 'float64' }],
    ['TT002', { dtype: 'bfloat8_b', layout: 'ROW_MAJOR' }],
    ['TT003', { alignment: [32, 48] }],
    ['TT004', { alignment: [1, 32, 32], memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(0, 0, 1, 0)] }],
    ['TT005', { memory: 'HEIGHT_SHARDED', shard: [32, 32], grid: [R(0, 0, 3, 0)] }],
    ['TT005', { memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(0, 0, 0, 0)] }],
    ['TT006', { memory: 'WIDTH_SHARDED', shard: [32, 32], grid: [R(0, 0, 3, 0)] }],
    ['TT006', { memory: 'WIDTH_SHARDED', shard: [64, 32], grid: [R(0, 0, 0, 0)] }],
    ['TT007', { memory: 'BLOCK_SHARDED', shard: [32, 32], grid: [R(0, 0, 0, 1), R(1, 0, 1, 1)] }],
    ['TT007', { memory: 'BLOCK_SHARDED', shard: [32, 32], grid: [R(0, 0, 3, 0)] }],
    ['TT008', { memory: 'BLOCK_SHARDED', shard: [40, 32], grid: [R(0, 0, 1, 1)] }],
    ['TT009', { layout: 'ROW_MAJOR', alignment: [16], memory: 'WIDTH_SHARDED', shard: [64, 24], grid: [R(0, 0, 3, 0)] }],
    ['TT010', { shape: [4, 3], layout: 'ROW_MAJOR' }],
    ['TT011', { memory: 'ND_SHARDED', shard: [32], grid: [R(0, 0, 1, 0)] }],
    ['TT011', { memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [] }],
    ['TT012', { shape: [1024, 1024], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [1024, 1024], grid: [R(0, 0, 0, 0)] }],
    ['TT012', { shape: [32768, 32768], dtype: 'float32', buffer: 'DRAM', arch: withOverrides(WH, { dram_banks: 2 }) }],
    ['TT013', { memory: 'BLOCK_SHARDED', shard: [32, 32], grid: [R(0, 0, 1, 1)], orientation: 'COL_MAJOR', swappedShard: true }],
    ['TT014', { memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(0, 0, 0, 0), R(2, 0, 2, 0)] }],
    ['TT015', { shape: [1, 33] }],
    ['TT016', { buffer: 'DRAM' }],
    ['TT016', { memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(0, 0, 3, 0)] }],
    ['TT017', { buffer: 'DRAM' }],
    ['TT018', { memory: 'BLOCK_SHARDED', shard: [32, 32], grid: [R(0, 0, 2, 2)] }],
    ['TT019', { memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(0, 0, 8, 0)] }],
    ['TT021', { base: 0x1001 }],
  ];
  for (const [code, over] of cases) {
    const got = validateTT({ ...base, ...over }).map((i) => i.code);
    assert.ok(got.includes(code), `${code}: ${JSON.stringify(over)} → ${got}`);
  }
  const fix = validateTT({ ...base, memory: 'BLOCK_SHARDED', shard: [40, 32], grid: [R(0, 0, 1, 1)] }).find((i) => i.code === 'TT008')!;
  assert.deepEqual(fix.fixes?.[0], { title: 'Round shard shape up to tiles: [64, 32]', field: 'shard', newText: '[64, 32]', preferred: true });
  assert.deepEqual(
    validateTT(base).filter((i) => i.severity === 'error'),
    [],
  );
});

test('summary of 2^30 elements by closed form in < 50 ms (interleaved and sharded)', () => {
  for (const s of [
    { shape: [1024, 1024, 1024] },
    {
      shape: [32768, 32768],
      buffer: 'L1' as const,
      memory: 'HEIGHT_SHARDED' as const,
      shard: [512, 32768],
      grid: [R(0, 0, 7, 7)],
      arch: withOverrides(WH, { l1_size: 2 ** 40 }),
    },
    { shape: [32768, 32768], dtype: 'bfloat4_b' as const },
  ]) {
    const t = tt(s);
    let best = Infinity;
    let sum = t.summary();
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      sum = t.summary();
      best = Math.min(best, performance.now() - t0);
    }
    assert.ok(best < 50, `${JSON.stringify(s.shape)}: ${best} ms`);
    assert.equal(sum.elements, 2 ** 30);
    assert.equal(
      sum.bytes,
      Object.values(sum.breakdown).reduce((x, y) => x + y, 0),
    );
  }
});
