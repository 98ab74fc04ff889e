/** Minimal NumPy `.npy` (format 1.0/2.0) reader and writer for little-endian numeric arrays. */

export type NpyDtype = 'u1' | 'i1' | 'u2' | 'i2' | 'u4' | 'i4' | 'f4' | 'f8';

export interface NpyArray {
  dtype: NpyDtype;
  shape: number[];
  /** Values in C order. */
  data: ArrayLike<number>;
  fortranOrder?: boolean;
}

const SIZES: Record<NpyDtype, number> = { u1: 1, i1: 1, u2: 2, i2: 2, u4: 4, i4: 4, f4: 4, f8: 8 };

export class NpyError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export function encodeNpy(a: NpyArray): Uint8Array {
  const shape = a.shape.length === 1 ? `(${a.shape[0]},)` : `(${a.shape.join(', ')})`;
  let header = `{'descr': '${a.dtype === 'u1' || a.dtype === 'i1' ? '|' : '<'}${a.dtype}', 'fortran_order': False, 'shape': ${shape}, }`;
  const pre = 10;
  const pad = 64 - ((pre + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const n = a.data.length;
  const el = SIZES[a.dtype];
  const out = new Uint8Array(pre + header.length + n * el);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0);
  out[8] = header.length & 0xff;
  out[9] = header.length >> 8;
  for (let i = 0; i < header.length; i++) out[pre + i] = header.charCodeAt(i);
  const dv = new DataView(out.buffer, pre + header.length);
  for (let i = 0; i < n; i++) {
    const v = a.data[i];
    switch (a.dtype) {
      case 'u1': dv.setUint8(i, v); break;
      case 'i1': dv.setInt8(i, v); break;
      case 'u2': dv.setUint16(2 * i, v, true); break;
      case 'i2': dv.setInt16(2 * i, v, true); break;
      case 'u4': dv.setUint32(4 * i, v, true); break;
      case 'i4': dv.setInt32(4 * i, v, true); break;
      case 'f4': dv.setFloat32(4 * i, v, true); break;
      case 'f8': dv.setFloat64(8 * i, v, true); break;
    }
  }
  return out;
}

/** Parses a `.npy` file; throws NpyError with the byte offset of the problem. */
export function decodeNpy(bytes: Uint8Array): NpyArray & { dataOffset: number } {
  if (bytes.length < 10 || bytes[0] !== 0x93 || String.fromCharCode(...bytes.subarray(1, 6)) !== 'NUMPY') throw new NpyError('not a .npy file (magic \\x93NUMPY missing)', 0);
  const major = bytes[6];
  if (major !== 1 && major !== 2 && major !== 3) throw new NpyError(`unsupported .npy version ${major}.${bytes[7]}`, 6);
  const hl = major === 1 ? bytes[8] | (bytes[9] << 8) : bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (bytes[11] << 24);
  const hs = major === 1 ? 10 : 12;
  if (bytes.length < hs + hl) throw new NpyError(`truncated header: ${hl} header bytes announced, ${bytes.length - hs} present`, hs);
  const header = String.fromCharCode(...bytes.subarray(hs, hs + hl));
  const descr = /'descr'\s*:\s*'([<>|=])([uif])(\d)'/.exec(header);
  if (!descr) throw new NpyError(`unsupported dtype in header ${header.trim()}`, hs);
  if (descr[1] === '>') throw new NpyError('big-endian .npy data is not supported (save with dtype "<...")', hs);
  const dtype = `${descr[2]}${descr[3]}` as NpyDtype;
  if (!(dtype in SIZES)) throw new NpyError(`unsupported dtype ${descr[2]}${descr[3]}`, hs);
  const fortran = /'fortran_order'\s*:\s*True/.test(header);
  const shapeM = /'shape'\s*:\s*\(([^)]*)\)/.exec(header);
  if (!shapeM) throw new NpyError('header has no shape', hs);
  const shape = shapeM[1].split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const n = shape.reduce((x, y) => x * y, 1);
  const el = SIZES[dtype];
  const off = hs + hl;
  if (bytes.length < off + n * el) throw new NpyError(`truncated data: ${n * el} bytes expected, ${bytes.length - off} present`, off);
  const dv = new DataView(bytes.buffer, bytes.byteOffset + off, n * el);
  const data = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    switch (dtype) {
      case 'u1': data[i] = dv.getUint8(i); break;
      case 'i1': data[i] = dv.getInt8(i); break;
      case 'u2': data[i] = dv.getUint16(2 * i, true); break;
      case 'i2': data[i] = dv.getInt16(2 * i, true); break;
      case 'u4': data[i] = dv.getUint32(4 * i, true); break;
      case 'i4': data[i] = dv.getInt32(4 * i, true); break;
      case 'f4': data[i] = dv.getFloat32(4 * i, true); break;
      case 'f8': data[i] = dv.getFloat64(8 * i, true); break;
    }
  }
  return { dtype, shape, data, fortranOrder: fortran, dataOffset: off };
}

/** Raw little-endian bytes of an npy array's data (its element encoding kept). */
export function npyRawBytes(bytes: Uint8Array): Uint8Array {
  const a = decodeNpy(bytes);
  return bytes.subarray(a.dataOffset, a.dataOffset + a.data.length * SIZES[a.dtype]);
}
