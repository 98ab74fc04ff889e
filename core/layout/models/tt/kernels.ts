/**
 * `forwardMany` kernels of TT-NN buffers: one function per case so each keeps its own type feedback. `units` is
 * zero-length when the caller wants no units: a typed array ignores writes past its end, so every kernel writes it.
 */

export interface RowGeometry {
  r: number;
  /** Rows were written into `res` beforehand (rank > 3). */
  pre: boolean;
  s0: number;
  s1: number;
  sW: number;
  h0: number;
  h1: number;
}

export function tileInterleaved(
  coords: Int32Array,
  res: Float64Array,
  units: Int32Array,
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
        units[i] = -1;
        continue;
      }
      ri = row | 0;
    } else {
      const a = r >= 2 ? coords[k] : 0;
      const b = r >= 3 ? coords[k + 1] : 0;
      if (a >>> 0 >= s0 || b >>> 0 >= s1 || col >>> 0 >= sW) {
        res[i] = NaN;
        units[i] = -1;
        continue;
      }
      ri = a * h0 + b * h1;
    }
    const page = (ri >> lH) * Wp + (col >> lW);
    const unit = page % nb;
    res[i] = base + ((page - unit) / nb) * ap + RT[ri & mH] + CT[col & mW];
    units[i] = unit;
  }
}

export function tileSharded(
  coords: Int32Array,
  res: Float64Array,
  units: Int32Array,
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
        units[i] = -1;
        continue;
      }
      ri = row | 0;
    } else {
      const a = r >= 2 ? coords[k] : 0;
      const b = r >= 3 ? coords[k + 1] : 0;
      if (a >>> 0 >= s0 || b >>> 0 >= s1 || col >>> 0 >= sW) {
        res[i] = NaN;
        units[i] = -1;
        continue;
      }
      ri = a * h0 + b * h1;
    }
    const pr = ri >> lH;
    const pc = col >> lW;
    res[i] = base + (PRL[pr] + PCL[pc]) * ap + RT[ri & mH] + CT[col & mW];
    units[i] = sc[PRS[pr] + PCS[pc]];
  }
}

export function rowInterleaved(
  coords: Int32Array,
  res: Float64Array,
  units: Int32Array,
  count: number,
  g: RowGeometry,
  CIN: Float64Array,
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
        units[i] = -1;
        continue;
      }
      ri = row | 0;
    } else {
      const a = r >= 2 ? coords[k] : 0;
      const b = r >= 3 ? coords[k + 1] : 0;
      if (a >>> 0 >= s0 || b >>> 0 >= s1 || col >>> 0 >= sW) {
        res[i] = NaN;
        units[i] = -1;
        continue;
      }
      ri = a * h0 + b * h1;
    }
    // an interleaved row-major page is a whole row (its width is the physical width): page = row
    const unit = ri % nb;
    res[i] = base + ((ri - unit) / nb) * ap + CIN[col];
    units[i] = unit;
  }
}

export function rowSharded(
  coords: Int32Array,
  res: Float64Array,
  units: Int32Array,
  count: number,
  g: RowGeometry,
  CPC: Int32Array,
  CIN: Float64Array,
  PRS: Int32Array,
  PRL: Int32Array,
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
        units[i] = -1;
        continue;
      }
      ri = row | 0;
    } else {
      const a = r >= 2 ? coords[k] : 0;
      const b = r >= 3 ? coords[k + 1] : 0;
      if (a >>> 0 >= s0 || b >>> 0 >= s1 || col >>> 0 >= sW) {
        res[i] = NaN;
        units[i] = -1;
        continue;
      }
      ri = a * h0 + b * h1;
    }
    // a row-major shard is one page wide (the page is the shard width): the page column is the shard column, and the local
    // page is the row in the shard
    const pc = CPC[col];
    res[i] = base + PRL[ri] * ap + CIN[col];
    units[i] = sc[PRS[ri] + pc];
  }
}

export function ndRank3(
  coords: Int32Array,
  res: Float64Array,
  units: Int32Array,
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
      units[i] = -1;
      continue;
    }
    // a shard index is a non-negative int32 (nShards < 2^31): integer division and remainder are exact
    const shard = (S0[a] + S1[b] + S2[c]) | 0;
    const q = (shard / nc) | 0;
    const unit = shard - q * nc;
    res[i] = base + q * slotBytes + L0[a] + L1[b] + L2[c];
    units[i] = unit;
  }
}
