import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { csfToDense, denseToCsf, readNpy, writeNpy } from '../../core/csf/index';

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};
const f32bytes = (...v: number[]) => new Uint8Array(new Float32Array(v).buffer);

/** A .npy file with the given header text (padded with spaces to a 64-byte boundary, as numpy does). */
function npy(dict: string, data: Uint8Array, major = 1): Uint8Array {
  const prefix = major === 1 ? 10 : 12;
  const pad = 64 - ((prefix + dict.length + 1) % 64);
  const hlen = dict.length + pad + 1;
  const len = major === 1 ? new Uint8Array([hlen & 255, hlen >> 8]) : new Uint8Array([hlen & 255, (hlen >> 8) & 255, 0, 0]);
  return cat(new Uint8Array([0x93]), ascii('NUMPY'), new Uint8Array([major, 0]), len, ascii(dict + ' '.repeat(pad) + '\n'), data);
}

const issue = (b: Uint8Array) => {
  const r = readNpy(b);
  assert.equal(r.ok, false);
  return !r.ok ? r.issues[0] : undefined!;
};

describe('npy codec', () => {
  test('writes exactly what numpy.save writes (hand-built header for a 2×3 float32 array)', () => {
    const dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" + ' '.repeat(20);
    const header = dict + ' '.repeat(128 - 10 - dict.length - 1) + '\n';
    const expected = cat(new Uint8Array([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 118, 0]), ascii(header), f32bytes(1, 2, 3, 4, 5, 6));
    assert.equal(header.length, 118);
    assert.deepEqual(writeNpy([2, 3], new Float32Array([1, 2, 3, 4, 5, 6])), expected);
    const r = readNpy(expected);
    assert.ok(r.ok);
    assert.deepEqual(r.shape, [2, 3]);
    assert.deepEqual(Array.from(r.data), [1, 2, 3, 4, 5, 6]);
  });

  test('1-D shapes are written (n,)', () => {
    const b = writeNpy([3], new Float32Array([1, 2, 3]));
    assert.match(String.fromCharCode(...b.subarray(10, 80)), /'shape': \(3,\), \}/);
    assert.equal((b.length - 12) % 64, 0);
  });

  test('reads versions 2.0 and 3.0, other key orders, Python 2 longs and lists', () => {
    const data = f32bytes(1.5, -2);
    for (const [dict, major] of [
      ["{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 2],
      ["{'shape': (1, 2), 'fortran_order': False, 'descr': '<f4'}", 3],
      ["{'descr':'<f4','fortran_order':False,'shape':(2L,)}", 1],
      ['{"descr": "<f4", "fortran_order": False, "shape": [2]}', 1],
    ] as const) {
      const r = readNpy(npy(dict, data, major));
      assert.ok(r.ok, dict);
      assert.deepEqual(Array.from(r.data), [1.5, -2]);
    }
  });

  test('zero-size arrays', () => {
    const r = readNpy(writeNpy([0, 4], new Float32Array(0)));
    assert.ok(r.ok);
    assert.deepEqual(r.shape, [0, 4]);
  });

  test('rejections say what was expected and what was found', () => {
    const d = (descr: string, shape = '(2,)', fortran = 'False') => `{'descr': '${descr}', 'fortran_order': ${fortran}, 'shape': ${shape}, }`;
    const data = f32bytes(1, 2);
    let x = issue(npy(d('>f4'), data));
    assert.equal(x.code, 'npy.unsupported-dtype');
    assert.match(x.message, /expected dtype '<f4' \(little-endian float32\), found '>f4' \(big-endian float32\)/);
    x = issue(npy(d('<f8'), cat(data, data)));
    assert.equal(x.code, 'npy.unsupported-dtype');
    assert.match(x.message, /found '<f8' \(float64\)/);
    assert.equal(x.offset, 10);
    assert.equal(issue(npy(d('|u1'), data)).code, 'npy.unsupported-dtype');
    assert.equal(issue(npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", data)).code, 'npy.unsupported-dtype');
    x = issue(npy(d('<f4', '(1, 2)', 'True'), data));
    assert.equal(x.code, 'npy.fortran-order');
    assert.match(x.message, /expected fortran_order False \(C order\), found True/);
    x = issue(npy(d('<f4', '()'), f32bytes(1)));
    assert.equal(x.code, 'npy.scalar');
    x = issue(npy(d('<f4', '(3,)'), data));
    assert.equal(x.code, 'npy.size-mismatch');
    assert.equal(x.offset, 128);
    assert.match(x.message, /needs 12 bytes .* found 8/);
    assert.equal(issue(npy(d('<f4', '(1,)'), data)).code, 'npy.size-mismatch');
    assert.equal(issue(npy("{'descr': '<f4', 'shape': (2,)}", data)).code, 'npy.bad-header');
    assert.equal(issue(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,) ", data)).code, 'npy.bad-header');
    assert.equal(issue(npy(d('<f4', '(-1,)'), data)).code, 'npy.bad-header');
    x = issue(ascii('PK\x03\x04 not an npy file'));
    assert.equal(x.code, 'npy.bad-magic');
    assert.equal(x.offset, 0);
    const v4 = npy(d('<f4'), data);
    v4[6] = 4;
    assert.equal(issue(v4).code, 'npy.unsupported-version');
    assert.equal(issue(npy(d('<f4'), data).subarray(0, 40)).code, 'npy.truncated');
  });

  test('round trip over random shapes and bit patterns (property), and through .csfbin', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 5 }).chain((shape) => {
          const n = shape.reduce((a, b) => a * b, 1);
          return fc.tuple(fc.constant(shape), fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: n, maxLength: n }));
        }),
        ([shape, bits]) => {
          const data = new Float32Array(new Uint32Array(bits).buffer);
          const b = writeNpy(shape, data);
          assert.equal((b.length - 4 * data.length) % 64, 0);
          const r = readNpy(b);
          assert.ok(r.ok);
          assert.deepEqual(r.shape, shape);
          assert.deepEqual(new Uint32Array(r.data.buffer), new Uint32Array(bits));
          const back = csfToDense(denseToCsf(r.data, r.shape, { keepZeros: true }));
          assert.deepEqual(new Uint32Array(back.buffer), new Uint32Array(bits));
        },
      ),
    );
  });

  test('never throws on arbitrary or damaged input (property)', () => {
    const good = writeNpy([2, 2], new Float32Array([1, 2, 3, 4]));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        readNpy(b);
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat(), (edits, cut) => {
        const b = good.slice();
        for (const [at, v] of edits) b[at % b.length] = v;
        readNpy(b);
        readNpy(b.subarray(0, cut % (b.length + 1)));
      }),
    );
  });
});
