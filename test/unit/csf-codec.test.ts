import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import {
  CsfError,
  bitsToF32,
  csfFromFibers,
  csfToDense,
  denseToCsf,
  describeFileOffset,
  encodeCsf,
  f32ToBits,
  fiberCoord,
  fiberOfCoord,
  formatF32,
  locateInFile,
  makeTensor,
  openCsf,
  parseCsf,
  type CsfFile,
  type CsfTensor,
} from '../../core/csf/index';

const FIXTURES = fileURLToPath(new URL('../fixtures/csf/', import.meta.url));
const oracles = JSON.parse(readFileSync(FIXTURES + 'oracles.json', 'utf8'));
const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const flat = (x: unknown): number[] => (Array.isArray(x) ? x.flatMap(flat) : [x as number]);

function open(bytes: Uint8Array): CsfFile {
  const r = openCsf(bytes);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.issues));
  return r.file;
}

/** Random dense tensors as raw f32 bits (mostly zeros; NaN payloads, ±0, ±Inf, subnormals included). */
const bitsArb = fc.oneof(
  { weight: 5, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.constant(0x80000000) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 0xffffffff }) },
  { weight: 1, arbitrary: fc.constantFrom(0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fa00001, 0x00000001, 0x807fffff) },
);
const denseArb = fc
  .array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 4 })
  .chain((shape) => {
    const n = shape.reduce((a, b) => a * b, 1);
    return fc.tuple(fc.constant(shape), fc.array(bitsArb, { minLength: n, maxLength: n }));
  })
  .map(([shape, bits]) => ({ shape, data: new Float32Array(new Uint32Array(bits).buffer) }));

describe('csf codec: worked examples (formats.md §A.8.1–A.8.3)', () => {
  for (const name of ['A', 'B', 'zeros', 'order3', 'C_AxBt']) {
    const o = oracles.valid[name];
    test(`${name}: dense → bytes is exactly the hand-computed file (${o.layout})`, () => {
      const t = denseToCsf(new Float32Array(flat(o.dense)), o.shape, { keepZeros: name === 'C_AxBt' });
      assert.equal(toHex(encodeCsf(t)), o.hex);
      assert.deepEqual(readFileSync(FIXTURES + name + '.csfbin'), Buffer.from(hex(o.hex)));
    });
    test(`${name}: bytes → dense and bytes → tensor → bytes`, () => {
      const r = parseCsf(hex(o.hex));
      assert.ok(r.ok);
      assert.deepEqual(Array.from(csfToDense(r.tensor)), flat(o.dense));
      assert.equal(toHex(encodeCsf(r.tensor)), o.hex);
    });
  }

  test('A: header, sizes and pointers', () => {
    const f = open(hex(oracles.valid.A.hex));
    assert.deepEqual(
      { order: f.order, shape: f.shape, nnz: f.nnz, fibers: f.fibers, density: f.density },
      { order: 2, shape: [2, 3], nnz: 3, fibers: 2, density: 0.5 },
    );
    assert.equal(f.byteLength, 56);
    assert.equal(f.entriesOffset, 16);
    assert.equal(f.pointersOffset, 44);
    assert.deepEqual([f.pointer(0), f.pointer(1), f.pointer(2)], [0, 1, 3]);
    assert.deepEqual(f.fiberRange(1), [1, 3]);
    assert.equal(f.entryBits(0), 0x3fc00000);
    assert.equal(f.entryBits(1), 0xc0000000);
    assert.equal(f.entryBits(2), 0x40500000);
  });

  test('order 3: fibers are row-major over the leading modes', () => {
    const f = open(hex(oracles.valid.order3.hex));
    assert.equal(f.fibers, 4);
    assert.deepEqual(
      [0, 1, 2, 3].map((k) => f.fiber(k).coord),
      [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ],
    );
    assert.deepEqual(
      [0, 1, 2, 3].map((k) => f.fiberLength(k)),
      [1, 0, 1, 1],
    );
    assert.equal(f.valueAt([1, 0, 1]), 2);
    assert.equal(f.valueAt([1, 1, 2]), -1);
    assert.equal(f.valueAt([0, 1, 2]), 0);
    assert.equal(f.find([0, 0, 0]), 0);
    assert.equal(f.find([0, 0, 1]), -1);
    assert.throws(() => f.find([2, 0, 0]), RangeError);
  });

  test('order 1 has one fiber; fiber helpers', () => {
    const t = denseToCsf(new Float32Array([0, 7, 0, 8]), [4]);
    assert.deepEqual(Array.from(t.ptr), [0, 2]);
    assert.equal(
      toHex(encodeCsf(t)),
      '01000000' + '04000000' + '02000000' + '01000000' + '0000e040' + '03000000' + '00000041' + '02000000' + '00000000' + '02000000',
    );
    assert.deepEqual(fiberCoord([4], 0), []);
    assert.deepEqual(fiberCoord([2, 3, 4, 5], 23), [1, 2, 3]);
    assert.equal(fiberOfCoord([2, 3, 4, 5], [1, 2, 3]), 23);
    assert.equal(fiberOfCoord([2, 3, 4, 5], [1, 3, 0]), -1);
  });

  test('keepZeros writes a dense file (nnz = Π shape, ptr[i] = i·L)', () => {
    const t = denseToCsf(new Float32Array(6), [2, 3], { keepZeros: true });
    assert.deepEqual(Array.from(t.ptr), [0, 3, 6]);
    assert.deepEqual(Array.from(t.indices), [0, 1, 2, 0, 1, 2]);
  });

  test('lazy reader: fiber access reads only that fiber; file offsets are described', () => {
    const f = open(hex(oracles.valid.B.hex));
    const fb = f.fiber(1);
    assert.deepEqual(Array.from(fb.indices), [0, 2]);
    assert.deepEqual(Array.from(fb.values), [4, 0.5]);
    assert.equal(f.fiber(0).indices.length, 0);
    assert.equal(f.fiberOfEntry(0), 1);
    assert.deepEqual(describeFileOffset(f, 0), { section: 'order' });
    assert.deepEqual(describeFileOffset(f, 9), { section: 'shape', mode: 1 });
    assert.deepEqual(describeFileOffset(f, 12), { section: 'nnz' });
    assert.deepEqual(describeFileOffset(f, 28), { section: 'entry', entry: 1, field: 'value', fiber: 1, leading: [1], coord: [1, 2] });
    assert.deepEqual(describeFileOffset(f, 32), { section: 'pointer-count' });
    assert.deepEqual(describeFileOffset(f, 36), { section: 'pointer', pointer: 0, fiber: 0, leading: [0], end: false });
    assert.deepEqual(describeFileOffset(f, 44), { section: 'pointer', pointer: 2, end: true });
    assert.deepEqual(locateInFile(f, [1, 2]), { fiber: 1, leading: [1], pointerOffset: 40, present: true, entry: 1, offset: 24, value: 0.5 });
    assert.deepEqual(locateInFile(f, [1, 1]), { fiber: 1, leading: [1], pointerOffset: 40, present: false, entry: 1, offset: 24, value: 0 });
  });
});

describe('csf codec: writer rules (§A.5)', () => {
  test('csfFromFibers sorts each fiber and rounds to f32 (ties to even)', () => {
    const t = csfFromFibers(
      [2, 5],
      [
        [
          [3, 1.1],
          [0, 2],
        ],
        [],
      ],
    );
    assert.deepEqual(Array.from(t.indices), [0, 3]);
    assert.equal(t.values[1], Math.fround(1.1));
    assert.equal(t.bits[1], 0x3f8ccccd);
    assert.equal(f32ToBits(1 + 2 ** -24), 0x3f800000, 'ties go to even');
  });

  test('rejections: duplicate, out of range, f32 overflow, order, fiber count', () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        assert.ok(e instanceof CsfError);
        return e.issue.code;
      }
      return 'no error';
    };
    assert.equal(
      code(() =>
        csfFromFibers(
          [1, 4],
          [
            [
              [1, 1],
              [1, 2],
            ],
          ],
        ),
      ),
      'csf.duplicate-index',
    );
    assert.equal(
      code(() => csfFromFibers([1, 4], [[[4, 1]]])),
      'csf.index-out-of-range',
    );
    assert.equal(
      code(() => csfFromFibers([1, 4], [[[0, 1e39]]])),
      'csf.value-overflow',
    );
    assert.equal(
      code(() => csfFromFibers([1, 4], [[[0, Infinity]]])),
      'no error',
      'infinities are values, not overflow',
    );
    assert.equal(
      code(() => csfFromFibers([1, 4], [[], []])),
      'csf.bad-tensor',
    );
    assert.equal(
      code(() => encodeCsf(makeTensor(new Array(11).fill(1), new Uint32Array([0, 0]), new Uint32Array(0), new Uint32Array(0)))),
      'csf.bad-shape',
    );
    assert.equal(
      code(() => encodeCsf(makeTensor([2, 2 ** 31 + 1], new Uint32Array([0, 0, 0]), new Uint32Array(0), new Uint32Array(0)))),
      'csf.bad-shape',
    );
    assert.equal(
      code(() => denseToCsf(new Float32Array(0), [65536, 65536, 0])),
      'csf.count-overflow',
    );
    assert.equal(
      code(() => encodeCsf(makeTensor([2, 3], new Uint32Array([0, 1, 2]), new Uint32Array([0]), new Uint32Array(1)))),
      'csf.last-pointer-mismatch',
    );
    assert.equal(
      code(() => encodeCsf(makeTensor([1, 3], new Uint32Array([0, 2]), new Uint32Array([2, 1]), new Uint32Array(2)))),
      'csf.unsorted-index',
    );
  });

  test('f32 text is the shortest that reads back', () => {
    assert.equal(formatF32(Math.fround(1.1)), '1.1');
    assert.equal(formatF32(-6.375), '-6.375');
    assert.equal(formatF32(-0), '-0');
    assert.equal(formatF32(bitsToF32(0x7fc00000)), 'NaN');
    assert.equal(formatF32(bitsToF32(1)), '1e-45');
  });
});

describe('csf codec: round trips (property)', () => {
  test('dense → csfbin → dense keeps every bit; the file validates', () => {
    fc.assert(
      fc.property(denseArb, ({ shape, data }) => {
        const t = denseToCsf(data, shape);
        const bytes = encodeCsf(t);
        assert.equal(bytes.length, 16 + 4 * shape.length + 8 * t.indices.length + 4 * (t.ptr.length - 1));
        const r = parseCsf(bytes);
        assert.ok(r.ok, JSON.stringify(!r.ok && r.issues));
        assert.deepEqual(
          new Uint32Array(csfToDense(r.tensor).buffer),
          new Uint32Array(data.buffer, 0, data.length).map((b) => ((b & 0x7fffffff) === 0 ? 0 : b)),
        );
        assert.equal(toHex(encodeCsf(r.tensor)), toHex(bytes));
      }),
    );
  });

  test('lazy reader agrees with the materialised tensor at every coordinate', () => {
    fc.assert(
      fc.property(denseArb, ({ shape, data }) => {
        const t: CsfTensor = denseToCsf(data, shape, { keepZeros: false });
        const f = open(encodeCsf(t));
        const L = shape[shape.length - 1];
        for (let k = 0; k < f.fibers; k++) {
          const fb = f.fiber(k);
          assert.deepEqual(fb.indices, t.indices.subarray(t.ptr[k], t.ptr[k + 1]));
          assert.deepEqual(fb.bits, t.bits.subarray(t.ptr[k], t.ptr[k + 1]));
          for (let j = 0; j < L; j++) {
            const e = f.find([...fiberCoord(shape, k), j]);
            const b = new Uint32Array(data.buffer)[k * L + j];
            if ((b & 0x7fffffff) === 0) assert.equal(e, -1);
            else assert.equal(f.entryBits(e), b);
          }
        }
      }),
    );
  });

  test('an unaligned view of the bytes reads the same', () => {
    const bytes = hex(oracles.valid.order3.hex);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const f = open(shifted.subarray(1));
    assert.deepEqual(Array.from(csfToDense(f.toTensor())), flat(oracles.valid.order3.dense));
  });
});
