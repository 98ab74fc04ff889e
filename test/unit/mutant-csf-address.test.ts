/**
 * Where a `.csfbin` element lives — in the file (locateInFile, describeFileOffset) and in the accelerator's memories
 * (locateElement, resolveMainAddress, resolveMetaAddress, resolveByte) — at every boundary, as mutation testing
 * (npm run mutate -- csf) found them held only loosely. Hand-built files, expectations worked out from their words:
 *
 *   X: order 1, shape 5, nnz 1 (index 2, 7.0), pointers [0, 1]           — loaded first: metadata 0..3, main entry 0
 *   B: order 3, shape 2×2×4, F = 4 fibers, nnz 4, pointers [0, 2, 2, 2, 4]
 *      fiber 0 (0,0): index 1 = 1.0, index 3 = 2.0; fibers 1 (0,1) and 2 (1,0) empty; fiber 3 (1,1): index 0 = 3.0, index 2 = −1.5
 *      file bytes: order 0..3, shape 4..15, nnz 16..19, entries 20..51, pointer count 52..55, pointers 56..75
 *      loaded second: tensor pointer t = 4 (order at 4, shape 5..7, pointers 8..12, each + main base 1 = [1, 3, 3, 3, 5]),
 *      main entries 1..4
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCsf } from '../../core/csf/codec';
import { AcceleratorMemory, loadCsf } from '../../core/csf/memory';
import { describeFileOffset, locateElement, locateInFile, resolveByte, resolveMainAddress, resolveMetaAddress } from '../../core/csf/address';

const F32 = { 1: 0x3f800000, 2: 0x40000000, 3: 0x40400000, 7: 0x40e00000, '-1.5': 0xbfc00000 };

function bytesOf(words: number[]): Uint8Array {
  const b = new Uint8Array(4 * words.length);
  const dv = new DataView(b.buffer);
  words.forEach((w, i) => dv.setUint32(4 * i, w >>> 0, true));
  return b;
}

const X = bytesOf([1, 5, 1, 2, F32[7], 2, 0, 1]);
const B = bytesOf([3, 2, 2, 4, 4, 1, F32[1], 3, F32[2], 0, F32[3], 2, F32['-1.5'], 5, 0, 2, 2, 2, 4]);

function memory(): AcceleratorMemory {
  const mem = new AcceleratorMemory();
  assert.equal(loadCsf(mem, X).ok, true);
  const b = loadCsf(mem, B);
  assert.ok(b.ok);
  assert.deepEqual([b.tensor.t, b.tensor.metaEnd, b.tensor.mainBase, b.tensor.mainEnd], [4, 13, 1, 5]);
  return mem;
}

function located(mem: AcceleratorMemory, t: number, coord: number[]) {
  const r = locateElement(mem, t, coord);
  assert.ok(r.ok, JSON.stringify(r));
  return r.location;
}

test('locateElement: a present element, with its pointer, fiber range, entry and value', () => {
  const mem = memory();
  assert.deepEqual(located(mem, 4, [1, 1, 2]), {
    t: 4,
    coord: [1, 1, 2],
    fiber: 3,
    leading: [1, 1],
    fiberPointerAddr: 11,
    fiberPointerByte: 44,
    fiberStart: 3,
    fiberEnd: 5,
    present: true,
    entry: 4,
    entryInFiber: 1,
    mainByte: 32,
    value: -1.5,
    bits: F32['-1.5'],
  });
  const first = located(mem, 4, [0, 0, 1]);
  assert.deepEqual([first.fiber, first.fiberPointerAddr, first.fiberStart, first.fiberEnd, first.entry, first.value], [0, 8, 1, 3, 1, 1]);
  const last = located(mem, 4, [0, 0, 3]);
  assert.deepEqual([last.present, last.entry, last.entryInFiber, last.value], [true, 2, 1, 2]);
  assert.deepEqual([located(mem, 0, [2]).entry, located(mem, 0, [2]).value], [0, 7]);
});

test('locateElement: an absent element is placed where it would be inserted', () => {
  const mem = memory();
  const between = located(mem, 4, [1, 1, 1]);
  assert.deepEqual([between.present, between.entry, between.entryInFiber, between.mainByte, between.value, between.bits], [false, 4, 1, 32, 0, 0]);
  const after = located(mem, 4, [1, 1, 3]);
  assert.deepEqual([after.present, after.entry, after.entryInFiber], [false, 5, 2]);
  const empty = located(mem, 4, [0, 1, 0]);
  assert.deepEqual(
    [empty.fiber, empty.fiberPointerAddr, empty.fiberStart, empty.fiberEnd, empty.present, empty.entry, empty.entryInFiber],
    [1, 9, 3, 3, false, 3, 0],
  );
});

test('locateElement: wrong tensor pointers and coordinates are errors that say why', () => {
  const mem = memory();
  const why = (t: number, coord: number[], m = mem) => {
    const r = locateElement(m, t, coord);
    assert.equal(r.ok, false);
    return r.ok ? '' : `${r.issues[0].code}: ${r.issues[0].message}`;
  };
  assert.equal(why(5, [0, 0, 0]), 'csf.bad-address: no tensor is loaded at metadata address 5 (tensor pointers: 0, 4)');
  assert.equal(why(0, [0], new AcceleratorMemory()), 'csf.bad-address: no tensor is loaded at metadata address 0 (tensor pointers: none)');
  assert.equal(why(4, [0, 0]), 'csf.bad-coordinate: the tensor at 4 has order 3, 2 coordinates given');
  for (const c of [
    [0, 0, 4],
    [0, 0, -1],
    [0, 0, 1.5],
    [2, 0, 0],
    [0, 2, 0],
  ])
    assert.equal(why(4, c), `csf.bad-coordinate: coordinates [${c.join(', ')}] are outside the shape 2×2×4`);
});

test('resolveMainAddress: the entry, its field, its tensor, fiber and coordinate', () => {
  const mem = memory();
  assert.deepEqual(resolveMainAddress(mem, 4, 5), {
    bank: 'main',
    address: 4,
    byteInEntry: 5,
    field: 'value',
    index: 2,
    value: -1.5,
    bits: F32['-1.5'],
    tensor: mem.tensors[1],
    fiber: 3,
    leading: [1, 1],
    entryInFiber: 1,
    coord: [1, 1, 2],
  });
  const first = resolveMainAddress(mem, 1, 3);
  assert.deepEqual([first.field, first.fiber, first.entryInFiber, first.coord], ['index', 0, 0, [0, 0, 1]]);
  const second = resolveMainAddress(mem, 2, 4);
  assert.deepEqual([second.field, second.fiber, second.entryInFiber, second.coord], ['value', 0, 1, [0, 0, 3]]);
  const third = resolveMainAddress(mem, 3);
  assert.deepEqual([third.fiber, third.entryInFiber, third.coord], [3, 0, [1, 1, 0]]);
  assert.deepEqual(resolveMainAddress(mem, 0).coord, [2]);
  // past every tensor: the raw entry only
  assert.deepEqual(resolveMainAddress(mem, 7), { bank: 'main', address: 7, byteInEntry: 0, field: 'index', index: 0, value: 0, bits: 0 });
  // an index at the extent (4 for a last mode of 4) has no coordinate
  mem.setMainEntry(2, 4, F32[2]);
  assert.equal(resolveMainAddress(mem, 2).coord, undefined);
  mem.setMainEntry(2, 3, F32[2]);
  assert.deepEqual(resolveMainAddress(mem, 2).coord, [0, 0, 3]);
});

test('resolveMetaAddress: order, each shape word, each fiber pointer, the end pointer, free words', () => {
  const mem = memory();
  const role = (a: number) => {
    const r = resolveMetaAddress(mem, a);
    return [r.role, r.mode, r.fiber, r.leading, r.tensor?.t, r.value];
  };
  assert.deepEqual(role(4), ['order', undefined, undefined, undefined, 4, 3]);
  assert.deepEqual(role(5), ['shape', 0, undefined, undefined, 4, 2]);
  assert.deepEqual(role(7), ['shape', 2, undefined, undefined, 4, 4]);
  assert.deepEqual(role(8), ['fiber-pointer', undefined, 0, [0, 0], 4, 1]);
  assert.deepEqual(role(10), ['fiber-pointer', undefined, 2, [1, 0], 4, 3]);
  assert.deepEqual(role(11), ['fiber-pointer', undefined, 3, [1, 1], 4, 3]);
  assert.deepEqual(role(12), ['end-pointer', undefined, undefined, undefined, 4, 5]);
  assert.deepEqual(role(13), ['free', undefined, undefined, undefined, undefined, 0]);
  assert.deepEqual(role(3), ['end-pointer', undefined, undefined, undefined, 0, 1]);
});

test('resolveByte splits a byte address into its word or entry and the byte inside it', () => {
  const mem = memory();
  const main = resolveByte(mem, 'main', 37);
  assert.deepEqual([main.bank, main.address, 'byteInEntry' in main && main.byteInEntry], ['main', 4, 5]);
  const meta = resolveByte(mem, 'meta', 45);
  assert.deepEqual([meta.bank, meta.address, 'byteInWord' in meta && meta.byteInWord, 'role' in meta && meta.role], ['meta', 11, 1, 'fiber-pointer']);
});

test('describeFileOffset names every section of the file at its first and last byte', () => {
  const o = openCsf(B);
  assert.ok(o.ok);
  const at = (offset: number) => describeFileOffset(o.file, offset);
  assert.deepEqual([0, 3].map(at), [{ section: 'order' }, { section: 'order' }]);
  assert.deepEqual([4, 7, 8, 15].map(at), [
    { section: 'shape', mode: 0 },
    { section: 'shape', mode: 0 },
    { section: 'shape', mode: 1 },
    { section: 'shape', mode: 2 },
  ]);
  assert.deepEqual([16, 19].map(at), [{ section: 'nnz' }, { section: 'nnz' }]);
  assert.deepEqual(at(20), { section: 'entry', entry: 0, field: 'index', fiber: 0, leading: [0, 0], coord: [0, 0, 1] });
  assert.deepEqual(at(23), { section: 'entry', entry: 0, field: 'index', fiber: 0, leading: [0, 0], coord: [0, 0, 1] });
  assert.deepEqual(at(24), { section: 'entry', entry: 0, field: 'value', fiber: 0, leading: [0, 0], coord: [0, 0, 1] });
  assert.deepEqual(at(36), { section: 'entry', entry: 2, field: 'index', fiber: 3, leading: [1, 1], coord: [1, 1, 0] });
  assert.deepEqual(at(51), { section: 'entry', entry: 3, field: 'value', fiber: 3, leading: [1, 1], coord: [1, 1, 2] });
  assert.deepEqual([52, 55].map(at), [{ section: 'pointer-count' }, { section: 'pointer-count' }]);
  assert.deepEqual(at(56), { section: 'pointer', pointer: 0, fiber: 0, leading: [0, 0], end: false });
  assert.deepEqual(at(71), { section: 'pointer', pointer: 3, fiber: 3, leading: [1, 1], end: false });
  assert.deepEqual(at(72), { section: 'pointer', pointer: 4, end: true });
  assert.deepEqual(at(75), { section: 'pointer', pointer: 4, end: true });
  assert.deepEqual(at(76), { section: 'trailing' });
});

test('locateInFile: present elements, insertion points inside and after a fiber, an empty fiber', () => {
  const o = openCsf(B);
  assert.ok(o.ok);
  const loc = (c: number[]) => locateInFile(o.file, c);
  assert.deepEqual(loc([1, 1, 0]), { fiber: 3, leading: [1, 1], pointerOffset: 68, present: true, entry: 2, offset: 36, value: 3 });
  assert.deepEqual(loc([1, 1, 1]), { fiber: 3, leading: [1, 1], pointerOffset: 68, present: false, entry: 3, offset: 44, value: 0 });
  assert.deepEqual(loc([1, 1, 3]), { fiber: 3, leading: [1, 1], pointerOffset: 68, present: false, entry: 4, offset: 52, value: 0 });
  assert.deepEqual(loc([0, 0, 0]), { fiber: 0, leading: [0, 0], pointerOffset: 56, present: false, entry: 0, offset: 20, value: 0 });
  assert.deepEqual(loc([0, 0, 2]), { fiber: 0, leading: [0, 0], pointerOffset: 56, present: false, entry: 1, offset: 28, value: 0 });
  assert.deepEqual(loc([0, 1, 2]), { fiber: 1, leading: [0, 1], pointerOffset: 60, present: false, entry: 2, offset: 36, value: 0 });
});
