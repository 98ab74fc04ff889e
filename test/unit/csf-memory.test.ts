import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import {
  AcceleratorMemory,
  csfToDense,
  denseToCsf,
  encodeCsf,
  extractCsf,
  fiberCoord,
  loadCsf,
  locateElement,
  openCsf,
  parseCsf,
  readTensorMeta,
  resolveByte,
  resolveMainAddress,
  resolveMetaAddress,
  tensorFromMemory,
} from '../../core/csf/index';

const FIXTURES = fileURLToPath(new URL('../fixtures/csf/', import.meta.url));
const oracles = JSON.parse(readFileSync(FIXTURES + 'oracles.json', 'utf8'));
const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const A = hex(oracles.valid.A.hex);
const B = hex(oracles.valid.B.hex);

function loadAB(mem = new AcceleratorMemory()) {
  const a = loadCsf(mem, A, { name: 'A' });
  const b = loadCsf(mem, B, { name: 'B' });
  assert.ok(a.ok && b.ok);
  return { mem, a: a.tensor, b: b.tensor };
}

describe('accelerator load (§A.7, §A.8.5)', () => {
  test('A then B into fresh memories: tensor pointers, words and byte images', () => {
    const { mem, a, b } = loadAB();
    assert.equal(a.t, 0);
    assert.equal(b.t, 6);
    assert.deepEqual([a.mainBase, a.mainEnd, b.mainBase, b.mainEnd], [0, 3, 3, 5]);
    assert.deepEqual([mem.metaTop, mem.mainTop], [12, 5]);
    assert.deepEqual(Array.from(mem.metaWords()), oracles.load.metaWords);
    assert.equal(toHex(mem.metaImage()), oracles.load.metaHex);
    assert.equal(toHex(mem.mainImage()), oracles.load.mainHex);
    assert.deepEqual(Array.from(mem.mainWords()), [1, 0x3fc00000, 0, 0xc0000000, 2, 0x40500000, 0, 0x40800000, 2, 0x3f000000]);
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((k) => [mem.mainIndex(k), mem.mainValue(k)]),
      [
        [1, 1.5],
        [0, -2],
        [2, 3.25],
        [0, 4],
        [2, 0.5],
      ],
    );
    assert.equal(mem.mainFloats()[9], 0.5);
  });

  test('lookups: A row 1 is [1, 3), B row 0 is [3, 3) (empty), B row 1 is [3, 5)', () => {
    const { mem } = loadAB();
    const range = (t: number, c: number[]) => {
      const r = locateElement(mem, t, c);
      assert.ok(r.ok);
      return [r.location.fiberPointerAddr, r.location.fiberStart, r.location.fiberEnd];
    };
    assert.deepEqual(range(0, [1, 0]), [4, 1, 3]);
    assert.deepEqual(range(6, [0, 0]), [9, 3, 3]);
    assert.deepEqual(range(6, [1, 0]), [10, 3, 5]);
  });

  test('loading an opened file or an in-memory tensor gives the same images', () => {
    const ref = loadAB().mem;
    const m1 = new AcceleratorMemory();
    const fa = openCsf(A);
    const pb = parseCsf(B);
    assert.ok(fa.ok && pb.ok);
    assert.ok(loadCsf(m1, fa.file).ok);
    assert.ok(loadCsf(m1, pb.tensor).ok);
    assert.deepEqual(m1.metaImage(), ref.metaImage());
    assert.deepEqual(m1.mainImage(), ref.mainImage());
  });

  test('extract gives back the files; nnz is end − base (the simulator writes Π shape)', () => {
    const { mem } = loadAB();
    const xa = extractCsf(mem, 0);
    const xb = extractCsf(mem, 6);
    assert.ok(xa.ok && xb.ok);
    assert.equal(toHex(xa.bytes), oracles.valid.A.hex);
    assert.equal(toHex(xb.bytes), oracles.valid.B.hex);
    const t = tensorFromMemory(mem, 6);
    assert.ok(t.ok);
    assert.deepEqual(Array.from(csfToDense(t.tensor)), [0, 0, 0, 4, 0, 0.5]);
    assert.equal(extractCsf(mem, 3).ok, false, 'no tensor starts at a pointer word');
    assert.equal(readTensorMeta(mem, 99).ok, false);
  });

  test('an invalid file is refused and the memories stay as they were', () => {
    const { mem } = loadAB();
    const bad = hex(oracles.corrupt.find((c: { rule: string }) => c.rule === 'V15').hex);
    const r = loadCsf(mem, bad);
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.issues[0].code, 'csf.unsorted-index');
    assert.deepEqual([mem.metaTop, mem.mainTop, mem.tensors.length], [12, 5, 2]);
  });

  test('capacity: exactly 1024 metadata words fit, one more is an error; main memory too', () => {
    const fill = (fibers: number) => encodeCsf(denseToCsf(new Float32Array(fibers * 4), [fibers, 4]));
    const m = new AcceleratorMemory();
    assert.ok(loadCsf(m, fill(1020)).ok, '2 + 2 + 1020 = 1024 words');
    assert.equal(m.metaTop, 1024);
    const m2 = new AcceleratorMemory();
    const r = loadCsf(m2, fill(1021), { name: 'big' });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.issues[0].code, 'csf.meta-capacity');
    assert.match(
      !r.ok ? r.issues[0].message : '',
      /loading big .* needs 1025 metadata words at 0\.\.1024, but the metadata memory holds 1024 words \(1024 words free\)/,
    );
    assert.deepEqual([m2.metaTop, m2.mainTop, m2.tensors.length], [0, 0, 0]);
    const small = new AcceleratorMemory({ mainCapacity: 4 });
    assert.ok(loadCsf(small, A).ok);
    const rb = loadCsf(small, B);
    assert.equal(!rb.ok && rb.issues[0].code, 'csf.main-capacity');
    assert.match(!rb.ok ? rb.issues[0].message : '', /needs 2 main-memory entries at 3\.\.4, but the main memory holds 4 entries \(1 free\)/);
    const huge = new AcceleratorMemory({ mainCapacity: Infinity });
    huge.mainTop = 2 ** 32 - 2;
    const ro = loadCsf(huge, A);
    assert.equal(!ro.ok && ro.issues[0].code, 'csf.pointer-overflow');
  });
});

describe('coordinate ↔ address mapping', () => {
  test('element → fiber, pointer word, entry and byte addresses', () => {
    const { mem } = loadAB();
    const r = locateElement(mem, 0, [1, 2]);
    assert.ok(r.ok);
    assert.deepEqual(r.location, {
      t: 0,
      coord: [1, 2],
      fiber: 1,
      leading: [1],
      fiberPointerAddr: 4,
      fiberPointerByte: 16,
      fiberStart: 1,
      fiberEnd: 3,
      present: true,
      entry: 2,
      entryInFiber: 1,
      mainByte: 16,
      value: 3.25,
      bits: 0x40500000,
    });
    const absent = locateElement(mem, 6, [0, 1]);
    assert.ok(absent.ok);
    assert.deepEqual([absent.location.present, absent.location.entry, absent.location.value], [false, 3, 0]);
    const mid = locateElement(mem, 6, [1, 1]);
    assert.ok(mid.ok);
    assert.deepEqual([mid.location.present, mid.location.entry], [false, 4], 'insertion point between (0,4) and (2,0.5)');
    const oob = locateElement(mem, 0, [2, 0]);
    assert.equal(!oob.ok && oob.issues[0].code, 'csf.bad-coordinate');
    const nt = locateElement(mem, 1, [0, 0]);
    assert.equal(!nt.ok && nt.issues[0].code, 'csf.bad-address');
  });

  test('address → owner, role, fiber and coordinates', () => {
    const { mem, a, b } = loadAB();
    const roles = Array.from({ length: 13 }, (_, k) => {
      const i = resolveMetaAddress(mem, k);
      return [i.tensor?.t, i.role, i.mode ?? i.fiber];
    });
    assert.deepEqual(roles, [
      [0, 'order', undefined],
      [0, 'shape', 0],
      [0, 'shape', 1],
      [0, 'fiber-pointer', 0],
      [0, 'fiber-pointer', 1],
      [0, 'end-pointer', undefined],
      [6, 'order', undefined],
      [6, 'shape', 0],
      [6, 'shape', 1],
      [6, 'fiber-pointer', 0],
      [6, 'fiber-pointer', 1],
      [6, 'end-pointer', undefined],
      [undefined, 'free', undefined],
    ]);
    const mains = [0, 1, 2, 3, 4].map((k) => {
      const i = resolveMainAddress(mem, k);
      return [i.tensor?.name, i.fiber, i.entryInFiber, i.coord, i.value];
    });
    assert.deepEqual(mains, [
      ['A', 0, 0, [0, 1], 1.5],
      ['A', 1, 0, [1, 0], -2],
      ['A', 1, 1, [1, 2], 3.25],
      ['B', 1, 0, [1, 0], 4],
      ['B', 1, 1, [1, 2], 0.5],
    ]);
    const byte = resolveByte(mem, 'main', 21);
    assert.equal(byte.bank, 'main');
    assert.deepEqual(byte.bank === 'main' && [byte.address, byte.byteInEntry, byte.field], [2, 5, 'value']);
    const mb = resolveByte(mem, 'meta', 42);
    assert.deepEqual(mb.bank === 'meta' && [mb.address, mb.byteInWord, mb.role, mb.fiber, mb.tensor === b], [10, 2, 'fiber-pointer', 1, true]);
    assert.equal(resolveMainAddress(mem, 7).tensor, undefined);
    assert.equal(mem.tensorOfMain(2), a);
  });

  test('random tensors loaded one after another: every element and every address maps both ways (property)', () => {
    const tensorArb = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }).chain((shape) => {
      const n = shape.reduce((x, y) => x * y, 1);
      return fc.tuple(fc.constant(shape), fc.array(fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: -9, max: 9 })), { minLength: n, maxLength: n }));
    });
    fc.assert(
      fc.property(fc.array(tensorArb, { minLength: 1, maxLength: 4 }), (list) => {
        const mem = new AcceleratorMemory();
        const files = list.map(([shape, v]) => ({ shape, dense: new Float32Array(v), bytes: encodeCsf(denseToCsf(new Float32Array(v), shape)) }));
        const loaded = files.map((f) => {
          const r = loadCsf(mem, f.bytes);
          assert.ok(r.ok);
          return r.tensor;
        });
        let meta = 0;
        let main = 0;
        files.forEach((f, k) => {
          const t = loaded[k];
          assert.equal(t.t, meta);
          assert.equal(t.mainBase, main);
          meta += 2 + f.shape.length + t.fibers;
          main += t.nnz;
          const x = extractCsf(mem, t.t);
          assert.ok(x.ok);
          assert.deepEqual(x.bytes, f.bytes);
          const L = f.shape[f.shape.length - 1];
          for (let fib = 0; fib < t.fibers; fib++)
            for (let j = 0; j < L; j++) {
              const coord = [...fiberCoord(f.shape, fib), j];
              const r = locateElement(mem, t.t, coord);
              assert.ok(r.ok);
              assert.equal(r.location.value, f.dense[fib * L + j]);
              assert.equal(r.location.present, f.dense[fib * L + j] !== 0);
              if (r.location.present) {
                const back = resolveMainAddress(mem, r.location.entry);
                assert.equal(back.tensor, t);
                assert.deepEqual(back.coord, coord);
              }
              const pw = resolveMetaAddress(mem, r.location.fiberPointerAddr);
              assert.deepEqual([pw.tensor, pw.role, pw.fiber], [t, 'fiber-pointer', fib]);
            }
        });
        assert.deepEqual([mem.metaTop, mem.mainTop], [meta, main]);
        for (let addr = 0; addr < mem.mainTop; addr++) {
          const i = resolveMainAddress(mem, addr);
          assert.ok(i.tensor && i.coord);
          const r = locateElement(mem, i.tensor.t, i.coord);
          assert.ok(r.ok);
          assert.equal(r.location.entry, addr);
        }
      }),
      { numRuns: 60 },
    );
  });
});
