/**
 * Where the simulator's bounds checks and the hardware's part ways (core/sim/engine/unchecked.ts): which clipped
 * levels are reported (a destination dimension below 0, thread and member indices, the second of two PCORE indices)
 * and which are not (a source dimension, an upper bound of a dimension, an unchecked `+` bound, the first PCORE
 * index), with the index range worked out by hand from begin, step and count.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { uncheckedClip } from '../../core/sim/engine/unchecked';
import type { Descriptor, Level } from '../../core/tprog/descriptor';

type Lv = Partial<Level> & Pick<Level, 'kind'>;

function desc(levels: Lv[], extra: Partial<Descriptor> = {}): Descriptor {
  return {
    space: 'MEM',
    written: 'MEM',
    elemBytes: 2,
    base: 0,
    levels: levels.map((l, k) => ({
      label: `p[${k}]`,
      dim: k,
      begin: 0,
      step: 1,
      count: 1,
      stride: 1,
      size: 8,
      checkHigh: true,
      ...l,
    })),
    total: undefined,
    pad: undefined,
    repeat: false,
    problems: [],
    ...extra,
  };
}

const DST_DIM = "but ztachip's hardware does not check the lower bound of a destination: it writes before the tensor";
const THREAD = "but ztachip's hardware does not check thread indices: the access reaches the neighbouring thread or PCORE";

test('a destination dimension below 0 is reported with its index range', () => {
  assert.equal(
    uncheckedClip(desc([{ kind: 'dim', begin: -2, count: 4 }]), 'dst'),
    `dimension 0 of the MEM destination: index -2..1 is outside 0..7; the simulator skips those writes, ${DST_DIM}`,
  );
  // one element: no range; an unknown size: "below 0"
  assert.equal(
    uncheckedClip(desc([{ kind: 'dim', begin: -1, count: 1, size: undefined }], { written: 'SCRATCH' }), 'dst'),
    `dimension 0 of the SCRATCH destination: index -1 is below 0; the simulator skips those writes, ${DST_DIM}`,
  );
  // a negative step reaching below 0: 2, 1, 0, −1
  assert.equal(
    uncheckedClip(desc([{ kind: 'dim', begin: 2, step: -1, count: 4 }]), 'dst'),
    `dimension 0 of the MEM destination: index 2..-1 is outside 0..7; the simulator skips those writes, ${DST_DIM}`,
  );
});

test('not reported: a source dimension, a dimension above its size, indices inside, empty or unknown levels', () => {
  assert.equal(uncheckedClip(desc([{ kind: 'dim', begin: -2, count: 4 }]), 'src'), undefined);
  assert.equal(uncheckedClip(desc([{ kind: 'dim', begin: 6, count: 4 }]), 'dst'), undefined);
  // 0..7 of 8: inside
  assert.equal(uncheckedClip(desc([{ kind: 'thread', label: 'THREAD', begin: 0, count: 8 }]), 'dst'), undefined);
  // count 0 (nothing moves) and undefined parts are skipped
  assert.equal(uncheckedClip(desc([{ kind: 'dim', begin: 0, count: 0 }]), 'dst'), undefined);
  assert.equal(uncheckedClip(desc([{ kind: 'dim', begin: -3, count: 0 }]), 'dst'), undefined);
  assert.equal(uncheckedClip(desc([{ kind: 'dim', begin: undefined, count: 4 }]), 'dst'), undefined);
  assert.equal(uncheckedClip(desc([{ kind: 'dim', begin: -1, step: undefined, count: 4 }]), 'dst'), undefined);
  assert.equal(uncheckedClip(desc([{ kind: 'dim', begin: -1, count: undefined }]), 'dst'), undefined);
  // an upper bound that is not checked (`+` dims), on a thread level
  assert.equal(uncheckedClip(desc([{ kind: 'thread', label: 'THREAD', begin: 6, count: 4, checkHigh: false }]), 'src'), undefined);
  // unknown size: only below 0 counts
  assert.equal(uncheckedClip(desc([{ kind: 'thread', label: 'THREAD', begin: 100, count: 4, size: undefined }]), 'src'), undefined);
  // other kinds are never reported
  assert.equal(uncheckedClip(desc([{ kind: 'flat', label: 'c', begin: -1, count: 2 }]), 'dst'), undefined);
});

test('thread and member indices outside their size are reported on either side, above or below', () => {
  // begin 0, step 2, count 5: 0..8, past 7
  assert.equal(
    uncheckedClip(desc([{ kind: 'thread', label: 'THREAD', begin: 0, step: 2, count: 5 }]), 'src'),
    `THREAD of the source: index 0..8 is outside 0..7; the simulator reads PAD there, ${THREAD}`,
  );
  // 9, 7, 5 with step −2: the first is past 7
  assert.equal(
    uncheckedClip(desc([{ kind: 'thread', label: 'THREAD', begin: 9, step: -2, count: 3 }]), 'dst'),
    `THREAD of the destination: index 9..5 is outside 0..7; the simulator skips those writes, ${THREAD}`,
  );
  assert.equal(
    uncheckedClip(desc([{ kind: 'member', label: 'var', begin: -1, count: 2, size: 4 }]), 'src'),
    'var of the source: index -1..0 is outside 0..3; the simulator reads PAD there, ' +
      "but ztachip's hardware does not check member indices: the access reaches the neighbouring words",
  );
});

test('the first reported level wins; levels before it that are fine or not reported are passed over', () => {
  const d = desc([
    { kind: 'dim', begin: 0, count: 8 },
    { kind: 'dim', begin: 5, count: 4 },
    { kind: 'thread', label: 'THREAD', begin: 7, count: 2 },
    { kind: 'member', label: 'var', begin: -1, count: 1 },
  ]);
  assert.equal(uncheckedClip(d, 'dst'), `THREAD of the destination: index 7..8 is outside 0..7; the simulator skips those writes, ${THREAD}`);
});

test('PCORE indices: only the second of two, outside its size', () => {
  const second = "but ztachip's hardware does not check the second PCORE index: the access reaches the neighbouring PCORE";
  const two = { space: 'PCORE' as const, written: 'PCORE', pcoreShape: [2, 4] };
  assert.equal(
    uncheckedClip(desc([{ kind: 'pcore', label: 'PCORE', dim: 1, begin: 3, count: 2, size: 4 }], two), 'dst'),
    `PCORE of the destination: index 3..4 is outside 0..3; the simulator skips those writes, ${second}`,
  );
  assert.equal(
    uncheckedClip(desc([{ kind: 'pcore', label: 'PCORE', dim: 1, begin: -1, count: 1, size: 4 }], two), 'src'),
    `PCORE of the source: index -1 is outside 0..3; the simulator reads PAD there, ${second}`,
  );
  // the first PCORE index is checked by the hardware
  assert.equal(uncheckedClip(desc([{ kind: 'pcore', label: 'PCORE', dim: 0, begin: 1, count: 2, size: 2 }], two), 'dst'), undefined);
  // one PCORE index (or no shape): checked
  assert.equal(uncheckedClip(desc([{ kind: 'pcore', label: 'PCORE', dim: 1, begin: 3, count: 2, size: 4 }], { pcoreShape: [8] }), 'dst'), undefined);
  assert.equal(uncheckedClip(desc([{ kind: 'pcore', label: 'PCORE', dim: 1, begin: 3, count: 2, size: 4 }]), 'dst'), undefined);
  assert.equal(uncheckedClip(desc([{ kind: 'pcore', label: 'PCORE', dim: 1, begin: 3, count: 2, size: 4 }], { pcoreShape: [2, 2, 2] }), 'dst'), undefined);
});
