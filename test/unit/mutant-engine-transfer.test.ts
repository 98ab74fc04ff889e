/**
 * runTransfer (core/sim/engine/transfer.ts) case by case, with every expected byte, word, statistic and fault message
 * worked out by hand from research §6.2–§6.4: the contiguous block copy (move semantics when the blocks overlap), the
 * run-based path (gathers, strided runs, fills, overlapping runs in one space), the element-by-element path (word
 * spaces, mixed element sizes, debugger ranges, more than one chunk of 65536 elements), and which page each path
 * saves in the history first. Found by mutation testing: a PCORE element at a negative word address (a negative
 * single member index on the first variable) was read as PAD or skipped in silence instead of faulting.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import { readI16, runStatic } from '../helpers/sim';
import { SimError } from '../../core/sim/types';
import { Machine } from '../../core/sim/machine';
import { SpaceHistory } from '../../core/sim/history';
import { runTransfer, type EngineContext, type SideSpace, type TransferStats } from '../../core/sim/engine/transfer';
import type { Touched } from '../../core/protocol/trace';
import { mkSide, type Lv, type SideSpec } from './helpers/mutant-transfer';

const prog = (body: string) => `void f(void) {\n${body}\n}\n`;

test('a PCORE word address below 0 faults; one inside the page (the previous thread’s words) is read and written', () => {
  // t::a is the first private variable: word offset 0, shape [4, 8] (4 vectors of 8 lanes); [-1] adds −1·8 to the base
  const P = 'vint16 t::a[4];\n_kernel_ void t::k(int16 var[4]) { }\n';
  const read = analyze(prog('> DTYPE(INT16)MEM(q)[0:1] <= PAD(5) DTYPE(INT16)PCORE(8)[0].THREAD[0].t::a[-1][0:1];'), P, 'ztachip');
  // thread 0 of PCORE 0: words −8 and −7 are before the page
  assert.throws(
    () => runStatic(read, { q: 0x2000 }),
    (e: unknown) => e instanceof SimError && e.side === 'src' && /^source word address -8 is outside PCORE0 \(32768 words\)/.test(e.message),
  );
  const write = analyze(prog('> DTYPE(INT16)PCORE(8)[0].THREAD[0].t::a[-1][0:1] <= DTYPE(INT16)MEM(q)[0:1];'), P, 'ztachip');
  assert.throws(
    () => runStatic(write, { q: 0x2000 }),
    (e: unknown) => e instanceof SimError && e.side === 'dst' && /^destination word address -8 is outside PCORE0 \(size 32768 words\)/.test(e.message),
  );
  // thread 1: 256 − 8 = 248, 249 are the last vector of thread 0 (the hardware does not check member indices)
  const both = analyze(
    prog(
      '> DTYPE(INT16)PCORE(8)[0].THREAD[1].t::a[-1][0:1] <= DTYPE(INT16)MEM(q)[0:1];\n' +
        '> DTYPE(INT16)MEM(r)[0:1] <= DTYPE(INT16)PCORE(8)[0].THREAD[1].t::a[-1][0:1];',
    ),
    P,
    'ztachip',
  );
  const { m, steps } = runStatic(both, { q: 0x2000, r: 0x3000 }, { prepare: (mm) => mm.mem.set([0x34, 0x01, 0xff, 0xff], 0x2000) });
  // 0x0134 = 308 and 0xffff = −1 (inside −2048..2047: kept as they are)
  assert.deepEqual([...m.pages[0].priv.subarray(248, 250)], [308, -1]);
  assert.deepEqual(readI16(m.mem, 0x3000, 2), [308, -1]);
  assert.deepEqual(
    steps.map((s) => [s.padded, s.skipped, s.written, s.read]),
    [
      [0, 0, { space: 'PCORE0', lo: 248, hi: 249, count: 2 }, { space: 'MEM', lo: 0x2000, hi: 0x2003, count: 4 }],
      [0, 0, { space: 'MEM', lo: 0x3000, hi: 0x3003, count: 4 }, { space: 'PCORE0', lo: 248, hi: 249, count: 2 }],
    ],
  );
});

const MEM = 1 << 16;
const ctx0 = (m: Machine, history?: EngineContext['history']): EngineContext => ({ m, process: 0, history });
const u8 = (space: SideSpace, base: number, levels: Lv[], extra: Partial<SideSpec> = {}) => mkSide({ space, dtype: 'UINT8', base, levels, ...extra });
const i16 = (space: SideSpace, base: number, levels: Lv[], extra: Partial<SideSpec> = {}) => mkSide({ space, dtype: 'INT16', base, levels, ...extra });
const row = (count: number, stride = 1): Lv => ({ begin: 0, count, stride, size: count });
/** The statistics of a transfer that padded and skipped nothing. */
const clean = (elements: number, read: Touched, written: Touched): TransferStats => ({ elements, padded: 0, skipped: 0, read, written });
const faultOf = (f: () => unknown): [string | undefined, string] => {
  try {
    f();
  } catch (e) {
    if (e instanceof SimError) return [e.side, e.message];
    throw e;
  }
  return [undefined, 'no fault'];
};

test('contiguous block copy: bytes, statistics, the saved page; the last byte of a space runs, one more faults before moving', () => {
  const m = new Machine({ memBytes: MEM });
  for (let i = 0; i < 16; i++) m.mem[0x2000 + i] = i + 1;
  const h = new SpaceHistory('SCRATCH', m.scratch);
  // 2 rows × 4 INT16 elements, row-major: one block of 16 bytes at SCRATCH 0x1ff8 (it crosses the page at 0x2000)
  const st = runTransfer(
    ctx0(m, (n) => (n === 'SCRATCH' ? h : undefined)),
    i16('SCRATCH', 0x1ff8, [row(2, 4), row(4)]),
    i16('MEM', 0x2000, [row(8)]),
    0,
    false,
  );
  assert.deepEqual(
    [...m.scratch.subarray(0x1ff8, 0x2008)],
    [...Array(16).keys()].map((i) => i + 1),
  );
  assert.deepEqual(st, clean(8, { space: 'MEM', lo: 0x2000, hi: 0x200f, count: 16 }, { space: 'SCRATCH', lo: 0x1ff8, hi: 0x2007, count: 16 }));
  // pages 1 (0x1000..0x1fff) and 2 (0x2000..) changed, and the history gives them back as they were (zeros)
  assert.deepEqual(h.commit(0), [1, 2]);
  assert.deepEqual([...h.read(0x1ff8, 16, -1)], Array(16).fill(0));
  // without a history the copy is the same
  m.scratch.fill(0);
  runTransfer(ctx0(m), i16('SCRATCH', 0x1ff8, [row(2, 4), row(4)]), i16('MEM', 0x2000, [row(8)]), 0, false);
  assert.deepEqual(
    [...m.scratch.subarray(0x1ff8, 0x2008)],
    [...Array(16).keys()].map((i) => i + 1),
  );
  // from and to byte 0 of a space: SCRATCH 0..15 (through MEM 0x2000 → SCRATCH 0 → MEM 0x5000)
  runTransfer(ctx0(m), u8('SCRATCH', 0, [row(16)]), u8('MEM', 0x2000, [row(16)]), 0, false);
  runTransfer(ctx0(m), u8('MEM', 0x5000, [row(16)]), u8('SCRATCH', 0, [row(16)]), 0, false);
  assert.deepEqual(
    [...m.mem.subarray(0x5000, 0x5010)],
    [...Array(16).keys()].map((i) => i + 1),
  );
  // 8 INT16 = 16 bytes ending at the last byte of MEM (0xfff0..0xffff) runs; two bytes later faults
  runTransfer(ctx0(m), i16('MEM', MEM - 16, [row(8)]), i16('MEM', 0x2000, [row(8)]), 0, false);
  assert.deepEqual(
    [...m.mem.subarray(MEM - 16)],
    [...Array(16).keys()].map((i) => i + 1),
  );
  // and read back from there (a source ending at the last byte of MEM)
  runTransfer(ctx0(m), i16('MEM', 0x3000, [row(8)]), i16('MEM', MEM - 16, [row(8)]), 0, false);
  assert.deepEqual(
    [...m.mem.subarray(0x3000, 0x3010)],
    [...Array(16).keys()].map((i) => i + 1),
  );
  m.mem.fill(0, MEM - 16);
  m.mem.fill(0, 0x3000, 0x3010);
  const copy = (d: number, s: number) => faultOf(() => runTransfer(ctx0(m), i16('MEM', d, [row(8)]), i16('MEM', s, [row(8)]), 0, false));
  // 0xfff2 + 16 − 1 = 0x10001
  assert.deepEqual(copy(MEM - 14, 0x2000), ['dst', 'destination bytes 0xfff2..0x10001 are outside MEM (size 65536 bytes)']);
  assert.deepEqual(copy(0x3000, MEM - 14), ['src', 'source bytes 0xfff2..0x10001 are outside MEM (size 65536 bytes)']);
  // below 0: −2 is 0xfffffffe in the 32-bit view, −2 + 15 = 0xd
  assert.deepEqual(copy(-2, 0x2000), ['dst', 'destination bytes 0xfffffffe..0xd are outside MEM (size 65536 bytes)']);
  assert.deepEqual(copy(0x3000, -2), ['src', 'source bytes 0xfffffffe..0xd are outside MEM (size 65536 bytes)']);
  // nothing moved
  assert.ok(m.mem.subarray(MEM - 16).every((v) => v === 0) && m.mem.subarray(0x3000, 0x3010).every((v) => v === 0));
});

test('overlapping blocks in one space: a contiguous copy moves like memmove, a debugger range keeps that with its snapshot', () => {
  const m = new Machine({ memBytes: MEM });
  const old = [...Array(40).keys()].map((i) => 100 + i);
  const fresh = () => {
    m.mem.fill(0, 0x3000, 0x3100);
    m.mem.set(old, 0x3000);
  };
  const dst = () => u8('MEM', 0x3001, [row(40)]);
  const src = () => u8('MEM', 0x3000, [row(40)]);
  // one byte forward: the block arrives whole, 0x3001..0x3028 = 100..139
  fresh();
  runTransfer(ctx0(m), dst(), src(), 0, false);
  assert.deepEqual([...m.mem.subarray(0x3000, 0x3029)], [100, ...old]);
  // the same in two ranges reading a copy of the source bytes taken before the first (srcOffset: where the copy starts)
  fresh();
  const snap = m.mem.slice(0x3000, 0x3028);
  runTransfer(ctx0(m), dst(), src(), 0, false, { from: 0, to: 17, srcBytes: snap, srcOffset: 0x3000 });
  runTransfer(ctx0(m), dst(), src(), 0, false, { from: 17, to: 40, srcBytes: snap, srcOffset: 0x3000 });
  assert.deepEqual([...m.mem.subarray(0x3000, 0x3029)], [100, ...old]);
  // without the copy, element by element: each element reads the one just written, 100 all along
  fresh();
  runTransfer(ctx0(m), dst(), src(), 0, false, { from: 0, to: 40 });
  assert.deepEqual([...m.mem.subarray(0x3000, 0x3029)], Array(41).fill(100));
});

test('run-based path: a gather of long rows, overlapping rows in one space (in ordinal order), and the element path agreeing', () => {
  const m = new Machine({ memBytes: MEM });
  const fresh = () => {
    m.mem.fill(0);
    m.scratch.fill(0);
    for (let i = 0; i < 96; i++) m.mem[0x4000 + i] = i + 1;
  };
  const rows = (base: number) => u8('MEM', base, [row(2, 48), row(40)]);
  // MEM rows of 40 bytes 48 apart → 80 contiguous SCRATCH bytes: row r, column c is MEM 0x4000 + 48r + c, value 48r + c + 1
  for (const range of [undefined, { from: 0, to: 80 }]) {
    fresh();
    const st = runTransfer(ctx0(m), u8('SCRATCH', 0x100, [row(80)]), rows(0x4000), 0, false, range);
    const want = [...Array(80).keys()].map((i) => 48 * Math.floor(i / 40) + (i % 40) + 1);
    assert.deepEqual([...m.scratch.subarray(0x100, 0x150)], want);
    assert.deepEqual(st, clean(80, { space: 'MEM', lo: 0x4000, hi: 0x4057, count: 80 }, { space: 'SCRATCH', lo: 0x100, hi: 0x14f, count: 80 }));
  }
  // 40 bytes spread 2 apart, and gathered back from 2 apart (runs of 40 with a stride: the element loop)
  fresh();
  const spread = u8('SCRATCH', 0x200, [{ begin: 0, count: 40, stride: 2, size: 40 }]);
  runTransfer(ctx0(m), spread, u8('MEM', 0x4000, [row(40)]), 0, false);
  assert.deepEqual(
    [...m.scratch.subarray(0x200, 0x250)],
    [...Array(40).keys()].flatMap((i) => [i + 1, 0]),
  );
  runTransfer(ctx0(m), u8('MEM', 0x4100, [row(40)]), spread, 0, false);
  assert.deepEqual(
    [...m.mem.subarray(0x4100, 0x4128)],
    [...Array(40).keys()].map((i) => i + 1),
  );
  // rows one byte forward onto themselves: each element reads the one just written — row 0 is all byte 0x4000 (1),
  // row 1 all byte 0x4030 (49); the bytes between the rows (0x4029..0x402f = 42..48) stay
  const forward = [1, ...Array(40).fill(1), 42, 43, 44, 45, 46, 47, 48, 49, ...Array(40).fill(49), 90];
  // one byte backward: each row moves whole (row 0 = 2..41, row 1 = 50..89), like memmove
  const backward = [...Array(40).keys()]
    .map((i) => i + 2)
    .concat(
      [41, 42, 43, 44, 45, 46, 47, 48],
      [...Array(40).keys()].map((i) => i + 50),
      [89, 90],
    );
  for (const range of [undefined, { from: 0, to: 80 }]) {
    fresh();
    runTransfer(ctx0(m), rows(0x4001), rows(0x4000), 0, false, range);
    assert.deepEqual([...m.mem.subarray(0x4000, 0x405a)], forward);
    fresh();
    runTransfer(ctx0(m), rows(0x4000), rows(0x4001), 0, false, range);
    assert.deepEqual([...m.mem.subarray(0x4000, 0x405a)], backward);
  }
});

test('run-based path: constants and PAD fill rows of 16 or more and shorter ones, as INT16 halfwords', () => {
  const m = new Machine({ memBytes: MEM });
  const halfwords = (base: number, n: number) => [...Array(n).keys()].map((i) => m.mem[base + 2 * i] | (m.mem[base + 2 * i + 1] << 8));
  // INT16(−2) into 2 rows of 20 elements 24 apart at 0x6000: 0xfffe in each, the 4 elements between rows untouched
  const c = runTransfer(ctx0(m), i16('MEM', 0x6000, [row(2, 24), row(20)]), mkSide({ space: 'CONST', dtype: 'INT16', constValue: -2 }), 0, false);
  assert.deepEqual(halfwords(0x6000, 48), [...Array(20).fill(0xfffe), 0, 0, 0, 0, ...Array(20).fill(0xfffe), 0, 0, 0, 0]);
  assert.deepEqual(c, { elements: 40, padded: 0, skipped: 0, written: { space: 'MEM', lo: 0x6000, hi: 0x6000 + 2 * 43 + 1, count: 80 } });
  // INT16(0x12345) keeps its low 16 bits (0x2345) in rows of 3, 5 apart
  runTransfer(ctx0(m), i16('MEM', 0x7000, [row(2, 5), row(3)]), mkSide({ space: 'CONST', dtype: 'INT16', constValue: 0x12345 }), 0, false);
  assert.deepEqual(halfwords(0x7000, 8), [0x2345, 0x2345, 0x2345, 0, 0, 0x2345, 0x2345, 0x2345]);
  // INT8(5) into every other byte of 20 (one run of 20, 2 apart): the bytes between keep their 0
  runTransfer(ctx0(m), u8('MEM', 0xa000, [{ begin: 0, count: 20, stride: 2, size: 20 }]), mkSide({ space: 'CONST', dtype: 'INT8', constValue: 5 }), 0, false);
  assert.deepEqual([...m.mem.subarray(0xa000, 0xa028)], Array(20).fill([5, 0]).flat());
  // 5 source elements, then PAD(7): row 0 = 1..5 and 15 PADs (a short fill), row 1 = 20 PADs (a long one)
  for (let i = 0; i < 5; i++) m.mem[0x8000 + 2 * i] = i + 1;
  const p = runTransfer(ctx0(m), i16('MEM', 0x9000, [row(2, 24), row(20)]), i16('MEM', 0x8000, [row(5)]), 7, false);
  assert.deepEqual(halfwords(0x9000, 44), [1, 2, 3, 4, 5, ...Array(15).fill(7), 0, 0, 0, 0, ...Array(20).fill(7)]);
  assert.deepEqual(p, {
    elements: 40,
    padded: 35,
    skipped: 0,
    read: { space: 'MEM', lo: 0x8000, hi: 0x8009, count: 10 },
    written: { space: 'MEM', lo: 0x9000, hi: 0x9000 + 2 * 43 + 1, count: 80 },
  });
});

test('run-based path faults name the element farthest outside, in bytes, with or without a buffer limit; a known span faults before moving', () => {
  const m = new Machine({ memBytes: MEM });
  const go = (dst: ReturnType<typeof mkSide>, src: ReturnType<typeof mkSide>) => faultOf(() => runTransfer(ctx0(m), dst, src, 0, false));
  // INT16 indices 1, 3, 5, … (begin 1, stride 2 elements): element k at byte base + 4 + 4k
  const gather = (base: number, count: number, extra: Partial<SideSpec> = {}) => i16('MEM', base, [{ begin: 1, count, stride: 2, size: 8 }], extra);
  // from 0xfff4: bytes 0xfff8, 0xfffc fit; a third at 0x10000 is past the end
  assert.deepEqual(go(gather(MEM - 12, 2), gather(0x100, 2)), [undefined, 'no fault']);
  const past = 'byte address 0x10000 is outside MEM (size 65536 bytes)';
  assert.deepEqual(go(gather(MEM - 12, 3), gather(0x100, 3)), ['dst', `destination ${past}`]);
  assert.deepEqual(go(gather(0x100, 3), gather(MEM - 12, 3)), ['src', `source ${past}`]);
  // from −8: the first element is at −4 = 0xfffffffc
  const before = 'byte address 0xfffffffc is outside MEM (size 65536 bytes)';
  assert.deepEqual(go(gather(-8, 3), gather(0x100, 3)), ['dst', `destination ${before}`]);
  assert.deepEqual(go(gather(0x100, 3), gather(-8, 3)), ['src', `source ${before}`]);
  // a buffer limit of 100 bytes (50 elements) clips nothing here, and the runs are checked one by one
  const lim = { bufLimit: 100 };
  assert.deepEqual(go(gather(MEM - 12, 3, lim), gather(0x100, 3)), ['dst', `destination ${past}`]);
  assert.deepEqual(go(gather(-8, 3, lim), gather(0x100, 3)), ['dst', `destination ${before}`]);
  assert.deepEqual(go(gather(0x100, 3), gather(MEM - 12, 3, lim)), ['src', `source ${past}`]);
  assert.deepEqual(go(gather(0x100, 3), gather(-8, 3, lim)), ['src', `source ${before}`]);
  // UINT8 every other byte from 0xfffb: 0xfffb, 0xfffd, 0xffff fit, 0x10001 does not
  const g8 = (base: number, count: number) => u8('MEM', base, [{ begin: 0, count, stride: 2, size: 8 }]);
  assert.deepEqual(go(g8(MEM - 5, 3), g8(0x100, 3)), [undefined, 'no fault']);
  assert.deepEqual(go(g8(MEM - 5, 4), g8(0x100, 4)), ['dst', 'destination byte address 0x10001 is outside MEM (size 65536 bytes)']);
  // two rows of 2 INT16 (rows 3 elements apart) from 0xfff8: row 0 (0xfff8, 0xfffa) fits, row 1 (0xfffe, 0x10000) does
  // not — the fault names its last element (the farthest out, as every range check here does) and nothing is written
  m.mem.fill(0);
  for (let i = 0; i < 8; i++) m.mem[0x100 + i] = 0x11 * (i + 1);
  const rows = i16('MEM', MEM - 8, [
    { begin: 0, count: 2, stride: 3, size: 2 },
    { begin: 0, count: 2, stride: 1, size: 2 },
  ]);
  assert.deepEqual(go(rows, i16('MEM', 0x100, [row(4)])), ['dst', `destination ${past}`]);
  assert.ok(m.mem.subarray(MEM - 8).every((v) => v === 0));
});

test('run-based path from byte 0: indices from 1 are inside; from 0 past the end, the far end is named', () => {
  const m = new Machine({ memBytes: MEM });
  for (let i = 0; i < 16; i++) m.scratch[i] = 0x20 + i;
  // indices 1..4, 2 apart: bytes 2, 4, 6, 8 of each side, with and without a buffer limit (which clips nothing here)
  const odd = (space: SideSpace, extra: Partial<SideSpec> = {}) => u8(space, 0, [{ begin: 1, count: 4, stride: 2, size: 8 }], extra);
  for (const lim of [{}, { bufLimit: 100 }]) {
    m.mem.fill(0, 0, 16);
    runTransfer(ctx0(m), odd('MEM', lim), odd('SCRATCH', lim), 0, false);
    assert.deepEqual([...m.mem.subarray(0, 10)], [0, 0, 0x22, 0, 0x24, 0, 0x26, 0, 0x28, 0]);
  }
  // every other byte from 0 (indices 0..3): bytes 0, 2, 4, 6 of SCRATCH
  m.mem.fill(0, 0, 16);
  runTransfer(ctx0(m), u8('MEM', 0, [row(4)]), u8('SCRATCH', 0, [{ begin: 0, count: 4, stride: 2, size: 8 }]), 0, false);
  assert.deepEqual([...m.mem.subarray(0, 4)], [0x20, 0x22, 0x24, 0x26]);
  // indices 1..32768, 2 apart: bytes 2, 4, …, 0x10000 — the last is past the end (the far end is named, not the near one)
  const far = (extra: Partial<SideSpec> = {}) => u8('MEM', 0, [{ begin: 1, count: 32768, stride: 2, size: 40000 }], extra);
  const go = (dst: ReturnType<typeof mkSide>, src: ReturnType<typeof mkSide>) => faultOf(() => runTransfer(ctx0(m), dst, src, 0, false));
  const past = 'byte address 0x10000 is outside MEM (size 65536 bytes)';
  assert.deepEqual(go(u8('MEM', 0, [row(32768)]), far()), ['src', `source ${past}`]);
  assert.deepEqual(go(far({ bufLimit: 1 << 20 }), mkSide({ space: 'CONST', dtype: 'INT8', constValue: 1 })), ['dst', `destination ${past}`]);
  // and indices 0..32768 (bytes 0, 2, …, 0x10000): the near end is byte 0 itself
  const far0 = (extra: Partial<SideSpec> = {}) => u8('MEM', 0, [{ begin: 0, count: 32769, stride: 2, size: 40000 }], extra);
  assert.deepEqual(go(u8('MEM', 0, [row(32769)]), far0()), ['src', `source ${past}`]);
  assert.deepEqual(go(far0({ bufLimit: 1 << 20 }), mkSide({ space: 'CONST', dtype: 'INT8', constValue: 1 })), ['dst', `destination ${past}`]);
});

test('run-based path: rows that go down (a stride below 0) are checked as a whole before the first row moves', () => {
  const m = new Machine({ memBytes: MEM });
  for (let i = 0; i < 8; i++) m.mem[0x100 + i] = i + 1;
  // INT16 from byte −4 (element −2): an offset of 3 elements, rows 2 elements down, 2 columns — element −2 + 3 − 2r + c:
  // row 0 is elements 1, 2 (bytes 2, 4), row 1 elements −1, 0 (bytes −2, 0); −2 = 0xfffffffe is outside
  const down = i16('MEM', -4, [
    { begin: 1, count: 1, stride: 3, size: 2 },
    { begin: 0, count: 2, stride: -2, size: 2 },
    { begin: 0, count: 2, stride: 1, size: 2 },
  ]);
  const f = faultOf(() => runTransfer(ctx0(m), down, i16('MEM', 0x100, [row(4)]), 0, false));
  assert.deepEqual(f, ['dst', 'destination byte address 0xfffffffe is outside MEM (size 65536 bytes)']);
  // row 0 was not written either
  assert.deepEqual([...m.mem.subarray(0, 8)], [0, 0, 0, 0, 0, 0, 0, 0]);
});

test('more than one chunk of 65536 elements on the element path: a copy, a REPEAT source and an exhausted one', () => {
  const m = new Machine({ memBytes: 1 << 18 });
  const N = 70000;
  for (let i = 0; i < N; i++) m.mem[0x20000 + i] = (i * 7) & 255;
  const all = { from: 0, to: N };
  const st = runTransfer(ctx0(m), u8('MEM', 0, [row(N)]), u8('MEM', 0x20000, [row(N)]), 0, false, all);
  assert.ok(m.mem.subarray(0, N).every((v, i) => v === ((i * 7) & 255)));
  assert.deepEqual(st, clean(N, { space: 'MEM', lo: 0x20000, hi: 0x20000 + N - 1, count: N }, { space: 'MEM', lo: 0, hi: N - 1, count: N }));
  // REPEAT of 3 source bytes (0, 7, 14): ordinal i reads source i mod 3, across the chunk boundary at 65536
  const r = runTransfer(ctx0(m), u8('MEM', 0, [row(N)]), u8('MEM', 0x20000, [row(3)]), 0, true, all);
  assert.ok(m.mem.subarray(0, N).every((v, i) => v === [0, 7, 14][i % 3]));
  assert.deepEqual(r.read, { space: 'MEM', lo: 0x20000, hi: 0x20002, count: N });
  // 65540 source bytes then PAD(9): the last 4460 elements (all in the second chunk) are PAD
  const p = runTransfer(ctx0(m), u8('MEM', 0, [row(N)]), u8('MEM', 0x20000, [row(65540)]), 9, false, all);
  assert.ok(m.mem.subarray(0, 65540).every((v, i) => v === ((i * 7) & 255)));
  assert.ok(m.mem.subarray(65540, N).every((v) => v === 9));
  assert.deepEqual([p.padded, p.read], [N - 65540, { space: 'MEM', lo: 0x20000, hi: 0x20000 + 65539, count: 65540 }]);
});

test('element path faults name the element farthest outside: bytes in hexadecimal, words in decimal, either side', () => {
  const m = new Machine({ memBytes: MEM });
  const go = (dst: ReturnType<typeof mkSide>, src: ReturnType<typeof mkSide>) => faultOf(() => runTransfer(ctx0(m), dst, src, 0, false));
  const w = (base: number, count: number) => mkSide({ space: 'PCORE', dtype: 'UINT8', base, levels: [row(count)] });
  const bytes = 'is outside MEM (size 65536 bytes)';
  // a MEM destination of 3 bytes from PCORE words: from −2 the first is 0xfffffffe; from 0xfffe the last is 0x10000
  assert.deepEqual(go(u8('MEM', -2, [row(3)]), w(0, 3)), ['dst', `destination byte address 0xfffffffe ${bytes}`]);
  assert.deepEqual(go(u8('MEM', MEM - 2, [row(3)]), w(0, 3)), ['dst', `destination byte address 0x10000 ${bytes}`]);
  // INT16 elements at 0xfffc, 0xfffe, 0x10000: the third starts past the end
  assert.deepEqual(go(i16('MEM', MEM - 4, [row(3)]), w(0, 3)), ['dst', `destination byte address 0x10000 ${bytes}`]);
  // a MEM source read into PCORE words
  assert.deepEqual(go(w(0, 2), u8('MEM', -1, [row(2)])), ['src', `source byte address 0xffffffff ${bytes}`]);
  assert.deepEqual(go(w(0, 2), u8('MEM', MEM - 1, [row(2)])), ['src', `source byte address 0x10000 ${bytes}`]);
  assert.deepEqual(go(w(0, 2), i16('MEM', MEM - 2, [row(2)])), ['src', `source byte address 0x10000 ${bytes}`]);
  // PCORE words below 0 and past the page (8 · 4096 = 32768 words); a range past both ends names the first
  assert.deepEqual(go(w(-1, 2), u8('MEM', 0, [row(2)])), ['dst', 'destination word address -1 is outside PCORE0 (size 32768 words)']);
  assert.deepEqual(go(u8('MEM', 0, [row(2)]), w(-1, 2)), ['src', 'source word address -1 is outside PCORE0 (32768 words)']);
  assert.deepEqual(go(u8('MEM', 0, [row(2)]), w(32767, 2)), ['src', 'source word address 32768 is outside PCORE0 (32768 words)']);
  assert.deepEqual(go(u8('MEM', 0, [row(32770)]), w(-1, 32770)), ['src', 'source word address -1 is outside PCORE0 (32768 words)']);
  assert.deepEqual(go(w(-1, 32770), u8('MEM', 0, [row(32770)])), ['dst', 'destination word address -1 is outside PCORE0 (size 32768 words)']);
  // from 0 past the end: the far end is named (32768 words from word 0)
  assert.deepEqual(go(u8('MEM', 0, [row(32769)]), w(0, 32769)), ['src', 'source word address 32768 is outside PCORE0 (32768 words)']);
  assert.deepEqual(go(w(0, 32769), u8('MEM', 0, [row(32769)])), ['dst', 'destination word address 32768 is outside PCORE0 (size 32768 words)']);
  assert.deepEqual(go(u8('MEM', 0, [row(3)]), u8('MEM', MEM - 2, [{ begin: 0, count: 3, stride: 1, size: 3 }], { bufLimit: 3 })), [
    'src',
    `source byte address 0x10000 ${bytes}`,
  ]);
  // nothing was written
  assert.ok(m.mem.every((v) => v === 0) && m.pages[0].priv.every((v) => v === 0));
});

test('INT16 elements at an odd byte address (sides built by hand; the executor aligns them) are moved whole', () => {
  const m = new Machine({ memBytes: MEM });
  for (let i = 0; i < 16; i++) m.mem[0x5000 + i] = 0x10 + i;
  const g = (base: number) => i16('MEM', base, [{ begin: 0, count: 3, stride: 2, size: 6 }]);
  // elements 2 apart: bytes base + 4k and base + 4k + 1; from 0x5003: (0x13,0x14), (0x17,0x18), (0x1b,0x1c)
  runTransfer(ctx0(m), g(0x4000), g(0x5003), 0, false);
  assert.deepEqual([...m.mem.subarray(0x4000, 0x400c)], [0x13, 0x14, 0, 0, 0x17, 0x18, 0, 0, 0x1b, 0x1c, 0, 0]);
  // to 0x4101 from 0x5000: (0x10,0x11) at 0x4101, (0x14,0x15) at 0x4105, (0x18,0x19) at 0x4109
  runTransfer(ctx0(m), g(0x4101), g(0x5000), 0, false);
  assert.deepEqual([...m.mem.subarray(0x4100, 0x410c)], [0, 0x10, 0x11, 0, 0, 0x14, 0x15, 0, 0, 0x18, 0x19, 0]);
});
