// Shared pieces of the ztachip conformance runner (scripts/ztachip-conformance.mjs): comparing a
// kernel's output with the expected bytes, decoding BMP files the way ztachip's
// TENSOR::CreateWithBitmap lays them out, and small helpers for the driver programs.
//
// A "job" (what each family module returns) is one `tensor-lens run` of a driver program we write:
//   { name, kernel, driver, loads: [{ where, file }], dumps: [{ where, count, dtype, file }],
//     memBytes?, steps?, verify(ctx) -> [check] }
// where ctx = { dump(file) -> typed array, stdout }, and a check is
//   { name, pass, detail }   (detail: "identical", or how it differs).

import fs from 'node:fs';
import path from 'node:path';

/** Typed array constructors for the dump dtypes we use. */
export const DTYPES = { u8: Uint8Array, i8: Int8Array, u16: Uint16Array, i16: Int16Array, u32: Uint32Array, i32: Int32Array };

/** Reads a raw little-endian file as a typed array of `dtype` (the whole file, or its first `count` elements). */
export function readTyped(file, dtype, count) {
  const buf = fs.readFileSync(file);
  const T = DTYPES[dtype];
  const n = count ?? Math.floor(buf.length / T.BYTES_PER_ELEMENT);
  if (n * T.BYTES_PER_ELEMENT > buf.length) throw new Error(`${file}: ${buf.length} bytes, ${n} ${dtype} elements expected`);
  const out = new T(n);
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = 0; i < n; i++) {
    switch (dtype) {
      case 'u8':
        out[i] = buf[i];
        break;
      case 'i8':
        out[i] = dv.getInt8(i);
        break;
      case 'u16':
        out[i] = dv.getUint16(2 * i, true);
        break;
      case 'i16':
        out[i] = dv.getInt16(2 * i, true);
        break;
      case 'u32':
        out[i] = dv.getUint32(4 * i, true);
        break;
      case 'i32':
        out[i] = dv.getInt32(4 * i, true);
        break;
    }
  }
  return out;
}

/**
 * Compares `actual` with `expected` element by element. With `tolerance` t > 0 an element passes when
 * |actual - expected| < t (test.cpp's histogram rule). Returns the counts and the first failing element.
 */
export function compare(expected, actual, tolerance = 0) {
  const n = expected.length;
  let differing = 0;
  let failing = 0;
  let first = -1;
  let maxAbs = 0;
  for (let i = 0; i < n; i++) {
    const e = expected[i];
    const a = i < actual.length ? actual[i] : NaN;
    if (a === e) continue;
    differing++;
    const d = Math.abs(a - e);
    if (!(d <= maxAbs)) maxAbs = d;
    if (tolerance > 0 && d < tolerance) continue;
    failing++;
    if (first < 0) first = i;
  }
  return { n, differing, failing, first, firstExpected: first >= 0 ? expected[first] : undefined, firstActual: first >= 0 ? actual[first] : undefined, maxAbs };
}

/** Names a flat index by its coordinates in `shape` (outermost first), e.g. [3, 200, 200] -> "[1][17][5]". */
export function coords(index, shape) {
  if (!shape) return `[${index}]`;
  const out = [];
  let r = index;
  for (let k = shape.length - 1; k >= 0; k--) {
    out.unshift(r % shape[k]);
    r = Math.floor(r / shape[k]);
  }
  return out.map((v) => `[${v}]`).join('');
}

/** One check from a comparison: "identical", or the number of differing elements, the first one and the largest difference. */
export function checkFrom(name, expected, actual, { shape, tolerance = 0, what } = {}) {
  const c = compare(expected, actual, tolerance);
  const label = what ? `${what}: ` : '';
  if (actual.length < expected.length) {
    return { name, pass: false, detail: `${label}${actual.length} elements produced, ${expected.length} expected` };
  }
  if (c.failing === 0) {
    if (c.differing === 0) return { name, pass: true, detail: `${label}identical (${c.n} elements)` };
    return { name, pass: true, detail: `${label}within tolerance |diff| < ${tolerance}: ${c.differing} of ${c.n} elements differ, max abs diff ${c.maxAbs}` };
  }
  const tol = tolerance > 0 ? ` (|diff| >= ${tolerance}; ${c.differing} differ at all)` : '';
  return {
    name,
    pass: false,
    detail:
      `${label}${c.failing} of ${c.n} elements differ${tol}; first at ${c.first} ${coords(c.first, shape)}: expected ${c.firstExpected}, ` +
      `got ${c.firstActual}; max abs diff ${c.maxAbs}`,
  };
}

/**
 * Decodes a BMP file into the layout ztachip's TENSOR::CreateWithBitmap (SW/base/tensor.cpp) produces by
 * default (TensorFormatSplit): three planes R, G, B of height x width bytes, rows top to bottom. Like
 * ztachip's bmpRead it takes 24-bit uncompressed bitmaps with rows of ((width*3+3)/4)*4 bytes stored bottom
 * up; a negative height (rows stored top down) is read too. Returns { width, height, data }.
 */
export function decodeBmp(buf) {
  if (buf.length < 54 || buf[0] !== 0x42 || buf[1] !== 0x4d) throw new Error('not a BMP file (no "BM" signature)');
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const offBits = dv.getUint32(10, true);
  const width = dv.getInt32(18, true);
  const rawHeight = dv.getInt32(22, true);
  const bitCount = dv.getUint16(28, true);
  const compression = dv.getUint32(30, true);
  if (bitCount !== 24 || compression !== 0)
    throw new Error(`BMP with ${bitCount} bits per pixel, compression ${compression}: only 24-bit uncompressed is read (as ztachip's bmpRead)`);
  if (width <= 0 || rawHeight === 0) throw new Error(`BMP of ${width} x ${rawHeight} pixels`);
  const height = Math.abs(rawHeight);
  const stride = Math.floor((width * 3 + 3) / 4) * 4;
  if (offBits + stride * (height - 1) + width * 3 > buf.length)
    throw new Error(`BMP truncated: ${buf.length} bytes for ${width} x ${height} pixels at offset ${offBits}`);
  const plane = width * height;
  const data = new Uint8Array(3 * plane);
  for (let r = 0; r < height; r++) {
    const row = offBits + (rawHeight > 0 ? height - 1 - r : r) * stride;
    for (let c = 0; c < width; c++) {
      const p = row + 3 * c;
      data[r * width + c] = buf[p + 2]; // red
      data[plane + r * width + c] = buf[p + 1]; // green
      data[2 * plane + r * width + c] = buf[p]; // blue
    }
  }
  return { width, height, data };
}

/** A C string literal of a path (for `#include`). */
export function cPath(p) {
  return JSON.stringify(p.replace(/\\/g, '/'));
}

/**
 * The job of a test with one input file loaded into `drv_input` and one output `drv_output` compared with
 * one file of SW/fs (test_gaussian, test_canny, test_harris).
 */
export function singleOutputJob({ name, kernel, driver, tmp, fsFile, input, expectedFile, count, dtype, shape, check }) {
  const out = path.join(tmp, `${name}_out.bin`);
  return {
    name,
    kernel,
    driver,
    checkNames: [check],
    loads: [{ where: 'drv_input', file: fsFile(input) }],
    dumps: [{ where: 'drv_output', count, dtype, file: out }],
    verify: ({ dump, expected }) => [checkFrom(check, expected(expectedFile, dtype), dump(out), { shape })],
  };
}
