/**
 * Properties of every layout model on random valid specs (fast-check):
 *  - forward is injective on real elements (distinct unit + address, + nibble for bfloat4_b);
 *  - inverse ∘ forward = identity;
 *  - padding slots = total slots − real elements, and the byte breakdown adds up to the bytes;
 *  - every byte is accounted for: walking every reserved byte with `inverse` gives the breakdown;
 *  - forwardMany agrees with forward (and reports NaN outside the tensor).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DType } from '../../core/layout/dtypes';
import { BYTE_KINDS, type ByteKind, type LayoutModel } from '../../core/layout/model';
import { CellLayout, validateCells } from '../../core/layout/models/cells';
import { SparseLayout } from '../../core/layout/models/sparse';
import { SpyreLayout, type SpyreSpec, validateSpyre } from '../../core/layout/models/spyre';
import { StridedLayout } from '../../core/layout/models/strided';
import { TTLayout, type TTSpec, validateTT } from '../../core/layout/models/tt';
import { TT_ARCHS, withOverrides } from '../../core/layout/models/ttArch';
import { TILE_SHAPES } from '../../core/layout/models/ttTile';
import { cdiv, prod } from '../../core/layout/util';
import { mulberry32 } from '../helpers/rng';

const RUNS = Number(process.env.LAYOUT_PROPERTY_RUNS ?? 60);
fc.configureGlobal({ includeErrorInReport: true });

/** A small deterministic PRNG so one fast-check integer drives a whole spec. */
function rng(seed: number) {
  const next = mulberry32(seed >>> 0 || 1);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const shuffle = <T>(xs: T[]): T[] => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  };
  return { next, int, pick, shuffle };
}

function* coords(shape: readonly number[]): Generator<number[]> {
  const n = prod(shape);
  const c = new Array(shape.length).fill(0);
  for (let k = 0; k < n; k++) {
    yield [...c];
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++c[d] < shape[d]) break;
      c[d] = 0;
    }
  }
}

/** All the properties on one model. */
function checkModel(m: LayoutModel, label: string): void {
  const sum = m.summary();
  assert.equal(sum.paddingSlots, sum.slots - (m.kind === 'sparse' ? sum.slots : sum.elements), `${label}: padding = slots − real`);
  assert.equal(
    Object.values(sum.breakdown).reduce((a, b) => a + b, 0),
    sum.bytes,
    `${label}: breakdown adds up`,
  );
  const seen = new Map<string, number[]>();
  const flat: number[] = [];
  const want: number[] = [];
  const wantUnits: number[] = [];
  for (const c of coords(m.shape)) {
    const f = m.forward(c);
    flat.push(...c);
    want.push(f.address);
    wantUnits.push(f.unit?.index ?? 0);
    if (Number.isNaN(f.address)) continue; // sparse: not stored
    const nib = (f as { nibble?: number }).nibble;
    const key = `${f.unit?.index ?? 0}:${f.address}:${nib ?? ''}`;
    assert.ok(!seen.has(key), `${label}: ${c} and ${seen.get(key)} share ${key}`);
    seen.set(key, c);
    const r = m.inverse(f.address, f.unit?.index);
    assert.equal(r.kind, 'element', `${label}: inverse of ${c} at ${f.address} is ${r.kind} (${r.reason})`);
    if (nib === undefined) assert.deepEqual(r.coord, c, `${label}: inverse(forward(${c}))`);
    else assert.equal(m.forward(r.coord!).address, f.address, `${label}: the byte of ${c} holds ${r.coord}`);
  }
  // forwardMany = forward, NaN outside
  const units = new Int32Array(want.length);
  const got = m.forwardMany(Int32Array.from(flat), undefined, units);
  for (let i = 0; i < want.length; i++) {
    if (Number.isNaN(want[i])) assert.ok(Number.isNaN(got[i]), `${label}: forwardMany[${i}]`);
    else {
      assert.equal(got[i], want[i], `${label}: forwardMany[${i}]`);
      if (m.unitCount() > 1 && m.kind !== 'sparse') assert.equal(units[i], wantUnits[i], `${label}: forwardMany unit[${i}]`);
    }
  }
  if (m.shape.length) {
    const bad = m.forwardMany(Int32Array.from([...m.shape.slice(0, -1).map(() => 0), m.shape[m.shape.length - 1]]));
    assert.ok(Number.isNaN(bad[0]), `${label}: forwardMany outside`);
  }
  // every byte accounted for
  const counts: Record<string, number> = Object.fromEntries(BYTE_KINDS.map((k) => [k, 0]));
  const ranges: { unit?: number; start: number; end: number }[] = [];
  const pl = m.placements();
  if (m.kind === 'sparse') pl.forEach((p, i) => ranges.push({ unit: i, start: p.start, end: p.end }));
  else if (m.unitCount() > 1) for (let u = 0; u < m.unitCount(); u++) ranges.push({ unit: u, start: pl[0].start, end: pl[0].end });
  else ranges.push({ start: pl[0].start, end: pl[0].end });
  for (const rg of ranges) {
    for (let a = rg.start; a < rg.end; a++) {
      const r = m.inverse(a, rg.unit);
      assert.notEqual(r.kind, 'outside', `${label}: byte ${a} of unit ${rg.unit} is reserved but inverse says outside`);
      counts[r.kind]++;
    }
    assert.equal(m.inverse(rg.end, rg.unit).kind, 'outside', `${label}: past the end`);
    assert.equal(m.inverse(rg.start - 1, rg.unit).kind, 'outside', `${label}: before the start`);
  }
  for (const k of BYTE_KINDS)
    assert.equal(counts[k], sum.breakdown[k as ByteKind], `${label}: ${k} bytes (walk ${JSON.stringify(counts)} vs summary ${JSON.stringify(sum.breakdown)})`);
  // regions classify every slot without throwing; data slots hold elements
  const reg = m.regions();
  for (let u = 0; u < reg.units.length; u++) {
    let slots = 0;
    for (const run of reg.runs(u)) slots += run.to - run.from;
    assert.equal(slots, reg.units[u].slots, `${label}: runs cover unit ${u}`);
  }
}

// ---------------------------------------------------------------------------------------------
// generators

function spyreSpec(seed: number): SpyreSpec {
  const R = rng(seed);
  const dtype = R.pick(['float16', 'float32', 'int8', 'int64'] as DType[]);
  const eps = dtype === 'int8' ? 128 : dtype === 'float16' ? 64 : 32;
  const rank = R.int(0, 3);
  const shape = Array.from({ length: rank }, () => R.int(1, rank === 3 ? 9 : 40));
  const kind = rank === 0 ? 'default' : R.pick(['default', 'dim_map', 'stride_map', 'default'] as const);
  if (kind === 'default') {
    const order = R.shuffle(shape.map((_, i) => i));
    const dimOrder = R.next() < 0.4 ? undefined : R.next() < 0.3 ? [...order, -1] : order;
    return { shape, dtype, layout: { kind: 'default', dimOrder } };
  }
  // explicit tiling: each host dim gets 1 or 2 digits; the stick host dim's inner digit is the stick
  const s = R.int(0, rank - 1);
  const digits: { d: number; size: number; inner: boolean }[] = [];
  for (let d = 0; d < rank; d++) {
    if (d === s) {
      digits.push({ d, size: cdiv(shape[d], eps) + R.int(0, 1), inner: false });
      continue;
    }
    if (shape[d] > 2 && R.next() < 0.5) {
      const inner = R.int(2, 4);
      digits.push({ d, size: cdiv(shape[d], inner) + R.int(0, 1), inner: false }, { d, size: inner, inner: true });
    } else digits.push({ d, size: shape[d] + R.int(0, 1), inner: false });
  }
  // random order, but a host dim's outer digit stays left of its inner digit
  const order = R.shuffle(digits.map((_, i) => i));
  const placed: typeof digits = [];
  for (const i of order) {
    const g = digits[i];
    if (g.inner) {
      const outerPos = placed.findIndex((x) => x.d === g.d && !x.inner);
      if (outerPos < 0) placed.unshift(g);
      else placed.splice(outerPos + 1 + R.int(0, placed.length - outerPos - 1), 0, g);
    } else {
      const innerPos = placed.findIndex((x) => x.d === g.d && x.inner);
      placed.splice(innerPos < 0 ? R.int(0, placed.length) : R.int(0, innerPos), 0, g);
    }
  }
  const deviceSize = [...placed.map((x) => x.size), eps];
  const dimMap = [...placed.map((x) => x.d), s];
  if (kind === 'dim_map') return { shape, dtype, layout: { kind: 'dim_map', deviceSize, dimMap } };
  const m = new SpyreLayout({ shape, dtype, layout: { kind: 'dim_map', deviceSize, dimMap } });
  return { shape, dtype, layout: { kind: 'stride_map', deviceSize, strideMap: [...m.strideMap] } };
}

const ARCHS = [
  TT_ARCHS.wormhole_b0,
  TT_ARCHS.blackhole,
  TT_ARCHS.grayskull,
  withOverrides(TT_ARCHS.wormhole_b0, { grid: [4, 2], dram_banks: 3 }, 'small'),
  withOverrides(TT_ARCHS.blackhole, { grid: [3, 3], l1_alignment: 32 }, 'small_bh'),
];

function ttSpec(seed: number): TTSpec {
  const R = rng(seed);
  const arch = R.pick(ARCHS);
  const dtype = R.pick(['bfloat16', 'float32', 'uint8', 'bfloat8_b', 'bfloat4_b', 'bfloat16'] as DType[]);
  const block = dtype === 'bfloat8_b' || dtype === 'bfloat4_b';
  const layout = block || R.next() < 0.6 ? 'TILE' : 'ROW_MAJOR';
  const [tH, tW] = layout === 'TILE' ? (R.next() < 0.5 ? [32, 32] : R.pick(TILE_SHAPES)) : [1, 1];
  const rank = R.int(1, 3);
  const shape = Array.from({ length: rank }, (_, i) => (i < rank - 2 ? R.int(1, 3) : R.int(1, 70)));
  const memory = R.pick(['INTERLEAVED', 'INTERLEAVED', 'HEIGHT_SHARDED', 'WIDTH_SHARDED', 'BLOCK_SHARDED', 'ND_SHARDED'] as const);
  const buffer = memory === 'INTERLEAVED' ? R.pick(['DRAM', 'L1'] as const) : R.next() < 0.2 && memory === 'WIDTH_SHARDED' ? 'DRAM' : 'L1';
  const spec: TTSpec = {
    arch,
    shape,
    dtype,
    layout,
    tile: [tH, tW],
    buffer,
    memory,
    base: R.int(0, 3) * 64 * 16,
    orientation: R.pick(['ROW_MAJOR', 'COL_MAJOR'] as const),
  };
  if (memory === 'INTERLEAVED') return spec;
  const H = rank >= 2 ? shape.slice(0, -2).reduce((p, x) => p * x, 1) * Math.ceil(shape[rank - 2] / tH) * tH : tH;
  const W = Math.ceil(shape[rank - 1] / tW) * tW;
  const gx = buffer === 'DRAM' ? arch.dramBanks : arch.grid.x;
  const gy = buffer === 'DRAM' ? 1 : arch.grid.y;
  const line = (n: number) => {
    const w = Math.min(n, gx);
    return [{ x0: 0, y0: 0, x1: w - 1, y1: Math.ceil(n / w) - 1 }];
  };
  if (memory === 'HEIGHT_SHARDED') {
    const sh = tH * R.int(1, 3);
    spec.shard = [sh, W];
    spec.grid = line(Math.min(gx * gy, Math.ceil(H / sh) + R.int(0, 1)));
  } else if (memory === 'WIDTH_SHARDED') {
    const sw = layout === 'TILE' ? tW * R.int(1, 2) : R.int(1, 40);
    spec.shard = [H, sw];
    spec.grid = line(Math.min(gx * gy, Math.ceil(shape[rank - 1] / sw) + R.int(0, 1)));
  } else if (memory === 'BLOCK_SHARDED') {
    const sh = tH * R.int(1, 2);
    const sw = layout === 'TILE' ? tW * R.int(1, 2) : R.int(4, 40);
    spec.shard = [sh, sw];
    const nRow = Math.ceil(H / sh);
    const nCol = Math.ceil(shape[rank - 1] / sw);
    const [nx, ny] = spec.orientation === 'ROW_MAJOR' ? [nCol, nRow] : [nRow, nCol];
    spec.grid = [{ x0: 0, y0: 0, x1: nx - 1, y1: ny - 1 }];
  } else {
    const pageDims = shape.map((_, d) => (d === rank - 1 ? 0 : d === rank - 2 ? tH : 1));
    const sw = layout === 'TILE' ? tW * R.int(1, 2) : R.int(1, 40);
    spec.shard = shape.map((s, d) => (d === rank - 1 ? sw : d === rank - 2 ? pageDims[d] * R.int(1, 2) : R.int(1, s)));
    spec.grid = line(R.int(1, 5));
  }
  return spec;
}

// ---------------------------------------------------------------------------------------------

test('Spyre: default, dim_map and stride_map layouts', () => {
  fc.assert(
    fc.property(fc.integer(), (seed) => {
      const spec = spyreSpec(seed);
      const errs = validateSpyre(spec).filter((i) => i.severity === 'error');
      assert.deepEqual(errs, [], JSON.stringify(spec));
      const m = new SpyreLayout(spec);
      fc.pre(m.allocBytes <= 300_000);
      checkModel(m, JSON.stringify(spec));
    }),
    { numRuns: RUNS },
  );
});

test('TT: interleaved, height/width/block sharded with edge shards, ND, all tiles and block floats', () => {
  fc.assert(
    fc.property(fc.integer(), (seed) => {
      const spec = ttSpec(seed);
      const errs = validateTT(spec).filter((i) => i.severity === 'error');
      fc.pre(errs.length === 0);
      const m = new TTLayout(spec);
      fc.pre(m.units * m.bytesPerUnit <= 60_000 && m.numel <= 4000);
      checkModel(m, JSON.stringify({ ...spec, arch: spec.arch.name }));
    }),
    { numRuns: RUNS },
  );
});

test('16-byte cells: any order, dtype and base', () => {
  fc.assert(
    fc.property(fc.integer(), (seed) => {
      const R = rng(seed);
      const rank = R.int(1, 4);
      const shape = Array.from({ length: rank }, () => R.int(1, rank > 2 ? 6 : 40));
      const dtype = R.pick(['int8', 'int16', 'float16', 'float32', 'int32'] as DType[]);
      const spec = { shape, dtype, order: R.next() < 0.5 ? R.shuffle(shape.map((_, i) => i)) : undefined, base: 16 * R.int(0, 20) };
      assert.deepEqual(
        validateCells(spec).filter((i) => i.severity === 'error'),
        [],
      );
      checkModel(new CellLayout(spec), JSON.stringify(spec));
    }),
    { numRuns: RUNS },
  );
});

test('PyTorch strided: permuted strides with gaps, offsets and broadcast dims', () => {
  fc.assert(
    fc.property(fc.integer(), (seed) => {
      const R = rng(seed);
      const rank = R.int(1, 3);
      const shape = Array.from({ length: rank }, () => R.int(1, 6));
      const strides = new Array<number>(rank);
      let span = 1;
      for (const d of R.shuffle(shape.map((_, i) => i))) {
        strides[d] = span + R.int(0, 2);
        span = strides[d] * shape[d];
      }
      if (R.next() < 0.2) strides[R.int(0, rank - 1)] = 0;
      const offset = R.int(0, 5);
      const need = offset + shape.reduce((a, n, i) => a + (n - 1) * strides[i], 0) + 1;
      const spec = {
        shape,
        strides,
        offset,
        dtype: R.pick(['float32', 'int8', 'float16'] as DType[]),
        base: 8 * R.int(0, 4),
        storage: R.next() < 0.5 ? undefined : need + R.int(0, 4),
      };
      const m = new StridedLayout(spec);
      if (m.overlapping) {
        // a view with a broadcast dim is not injective: check the other properties on its distinct elements
        const sum = m.summary();
        assert.equal(
          Object.values(sum.breakdown).reduce((a, b) => a + b, 0),
          sum.bytes,
        );
        for (const c of coords(shape)) assert.equal(m.forward(m.inverse(m.forward(c).address).coord!).address, m.forward(c).address);
        return;
      }
      checkModel(m, JSON.stringify(spec));
    }),
    { numRuns: RUNS },
  );
});

/** Fiber pointers and indices of a random sparse tensor of `shape` (one density for all its fibers). */
function randomFibers(R: ReturnType<typeof rng>, shape: number[]): { ptr: number[]; index: number[] } {
  const rank = shape.length;
  const F = prod(shape, 0, rank - 1);
  const ptr = [0];
  const index: number[] = [];
  const density = R.next();
  for (let f = 0; f < F; f++) {
    for (let j = 0; j < shape[rank - 1]; j++) if (R.next() < density) index.push(j);
    ptr.push(index.length);
  }
  return { ptr, index };
}

test('fibered sparse: random fibers and bases', () => {
  fc.assert(
    fc.property(fc.integer(), (seed) => {
      const R = rng(seed);
      const rank = R.int(1, 3);
      const shape = Array.from({ length: rank }, () => R.int(1, 6));
      const { ptr, index } = randomFibers(R, shape);
      const m = new SparseLayout({ placement: { shape, ptr, index, mainBase: R.int(0, 10), metaBase: R.int(0, 10) } });
      checkModel(m, JSON.stringify({ shape, ptr, index }));
    }),
    { numRuns: RUNS },
  );
});

test('fibered sparse: batch mapping over many bitmap records (positions past 128, every word of a record) equals forward', () => {
  fc.assert(
    fc.property(fc.integer(), (seed) => {
      const R = rng(seed);
      const rank = R.int(1, 4);
      const shape = Array.from({ length: rank }, (_, d) => (d === rank - 1 ? R.int(1, 300) : R.int(1, 5)));
      const { ptr, index } = randomFibers(R, shape);
      const m = new SparseLayout({ placement: { shape, ptr, index, mainBase: R.int(0, 10), metaBase: 0 } });
      const all = [...coords(shape)];
      const got = m.forwardMany(Int32Array.from(all.flat()));
      all.forEach((c, i) => {
        const want = m.forward(c).address;
        if (Number.isNaN(want)) assert.ok(Number.isNaN(got[i]), `${JSON.stringify(shape)} ${c}: not stored`);
        else assert.equal(got[i], want, `${JSON.stringify(shape)} ${c}`);
      });
    }),
    { numRuns: RUNS },
  );
});

test('TT ND sharding: batch mapping of rank-4 tensors (the general loop) equals forward, cores included', () => {
  fc.assert(
    fc.property(fc.integer(), (seed) => {
      const R = rng(seed);
      const shape = [R.int(1, 3), R.int(1, 3), R.int(1, 40), R.int(1, 40)];
      const shard = [R.int(1, 3), R.int(1, 3), 32 * R.int(1, 2), 32 * R.int(1, 2)];
      const spec: TTSpec = {
        arch: ARCHS[0],
        shape,
        dtype: 'bfloat16',
        layout: 'TILE',
        tile: [32, 32],
        buffer: 'L1',
        memory: 'ND_SHARDED',
        shard,
        grid: [{ x0: 0, y0: 0, x1: R.int(0, 4), y1: R.int(0, 1) }],
        base: 0,
        orientation: 'ROW_MAJOR',
      };
      const m = new TTLayout(spec);
      const all = [...coords(shape)];
      const units = new Int32Array(all.length);
      const got = m.forwardMany(Int32Array.from(all.flat()), undefined, units);
      all.forEach((c, i) => {
        const f = m.forward(c);
        assert.equal(got[i], f.address, `${JSON.stringify(spec.shard)} ${c}`);
        assert.equal(units[i], f.unit!.index, `${JSON.stringify(spec.shard)} ${c}: core`);
      });
    }),
    { numRuns: RUNS },
  );
});
