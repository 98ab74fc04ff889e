/**
 * The element-by-element transfer path's bounds checks (core/sim/engine/transfer.ts runTransfer): a transfer whose
 * last element lands on the last byte or word of its space runs, one element further faults on the side at fault
 * (SimError.side) before anything is written. Sides are built by hand on a 64 KiB MEM and the 8·4096-word PCORE pages;
 * the element path is reached through PCORE sides and through ranges (the debugger's batches). Found by mutation testing:
 * a PCORE destination one word past the page was dropped silently (the bound was one word too high).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Machine } from '../../core/sim/machine';
import { SimError } from '../../core/sim/types';
import { runTransfer, type Side, type SideSpace } from '../../core/sim/engine/transfer';
import type { Descriptor } from '../../core/tprog/descriptor';
import type { DataType } from '../../core/tprog/machineConstants';

const MEM = 1 << 16;
const WORDS = 8 * 4096;

function side(space: SideSpace, base: number, count: number, dtype: DataType, extra: Partial<Side> = {}): Side {
  const elemBytes = space === 'PCORE' ? 1 : dtype === 'INT16' ? 2 : 1;
  const desc: Descriptor = {
    space: space === 'PCORE' ? 'PCORE' : 'MEM',
    written: space,
    elemBytes,
    base,
    levels: [{ kind: 'dim', label: 'p[0]', dim: 0, begin: 0, step: 1, count, stride: 1, size: 1 << 20, checkHigh: true }],
    total: count,
    pad: undefined,
    repeat: false,
    problems: [],
  };
  return { desc, space, dtype, ...extra };
}

function faults(f: () => unknown, s: 'dst' | 'src', message: RegExp): void {
  assert.throws(f, (e: unknown) => e instanceof SimError && e.side === s && message.test(e.message));
}

test('MEM destination from PCORE words: up to the last byte runs, one element more faults before writing', () => {
  const m = new Machine({ memBytes: MEM });
  assert.equal(m.mem.length, MEM);
  m.pages[0].priv.set([-5, 2047], 0);
  const ctx = { m, process: 0 as const };
  const st = runTransfer(ctx, side('MEM', MEM - 4, 2, 'INT16'), side('PCORE', 0, 2, 'INT16'), 0, false);
  assert.equal(st.elements, 2);
  // −5 = 0xFFFB, 2047 = 0x07FF, little-endian
  assert.deepEqual([...m.mem.subarray(MEM - 4)], [0xfb, 0xff, 0xff, 0x07]);
  m.mem.fill(0);
  faults(
    () => runTransfer(ctx, side('MEM', MEM - 2, 2, 'INT16'), side('PCORE', 0, 2, 'INT16'), 0, false),
    'dst',
    /destination .* outside MEM \(size 65536 bytes\)/,
  );
  assert.ok(m.mem.every((v) => v === 0));
  // UINT8: the last byte itself
  runTransfer(ctx, side('MEM', MEM - 1, 1, 'UINT8'), side('PCORE', 1, 1, 'UINT8'), 0, false);
  assert.equal(m.mem[MEM - 1], 0xff);
  faults(() => runTransfer(ctx, side('MEM', MEM, 1, 'UINT8'), side('PCORE', 0, 1, 'UINT8'), 0, false), 'dst', /outside MEM/);
  faults(() => runTransfer(ctx, side('MEM', -1, 1, 'UINT8'), side('PCORE', 0, 1, 'UINT8'), 0, false), 'dst', /outside MEM/);
});

test('MEM source into PCORE words: the last byte is read, one past it faults on the source', () => {
  const m = new Machine({ memBytes: MEM });
  m.mem[MEM - 2] = 0x34;
  m.mem[MEM - 1] = 0x02;
  const ctx = { m, process: 0 as const };
  runTransfer(ctx, side('PCORE', 10, 1, 'INT16'), side('MEM', MEM - 2, 1, 'INT16'), 0, false);
  assert.equal(m.pages[0].priv[10], 0x234);
  faults(
    () => runTransfer(ctx, side('PCORE', 10, 1, 'INT16'), side('MEM', MEM - 1, 1, 'INT16'), 0, false),
    'src',
    /source .* outside MEM \(size 65536 bytes\)/,
  );
  faults(() => runTransfer(ctx, side('PCORE', 10, 1, 'UINT8'), side('MEM', MEM, 1, 'UINT8'), 0, false), 'src', /outside MEM/);
  faults(() => runTransfer(ctx, side('PCORE', 10, 1, 'UINT8'), side('MEM', -1, 1, 'UINT8'), 0, false), 'src', /outside MEM/);
});

test('PCORE words: the last word of the page runs, the next faults with its word address; multicast copies are checked too', () => {
  const m = new Machine({ memBytes: MEM });
  m.mem[0] = 7;
  m.pages[1].shared[WORDS - 1] = 99;
  const ctx = { m, process: 1 as const };
  runTransfer(ctx, side('PCORE', WORDS - 1, 1, 'UINT8', { shared: true }), side('MEM', 0, 1, 'UINT8'), 0, false);
  assert.equal(m.pages[1].shared[WORDS - 1], 7);
  assert.equal(m.pages[0].shared[WORDS - 1], 0);
  faults(
    () => runTransfer(ctx, side('PCORE', WORDS, 1, 'UINT8'), side('MEM', 0, 1, 'UINT8'), 0, false),
    'dst',
    new RegExp(`word address ${WORDS} is outside PCORE1 `),
  );
  // reading word WORDS−1 of process 1's shared page, then one past it
  runTransfer(ctx, side('MEM', 8, 1, 'UINT8'), side('PCORE', WORDS - 1, 1, 'UINT8', { shared: true }), 0, false);
  assert.equal(m.mem[8], 7);
  faults(
    () => runTransfer(ctx, side('MEM', 8, 1, 'UINT8'), side('PCORE', WORDS, 1, 'UINT8'), 0, false),
    'src',
    new RegExp(`word address ${WORDS} is outside PCORE1 \\(${WORDS} words\\)`),
  );
  // multicast to PCOREs 0 and 7: word 4095 + 7·4096 is the last; word 4096 + 7·4096 is past it
  const mc = (base: number) => side('PCORE', base, 1, 'UINT8', { mcast: [0, 7 * 4096] });
  runTransfer(ctx, mc(4095), side('MEM', 0, 1, 'UINT8'), 0, false);
  assert.equal(m.pages[1].priv[4095], 7);
  assert.equal(m.pages[1].priv[4095 + 7 * 4096], 7);
  faults(() => runTransfer(ctx, mc(4096), side('MEM', 0, 1, 'UINT8'), 0, false), 'dst', new RegExp(`word address ${4096 + 7 * 4096} `));
});

test('a range (the debugger batches) takes the element path between byte spaces with the same checks', () => {
  const m = new Machine({ memBytes: MEM });
  for (let i = 0; i < 8; i++) m.mem[0x100 + i] = i + 1;
  const ctx = { m, process: 0 as const };
  const st = runTransfer(ctx, side('MEM', MEM - 4, 4, 'UINT8'), side('MEM', 0x100, 4, 'UINT8'), 0, false, { from: 1, to: 4 });
  assert.equal(st.elements, 3);
  // ordinal 0 not moved
  assert.deepEqual([...m.mem.subarray(MEM - 4)], [0, 2, 3, 4]);
  assert.deepEqual(st.written, { space: 'MEM', lo: MEM - 3, hi: MEM - 1, count: 3 });
  assert.deepEqual(st.read, { space: 'MEM', lo: 0x101, hi: 0x103, count: 3 });
  faults(() => runTransfer(ctx, side('MEM', MEM - 3, 4, 'UINT8'), side('MEM', 0x100, 4, 'UINT8'), 0, false, { from: 2, to: 4 }), 'dst', /outside MEM/);
  faults(() => runTransfer(ctx, side('MEM', 0x200, 4, 'UINT8'), side('MEM', MEM - 3, 4, 'UINT8'), 0, false, { from: 2, to: 4 }), 'src', /outside MEM/);
  // INT16 pairs at the end
  const s2 = runTransfer(ctx, side('MEM', MEM - 4, 2, 'INT16'), side('MEM', 0x100, 2, 'INT16'), 0, false, { from: 0, to: 2 });
  assert.equal(s2.elements, 2);
  assert.deepEqual([...m.mem.subarray(MEM - 4)], [1, 2, 3, 4]);
  faults(() => runTransfer(ctx, side('MEM', MEM - 2, 2, 'INT16'), side('MEM', 0x100, 2, 'INT16'), 0, false, { from: 0, to: 2 }), 'dst', /outside MEM/);
});
