/**
 * A tiny NumPy `.npy` codec for float32 arrays (format versions 1.0, 2.0 and 3.0).
 *
 *   0   magic "\x93NUMPY", then major and minor version bytes
 *   8   header length: u16 LE (1.0) or u32 LE (2.0, 3.0)
 *   10/12 header: a Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 *       padded with spaces and ended by '\n' so that the data starts at a multiple of 64
 *   …   the elements, row-major (C order)
 *
 * Only little-endian float32 (`'<f4'`) in C order with order ≥ 1 is accepted; anything else is reported with
 * what was found. The writer produces exactly what `numpy.save` writes for such an array.
 */
import { HOST_LITTLE_ENDIAN, elementCount, formatShape, type CsfIssue, type Result } from './types';

export interface NpyArray {
  shape: number[];
  data: Float32Array;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

type PyValue = string | boolean | null | number | PyValue[] | { tuple: PyValue[] } | Map<string, PyValue>;

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

const issue = (code: CsfIssue['code'], offset: number, length: number, message: string): { ok: false; issues: CsfIssue[] } => ({ ok: false, issues: [{ code, severity: 'error', offset, length, message }] });

const DTYPE_NAMES: Record<string, string> = { f2: 'float16', f4: 'float32', f8: 'float64', i1: 'int8', i2: 'int16', i4: 'int32', i8: 'int64', u1: 'uint8', u2: 'uint16', u4: 'uint32', u8: 'uint64', b1: 'bool' };

/** Reads a `.npy` file holding a little-endian float32 array of order ≥ 1 in C order. Never throws. */
export function readNpy(bytes: Uint8Array): Result<NpyArray> {
  if (bytes.length < 10 || MAGIC.some((b, k) => bytes[k] !== b)) {
    const found = Array.from(bytes.subarray(0, 6), (b) => b.toString(16).padStart(2, '0')).join(' ');
    return issue('npy.bad-magic', 0, Math.min(6, bytes.length), `expected the .npy magic 93 4e 55 4d 50 59 ("\\x93NUMPY") followed by a version and a header length, found ${bytes.length < 10 ? `${bytes.length} bytes` : found}`);
  }
  const major = bytes[6];
  const minor = bytes[7];
  if (major < 1 || major > 3 || minor !== 0) return issue('npy.unsupported-version', 6, 2, `expected format version 1.0, 2.0 or 3.0, found ${major}.${minor}`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lenSize = major === 1 ? 2 : 4;
  if (bytes.length < 8 + lenSize) return issue('npy.truncated', 8, bytes.length - 8, `expected a ${lenSize}-byte header length at offset 8, found ${bytes.length - 8} bytes`);
  const hlen = major === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  const hstart = 8 + lenSize;
  const dataStart = hstart + hlen;
  if (bytes.length < dataStart) return issue('npy.truncated', hstart, bytes.length - hstart, `expected a header of ${hlen} bytes at offset ${hstart}, found ${bytes.length - hstart}`);
  let text = '';
  for (let k = hstart; k < dataStart; k++) {
    const b = bytes[k];
    if (b >= 0x80 && major < 3) return issue('npy.bad-header', k, 1, `expected an ASCII header (version ${major}.0), found byte 0x${b.toString(16)} at offset ${k}`);
    text += String.fromCharCode(b);
  }
  const parsed = parsePyLiteral(text.replace(/\s+$/, ''));
  if ('error' in parsed) return issue('npy.bad-header', hstart, hlen, `the header is not a Python dictionary literal: ${parsed.error}`);
  const d = parsed.value;
  if (!(d instanceof Map)) return issue('npy.bad-header', hstart, hlen, 'expected the header to be a dictionary');
  for (const key of ['descr', 'fortran_order', 'shape']) if (!d.has(key)) return issue('npy.bad-header', hstart, hlen, `the header has no '${key}' key`);
  const descr = d.get('descr');
  if (typeof descr !== 'string') return issue('npy.unsupported-dtype', hstart, hlen, `expected dtype '<f4' (little-endian float32), found a structured dtype`);
  if (descr !== '<f4') {
    const name = DTYPE_NAMES[descr.slice(1)] ?? descr;
    const why = descr.slice(1) === 'f4' ? (descr[0] === '>' ? 'big-endian float32' : `float32 with byte order '${descr[0]}'`) : name;
    return issue('npy.unsupported-dtype', hstart, hlen, `expected dtype '<f4' (little-endian float32), found '${descr}' (${why}); convert with numpy: a.astype('<f4')`);
  }
  const fortran = d.get('fortran_order');
  if (fortran !== false) return issue('npy.fortran-order', hstart, hlen, `expected fortran_order False (C order), found ${fortran === true ? 'True' : String(fortran)}; convert with numpy: np.ascontiguousarray(a)`);
  const shapeV = d.get('shape');
  const items = shapeV && typeof shapeV === 'object' && 'tuple' in shapeV ? shapeV.tuple : Array.isArray(shapeV) ? shapeV : undefined;
  if (!items || items.some((x) => typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0)) return issue('npy.bad-header', hstart, hlen, 'expected the shape to be a tuple of non-negative integers');
  const shape = items as number[];
  if (shape.length === 0) return issue('npy.scalar', hstart, hlen, 'expected an array of order at least 1, found a 0-d (scalar) array with shape ()');
  const count = elementCount(shape);
  const have = bytes.length - dataStart;
  if (have !== 4 * count)
    return issue(
      'npy.size-mismatch',
      dataStart,
      have,
      `shape ${formatShape(shape)} needs ${4 * count} bytes of float32 data from offset ${dataStart}, found ${have}${have > 4 * count ? ' (trailing bytes)' : ''}`,
    );
  const data = new Float32Array(count);
  if (HOST_LITTLE_ENDIAN) new Uint8Array(data.buffer).set(bytes.subarray(dataStart, dataStart + 4 * count));
  else {
    const w = new Uint32Array(data.buffer);
    for (let k = 0; k < count; k++) w[k] = dv.getUint32(dataStart + 4 * k, true);
  }
  return { ok: true, shape, data };
}

/** Writes a float32 array (order ≥ 1, C order) as `.npy`, byte for byte as `numpy.save` does (version 1.0, or 2.0 for huge headers). */
export function writeNpy(shape: readonly number[], data: Float32Array): Uint8Array {
  if (shape.length === 0) throw new RangeError('writeNpy needs an array of order at least 1');
  if (data.length !== elementCount(shape)) throw new RangeError(`shape ${formatShape(shape)} has ${elementCount(shape)} elements, the data has ${data.length}`);
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  // numpy pads for in-place growth of the first axis (GROWTH_AXIS_MAX_DIGITS = 21), then to a multiple of 64.
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shapeText}, }`;
  header += ' '.repeat(Math.max(0, 21 - String(shape[0]).length));
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
  const out = new Uint8Array(prefix + hlen + 4 * data.length);
  out.set(MAGIC, 0);
  out[6] = major;
  out[7] = 0;
  const dv = new DataView(out.buffer);
  if (major === 1) dv.setUint16(8, hlen, true);
  else dv.setUint32(8, hlen, true);
  for (let k = 0; k < header.length; k++) out[prefix + k] = header.charCodeAt(k);
  out.fill(0x20, prefix + header.length, prefix + hlen - 1);
  out[prefix + hlen - 1] = 0x0a;
  const src = new Uint32Array(data.buffer, data.byteOffset, data.length);
  const at = prefix + hlen;
  if (HOST_LITTLE_ENDIAN) out.set(new Uint8Array(src.buffer, src.byteOffset, 4 * src.length), at);
  else for (let k = 0; k < src.length; k++) dv.setUint32(at + 4 * k, src[k], true);
  return out;
}
