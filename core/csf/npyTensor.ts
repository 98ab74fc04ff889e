/**
 * What `.csfbin` conversion accepts of a `.npy` file, on the codec of core/common/npy.ts: little-endian
 * float32 (`'<f4'`) in C order, of order ≥ 1 and exactly the data the shape needs. Anything else is
 * reported as a `CsfIssue` saying what was found and how to convert it with numpy.
 */
import { encodeNpy, NPY_DTYPE_NAMES, npyData, readNpyHeader } from '../common/npy';
import { elementCount, exactProduct, formatShape, type CsfIssue, type Result } from './types';

/** A dense float32 array of a `.npy` file. */
export interface NpyFloat32 {
  shape: number[];
  data: Float32Array;
}

const issue = (code: CsfIssue['code'], offset: number, length: number, message: string): { ok: false; issues: CsfIssue[] } => ({
  ok: false,
  issues: [{ code, severity: 'error', offset, length, message }],
});

/** Reads a `.npy` file holding a little-endian float32 array of order ≥ 1 in C order. Never throws. */
export function readNpy(bytes: Uint8Array): Result<NpyFloat32> {
  const r = readNpyHeader(bytes);
  if (!r.ok) return issue(`npy.${r.problem.code}`, r.problem.offset, r.problem.length, r.problem.message);
  const { descr, fortranOrder: fortran, shape, headerOffset: hstart, headerLength: hlen, dataOffset: dataStart } = r.header;
  if (typeof descr !== 'string') return issue('npy.unsupported-dtype', hstart, hlen, `expected dtype '<f4' (little-endian float32), found a structured dtype`);
  if (descr !== '<f4') {
    const name = NPY_DTYPE_NAMES[descr.slice(1)] ?? descr;
    const why = descr.slice(1) === 'f4' ? (descr[0] === '>' ? 'big-endian float32' : `float32 with byte order '${descr[0]}'`) : name;
    return issue(
      'npy.unsupported-dtype',
      hstart,
      hlen,
      `expected dtype '<f4' (little-endian float32), found '${descr}' (${why}); convert with numpy: a.astype('<f4')`,
    );
  }
  if (fortran !== false)
    return issue(
      'npy.fortran-order',
      hstart,
      hlen,
      `expected fortran_order False (C order), found ${fortran === true ? 'True' : String(fortran)}; convert with numpy: np.ascontiguousarray(a)`,
    );
  if (!shape) return issue('npy.bad-header', hstart, hlen, 'expected the shape to be a tuple of non-negative integers');
  if (shape.length === 0) return issue('npy.scalar', hstart, hlen, 'expected an array of order at least 1, found a 0-d (scalar) array with shape ()');
  const count = elementCount(shape);
  const have = bytes.length - dataStart;
  if (have !== 4 * count)
    return issue(
      'npy.size-mismatch',
      dataStart,
      have,
      `shape ${formatShape(shape)} needs ${4n * exactProduct(shape)} bytes of float32 data from ` +
        `offset ${dataStart}, found ${have}${BigInt(have) > 4n * exactProduct(shape) ? ' (trailing bytes)' : ''}`,
    );
  // the array owns its buffer (callers may keep it after the file's bytes are gone, or use `data.buffer`)
  const view = npyData(bytes, 'f4', dataStart, count) as Float32Array;
  return { ok: true, shape, data: view.buffer === bytes.buffer ? view.slice() : view };
}

/** Writes a float32 array (order ≥ 1, C order) as `.npy`, byte for byte as `numpy.save` does (version 1.0, or 2.0 for huge headers). */
export function writeNpy(shape: readonly number[], data: Float32Array): Uint8Array {
  if (shape.length === 0) throw new RangeError('writeNpy needs an array of order at least 1');
  if (data.length !== elementCount(shape)) throw new RangeError(`shape ${formatShape(shape)} has ${exactProduct(shape)} elements, the data has ${data.length}`);
  return encodeNpy({ dtype: 'f4', shape, data });
}
