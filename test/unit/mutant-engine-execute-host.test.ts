/**
 * The executor's host hooks (core/sim/engine/execute.ts: TensorExecutor.yieldAt, .zta, .registers), which
 * mutation testing found no unit test reaching: the `yield` step of ztaTaskYield, the SPU load of ztaInitStream
 * (INT16 elements resized to 12-bit words, research §6.4.2), CALLBACK indications and ztaReadResponse, register
 * stores that launch a kernel (research §10.1), and the host interval's MEM pages reported with the next step.
 * Every expected value is worked out by hand from those rules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import { writeI16 } from '../helpers/sim';
import { bare, harness, plain, type Harness } from './helpers/mutant-engine-execute';
import { encodeExeWord, REG_BASE } from '../../core/sim/engine/execute';
import { SimError } from '../../core/sim/types';

const AT = { file: '/t/x.m', line: 7, column: 3 };
/** One `VAR` declaration (no step of its own) and one PRINT. */
const PROGRAM = analyze('void f(void) {\n> VAR $a;\n> PRINT(3, 4);\n}\n');

/** The error `f` throws, as [message, kind, line of its location or undefined, its C stack]. */
function failure(f: () => void): [string, string, number | undefined, string[]] {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof SimError, String(e));
    return [e.message, e.kind, e.loc?.line, e.stack_];
  }
  assert.fail('no error');
}

/** A host write of one MEM byte, journaled as the host interpreter journals it. */
function hostWrite(h: Harness, addr: number, v: number): void {
  h.histories.get('MEM')!.touch(addr, addr);
  h.m.mem[addr] = v;
}

test('ztaTaskYield is a yield step at the call; MEM pages the host wrote are reported with the next step, merged and sorted', () => {
  const h = harness(PROGRAM);
  h.ex.yieldAt(AT, h.scope({}, 1));
  // MEM pages are 4096 bytes: 0x7000 is page 7, 0x5000 page 5, 0x3000 page 3, 0x1000 page 1
  hostWrite(h, 0x7000, 1);
  hostWrite(h, 0x5000, 1);
  // VAR makes no step, but ends the host interval: pages 5 and 7 are kept for the next step
  h.ex.run(0, h.scope());
  hostWrite(h, 0x3000, 1);
  hostWrite(h, 0x1000, 1);
  // a byte written with the value it held is no change
  hostWrite(h, 0x2000, 0);
  h.ex.yieldAt({ ...AT, line: 9 }, h.scope({}, 1));
  h.ex.run(1, h.scope());
  assert.deepEqual(plain(h.steps), [
    bare(0, 'yield', 7, 3, 'ztaTaskYield()', { process: 1 }),
    bare(1, 'yield', 9, 3, 'ztaTaskYield()', { process: 1, hostChanged: { MEM: [1, 3, 5, 7] } }),
    // the PRINT is on line 3, its `PRINT` at column 3 (after "> "); nothing written since the yield
    bare(2, 'print', 3, 3, 'PRINT(3, 4)'),
  ]);
  assert.deepEqual(h.printed, ['PRINT 3 4\n']);
  assert.equal(h.ex.step, 3);
});

test('ztaInitStream loads INT16 MEM elements into the SPU as 12-bit words: sign bit and low 11 bits kept', () => {
  const h = harness(PROGRAM);
  // 5 → 5; −3 → (0xfffd & 0x7ff) − 2048 = 2045 − 2048 = −3; 0x0fff → 0x7ff = 2047; 0x8001 → 1 − 2048 = −2047;
  // 0x7ff0 → 0x7f0 = 2032; −2048 (0xf800) → 0 − 2048 = −2048
  writeI16(h.m, 0x1000, [5, -3, 0x0fff, -32767, 0x7ff0, -2048]);
  h.m.spu[6] = 99;
  hostWrite(h, 0x4000, 1);
  h.ex.zta.loadStreams(0x1000, 6, AT, h.scope({}, 1));
  assert.deepEqual([...h.m.spu.subarray(0, 7)], [5, -3, 2047, -2047, 2032, -2048, 99]);
  assert.deepEqual(plain(h.steps), [
    {
      step: 0,
      kind: 'transfer',
      file: '/t/x.m',
      line: 7,
      column: 3,
      endLine: 7,
      text: 'SPU <= DTYPE(INT16)MEM(0x1000)[0:5]',
      process: 1,
      elements: 6,
      padded: 0,
      skipped: 0,
      // SPU pages are 2048 words: the six words are in page 0; the host's write to 0x4000 (page 4) came before
      changed: { SPU: [0] },
      hostChanged: { MEM: [4] },
    },
  ]);
  // two bytes per table word
  assert.equal(h.ex.bytesMoved, 12);
});

test('ztaInitStream: tables that end exactly at the end of MEM or fill the SPU load; a word more is a located fault', () => {
  const h = harness(PROGRAM);
  const end = h.m.mem.length; // 65536
  writeI16(h.m, end - 4, [-1, 7]);
  h.ex.zta.loadStreams(end - 4, 2, AT, h.scope());
  assert.deepEqual([...h.m.spu.subarray(0, 2)], [-1, 7]);
  // 1024 words = 4 tables × 128 (slope, value) pairs: the whole SPU, from MEM 0 (2048 bytes)
  writeI16(h.m, 2046, [33]);
  h.ex.zta.loadStreams(0, 1024, AT, h.scope());
  assert.equal(h.m.spu[1023], 33);
  // no words: no SPU write, an empty range in the step's text
  h.m.spu[0] = 12;
  h.ex.zta.loadStreams(0x20, 0, AT, h.scope());
  assert.equal(h.m.spu[0], 12);
  assert.deepEqual(
    h.steps.map((s) => [s.text, s.elements]),
    [
      ['SPU <= DTYPE(INT16)MEM(0xfffc)[0:1]', 2],
      ['SPU <= DTYPE(INT16)MEM(0x0)[0:1023]', 1024],
      ['SPU <= DTYPE(INT16)MEM(0x20)[0:-1]', 0],
    ],
  );
  assert.equal(h.ex.bytesMoved, 4 + 2048);
  const stack = ['f (/t/x.m:1:1)'];
  const tooMany = 'ztaInitStream: 1025 table words do not fit the stream processor (1024 words: 4 tables of 128 entries)';
  assert.deepEqual(
    failure(() => h.ex.zta.loadStreams(0, 1025, AT, h.scope())),
    [tooMany, 'fault', 7, stack],
  );
  assert.deepEqual(
    failure(() => h.ex.zta.loadStreams(0, -1, AT, h.scope())),
    ['ztaInitStream: -1 table words do not fit the stream processor (1024 words: 4 tables of 128 entries)', 'fault', 7, stack],
  );
  // 0xfff6 + 12 bytes = 0x10002 > 0x10000
  assert.deepEqual(
    failure(() => h.ex.zta.loadStreams(end - 10, 6, AT, h.scope())),
    ['ztaInitStream: stream tables at byte address 0xfff6 (12 bytes) are outside MEM', 'fault', 7, stack],
  );
  // a C uint32_t past 0x7fffffff arrives as a negative int: read as the unsigned address
  assert.deepEqual(
    failure(() => h.ex.zta.loadStreams(-2, 1, AT, h.scope())),
    ['ztaInitStream: stream tables at byte address 0xfffffffe (2 bytes) are outside MEM', 'fault', 7, stack],
  );
  assert.equal(h.steps.length, 3);
});

test('CALLBACK indications: the globals hold (function, parameter), ztaReadResponse reads the parameters oldest first', () => {
  const h = harness(analyze('void f(void) {\n> CALLBACK(7, -2);\n}\n'));
  hostWrite(h, 0x3000, 5);
  h.ex.zta.callback(0, 41, AT, h.scope({}, 1));
  assert.deepEqual(h.m.globals, [0, 41]);
  h.ex.run(0, h.scope());
  assert.deepEqual(h.m.globals, [7, -2]);
  assert.deepEqual(h.callbacks, [
    [0, 41],
    [7, -2],
  ]);
  assert.deepEqual(
    h.steps.map((s) => [s.kind, s.text, s.line, s.process, s.hostChanged]),
    [
      ['callback', 'CALLBACK(0,41)', 7, 1, { MEM: [3] }],
      ['callback', 'CALLBACK(7, -2)', 2, 0, undefined],
    ],
  );
  // −2 is queued as the uint32_t the C program reads back
  assert.deepEqual([h.ex.zta.readResponse(), h.ex.zta.readResponse(), h.ex.zta.readResponse()], [41, 0xfffffffe, undefined]);
});

test('REG_DP_RUN with an EXE word launches the kernel of its address on the process page, as an exe step', () => {
  // the runner writes PCORE 2's private word 7 of process 1: word 2·4096 + 7 = 8199, in 2048-word page 4
  const h = harness(PROGRAM, {
    laneOps: 40,
    kernelByAddress: (a) => (a === 2 ? 'k::f' : undefined),
    onLaunch: (l) => {
      l.page.priv[8199] = 9;
      l.page.shared[0] = 1;
    },
  });
  // encodeExeWord(2, 3, 5) = 4 + 2·2^7 + 2·2^18 + 2^23 + 4·2^26 = 0x10880104
  const v = encodeExeWord(2, 3, 5);
  assert.equal(v, 0x10880104);
  h.ex.registers.store(REG_BASE + 4 * 5, 4, v, AT, h.scope({}, 1));
  assert.deepEqual(h.launches, [{ kernel: 'k::f', process: 1, numPcore: 3, numThread: 5, at: AT }]);
  assert.deepEqual(plain(h.steps), [
    {
      step: 0,
      kind: 'exe',
      file: '/t/x.m',
      line: 7,
      column: 3,
      endLine: 7,
      text: 'ZTAM_GREG(0,5,·) = 0x10880104',
      process: 1,
      // 3 PCOREs × 5 threads
      elements: 15,
      padded: 0,
      skipped: 0,
      kernel: 'k::f',
      laneOps: 40,
      changed: { PCORE1: [4], PCORE1S: [0] },
      register: { r2: 0, r: 5, value: 0x10880104 },
    },
  ]);
  assert.equal(h.ex.laneOps, 40);
  assert.equal(h.m.regs[5], 0x10880104);
  assert.equal(h.m.regStores, 1);
});

test('REG_DP_RUN EXE words: a PCORE count past 8, no kernel at the address, no PCORE program', () => {
  const kernelByAddress = (a: number) => (a === 2 ? 'k::f' : undefined);
  const h = harness(PROGRAM, { laneOps: 1, kernelByAddress });
  const store = (hh: Harness, v: number) => () => hh.ex.registers.store(REG_BASE + 20, 4, v, AT, hh.scope());
  // np − 1 = 8 in bits 18..22: 9 PCOREs
  assert.deepEqual(failure(store(h, encodeExeWord(2, 9, 1))), ['EXE_LOCKSTEP: PCORE count 9 is outside 1..8', 'fault', undefined, []]);
  assert.deepEqual(failure(store(h, encodeExeWord(3, 1, 1))), [
    'REG_DP_RUN: command word 0x800184 runs kernel address 3, which is not a kernel of the PCORE program',
    'fault',
    7,
    [],
  ]);
  const none = harness(PROGRAM, { kernelByAddress });
  assert.deepEqual(failure(store(none, encodeExeWord(2, 8, 16))), [
    'not simulated: EXE_LOCKSTEP(k::f) — no PCORE program is loaded',
    'not-simulated',
    undefined,
    [],
  ]);
  // 8 PCOREs and 16 threads are the most: they run
  h.ex.registers.store(REG_BASE + 20, 4, encodeExeWord(2, 8, 16), AT, h.scope());
  assert.deepEqual(h.launches, [{ kernel: 'k::f', process: 0, numPcore: 8, numThread: 16, at: AT }]);
  assert.equal(h.steps.length, 1);
});

test('a register read names the register and its address', () => {
  const h = harness(PROGRAM);
  // (1 << 5) + 3 = 35: 0x80000000 + 4·35 = 0x8000008c
  assert.deepEqual(
    failure(() => h.ex.registers.load(REG_BASE + 4 * 35, 4, AT, h.scope())),
    ['not simulated: read of ztachip register ZTAM_GREG(1,3,·) (address 0x8000008c)', 'not-simulated', 7, []],
  );
  assert.equal(h.ex.hostHooks().mmio, h.ex.registers);
  assert.equal(h.ex.hostHooks().zta, h.ex.zta);
});

test('register steps spend the step budget and stop when cancelled; template stores spend nothing', () => {
  const h = harness(PROGRAM, { steps: 2 });
  const store = (r: number, v: number) => h.ex.registers.store(REG_BASE + 4 * r, 4, v, AT, h.scope());
  store(8, 1);
  store(23, 5);
  assert.equal(h.budget.steps, 1);
  store(24, 6);
  assert.equal(h.budget.steps, 0);
  assert.deepEqual(
    failure(() => store(5, 7)),
    ['step budget exhausted (raise the step budget setting)', 'budget', undefined, []],
  );
  assert.deepEqual(h.printed, []);
  const c = harness(PROGRAM);
  c.budget.cancelled = true;
  assert.deepEqual(
    failure(() => c.ex.registers.store(REG_BASE + 4 * 23, 4, 5, AT, c.scope())),
    ['run cancelled', 'cancelled', undefined, []],
  );
  assert.deepEqual(c.steps, []);
  // the host interval ends before the register's step
  const d = harness(PROGRAM);
  hostWrite(d, 0x2000, 3);
  d.ex.registers.store(REG_BASE + 4 * 23, 4, 5, AT, d.scope());
  assert.deepEqual(d.steps[0].hostChanged, { MEM: [2] });
});

test('a run that keeps no memory history: kernel launches, SPU loads, CONCURRENT and host intervals still run', () => {
  const a = analyze('void f(int p) {\n> CONCURRENT DTYPE(INT16)PCORE(8)[0].THREAD[0].t::s[0:1] <= DTYPE(INT16)MEM(p)[0:1];\n}\n', 'int16 t::s[4];\n');
  const h = harness(a, { histories: false, laneOps: 3, kernelByAddress: () => 't::k' });
  writeI16(h.m, 0x100, [11, -12]);
  h.ex.run(0, h.scope({ p: 0x100 }));
  h.ex.zta.loadStreams(0x100, 2, AT, h.scope());
  h.ex.registers.store(REG_BASE + 20, 4, encodeExeWord(1, 1, 1), AT, h.scope());
  h.ex.yieldAt(AT, h.scope());
  assert.deepEqual([...h.m.pages[0].priv.subarray(0, 2)], [11, -12]);
  assert.deepEqual([...h.m.scratch.subarray(0, 4)], [11, 0, 0xf4, 0xff]);
  assert.deepEqual([...h.m.spu.subarray(0, 2)], [11, -12]);
  assert.deepEqual(plain(h.steps.map((s) => ({ kind: s.kind, changed: s.changed, hostChanged: s.hostChanged }))), [
    { kind: 'transfer', changed: {} },
    { kind: 'transfer', changed: {} },
    { kind: 'exe', changed: {} },
    { kind: 'yield', changed: {} },
  ]);
});

test('host writes that leave MEM as it was are no host change; register stores outside bank 0 or other op-7 words are not simulated', () => {
  const h = harness(PROGRAM);
  hostWrite(h, 0x2000, 0);
  h.ex.run(1, h.scope());
  assert.equal(h.steps[0].hostChanged, undefined);
  // (1 << 5) + 23 = 55: PARM0's index in register bank 1 is not a parameter register
  assert.deepEqual(
    failure(() => h.ex.registers.store(REG_BASE + 4 * 55, 4, 5, AT, h.scope())),
    ['not simulated: store to ztachip register ZTAM_GREG(1,23,·) (address 0x800000dc, value 0x5)', 'not-simulated', 7, []],
  );
  // op 7 with other bits (0xf) is not PRINT, op 6 with other bits (0xe) not CALLBACK
  for (const v of [0xf, 0xe])
    assert.deepEqual(
      failure(() => h.ex.registers.store(REG_BASE + 20, 4, v, AT, h.scope())),
      [`not simulated: REG_DP_RUN command 0x${v.toString(16)} (ZTAM_GREG(0,5,·) = 0x${v.toString(16)})`, 'not-simulated', 7, []],
    );
  assert.deepEqual(h.callbacks, []);
  assert.deepEqual(h.printed, ['PRINT 3 4\n']);
  assert.equal(h.steps.length, 1);
});

test('a register store must be an aligned 32-bit store; a raw transfer command is not simulated', () => {
  const h = harness(PROGRAM);
  assert.deepEqual(
    failure(() => h.ex.registers.store(REG_BASE + 22, 4, 1, AT, h.scope())),
    ['not simulated: 4-byte store at 0x80000016 in the ztachip register window (registers take aligned 32-bit stores)', 'not-simulated', 7, []],
  );
  // op 1 (bits 0..2) starts a transfer whose descriptor was programmed field by field
  assert.deepEqual(
    failure(() => h.ex.registers.store(REG_BASE + 20, 4, 0x11, AT, h.scope())),
    [
      'not simulated: a tensor transfer started by a raw REG_DP_RUN store (ZTAM_GREG(0,5,·) = 0x11); its descriptor is programmed register by register — ' +
        'write the transfer as a `>` statement',
      'not-simulated',
      7,
      [],
    ],
  );
  assert.equal(h.m.regStores, 1);
});
