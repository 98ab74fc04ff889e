/** core/common/npy: the one .npy codec — typed data without widening, numpy.save's layout, what decodeNpy accepts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeNpy, encodeNpy, NpyError, type NpyDtype } from '../../core/common/npy';

test('a 64 MiB u1 file decodes to a Uint8Array view of the file: no element is copied or widened', () => {
  const n = 64 * 2 ** 20;
  const values = new Uint8Array(n);
  for (let i = 0; i < n; i += 4099) values[i] = i & 0xff;
  const file = encodeNpy({ dtype: 'u1', shape: [n], data: values });
  const before = process.memoryUsage().arrayBuffers;
  const a = decodeNpy(file);
  const grown = process.memoryUsage().arrayBuffers - before;
  assert.ok(a.data instanceof Uint8Array, a.data.constructor.name);
  assert.equal(a.data.buffer, file.buffer);
  assert.equal(a.data.byteOffset, file.byteOffset + a.dataOffset);
  assert.equal(a.data.length, n);
  assert.equal(a.data[4099 * 3], (4099 * 3) & 0xff);
  assert.equal(a.dataBytes.buffer, file.buffer);
  assert.equal(a.dataBytes.length, n);
  // a Float64Array of the elements would be 512 MiB
  assert.ok(grown < 16 * 2 ** 20, `decoding allocated ${grown} bytes of array buffers`);
});

test('each dtype decodes to its own typed array; aligned data is a view, unaligned a same-width copy', () => {
  const cases: [NpyDtype, abstract new (...args: never[]) => unknown, number[]][] = [
    ['u1', Uint8Array, [0, 255, 7]],
    ['i1', Int8Array, [-128, 127, -1]],
    ['u2', Uint16Array, [0, 65535, 300]],
    ['i2', Int16Array, [-32768, 32767, -2]],
    ['u4', Uint32Array, [0, 2 ** 32 - 1, 70000]],
    ['i4', Int32Array, [-(2 ** 31), 2 ** 31 - 1, -3]],
    ['f4', Float32Array, [1.5, -0.25, 2 ** 100]],
    ['f8', Float64Array, [Math.PI, -1e300, 0.1]],
  ];
  for (const [dtype, type, values] of cases) {
    const file = encodeNpy({ dtype, shape: [values.length], data: values });
    const a = decodeNpy(file);
    assert.equal(a.dtype, dtype);
    assert.ok(a.data instanceof type, `${dtype}: ${a.data.constructor.name}`);
    assert.equal(a.data.buffer, file.buffer, dtype);
    assert.deepEqual(Array.from(a.data), values, dtype);
    // the same file one byte into a buffer: multi-byte elements are no longer aligned
    const shifted = new Uint8Array(file.length + 1).subarray(1);
    shifted.set(file);
    const b = decodeNpy(shifted);
    assert.ok(b.data instanceof type, `${dtype} shifted: ${b.data.constructor.name}`);
    assert.deepEqual(Array.from(b.data), values, `${dtype} shifted`);
    assert.equal(b.data.BYTES_PER_ELEMENT * b.data.length, b.dataBytes.length);
  }
});

test('encodeNpy writes what numpy.save writes: 1-byte dtypes with |, growth padding, data at a multiple of 64', () => {
  const file = encodeNpy({ dtype: 'i2', shape: [2, 3], data: [1, -2, 3, -4, 5, -6] });
  const header = String.fromCharCode(...file.subarray(10, file.length - 12));
  assert.equal(header, "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }".padEnd(117) + '\n');
  assert.equal(file[8] | (file[9] << 8), 118);
  assert.match(String.fromCharCode(...encodeNpy({ dtype: 'u1', shape: [2], data: [1, 2] }).subarray(10, 40)), /'descr': '\|u1'/);
  const nan = new Float32Array(new Uint32Array([0x7fc01234]).buffer);
  assert.deepEqual(new Uint32Array(decodeNpy(encodeNpy({ dtype: 'f4', shape: [1], data: nan })).data.slice().buffer), new Uint32Array([0x7fc01234]));
});

test('decodeNpy: Fortran order and 0-d arrays are read as stored, unsupported files throw NpyError with the offset', () => {
  const f = encodeNpy({ dtype: 'i4', shape: [], data: [42] });
  assert.deepEqual(decodeNpy(f).shape, []);
  assert.deepEqual(Array.from(decodeNpy(f).data), [42]);
  const le = encodeNpy({ dtype: 'f4', shape: [2], data: [1, 2] });
  const fortran = le.slice();
  const at = String.fromCharCode(...fortran).indexOf('False');
  fortran.set([0x54, 0x72, 0x75, 0x65, 0x20], at); // 'True '
  assert.equal(decodeNpy(fortran).fortranOrder, true);
  const be = le.slice();
  be[String.fromCharCode(...be).indexOf('<f4') + 0] = 0x3e; // '>'
  assert.throws(
    () => decodeNpy(be),
    (e: unknown) => e instanceof NpyError && /big-endian/.test(e.message) && e.offset === 10,
  );
  assert.throws(
    () => decodeNpy(le.subarray(0, le.length - 1)),
    (e: unknown) => e instanceof NpyError && /truncated data/.test(e.message) && e.offset === 128,
  );
  assert.throws(
    () => decodeNpy(new Uint8Array(20)),
    (e: unknown) => e instanceof NpyError && e.offset === 0,
  );
});
