/**
 * The simulator and host C code together: MEM written by C between tensor steps is journaled in the
 * page history and attributed to the right interval; `ztaTaskYield()` switches appear in the trace;
 * stores to ztachip registers (`ZTAM_GREG`) are accepted and simulated as research §6.6–§6.8/§10.1
 * define them, everything else about registers stops with "not simulated" at the C location.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Project } from '../../core/project/project';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import { nodeLoadWasm } from '../../node/wasm';
import { parseDump } from '../../core/sim/dump';
import { runProgram, type RunResult } from '../../core/sim/run';
import { traceStepsError } from '../../core/protocol/trace';
import { nodeFs } from '../../cli/nodeFs';

const project = () => new Project({ fs: nodeFs, loadPcore: loadPcoreView });

async function run(files: Record<string, string>, main: string, dumps: string[] = []): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'tl-simhost-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return runProgram({ project: project(), file: join(dir, main), loadWasm: nodeLoadWasm, dumps: dumps.map(parseDump) });
}

const i16 = (b: Uint8Array | Int16Array) => [...new Int16Array((b as Uint8Array).slice().buffer)];

describe('host C writes in the page history', () => {
  const SRC = `#include <stdint.h>
#include <string.h>
static int16_t buf[4096];
static int16_t out[8];
void kernel_h(void) {
   for (int i = 0; i < 8; i++) buf[i] = i + 1;
   > DTYPE(INT16)MEM((uint32_t)&out[0])[0:7] <= DTYPE(INT16)MEM((uint32_t)&buf[0])[0:7];
   for (int i = 0; i < 8; i++) buf[i] = 100 + i;
   buf[3000] = 7;
   > DTYPE(INT16)MEM((uint32_t)&out[0])[0:7] <= DTYPE(INT16)MEM((uint32_t)&buf[0])[0:7];
   buf[0] = -5;
   memset(&buf[2], 0, 4);
}
`;

  test('writes between two statements belong to the interval between them', async () => {
    const r = await run({ 'h.m': SRC }, 'h.m');
    assert.equal(r.error, null, JSON.stringify(r.error));
    const g = r.host!.globals();
    const buf = g.get('buf')!.address;
    const out = g.get('out')!.address;
    const h = r.histories.get('MEM')!;
    const page = (a: number) => Math.floor(a / 4096);
    assert.equal(r.trace.length, 2);
    // step 0 is preceded by the first loop (buf[0..7]); step 1 by the second loop and buf[3000]
    assert.deepEqual(r.trace[0].hostChanged, { MEM: [page(buf)] });
    assert.deepEqual(r.trace[1].hostChanged, { MEM: [...new Set([page(buf), page(buf + 6000)])].sort((a, b) => a - b) });
    const at = (addr: number, n: number, step: number) => i16(h.read(addr, 2 * n, step));
    assert.deepEqual(at(buf, 8, -1), [0, 0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(at(buf, 8, -0.5), [1, 2, 3, 4, 5, 6, 7, 8]);
    // after step 0: the second loop has not run yet
    assert.deepEqual(at(buf, 8, 0), [1, 2, 3, 4, 5, 6, 7, 8]);
    assert.deepEqual(at(buf + 6000, 1, 0), [0]);
    assert.deepEqual(at(out, 8, 0), [1, 2, 3, 4, 5, 6, 7, 8]);
    // just before step 1, and after it: the second loop's values, not yet the writes after step 1
    assert.deepEqual(at(buf, 8, 0.5), [100, 101, 102, 103, 104, 105, 106, 107]);
    assert.deepEqual(at(buf, 8, 1), [100, 101, 102, 103, 104, 105, 106, 107]);
    assert.deepEqual(at(buf + 6000, 1, 1), [7]);
    assert.deepEqual(at(out, 8, 1), [100, 101, 102, 103, 104, 105, 106, 107]);
    // the live memory has the writes after the last step (buf[0] = -5, memset of buf[2..3])
    assert.deepEqual(i16(r.machine.mem.slice(buf, buf + 16)), [-5, 101, 0, 0, 104, 105, 106, 107]);
  });

  test('the journal keeps only pages that changed (rewriting the same values keeps nothing)', async () => {
    const src = `#include <stdint.h>
static int16_t a[16];
void kernel_s(void) {
   a[1] = 0;
   > DTYPE(INT16)MEM((uint32_t)&a[8])[0:3] <= DTYPE(INT16)MEM((uint32_t)&a[0])[0:3];
}
`;
    const r = await run({ 's.m': src }, 's.m');
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.trace[0].hostChanged, undefined);
  });

  test('scalar globals of every width, written by name, pointer and compound assignment', async () => {
    const src = `#include <stdint.h>
// every variable on its own page: each kind of store must journal its page itself
static uint8_t c;
static uint8_t gap1[4096];
static int16_t s;
static uint8_t gap2[4096];
static int32_t w;
static uint8_t gap3[4096];
static int64_t d;
static uint8_t gap4[4096];
static float f;
static uint8_t gap5[4096];
static int16_t arr[4];
void kernel_w(void) {
   > DTYPE(INT16)MEM((uint32_t)&arr[0])[0:3] <= INT16(0);
   c = 200;
   s = -3;
   w = 70000;
   d = 5;
   f = 1.5f;
   int16_t *p = &arr[1];
   *p = 11;
   arr[2] += 4;
   > DTYPE(INT16)MEM((uint32_t)&arr[3])[0:0] <= INT16(0);
}
`;
    const r = await run({ 'w.m': src }, 'w.m');
    assert.equal(r.error, null, JSON.stringify(r.error));
    const g = r.host!.globals();
    const h = r.histories.get('MEM')!;
    const dv = (b: Uint8Array) => new DataView(b.slice().buffer);
    const val = (name: string, step: number) => {
      const a = g.get(name)!.address;
      const b = dv(h.read(a, 8, step) as Uint8Array);
      return { c: b.getUint8(0), s: b.getInt16(0, true), w: b.getInt32(0, true), d: Number(b.getBigInt64(0, true)), f: b.getFloat32(0, true) }[name as 'c'];
    };
    for (const [name, v] of [
      ['c', 200],
      ['s', -3],
      ['w', 70000],
      ['d', 5],
      ['f', 1.5],
    ] as const) {
      assert.equal(val(name, 0), 0, `${name} after step 0`);
      assert.equal(val(name, 0.5), v, `${name} before step 1`);
    }
    const pages = new Set(['c', 's', 'w', 'd', 'f', 'arr'].map((n) => Math.floor(g.get(n)!.address / 4096)));
    assert.equal(pages.size, 6);
    assert.deepEqual(r.trace[1].hostChanged, { MEM: [...pages].sort((a, b) => a - b) });
    const arr = g.get('arr')!.address;
    assert.deepEqual(i16(h.read(arr, 8, 0)), [0, 0, 0, 0]);
    assert.deepEqual(i16(h.read(arr, 8, 0.5)), [0, 11, 4, 0]);
  });

  test('locals of the C stack in MEM and library writes are journaled too', async () => {
    const src = `#include <stdint.h>
#include <string.h>
static int16_t g[4];
static void fill(int16_t *p, int v) { for (int i = 0; i < 4; i++) p[i] = v; }
void kernel_l(void) {
   int16_t loc[4];
   fill(loc, 3);
   memcpy(g, loc, sizeof(loc));
   > DTYPE(INT16)MEM((uint32_t)&g[0])[0:3] <= DTYPE(INT16)MEM((uint32_t)&loc[0])[0:3];
}
`;
    const r = await run({ 'l.m': src }, 'l.m');
    assert.equal(r.error, null, JSON.stringify(r.error));
    const g = r.host!.globals().get('g')!.address;
    const h = r.histories.get('MEM')!;
    assert.deepEqual(i16(h.read(g, 8, -1)), [0, 0, 0, 0]);
    assert.deepEqual(i16(h.read(g, 8, -0.5)), [3, 3, 3, 3]);
    // the stack page (loc) changed as well as g's page
    const pages = r.trace[0].hostChanged!.MEM;
    assert.ok(pages.includes(Math.floor(g / 4096)));
    assert.ok(pages.length >= 2, `pages ${pages}`);
  });
});

describe('ztaTaskYield in the trace', () => {
  test('each switch is a yield step at the call, with the yielding process', async () => {
    const src = `#include <stdint.h>
static int16_t b[64];
static void h(void *p, int pid) {
   for (int i = 0; i < 2; i++) {
      > DTYPE(INT16)MEM((uint32_t)&b[pid * 8 + i])[0:0] <= INT16(1);
      ztaTaskYield();
   }
}
void kernel_y(void) {
   ztaDualHartExecute(h, 0);
   ztaTaskYield();
}
`;
    const r = await run({ 'y.m': src }, 'y.m');
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.deepEqual(
      r.trace.map((s) => `${s.kind}@${s.process}:${s.line}`),
      ['transfer@0:5', 'yield@0:6', 'transfer@1:5', 'yield@1:6', 'transfer@0:5', 'yield@0:6', 'transfer@1:5', 'yield@1:6'],
    );
    const y = r.trace[1];
    assert.equal(y.column, 7);
    assert.equal(y.text, 'ztaTaskYield()');
    assert.deepEqual(y.changed, {});
    assert.equal(r.summary.statements, 4);
  });
});

describe('ztachip registers (ZTAM_GREG)', () => {
  const H = `#include <stdint.h>
#define MEM_MAP 0x80000000
#define ZTAM_GREG(reg2,reg,vm) (((volatile uint32_t *)MEM_MAP)[((reg2) << 5)+reg])
`;
  const testP = readFileSync(resolve('examples/test/test.p'), 'utf8');

  test('PARM, PRINT, CALLBACK, BARRIER, templates and EXE through register stores', async () => {
    const src = `${H}#define NUM_PCORE 8
static int16_t in[1024];
static int16_t out[1024];
uint32_t resp; int got;
void kernel_r(void) {
   for (int i = 0; i < 1024; i++) in[i] = i - 500;
   > DTYPE(INT16)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_A[0:7] <= DTYPE(INT16)MEM((uint32_t)&in[0])[0:1023];
   ZTAM_GREG(0,23,0) = 5;
   ZTAM_GREG(0,24,0) = 9;
   ZTAM_GREG(0,5,0) = 7;
   ZTAM_GREG(19,8,0) = 0x1234;
   ZTAM_GREG(0,5,0) = ztaBuildKernelFunc($test::add, 8, 16);
   ZTAM_GREG(0,5,0) = 0 + (11 << 3);
   ZTAM_GREG(0,24,0) = 42;
   ZTAM_GREG(0,5,0) = 6 + (11 << 3);
   got = ztaReadResponse(&resp);
   > DTYPE(INT16)MEM((uint32_t)&out[0])[0:1023] <= DTYPE(INT16)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_Z[0:7];
}
`;
    const r = await run({ 'r.m': src, 'r.p': testP }, 'r.m', ['MEM:out:1024:i16', 'MEM:resp:1:i32', 'MEM:got:1:i32']);
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.deepEqual(
      r.trace.map((s) => `${s.kind}:${s.line}`),
      ['transfer:10', 'global:11', 'global:12', 'print:13', 'exe:15', 'barrier:16', 'global:17', 'callback:18', 'transfer:20'],
    );
    assert.equal(r.output, 'PRINT 5 9\n');
    assert.deepEqual(r.trace[4].register, { r2: 0, r: 5, value: (4 + (1 << 7) + (7 << 18) + (1 << 23) + (15 << 26)) >>> 0 });
    assert.equal(r.trace[4].kernel, 'test::add');
    // the simulator's records are the protocol's trace steps, register stores included
    assert.equal(traceStepsError(r.trace), undefined);
    const out = r.dumps[0].values!;
    for (let i = 0; i < 1024; i++) assert.equal(out[i], i - 500 + 1, `out[${i}]`);
    // CALLBACK posts PARM1 (42): ztaReadResponse(&resp) stores it and returns true
    assert.deepEqual(r.dumps[1].values, [42]);
    assert.deepEqual(r.dumps[2].values, [1]);
    // the template field store is recorded, not a step
    assert.equal(r.machine.regs[(19 << 5) + 8], 0x1234);
    assert.equal(r.machine.regStores, 8);
  });

  const fails = async (body: string, message: RegExp, line: number) => {
    const r = await run({ 'f.m': `${H}void kernel_f(void) {\n${body}\n}\n` }, 'f.m');
    assert.ok(r.error, 'expected an error');
    assert.match(r.error.message, message);
    assert.equal(r.error.kind, 'not-simulated');
    assert.equal(r.error.line, line);
    assert.ok(r.error.stack[0]?.startsWith('kernel_f'), r.error.stack.join(' | '));
  };

  test('what is not simulated stops at the C line', async () => {
    await fails('   int x = 1;\n   ZTAM_GREG(0,5,0) = 1 + (x << 16);', /not simulated: a tensor transfer started by a raw REG_DP_RUN store/, 6);
    await fails('   uint32_t v = ZTAM_GREG(0,12,0);\n   (void)v;', /not simulated: read of ztachip register ZTAM_GREG\(0,12,·\)/, 5);
    await fails('   ZTAM_GREG(3,30,0) = 1;', /not simulated: store to ztachip register ZTAM_GREG\(3,30,·\)/, 5);
    await fails('   *(volatile uint8_t *)0x80000004 = 1;', /not simulated: 1-byte store at 0x80000004/, 5);
  });

  test('an address outside MEM and the register window is still a fault', async () => {
    const r = await run({ 'o.m': `${H}void kernel_o(void) {\n   *(volatile uint32_t *)0x90000000 = 1;\n}\n` }, 'o.m');
    assert.ok(r.error);
    assert.equal(r.error.kind, 'fault');
    assert.match(r.error.message, /bad MEM address: 4-byte write at 0x90000000/);
    assert.equal(r.error.line, 5);
  });
});
