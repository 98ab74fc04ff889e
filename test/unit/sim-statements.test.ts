/**
 * End-to-end runs of the non-transfer statements (research §6.6–§6.8): PROG, `class::func.param`
 * `_global` registers (shared slots, clobbered by PRINT/CALLBACK), EXE_LOCKSTEP reading them, BARRIER,
 * LOG_ON/LOG_OFF, PRINT output, CALLBACK indications read by ztaReadResponse; MEM size and `.npy`
 * loads/dumps of runProgram.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Project } from '../../core/project/project';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import { nodeLoadWasm } from '../../node/wasm';
import { parseDump } from '../../core/sim/dump';
import { runProgram, type RunOptions } from '../../core/sim/run';
import { decodeNpy, encodeNpy } from '../../core/common/npy';
import { nodeFs } from '../../cli/nodeFs';

function program(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tl-stmts-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const run = (file: string, o: Partial<RunOptions> = {}) =>
  runProgram({ project: new Project({ fs: nodeFs, loadPcore: loadPcoreView }), file, loadWasm: nodeLoadWasm, ...o });

const PCORE = `vint16 s::a;
vint16 s::z;
_kernel_ void s::add(_global int k) {
   _VMASK = -1;
   z = a + k;
}
`;

describe('statements besides transfers', () => {
  test('PROG, _global, EXE, BARRIER, LOG_ON/OFF, PRINT, CALLBACK and ztaReadResponse', async () => {
    const M = `#include <stdint.h>
static int16_t in[1024];
static int16_t out1[1024];
static int16_t out2[1024];
static int16_t out3[1024];
static int16_t code[16];
uint32_t r1 = 9, r2 = 9;
int got1, got2;

void kernel_s(void) {
   for (int i = 0; i < 1024; i++) in[i] = i;
   > PROG(4) <= DTYPE(INT16)MEM((uint32_t)&code[0],16)[:];
   > DTYPE(INT16)PCORE(8)[0:7].THREAD[0:15].s::a[0:7] <= DTYPE(INT16)MEM((uint32_t)&in[0])[0:1023];
   > s::add.k <= INT16(-3);
   > EXE_LOCKSTEP(s::add, 8);
   > DTYPE(INT16)MEM((uint32_t)&out1[0])[0:1023] <= DTYPE(INT16)PCORE(8)[0:7].THREAD[0:15].s::z[0:7];
   > BARRIER;
   > LOG_ON;
   > PRINT(7, -2);
   > LOG_OFF;
   > EXE_LOCKSTEP(s::add, 8);
   > DTYPE(INT16)MEM((uint32_t)&out2[0])[0:1023] <= DTYPE(INT16)PCORE(8)[0:7].THREAD[0:15].s::z[0:7];
   > CALLBACK(0, 55);
   got1 = ztaReadResponse(&r1);
   got2 = ztaReadResponse(&r2);
   > EXE_LOCKSTEP(s::add, 8);
   > DTYPE(INT16)MEM((uint32_t)&out3[0])[0:1023] <= DTYPE(INT16)PCORE(8)[0:7].THREAD[0:15].s::z[0:7];
}
`;
    const dir = program({ 's.m': M, 's.p': PCORE });
    const r = await run(join(dir, 's.m'), {
      dumps: ['MEM:out1:1024:i16', 'MEM:out2:1024:i16', 'MEM:out3:1024:i16', 'MEM:r1:1:i32', 'MEM:r2:1:i32', 'MEM:got1:1:i32', 'MEM:got2:1:i32'].map(parseDump),
    });
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.deepEqual(
      r.trace.map((s) => s.kind),
      ['prog', 'transfer', 'global', 'exe', 'transfer', 'barrier', 'log_on', 'print', 'log_off', 'exe', 'transfer', 'callback', 'exe', 'transfer'],
    );
    assert.equal(r.machine.progEntries, 16);
    assert.equal(r.output, 'PRINT 7 -2\n');
    const [o1, o2, o3, r1, r2, got1, got2] = r.dumps.map((d) => d.values!);
    // k = -3; then PRINT(7,-2) leaves 7 in slot 0; then CALLBACK(0,55) leaves 0
    for (let i = 0; i < 1024; i++) {
      assert.equal(o1[i], i - 3, `out1[${i}]`);
      assert.equal(o2[i], i + 7, `out2[${i}]`);
      assert.equal(o3[i], i, `out3[${i}]`);
    }
    // the CALLBACK parameter is posted once: the first ztaReadResponse(&r) stores it and returns true,
    // the second finds the queue empty (stores 0, returns false)
    assert.deepEqual([r1[0], r2[0]], [55, 0]);
    assert.deepEqual([got1[0], got2[0]], [1, 0]);
    assert.deepEqual(r.machine.globals, [0, 55]);
  });

  test('MEM size: a global that does not fit is an error; .npy loads and dumps', async () => {
    const M = `#include <stdint.h>
static int16_t src[6];
static int16_t dst[6];
void kernel_n(void) {
   > DTYPE(INT16)MEM((uint32_t)&dst[0])[0:5] <= DTYPE(INT16)MEM((uint32_t)&src[0],2,3)[0:1][0:2:2];
}
`;
    const dir = program({ 'n.m': M, 'big.m': '#include <stdint.h>\nstatic int16_t big[40000];\nvoid kernel_b(void) { big[0] = 1; }\n' });
    const small = await run(join(dir, 'big.m'), { memBytes: 65536 });
    assert.ok(small.error);
    assert.match(small.error.message, /out of simulated MEM|cannot allocate/);
    const fits = await run(join(dir, 'big.m'), { memBytes: 1 << 17 });
    assert.equal(fits.error, null, JSON.stringify(fits.error));
    assert.equal(fits.machine.mem.length, 1 << 17);
    const npy = encodeNpy({ dtype: 'i2', shape: [6], data: [10, -20, 30, -40, 50, -60] });
    const r = await run(join(dir, 'n.m'), {
      loads: [{ where: 'src', file: 'in.npy', text: 'src=in.npy', bytes: npy }],
      dumps: [parseDump('MEM:dst:6:i16=out.npy')],
    });
    assert.equal(r.error, null, JSON.stringify(r.error));
    const got = decodeNpy(r.dumps[0].bytes!);
    assert.deepEqual(got.shape, [6]);
    // src as 2 rows of 3, columns 0 and 2: src[0], src[2], src[3], src[5], then the source is exhausted (PAD 0)
    assert.deepEqual(Array.from(got.data), [10, 30, -40, -60, 0, 0]);
  });
});

describe('examples/blur/blur.m end to end', () => {
  test('window load (CONCURRENT, FOR reordering, casts, N(dims) with +), halo exchange, _global shift, row3', async () => {
    const { resolve } = await import('node:path');
    // model: image[i] = (3 i) & 255 as 8 planes × 8 rows × 32 columns; PCORE P holds columns 4P..4P+3 at
    // window columns 1..4, column 5 is column 1 of PCORE P+1 (halo; PCORE 7: 0), column 0 stays 0
    const image = (z: number, y: number, x: number) => (((z * 8 + y) * 32 + x) * 3) & 255;
    const win = (p: number, y: number, x: number, z: number) => {
      if (x >= 1 && x <= 4) return image(z, y, 4 * p + x - 1);
      if (x === 5 && p < 7) return image(z, y, 4 * (p + 1));
      return 0;
    };
    const dumps = [];
    for (let p = 0; p < 8; p++) dumps.push(`PCORE:${p}.blur::win:384:word12`, `PCORE:${p}.${p % 16}.blur::acc8:48:word12`);
    const r = await run(resolve('examples/blur/blur.m'), { dumps: dumps.map(parseDump) });
    assert.equal(r.error, null, JSON.stringify(r.error));
    for (let p = 0; p < 8; p++) {
      const w = r.dumps[2 * p].values!;
      const acc = r.dumps[2 * p + 1].values!;
      // tone::out shares the memory of blur::win (classes overlay, research §8): tone::curve, run after
      // row3, sets out[0][0][0] (win vector 0) to out[1][0][0] (win vector 16 = [2][4]) + 1
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 6; x++)
          for (let z = 0; z < 8; z++)
            assert.equal(w[(y * 6 + x) * 8 + z], y === 0 && x === 0 ? win(p, 2, 4, z) + 1 : win(p, y, x, z), `win PCORE ${p} [${y}][${x}][${z}]`);
      // row3 with shift 2: acc8[x] = (win[0][x] + win[1][x] + win[2][x]) >> 2, per lane
      for (let x = 0; x < 6; x++)
        for (let z = 0; z < 8; z++)
          assert.equal(acc[x * 8 + z], (win(p, 0, x, z) + win(p, 1, x, z) + win(p, 2, x, z)) >> 2, `acc8 PCORE ${p} [${x}] lane ${z}`);
    }
  });
});
