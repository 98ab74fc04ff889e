/**
 * The accelerator's two memories (core/csf/memory.ts) where mutation testing (npm run mutate -- csf) found the tests
 * loose: reads at and past the allocators' tops, capacity checks at the exact fit and one short (with their messages),
 * the 32-bit pointer bound, images that grow past their first 1024 words/entries, every refusal of readTensorMeta,
 * unloading back to the same bytes, the tensor owning an address with three tensors resident, and load options.
 *
 *   X: order 1, shape 5, nnz 1 (index 2, 7.0)                    — metadata 4 words, main 1 entry
 *   B: order 3, shape 2×2×4, F = 4, nnz 4, pointers [0,2,2,2,4]   — metadata 2 + 3 + 4 = 9 words, main 4 entries
 *   X then B: X at t = 0 (words 0..3, entry 0), B at t = 4 (words 4..12, entries 1..4); metaTop 13, mainTop 5
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCsf } from '../../core/csf/codec';
import { AcceleratorMemory, extractCsf, loadCsf, readTensorMeta, tensorFromMemory } from '../../core/csf/memory';

const F32 = { 1: 0x3f800000, 2: 0x40000000, 3: 0x40400000, 7: 0x40e00000, '-1.5': 0xbfc00000 };

function bytesOf(words: number[]): Uint8Array {
  const b = new Uint8Array(4 * words.length);
  const dv = new DataView(b.buffer);
  words.forEach((w, i) => dv.setUint32(4 * i, w >>> 0, true));
  return b;
}

const X = bytesOf([1, 5, 1, 2, F32[7], 2, 0, 1]);
const B = bytesOf([3, 2, 2, 4, 4, 1, F32[1], 3, F32[2], 0, F32[3], 2, F32['-1.5'], 5, 0, 2, 2, 2, 4]);

function loaded(opts?: ConstructorParameters<typeof AcceleratorMemory>[0]): AcceleratorMemory {
  const mem = new AcceleratorMemory(opts);
  assert.equal(loadCsf(mem, X).ok, true);
  assert.equal(loadCsf(mem, B).ok, true);
  assert.deepEqual([mem.metaTop, mem.mainTop], [13, 5]);
  return mem;
}

test('reads stop at the allocators: a word or entry past the top reads 0 even when bytes are there', () => {
  const mem = loaded();
  assert.deepEqual([mem.metaWord(12), mem.metaWord(13)], [5, 0]);
  mem.setMetaWord(13, 9);
  assert.equal(mem.metaWord(13), 0);
  assert.deepEqual([mem.mainIndex(4), mem.mainBits(4), mem.mainValue(4)], [2, F32['-1.5'], -1.5]);
  mem.setMainEntry(5, 9, F32[3]);
  assert.deepEqual([mem.mainIndex(5), mem.mainBits(5), mem.mainValue(5)], [0, 0, 0]);
  assert.equal(mem.metaImage().byteLength, 4 * 13);
  assert.equal(mem.mainImage().byteLength, 8 * 5);
  assert.deepEqual([...mem.metaWords()], [1, 5, 0, 1, 3, 2, 2, 4, 1, 3, 3, 3, 5]);
  assert.deepEqual([...mem.mainWords()], [2, F32[7], 1, F32[1], 3, F32[2], 0, F32[3], 2, F32['-1.5']]);
  assert.deepEqual(
    [...mem.mainFloats()].filter((_, i) => i % 2 === 1),
    [7, 1, 2, 3, -1.5],
  );
});

test('capacity: an exact fit loads, one word or entry short is refused with what it needed', () => {
  loaded({ metaCapacity: 13, mainCapacity: 5 });
  const meta = new AcceleratorMemory({ metaCapacity: 12 });
  assert.equal(loadCsf(meta, X).ok, true);
  const m = loadCsf(meta, B, { name: 'B' });
  assert.deepEqual(m.ok ? [] : m.issues.map((i) => [i.code, i.message]), [
    [
      'csf.meta-capacity',
      'loading B (order 3, shape 2×2×4, 4 fibers, nnz 4) needs 9 metadata words at 4..12, but the metadata memory holds 12 words (8 words free)',
    ],
  ]);
  assert.deepEqual([meta.metaTop, meta.mainTop, meta.tensors.length], [4, 1, 1], 'nothing of B was allocated');
  const main = new AcceleratorMemory({ mainCapacity: 4 });
  assert.equal(loadCsf(main, X).ok, true);
  const n = loadCsf(main, B);
  assert.deepEqual(n.ok ? [] : n.issues.map((i) => [i.code, i.message]), [
    [
      'csf.main-capacity',
      'loading the tensor (order 3, shape 2×2×4, 4 fibers, nnz 4) needs 4 main-memory entries at 1..4, but the main memory holds 4 entries (3 free)',
    ],
  ]);
  // one word / one entry: singular
  const one = new AcceleratorMemory({ metaCapacity: 4 });
  assert.match(one.checkCapacity(5, 0, 'x')!.message, /^x needs 5 metadata words at 0\.\.4, but the metadata memory holds 4 words \(4 words free\)$/);
  assert.equal(one.checkCapacity(4, 0, 'x'), undefined);
  one.metaTop = 3;
  assert.match(one.checkCapacity(2, 0, 'x')!.message, /\(1 word free\)$/);
});

test('a tensor may end at the last 32-bit main address, not past it', () => {
  const mem = new AcceleratorMemory({ mainCapacity: 2 ** 33 });
  mem.mainTop = 2 ** 32 - 3;
  assert.equal(mem.checkCapacity(1, 2, 'x'), undefined);
  assert.deepEqual(mem.checkCapacity(1, 3, 'x'), {
    code: 'csf.pointer-overflow',
    severity: 'error',
    message: 'x would end at main address 4294967296, which does not fit a 32-bit pointer',
  });
});

test('the images grow past their first 1024 words and entries, keeping what they held', () => {
  // order 2, shape 1500×4: 1500 fibers (1504 metadata words), one entry each (index f % 4, value bits f)
  const F = 1500;
  const words = [2, F, 4, F];
  for (let f = 0; f < F; f++) words.push(f % 4, f);
  words.push(F + 1);
  for (let f = 0; f <= F; f++) words.push(f);
  const mem = new AcceleratorMemory({ metaCapacity: 4096 });
  assert.equal(loadCsf(mem, X).ok, true);
  const r = loadCsf(mem, bytesOf(words));
  assert.ok(r.ok);
  assert.deepEqual([r.tensor.t, r.tensor.metaEnd, r.tensor.mainBase, r.tensor.mainEnd], [4, 4 + 2 + 2 + F, 1, 1 + F]);
  assert.deepEqual([mem.metaWord(1), mem.mainIndex(0), mem.mainValue(0)], [5, 2, 7], 'X is still there');
  assert.equal(mem.metaWord(4 + 3 + F), 1 + F, 'the end pointer, past word 1024');
  assert.deepEqual([mem.mainIndex(F), mem.mainBits(F)], [(F - 1) % 4, F - 1], 'the last entry, past entry 1024');
  const back = extractCsf(mem, 4);
  assert.ok(back.ok);
  assert.deepEqual([...back.bytes], [...bytesOf(words)]);
});

test('readTensorMeta reads a resident tensor and refuses each kind of bad pointer', () => {
  const mem = loaded();
  assert.deepEqual(readTensorMeta(mem, 4), { ok: true, order: 3, shape: [2, 2, 4], fibers: 4, base: 1, end: 5 });
  const why = (t: number) => {
    const r = readTensorMeta(mem, t);
    return r.ok ? 'ok' : r.issues.map((i) => `${i.code}: ${i.message}`).join();
  };
  assert.equal(why(13), 'csf.bad-address: metadata address 13 is outside the used metadata 0..12');
  assert.equal(why(-1), 'csf.bad-address: metadata address -1 is outside the used metadata 0..12');
  assert.equal(why(1.5), 'csf.bad-address: metadata address 1.5 is outside the used metadata 0..12');
  // word 2 (X's first pointer) holds 0; word 12 (B's end pointer) holds 5, whose shape would run past word 12
  assert.equal(why(2), 'csf.bad-address: metadata word 2 holds 0, which is not the order of a resident tensor');
  assert.equal(why(12), 'csf.bad-address: metadata word 12 holds 5, which is not the order of a resident tensor');
  mem.setMetaWord(5, 3); // B's shape 3×2×4: 6 fibers, pointers up to word 4 + 2 + 3 + 6 = 15 > 13
  assert.equal(why(4), 'csf.bad-address: the tensor at 4 (shape 3×2×4) would extend past the used metadata');
  mem.setMetaWord(5, 2);
  mem.setMetaWord(10, 2); // ptr[2] = 2 < ptr[1] = 3
  assert.equal(why(4), 'csf.bad-address: the fiber pointers of the tensor at 4 decrease at metadata word 10');
  mem.setMetaWord(10, 3);
  mem.setMetaWord(12, 6); // ends at 6 > mainTop 5
  assert.equal(why(4), 'csf.bad-address: the tensor at 4 ends at main address 6, past the used main memory (5)');
  mem.setMetaWord(12, 5);
  assert.equal(why(4), 'ok');
});

test('unloading gives back the bytes and the tensor that were loaded', () => {
  const mem = loaded();
  const b = extractCsf(mem, 4);
  assert.ok(b.ok);
  assert.deepEqual([...b.bytes], [...B]);
  const x = extractCsf(mem, 0);
  assert.ok(x.ok);
  assert.deepEqual([...x.bytes], [...X]);
  const t = tensorFromMemory(mem, 4);
  assert.ok(t.ok);
  assert.deepEqual(t.tensor.shape, [2, 2, 4]);
  assert.deepEqual([...t.tensor.ptr], [0, 2, 2, 2, 4]);
  assert.deepEqual([...t.tensor.indices], [1, 3, 0, 2]);
  assert.deepEqual([...t.tensor.bits], [F32[1], F32[2], F32[3], F32['-1.5']]);
  assert.deepEqual([...t.tensor.values], [1, 2, 3, -1.5]);
  const bad = extractCsf(mem, 2);
  assert.equal(bad.ok, false);
  assert.equal(tensorFromMemory(mem, 13).ok, false);
});

test('the tensor owning an address, with three resident', () => {
  const mem = loaded();
  assert.equal(loadCsf(mem, X).ok, true); // t = 13 (words 13..16), entry 5
  const t = (x: ReturnType<AcceleratorMemory['tensorAt']>) => x?.t;
  assert.deepEqual(
    [0, 1, 4, 5, 6].map((a) => t(mem.tensorOfMain(a))),
    [0, 4, 4, 13, undefined],
  );
  assert.deepEqual(
    [0, 3, 4, 12, 13, 16, 17].map((a) => t(mem.tensorOfMeta(a))),
    [0, 0, 4, 4, 13, 13, undefined],
  );
  assert.deepEqual(
    [0, 4, 13, 5].map((a) => t(mem.tensorAt(a))),
    [0, 4, 13, undefined],
  );
});

test('load options and sources: maxOrder, an opened file, an in-memory tensor, a tensor that does not fit its shape', () => {
  const limited = loadCsf(new AcceleratorMemory(), B, { maxOrder: 2 });
  assert.deepEqual(limited.ok ? [] : limited.issues.map((i) => i.rule), ['V3']);
  const fromBytes = loaded();
  const fromFile = new AcceleratorMemory();
  const o = openCsf(X);
  const p = openCsf(B);
  assert.ok(o.ok && p.ok);
  assert.equal(loadCsf(fromFile, o.file).ok, true);
  assert.equal(loadCsf(fromFile, p.file).ok, true);
  assert.deepEqual([...fromFile.metaImage()], [...fromBytes.metaImage()]);
  assert.deepEqual([...fromFile.mainImage()], [...fromBytes.mainImage()]);
  const tb = tensorFromMemory(fromBytes, 4);
  const tx = tensorFromMemory(fromBytes, 0);
  assert.ok(tb.ok && tx.ok);
  const fromTensor = new AcceleratorMemory();
  assert.equal(loadCsf(fromTensor, tx.tensor).ok, true);
  assert.equal(loadCsf(fromTensor, tb.tensor, { name: 'B' }).ok, true);
  assert.deepEqual([...fromTensor.metaImage()], [...fromBytes.metaImage()]);
  assert.deepEqual([...fromTensor.mainImage()], [...fromBytes.mainImage()]);
  assert.equal(fromTensor.tensors[1].name, 'B');
  const wrong = loadCsf(new AcceleratorMemory(), { ...tb.tensor, ptr: new Uint32Array([0, 2, 4]) });
  assert.deepEqual(wrong.ok ? [] : wrong.issues.map((i) => [i.code, i.message]), [['csf.bad-tensor', 'shape 2×2×4 does not have 2 fibers']]);
});
