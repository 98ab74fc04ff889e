/**
 * The NumPy `.npy` codec (format versions 1.0, 2.0 and 3.0) for little-endian numeric arrays: one header
 * parser and one writer for every user (run loads and dumps, memory export, `.csfbin` conversion).
 *
 *   0   magic "\x93NUMPY", then major and minor version bytes
 *   8   header length: u16 LE (1.0) or u32 LE (2.0, 3.0)
 *   10/12 header: a Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 *       padded with spaces and ended by '\n' so that the data starts at a multiple of 64
 *   …   the elements, row-major (C order)
 *
 * Decoding never widens the elements: the data comes back as a typed array of the file's own element
 * type, a view of the input bytes when they are suitably aligned (a 64 MiB `u1` file costs no copy at all;
 * widening to float64 would cost 512 MiB). What a caller accepts (dtypes, Fortran order, 0-d arrays,
 * trailing bytes) is its own policy: `decodeNpy` below for runs and exports, `readNpy` in core/csf/npyTensor.ts
 * for `.csfbin` conversion, both on `readNpyHeader`.
 */
import { HOST_LITTLE_ENDIAN } from './endian';

export type NpyDtype = 'u1' | 'i1' | 'u2' | 'i2' | 'u4' | 'i4' | 'f4' | 'f8';

export type NpyTypedArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** An array to write. */
export interface NpyArray {
  dtype: NpyDtype;
  shape: readonly number[];
  /** Values in C order (a typed array of the dtype's own type is copied bit for bit, NaN payloads included). */
  data: ArrayLike<number>;
  fortranOrder?: boolean;
}

/** A decoded array: its data is a typed array of the file's element type (a view of the input when aligned). */
export interface NpyDecoded {
  dtype: NpyDtype;
  shape: number[];
  data: NpyTypedArray;
  fortranOrder: boolean;
  /** Byte offset of the data in the file. */
  dataOffset: number;
  /** The data's bytes as stored (little-endian), a view of the input. */
  dataBytes: Uint8Array;
}

type TypedArrayConstructor = {
  new (length: number): NpyTypedArray;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): NpyTypedArray;
  readonly BYTES_PER_ELEMENT: number;
};

const ARRAYS: Record<NpyDtype, TypedArrayConstructor> = {
  u1: Uint8Array,
  i1: Int8Array,
  u2: Uint16Array,
  i2: Int16Array,
  u4: Uint32Array,
  i4: Int32Array,
  f4: Float32Array,
  f8: Float64Array,
};

/** Bytes per element of each dtype. */
export const NPY_ELEMENT_BYTES: Record<NpyDtype, number> = { u1: 1, i1: 1, u2: 2, i2: 2, u4: 4, i4: 4, f4: 4, f8: 8 };

/** NumPy's names of the dtype codes (for messages). */
export const NPY_DTYPE_NAMES: Record<string, string> = {
  f2: 'float16',
  f4: 'float32',
  f8: 'float64',
  i1: 'int8',
  i2: 'int16',
  i4: 'int32',
  i8: 'int64',
  u1: 'uint8',
  u2: 'uint16',
  u4: 'uint32',
  u8: 'uint64',
  b1: 'bool',
};

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

export class NpyError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** A value of the Python literal subset used by `.npy` headers; a tuple is `{ tuple }`, a dict a Map. */
export type PyValue = string | boolean | null | number | PyValue[] | { tuple: PyValue[] } | Map<string, PyValue>;

/** Parses the Python literal subset used by .npy headers. Returns an error message on failure. */
function parsePyLiteral(text: string): { value: PyValue } | { error: string } {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const fail = (what: string): never => {
    throw new Error(`${what} at character ${i} of the header`);
  };
  const value = (): PyValue => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const m = new Map<string, PyValue>();
      for (;;) {
        ws();
        if (text[i] === '}') {
          i++;
          return m;
        }
        const k = value();
        if (typeof k !== 'string') fail('expected a string key');
        ws();
        if (text[i++] !== ':') fail("expected ':'");
        m.set(k as string, value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== '}') fail("expected ',' or '}'");
      }
    }
    if (c === '(' || c === '[') {
      const close = c === '(' ? ')' : ']';
      i++;
      const items: PyValue[] = [];
      for (;;) {
        ws();
        if (text[i] === close) {
          i++;
          return c === '(' ? { tuple: items } : items;
        }
        items.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== close) fail(`expected ',' or '${close}'`);
      }
    }
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) fail('unterminated string');
      const s = text.slice(i + 1, end);
      i = end + 1;
      return s;
    }
    const m = /^(?:True|False|None|-?\d+L?)/.exec(text.slice(i, i + 40));
    if (!m) fail('unexpected text');
    i += m![0].length;
    const w = m![0];
    if (w === 'True') return true;
    if (w === 'False') return false;
    if (w === 'None') return null;
    return Number(w.replace(/L$/, ''));
  };
  try {
    const v = value();
    ws();
    if (i !== text.length) fail('unexpected text after the dictionary');
    return { value: v };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** What is wrong with a file's framing or header (the codes are the csf issue codes without their `npy.` prefix). */
export interface NpyProblem {
  code: 'bad-magic' | 'unsupported-version' | 'truncated' | 'bad-header';
  offset: number;
  length: number;
  message: string;
}

export interface NpyHeader {
  major: number;
  /** Byte offset and length of the header text (where dtype and shape problems are reported). */
  headerOffset: number;
  headerLength: number;
  /** The `descr` value: a string such as `'<f4'`, or a list for a structured dtype. */
  descr: PyValue;
  fortranOrder: PyValue;
  /** The `shape` value, undefined when it is not a tuple (or list) of non-negative integers. */
  shape: number[] | undefined;
  dataOffset: number;
}

/** Reads the magic, version and header dictionary (with its three keys). Never throws. */
export function readNpyHeader(bytes: Uint8Array): { ok: true; header: NpyHeader } | { ok: false; problem: NpyProblem } {
  const problem = (code: NpyProblem['code'], offset: number, length: number, message: string) => ({
    ok: false as const,
    problem: { code, offset, length, message },
  });
  if (bytes.length < 10 || MAGIC.some((b, k) => bytes[k] !== b)) {
    const found = Array.from(bytes.subarray(0, 6), (b) => b.toString(16).padStart(2, '0')).join(' ');
    return problem(
      'bad-magic',
      0,
      Math.min(6, bytes.length),
      `expected the .npy magic 93 4e 55 4d 50 59 ("\\x93NUMPY") followed by a version and a header length, ` +
        `found ${bytes.length < 10 ? `${bytes.length} bytes` : found}`,
    );
  }
  const major = bytes[6];
  const minor = bytes[7];
  if (major < 1 || major > 3 || minor !== 0) return problem('unsupported-version', 6, 2, `expected format version 1.0, 2.0 or 3.0, found ${major}.${minor}`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lenSize = major === 1 ? 2 : 4;
  if (bytes.length < 8 + lenSize)
    return problem('truncated', 8, bytes.length - 8, `expected a ${lenSize}-byte header length at offset 8, found ${bytes.length - 8} bytes`);
  const hlen = major === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  const hstart = 8 + lenSize;
  const dataStart = hstart + hlen;
  if (bytes.length < dataStart)
    return problem('truncated', hstart, bytes.length - hstart, `expected a header of ${hlen} bytes at offset ${hstart}, found ${bytes.length - hstart}`);
  let text = '';
  for (let k = hstart; k < dataStart; k++) {
    const b = bytes[k];
    if (b >= 0x80 && major < 3)
      return problem('bad-header', k, 1, `expected an ASCII header (version ${major}.0), found byte 0x${b.toString(16)} at offset ${k}`);
    text += String.fromCharCode(b);
  }
  const parsed = parsePyLiteral(text.replace(/\s+$/, ''));
  if ('error' in parsed) return problem('bad-header', hstart, hlen, `the header is not a Python dictionary literal: ${parsed.error}`);
  const d = parsed.value;
  if (!(d instanceof Map)) return problem('bad-header', hstart, hlen, 'expected the header to be a dictionary');
  for (const key of ['descr', 'fortran_order', 'shape']) if (!d.has(key)) return problem('bad-header', hstart, hlen, `the header has no '${key}' key`);
  const shapeV = d.get('shape');
  const items = shapeV && typeof shapeV === 'object' && 'tuple' in shapeV ? shapeV.tuple : Array.isArray(shapeV) ? shapeV : undefined;
  const shape = !items || items.some((x) => typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0) ? undefined : (items as number[]);
  return {
    ok: true,
    header: { major, headerOffset: hstart, headerLength: hlen, descr: d.get('descr')!, fortranOrder: d.get('fortran_order')!, shape, dataOffset: dataStart },
  };
}

/** Copies `n` little-endian elements of `el` bytes from `src` into `dst` (native order), swapping on a big-endian host. */
function copyElements(src: Uint8Array, dst: Uint8Array, el: number, n: number): void {
  if (HOST_LITTLE_ENDIAN || el === 1) dst.set(src.subarray(0, n * el));
  else for (let i = 0; i < n * el; i += el) for (let k = 0; k < el; k++) dst[i + k] = src[i + el - 1 - k];
}

/**
 * The `count` elements of `dtype` at `dataOffset` as a typed array of that type: a view of `bytes` when
 * the host is little-endian and the data aligned for the element size, else a copy (never wider).
 */
export function npyData(bytes: Uint8Array, dtype: NpyDtype, dataOffset: number, count: number): NpyTypedArray {
  const make = ARRAYS[dtype];
  const el = make.BYTES_PER_ELEMENT;
  const at = bytes.byteOffset + dataOffset;
  if (el === 1 || (HOST_LITTLE_ENDIAN && at % el === 0)) return new make(bytes.buffer, at, count);
  const out = new make(count);
  copyElements(bytes.subarray(dataOffset, dataOffset + count * el), new Uint8Array(out.buffer), el, count);
  return out;
}

/**
 * Decodes a `.npy` file of one of the `NpyDtype`s (little-endian or byte-order-free), C or Fortran order
 * (`fortranOrder` says which; the data is as stored), 0-d arrays as one element, trailing bytes ignored.
 * Throws NpyError with the byte offset of the problem.
 */
export function decodeNpy(bytes: Uint8Array): NpyDecoded {
  const r = readNpyHeader(bytes);
  if (!r.ok) throw new NpyError(r.problem.message, r.problem.offset);
  const h = r.header;
  const at = h.headerOffset;
  if (typeof h.descr !== 'string') throw new NpyError('unsupported dtype: a structured dtype', at);
  const descr = /^([<>|=])([uif]\d)$/.exec(h.descr);
  if (!descr) throw new NpyError(`unsupported dtype '${h.descr}'`, at);
  if (descr[1] === '>') throw new NpyError('big-endian .npy data is not supported (save with dtype "<...")', at);
  if (!(descr[2] in ARRAYS)) throw new NpyError(`unsupported dtype ${descr[2]}`, at);
  const dtype = descr[2] as NpyDtype;
  if (!h.shape) throw new NpyError('expected the shape to be a tuple of non-negative integers', at);
  const shape = h.shape;
  const n = shape.reduce((x, y) => x * y, 1);
  const size = n * NPY_ELEMENT_BYTES[dtype];
  const off = h.dataOffset;
  if (bytes.length < off + size) throw new NpyError(`truncated data: ${size} bytes expected, ${bytes.length - off} present`, off);
  return {
    dtype,
    shape,
    data: npyData(bytes, dtype, off, n),
    fortranOrder: h.fortranOrder === true,
    dataOffset: off,
    dataBytes: bytes.subarray(off, off + size),
  };
}

/**
 * Writes an array as `.npy`, byte for byte as `numpy.save` does: version 1.0 (2.0 for huge headers), the
 * header padded for in-place growth of the first axis and then to a multiple of 64. Fortran order is not
 * written: the data is taken as C order.
 */
export function encodeNpy(a: NpyArray): Uint8Array {
  const { shape, dtype } = a;
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${dtype === 'u1' || dtype === 'i1' ? '|' : '<'}${dtype}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  // numpy pads for in-place growth of the first axis (GROWTH_AXIS_MAX_DIGITS = 21), then to a multiple of 64.
  if (shape.length > 0) header += ' '.repeat(Math.max(0, 21 - String(shape[0]).length));
  let major = 1;
  let prefix = 10;
  let hlen = header.length + 1;
  let pad = 64 - ((prefix + hlen) % 64);
  if (hlen + pad > 0xffff) {
    major = 2;
    prefix = 12;
    pad = 64 - ((prefix + hlen) % 64);
  }
  hlen += pad;
  const n = a.data.length;
  const el = NPY_ELEMENT_BYTES[dtype];
  const at = prefix + hlen;
  const out = new Uint8Array(at + n * el);
  out.set(MAGIC, 0);
  out[6] = major;
  out[7] = 0;
  const dv = new DataView(out.buffer);
  if (major === 1) dv.setUint16(8, hlen, true);
  else dv.setUint32(8, hlen, true);
  for (let k = 0; k < header.length; k++) out[prefix + k] = header.charCodeAt(k);
  out.fill(0x20, prefix + header.length, at - 1);
  out[at - 1] = 0x0a;
  const data = a.data;
  if (data instanceof ARRAYS[dtype]) {
    // the same element type: its bits as they are (a float NaN keeps its payload)
    const t = data as NpyTypedArray;
    copyElements(new Uint8Array(t.buffer, t.byteOffset, n * el), out.subarray(at), el, n);
    return out;
  }
  for (let i = 0; i < n; i++) {
    const v = data[i];
    switch (dtype) {
      case 'u1':
        dv.setUint8(at + i, v);
        break;
      case 'i1':
        dv.setInt8(at + i, v);
        break;
      case 'u2':
        dv.setUint16(at + 2 * i, v, true);
        break;
      case 'i2':
        dv.setInt16(at + 2 * i, v, true);
        break;
      case 'u4':
        dv.setUint32(at + 4 * i, v, true);
        break;
      case 'i4':
        dv.setInt32(at + 4 * i, v, true);
        break;
      case 'f4':
        dv.setFloat32(at + 4 * i, v, true);
        break;
      case 'f8':
        dv.setFloat64(at + 8 * i, v, true);
        break;
    }
  }
  return out;
}

/**
 * The data bytes of a `.npy` file loaded into memory as stored (a run's `--load`): `decodeNpy`, with every message naming `file`
 * and the byte offset. A Fortran-order array with more than one dimension longer than 1 is refused (its bytes are in column order:
 * loading them as they are would silently transpose it); one-dimensional and 0-d Fortran arrays are the same bytes as in C order.
 */
export function npyLoadBytes(bytes: Uint8Array, file: string): Uint8Array {
  let d: NpyDecoded;
  try {
    d = decodeNpy(bytes);
  } catch (e) {
    if (e instanceof NpyError) throw new NpyError(`${file}: offset ${e.offset}: ${e.message}`, e.offset);
    throw e;
  }
  if (d.fortranOrder && d.shape.filter((n) => n > 1).length > 1)
    throw new NpyError(
      `${file}: a Fortran-order (column-major) array of shape (${d.shape.join(', ')}) is not loaded (its bytes are in column order); ` +
        'save it in C order, e.g. numpy.save(f, numpy.ascontiguousarray(a))',
      0,
    );
  return d.dataBytes;
}
