/**
 * TT-Metalium batch mapping (`TTLayout.forwardMany`, its kernels in tt/kernels.ts): every coordinate of small
 * tensors against addresses computed here by hand from the definitions — 32×32 bfloat16 tiles of four 16×16 faces
 * (byte in page = face·512 + (r%16)·32 + (c%16)·2), pages round-robin over the 12 DRAM banks of wormhole_b0 (bank =
 * page mod 12, page slot = ⌊page / 12⌋), row-major pages of one row, and sharded layouts (which core holds which page,
 * at which local page). Coordinates outside the tensor give NaN and unit -1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type CoreRange, TTLayout, type TTSpec } from '../../core/layout/models/tt';
import { TT_ARCHS } from '../../core/layout/models/ttArch';

const WH = TT_ARCHS.wormhole_b0;
const B = 0x10000;
const tt = (s: Partial<TTSpec> & { shape: number[] }) =>
  new TTLayout({ arch: WH, dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED', base: B, ...s });
const R = (x0: number, y0: number, x1: number, y1: number): CoreRange => ({ x0, y0, x1, y1 });

/** Byte of element (r, c) inside its 32×32 bfloat16 tile: faces in row order, rows of 16 elements in a face. */
const tileByte = (r: number, c: number) => (((r % 32) >> 4) * 2 + ((c % 32) >> 4)) * 512 + (r % 16) * 32 + (c % 16) * 2;

/** Every coordinate of `shape` (row-major), then a few outside it. */
function coordsOf(shape: readonly number[]): number[][] {
  const out: number[][] = [];
  const total = shape.reduce((a, b) => a * b, 1);
  for (let i = 0; i < total; i++) {
    const c: number[] = [];
    let k = i;
    for (let d = shape.length - 1; d >= 0; d--) {
      c[d] = k % shape[d];
      k = Math.floor(k / shape[d]);
    }
    out.push(c);
  }
  return out;
}

function outside(shape: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let d = 0; d < shape.length; d++) {
    for (const v of [shape[d], -1]) {
      const c = shape.map(() => 0);
      c[d] = v;
      out.push(c);
    }
  }
  return out;
}

/** forwardMany over every coordinate (and outside ones) against `want` = [address, unit]. */
function check(t: TTLayout, want: (c: number[]) => [number, number], label: string): void {
  const inside = coordsOf(t.shape);
  const all = [...inside, ...outside(t.shape)];
  const flat = Int32Array.from(all.flat());
  const units = new Int32Array(all.length);
  const got = t.forwardMany(flat, undefined, units);
  assert.equal(got.length, all.length);
  for (let i = 0; i < inside.length; i++) {
    const [a, u] = want(inside[i]);
    if (got[i] !== a || units[i] !== u) assert.fail(`${label} ${JSON.stringify(inside[i])}: got ${got[i]} unit ${units[i]}, want ${a} unit ${u}`);
  }
  for (let i = inside.length; i < all.length; i++) {
    assert.ok(Number.isNaN(got[i]), `${label} ${JSON.stringify(all[i])}: NaN outside`);
    assert.equal(units[i], -1, `${label} ${JSON.stringify(all[i])}: unit -1 outside`);
  }
  // without units, into a given buffer: the same addresses
  const out = new Float64Array(all.length);
  const again = t.forwardMany(flat, out);
  assert.equal(again, out);
  for (let i = 0; i < inside.length; i++) if (!(again[i] === got[i])) assert.fail(`${label}: second call ${i}`);
}

test('TILE interleaved 128×192 bf16 in DRAM: 24 pages over 12 banks, two page slots per bank', () => {
  const t = tt({ shape: [128, 192] });
  assert.equal(t.alignedPage, 2048);
  check(
    t,
    ([r, c]) => {
      const page = (r >> 5) * 6 + (c >> 5);
      return [B + Math.floor(page / 12) * 2048 + tileByte(r, c), page % 12];
    },
    '128×192',
  );
});

test('TILE interleaved, rank 3 (2×64×64) and rank 4 (2×2×32×64): batches fold into rows of tiles', () => {
  check(
    tt({ shape: [2, 64, 64] }),
    ([a, r, c]) => {
      const page = ((a * 64 + r) >> 5) * 2 + (c >> 5);
      return [B + Math.floor(page / 12) * 2048 + tileByte(r, c), page % 12];
    },
    '2×64×64',
  );
  check(
    tt({ shape: [2, 2, 32, 64] }),
    ([a, b, r, c]) => {
      const page = (a * 2 + b) * 2 + (c >> 5);
      return [B + Math.floor(page / 12) * 2048 + tileByte(r, c), page % 12];
    },
    '2×2×32×64',
  );
});

test('TILE interleaved, rank 1 (80 elements): one row padded to a 32-row tile, three pages', () => {
  check(tt({ shape: [80] }), ([c]) => [B + tileByte(0, c), c >> 5], '80');
});

test('ROW_MAJOR interleaved 30×100 bf16: one page per row (200 B, aligned to 224), bank = row mod 12', () => {
  const t = tt({ shape: [30, 100], layout: 'ROW_MAJOR' });
  assert.equal(t.geo.pageSize, 200);
  assert.equal(t.alignedPage, 224);
  check(t, ([r, c]) => [B + Math.floor(r / 12) * 224 + c * 2, r % 12], '30×100 row-major');
  check(tt({ shape: [3, 4, 10], layout: 'ROW_MAJOR' }), ([a, r, c]) => [B + Math.floor((a * 4 + r) / 12) * 32 + c * 2, (a * 4 + r) % 12], '3×4×10');
});

test('TILE height sharded 256×64 on 4 cores in L1: core = ⌊tile row / 2⌋, local page = (tile row mod 2)·2 + tile col', () => {
  const t = tt({ shape: [256, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [64, 64], grid: [R(0, 0, 3, 0)], base: 0x1000 });
  check(t, ([r, c]) => [0x1000 + (((r >> 5) % 2) * 2 + (c >> 5)) * 2048 + tileByte(r, c), (r >> 5) >> 1], 'height');
});

test('TILE block sharded 128×128 in 64×64 shards on a 2×2 grid (ROW_MAJOR): core = shard row·2 + shard col', () => {
  const t = tt({ shape: [128, 128], buffer: 'L1', memory: 'BLOCK_SHARDED', shard: [64, 64], grid: [R(0, 0, 1, 1)], base: 0x2000 });
  check(
    t,
    ([r, c]) => {
      const pr = r >> 5;
      const pc = c >> 5;
      return [0x2000 + ((pr % 2) * 2 + (pc % 2)) * 2048 + tileByte(r, c), (pr >> 1) * 2 + (pc >> 1)];
    },
    'block',
  );
  // rank 3 folds into the height: 2×64×128 is the same 128×128 page grid
  const t3 = tt({ shape: [2, 64, 128], buffer: 'L1', memory: 'BLOCK_SHARDED', shard: [64, 64], grid: [R(0, 0, 1, 1)], base: 0x2000 });
  check(
    t3,
    ([a, r, c]) => {
      const pr = (a * 64 + r) >> 5;
      const pc = c >> 5;
      return [0x2000 + ((pr % 2) * 2 + (pc % 2)) * 2048 + tileByte(r, c), (pr >> 1) * 2 + (pc >> 1)];
    },
    'block rank 3',
  );
});

test('ROW_MAJOR sharded: width 64×256 on 4 cores (128-byte shard rows), height 96×8 in 32-row shards on 3 cores', () => {
  const w = tt({ shape: [64, 256], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'WIDTH_SHARDED', shard: [64, 64], grid: [R(0, 0, 3, 0)], base: 0 });
  check(w, ([r, c]) => [r * 128 + (c % 64) * 2, c >> 6], 'width row-major');
  const h = tt({ shape: [96, 8], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [32, 8], grid: [R(0, 0, 2, 0)], base: 64 });
  const ap = h.alignedPage;
  assert.equal(h.geo.pageSize, 16);
  check(h, ([r, c]) => [64 + (r % 32) * ap + c * 2, r >> 5], 'height row-major');
});

test('ND sharded 4×128×128 in 2×64×64 shards on 4 cores: shard s → core s mod 4, slot ⌊s/4⌋ of 8 pages', () => {
  const t = tt({ shape: [4, 128, 128], buffer: 'L1', memory: 'ND_SHARDED', shard: [2, 64, 64], grid: [R(0, 0, 3, 0)], base: 0x4000 });
  check(
    t,
    ([a, r, c]) => {
      const s = (a >> 1) * 4 + (r >> 6) * 2 + (c >> 6);
      const local = (a % 2) * 4 + ((r % 64) >> 5) * 2 + ((c % 64) >> 5);
      return [0x4000 + Math.floor(s / 4) * 8 * 2048 + local * 2048 + tileByte(r, c), s % 4];
    },
    'nd rank 3',
  );
});

test('ND sharded rank 2 (128×128 in 64×64 shards on 3 cores) and rank 4 (2×2×64×64 in 1×2×32×64 on 3 cores)', () => {
  const t = tt({ shape: [128, 128], buffer: 'L1', memory: 'ND_SHARDED', shard: [64, 64], grid: [R(0, 0, 2, 0)], base: 0 });
  check(
    t,
    ([r, c]) => {
      const s = (r >> 6) * 2 + (c >> 6);
      const local = ((r % 64) >> 5) * 2 + ((c % 64) >> 5);
      return [Math.floor(s / 3) * 4 * 2048 + local * 2048 + tileByte(r, c), s % 3];
    },
    'nd rank 2',
  );
  // shards: 2 (dim 0) × 1 (dim 1) × 2 (rows: 2 tiles in 1-tile shards) × 1 = 4, each 4 pages (1·2·1·2)
  const u = tt({ shape: [2, 2, 64, 64], buffer: 'L1', memory: 'ND_SHARDED', shard: [1, 2, 32, 64], grid: [R(0, 0, 2, 0)], base: 0 });
  check(
    u,
    ([a, b, r, c]) => {
      const s = a * 2 + (r >> 5);
      const local = b * 2 + (c >> 5);
      return [Math.floor(s / 3) * 4 * 2048 + local * 2048 + tileByte(r, c), s % 3];
    },
    'nd rank 4',
  );
});

test('regions and placements: interleaved pages round-robin (page = slot·12 + bank), row pages, partial edge tiles, shards', () => {
  // 30 row pages over 12 banks: banks 0–5 hold 3, banks 6–11 hold 2 and one unused slot
  const rm = tt({ shape: [30, 100], layout: 'ROW_MAJOR' });
  assert.equal(rm.slotsPerUnit, 3);
  assert.equal(rm.bytesPerUnit, 3 * 224);
  const reg = rm.regions();
  assert.deepEqual([reg.kind, reg.slotName, reg.slotBytes, reg.units.length, reg.units[7].slots, reg.units[7].base], ['banks', 'page', 224, 12, 3, B]);
  const s = reg.slot(5, 2);
  assert.deepEqual([s.kind, s.index, s.elements, s.first], ['data', 29, 100, [29, 0]]);
  assert.equal(reg.slot(6, 2).kind, 'unused');
  assert.deepEqual(reg.slot(6, 1).index, 18);
  assert.deepEqual(
    [...reg.runs(6)].map((r) => [r.kind, r.from, r.to]),
    [
      ['data', 0, 2],
      ['unused', 2, 3],
    ],
  );
  assert.deepEqual(reg.inner, { name: 'row page', rows: 1, cols: 100, bytesPerElement: 2 });
  assert.deepEqual(
    rm.placements().map((p) => [p.space, p.start, p.end, p.capacity, p.units]),
    [['tt:dram', B, B + 672, WH.dramBankSize, undefined]],
  );
  // tiles: page 15 of 128×192 is in bank 3, slot 1 = tile (2, 3); faces in row order
  const t = tt({ shape: [128, 192] }).regions();
  const p = t.slot(3, 1);
  assert.deepEqual([p.kind, p.index, p.elements, p.first], ['data', 15, 1024, [64, 96]]);
  assert.match(p.label, /tile \(2, 3\)/);
  assert.deepEqual(
    t.inner?.blocks?.map((b) => [b.row, b.col, b.rows, b.cols, b.offset]),
    [
      [0, 0, 16, 16, 0],
      [0, 16, 16, 16, 256],
      [16, 0, 16, 16, 512],
      [16, 16, 16, 16, 768],
    ],
  );
  assert.deepEqual([t.inner?.rows, t.inner?.cols, t.inner?.bytesPerElement], [32, 32, 2]);
  // 40×40: page 3 = tile (1, 1) holds rows 32–39 × columns 32–39
  const e = tt({ shape: [40, 40] })
    .regions()
    .slot(3, 0);
  assert.deepEqual([e.kind, e.index, e.elements, e.first], ['partial', 3, 64, [32, 32]]);
  // height sharded 256×64 on 4 L1 cores: core 1 holds tile rows 2–3, its local page 2 = page 6 = tile (3, 0)
  const h = tt({ shape: [256, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [64, 64], grid: [R(0, 0, 3, 0)], base: 0x1000 });
  const hr = h.regions();
  assert.deepEqual([hr.kind, hr.units.length, hr.units[1].slots, hr.units[1].label], ['cores', 4, 4, 'core (1,0)']);
  assert.deepEqual([hr.slot(1, 2).index, hr.slot(1, 2).first], [6, [96, 0]]);
  assert.deepEqual(
    h.placements().map((x) => [x.space, x.start, x.end, x.capacity, x.units]),
    [['tt:l1', 0x1000, 0x1000 + 4 * 2048, WH.l1Size, ['core 0,0', 'core 1,0', 'core 2,0', 'core 3,0']]],
  );
});

test('inverse: every byte of 128×192 back to its element; outside, unused, alignment and tile padding', () => {
  const t = tt({ shape: [128, 192] });
  for (let r = 0; r < 128; r += 3)
    for (let c = 0; c < 192; c += 5) {
      const page = (r >> 5) * 6 + (c >> 5);
      const a = B + Math.floor(page / 12) * 2048 + tileByte(r, c);
      const lo = t.inverse(a, page % 12);
      const hi = t.inverse(a + 1, page % 12);
      if (lo.kind !== 'element' || lo.coord![0] !== r || lo.coord![1] !== c || lo.byteInElement !== 0 || hi.byteInElement !== 1 || hi.coord![1] !== c)
        assert.fail(`(${r}, ${c}) at ${a} in bank ${page % 12}: ${lo.kind} ${lo.coord} ${lo.byteInElement}`);
    }
  assert.equal(t.inverse(B, undefined).kind, 'outside', 'a bank must be named when there are 12');
  for (const [a, u] of [
    [B, 12],
    [B, -1],
    [B - 1, 0],
    [B + 4096, 0],
    [B + 0.5, 0],
  ])
    assert.equal(t.inverse(a, u).kind, 'outside', `${a} in ${u}`);
  assert.equal(t.inverse(B + 4095, 0).kind, 'element');
  // row pages of 200 bytes in 224-byte slots
  const rm = tt({ shape: [30, 100], layout: 'ROW_MAJOR' });
  const e = rm.inverse(B + 224 + 51, 1);
  assert.deepEqual([e.kind, e.coord, e.byteInElement], ['element', [13, 25], 1]);
  assert.equal(rm.inverse(B + 200, 0).kind, 'alignment');
  assert.equal(rm.inverse(B + 223, 0).kind, 'alignment');
  assert.equal(rm.inverse(B + 2 * 224, 6).kind, 'unused');
  assert.deepEqual(rm.inverse(B + 2 * 224 + 198, 5).coord, [29, 99]);
  // 40×40: tile (1, 1) is page 3 in bank 3; its element (8, 8) is (40, 40), tile padding
  const p = tt({ shape: [40, 40] });
  assert.equal(p.inverse(B + 272, 3).kind, 'padding');
  assert.deepEqual(p.inverse(B + tileByte(7, 7), 3).coord, [39, 39]);
  // one core: no unit needed
  const one = tt({ shape: [64, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [64, 64], grid: [R(0, 0, 0, 0)], base: 0 });
  assert.equal(one.unitCount(), 1);
  const f = one.forward([40, 17]);
  assert.deepEqual([f.localPage, f.offset, f.address], [2, 2 * 2048 + tileByte(40, 17), 2 * 2048 + tileByte(40, 17)]);
  assert.deepEqual(one.inverse(2 * 2048 + tileByte(40, 17)).coord, [40, 17]);
});
