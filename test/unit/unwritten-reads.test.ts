/**
 * Reads of MEM nothing wrote (core/sim/written.ts, unwrittenReads.ts): a transfer reading a forgotten
 * input is one warning at its statement with the address range and a count, in the run's warnings (CLI
 * stderr and --json); loads, buffer files, C stores, static initialisers and earlier transfers count as
 * writes, so programs that set their inputs get none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WrittenMemory } from '../../core/sim/written';
import { runCli } from '../helpers/cli';
import { runFile, tempTree } from '../helpers/run';

test('WrittenMemory: byte ranges within and across pages, whole pages, strided reads only when nothing was written', () => {
  const w = new WrittenMemory(5 * 4096);
  assert.deepEqual(w.unwritten(100, 199, true), { lo: 100, hi: 199, bytes: 100 });
  w.mark(120, 129);
  // 100..119 and 130..199 remain: the first and last unwritten byte, 90 bytes
  assert.deepEqual(w.unwritten(100, 199, true), { lo: 100, hi: 199, bytes: 90 });
  assert.equal(w.unwritten(120, 129, true), undefined);
  assert.deepEqual(w.unwritten(125, 135, true), { lo: 130, hi: 135, bytes: 6 });
  // a strided read is known by its bounds only: reported only when nothing in them was written
  assert.equal(w.unwritten(100, 199, false), undefined);
  assert.deepEqual(w.unwritten(200, 299, false), { lo: 200, hi: 299, bytes: 100 });
  // across a page boundary
  w.mark(4090, 4105);
  assert.deepEqual(w.unwritten(4088, 4107, true), { lo: 4088, hi: 4107, bytes: 4 });
  // a page the C code stored into counts as written whole
  w.markPages(2 * 4096 + 7, 2 * 4096 + 7);
  assert.equal(w.unwritten(2 * 4096, 3 * 4096 - 1, true), undefined);
  // a whole page marked byte by byte becomes a whole page
  w.mark(3 * 4096, 3 * 4096 + 2047);
  w.mark(3 * 4096 + 2048, 4 * 4096 - 1);
  assert.equal(w.unwritten(3 * 4096, 4 * 4096 - 1, true), undefined);
  // the journal marks the pages of the first store to each and then leaves them alone
  const j = w.journal(undefined);
  assert.equal(j.flags[4], 0);
  j.mark(4 * 4096 + 10, 4 * 4096 + 11);
  assert.equal(j.flags[4], 1);
  assert.equal(w.unwritten(4 * 4096, 5 * 4096 - 1, true), undefined);
});

/** Copies `in` to `out` three times (one statement, three executions): in is what the caller passes. */
const COPY = `#include <stdint.h>
static uint8_t table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static uint8_t dst[8];
void kernel_run(uint32_t in, uint32_t out) {
   for (int i = 0; i < 3; i++) {
      > DTYPE(UINT8)MEM(out)[0:7] <= DTYPE(UINT8)MEM(in)[0:7];
   }
   > DTYPE(UINT8)MEM((uint32_t)&dst[0])[0:7] <= DTYPE(UINT8)MEM((uint32_t)&table[0])[0:7];
   > DTYPE(UINT8)MEM(in)[0:7] <= DTYPE(UINT8)MEM(out)[0:7];
}
`;

test('a forgotten input: one warning at the > statement with the range and how many times, none for what was written', async () => {
  const dir = tempTree({ 'k.m': COPY });
  const r = await runFile(join(dir, 'k.m'), { args: [0x100000, 0x200000], history: false, trace: false });
  assert.equal(r.error, null);
  assert.deepEqual(
    r.warnings.map((w) => [w.line, w.column, w.count, w.message]),
    [
      [
        6,
        9,
        3,
        'reads MEM 0x100000..0x100007, which nothing wrote before (no load, buffer file, C store or earlier transfer): a forgotten input? It reads as zeros',
      ],
    ],
    // the static table is initialised; the last statement reads what the first one wrote
  );
  // with a load of the input, and with the memory history kept (the editor's runs), nothing
  const loaded = await runFile(join(dir, 'k.m'), {
    args: [0x100000, 0x200000],
    loads: [{ where: '0x100000', file: 'in.bin', text: '0x100000=in.bin', bytes: new Uint8Array(8) }],
  });
  assert.deepEqual(loaded.warnings, []);
  // half of it loaded: the other half is reported
  const half = await runFile(join(dir, 'k.m'), {
    args: [0x100000, 0x200000],
    loads: [{ where: '0x100000', file: 'in.bin', text: '0x100000=in.bin', bytes: new Uint8Array(4) }],
  });
  assert.match(half.warnings[0]?.message ?? '', /^reads MEM 0x100004\.\.0x100007,/);
});

test('C stores count as writes: a buffer filled by the C code, a malloc block, a local array', async () => {
  const dir = tempTree({
    'c.m': `#include <stdint.h>
#include <stdlib.h>
void kernel_c(uint32_t in, uint32_t out) {
   uint8_t *p = (uint8_t *)malloc(64);
   uint8_t local[16];
   for (int i = 0; i < 64; i++) p[i] = i;
   for (int i = 0; i < 16; i++) local[i] = i;
   for (int i = 0; i < 8; i++) ((uint8_t *)in)[i] = i;
   > DTYPE(UINT8)MEM(out)[0:63] <= DTYPE(UINT8)MEM((uint32_t)p)[0:63];
   > DTYPE(UINT8)MEM(out)[0:15] <= DTYPE(UINT8)MEM((uint32_t)&local[0])[0:15];
   > DTYPE(UINT8)MEM(out)[0:7] <= DTYPE(UINT8)MEM(in)[0:7];
}
`,
  });
  const r = await runFile(join(dir, 'c.m'), { args: [0x100000, 0x200000] });
  assert.equal(r.error, null);
  assert.deepEqual(r.warnings, []);
});

test('the CLI prints the warning on stderr and lists it in --json', async () => {
  const dir = tempTree({ 'k.m': COPY });
  writeFileSync(join(dir, 'in.bin'), new Uint8Array(8));
  const r = await runCli(join(dir, 'k.m'), '--buffer', 'in=8', '--buffer', 'out=8', '--arg', '@in', '--arg', '@out');
  assert.equal(r.code, 0);
  const inAt = /buffer in: (0x[0-9a-f]+)/.exec(r.out)![1];
  const end = '0x' + (Number(inAt) + 7).toString(16);
  assert.equal(
    r.err,
    `${join(dir, 'k.m')}:6:9: warning: reads MEM ${inAt}..${end}, which nothing wrote before ` +
      '(no load, buffer file, C store or earlier transfer): a forgotten input? It reads as zeros (3 times)',
  );
  const j = await runCli(join(dir, 'k.m'), '--buffer', `in=${join(dir, 'in.bin')}`, '--buffer', 'out=8', '--arg', '@in', '--arg', '@out', '--json');
  assert.deepEqual(JSON.parse(j.out).warnings, [], 'a buffer from a file is written');
});
