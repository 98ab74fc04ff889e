/**
 * `.csfbin` fixtures of the viewer tests, written here from the tensors' values by a small writer of
 * our own (formats.md §A.2: order, shape, nnz, entries (u32 index, f32 value), P = F + 1, pointers;
 * all little-endian), independent of core/csf's encoder.
 */

/** Writes a file from its shape and fibers of (index, value) pairs (row-major fiber order). */
export function writeCsfFixture(shape: number[], fibers: [number, number][][]): Uint8Array {
  const n = shape.length;
  const nnz = fibers.reduce((s, f) => s + f.length, 0);
  const F = fibers.length;
  const out = new Uint8Array(16 + 4 * n + 8 * nnz + 4 * F);
  const dv = new DataView(out.buffer);
  let o = 0;
  const u32 = (v: number) => {
    dv.setUint32(o, v, true);
    o += 4;
  };
  u32(n);
  for (const s of shape) u32(s);
  u32(nnz);
  for (const f of fibers)
    for (const [i, v] of f) {
      u32(i);
      dv.setFloat32(o, v, true);
      o += 4;
    }
  u32(F + 1);
  let p = 0;
  u32(0);
  for (const f of fibers) u32((p += f.length));
  return out;
}

/** formats.md A.8.1: the 2×3 tensor [[0, 1.5, 0], [-2.0, 0, 3.25]] (56 bytes). */
export const tensorA = (): Uint8Array =>
  writeCsfFixture(
    [2, 3],
    [
      [[1, 1.5]],
      [
        [0, -2],
        [2, 3.25],
      ],
    ],
  );

/** A.8.4 "3rd entry index 3": A with the index of entry 2 (at byte 32) set to 3 = shape[1] (out of range). */
export function tensorABadIndex(): Uint8Array {
  const b = tensorA();
  new DataView(b.buffer).setUint32(32, 3, true);
  return b;
}

/** A with its end pointer (ptr[2], bytes 52..55) lowered to 2 (≠ nnz = 3). */
export function tensorABadEnd(): Uint8Array {
  const b = tensorA();
  new DataView(b.buffer).setUint32(52, 2, true);
  return b;
}

/** The big file: shape [BIG_F, BIG_K], BIG_L entries per fiber; entry k of fiber f has index 5k + f mod 5 and value 1000f + k. */
export const BIG_F = 1000;
export const BIG_K = 5000;
export const BIG_L = 1000;
export const bigIndex = (f: number, k: number) => 5 * k + (f % 5);
export const bigValue = (f: number, k: number) => BIG_L * f + k;

/** A 2-D file of shape [F, K] with L entries in every fiber: entry k of fiber f at `index(f, k)` (ascending in k) with `value(f, k)`. */
export function regularFile(F: number, K: number, L: number, index: (f: number, k: number) => number, value: (f: number, k: number) => number): Uint8Array {
  const nnz = F * L;
  const words = new Uint32Array(4 + 2 * nnz + 1 + F + 1);
  const floats = new Float32Array(words.buffer);
  words.set([2, F, K, nnz]);
  let w = 4;
  for (let f = 0; f < F; f++)
    for (let k = 0; k < L; k++, w += 2) {
      words[w] = index(f, k);
      floats[w + 1] = value(f, k);
    }
  words[w++] = F + 1;
  for (let f = 0; f <= F; f++) words[w++] = f * L;
  return new Uint8Array(words.buffer);
}

export const bigFile = (): Uint8Array => regularFile(BIG_F, BIG_K, BIG_L, bigIndex, bigValue);

/** A 2×2×3 tensor for the heatmap's slices: x[0] = [[1, 0, 0], [0, 2, 0]], x[1] = [[0, 0, 9], [4, 0, 0]] (entries 0–3, from offset 20). */
export const tensorCube = (): Uint8Array => writeCsfFixture([2, 2, 3], [[[0, 1]], [[1, 2]], [[2, 9]], [[0, 4]]]);

/** The heatmap bench's file: shape [2048, 2048] with 2^20 entries, every 4th cell of each row (index 4k + r mod 4), value ((7r + 13k) mod 201) − 100. */
export const heatFile = (): Uint8Array =>
  regularFile(
    2048,
    2048,
    512,
    (r, k) => 4 * k + (r % 4),
    (r, k) => ((7 * r + 13 * k) % 201) - 100,
  );

export const FIXTURES = { a: tensorA, cube: tensorCube, heat: heatFile, 'a-bad-index': tensorABadIndex, 'a-bad-end': tensorABadEnd, big: bigFile } as const;
export type FixtureName = keyof typeof FIXTURES;
