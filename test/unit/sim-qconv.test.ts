/**
 * A quantized convolution whose inputs, weights and outputs all pass through stream-processor tables
 * (fixtures/qconv: our own kernel in the style of ztachip's neural-network layers). The tables are built
 * by the program's C functions through ztaBuildSpuBundle and loaded by ztaInitStream; the expected
 * output comes from an independent model of the hardware's arithmetic written here: ztalib's table
 * construction (value = f at the segment start, slope from both ends), the stream processor's
 * interpolation on the 12-bit two's complement word, 8-bit → 12-bit conversions, 32-bit accumulation,
 * the shift saturated to 12 bits, and the low byte stored to a UINT8 tensor.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { parseDump, parseLoad } from '../../core/sim/dump';
import { runFile } from '../helpers/run';
import { mulberry32 } from '../helpers/rng';

const FILE = resolve(__dirname, '../fixtures/qconv/qconv.m');
const NIN = 8;
const NOUT = 8;
const NPIX = 128;

const sext = (v: number, bits: number) => (v << (32 - bits)) >> (32 - bits);
const i16 = (v: number) => sext(v, 16);

/** The table functions of qconv.m, as C computes them (int division truncates toward zero). */
const outFn = (y: number) => Math.max(0, Math.min(255, Math.trunc(y / 2) + 100));
const inFn = (x: number) => i16(x - 128);
const weightFn = (w: number) => i16(w * 3);

/** One stream table as ztalib builds it: 128 (slope, value) entries from f at each 32-wide segment's ends. */
function buildTable(f: (x: number) => number): { slope: number[]; value: number[] } {
  const slope: number[] = [];
  const value: number[] = [];
  for (let k = 0; k < 128; k++) {
    const lo = i16(f(sext(32 * k, 12)));
    const hi = i16(f(sext(32 * k + 31, 12)));
    value.push(lo);
    slope.push(i16(Math.trunc(i16((hi - lo) * 32) / 31)));
  }
  return { slope, value };
}

/** The stream processor on a 12-bit word: entry = top 7 bits, remainder = low 5 bits. */
function lookup(t: { slope: number[]; value: number[] }, word: number): number {
  const u = word & 0xfff;
  const k = u >> 5;
  const r = u & 31;
  return sext(t.value[k] + ((t.slope[k] * r + 16) >> 5), 12);
}

function model(input: Uint8Array, weights: Int8Array, shift: number): number[] {
  const tin = buildTable(inFn);
  const tw = buildTable(weightFn);
  const tout = buildTable(outFn);
  const out: number[] = [];
  for (let o = 0; o < NOUT; o++) {
    for (let p = 0; p < NPIX; p++) {
      const t = p >> 3;
      const lane = p & 7;
      let acc = 0;
      for (let c = 0; c < NIN; c++) {
        const x = lookup(tin, input[(t * NIN + c) * 8 + lane]); // UINT8 zero-extends to the 12-bit word
        const w = lookup(tw, weights[o * NIN + c]); // INT8 sign-extends
        acc = (acc + x * w) | 0;
      }
      const y = Math.max(-2048, Math.min(2047, acc >> shift));
      out.push(lookup(tout, y) & 0xff);
    }
  }
  return out;
}

async function runQconv(input: Uint8Array, weights: Int8Array, shift: number) {
  return runFile(FILE, {
    args: [shift],
    loads: [
      { ...parseLoad('input=input.bin'), bytes: input },
      { ...parseLoad('weights=weights.bin'), bytes: new Uint8Array(weights.buffer) },
    ],
    dumps: [parseDump(`MEM:output:${NOUT * NPIX}:u8`)],
  });
}

test('quantized 1x1 convolution through three stream tables matches the independent model', async () => {
  const rnd = mulberry32(20261126);
  const input = new Uint8Array(NPIX * NIN).map(() => Math.floor(rnd() * 256));
  const weights = new Int8Array(NOUT * NIN).map(() => Math.floor(rnd() * 256) - 128);
  const r = await runQconv(input, weights, 8);
  assert.equal(r.error, null, JSON.stringify(r.error));
  const got = r.dumps[0].values!;
  const want = model(input, weights, 8);
  assert.deepEqual(got, want);
  // the data exercises what matters: negative weights and inputs below the zero point (the upper half
  // of the tables), and outputs clamped at both ends of the output table
  assert.ok(weights.some((w) => w < 0) && input.some((x) => x < 128));
  assert.ok(want.includes(0) && want.includes(255) && want.some((v) => v > 0 && v < 255));
  // the stream tables were loaded once, by ztaInitStream (3 tables × 256 words), as a step of the run
  const load = r.trace.find((s) => s.text.startsWith('SPU <='));
  assert.ok(load, 'ztaInitStream is a step of the trace');
  assert.equal(load.elements, 3 * 256);
});

test('without ztaInitStream every REMAP reads the all-zero tables: the output differs (the tables matter)', async () => {
  const rnd = mulberry32(7);
  const input = new Uint8Array(NPIX * NIN).map(() => Math.floor(rnd() * 256));
  const weights = new Int8Array(NOUT * NIN).map(() => Math.floor(rnd() * 256) - 128);
  const r = await runQconv(input, weights, 8);
  assert.equal(r.error, null);
  const zeroTables = { slope: new Array(128).fill(0), value: new Array(128).fill(0) };
  assert.notDeepEqual(r.dumps[0].values, new Array(NOUT * NPIX).fill(lookup(zeroTables, 0)));
  assert.deepEqual(r.dumps[0].values, model(input, weights, 8));
});
