/**
 * TT-Metalium / TT-NN buffers (research layouts.md part B): ROW_MAJOR or TILE pages (tiles made of
 * 16×16-ish faces, block-float exponents), logical → padded → 2-D physical shape, interleaved over
 * DRAM or L1 banks, HEIGHT/WIDTH/BLOCK sharded over a core grid with partial edge shards, and ND
 * sharding (round-robin of ND shards over cores).
 */
import { type DType, TT_DTYPES, type TTDtypeInfo } from '../dtypes';
import { issue, type Issue } from '../issues';
import {
  type Breakdown,
  checkManyInput,
  emptyBreakdown,
  type ForwardBase,
  type InverseResult,
  type LayoutModel,
  type LayoutSummary,
  type Placement,
  type Regions,
  runsOf,
  type Slot,
  type Step,
  type UnitGroup,
  type UnitRef,
} from '../model';
import {
  bytes,
  cdiv,
  CoordError,
  coordProblem,
  hex,
  LayoutError,
  list,
  log2i,
  num,
  percent,
  plural,
  prod,
  ravel,
  rmStrides,
  roundUp,
  safe,
  tuple,
  unravel,
} from '../util';
import type { TTArch } from './ttArch';
import { TABLE_LIMIT, mapLinear } from '../fast';
import { exponentBytes, fromTileElem, inTile, realDataBytes, TILE_SHAPES, tileBytes, tileDataBytes, type TileGeometry, tileGeometry } from './ttTile';

export type TTMemory = 'INTERLEAVED' | 'HEIGHT_SHARDED' | 'WIDTH_SHARDED' | 'BLOCK_SHARDED' | 'ND_SHARDED';
export type TTOrientation = 'ROW_MAJOR' | 'COL_MAJOR';

/** Inclusive core range `(x0,y0)-(x1,y1)`; x = column, y = row of the worker grid. */
export interface CoreRange {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface TTSpec {
  arch: TTArch;
  shape: number[];
  dtype: DType;
  layout: 'TILE' | 'ROW_MAJOR';
  /** Tile height × width (default 32×32). */
  tile?: [number, number];
  transposeTile?: boolean;
  buffer: 'DRAM' | 'L1';
  memory: TTMemory;
  /** Shard shape in elements: [height, width] for 2-D sharding, one entry per dim for ND. */
  shard?: number[];
  grid?: CoreRange[];
  orientation?: TTOrientation;
  /** Custom alignment of the last dims (legacy `Alignment`). */
  alignment?: number[];
  /** Buffer address: the same in every bank / core. */
  base?: number;
  /** Set when `create_sharded_memory_config(use_height_and_width_as_shard_shape=True, COL_MAJOR)` swapped the shard. */
  swappedShard?: boolean;
}

export const isSharded = (m: TTMemory): boolean => m !== 'INTERLEAVED';
export const rangeText = (r: CoreRange): string => `(${r.x0},${r.y0})-(${r.x1},${r.y1})`;

/** `corerange_to_cores`: each range on its own, ROW_MAJOR → x fastest, COL_MAJOR → y fastest; ranges concatenated. */
export function enumerateCores(grid: readonly CoreRange[], orientation: TTOrientation): [number, number][] {
  const out: [number, number][] = [];
  for (const r of grid) {
    const w = r.x1 - r.x0 + 1;
    const h = r.y1 - r.y0 + 1;
    for (let i = 0; i < w * h; i++)
      out.push(orientation === 'ROW_MAJOR' ? [r.x0 + (i % w), r.y0 + Math.floor(i / w)] : [r.x0 + Math.floor(i / h), r.y0 + (i % h)]);
  }
  return out;
}

interface Geometry {
  g?: TileGeometry;
  info: TTDtypeInfo;
  /** Shape with at least 2 dims (a 1-D tensor is one row). */
  shape2: number[];
  align: number[];
  padded: number[];
  physH: number;
  physW: number;
  pageH: number;
  pageW: number;
  pageSize: number;
  Hp: number;
  Wp: number;
}

function geometry(spec: TTSpec): Geometry {
  const info = TT_DTYPES[spec.dtype]!;
  const g = spec.layout === 'TILE' ? tileGeometry(spec.tile?.[0] ?? 32, spec.tile?.[1] ?? 32, spec.transposeTile) : undefined;
  const shape2 = spec.shape.length === 1 ? [1, spec.shape[0]] : [...spec.shape];
  const r2 = shape2.length;
  const shardW = spec.shard?.[spec.shard.length - 1] ?? 1;
  const align =
    spec.alignment ?? (g ? [g.tH, g.tW] : spec.memory === 'WIDTH_SHARDED' || spec.memory === 'BLOCK_SHARDED' || spec.memory === 'ND_SHARDED' ? [shardW] : [1]);
  const padded = shape2.map((s, i) => roundUp(s, align[i - (r2 - align.length)] ?? 1));
  const physW = padded[r2 - 1];
  const physH = prod(padded, 0, r2 - 1);
  const pageH = g ? g.tH : 1;
  const pageW = g ? g.tW : spec.memory === 'INTERLEAVED' || spec.memory === 'HEIGHT_SHARDED' ? physW : shardW;
  const pageSize = g ? tileBytes(g, info) : pageW * info.rmBytes;
  return { g, info, shape2, align, padded, physH, physW, pageH, pageW, pageSize, Hp: physH / pageH, Wp: physW / pageW };
}

const isInt = (v: number, min = 1) => Number.isInteger(v) && v >= min;

/** Structural rules (B.7) that must hold before a buffer can be built. */
export function structuralTT(spec: TTSpec): Issue[] {
  const out: Issue[] = [];
  const info = TT_DTYPES[spec.dtype];
  if (!info) {
    out.push(
      issue(
        'TT002',
        'error',
        `TT-NN does not support ${spec.dtype}; supported: bfloat16, float32, uint32, int32, uint16, uint8, bfloat8_b, bfloat4_b`,
        '@dtype',
      ),
    );
    return out;
  }
  if (info.blockFloat && spec.layout !== 'TILE')
    out.push(
      issue('TT002', 'error', `${spec.dtype} is a block-float format and exists only in TILE layout (validate_dtype_and_layout)`, 'layout', {
        fixes: [{ title: 'Use TILE layout', field: 'layout', newText: 'TILE', preferred: true }],
      }),
    );
  if (spec.shape.length === 0) out.push(issue('TT023', 'error', 'a TT-NN buffer needs at least one dimension', '@shape'));
  spec.shape.forEach((s, i) => {
    if (!isInt(s)) out.push(issue('TT023', 'error', `dimension ${i} is ${s}; sizes must be integers ≥ 1`, '@shape', { index: i }));
  });
  const A = spec.arch;
  if (spec.layout === 'TILE') {
    const [tH, tW] = spec.tile ?? [32, 32];
    const g = tileGeometry(tH, tW, spec.transposeTile);
    if (!g)
      out.push(
        issue('TT001', 'error', `tile ${tH}×${tW} is not valid for TT hardware; supported: ${TILE_SHAPES.map((t) => `${t[0]}x${t[1]}`).join(', ')}`, 'tile', {
          fixes: [{ title: 'Use 32×32 tiles', field: 'tile', newText: '32x32' }],
        }),
      );
    if (spec.transposeTile && tH !== 16 && tH !== 32)
      out.push(issue('TT001', 'error', `transpose_tile needs tile height 16 or 32 (this is ${tH})`, 'transpose_tile'));
    if (spec.transposeTile && info.blockFloat)
      out.push(
        issue(
          'TT022',
          'error',
          `transpose_tile with block-float ${spec.dtype} is not modelled (the shared-exponent order of transposed faces is not documented)`,
          'transpose_tile',
        ),
      );
    if (g && spec.alignment) {
      const a = spec.alignment;
      if (a.length < 2 || a[a.length - 1] % tW !== 0 || a[a.length - 2] % tH !== 0)
        out.push(
          issue(
            'TT003',
            'error',
            `TILE alignment ${list(a)}: the innermost entry must be a multiple of the tile width ${tW} and the second-innermost a multiple of the tile ` +
              `height ${tH}`,
            'alignment',
            { fixes: [{ title: `Use ${list([tH, tW])}`, field: 'alignment', newText: list([tH, tW]), preferred: true }] },
          ),
        );
    }
  }
  if (spec.alignment?.some((v) => !isInt(v))) out.push(issue('TT003', 'error', 'alignment entries must be integers ≥ 1', 'alignment'));
  if (spec.alignment && isSharded(spec.memory) && spec.alignment.length > 2)
    out.push(issue('TT004', 'error', `Tensor must be interleaved if alignment has rank greater than 2! (alignment ${list(spec.alignment)})`, 'alignment'));
  const align = spec.buffer === 'DRAM' ? A.dramAlignment : A.l1Alignment;
  if (spec.base !== undefined && spec.base % align !== 0) {
    const up = roundUp(spec.base, align);
    out.push(
      issue('TT021', 'error', `${spec.buffer} buffers start on a ${align}-byte boundary on ${A.name}; ${hex(spec.base)} is not (use ${hex(up)})`, '@at', {
        fixes: [{ title: `Round up to ${hex(up)}`, field: '@at', newText: hex(up), preferred: true }],
      }),
    );
  }
  if (out.some((i) => i.severity === 'error')) return out;
  if (!isSharded(spec.memory)) {
    if (spec.shard || spec.grid?.length)
      out.push(issue('TT024', 'warning', 'shard and grid are ignored for an interleaved buffer', spec.shard ? 'shard' : 'grid'));
    return out;
  }
  // sharded
  const grid = spec.grid ?? [];
  if (!grid.length) out.push(issue('TT011', 'error', 'a sharded buffer needs a non-empty core grid, e.g. grid=(0,0)-(7,0)', 'grid'));
  const bound =
    spec.buffer === 'DRAM'
      ? { x: A.dramBanks, y: 1, what: `the ${A.dramBanks} DRAM banks (x = bank, y = 0)` }
      : { x: A.grid.x, y: A.grid.y, what: `the ${A.grid.x}×${A.grid.y} compute grid of ${A.name}` };
  for (const r of grid) {
    if (![r.x0, r.y0, r.x1, r.y1].every((v) => isInt(v, 0)) || r.x1 < r.x0 || r.y1 < r.y0)
      out.push(issue('TT019', 'error', `core range ${rangeText(r)} is not a range: corners are (x0,y0)-(x1,y1) with x0 ≤ x1 and y0 ≤ y1`, 'grid'));
    else if (r.x1 >= bound.x || r.y1 >= bound.y) out.push(issue('TT019', 'error', `core range ${rangeText(r)} leaves ${bound.what}`, 'grid'));
  }
  for (let i = 0; i < grid.length; i++)
    for (let j = i + 1; j < grid.length; j++) {
      const a = grid[i];
      const b = grid[j];
      if (a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1)
        out.push(issue('TT019', 'error', `core ranges ${rangeText(a)} and ${rangeText(b)} overlap`, 'grid'));
    }
  const shard = spec.shard;
  if (!shard) {
    out.push(
      issue(
        'TT011',
        'error',
        spec.memory === 'ND_SHARDED'
          ? 'an ND-sharded buffer needs a shard shape with one entry per tensor dim'
          : 'a sharded buffer needs a shard shape [height, width]',
        'shard',
      ),
    );
    return out;
  }
  shard.forEach((s, i) => {
    if (!isInt(s))
      out.push(issue('TT011', 'error', `shard[${i}] is ${s}; shard sizes must be integers ≥ 1 (the shard volume must not be 0)`, 'shard', { index: i }));
  });
  if (spec.memory === 'ND_SHARDED') {
    if (shard.length !== spec.shape.length)
      out.push(issue('TT011', 'error', `ND sharding needs a shard of the tensor's rank ${spec.shape.length}; this shard has ${shard.length} entries`, 'shard'));
  } else if (shard.length !== 2)
    out.push(
      issue(
        'TT025',
        'error',
        `${spec.memory} sharding takes a 2-D shard [height, width] of the folded 2-D tensor; this has ${shard.length} entries (use nd_sharded for an N-D ` +
          'shard)',
        'shard',
      ),
    );
  if (out.some((i) => i.severity === 'error')) return out;
  const [tH, tW] = spec.layout === 'TILE' ? (spec.tile ?? [32, 32]) : [1, 1];
  const sh = shard[shard.length - 2] ?? 1;
  const sw = shard[shard.length - 1];
  if (spec.layout === 'TILE' && (sh % tH !== 0 || sw % tW !== 0)) {
    const fixed = [...shard.slice(0, -2), roundUp(sh, tH), roundUp(sw, tW)];
    out.push(
      issue(
        'TT008',
        'error',
        `shard ${list(shard)} is not a whole number of ${tH}×${tW} tiles (pages): the last two shard dims must be multiples of the tile (e.g. ${list(fixed)})`,
        'shard',
        { fixes: [{ title: `Round shard shape up to tiles: ${list(fixed)}`, field: 'shard', newText: list(fixed), preferred: true }] },
      ),
    );
  }
  if (spec.layout === 'ROW_MAJOR' && spec.alignment && (spec.memory === 'WIDTH_SHARDED' || spec.memory === 'BLOCK_SHARDED')) {
    const aw = spec.alignment[spec.alignment.length - 1];
    if (sw % aw !== 0)
      out.push(
        issue('TT009', 'error', `ROW_MAJOR ${spec.memory}: the shard width ${sw} must be a multiple of the width alignment ${aw}`, 'shard', {
          index: shard.length - 1,
        }),
      );
  }
  if (out.some((i) => i.severity === 'error')) return out;
  if (spec.memory === 'ND_SHARDED') return out;
  const geo = geometry(spec);
  const cores = enumerateCores(grid, spec.orientation ?? 'ROW_MAJOR').length;
  const pageH = geo.pageH;
  if (spec.memory === 'HEIGHT_SHARDED') {
    if (sw !== geo.physW)
      out.push(
        issue('TT005', 'error', `HEIGHT sharding keeps whole rows: the shard width must be the physical width ${geo.physW}, not ${sw}`, 'shard', {
          index: 1,
          fixes: [{ title: `Set the shard width to ${geo.physW}`, field: 'shard', newText: list([sh, geo.physW]), preferred: true }],
        }),
      );
    const n = cdiv(geo.physH, sh);
    if (n > cores) {
      const want = roundUp(cdiv(geo.physH, cores), pageH);
      out.push(
        issue(
          'TT005',
          'error',
          `${geo.physH} physical rows in shards of ${sh} make ${n} shards but the grid has ${plural(cores, 'core')}; a shard height of at least ${want} fits`,
          'shard',
          { index: 0, fixes: [{ title: `Set the shard height to ${want}`, field: 'shard', newText: list([want, sw]), preferred: true }] },
        ),
      );
    }
  } else if (spec.memory === 'WIDTH_SHARDED') {
    if (sh !== geo.physH)
      out.push(
        issue('TT006', 'error', `WIDTH sharding keeps whole columns: the shard height must be the physical height ${geo.physH}, not ${sh}`, 'shard', {
          index: 0,
          fixes: [{ title: `Set the shard height to ${geo.physH}`, field: 'shard', newText: list([geo.physH, sw]), preferred: true }],
        }),
      );
    const W = spec.layout === 'TILE' ? geo.physW : geo.shape2[geo.shape2.length - 1];
    const n = cdiv(W, sw);
    if (n > cores) {
      const want = roundUp(cdiv(W, cores), tW);
      out.push(
        issue(
          'TT006',
          'error',
          `width ${W} in shards of ${sw} makes ${n} shards but the grid has ${plural(cores, 'core')}; a shard width of at least ${want} fits`,
          'shard',
          { index: 1, fixes: [{ title: `Set the shard width to ${want}`, field: 'shard', newText: list([sh, want]), preferred: true }] },
        ),
      );
    }
  } else {
    if (grid.length !== 1) out.push(issue('TT007', 'error', `BLOCK sharding needs a core grid that is exactly one CoreRange; this has ${grid.length}`, 'grid'));
    else {
      const r = grid[0];
      const gx = r.x1 - r.x0 + 1;
      const gy = r.y1 - r.y0 + 1;
      const W = spec.layout === 'TILE' ? geo.physW : geo.shape2[geo.shape2.length - 1];
      const nRow = cdiv(geo.physH, sh);
      const nCol = cdiv(W, sw);
      const rm = (spec.orientation ?? 'ROW_MAJOR') === 'ROW_MAJOR';
      const [needX, needY] = rm ? [nCol, nRow] : [nRow, nCol];
      if (needX > gx || needY > gy) {
        const fit = { x0: r.x0, y0: r.y0, x1: r.x0 + needX - 1, y1: r.y0 + needY - 1 };
        out.push(
          issue(
            'TT007',
            'error',
            `BLOCK ${rm ? 'ROW_MAJOR' : 'COL_MAJOR'}: ${nRow} shard rows × ${nCol} shard columns need a grid of ${needX} (x) × ${needY} (y) ` +
              `cores${rm ? '' : ' (COL_MAJOR puts shard rows along x)'}, but ${rangeText(r)} is ${gx}×${gy}`,
            'grid',
            {
              fixes: fit.x1 < bound.x && fit.y1 < bound.y ? [{ title: `Use grid ${rangeText(fit)}`, field: 'grid', newText: rangeText(fit) }] : undefined,
            },
          ),
        );
      }
    }
  }
  if (grid.length > 1)
    out.push(
      issue(
        'TT014',
        'warning',
        `the grid has ${grid.length} core ranges: the ${spec.orientation ?? 'ROW_MAJOR'} orientation applies inside each range only; ranges are used in the ` +
          'order written',
        'grid',
      ),
    );
  return out;
}

/** Every B.7 rule: structural ones, then capacity, padding and information on a buildable buffer. */
export function validateTT(spec: TTSpec): Issue[] {
  const out = structuralTT(spec);
  if (spec.swappedShard)
    out.push(
      issue(
        'TT013',
        'warning',
        'use_height_and_width_as_shard_shape=True with COL_MAJOR orientation swaps the shard dims: the shard is (width, height) of what was written',
        'orientation',
      ),
    );
  if (out.some((i) => i.severity === 'error')) return out;
  let t: TTLayout;
  try {
    t = new TTLayout(spec, true);
  } catch (e) {
    out.push(issue('TT026', 'error', (e as Error).message, '@layout'));
    return out;
  }
  out.push(...t.advice());
  return out;
}

// ---------------------------------------------------------------------------------------------

export interface TTForward extends ForwardBase {
  model: 'tt';
  /** Row and column in the folded 2-D physical tensor. */
  row: number;
  col: number;
  /** Host page id (row-major over the page grid). */
  page: number;
  pageRow: number;
  pageCol: number;
  /** Tile position (TILE layout). */
  tile?: { rr: number; cc: number; face: number; ir: number; ic: number; elem: number };
  /** Byte offset of the element inside its page. */
  pageByte: number;
  /** Block floats: byte of the shared exponent, relative to the page, and the nibble for bfloat4_b. */
  exponentByte?: number;
  nibble?: number;
  bank?: number;
  core?: [number, number];
  shard?: number;
  shardCoord?: number[];
  localPage: number;
  /** Offset from the buffer address inside the bank or core. */
  offset: number;
  /** `bank_to_dram_offset` of the bank (Wormhole odd banks: 1 GiB); `address + bankOffset` is the channel address. */
  bankOffset: number;
}

export class TTLayout implements LayoutModel<TTForward> {
  readonly kind = 'tt' as const;
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly base: number;
  readonly spec: TTSpec;
  readonly arch: TTArch;
  readonly geo: Geometry;
  readonly alignment: number;
  readonly alignedPage: number;
  readonly pages: number;
  readonly unitKind: UnitRef['kind'];
  readonly units: number;
  /** Core coordinates of each unit (sharded). */
  readonly cores: [number, number][];
  readonly bytesPerUnit: number;
  readonly slotsPerUnit: number;
  // 2-D sharding
  readonly sh: number;
  readonly sw: number;
  readonly nRow: number;
  readonly nCol: number;
  readonly nShards: number;
  private shardCore = new Int32Array(0);
  private coreShard = new Int32Array(0);
  // ND sharding
  readonly tensorPages: number[] = [];
  readonly shardPages: number[] = [];
  readonly gridShape: number[] = [];
  readonly shardVol: number = 0;
  readonly perCore: number = 0;
  private readonly heightStrides: number[];
  readonly numel: number;
  readonly expBytes: number;
  readonly dataSection: number;
  readonly blockGrid2D: boolean = false;

  constructor(spec: TTSpec, validated = false) {
    if (!validated) {
      const errs = structuralTT(spec).filter((i) => i.severity === 'error');
      if (errs.length) throw new LayoutError(errs.map((e) => e.message).join('; '));
    }
    this.spec = spec;
    this.arch = spec.arch;
    this.shape = [...spec.shape];
    this.dtype = spec.dtype;
    this.base = spec.base ?? 0;
    const geo = geometry(spec);
    this.geo = geo;
    this.numel = safe(prod(spec.shape), 'the element count');
    this.heightStrides = rmStrides(geo.padded.slice(0, -1));
    this.alignment = spec.buffer === 'DRAM' ? this.arch.dramAlignment : this.arch.l1Alignment;
    this.alignedPage = roundUp(geo.pageSize, this.alignment);
    this.pages = safe(geo.Hp * geo.Wp, 'the page count');
    this.expBytes = geo.g && geo.info.blockFloat ? exponentBytes(geo.g) : 0;
    this.dataSection = geo.g ? tileDataBytes(geo.g, geo.info) : geo.pageSize;
    const mem = spec.memory;
    this.sh = this.sw = this.nRow = this.nCol = this.nShards = 0;
    if (mem === 'INTERLEAVED') {
      this.unitKind = 'bank';
      this.units = spec.buffer === 'DRAM' ? this.arch.dramBanks : this.arch.l1Banks;
      this.cores = [];
      this.slotsPerUnit = cdiv(this.pages, this.units);
    } else {
      this.unitKind = spec.buffer === 'DRAM' ? 'bank' : 'core';
      const orientation = spec.orientation ?? 'ROW_MAJOR';
      this.cores = enumerateCores(spec.grid!, orientation);
      this.units = this.cores.length;
      const shard = spec.shard!;
      if (mem === 'ND_SHARDED') {
        const r2 = geo.shape2.length;
        const shard2 = shard.length === 1 ? [1, shard[0]] : shard;
        const pageDims = geo.shape2.map((_, d) => (d === r2 - 1 ? geo.pageW : d === r2 - 2 ? geo.pageH : 1));
        this.tensorPages = geo.padded.map((p, d) => p / pageDims[d]);
        this.shardPages = shard2.map((s, d) => s / pageDims[d]);
        this.gridShape = this.tensorPages.map((t, d) => cdiv(t, this.shardPages[d]));
        this.shardVol = prod(this.shardPages);
        this.nShards = safe(prod(this.gridShape), 'the shard count');
        this.perCore = cdiv(this.nShards, this.units);
        this.slotsPerUnit = this.perCore * this.shardVol;
      } else {
        this.sh = shard[0] / geo.pageH;
        this.sw = mem === 'HEIGHT_SHARDED' ? geo.Wp : shard[1] / geo.pageW;
        this.nRow = cdiv(geo.Hp, this.sh);
        this.nCol = cdiv(geo.Wp, this.sw);
        this.nShards = this.nRow * this.nCol;
        this.slotsPerUnit = this.sh * this.sw;
        const index = new Map(this.cores.map((c, i) => [`${c[0]},${c[1]}`, i]));
        this.shardCore = new Int32Array(this.nShards);
        this.coreShard = new Int32Array(this.units).fill(-1);
        if (mem === 'BLOCK_SHARDED') {
          const r = spec.grid![0];
          this.blockGrid2D = true;
          for (let R = 0; R < this.nRow; R++)
            for (let C = 0; C < this.nCol; C++) {
              const xy = orientation === 'ROW_MAJOR' ? [r.x0 + C, r.y0 + R] : [r.x0 + R, r.y0 + C];
              const u = index.get(`${xy[0]},${xy[1]}`);
              if (u === undefined) throw new LayoutError(`shard (${R},${C}) needs core (${xy[0]},${xy[1]}), which is not in the grid`);
              this.shardCore[R * this.nCol + C] = u;
              this.coreShard[u] = R * this.nCol + C;
            }
        } else {
          if (this.nShards > this.units) throw new LayoutError(`${this.nShards} shards but ${this.units} cores`);
          for (let k = 0; k < this.nShards; k++) {
            this.shardCore[k] = k;
            this.coreShard[k] = k;
          }
        }
      }
    }
    this.bytesPerUnit = safe(this.slotsPerUnit * this.alignedPage, 'the bytes per unit');
  }

  // ---- geometry helpers

  checkCoord(coord: readonly number[]): string | undefined {
    return coordProblem(coord, this.shape);
  }

  private rowCol(coord: readonly number[]): [number, number] {
    const c2 = coord.length === 1 ? [0, coord[0]] : coord;
    const r2 = c2.length;
    let row = 0;
    for (let d = 0; d < r2 - 1; d++) row += c2[d] * this.heightStrides[d];
    return [row, c2[r2 - 1]];
  }

  /** Physical (row, col) → tensor coordinate, or undefined when it is padding. */
  private coordOf(row: number, col: number): number[] | undefined {
    const geo = this.geo;
    const h = unravel(row, geo.padded.slice(0, -1));
    const c2 = [...h, col];
    for (let d = 0; d < c2.length; d++) if (c2[d] >= geo.shape2[d]) return undefined;
    return this.shape.length === 1 ? [col] : c2;
  }

  /** Byte inside the page for physical (row, col). */
  private pageByteOf(row: number, col: number): { pageByte: number; tile?: TTForward['tile']; exponentByte?: number; nibble?: number; size: number } {
    const geo = this.geo;
    if (!geo.g) return { pageByte: (col % geo.pageW) * geo.info.rmBytes, size: geo.info.rmBytes };
    const t = inTile(row, col, geo.g);
    const tile = { rr: t.rr, cc: t.cc, face: t.face, ir: t.ir, ic: t.ic, elem: t.elem };
    const bits = geo.info.tileBits;
    if (!geo.info.blockFloat) return { pageByte: (t.elem * bits) / 8, tile, size: bits / 8 };
    const exponentByte = t.face * geo.g.fH + (geo.g.transpose ? t.ic : t.ir);
    if (bits === 8) return { pageByte: this.expBytes + t.elem, tile, exponentByte, size: 1 };
    const per = 8 / bits;
    return { pageByte: this.expBytes + Math.floor(t.elem / per), tile, exponentByte, nibble: bits === 4 ? t.elem % per : undefined, size: bits / 8 };
  }

  /** Real rows × columns of the page at (pageRow, pageCol). */
  private pageReal(pr: number, pc: number): { rows: number; cols: number; first?: number[] } {
    const geo = this.geo;
    const r2 = geo.shape2.length;
    const row0 = pr * geo.pageH;
    const hb = geo.padded[r2 - 2];
    const batch = Math.floor(row0 / hb);
    const bc = unravel(batch, geo.padded.slice(0, r2 - 2));
    for (let d = 0; d < bc.length; d++) if (bc[d] >= geo.shape2[d]) return { rows: 0, cols: 0 };
    const inB = row0 % hb;
    const rows = Math.max(0, Math.min(geo.pageH, geo.shape2[r2 - 2] - inB));
    const cols = Math.max(0, Math.min(geo.pageW, geo.shape2[r2 - 1] - pc * geo.pageW));
    if (!rows || !cols) return { rows: 0, cols: 0 };
    return { rows, cols, first: this.coordOf(row0, pc * geo.pageW) };
  }

  // ---- mapping

  forward(coord: readonly number[]): TTForward {
    const p = this.checkCoord(coord);
    if (p) throw new CoordError(p);
    const geo = this.geo;
    const [row, col] = this.rowCol(coord);
    const pageRow = Math.floor(row / geo.pageH);
    const pageCol = Math.floor(col / geo.pageW);
    const page = pageRow * geo.Wp + pageCol;
    const pb = this.pageByteOf(row, col);
    const steps: Step[] = [{ name: 'coordinate', value: tuple(coord) }];
    if (this.shape.length !== 2) steps.push({ name: 'physical (row, col)', value: `(${row}, ${col}) of ${geo.physH}×${geo.physW}` });
    if (geo.g) {
      const t = pb.tile!;
      steps.push({ name: 'tile (page)', value: `page ${num(page)} = tile (${pageRow}, ${pageCol}) of ${geo.Hp}×${geo.Wp}` });
      steps.push({ name: 'in tile', value: `(${t.rr}, ${t.cc})` });
      steps.push({ name: 'face', value: `face ${t.face} (${geo.g.fH}×${geo.g.fW}), in face (${t.ir}, ${t.ic})` });
      steps.push({ name: 'element in tile', value: `${t.elem}${geo.g.transpose ? ' (transposed tile)' : ''}` });
      if (pb.exponentByte !== undefined) steps.push({ name: 'shared exponent', value: `byte ${pb.exponentByte} of the tile` });
      steps.push({
        name: 'byte in page',
        value: `${pb.pageByte}${pb.nibble !== undefined ? `, ${pb.nibble ? 'high' : 'low'} nibble` : ''} of ${geo.pageSize}`,
      });
    } else {
      steps.push({
        name: 'page (row)',
        value: geo.pageW === geo.physW ? `page ${num(page)} = row ${row}` : `page ${num(page)} = row ${row}, segment ${pageCol} (${geo.pageW} elements)`,
      });
      steps.push({ name: 'byte in page', value: `${pb.pageByte} of ${geo.pageSize}` });
    }
    const base: Omit<TTForward, 'unit' | 'bank' | 'core' | 'shard' | 'shardCoord' | 'localPage' | 'offset' | 'bankOffset' | 'address'> = {
      model: 'tt',
      coord: [...coord],
      size: pb.size,
      steps,
      row,
      col,
      page,
      pageRow,
      pageCol,
      tile: pb.tile,
      pageByte: pb.pageByte,
      exponentByte: pb.exponentByte,
      nibble: pb.nibble,
    };
    const mem = this.spec.memory;
    let unit: number;
    let localPage: number;
    let shard: number | undefined;
    let shardCoord: number[] | undefined;
    if (mem === 'INTERLEAVED') {
      unit = page % this.units;
      localPage = Math.floor(page / this.units);
      steps.push({ name: 'bank', value: `${unit} = page ${page} mod ${this.units}` });
      steps.push({ name: 'page in bank', value: `${localPage} = ⌊${page} / ${this.units}⌋ (aligned page ${this.alignedPage} B)` });
    } else if (mem === 'ND_SHARDED') {
      const r2 = geo.shape2.length;
      const c2 = coord.length === 1 ? [0, coord[0]] : [...coord];
      const pc = c2.map((c, d) => (d === r2 - 1 ? pageCol : d === r2 - 2 ? Math.floor(c / geo.pageH) : c));
      shardCoord = pc.map((v, d) => Math.floor(v / this.shardPages[d]));
      const local = pc.map((v, d) => v % this.shardPages[d]);
      shard = ravel(shardCoord, this.gridShape);
      unit = shard % this.units;
      const slot = Math.floor(shard / this.units);
      localPage = slot * this.shardVol + ravel(local, this.shardPages);
      steps.push({ name: 'page coordinate', value: tuple(pc) });
      steps.push({ name: 'shard', value: `${num(shard)} = grid ${tuple(shardCoord)} of ${list(this.gridShape)}, page ${tuple(local)} in it` });
      steps.push({ name: 'core', value: `${this.unitLabel(unit)} = shard ${shard} mod ${this.units} (round-robin), shard slot ${slot}` });
      steps.push({ name: 'local page', value: `${localPage} = ${slot}·${this.shardVol} + ${ravel(local, this.shardPages)}` });
    } else {
      const R = Math.floor(pageRow / this.sh);
      const C = Math.floor(pageCol / this.sw);
      shard = R * this.nCol + C;
      shardCoord = [R, C];
      unit = this.shardCore[shard];
      const i = pageRow % this.sh;
      const j = pageCol % this.sw;
      localPage = i * this.sw + j;
      steps.push({ name: 'shard', value: `${shard} = (${R}, ${C}) of ${this.nRow}×${this.nCol}, page (${i}, ${j}) in it` });
      steps.push({ name: this.unitKind === 'bank' ? 'bank' : 'core', value: this.unitLabel(unit) });
      steps.push({ name: 'local page', value: `${localPage} = ${i}·${this.sw} + ${j}` });
    }
    const offset = localPage * this.alignedPage + pb.pageByte;
    const address = this.base + offset;
    const bankOffset = this.bankOffsetOf(unit);
    steps.push({
      name: this.unitKind === 'core' ? 'offset in core' : 'offset in bank',
      value: `${num(offset)} = ${localPage}·${this.alignedPage} + ${pb.pageByte}`,
    });
    steps.push({ name: 'address', value: `${this.unitLabel(unit)}: ${hex(address)}${this.base ? ` (B+${offset})` : ''}` });
    if (bankOffset) steps.push({ name: 'channel address', value: `${hex(address + bankOffset)} (bank offset +${bytes(bankOffset)})` });
    const ur: UnitRef = { kind: this.unitKind, index: unit, label: this.unitLabel(unit) };
    return {
      ...base,
      address,
      unit: ur,
      bank: this.unitKind === 'bank' ? (mem === 'INTERLEAVED' ? unit : this.cores[unit][0]) : undefined,
      core: this.unitKind === 'core' ? this.cores[unit] : undefined,
      shard,
      shardCoord,
      localPage,
      offset,
      bankOffset,
    };
  }

  private bankOffsetOf(unit: number): number {
    if (this.spec.buffer !== 'DRAM') return 0;
    const bank = this.spec.memory === 'INTERLEAVED' ? unit : this.cores[unit][0];
    return this.arch.dramOffsets[bank] ?? 0;
  }

  unitCount(): number {
    return this.units;
  }

  unitLabel(i: number): string {
    if (this.spec.memory === 'INTERLEAVED') return `${this.spec.buffer === 'DRAM' ? 'DRAM' : 'L1'} bank ${i}`;
    const c = this.cores[i];
    return this.spec.buffer === 'DRAM' ? `DRAM bank ${c[0]}` : `core (${c[0]},${c[1]})`;
  }

  unitIndex(text: string | number[]): number | undefined {
    if (Array.isArray(text)) {
      if (text.length === 1) return this.unitIndex(String(text[0]));
      const i = this.cores.findIndex((c) => c[0] === text[0] && c[1] === text[1]);
      return i >= 0 ? i : undefined;
    }
    const n = Number(text);
    if (!Number.isInteger(n)) return undefined;
    if (this.spec.memory === 'INTERLEAVED') return n >= 0 && n < this.units ? n : undefined;
    if (this.spec.buffer === 'DRAM') {
      const i = this.cores.findIndex((c) => c[0] === n);
      return i >= 0 ? i : undefined;
    }
    return n >= 0 && n < this.units ? n : undefined;
  }

  /** Where local page `slot` of `unit` comes from: host page (and its page coordinate), PADDING or unused. */
  private slotSource(
    unit: number,
    slot: number,
  ):
    | { kind: 'page'; page: number; pr: number; pc: number; ndPage?: number[]; shard?: number }
    | { kind: 'padding'; shard?: number }
    | { kind: 'unused'; shard?: number } {
    const geo = this.geo;
    const mem = this.spec.memory;
    if (mem === 'INTERLEAVED') {
      const page = slot * this.units + unit;
      if (page >= this.pages) return { kind: 'unused' };
      return { kind: 'page', page, pr: Math.floor(page / geo.Wp), pc: page % geo.Wp };
    }
    if (mem === 'ND_SHARDED') {
      const shard = Math.floor(slot / this.shardVol) * this.units + unit;
      if (shard >= this.nShards) return { kind: 'unused' };
      const g = unravel(shard, this.gridShape);
      const l = unravel(slot % this.shardVol, this.shardPages);
      const pcv = g.map((v, d) => v * this.shardPages[d] + l[d]);
      if (pcv.some((v, d) => v >= this.tensorPages[d])) return { kind: 'padding', shard };
      const page = ravel(pcv, this.tensorPages);
      return { kind: 'page', page, pr: Math.floor(page / geo.Wp), pc: page % geo.Wp, ndPage: pcv, shard };
    }
    const shard = this.coreShard[unit];
    if (shard < 0) return { kind: 'unused' };
    const R = Math.floor(shard / this.nCol);
    const C = shard % this.nCol;
    const pr = R * this.sh + Math.floor(slot / this.sw);
    const pc = C * this.sw + (slot % this.sw);
    if (pr >= geo.Hp || pc >= geo.Wp) return { kind: 'padding', shard };
    return { kind: 'page', page: pr * geo.Wp + pc, pr, pc, shard };
  }

  inverse(address: number, unit?: number): InverseResult {
    const steps: Step[] = [];
    const geo = this.geo;
    if (unit === undefined) {
      if (this.units > 1)
        return {
          model: 'tt',
          address,
          kind: 'outside',
          steps,
          reason:
            `the buffer is spread over ${plural(this.units, this.unitKind === 'core' ? 'core' : 'bank')}: say ` +
            `which (${this.unitKind === 'core' ? 'core (x,y)' : 'bank N'})`,
        };
      unit = 0;
    }
    if (unit < 0 || unit >= this.units)
      return { model: 'tt', address, kind: 'outside', steps, reason: `no ${this.unitKind} ${unit}: the buffer uses ${plural(this.units, this.unitKind)}` };
    const ur: UnitRef = { kind: this.unitKind, index: unit, label: this.unitLabel(unit) };
    const off = address - this.base;
    steps.push({ name: this.unitKind === 'core' ? 'offset in core' : 'offset in bank', value: num(off) });
    if (!Number.isInteger(off) || off < 0 || off >= this.bytesPerUnit)
      return {
        model: 'tt',
        address,
        unit: ur,
        kind: 'outside',
        steps,
        reason: `the buffer occupies ${hex(this.base)}..${hex(this.base + this.bytesPerUnit - 1)} in every ${this.unitKind}`,
      };
    const slot = Math.floor(off / this.alignedPage);
    const inPage = off % this.alignedPage;
    steps.push({ name: 'local page', value: `${slot}, byte ${inPage}` });
    const src = this.slotSource(unit, slot);
    if (src.kind === 'unused')
      return { model: 'tt', address, unit: ur, kind: 'unused', steps, reason: `reserved in lockstep: ${ur.label} holds no page at local page ${slot}` };
    if (src.kind === 'padding')
      return { model: 'tt', address, unit: ur, kind: 'padding', steps, reason: `PADDING page: shard ${src.shard} is an edge shard with no page at this slot` };
    steps.push({ name: 'host page', value: `${num(src.page)} = (${src.pr}, ${src.pc})${src.ndPage ? `, page coordinate ${tuple(src.ndPage)}` : ''}` });
    if (inPage >= geo.pageSize)
      return {
        model: 'tt',
        address,
        unit: ur,
        kind: 'alignment',
        steps,
        reason: `bytes ${geo.pageSize}..${this.alignedPage - 1} of the page round it up to the ${this.alignment}-byte alignment`,
      };
    let rr: number;
    let cc: number;
    let byteInElement = 0;
    if (!geo.g) {
      const eb = geo.info.rmBytes;
      rr = 0;
      cc = Math.floor(inPage / eb);
      byteInElement = inPage % eb;
    } else {
      const bits = geo.info.tileBits;
      if (geo.info.blockFloat && inPage < this.expBytes) {
        const fr = geo.g.fH * geo.g.faces;
        return {
          model: 'tt',
          address,
          unit: ur,
          kind: 'metadata',
          steps,
          reason:
            inPage < fr
              ? `shared exponent of face ${Math.floor(inPage / geo.g.fH)}, row ${inPage % geo.g.fH}`
              : 'exponent section padding (rounded up to 16 bytes)',
        };
      }
      const data = inPage - this.expBytes;
      const elem = bits >= 8 ? Math.floor(data / (bits / 8)) : data * (8 / bits);
      byteInElement = bits >= 8 ? data % (bits / 8) : 0;
      const t = fromTileElem(elem, geo.g);
      rr = t.rr;
      cc = t.cc;
      steps.push({ name: 'element in tile', value: `${elem} = face ${t.face}, in tile (${rr}, ${cc})` });
      if (bits < 8) {
        // a byte holds two elements; report the first real one
        const t2 = fromTileElem(elem + 1, geo.g);
        const a = this.coordOf(src.pr * geo.pageH + rr, src.pc * geo.pageW + cc);
        const b = this.coordOf(src.pr * geo.pageH + t2.rr, src.pc * geo.pageW + t2.cc);
        steps.push({ name: 'nibbles', value: `low: ${a ? tuple(a) : 'padding'}, high: ${b ? tuple(b) : 'padding'}` });
        if (a || b) return { model: 'tt', address, unit: ur, kind: 'element', coord: a ?? b, byteInElement: 0, steps };
        return { model: 'tt', address, unit: ur, kind: 'padding', steps, reason: 'both elements of this byte are tile padding' };
      }
    }
    const row = src.pr * geo.pageH + rr;
    const col = src.pc * geo.pageW + cc;
    steps.push({ name: 'physical (row, col)', value: `(${row}, ${col})` });
    const coord = this.coordOf(row, col);
    if (!coord)
      return {
        model: 'tt',
        address,
        unit: ur,
        kind: 'padding',
        steps,
        reason: `(${row}, ${col}) is ${geo.g ? 'tile' : 'alignment'} padding of the ${list(this.shape)} tensor (padded ${list(geo.padded)})`,
      };
    steps.push({ name: 'coordinate', value: tuple(coord) });
    return { model: 'tt', address, unit: ur, kind: 'element', coord, byteInElement, steps };
  }

  /** In-page byte contributions of the row and column inside a page (tiles: faces; block floats: after the exponents). */
  private pageTables(): { RT: Float64Array; CT: Float64Array } {
    const geo = this.geo;
    const g = geo.g;
    if (!g) return { RT: new Float64Array(1), CT: Float64Array.from({ length: geo.pageW }, (_, c) => c * geo.info.rmBytes) };
    const bits = geo.info.tileBits;
    const fsz = g.fH * g.fW;
    // element index in the tile = A(rr) + B(cc); A is even, so a bfloat4_b byte index splits too
    const A = (rr: number) => (g.transpose ? Math.floor(rr / g.fH) * fsz + (rr % g.fH) : Math.floor(rr / g.fH) * g.nFc * fsz + (rr % g.fH) * g.fW);
    const B = (cc: number) => (g.transpose ? Math.floor(cc / g.fW) * g.nFr * fsz + (cc % g.fW) * g.fH : Math.floor(cc / g.fW) * fsz + (cc % g.fW));
    const toBytes = (e: number) => (bits >= 8 ? (e * bits) / 8 : Math.floor(e / (8 / bits)));
    return {
      RT: Float64Array.from({ length: g.tH }, (_, rr) => this.expBytes + toBytes(A(rr))),
      CT: Float64Array.from({ length: g.tW }, (_, cc) => toBytes(B(cc))),
    };
  }

  private fastTables?: {
    RT: Float64Array;
    CT: Float64Array;
    PRS?: Int32Array;
    PRL?: Int32Array;
    PCS?: Int32Array;
    PCL?: Int32Array;
    CPC?: Int32Array;
    CIN?: Float64Array;
  };
  /** Per dimension: the coordinate's shard-index part (< nShards < 2^31: int32) and its byte part. */
  private ndTables?: { SH: Int32Array[]; LI: Float64Array[] } | null;

  forwardMany(coords: Int32Array, out?: Float64Array, units?: Int32Array): Float64Array {
    const r = this.shape.length;
    const count = checkManyInput(coords, r);
    const res = out ?? new Float64Array(count);
    const geo = this.geo;
    const mem = this.spec.memory;
    if (mem === 'ND_SHARDED') return this.forwardManyNd(coords, res, units, count);
    const intSafe = geo.physH < 2 ** 31 && geo.physW < 2 ** 31 && this.pages < 2 ** 31;
    const tableOk = (mem === 'INTERLEAVED' || geo.Hp + geo.Wp <= TABLE_LIMIT) && (!!geo.g || this.shape[r - 1] <= TABLE_LIMIT);
    if (!intSafe || !tableOk) return this.forwardManySlow(coords, res, units, count);
    if (!this.fastTables) {
      const t: NonNullable<TTLayout['fastTables']> = this.pageTables();
      if (!geo.g) {
        // row-major pages: page column and byte in the page of every column
        const W = this.shape[r - 1];
        t.CPC = Int32Array.from({ length: W }, (_, c) => Math.floor(c / geo.pageW));
        t.CIN = Float64Array.from({ length: W }, (_, c) => (c % geo.pageW) * geo.info.rmBytes);
      }
      if (mem !== 'INTERLEAVED') {
        t.PRS = Int32Array.from({ length: geo.Hp }, (_, pr) => Math.floor(pr / this.sh) * this.nCol);
        t.PRL = Int32Array.from({ length: geo.Hp }, (_, pr) => (pr % this.sh) * this.sw);
        t.PCS = Int32Array.from({ length: geo.Wp }, (_, pc) => Math.floor(pc / this.sw));
        t.PCL = Int32Array.from({ length: geo.Wp }, (_, pc) => pc % this.sw);
      }
      this.fastTables = t;
    }
    const t = this.fastTables;
    // ranks 1–3 compute the physical row inline; higher ranks write rows into `res` first
    const pre = r > 3;
    if (pre) mapLinear(0, this.shape, [...this.heightStrides, 0], coords, res, count);
    const g: RowGeometry = {
      r,
      pre,
      s0: (r >= 2 ? this.shape[0] : 1) >>> 0,
      s1: (r >= 3 ? this.shape[1] : 1) >>> 0,
      sW: this.shape[r - 1] >>> 0,
      h0: r >= 2 ? this.heightStrides[0] : 0,
      h1: r >= 3 ? this.heightStrides[1] : 0,
    };
    const u = units ?? new Int32Array(0);
    const wantUnits = units !== undefined;
    if (geo.g) {
      const lH = log2i(geo.g.tH);
      const lW = log2i(geo.g.tW);
      if (mem === 'INTERLEAVED') tileInterleaved(coords, res, u, wantUnits, count, g, lH, lW, t.RT, t.CT, geo.Wp, this.units, this.base, this.alignedPage);
      else tileSharded(coords, res, u, wantUnits, count, g, lH, lW, t.RT, t.CT, t.PRS!, t.PRL!, t.PCS!, t.PCL!, this.shardCore, this.base, this.alignedPage);
    } else if (mem === 'INTERLEAVED') rowInterleaved(coords, res, u, wantUnits, count, g, t.CPC!, t.CIN!, geo.Wp, this.units, this.base, this.alignedPage);
    else rowSharded(coords, res, u, wantUnits, count, g, t.CPC!, t.CIN!, t.PRS!, t.PRL!, t.PCS!, t.PCL!, this.shardCore, this.base, this.alignedPage);
    return res;
  }

  /**
   * ND sharding: shard id and the byte inside the shard's slot are sums of per-dim table entries
   * (`LI` = local page · aligned page + byte in the page, folded into one table); the core and the
   * slot of a shard come from an exact division by the core count (a multiplication by 1/nc, corrected).
   */
  private forwardManyNd(coords: Int32Array, res: Float64Array, units: Int32Array | undefined, count: number): Float64Array {
    const r = this.shape.length;
    const geo = this.geo;
    if (this.ndTables === undefined) {
      const total = this.shape.reduce((a, b) => a + b, 0);
      if (total * 2 > TABLE_LIMIT || this.nShards >= 2 ** 31 || this.slotsPerUnit * this.alignedPage >= 2 ** 52) this.ndTables = null;
      else {
        const { RT, CT } = this.pageTables();
        const r2 = geo.shape2.length;
        const off = r2 - r; // a 1-D tensor is the last dim of the 2-D folding
        const gridStr = rmStrides(this.gridShape);
        const shardStr = rmStrides(this.shardPages);
        const ap = this.alignedPage;
        const SH: Int32Array[] = [];
        const LI: Float64Array[] = [];
        for (let d = 0; d < r; d++) {
          const D = d + off;
          const n = this.shape[d];
          const sh = new Int32Array(n);
          const li = new Float64Array(n);
          for (let c = 0; c < n; c++) {
            const pc = D === r2 - 1 ? Math.floor(c / geo.pageW) : D === r2 - 2 ? Math.floor(c / geo.pageH) : c;
            sh[c] = Math.floor(pc / this.shardPages[D]) * gridStr[D];
            // byte in the page: the column's part and the row's part (RT holds the exponent-section offset once)
            const inn = D === r2 - 1 ? CT[c % geo.pageW] + (geo.g ? this.expBytes : 0) : D === r2 - 2 && geo.g ? RT[c % geo.pageH] - this.expBytes : 0;
            li[c] = (pc % this.shardPages[D]) * shardStr[D] * ap + inn;
          }
          SH.push(sh);
          LI.push(li);
        }
        this.ndTables = { SH, LI };
      }
    }
    if (!this.ndTables) return this.forwardManySlow(coords, res, units, count);
    const { SH, LI } = this.ndTables;
    const nc = this.units;
    const slotBytes = this.shardVol * this.alignedPage;
    const base = this.base;
    const u = units ?? new Int32Array(0);
    const want = units !== undefined;
    if (r === 3) {
      ndRank3(coords, res, u, want, count, SH, LI, nc, slotBytes, base);
      return res;
    }
    const inv = 1 / nc;
    for (let i = 0, k = 0; i < count; i++) {
      let shard = 0;
      let local = 0;
      let ok = true;
      for (let d = 0; d < r; d++, k++) {
        const c = coords[k];
        const T = SH[d];
        if (c >>> 0 >= T.length) {
          ok = false;
          continue;
        }
        shard += T[c];
        local += LI[d][c];
      }
      if (!ok) {
        res[i] = NaN;
        if (want) u[i] = -1;
        continue;
      }
      let q = Math.floor(shard * inv);
      let unit = shard - q * nc;
      if (unit < 0) {
        q--;
        unit += nc;
      } else if (unit >= nc) {
        q++;
        unit -= nc;
      }
      res[i] = base + q * slotBytes + local;
      if (want) u[i] = unit;
    }
    return res;
  }

  private forwardManySlow(coords: Int32Array, res: Float64Array, units: Int32Array | undefined, count: number): Float64Array {
    const r = this.shape.length;
    const c = new Array<number>(r);
    for (let i = 0; i < count; i++) {
      for (let d = 0; d < r; d++) c[d] = coords[i * r + d];
      if (this.checkCoord(c)) {
        res[i] = NaN;
        if (units) units[i] = -1;
        continue;
      }
      const f = this.forward(c);
      res[i] = f.address;
      if (units) units[i] = f.unit!.index;
    }
    return res;
  }

  // ---- summary

  /** Bytes of the data sections holding real elements (closed form over the 4 tile classes). */
  private elementBytes(): number {
    const geo = this.geo;
    if (!geo.g) return this.numel * geo.info.rmBytes;
    const r2 = geo.shape2.length;
    const H2 = geo.shape2[r2 - 2];
    const W = geo.shape2[r2 - 1];
    const t = geo.g;
    const batches = prod(geo.shape2, 0, r2 - 2);
    const rowsCls: [number, number][] = [[Math.floor(H2 / t.tH), t.tH]];
    if (H2 % t.tH) rowsCls.push([1, H2 % t.tH]);
    const colsCls: [number, number][] = [[Math.floor(W / t.tW), t.tW]];
    if (W % t.tW) colsCls.push([1, W % t.tW]);
    let sum = 0;
    for (const [nr, a] of rowsCls) for (const [nc, b] of colsCls) if (nr && nc) sum += nr * nc * realDataBytes(a, b, t, geo.info);
    return batches * sum;
  }

  /** Real pages per unit, grouped; undefined when there are too many shards to count. */
  private pagesPerUnit(): UnitGroup[] | undefined {
    const mem = this.spec.memory;
    const per = new Array<number>(this.units).fill(0);
    if (mem === 'INTERLEAVED') {
      const q = Math.floor(this.pages / this.units);
      const rem = this.pages % this.units;
      const g: UnitGroup[] = [];
      if (rem) g.push({ from: 0, to: rem - 1, pages: q + 1 });
      if (rem < this.units) g.push({ from: rem, to: this.units - 1, pages: q });
      return g;
    }
    if (mem === 'ND_SHARDED') {
      if (this.nShards > 1 << 22) return undefined;
      const gs = this.gridShape;
      const g = new Array<number>(gs.length).fill(0);
      for (let s = 0; s < this.nShards; s++) {
        let v = 1;
        for (let d = 0; d < gs.length; d++) v *= Math.min(this.shardPages[d], this.tensorPages[d] - g[d] * this.shardPages[d]);
        per[s % this.units] += v;
        for (let d = gs.length - 1; d >= 0; d--) {
          if (++g[d] < gs[d]) break;
          g[d] = 0;
        }
      }
    } else {
      const geo = this.geo;
      for (let s = 0; s < this.nShards; s++) {
        const R = Math.floor(s / this.nCol);
        const C = s % this.nCol;
        per[this.shardCore[s]] += Math.min(this.sh, geo.Hp - R * this.sh) * Math.min(this.sw, geo.Wp - C * this.sw);
      }
    }
    const groups: UnitGroup[] = [];
    for (let u = 0; u < per.length; u++) {
      const last = groups[groups.length - 1];
      if (last && last.pages === per[u] && last.to === u - 1) last.to = u;
      else groups.push({ from: u, to: u, pages: per[u] });
    }
    return groups;
  }

  /** Shards (2-D or ND) that reserve space, and the page slots they leave as PADDING. */
  private shardSlots(): { used: number; padding: number } {
    const mem = this.spec.memory;
    if (mem === 'INTERLEAVED') return { used: this.pages, padding: 0 };
    const vol = mem === 'ND_SHARDED' ? this.shardVol : this.sh * this.sw;
    return { used: this.nShards * vol, padding: this.nShards * vol - this.pages };
  }

  summary(): LayoutSummary {
    const geo = this.geo;
    const br: Breakdown = emptyBreakdown();
    const element = this.elementBytes();
    const meta = this.pages * this.expBytes;
    br.element = element;
    br.metadata = meta;
    br.padding = this.pages * geo.pageSize - element - meta;
    br.alignment = this.pages * (this.alignedPage - geo.pageSize);
    const ss = this.shardSlots();
    br.padding += ss.padding * this.alignedPage;
    const total = this.units * this.bytesPerUnit;
    br.unused = total - ss.used * this.alignedPage;
    const slots = this.pages * geo.pageH * geo.pageW;
    const groups = this.pagesPerUnit();
    const used = groups ? groups.filter((g) => g.pages > 0).reduce((s, g) => s + g.to - g.from + 1, 0) : Math.min(this.units, this.nShards);
    const uname = this.unitKind === 'core' ? 'core' : 'bank';
    const mem = this.spec.memory;
    const facts: Step[] = [
      { name: 'target', value: this.arch.name },
      { name: 'dtype', value: `${this.dtype} (${geo.info.format})` },
      {
        name: 'layout',
        value: geo.g
          ? `TILE ${geo.g.tH}×${geo.g.tW}, ${geo.g.faces} face${geo.g.faces > 1 ? 's' : ''} of ` +
            `${geo.g.fH}×${geo.g.fW}${geo.g.transpose ? ', transposed' : ''}`
          : 'ROW_MAJOR',
      },
      { name: 'logical → padded', value: `${list(this.shape)} → ${list(this.shape.length === 1 ? [geo.padded[1]] : geo.padded)}` },
      { name: 'physical 2-D', value: `${num(geo.physH)} × ${num(geo.physW)}` },
      {
        name: 'pages',
        value:
          `${num(this.pages)} = ${num(geo.Hp)} × ${num(geo.Wp)} of ${geo.pageH}×${geo.pageW}, ${geo.pageSize} B each` +
          `${this.alignedPage !== geo.pageSize ? `, aligned to ${this.alignedPage} B` : ''}` +
          `${this.expBytes ? ` (${this.expBytes} B shared exponents + ${this.dataSection} B data)` : ''}`,
      },
    ];
    if (mem === 'INTERLEAVED') {
      facts.push({ name: 'memory', value: `${this.spec.buffer} interleaved over ${plural(this.units, 'bank')} (page p → bank p mod ${this.units})` });
      facts.push({
        name: 'per bank',
        value:
          `${plural(this.slotsPerUnit, 'page slot')} = ${bytes(this.bytesPerUnit)}, reserved in every ` +
          `bank${groups ? ` (${groups.map((g) => `${g.from === g.to ? `bank ${g.from}` : `banks ${g.from}–${g.to}`}: ${g.pages}`).join(', ')})` : ''}`,
      });
    } else {
      const orient = this.spec.orientation ?? 'ROW_MAJOR';
      facts.push({
        name: 'memory',
        value: `${this.spec.buffer} ${mem} ${orient} over ${plural(this.units, uname)} ${this.spec.grid!.map(rangeText).join(' ')}`,
      });
      facts.push({
        name: 'shard',
        value:
          mem === 'ND_SHARDED'
            ? `${list(this.spec.shard!)} = ${list(this.shardPages)} pages; shard ` +
              `grid ${list(this.gridShape)} = ${num(this.nShards)} shards, ${this.perCore} per ${uname} (round-robin)`
            : `${list(this.spec.shard!)} = ${this.sh}×${this.sw} pages; ${this.nRow}×${this.nCol} shards`,
      });
      facts.push({
        name: `per ${uname}`,
        value:
          `${plural(this.slotsPerUnit, 'page slot')} = ${bytes(this.bytesPerUnit)}, reserved on every ${uname} of the grid` +
          (groups
            ? ' (real pages: ' +
              groups
                .map(
                  (g) =>
                    (g.from === g.to ? this.unitLabel(g.from) : `${this.unitLabel(g.from)}–${this.unitLabel(g.to).replace(/^(core|DRAM bank) /, '')}`) +
                    `: ${g.pages}`,
                )
                .join(', ') +
              ')'
            : ''),
      });
      if (ss.padding) facts.push({ name: 'edge shards', value: `${plural(ss.padding, 'PADDING page slot')} in partial shards` });
    }
    facts.push({
      name: 'bytes',
      value: `${bytes(total)} reserved (${num(total)} B): ${bytes(element)} of elements, ${percent(br.padding, br.padding + element)} padding`,
    });
    facts.push({ name: 'address', value: `${hex(this.base)}..${hex(this.base + this.bytesPerUnit - 1)} in each ${uname}` });
    const shortUnits =
      mem === 'INTERLEAVED' ? `${plural(this.pages, 'page')} over ${plural(this.units, 'bank')}` : `${plural(this.nShards, 'shard')} on ${plural(used, uname)}`;
    return {
      model: 'tt',
      elements: this.numel,
      slots,
      paddingSlots: slots - this.numel,
      bytes: total,
      breakdown: br,
      paddingPercent: br.padding + element ? (100 * br.padding) / (br.padding + element) : 0,
      units: { kind: uname, count: this.units, used, bytesPerUnit: this.bytesPerUnit, pages: groups, slotsPerUnit: this.slotsPerUnit },
      blocks: { name: 'page', count: this.pages, bytes: geo.pageSize },
      short: `${bytes(total)} · ${shortUnits} · ${bytes(this.bytesPerUnit)}/${uname} · ${percent(br.padding, br.padding + element)} padding`,
      facts,
    };
  }

  /** Warnings and information for a valid buffer (TT010, TT012, TT015–TT018). */
  advice(): Issue[] {
    const out: Issue[] = [];
    const s = this.summary();
    const geo = this.geo;
    const A = this.arch;
    const mem = this.spec.memory;
    const uname = this.unitKind === 'core' ? 'core' : 'bank';
    if (this.spec.buffer === 'DRAM') {
      if (this.base + this.bytesPerUnit > A.dramBankSize)
        out.push(
          issue(
            'TT012',
            'error',
            `${bytes(this.bytesPerUnit)} per bank at ${hex(this.base)} does not fit in a ${bytes(A.dramBankSize)} DRAM bank of ${A.name}`,
            '@layout',
          ),
        );
    } else {
      const top = A.l1Size;
      if (this.base + this.bytesPerUnit > top)
        out.push(
          issue(
            'TT012',
            'error',
            `${bytes(this.bytesPerUnit)} per ${uname} at ${hex(this.base)} does not fit in the ${bytes(top)} of worker L1 on ${A.name}`,
            '@layout',
          ),
        );
      else if (this.spec.base !== undefined && this.base < A.l1Reserved)
        out.push(issue('TT012', 'error', `L1 below ${hex(A.l1Reserved)} is reserved on this target; the buffer starts at ${hex(this.base)}`, '@at'));
    }
    if (geo.g === undefined && geo.pageSize % 4 !== 0)
      out.push(
        issue(
          'TT010',
          'warning',
          `ROW_MAJOR page of ${geo.pageSize} B is not a multiple of 4: older tt-metal versions reject it (validate_buffer_parameters)`,
          '@shape',
        ),
      );
    if (s.paddingPercent > 50)
      out.push(
        issue(
          'TT015',
          'warning',
          `${percent(s.breakdown.padding, s.breakdown.padding + s.breakdown.element)} of the page bytes are padding: ${list(this.shape)} is stored ` +
            `as ${num(geo.physH)}×${num(geo.physW)}${geo.g ? ` in ${plural(this.pages, 'tile')}` : ''}`,
          '@shape',
        ),
      );
    if (mem === 'INTERLEAVED' && this.pages % this.units !== 0) {
      const full = this.pages % this.units;
      out.push(
        issue(
          'TT016',
          'information',
          this.pages < this.units
            ? `${plural(this.pages, 'page')} over ${plural(this.units, 'bank')}: banks ${this.pages}–${this.units - 1} get no page but ` +
                `reserve ${bytes(this.bytesPerUnit)} too (lockstep allocation)`
            : `banks ${full}–${this.units - 1} hold one page fewer than banks 0–${full - 1} but reserve the same ${bytes(this.bytesPerUnit)} (lockstep ` +
                'allocation)',
          '@layout',
        ),
      );
    }
    if (mem !== 'INTERLEAVED' && (s.units?.used ?? 0) < this.units)
      out.push(
        issue(
          'TT016',
          'information',
          `${this.units - (s.units?.used ?? 0)} of the ${plural(this.units, uname)} in the grid get no shard but reserve ${bytes(this.bytesPerUnit)} at the ` +
            'same address (lockstep allocation)',
          'grid',
        ),
      );
    if (this.spec.buffer === 'DRAM' && A.dramOffsets.some((o) => o !== 0)) {
      const used = mem === 'INTERLEAVED' ? Array.from({ length: Math.min(this.pages, this.units) }, (_, b) => b) : this.cores.map((c) => c[0]);
      const off = used.filter((b) => A.dramOffsets[b]);
      if (off.length)
        out.push(
          issue(
            'TT017',
            'information',
            `on ${A.name} DRAM bank${off.length > 1 ? 's' : ''} ${off.slice(0, 6).join(', ')}${off.length > 6 ? ', …' : ''} ` +
              `carr${off.length > 1 ? 'y' : 'ies'} a +${bytes(A.dramOffsets[off[0]])} channel offset: the channel address is the bank address plus it`,
            '@layout',
          ),
        );
    }
    if (mem === 'BLOCK_SHARDED') {
      const r = this.spec.grid![0];
      const gx = r.x1 - r.x0 + 1;
      const gy = r.y1 - r.y0 + 1;
      const rm = (this.spec.orientation ?? 'ROW_MAJOR') === 'ROW_MAJOR';
      const [nx, ny] = rm ? [this.nCol, this.nRow] : [this.nRow, this.nCol];
      if (gx !== nx || gy !== ny)
        out.push(
          issue(
            'TT018',
            'warning',
            `the ${gx}×${gy} grid is larger than the ${nx}×${ny} shard grid: legacy buffers give shard k to the k-th core of the enumerated grid, newer ` +
              `ones (GRID_2D) to core (x0+${rm ? 'C' : 'R'}, y0+${rm ? 'R' : 'C'}); this preview uses GRID_2D`,
            'grid',
            {
              fixes: [
                {
                  title: `Use grid ${rangeText({ x0: r.x0, y0: r.y0, x1: r.x0 + nx - 1, y1: r.y0 + ny - 1 })}`,
                  field: 'grid',
                  newText: rangeText({ x0: r.x0, y0: r.y0, x1: r.x0 + nx - 1, y1: r.y0 + ny - 1 }),
                  preferred: true,
                },
              ],
            },
          ),
        );
    }
    return out;
  }

  regions(): Regions {
    const geo = this.geo;
    const units = Array.from({ length: this.units }, (_, u) => ({ label: this.unitLabel(u), base: this.base, slots: this.slotsPerUnit }));
    const perPage = geo.pageH * geo.pageW;
    const slot = (u: number, s: number): Slot => {
      const src = this.slotSource(u, s);
      if (src.kind === 'unused') return { kind: 'unused', elements: 0, label: `local page ${s}: not used (reserved in lockstep)` };
      if (src.kind === 'padding') return { kind: 'padding', elements: 0, label: `local page ${s}: PADDING (edge shard ${src.shard})` };
      const real = this.pageReal(src.pr, src.pc);
      const n = real.rows * real.cols;
      return {
        kind: n === 0 ? 'padding' : n === perPage ? 'data' : 'partial',
        index: src.page,
        elements: n,
        first: real.first,
        label: `local page ${s}: host page ${src.page}${geo.g ? ` = tile (${src.pr}, ${src.pc})` : ''}, ${n}/${perPage} elements`,
      };
    };
    const g = geo.g;
    return {
      kind: this.spec.memory === 'INTERLEAVED' ? 'banks' : 'cores',
      unitName: this.unitKind,
      slotName: 'page',
      slotBytes: this.alignedPage,
      units,
      slot,
      runs: (u, from = 0, to = this.slotsPerUnit) => runsOf((s) => slot(u, s).kind, from, to),
      inner: g
        ? {
            name: 'tile',
            rows: g.tH,
            cols: g.tW,
            bytesPerElement: geo.info.tileBits / 8,
            blocks: Array.from({ length: g.faces }, (_, f) => {
              const fr = g.transpose ? f % g.nFr : Math.floor(f / g.nFc);
              const fc = g.transpose ? Math.floor(f / g.nFr) : f % g.nFc;
              return { row: fr * g.fH, col: fc * g.fW, rows: g.fH, cols: g.fW, offset: f * g.fH * g.fW, label: `face ${f}` };
            }),
          }
        : { name: 'row page', rows: 1, cols: geo.pageW, bytesPerElement: geo.info.rmBytes },
    };
  }

  placements(): Placement[] {
    const space = this.spec.buffer === 'DRAM' ? 'tt:dram' : 'tt:l1';
    const capacity = this.spec.buffer === 'DRAM' ? this.arch.dramBankSize : this.arch.l1Size;
    const end = this.base + this.bytesPerUnit;
    if (this.spec.memory === 'INTERLEAVED') return [{ space, start: this.base, end, capacity, what: `every ${this.spec.buffer} bank` }];
    const units = this.cores.map((c) => (this.spec.buffer === 'DRAM' ? `bank ${c[0]}` : `core ${c[0]},${c[1]}`));
    return [{ space, units, start: this.base, end, capacity, what: `${plural(this.units, this.unitKind)}` }];
  }
}

// ---------------------------------------------------------------------------------------------
// forwardMany kernels: one function per case so each keeps its own type feedback

interface RowGeometry {
  r: number;
  /** Rows were written into `res` beforehand (rank > 3). */
  pre: boolean;
  s0: number;
  s1: number;
  sW: number;
  h0: number;
  h1: number;
}

function tileInterleaved(
  coords: Int32Array,
  res: Float64Array,
  units: Int32Array,
  wantUnits: boolean,
  count: number,
  g: RowGeometry,
  lH: number,
  lW: number,
  RT: Float64Array,
  CT: Float64Array,
  Wp: number,
  nb: number,
  base: number,
  ap: number,
): void {
  const { r, pre, s0, s1, sW, h0, h1 } = g;
  const mH = (1 << lH) - 1;
  const mW = (1 << lW) - 1;
  for (let i = 0, k = 0; i < count; i++, k += r) {
    const col = coords[k + r - 1];
    let ri: number;
    if (pre) {
      const row = res[i];
      if (row !== row) {
        if (wantUnits) units[i] = -1;
        continue;
      }
      ri = row | 0;
    } else {
      const a = r >= 2 ? coords[k] : 0;
      const b = r >= 3 ? coords[k + 1] : 0;
      if (a >>> 0 >= s0 || b >>> 0 >= s1 || col >>> 0 >= sW) {
        res[i] = NaN;
        if (wantUnits) units[i] = -1;
        continue;
      }
      ri = a * h0 + b * h1;
    }
    const page = (ri >> lH) * Wp + (col >> lW);
    const unit = page % nb;
    res[i] = base + ((page - unit) / nb) * ap + RT[ri & mH] + CT[col & mW];
    if (wantUnits) units[i] = unit;
  }
}

function tileSharded(
  coords: Int32Array,
  res: Float64Array,
  units: Int32Array,
  wantUnits: boolean,
  count: number,
  g: RowGeometry,
  lH: number,
  lW: number,
  RT: Float64Array,
  CT: Float64Array,
  PRS: Int32Array,
  PRL: Int32Array,
  PCS: Int32Array,
  PCL: Int32Array,
  sc: Int32Array,
  base: number,
  ap: number,
): void {
  const { r, pre, s0, s1, sW, h0, h1 } = g;
  const mH = (1 << lH) - 1;
  const mW = (1 << lW) - 1;
  for (let i = 0, k = 0; i < count; i++, k += r) {
    const col = coords[k + r - 1];
    let ri: number;
    if (pre) {
      const row = res[i];
      if (row !== row) {
        if (wantUnits) units[i] = -1;
        continue;
      }
      ri = row | 0;
    } else {
      const a = r >= 2 ? coords[k] : 0;
      const b = r >= 3 ? coords[k + 1] : 0;
      if (a >>> 0 >= s0 || b >>> 0 >= s1 || col >>> 0 >= sW) {
        res[i] = NaN;
        if (wantUnits) units[i] = -1;
        continue;
      }
      ri = a * h0 + b * h1;
    }
    const pr = ri >> lH;
    const pc = col >> lW;
    res[i] = base + (PRL[pr] + PCL[pc]) * ap + RT[ri & mH] + CT[col & mW];
    if (wantUnits) units[i] = sc[PRS[pr] + PCS[pc]];
  }
}

function rowInterleaved(
  coords: Int32Array,
  res: Float64Array,
  units: Int32Array,
  wantUnits: boolean,
  count: number,
  g: RowGeometry,
  CPC: Int32Array,
  CIN: Float64Array,
  Wp: number,
  nb: number,
  base: number,
  ap: number,
): void {
  const { r, pre, s0, s1, sW, h0, h1 } = g;
  for (let i = 0, k = 0; i < count; i++, k += r) {
    const col = coords[k + r - 1];
    let ri: number;
    if (pre) {
      const row = res[i];
      if (row !== row) {
        if (wantUnits) units[i] = -1;
        continue;
      }
      ri = row | 0;
    } else {
      const a = r >= 2 ? coords[k] : 0;
      const b = r >= 3 ? coords[k + 1] : 0;
      if (a >>> 0 >= s0 || b >>> 0 >= s1 || col >>> 0 >= sW) {
        res[i] = NaN;
        if (wantUnits) units[i] = -1;
        continue;
      }
      ri = a * h0 + b * h1;
    }
    const page = ri * Wp + CPC[col];
    const unit = page % nb;
    res[i] = base + ((page - unit) / nb) * ap + CIN[col];
    if (wantUnits) units[i] = unit;
  }
}

function rowSharded(
  coords: Int32Array,
  res: Float64Array,
  units: Int32Array,
  wantUnits: boolean,
  count: number,
  g: RowGeometry,
  CPC: Int32Array,
  CIN: Float64Array,
  PRS: Int32Array,
  PRL: Int32Array,
  PCS: Int32Array,
  PCL: Int32Array,
  sc: Int32Array,
  base: number,
  ap: number,
): void {
  const { r, pre, s0, s1, sW, h0, h1 } = g;
  for (let i = 0, k = 0; i < count; i++, k += r) {
    const col = coords[k + r - 1];
    let ri: number;
    if (pre) {
      const row = res[i];
      if (row !== row) {
        if (wantUnits) units[i] = -1;
        continue;
      }
      ri = row | 0;
    } else {
      const a = r >= 2 ? coords[k] : 0;
      const b = r >= 3 ? coords[k + 1] : 0;
      if (a >>> 0 >= s0 || b >>> 0 >= s1 || col >>> 0 >= sW) {
        res[i] = NaN;
        if (wantUnits) units[i] = -1;
        continue;
      }
      ri = a * h0 + b * h1;
    }
    const pc = CPC[col];
    res[i] = base + (PRL[ri] + PCL[pc]) * ap + CIN[col];
    if (wantUnits) units[i] = sc[PRS[ri] + PCS[pc]];
  }
}

function ndRank3(
  coords: Int32Array,
  res: Float64Array,
  units: Int32Array,
  wantUnits: boolean,
  count: number,
  SH: Int32Array[],
  LI: Float64Array[],
  nc: number,
  slotBytes: number,
  base: number,
): void {
  const [S0, S1, S2] = SH;
  const [L0, L1, L2] = LI;
  const n0 = S0.length;
  const n1 = S1.length;
  const n2 = S2.length;
  for (let i = 0, k = 0; i < count; i++, k += 3) {
    const a = coords[k];
    const b = coords[k + 1];
    const c = coords[k + 2];
    if (a >>> 0 >= n0 || b >>> 0 >= n1 || c >>> 0 >= n2) {
      res[i] = NaN;
      if (wantUnits) units[i] = -1;
      continue;
    }
    // a shard index is a non-negative int32 (nShards < 2^31): integer division and remainder are exact
    const shard = (S0[a] + S1[b] + S2[c]) | 0;
    const q = (shard / nc) | 0;
    const unit = shard - q * nc;
    res[i] = base + q * slotBytes + L0[a] + L1[b] + L2[c];
    if (wantUnits) units[i] = unit;
  }
}
