/**
 * Indices the simulator clips but ztachip's hardware does not check (research §6.3): the run keeps the
 * documented result (skipped writes, PAD reads) and reports a warning at the term, so a result that may
 * differ from the chip's never passes silently. Clips the hardware does make give no warning.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseDump } from '../../core/sim/dump';
import { runFile, tempTree } from '../helpers/run';

const P = 'vint16 t::a[2];\nint16 t::s[8];\n_kernel_ void t::k() { }\n';

async function run(body: string, dumps: string[] = []) {
  const m = `#include <stdint.h>\nint16_t buf[64];\nint16_t src[32];\nvoid kernel_w(void) {\n   for (int i = 0; i < 32; i++) src[i] = i + 1;\n${body}\n}\n`;
  const dir = tempTree({ 'w.m': m, 'w.p': P }, 'tl-hwb-');
  const r = await runFile(join(dir, 'w.m'), { dumps: dumps.map(parseDump) });
  assert.equal(r.error, null, JSON.stringify(r.error));
  return r;
}

test('a negative destination index in MEM: writes skipped, warned at the destination term', async () => {
  // lo = -1 at run time (a constant -1 is already a checker error)
  const r = await run('   int lo = src[0] - 2;\n   > DTYPE(INT16)MEM((uint32_t)&buf[8],4,4)[lo:lo+3][0:3] <= DTYPE(INT16)MEM((uint32_t)&src[0])[0:15];', [
    'MEM:buf:24:i16',
  ]);
  // row -1 (src 1..4) is skipped; rows 0..2 get src 5..16; buf[4..7], before the tensor, stays 0
  assert.deepEqual(r.dumps[0].values, [0, 0, 0, 0, 0, 0, 0, 0, ...Array.from({ length: 12 }, (_, i) => i + 5), 0, 0, 0, 0]);
  assert.equal(r.warnings.length, 1);
  const w = r.warnings[0];
  assert.deepEqual([w.line, w.column], [7, 6]);
  assert.match(
    w.message,
    new RegExp(
      '^dimension 0 of the MEM destination: index -1\\.\\.2 is outside 0\\.\\.3; the simulator skips those writes, ' +
        "but ztachip's hardware does not check the lower bound of a destination: it writes before the tensor$",
    ),
  );
});

test('a thread index past 15 and a member index past the variable: warned on each side', async () => {
  const second = '   > DTYPE(INT16)MEM((uint32_t)&buf[0])[0:9] <= DTYPE(INT16)PCORE(8)[0].THREAD[0].t::s[0:9];';
  const r = await run(['   > DTYPE(INT16)PCORE(8)[0].THREAD[14:17].t::a[0][:] <= DTYPE(INT16)MEM((uint32_t)&src[0])[0:31];', second].join('\n'));
  assert.deepEqual(
    r.warnings.map((w) => [w.line, w.column]),
    [
      [6, 6],
      [7, second.indexOf('<= ') + 4],
    ],
  );
  assert.match(
    r.warnings[0].message,
    /^THREAD of the destination: index 14\.\.17 is outside 0\.\.15; the simulator skips those writes, but ztachip's hardware does not check thread indices/,
  );
  assert.match(
    r.warnings[1].message,
    /^s of the source: index 0\.\.9 is outside 0\.\.7; the simulator reads PAD there, but ztachip's hardware does not check member indices/,
  );
});

test('clips the hardware makes too (upper bound of a destination, lower bound of a source, a loop of warnings) are counted, not repeated', async () => {
  const ok = await run('   > DTYPE(INT16)MEM((uint32_t)&buf[0],4,4)[2:5][0:3] <= DTYPE(INT16)MEM((uint32_t)&src[0],4,4)[-1:2][0:3];');
  assert.deepEqual(ok.warnings, []);
  const loop = await run(
    '   for (int k = 0; k < 3; k++) {\n' +
      '   int lo = src[0] - 2;\n' +
      '   > DTYPE(INT16)MEM((uint32_t)&buf[8],4,4)[lo:lo+3][0:3] <= DTYPE(INT16)MEM((uint32_t)&src[0])[0:15];\n' +
      '   }',
  );
  assert.equal(loop.warnings.length, 1);
  assert.equal(loop.warnings[0].count, 3);
});
