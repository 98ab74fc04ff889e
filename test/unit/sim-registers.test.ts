/**
 * Host C stores to the memory-mapped ztachip registers (TensorExecutor.registers: ZTAM_GREG(r2,r,·) at
 * 0x80000000 + 4·((r2 << 5) + r)), run through runProgram: PARM0/1 (r = 23, 24) set the `_global` slots, REG_DP_RUN
 * (r = 5) runs PRINT (7), BARRIER (0x58), LOG_ON (0x5a), LOG_OFF (0x5b) as trace steps, template and restore fields
 * (r = 8, 13) are recorded without a step; every other register, a read, a 16-bit store and an unknown command stop
 * the run with a located "not simulated" error. Addresses and values worked out by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runFile, tempTree } from '../helpers/run';
import type { RunResult } from '../../core/sim/run';

const STORES = ['   R[23] = 5;', '   R[24] = 0xfffffffe;', '   R[5] = 7;', '   R[5] = 88;', '   R[5] = 90;', '   R[5] = 91;', '   R[8] = 1;', '   R[13] = 2;'];

async function run(extra: string): Promise<RunResult> {
  const text = ['#include <stdint.h>', 'void kernel_main(void) {', '   volatile uint32_t *R = (volatile uint32_t *)0x80000000;', ...STORES, extra, '}', ''];
  return runFile(join(tempTree({ 's.m': text.join('\n') }), 's.m'));
}

const STEPS = [
  ['global', 'ZTAM_GREG(0,23,·) = 0x5', 4, { r2: 0, r: 23, value: 5 }],
  ['global', 'ZTAM_GREG(0,24,·) = 0xfffffffe', 5, { r2: 0, r: 24, value: 0xfffffffe }],
  ['print', 'ZTAM_GREG(0,5,·) = 0x7', 6, { r2: 0, r: 5, value: 7 }],
  ['barrier', 'ZTAM_GREG(0,5,·) = 0x58', 7, { r2: 0, r: 5, value: 88 }],
  ['log_on', 'ZTAM_GREG(0,5,·) = 0x5a', 8, { r2: 0, r: 5, value: 90 }],
  ['log_off', 'ZTAM_GREG(0,5,·) = 0x5b', 9, { r2: 0, r: 5, value: 91 }],
];

const steps = (r: RunResult) => r.trace.map((s) => [s.kind, s.text, s.line, (s as { register?: unknown }).register]);

test('PARM0/1, PRINT, BARRIER, LOG_ON/OFF become steps; template and restore stores are only counted', async () => {
  const r = await run('');
  assert.equal(r.error, null);
  assert.deepEqual(steps(r), STEPS);
  // PARM0 = 5, PARM1 = 0xfffffffe read as a signed int
  assert.deepEqual([r.machine.globals[0], r.machine.globals[1]], [5, -2]);
  assert.equal(r.output, 'PRINT 5 -2\n');
  assert.equal(r.machine.regStores, 8);
  assert.equal(r.machine.regs[8], 1);
  assert.equal(r.machine.regs[13], 2);
  assert.deepEqual(
    r.trace.map((s) => s.elements),
    [1, 1, 0, 0, 0, 0],
  );
});

test('what is not simulated stops the run at the store or read, after what ran before it', async () => {
  const cases: [string, number, string, number][] = [
    ['   R[2] = 1;', 4, 'not simulated: store to ztachip register ZTAM_GREG(0,2,·) (address 0x80000008, value 0x1)', 9],
    // index 37 = (1 << 5) + 5: REG_DP_RUN of the second register bank is not the command register
    ['   R[32 + 5] = 7;', 4, 'not simulated: store to ztachip register ZTAM_GREG(1,5,·) (address 0x80000094, value 0x7)', 9],
    ['   uint32_t x = R[3];', 17, 'not simulated: read of ztachip register ZTAM_GREG(0,3,·) (address 0x8000000c)', 8],
    [
      '   *(volatile uint16_t *)0x80000000 = 1;',
      4,
      'not simulated: 2-byte store at 0x80000000 in the ztachip register window (registers take aligned 32-bit stores)',
      8,
    ],
    ['   R[5] = 6;', 4, 'not simulated: REG_DP_RUN command 0x6 (ZTAM_GREG(0,5,·) = 0x6)', 9],
  ];
  for (const [extra, column, message, stores] of cases) {
    const r = await run(extra);
    assert.ok(r.error, extra);
    assert.deepEqual([r.error.line, r.error.column, r.error.kind, r.error.message], [12, column, 'not-simulated', message], extra);
    assert.deepEqual(steps(r), STEPS, extra);
    assert.equal(r.machine.regStores, stores, extra);
  }
});

test('REG_DP_RUN: CALLBACK (0x5e) is a step; an EXE word (op 4) naming no kernel is a located fault', async () => {
  const cb = await run('   R[5] = 94;');
  assert.equal(cb.error, null);
  assert.deepEqual(steps(cb).at(-1), ['callback', 'ZTAM_GREG(0,5,·) = 0x5e', 12, { r2: 0, r: 5, value: 94 }]);
  assert.equal(cb.trace.length, STEPS.length + 1);
  // the globals hold (function, parameter) = (PARM0, PARM1) of the callback
  assert.deepEqual([cb.machine.globals[0], cb.machine.globals[1]], [5, -2]);
  // 4 + (3 << 7) = 0x184: kernel address 3, not a kernel of the (absent) PCORE program
  const exe = await run('   R[5] = 4 + (3 << 7);');
  assert.ok(exe.error);
  assert.deepEqual(
    [exe.error.line, exe.error.column, exe.error.kind, exe.error.message],
    [12, 4, 'fault', 'REG_DP_RUN: command word 0x184 runs kernel address 3, which is not a kernel of the PCORE program'],
  );
  assert.deepEqual(steps(exe), STEPS);
});
