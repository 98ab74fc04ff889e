/**
 * The debugger's batch-by-batch transfer (core/sim/engine/stepped.ts) driven directly on hand-built descriptors:
 * batch sizes and progress (done/total/lastFrom) worked out by hand from the rule "whole destination rows of at least
 * MIN_BATCH elements, rows longer than MAX_BATCH cut into MAX_BATCH pieces", memory between batches, statistics
 * accumulated over batches, and where each element is (dstAt/srcAt: coordinates, space, address, notes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Machine } from '../../core/sim/machine';
import { SteppedTransfer, MAX_BATCH, MIN_BATCH } from '../../core/sim/engine/stepped';
import { runTransfer, type Side } from '../../core/sim/engine/transfer';
import type { Descriptor, Level } from '../../core/tprog/descriptor';
import type { DataType } from '../../core/tprog/machineConstants';

/** One level: `[begin:begin+(count-1)*step]` of a dimension of `size` elements, `stride` elements apart. */
interface L {
  count: number;
  stride: number;
  size?: number;
  begin?: number;
  step?: number;
  label?: string;
  dim?: number;
  kind?: Level['kind'];
}

function desc(base: number, elemBytes: number, levels: L[], name = 'p'): Descriptor {
  const lv: Level[] = levels.map((l, k) => ({
    kind: l.kind ?? 'dim',
    label: l.label ?? `${name}[${l.dim ?? k}]`,
    dim: l.dim ?? k,
    begin: l.begin ?? 0,
    step: l.step ?? 1,
    count: l.count,
    stride: l.stride,
    size: l.size ?? 1 << 14,
    checkHigh: true,
  }));
  return {
    space: 'MEM',
    written: 'MEM',
    elemBytes,
    base,
    levels: lv,
    total: lv.reduce((x, l) => x * l.count!, 1),
    pad: undefined,
    repeat: false,
    problems: [],
  };
}

const side = (d: Descriptor, dtype: DataType = 'UINT8', space: Side['space'] = 'MEM'): Side => ({ desc: d, space, dtype });

function machine(): Machine {
  const m = new Machine({ memBytes: 1 << 16 });
  for (let i = 0; i < 0x4000; i++) m.mem[i] = (i * 7 + 3) & 0xff;
  return m;
}

/** The sizes nextBatch proposes when each is taken whole, until the end. */
function batches(t: SteppedTransfer): number[] {
  const out: number[] = [];
  while (!t.finished) {
    const n = t.nextBatch();
    out.push(n);
    t.run(n);
  }
  return out;
}

function stepped(dst: L[], src: L[] = [{ count: dst.reduce((x, l) => x * l.count, 1), stride: 1 }], pad = 0, repeat = false) {
  const m = machine();
  return { m, t: new SteppedTransfer({ m, process: 0 }, side(desc(0x1000, 1, dst)), side(desc(0x2000, 1, src, 'q')), pad, repeat) };
}

test('the batch limits are 8 and 64 elements', () => {
  assert.equal(MIN_BATCH, 8);
  assert.equal(MAX_BATCH, 64);
});

test('rows shorter than 8 elements go in whole rows of at least 8: rows of 5 → batches of 10', () => {
  const { t } = stepped([
    { count: 3, stride: 5 },
    { count: 5, stride: 1 },
  ]);
  assert.equal(t.total, 15);
  assert.equal(t.row, 5);
  // 5·⌈8/5⌉ = 10
  assert.equal(t.batch, 10);
  assert.deepEqual(batches(t), [10, 5]);
  assert.equal(t.done, 15);
  assert.equal(t.lastFrom, 10);
});

test('rows of 3: batches of 9 (3·⌈8/3⌉), a batch never crosses a batch boundary after an odd step', () => {
  const { t } = stepped([
    { count: 7, stride: 3 },
    { count: 3, stride: 1 },
  ]);
  assert.equal(t.total, 21);
  assert.equal(t.row, 3);
  assert.equal(t.batch, 9);
  assert.equal(t.nextBatch(), 9);
  t.run(4);
  assert.equal(t.done, 4);
  assert.equal(t.lastFrom, 0);
  // to the end of the batch [0, 9)
  assert.equal(t.nextBatch(), 5);
  t.run(5);
  assert.equal(t.lastFrom, 4);
  assert.equal(t.done, 9);
  assert.equal(t.nextBatch(), 9);
  t.run(9);
  // 3 left
  assert.equal(t.nextBatch(), 3);
  assert.equal(t.finished, false);
  t.run(3);
  assert.equal(t.finished, true);
});

test('a row of 8 to 64 elements is one batch; a count-1 innermost level does not make the row', () => {
  const a = stepped([
    { count: 2, stride: 20 },
    { count: 20, stride: 1 },
  ]).t;
  assert.equal(a.row, 20);
  assert.equal(a.batch, 20);
  assert.deepEqual(batches(a), [20, 20]);
  const b = stepped([
    { count: 3, stride: 4 },
    { count: 4, stride: 1 },
    { count: 1, stride: 1 },
  ]).t;
  // innermost level with more than one element: the 4
  assert.equal(b.row, 4);
  assert.equal(b.batch, 8);
  assert.deepEqual(batches(b), [8, 4]);
  const c = stepped([{ count: 8, stride: 1 }]).t;
  assert.equal(c.row, 8);
  assert.equal(c.batch, 8);
  assert.deepEqual(batches(c), [8]);
  const d = stepped([{ count: 64, stride: 1 }]).t;
  assert.equal(d.batch, 64);
  assert.deepEqual(batches(d), [64]);
});

test('fewer elements than 8 in all: one batch of them all', () => {
  const { t } = stepped([{ count: 3, stride: 1 }]);
  assert.equal(t.row, 3);
  assert.equal(t.batch, 3);
  assert.deepEqual(batches(t), [3]);
  const one = stepped([{ count: 1, stride: 1 }]).t;
  assert.equal(one.row, 1);
  assert.equal(one.batch, 1);
  assert.deepEqual(batches(one), [1]);
});

test('rows longer than 64 are cut into 64-element pieces within each row: rows of 100 → 64, 36, 64, 36', () => {
  const { t } = stepped([
    { count: 2, stride: 100 },
    { count: 100, stride: 1 },
  ]);
  assert.equal(t.row, 100);
  assert.equal(t.batch, 64);
  assert.deepEqual(batches(t), [64, 36, 64, 36]);
  const u = stepped([{ count: 150, stride: 1 }]).t;
  assert.deepEqual(batches(u), [64, 64, 22]);
  // after 10 elements: to the next multiple of 64 in the row
  const v = stepped([{ count: 150, stride: 1 }]).t;
  v.run(10);
  assert.equal(v.nextBatch(), 54);
  v.run(54);
  assert.equal(v.nextBatch(), 64);
  v.run(70);
  // 134 done: 16 left, 64 − 134 % 64 = 58
  assert.equal(v.nextBatch(), 16);
  const w = stepped([
    { count: 2, stride: 100 },
    { count: 100, stride: 1 },
  ]).t;
  w.run(90);
  // 10 left in the first row
  assert.equal(w.nextBatch(), 10);
  w.run(10);
  assert.equal(w.nextBatch(), 64);
});

test('run(0) and run(−n) move nothing; run past the end moves what is left', () => {
  const { m, t } = stepped([{ count: 12, stride: 1 }]);
  t.run(0);
  t.run(-5);
  assert.equal(t.done, 0);
  assert.equal(t.lastFrom, 0);
  assert.deepEqual(t.stats, { elements: 0, padded: 0, skipped: 0 });
  assert.equal(m.mem[0x1000], (0x1000 * 7 + 3) & 0xff);
  t.run(5);
  t.run(1000);
  assert.equal(t.done, 12);
  assert.equal(t.lastFrom, 5);
  t.run(3);
  assert.equal(t.done, 12);
  assert.equal(t.lastFrom, 5);
});

test('memory between batches is the partial state; the end equals one runTransfer', () => {
  const { m, t } = stepped([{ count: 12, stride: 1 }], [{ count: 12, stride: 2 }]);
  const src = (i: number) => ((0x2000 + 2 * i) * 7 + 3) & 0xff;
  const old = (i: number) => ((0x1000 + i) * 7 + 3) & 0xff;
  t.run(5);
  for (let i = 0; i < 12; i++) assert.equal(m.mem[0x1000 + i], i < 5 ? src(i) : old(i), `after 5, byte ${i}`);
  assert.deepEqual(t.stats, {
    elements: 5,
    padded: 0,
    skipped: 0,
    read: { space: 'MEM', lo: 0x2000, hi: 0x2008, count: 5 },
    written: { space: 'MEM', lo: 0x1000, hi: 0x1004, count: 5 },
  });
  t.run(7);
  for (let i = 0; i < 12; i++) assert.equal(m.mem[0x1000 + i], src(i));
  // read 0x2000..0x2016 in 12 bytes, written 0x1000..0x100b
  assert.deepEqual(t.stats, {
    elements: 12,
    padded: 0,
    skipped: 0,
    read: { space: 'MEM', lo: 0x2000, hi: 0x2016, count: 12 },
    written: { space: 'MEM', lo: 0x1000, hi: 0x100b, count: 12 },
  });
  const m2 = machine();
  const whole = runTransfer(
    { m: m2, process: 0 },
    side(desc(0x1000, 1, [{ count: 12, stride: 1 }])),
    side(desc(0x2000, 1, [{ count: 12, stride: 2 }], 'q')),
    0,
    false,
  );
  assert.deepEqual(t.stats, whole);
  assert.ok(m.mem.every((v, i) => v === m2.mem[i]));
});

test('padded and skipped counts add up over batches', () => {
  // destination 10 elements, the last 3 out of its 7-element dimension (skipped writes); source of 6 elements without REPEAT: 4 padded
  const m = machine();
  const t = new SteppedTransfer(
    { m, process: 0 },
    side(desc(0x1000, 1, [{ count: 10, stride: 1, size: 7 }])),
    side(desc(0x2000, 1, [{ count: 6, stride: 1 }], 'q')),
    0x55,
    false,
  );
  t.run(4);
  assert.deepEqual([t.stats.elements, t.stats.padded, t.stats.skipped], [4, 0, 0]);
  t.run(3);
  // elements 4..6: 6 is padded
  assert.deepEqual([t.stats.elements, t.stats.padded, t.stats.skipped], [7, 1, 0]);
  t.run(3);
  // 7..9: padded (source exhausted) and skipped (out of the destination)
  assert.deepEqual([t.stats.elements, t.stats.padded, t.stats.skipped], [10, 4, 3]);
  assert.equal(m.mem[0x1006], 0x55);
  assert.equal(m.mem[0x1007], (0x1007 * 7 + 3) & 0xff);
  assert.equal(m.mem[0x1005], (0x2005 * 7 + 3) & 0xff);
});

test('an overlapping contiguous copy stepped one element at a time reads the source as it was before', () => {
  // destination 0x1002.. overlaps source 0x1000.. (forward move): element by element without the snapshot would
  // copy byte 0 over and over
  const m = machine();
  const before = m.mem.slice(0x1000, 0x1010);
  const t = new SteppedTransfer(
    { m, process: 0 },
    side(desc(0x1002, 1, [{ count: 12, stride: 1 }])),
    side(desc(0x1000, 1, [{ count: 12, stride: 1 }], 'q')),
    0,
    false,
  );
  while (!t.finished) t.run(1);
  for (let i = 0; i < 12; i++) assert.equal(m.mem[0x1002 + i], before[i], `byte ${i}`);
  // the other direction needs no snapshot: destination 0x1000 <= source 0x1002
  const m2 = machine();
  const before2 = m2.mem.slice(0x1000, 0x1010);
  const t2 = new SteppedTransfer(
    { m: m2, process: 0 },
    side(desc(0x1000, 1, [{ count: 12, stride: 1 }])),
    side(desc(0x1002, 1, [{ count: 12, stride: 1 }], 'q')),
    0,
    false,
  );
  while (!t2.finished) t2.run(1);
  for (let i = 0; i < 12; i++) assert.equal(m2.mem[0x1000 + i], before2[i + 2], `byte ${i}`);
});

test('dstAt and srcAt: coordinates in dimension order, space, byte address, notes', () => {
  const m = machine();
  // destination p[0:2][0:3] of INT16 at 0x1000, rows of 8 elements; source q over dims listed innermost-first
  const dst = desc(0x1000, 2, [
    { count: 3, stride: 8, size: 2 },
    { count: 4, stride: 1 },
  ]);
  const src = desc(
    0x2000,
    2,
    [
      { count: 3, stride: 1, dim: 1, begin: 1 },
      { count: 4, stride: 10, dim: 0, step: 2 },
    ],
    'q',
  );
  const t = new SteppedTransfer({ m, process: 0 }, side(dst, 'INT16'), side(src, 'INT16'), 0, false);
  // ordinal 5 = [1][1]: element 1·8 + 1 = 9 → byte 0x1000 + 18
  assert.deepEqual(t.dstAt(5), { coord: 'p[1][1]', space: 'MEM', address: 0x1012 });
  assert.deepEqual(t.dstAt(0), { coord: 'p[0][0]', space: 'MEM', address: 0x1000 });
  // ordinal 8 = [2][0]: row 2 is past the 2-row dimension
  assert.deepEqual(t.dstAt(8), { coord: 'p[2][0]', space: 'MEM', note: 'out of bound' });
  // source ordinal 7: level 0 (dim 1) index 1 + ⌊7/4⌋ = 2, level 1 (dim 0) index (7 % 4)·2 = 6; printed dim 0 first
  // element 2·1 + 6·10 = 62 → 0x2000 + 124
  assert.deepEqual(t.srcAt(7), { coord: 'q[6][2]', space: 'MEM', address: 0x2000 + 124 });
  assert.deepEqual(t.srcAt(12), { coord: 'element 12 of 12', space: 'MEM', note: 'exhausted' });
  const r = new SteppedTransfer({ m, process: 0 }, side(dst, 'INT16'), side(src, 'INT16'), 0, true);
  // REPEAT: ordinal 12 reads source element 0 = q[0][1]
  assert.deepEqual(r.srcAt(12), { coord: 'q[0][1]', space: 'MEM', address: 0x2000 + 2 });
  assert.deepEqual(r.srcAt(11), t.srcAt(11));
});

test('coordinates of non-dimension levels are label/index pairs; PCORE addresses are word addresses', () => {
  const m = machine();
  const pc: Descriptor = {
    ...desc(0, 1, [
      { count: 2, stride: 4096, kind: 'pcore', label: 'PCORE', begin: 1, size: 8 },
      { count: 3, stride: 256, kind: 'thread', label: 'THREAD', size: 16 },
    ]),
    space: 'PCORE',
    written: 'PCORE',
    base: 0x10,
  };
  const mem = desc(0x1000, 2, [{ count: 6, stride: 1 }]);
  const t = new SteppedTransfer({ m, process: 1 }, { desc: pc, space: 'PCORE', dtype: 'INT16', shared: true }, side(mem, 'INT16'), 0, false);
  // ordinal 4: PCORE 1 + 1, THREAD 1 → word 0x10 + 2·4096 + 256
  assert.deepEqual(t.dstAt(4), { coord: 'PCORE 2, THREAD 1', space: 'PCORE1S', address: 0x10 + 2 * 4096 + 256 });
  assert.deepEqual(t.srcAt(4), { coord: 'p[4]', space: 'MEM', address: 0x1008 });
  // labels of two different names: pairs
  const mixed = desc(0x1000, 1, [
    { count: 2, stride: 4, label: 'a[0]' },
    { count: 4, stride: 1, label: 'b[1]', dim: 1 },
  ]);
  const u = new SteppedTransfer({ m, process: 0 }, side(mixed), side(desc(0x2000, 1, [{ count: 8, stride: 1 }], 'q')), 0, false);
  assert.deepEqual(u.dstAt(6), { coord: 'a[0] 1, b[1] 2', space: 'MEM', address: 0x1006 });
  // the same dimension twice: pairs
  const twice = desc(0x1000, 1, [
    { count: 2, stride: 4, dim: 0 },
    { count: 4, stride: 1, dim: 0 },
  ]);
  const v = new SteppedTransfer({ m, process: 0 }, side(twice), side(desc(0x2000, 1, [{ count: 8, stride: 1 }], 'q')), 0, false);
  assert.deepEqual(v.dstAt(5), { coord: 'p[0] 1, p[0] 1', space: 'MEM', address: 0x1005 });
});

test('a constant source: srcAt names the constant', () => {
  const m = machine();
  const c: Side = { desc: { ...desc(0, 1, [{ count: 1, stride: 0 }]), space: 'CONST', constValue: 9 }, space: 'CONST', dtype: 'UINT8', constValue: 9 };
  const t = new SteppedTransfer({ m, process: 0 }, side(desc(0x1000, 1, [{ count: 10, stride: 1 }])), c, 0, false);
  assert.deepEqual(t.srcAt(3), { coord: '9', space: 'CONST', note: 'constant' });
  while (!t.finished) t.run(t.nextBatch());
  for (let i = 0; i < 10; i++) assert.equal(m.mem[0x1000 + i], 9);
  assert.deepEqual([t.stats.elements, t.stats.padded], [10, 0]);
});

test('coordinates: names of several letters, dimension numbers of two digits, labels that are not `name[k]`', () => {
  const m = machine();
  const src = side(desc(0x2000, 1, [{ count: 8, stride: 1 }], 'q'));
  const at = (d: Descriptor, ord: number) => new SteppedTransfer({ m, process: 0 }, side(d), src, 0, false).dstAt(ord).coord;
  assert.equal(
    at(
      desc(
        0x1000,
        1,
        [
          { count: 2, stride: 4 },
          { count: 4, stride: 1 },
        ],
        'buf',
      ),
      6,
    ),
    'buf[1][2]',
  );
  // dimension 10 of a name: still `name[index]`
  assert.equal(at(desc(0x1000, 1, [{ count: 8, stride: 1, label: 'w[10]', dim: 10 }]), 3), 'w[3]');
  // a label with text after the index: label/index pairs
  assert.equal(at(desc(0x1000, 1, [{ count: 8, stride: 1, label: 'p[0]x' }]), 3), 'p[0]x 3');
});
