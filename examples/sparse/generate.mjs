// Writes the example `.csfbin` files of this folder (run `node examples/sparse/generate.mjs`; the
// outputs are committed, each well under 10 KB). Layout (CROSS-mini .csfbin, little-endian): order, shape,
// nnz, nnz × (u32 index, f32 value), P = F + 1, then the F + 1 entry pointers.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Bytes of a tensor given as its shape and its fibers (row-major) of [index, value] pairs. */
function csf(shape, fibers) {
  const nnz = fibers.reduce((s, f) => s + f.length, 0);
  const out = Buffer.alloc(16 + 4 * shape.length + 8 * nnz + 4 * fibers.length);
  let o = 0;
  const u32 = (v) => (o = out.writeUInt32LE(v >>> 0, o));
  u32(shape.length);
  for (const s of shape) u32(s);
  u32(nnz);
  for (const f of fibers)
    for (const [i, v] of f) {
      u32(i);
      o = out.writeFloatLE(v, o);
    }
  u32(fibers.length + 1);
  let p = 0;
  u32(0);
  for (const f of fibers) u32((p += f.length));
  return out;
}

// The 2×3 matrix [[0, 1.5, 0], [-2, 0, 3.25]] (56 bytes).
writeFileSync(
  join(here, 'matrix.csfbin'),
  csf(
    [2, 3],
    [
      [[1, 1.5]],
      [
        [0, -2],
        [2, 3.25],
      ],
    ],
  ),
);

// A 4×3×16 tensor: fiber (i, j) holds (j + 1) entries at indices 5k + i with value i + j/10 + k/100; fiber (2, 1) is empty.
const fibers = [];
for (let i = 0; i < 4; i++)
  for (let j = 0; j < 3; j++) fibers.push(i === 2 && j === 1 ? [] : Array.from({ length: j + 1 }, (_, k) => [5 * k + i, i + j / 10 + k / 100]));
writeFileSync(join(here, 'tensor3d.csfbin'), csf([4, 3, 16], fibers));

// A corrupt file: the matrix with the entries of row 1 swapped (index 2 before index 0), which the
// viewer and `tensor-lens csf validate` report as V15 csf.unsorted-index at byte offset 32.
writeFileSync(
  join(here, 'unsorted.csfbin'),
  csf(
    [2, 3],
    [
      [[1, 1.5]],
      [
        [2, 3.25],
        [0, -2],
      ],
    ],
  ),
);
