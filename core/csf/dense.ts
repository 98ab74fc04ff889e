/**
 * Dense ⇄ fibered conversions (formats.md §A.6). Dense arrays are row-major (C order) `Float32Array`s;
 * bit patterns are copied exactly (NaN payloads and −0 survive a round trip).
 */
import { CsfError, elementCount, exactProduct, fiberCount, formatShape, makeTensor, type CsfTensor } from './types';
import { checkTensor, type WriteOptions } from './codec';

export interface DenseToCsfOptions extends WriteOptions {
  /** Keep every element, zeros included (a dense file like the simulator's output: nnz = Π shape, ptr[i] = i·shape[n-1]). */
  keepZeros?: boolean;
}

/** Largest dense array the converters allocate (2^28 elements, 1 GiB). */
export const MAX_DENSE_ELEMENTS = 2 ** 28;

/**
 * Dense → fibered: fiber r holds (j, x[r·L + j]) for every j with x ≠ 0 (±0 dropped, NaN kept), unless
 * `keepZeros`. Throws `CsfError` when `data.length ≠ Π shape` or the shape cannot be written.
 */
export function denseToCsf(data: Float32Array, shape: number[], opts: DenseToCsfOptions = {}): CsfTensor {
  const total = elementCount(shape);
  if (shape.length === 0) throw new CsfError({ code: 'csf.bad-shape', severity: 'error', message: 'a tensor must have order at least 1, found order 0' });
  if (data.length !== total)
    throw new CsfError({
      code: 'csf.bad-shape',
      severity: 'error',
      message: `shape ${formatShape(shape)} has ${exactProduct(shape)} elements, the data has ${data.length}`,
    });
  const F = fiberCount(shape);
  if (F === undefined) throw new CsfError({ code: 'csf.count-overflow', severity: 'error', message: `shape ${formatShape(shape)} has too many fibers` });
  const L = shape[shape.length - 1];
  const src = new Uint32Array(data.buffer, data.byteOffset, data.length);
  let nnz = 0;
  if (opts.keepZeros) nnz = total;
  else for (let x = 0; x < total; x++) if ((src[x] & 0x7fffffff) !== 0) nnz++;
  const ptr = new Uint32Array(F + 1);
  const indices = new Uint32Array(nnz);
  const bits = new Uint32Array(nnz);
  let o = 0;
  for (let r = 0, x = 0; r < F; r++) {
    ptr[r] = o;
    for (let j = 0; j < L; j++, x++) {
      const b = src[x];
      if (opts.keepZeros || (b & 0x7fffffff) !== 0) {
        indices[o] = j;
        bits[o++] = b;
      }
    }
  }
  ptr[F] = o;
  const t = makeTensor([...shape], ptr, indices, bits);
  const problems = checkTensor(t, opts);
  if (problems.length > 0) throw new CsfError(problems[0]);
  return t;
}

/** Fibered → dense (row-major). Throws `CsfError` (`npy.too-large`) above `MAX_DENSE_ELEMENTS` elements. */
export function csfToDense(t: CsfTensor): Float32Array {
  const total = elementCount(t.shape);
  if (total > MAX_DENSE_ELEMENTS)
    throw new CsfError({
      code: 'npy.too-large',
      severity: 'error',
      message: `shape ${formatShape(t.shape)} has ${total} elements, more than the ${MAX_DENSE_ELEMENTS} a dense array may hold here`,
    });
  const out = new Float32Array(total);
  const dst = new Uint32Array(out.buffer);
  const L = t.shape[t.shape.length - 1];
  const F = t.ptr.length - 1;
  const { ptr, indices, bits } = t;
  for (let r = 0; r < F; r++) {
    const base = r * L;
    for (let e = ptr[r]; e < ptr[r + 1]; e++) dst[base + indices[e]] = bits[e];
  }
  return out;
}
