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
    prog('> DTYPE(INT16)PCORE(8)[0].THREAD[1].t::a[-1][0:1] <= DTYPE(INT16)MEM(q)[0:1];\n> DTYPE(INT16)MEM(r)[0:1] <= DTYPE(INT16)PCORE(8)[0].THREAD[1].t::a[-1][0:1];'),
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
