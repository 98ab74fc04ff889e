/**
 * The state of a TT-NN buffer (tt/base.ts) seen through TTLayout: a spec with structural errors is refused with
 * every error named, warnings alone do not stop it; pages that are all padding (a batch added by a rank-3
 * alignment, tile rows or columns past the tensor) in the regions; bank and core numbers typed by the user
 * (unitIndex) for each kind of buffer; the faces of a transposed tile. Expected values come from the rules of
 * research layouts.md part B: 32×32 bf16 tiles (2048 B), page p of an interleaved buffer in bank p mod 12 at page
 * slot ⌊p / 12⌋ (Wormhole DRAM), and `x` of a DRAM grid is the bank.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type CoreRange, TTLayout, type TTSpec } from '../../core/layout/models/tt';
import { TT_ARCHS } from '../../core/layout/models/ttArch';
import { LayoutError } from '../../core/layout/util';

const WH = TT_ARCHS.wormhole_b0;
const B = 0x10000;
const GiB = 2 ** 30;
const R = (x0: number, y0: number, x1: number, y1: number): CoreRange => ({ x0, y0, x1, y1 });
const BASE: Omit<TTSpec, 'shape'> = { arch: WH, dtype: 'bfloat16', layout: 'TILE', buffer: 'DRAM', memory: 'INTERLEAVED', base: B };
const spec = (s: Partial<TTSpec> & { shape: number[] }): TTSpec => ({ ...BASE, ...s });

/** Every slot of every unit as [unit, slot, kind, host page, elements, first element]. */
function slots(t: TTLayout): unknown[][] {
  const reg = t.regions();
  const out: unknown[][] = [];
  reg.units.forEach((u, i) => {
    for (let s = 0; s < u.slots; s++) {
      const x = reg.slot(i, s);
      out.push([i, s, x.kind, x.index, x.elements, x.first]);
    }
  });
  return out;
}

test('a spec with structural errors is refused with all of them; warnings alone build the buffer', () => {
  assert.throws(
    () => new TTLayout(spec({ shape: [0, -1] })),
    (e: unknown) => e instanceof LayoutError && e.message === 'dimension 0 is 0; sizes must be integers ≥ 1; dimension 1 is -1; sizes must be integers ≥ 1',
  );
  // TT024 (a grid on an interleaved buffer) is a warning: 64×64 is 4 pages, page 3 in bank 3 at slot 0
  const t = new TTLayout(spec({ shape: [64, 64], grid: [R(0, 0, 1, 0)] }));
  assert.deepEqual([t.units, t.pages, t.forward([32, 32]).bank, t.forward([32, 32]).address], [12, 4, 3, B]);
});

test('regions: a batch added by a rank-3 alignment and the partial tiles of 3×40×40 (alignment [2, 32, 32])', () => {
  // padded [4, 64, 64]: 4 batches × 2 tile rows × 2 tile columns = 16 pages, pr = ⌊p/2⌋, pc = p mod 2, batch = ⌊pr/2⌋;
  // tile row 1 of a batch holds rows 32–39 (8 real rows), tile column 1 columns 32–39 (8 real columns); batch 3 is padding
  const t = new TTLayout(spec({ shape: [3, 40, 40], alignment: [2, 32, 32] }));
  assert.deepEqual([t.pages, t.slotsPerUnit], [16, 2]);
  const real = (p: number): [string, number, number[]] => {
    const pr = p >> 1;
    const rows = pr % 2 ? 8 : 32;
    const cols = p % 2 ? 8 : 32;
    const n = rows * cols;
    return [n === 1024 ? 'data' : 'partial', n, [pr >> 1, (pr % 2) * 32, (p % 2) * 32]];
  };
  const want: unknown[][] = [];
  for (let u = 0; u < 12; u++) {
    const [kind, n, first] = real(u);
    want.push([u, 0, kind, u, n, first]);
    // slot 1 holds page 12 + u: pages 12–15 are batch 3 (padding), 16 and up do not exist
    want.push(u < 4 ? [u, 1, 'padding', 12 + u, 0, undefined] : [u, 1, 'unused', undefined, 0, undefined]);
  }
  assert.deepEqual(slots(t), want);
  assert.equal(t.regions().slot(2, 1).label, 'local page 1: host page 14 = tile (7, 0), 0/1024 elements');
});

test('regions: tile rows past 30 rows and tile columns past 30 columns of a 64×64 alignment hold no element', () => {
  // 30×40 aligned to 64×64: pages 0 (30×32 = 960), 1 (30×8 = 240), 2 and 3 start at row 32 ≥ 30
  assert.deepEqual(slots(new TTLayout(spec({ shape: [30, 40], alignment: [64, 64] }))).slice(0, 4), [
    [0, 0, 'partial', 0, 960, [0, 0]],
    [1, 0, 'partial', 1, 240, [0, 32]],
    [2, 0, 'padding', 2, 0, undefined],
    [3, 0, 'padding', 3, 0, undefined],
  ]);
  // 40×30: pages 1 and 3 start at column 32 ≥ 30; page 2 holds rows 32–39 × columns 0–29
  assert.deepEqual(slots(new TTLayout(spec({ shape: [40, 30], alignment: [64, 64] }))).slice(0, 4), [
    [0, 0, 'partial', 0, 960, [0, 0]],
    [1, 0, 'padding', 1, 0, undefined],
    [2, 0, 'partial', 2, 240, [32, 0]],
    [3, 0, 'padding', 3, 0, undefined],
  ]);
});

test('unitIndex, unitLabel and bankOffsetOf: DRAM banks of a sharded grid, cores of an L1 grid, L1 banks', () => {
  // DRAM height-sharded over banks 3–5: unit i is bank 3 + i; banks 3 and 5 are odd (+1 GiB)
  const d = new TTLayout(spec({ shape: [64, 64], memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(3, 0, 5, 0)] }));
  assert.deepEqual(
    ['2', '3', '4', '5', '6', '4.5', 'x'].map((s) => d.unitIndex(s)),
    [undefined, 0, 1, 2, undefined, undefined, undefined],
  );
  assert.deepEqual([d.unitIndex([4]), d.unitIndex([4, 0]), d.unitIndex([4, 1])], [1, 1, undefined]);
  assert.deepEqual(
    [0, 1, 2].map((u) => [d.unitLabel(u), d.bankOffsetOf(u)]),
    [
      ['DRAM bank 3', GiB],
      ['DRAM bank 4', 0],
      ['DRAM bank 5', GiB],
    ],
  );
  // L1 height-sharded over cores (2,1)-(3,2), x fastest: (2,1) (3,1) (2,2) (3,2); a number is the unit itself, 0..3
  const l = new TTLayout(spec({ shape: [64, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(2, 1, 3, 2)] }));
  assert.deepEqual(
    ['-1', '0', '3', '4', '1.5'].map((s) => l.unitIndex(s)),
    [undefined, 0, 3, undefined, undefined],
  );
  assert.deepEqual([l.unitIndex([2, 1]), l.unitIndex([3, 2]), l.unitIndex([0, 0]), l.unitLabel(2), l.bankOffsetOf(1)], [0, 3, undefined, 'core (2,2)', 0]);
  // L1 interleaved: 64 banks, 0..63
  const i = new TTLayout(spec({ shape: [64, 64], buffer: 'L1' }));
  assert.deepEqual(
    ['-1', '0', '63', '64', '1.5'].map((s) => i.unitIndex(s)),
    [undefined, 0, 63, undefined, undefined],
  );
  assert.deepEqual([i.unitLabel(5), i.bankOffsetOf(5)], ['L1 bank 5', 0]);
});

test('regions: the faces of a transposed 32×32 tile are in column order', () => {
  // transposed: face f at face row f mod 2, face column ⌊f / 2⌋; 256 elements per face
  const inner = new TTLayout(spec({ shape: [32, 32], transposeTile: true })).regions().inner;
  assert.deepEqual(inner, {
    name: 'tile',
    rows: 32,
    cols: 32,
    bytesPerElement: 2,
    blocks: [
      { row: 0, col: 0, rows: 16, cols: 16, offset: 0, label: 'face 0' },
      { row: 16, col: 0, rows: 16, cols: 16, offset: 256, label: 'face 1' },
      { row: 0, col: 16, rows: 16, cols: 16, offset: 512, label: 'face 2' },
      { row: 16, col: 16, rows: 16, cols: 16, offset: 768, label: 'face 3' },
    ],
  });
});

test('a caller that validated the spec (validated = true) gets the buffer built as written: whole rows, or too many shards refused', () => {
  // shard [32, 32] of a 64-wide tensor breaks TT005; built anyway, a HEIGHT shard keeps whole rows: 1 page row × 2 page columns
  const h = spec({ shape: [64, 64], buffer: 'L1', memory: 'HEIGHT_SHARDED', shard: [32, 32], grid: [R(0, 0, 1, 0)], base: 0 });
  assert.throws(() => new TTLayout(h), /HEIGHT sharding keeps whole rows: the shard width must be the physical width 64, not 32/);
  const t = new TTLayout(h, true);
  assert.deepEqual([t.sh, t.sw, t.nRow, t.nCol, t.slotsPerUnit], [1, 2, 2, 1, 2]);
  // page 3 = tile (1, 1): shard 1 on core (1,0), local page 1
  assert.deepEqual([t.forward([32, 32]).core, t.forward([32, 32]).localPage], [[1, 0], 1]);
  // 4 tile rows in 1-row shards on 2 cores: refused even when trusted
  assert.throws(
    () => new TTLayout({ ...h, shape: [128, 64], shard: [32, 64] }, true),
    (e: unknown) => e instanceof LayoutError && e.message === '4 shards but 2 cores',
  );
  // BLOCK 2×2 shards on the 1×2 grid (0,0)-(0,1) (TT007): shard (0,1) needs core (1,0)
  assert.throws(
    () => new TTLayout({ ...h, memory: 'BLOCK_SHARDED', grid: [R(0, 0, 0, 1)] }, true),
    (e: unknown) => e instanceof LayoutError && e.message === 'shard (0,1) needs core (1,0), which is not in the grid',
  );
});

test('the state of each kind of buffer: interleaved has no cores nor shards, 2-D and ND sharding fill their own fields', () => {
  const state = (t: TTLayout) => [t.cores, t.sh, t.sw, t.nRow, t.nCol, t.nShards, t.tensorPages, t.shardPages, t.gridShape, t.shardVol, t.perCore];
  assert.deepEqual(state(new TTLayout(spec({ shape: [64, 64] }))), [[], 0, 0, 0, 0, 0, [], [], [], 0, 0]);
  // 64×96 block-sharded in 32×32: 2×3 shards of one page on (0,0)-(2,1)
  assert.deepEqual(state(new TTLayout(spec({ shape: [64, 96], buffer: 'L1', memory: 'BLOCK_SHARDED', shard: [32, 32], grid: [R(0, 0, 2, 1)] }))), [
    [
      [0, 0],
      [1, 0],
      [2, 0],
      [0, 1],
      [1, 1],
      [2, 1],
    ],
    1,
    1,
    2,
    3,
    6,
    [],
    [],
    [],
    0,
    0,
  ]);
  // [256] ROW_MAJOR ND-sharded in [64] on 3 cores: one row of 4 pages of 64 elements, 4 shards, 2 per core
  const nd = new TTLayout(spec({ shape: [256], layout: 'ROW_MAJOR', buffer: 'L1', memory: 'ND_SHARDED', shard: [64], grid: [R(0, 0, 2, 0)], base: 0 }));
  assert.deepEqual(state(nd), [
    [
      [0, 0],
      [1, 0],
      [2, 0],
    ],
    0,
    0,
    0,
    0,
    4,
    [1, 4],
    [1, 1],
    [1, 4],
    1,
    2,
  ]);
  // element c: shard ⌊c/64⌋ on core shard mod 3, slot ⌊shard/3⌋ of 128 B (64 bf16)
  assert.deepEqual(
    [0, 70, 200, 255].map((c) => {
      const f = nd.forward([c]);
      return [f.shard, f.unit?.index, f.localPage, f.address];
    }),
    [
      [0, 0, 0, 0],
      [1, 1, 0, 12],
      [3, 0, 1, 128 + 16],
      [3, 0, 1, 128 + 126],
    ],
  );
});

test('GRID_2D block sharding on a grid larger than the shards: shard (R, C) on core (x0 + C, y0 + R), the other cores unused', () => {
  // 64×64 in 32×32 shards on (1,1)-(3,3): units in row-major order (x fastest): (1,1)=0 (2,1)=1 (3,1)=2 (1,2)=3 (2,2)=4 …
  const t = new TTLayout(spec({ shape: [64, 64], buffer: 'L1', memory: 'BLOCK_SHARDED', shard: [32, 32], grid: [R(1, 1, 3, 3)], base: 0 }));
  assert.deepEqual(
    slots(t).map((s) => [s[0], s[2], s[3]]),
    [
      [0, 'data', 0],
      [1, 'data', 1],
      [2, 'unused', undefined],
      [3, 'data', 2],
      [4, 'data', 3],
      [5, 'unused', undefined],
      [6, 'unused', undefined],
      [7, 'unused', undefined],
      [8, 'unused', undefined],
    ],
  );
  assert.deepEqual(t.forward([32, 0]).core, [1, 2]);
  // COL_MAJOR: shard (R, C) on core (x0 + R, y0 + C); units y fastest: (1,1)=0 (1,2)=1 (1,3)=2 (2,1)=3 (2,2)=4
  const c = new TTLayout(
    spec({ shape: [64, 64], buffer: 'L1', memory: 'BLOCK_SHARDED', shard: [32, 32], grid: [R(1, 1, 3, 3)], orientation: 'COL_MAJOR', base: 0 }),
  );
  assert.deepEqual(
    slots(c).map((s) => s[3]),
    [0, 1, undefined, 2, 3, undefined, undefined, undefined, undefined],
  );
  assert.deepEqual(c.forward([0, 32]).core, [1, 2]);
});

test('element size, byte, shared exponent and nibble of one element (40, 17) in each tile format', () => {
  // (40, 17) of 64×64: tile (1, 0), in tile (8, 17) = face 1, (8, 1) in it: element 256 + 8·16 + 1 = 385; exponent byte = face·16 + row 8 = 24
  const one = (dtype: TTSpec['dtype']) => {
    const f = new TTLayout(spec({ shape: [64, 64], dtype })).forward([40, 17]);
    return [f.size, f.pageByte, f.exponentByte, f.nibble];
  };
  assert.deepEqual((['float32', 'bfloat16', 'uint16', 'uint8', 'bfloat8_b', 'bfloat4_b'] as const).map(one), [
    [4, 385 * 4, undefined, undefined],
    [2, 385 * 2, undefined, undefined],
    [2, 385 * 2, undefined, undefined],
    [1, 385, undefined, undefined],
    // after 64 exponent bytes (16 rows × 4 faces): one byte per element, no nibble
    [1, 64 + 385, 24, undefined],
    // two per byte: byte ⌊385/2⌋ = 192, odd element → high nibble (1)
    [0.5, 64 + 192, 24, 1],
  ]);
});

test('placements: a DRAM-sharded buffer names its banks, an L1 interleaved one every L1 bank', () => {
  // height-sharded over banks 3–5: 2 page slots (1 tile row × 2 tile columns) = 4096 B per bank from B
  const d = new TTLayout(spec({ shape: [64, 64], memory: 'HEIGHT_SHARDED', shard: [32, 64], grid: [R(3, 0, 5, 0)] }));
  assert.deepEqual(d.placements(), [{ space: 'tt:dram', units: ['bank 3', 'bank 4', 'bank 5'], start: B, end: B + 4096, capacity: GiB, what: '3 banks' }]);
  // 4 pages over 64 L1 banks: one 2048-byte slot in each
  assert.deepEqual(new TTLayout(spec({ shape: [64, 64], buffer: 'L1' })).placements(), [
    { space: 'tt:l1', start: B, end: B + 2048, capacity: WH.l1Size, what: 'every L1 bank' },
  ]);
});

test('regions of ND edge shards: 3×64×64 in 2×32×64 shards on 2 cores, the third batch alone in its shards', () => {
  // pages (3, 2, 2) in shards of (2, 1, 2) pages: shard grid (2, 2, 1), shard s on core s mod 2; page p = batch·4 + tile row·2 + tile col.
  // Shards 2 and 3 hold batch 2 and a batch 3 that does not exist: their last two local pages are PADDING
  const t = new TTLayout(spec({ shape: [3, 64, 64], buffer: 'L1', memory: 'ND_SHARDED', shard: [2, 32, 64], grid: [R(0, 0, 1, 0)], base: 0 }));
  // core 0 holds shards 0 and 2, core 1 shards 1 and 3: four pages each, then two pages and two PADDING slots
  const pages = [
    [0, 1, 4, 5, 8, 9],
    [2, 3, 6, 7, 10, 11],
  ];
  assert.deepEqual(
    slots(t).map((s) => [s[0], s[1], s[2], s[3]]),
    pages.flatMap((held, u) => [...held.map((p, s) => [u, s, 'data', p]), [u, 6, 'padding', undefined], [u, 7, 'padding', undefined]]),
  );
  assert.equal(t.regions().slot(1, 7).label, 'local page 7: PADDING (edge shard 3)');
});
