/** TT-Metalium buffer specs: memory kinds, core ranges and their enumeration, the page geometry of a buffer. */
import { type DType, TT_DTYPES, type TTDtypeInfo } from '../../dtypes';
import { prod, roundUp } from '../../util';
import type { TTArch } from '../ttArch';
import { tileBytes, type TileGeometry, tileGeometry } from '../ttTile';

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

/** Logical → padded → 2-D physical shape and the page grid of a buffer. */
export interface Geometry {
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

export function geometry(spec: TTSpec): Geometry {
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
