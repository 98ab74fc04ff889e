/**
 * The state of a TT-NN buffer, computed once from its spec: page geometry, units (banks or cores), the
 * shard grid (2-D or ND), and the per-element helpers the mapping, the summary and the regions share.
 * `TTLayout` (layout.ts) is this class with the `LayoutModel` methods.
 */
import type { DType } from '../../dtypes';
import type { ForwardBase, UnitRef } from '../../model';
import { cdiv, coordProblem, LayoutError, prod, ravel, rmStrides, roundUp, safe, unravel } from '../../util';
import type { TTArch } from '../ttArch';
import { exponentBytes, inTile, tileDataBytes } from '../ttTile';
import { enumerateCores, type Geometry, geometry, type TTSpec } from './spec';
import { structuralTT } from './structural';

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

export class TTBase {
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
  readonly shardCore: Int32Array = new Int32Array(0);
  private coreShard: Int32Array = new Int32Array(0);
  // ND sharding
  readonly tensorPages: number[] = [];
  readonly shardPages: number[] = [];
  readonly gridShape: number[] = [];
  readonly shardVol: number = 0;
  readonly perCore: number = 0;
  protected readonly heightStrides: number[];
  readonly numel: number;
  readonly expBytes: number;
  readonly dataSection: number;

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
        // HEIGHT shards keep whole rows: the width written is not used (TT005 reports one that is not the physical width)
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

  /** Row and column in the folded 2-D tensor (a 1-D coordinate is row 0). */
  rowCol(coord: readonly number[]): [number, number] {
    const r = coord.length;
    let row = 0;
    for (let d = 0; d < r - 1; d++) row += coord[d] * this.heightStrides[d];
    return [row, coord[r - 1]];
  }

  /** Physical (row, col) → tensor coordinate, or undefined when it is padding. */
  coordOf(row: number, col: number): number[] | undefined {
    const geo = this.geo;
    const h = unravel(row, geo.padded.slice(0, -1));
    const c2 = [...h, col];
    if (c2.some((v, d) => v >= geo.shape2[d])) return undefined;
    return this.shape.length === 1 ? [col] : c2;
  }

  /** Byte inside the page for physical (row, col). */
  pageByteOf(row: number, col: number): { pageByte: number; tile?: TTForward['tile']; exponentByte?: number; nibble?: number; size: number } {
    const geo = this.geo;
    if (!geo.g) return { pageByte: (col % geo.pageW) * geo.info.rmBytes, size: geo.info.rmBytes };
    const t = inTile(row, col, geo.g);
    const tile = { rr: t.rr, cc: t.cc, face: t.face, ir: t.ir, ic: t.ic, elem: t.elem };
    const bits = geo.info.tileBits;
    if (!geo.info.blockFloat) return { pageByte: (t.elem * bits) / 8, tile, size: bits / 8 };
    const exponentByte = t.face * geo.g.fH + (geo.g.transpose ? t.ic : t.ir);
    const per = 8 / bits; // elements per byte: 1 (bfloat8_b) or 2 (bfloat4_b, low nibble first)
    return { pageByte: this.expBytes + Math.floor(t.elem / per), tile, exponentByte, nibble: bits === 4 ? t.elem % per : undefined, size: bits / 8 };
  }

  /** Real rows × columns of the page at (pageRow, pageCol). */
  protected pageReal(pr: number, pc: number): { rows: number; cols: number; first?: number[] } {
    const geo = this.geo;
    const r2 = geo.shape2.length;
    const row0 = pr * geo.pageH;
    const hb = geo.padded[r2 - 2];
    const batch = Math.floor(row0 / hb);
    const bc = unravel(batch, geo.padded.slice(0, r2 - 2));
    if (bc.some((v, d) => v >= geo.shape2[d])) return { rows: 0, cols: 0 };
    const inB = row0 % hb;
    const rows = Math.max(0, Math.min(geo.pageH, geo.shape2[r2 - 2] - inB));
    const cols = Math.max(0, Math.min(geo.pageW, geo.shape2[r2 - 1] - pc * geo.pageW));
    // no real row or column: the first element is past the tensor too, so `first` is undefined
    return { rows, cols, first: this.coordOf(row0, pc * geo.pageW) };
  }

  bankOffsetOf(unit: number): number {
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
  slotSource(
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
}
