/**
 * The debugger's batch-by-batch transfer (core/sim/engine/stepped.ts): the batch sizes over whole transfers of
 * several row lengths, worked out from the rule "whole destination rows until at least MIN_BATCH = 8 elements, at
 * most MAX_BATCH = 64, a longer row cut into pieces of 64", and where elements are: a walk of no level, a level of
 * another kind that carries a `name[k]` label, an SPU destination (word addresses, not bytes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Machine } from '../../core/sim/machine';
import { SteppedTransfer } from '../../core/sim/engine/stepped';
import type { Side } from '../../core/sim/engine/transfer';
import type { Level } from '../../core/tprog/descriptor';
import { mkSide, type Lv } from './helpers/mutant-transfer';

/** A byte side of MEM at `base` with the given levels (begin 0), each level labelled as given. */
function mem(base: number, levels: Partial<Lv>[], labels: string[] = [], kinds: Level['kind'][] = []): Side {
  const s = mkSide({ space: 'MEM', dtype: 'UINT8', base, levels: levels.map((l, k) => ({ begin: 0, count: 1, stride: 1, kind: kinds[k], ...l })) });
  return { ...s, desc: { ...s.desc, levels: s.desc.levels.map((l, k) => ({ ...l, label: labels[k] ?? l.label })) } };
}

function transfer(dst: Side, src: Side = mem(0x2000, [{ count: dst.desc.total! }])): SteppedTransfer {
  return new SteppedTransfer({ m: new Machine({ memBytes: 1 << 16 }), process: 0 }, dst, src, 0, false);
}

/** The sizes nextBatch proposes, each taken whole, until the end. */
function batches(t: SteppedTransfer): number[] {
  const out: number[] = [];
  while (!t.finished) {
    out.push(t.nextBatch());
    t.run(out[out.length - 1]);
  }
  return out;
}

test('batch sizes: whole rows to at least 8 elements, at most 64, long rows cut at 64', () => {
  const sizes = (counts: number[]) =>
    batches(
      transfer(
        mem(
          0x1000,
          counts.map((count, k) => ({ count, stride: counts.slice(k + 1).reduce((a, b) => a * b, 1) })),
        ),
      ),
    );
  // rows of 3: 3 rows (9) to reach 8, then the last row
  assert.deepEqual(sizes([4, 3]), [9, 3]);
  // rows of 5: 2 rows (10)
  assert.deepEqual(sizes([3, 5]), [10, 5]);
  // rows of exactly 8 and exactly 64: one row each
  assert.deepEqual(sizes([2, 8]), [8, 8]);
  assert.deepEqual(sizes([2, 64]), [64, 64]);
  // rows of 100: 64 and the row's 36 left, row by row
  assert.deepEqual(sizes([2, 100]), [64, 36, 64, 36]);
  // the inner level of count 1 does not count as the row: rows of 20
  assert.deepEqual(sizes([20, 1]), [20]);
  // one element
  assert.deepEqual(sizes([1]), [1]);
  // 2 rows of 3 = 6 < 8: everything in one batch
  assert.deepEqual(sizes([2, 3]), [6]);
});

test('where an element is: a walk of no level, a level of another kind, an SPU destination', () => {
  // no level: the one element at the base, with no coordinate
  assert.deepEqual(transfer(mem(0x1000, [])).dstAt(0), { coord: '', space: 'MEM', address: 0x1000 });
  // labels p[0], p[1] where the second level is not a dimension: label/index pairs
  const mixed = mem(
    0x1000,
    [
      { count: 2, stride: 4 },
      { count: 4, stride: 1 },
    ],
    ['p[0]', 'p[1]'],
    ['dim', 'flat'],
  );
  assert.deepEqual(transfer(mixed).dstAt(6), { coord: 'p[0] 1, p[1] 2', space: 'MEM', address: 0x1006 });
  // SPU words (INT16, 2 bytes in the descriptor): element 5 is word 5, not byte 10
  const spu = mkSide({ space: 'SPU', dtype: 'INT16', elemBytes: 2, levels: [{ begin: 0, count: 512, stride: 1, size: 512, kind: 'flat' }] });
  const s = transfer({ ...spu, desc: { ...spu.desc, base: undefined, levels: spu.desc.levels.map((l) => ({ ...l, label: 'SPU' })) } });
  assert.deepEqual(s.dstAt(5), { coord: 'SPU 5', space: 'SPU', address: 5 });
});

test('PCORE elements are shown at the word address the transfer moves them at, below 0 too (which faults)', () => {
  // a PCORE source at word offset 40, 4 elements of stride 2: element 3 is word 40 + 3·2 = 46 (words, whatever the
  // element size its descriptor carries)
  const src = mkSide({ space: 'PCORE', dtype: 'INT16', elemBytes: 2, base: 40, levels: [{ begin: 0, count: 4, stride: 2 }] });
  const t = transfer(mem(0x1000, [{ count: 4 }]), src);
  assert.deepEqual(t.srcAt(3), { coord: 'L0 3', space: 'PCORE0', address: 46 });
  // at word offset −8 (a negative member index on the first variable): element 1 is word −6, an address, not "out of
  // bound" — the transfer faults there (`source word address -8 is outside PCORE0`)
  const below = transfer(mem(0x1000, [{ count: 4 }]), mkSide({ space: 'PCORE', dtype: 'INT16', base: -8, levels: [{ begin: 0, count: 4, stride: 2 }] }));
  assert.deepEqual(below.srcAt(1), { coord: 'L0 1', space: 'PCORE0', address: -6 });
  assert.throws(() => below.run(4), /source word address -8 is outside PCORE0/);
});
