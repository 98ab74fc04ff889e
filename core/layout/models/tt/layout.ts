/**
 * TT-Metalium / TT-NN buffers (research layouts.md part B): ROW_MAJOR or TILE pages (tiles made of
 * 16×16-ish faces, block-float exponents), logical → padded → 2-D physical shape, interleaved over
 * DRAM or L1 banks, HEIGHT/WIDTH/BLOCK sharded over a core grid with partial edge shards, and ND
 * sharding (round-robin of ND shards over cores).
 *
 * The state and its helpers are in base.ts, one element's mapping in forward.ts, the summary in
 * summary.ts, the advice in advice.ts; the batch mapping (`forwardMany`) is here, its loops in kernels.ts.
 */
import { TABLE_LIMIT, mapLinear } from '../../fast';
import type { Issue } from '../../issues';
import { checkManyInput, type InverseResult, type LayoutModel, type LayoutSummary, type Placement, type Regions, runsOf, type Slot } from '../../model';
import { log2i, plural, rmStrides } from '../../util';
import { adviceTT } from './advice';
import { TTBase, type TTForward } from './base';
import { forwardTT, inverseTT } from './forward';
import { ndRank3, type RowGeometry, rowInterleaved, rowSharded, tileInterleaved, tileSharded } from './kernels';
import { summaryTT } from './summary';

export class TTLayout extends TTBase implements LayoutModel<TTForward> {
  readonly kind = 'tt' as const;

  forward(coord: readonly number[]): TTForward {
    return forwardTT(this, coord);
  }

  inverse(address: number, unit?: number): InverseResult {
    return inverseTT(this, address, unit);
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
    // bfloat4_b: two elements per byte (the floor); 8 bits and more: a whole number of bytes
    const toBytes = (e: number) => Math.floor((e * bits) / 8);
    return {
      RT: Float64Array.from({ length: g.tH }, (_, rr) => this.expBytes + toBytes(A(rr))),
      CT: Float64Array.from({ length: g.tW }, (_, cc) => toBytes(B(cc))),
    };
  }

  /** Row-major pages: the page column and the byte in the page of every column. */
  private colTables(): { CPC: Int32Array; CIN: Float64Array } {
    const geo = this.geo;
    const W = this.shape[this.shape.length - 1];
    return {
      CPC: Int32Array.from({ length: W }, (_, c) => Math.floor(c / geo.pageW)),
      CIN: Float64Array.from({ length: W }, (_, c) => (c % geo.pageW) * geo.info.rmBytes),
    };
  }

  /** 2-D sharding: per page row, its shard row (as the first shard of it) and local page row; per page column the same. */
  private shardTables(): { PRS: Int32Array; PRL: Int32Array; PCS: Int32Array; PCL: Int32Array } {
    const geo = this.geo;
    return {
      PRS: Int32Array.from({ length: geo.Hp }, (_, pr) => Math.floor(pr / this.sh) * this.nCol),
      PRL: Int32Array.from({ length: geo.Hp }, (_, pr) => (pr % this.sh) * this.sw),
      PCS: Int32Array.from({ length: geo.Wp }, (_, pc) => Math.floor(pc / this.sw)),
      PCL: Int32Array.from({ length: geo.Wp }, (_, pc) => pc % this.sw),
    };
  }

  /** The tables of the 2-D kernels, each built on first use. */
  private tileT?: { RT: Float64Array; CT: Float64Array };
  private colT?: { CPC: Int32Array; CIN: Float64Array };
  private shardT?: { PRS: Int32Array; PRL: Int32Array; PCS: Int32Array; PCL: Int32Array };
  /** Per dimension: the coordinate's shard-index part (< nShards < 2^31: int32) and its byte part. */
  private ndTables?: { SH: Int32Array[]; LI: Float64Array[] } | null;

  forwardMany(coords: Int32Array, out?: Float64Array, units?: Int32Array): Float64Array {
    const r = this.shape.length;
    const count = checkManyInput(coords, r);
    const res = out ?? new Float64Array(count);
    const geo = this.geo;
    const mem = this.spec.memory;
    if (mem === 'ND_SHARDED') return this.forwardManyNd(coords, res, units, count);
    // the kernels take rows through int32 operations (`| 0`, `>>`) and the width through `>>> 0`; pages stay doubles
    // Stryker disable next-line ConditionalExpression,EqualityOperator: false only goes element by element (same addresses); at 2^31 the last row fits
    const intSafe = geo.physH < 2 ** 31 && geo.physW < 2 ** 31;
    // Stryker disable next-line all: only picks tables or element by element, which give the same addresses (tables are memory: at most TABLE_LIMIT)
    const tableOk = (mem === 'INTERLEAVED' || geo.Hp + geo.Wp <= TABLE_LIMIT) && (!!geo.g || this.shape[r - 1] <= TABLE_LIMIT);
    // Stryker disable next-line ConditionalExpression: true only goes element by element (same addresses)
    if (!intSafe || !tableOk) return this.forwardManySlow(coords, res, units, count);
    // ranks 1–3 compute the physical row inline; higher ranks write rows into `res` first
    // Stryker disable next-line EqualityOperator: rank 3 through precomputed rows (r >= 3) gets the same rows, only slower
    const pre = r > 3;
    // Stryker disable next-line ConditionalExpression: rows written for ranks 1–3 too would be overwritten by the kernels' inline rows
    if (pre) mapLinear(0, this.shape, [...this.heightStrides, 0], coords, res, count);
    const g: RowGeometry = {
      r,
      pre,
      // below rank 2 the row coordinate is 0, which shape[0] ≥ 1 lets through and heightStrides[0] (the 2-D folding has one) zeroes
      s0: this.shape[0] >>> 0,
      s1: (r >= 3 ? this.shape[1] : 1) >>> 0,
      sW: this.shape[r - 1] >>> 0,
      h0: this.heightStrides[0],
      h1: r >= 3 ? this.heightStrides[1] : 0,
    };
    const u = units ?? new Int32Array(0);
    if (geo.g) {
      const { RT, CT } = (this.tileT ??= this.pageTables());
      const lH = log2i(geo.g.tH);
      const lW = log2i(geo.g.tW);
      if (mem === 'INTERLEAVED') tileInterleaved(coords, res, u, count, g, lH, lW, RT, CT, geo.Wp, this.units, this.base, this.alignedPage);
      else {
        const { PRS, PRL, PCS, PCL } = (this.shardT ??= this.shardTables());
        tileSharded(coords, res, u, count, g, lH, lW, RT, CT, PRS, PRL, PCS, PCL, this.shardCore, this.base, this.alignedPage);
      }
    } else {
      const { CPC, CIN } = (this.colT ??= this.colTables());
      if (mem === 'INTERLEAVED') rowInterleaved(coords, res, u, count, g, CIN, this.units, this.base, this.alignedPage);
      else {
        const { PRS, PRL } = (this.shardT ??= this.shardTables());
        rowSharded(coords, res, u, count, g, CPC, CIN, PRS, PRL, this.shardCore, this.base, this.alignedPage);
      }
    }
    return res;
  }

  /** The tables of forwardManyNd, or null where they would be too long or inexact (then element by element). */
  private ndTablesOf(): { SH: Int32Array[]; LI: Float64Array[] } | null {
    // memory only: one table entry per index of every dim
    // Stryker disable next-line all: past the limit, element by element gives the same addresses
    const tooLong = this.shape.reduce((a, b) => a + b, 0) * 2 > TABLE_LIMIT;
    // shard indices are int32 in the tables; addresses must stay exact doubles
    // Stryker disable next-line EqualityOperator,ArithmeticOperator: a flipped bound sends all element by element; at 2^31 shards the tables still hold
    if (tooLong || this.nShards >= 2 ** 31 || this.slotsPerUnit * this.alignedPage >= 2 ** 52) return null;
    const geo = this.geo;
    const { RT, CT } = this.pageTables();
    const r2 = geo.shape2.length;
    const off = r2 - this.shape.length; // a 1-D tensor is the last dim of the 2-D folding
    const gridStr = rmStrides(this.gridShape);
    const shardStr = rmStrides(this.shardPages);
    const ap = this.alignedPage;
    const dims = this.shape.map((n, d) => {
      const D = d + off;
      const pcOf = (c: number) => (D === r2 - 1 ? Math.floor(c / geo.pageW) : D === r2 - 2 ? Math.floor(c / geo.pageH) : c);
      // byte in the page: the column's part with the exponent section (0 B without block floats) and the row's part
      // (RT holds the exponent section once; row-major pages are one row: RT = [0])
      const inn = (c: number) => (D === r2 - 1 ? CT[c % geo.pageW] + this.expBytes : D === r2 - 2 ? RT[c % geo.pageH] - this.expBytes : 0);
      return {
        sh: Int32Array.from({ length: n }, (_, c) => Math.floor(pcOf(c) / this.shardPages[D]) * gridStr[D]),
        li: Float64Array.from({ length: n }, (_, c) => (pcOf(c) % this.shardPages[D]) * shardStr[D] * ap + inn(c)),
      };
    });
    return { SH: dims.map((t) => t.sh), LI: dims.map((t) => t.li) };
  }

  /**
   * ND sharding: shard id and the byte inside the shard's slot are sums of per-dim table entries
   * (`LI` = local page · aligned page + byte in the page, folded into one table); the core and the
   * slot of a shard come from a division by the core count, exact for integers: the shard index is below
   * 2^31, so ⌊shard / nc⌋ is never rounded up to the next integer.
   */
  private forwardManyNd(coords: Int32Array, res: Float64Array, units: Int32Array | undefined, count: number): Float64Array {
    const r = this.shape.length;
    // Stryker disable next-line all: a cache; never built or built again, the addresses are the same (element by element without tables)
    if (this.ndTables === undefined) this.ndTables = this.ndTablesOf();
    // Stryker disable next-line ConditionalExpression: true only goes element by element (same addresses)
    if (!this.ndTables) return this.forwardManySlow(coords, res, units, count);
    const { SH, LI } = this.ndTables;
    const nc = this.units;
    const slotBytes = this.shardVol * this.alignedPage;
    const base = this.base;
    const u = units ?? new Int32Array(0); // zero-length: writes past its end are ignored
    // Stryker disable next-line ConditionalExpression,BlockStatement: the rank-3 kernel is a faster copy of the loop below (same answers)
    if (r === 3) {
      ndRank3(coords, res, u, count, SH, LI, nc, slotBytes, base);
      return res;
    }
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
        u[i] = -1;
        continue;
      }
      const q = Math.floor(shard / nc);
      res[i] = base + q * slotBytes + local;
      u[i] = shard - q * nc;
    }
    return res;
  }

  private forwardManySlow(coords: Int32Array, res: Float64Array, units: Int32Array | undefined, count: number): Float64Array {
    const r = this.shape.length;
    for (let i = 0; i < count; i++) {
      const c = Array.from(coords.subarray(i * r, i * r + r));
      if (this.checkCoord(c)) {
        res[i] = NaN;
        if (units) units[i] = -1;
        continue;
      }
      const f = forwardTT(this, c);
      res[i] = f.address;
      if (units) units[i] = f.unit!.index;
    }
    return res;
  }

  summary(): LayoutSummary {
    return summaryTT(this);
  }

  /** Warnings and information for a valid buffer (TT010, TT012, TT015–TT018). */
  advice(): Issue[] {
    return adviceTT(this);
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
