/**
 * Batch-mapping kernels shared by the models. Loops are unrolled for ranks 1–4 (a loop over the dims
 * inside the per-coordinate loop costs 3–4× in V8). A coordinate out of range gives NaN.
 *
 * - `mapLinear`: address = base + Σ c_d · stride_d (strides in bytes).
 * - `mapTables`: address = base + Σ T_d[c_d] (one table per dim, size = that dim's extent): any layout
 *   whose address is a sum of per-dim contributions (Spyre dim_map, 16-byte cells, strided).
 */

/** Total table entries above which models keep their general loop instead of building tables. */
export const TABLE_LIMIT = 1 << 21;

export function mapLinear(base: number, sizes: ArrayLike<number>, strides: ArrayLike<number>, coords: Int32Array, out: Float64Array, count: number): void {
  const r = sizes.length;
  if (r === 1) {
    const s0 = sizes[0] >>> 0;
    const t0 = strides[0];
    for (let i = 0; i < count; i++) {
      const a = coords[i];
      out[i] = a >>> 0 < s0 ? base + a * t0 : NaN;
    }
  } else if (r === 2) {
    const s0 = sizes[0] >>> 0;
    const s1 = sizes[1] >>> 0;
    const t0 = strides[0];
    const t1 = strides[1];
    for (let i = 0, k = 0; i < count; i++, k += 2) {
      const a = coords[k];
      const b = coords[k + 1];
      out[i] = a >>> 0 < s0 && b >>> 0 < s1 ? base + a * t0 + b * t1 : NaN;
    }
  } else if (r === 3) {
    const s0 = sizes[0] >>> 0;
    const s1 = sizes[1] >>> 0;
    const s2 = sizes[2] >>> 0;
    const t0 = strides[0];
    const t1 = strides[1];
    const t2 = strides[2];
    for (let i = 0, k = 0; i < count; i++, k += 3) {
      const a = coords[k];
      const b = coords[k + 1];
      const c = coords[k + 2];
      out[i] = a >>> 0 < s0 && b >>> 0 < s1 && c >>> 0 < s2 ? base + a * t0 + b * t1 + c * t2 : NaN;
    }
  } else if (r === 4) {
    const s0 = sizes[0] >>> 0;
    const s1 = sizes[1] >>> 0;
    const s2 = sizes[2] >>> 0;
    const s3 = sizes[3] >>> 0;
    const t0 = strides[0];
    const t1 = strides[1];
    const t2 = strides[2];
    const t3 = strides[3];
    for (let i = 0, k = 0; i < count; i++, k += 4) {
      const a = coords[k];
      const b = coords[k + 1];
      const c = coords[k + 2];
      const d = coords[k + 3];
      out[i] = a >>> 0 < s0 && b >>> 0 < s1 && c >>> 0 < s2 && d >>> 0 < s3 ? base + a * t0 + b * t1 + c * t2 + d * t3 : NaN;
    }
  } else {
    const sz = Int32Array.from(sizes as ArrayLike<number>);
    const st = Float64Array.from(strides as ArrayLike<number>);
    for (let i = 0, k = 0; i < count; i++) {
      let acc = base;
      let ok = true;
      for (let d = 0; d < r; d++, k++) {
        const c = coords[k];
        if (c >>> 0 >= sz[d]) ok = false;
        acc += c * st[d];
      }
      out[i] = ok ? acc : NaN;
    }
  }
}

export function mapTables(base: number, tables: Float64Array[], coords: Int32Array, out: Float64Array, count: number): void {
  const r = tables.length;
  if (r === 1) {
    const T0 = tables[0];
    const s0 = T0.length;
    for (let i = 0; i < count; i++) {
      const a = coords[i];
      out[i] = a >>> 0 < s0 ? base + T0[a] : NaN;
    }
  } else if (r === 2) {
    const [T0, T1] = tables;
    const s0 = T0.length;
    const s1 = T1.length;
    for (let i = 0, k = 0; i < count; i++, k += 2) {
      const a = coords[k];
      const b = coords[k + 1];
      out[i] = a >>> 0 < s0 && b >>> 0 < s1 ? base + T0[a] + T1[b] : NaN;
    }
  } else if (r === 3) {
    const [T0, T1, T2] = tables;
    const s0 = T0.length;
    const s1 = T1.length;
    const s2 = T2.length;
    for (let i = 0, k = 0; i < count; i++, k += 3) {
      const a = coords[k];
      const b = coords[k + 1];
      const c = coords[k + 2];
      out[i] = a >>> 0 < s0 && b >>> 0 < s1 && c >>> 0 < s2 ? base + T0[a] + T1[b] + T2[c] : NaN;
    }
  } else if (r === 4) {
    const [T0, T1, T2, T3] = tables;
    const s0 = T0.length;
    const s1 = T1.length;
    const s2 = T2.length;
    const s3 = T3.length;
    for (let i = 0, k = 0; i < count; i++, k += 4) {
      const a = coords[k];
      const b = coords[k + 1];
      const c = coords[k + 2];
      const d = coords[k + 3];
      out[i] = a >>> 0 < s0 && b >>> 0 < s1 && c >>> 0 < s2 && d >>> 0 < s3 ? base + T0[a] + T1[b] + T2[c] + T3[d] : NaN;
    }
  } else {
    for (let i = 0, k = 0; i < count; i++) {
      let acc = base;
      let ok = true;
      for (let d = 0; d < r; d++, k++) {
        const c = coords[k];
        const T = tables[d];
        if (c >>> 0 >= T.length) ok = false;
        else acc += T[c];
      }
      out[i] = ok ? acc : NaN;
    }
  }
}

/** Builds one table per dim from a per-dim contribution function, or undefined past TABLE_LIMIT entries. */
export function buildTables(sizes: readonly number[], contribution: (dim: number, c: number) => number): Float64Array[] | undefined {
  let total = 0;
  for (const s of sizes) total += s;
  if (total > TABLE_LIMIT) return undefined;
  return sizes.map((s, d) => {
    const t = new Float64Array(s);
    for (let c = 0; c < s; c++) t[c] = contribution(d, c);
    return t;
  });
}
