/**
 * REMAP through the stream processor's tables, on negative and positive 12-bit words, on both sides of
 * a transfer. Expectations come from the hardware's formula written out here independently (the table
 * index is the top 7 bits of the 12-bit two's complement word, the remainder its low 5 bits, and the
 * result value + (slope·r + 16) >> 5 wrapped to 12 bits).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import { readI16, runStatic, writeI16 } from '../helpers/sim';
import type { Machine } from '../../core/sim/machine';

const P = `
vint16 t::a[4];
_kernel_ void t::k() { }
`;
const prog = (body: string) => `void f(void) {\n${body}\n}\n`;
const SRC = 0x1000;
const LUT = 0x4000;
const OUT = 0x2000;

/** Stream 2's table: value(k) = 3k − 200 (k = 0..127), slope(k) = k − 64 (a different number per entry). */
function table(): number[] {
  const t = new Array(4 * 256).fill(0);
  for (let k = 0; k < 128; k++) {
    t[2 * 256 + 2 * k] = k - 64;
    t[2 * 256 + 2 * k + 1] = 3 * k - 200;
  }
  return t;
}

/** The hardware's lookup, computed from the table's definition (not from the table array). */
function expected(x: number): number {
  const u = x & 0xfff; // 12-bit two's complement
  const k = u >> 5;
  const r = u & 31;
  const y = 3 * k - 200 + Math.floor(((k - 64) * r + 16) / 32);
  return ((y & 0xfff) ^ 0x800) - 0x800;
}

const inputs = [-1, -2, -32, -33, -2048, -1000, 0, 1, 31, 32, 1000, 2047];

/**
 * Loads the tables, moves `inputs` from MEM into PCORE words with prefix `into` on the PCORE destination, and back to
 * MEM with prefix `back` on the PCORE source; returns what arrives in MEM.
 */
function roundTrip(into: string, back: string): number[] {
  const pc = 'DTYPE(INT16)PCORE(8)[0][0].t::a[0:1][:]';
  const body = ['> SPU <= DTYPE(INT16)MEM(lut,1024)[:];', `> ${into}${pc} <= DTYPE(INT16)MEM(p)[0:11];`, `> DTYPE(INT16)MEM(q)[0:11] <= ${back}${pc};`].join(
    '\n',
  );
  const prepare = (mm: Machine) => {
    writeI16(mm, LUT, table());
    writeI16(mm, SRC, inputs);
  };
  const { m } = runStatic(analyze(prog(body), P, 'ztachip'), { p: SRC, lut: LUT, q: OUT }, { prepare });
  return readI16(m.mem, OUT, 12);
}

test('REMAP on a PCORE destination maps negative words through the upper half of the table (-1 reads entry 127)', () => {
  assert.deepEqual(roundTrip('REMAP(2) ', ''), inputs.map(expected));
  // -1 → k = 127, r = 31: 3·127 − 200 + ((63·31 + 16) >> 5) = 181 + 61 = 242
  assert.equal(expected(-1), 242);
});

test('REMAP on a PCORE source maps negative words the same way', () => {
  assert.deepEqual(roundTrip('', 'REMAP(2) '), inputs.map(expected));
});

test('REMAP with a negative stream number is off (the real kernels pass -1 to disable it)', () => {
  assert.deepEqual(roundTrip('REMAP(-1) ', ''), inputs);
});
