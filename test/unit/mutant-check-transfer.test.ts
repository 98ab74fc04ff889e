/**
 * Transfers and tensor variables, as mutation testing (npm run mutate -- check) found them unasserted: a `_global`
 * parameter as a source, a constant as a destination, data types (the UINT8 hint for constants, SCRATCH as INT16),
 * out-of-bound reads and writes together, an unknown kernel in a global assignment, a variable whose scope has closed,
 * and the slot a new variable takes once a scope has freed one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';

const P = `
vint16 k::a[4];
_kernel_ void k::run(_global int g, int16 bias) { _VMASK = -1; }
`;
const program = (body: string) => `#include <stdint.h>\nvoid f(uint32_t p, uint32_t q) {\n${body}\n}\n`;

/** [code, severity, line, start, end, message] of every diagnostic. */
function found(body: string): [string, string, number, number, number, string][] {
  return analyze(program(body), P, 'ztachip').diagnostics.map((d) => [
    d.code,
    d.severity,
    d.range.start.line,
    d.range.start.character,
    d.range.end.character,
    d.message,
  ]);
}

test('a _global parameter cannot be read; a constant cannot be written', () => {
  assert.deepEqual(found('> DTYPE(INT16)MEM(p)[0:7] <= k::run.g;'), [
    ['tprog.global-source', 'error', 2, 29, 37, 'A kernel `_global` parameter cannot be read by a transfer (it is a register, not memory)'],
  ]);
  assert.deepEqual(found('> INT16(3) <= DTYPE(INT16)MEM(q)[0:0];'), [['tprog.const-dest', 'error', 2, 2, 10, 'A constant cannot be a destination']]);
});

test('data types: a constant into UINT8 says how to fill the buffer; SCRATCH is INT16', () => {
  assert.deepEqual(found('> DTYPE(UINT8)MEM(p)[0:7] <= INT16(3);'), [
    [
      'tprog.dtype-mismatch',
      'error',
      2,
      26,
      28,
      'Left and right term must have same data type: destination is UINT8, source is INT16. A constant is INT16 or INT8: write the destination as ' +
        'DTYPE(INT8) to fill a UINT8 buffer.',
    ],
  ]);
  assert.deepEqual(found('> SCRATCH(0)[0:7] <= DTYPE(INT8)MEM(q)[0:7];'), [
    ['tprog.dtype-mismatch', 'error', 2, 18, 20, 'Left and right term must have same data type: destination is INT16, source is INT8.'],
  ]);
  assert.deepEqual(found('> SCRATCH(0)[0:7] <= DTYPE(INT16)MEM(q)[0:7];'), []);
});

test('out-of-bound reads and writes of one transfer, each counted on its own term', () => {
  // destination MEM(p,4)[0:7]: elements 4..7 are past 4; source MEM(q,8)[2:9]: 8 and 9 are past 8
  assert.deepEqual(found('> DTYPE(INT16)MEM(p,4)[0:7] <= DTYPE(INT16)MEM(q,8)[2:9];'), [
    ['tprog.read-padding', 'warning', 2, 31, 56, '2 of 8 source elements are out of bounds and read as padding (0)'],
    ['tprog.write-skipped', 'warning', 2, 2, 28, '4 of 8 destination elements are out of bounds: those writes are skipped'],
  ]);
});

test('a global assignment to a kernel that does not exist', () => {
  assert.deepEqual(found('> k::zz.g <= INT16(4);'), [
    ['tprog.undefined-global', 'error', 2, 2, 9, 'Undefined variable: `k::zz` is not a function of the PCORE program'],
  ]);
});

test('a variable used after its scope closed says so; a later variable takes the freed slot', () => {
  assert.deepEqual(found('{\n> $a := DTYPE(INT16)MEM(q)[0:7];\n}\n> DTYPE(INT16)MEM(p)[0:7] <= $a;'), [
    [
      'tprog.undefined-var',
      'error',
      5,
      29,
      31,
      'Variable has not been defined: $a was defined in a scope that has closed (declare it with `> VAR $a;` in the enclosing block)',
    ],
  ]);
  const a = analyze(program('> $x := DTYPE(INT16)MEM(q)[0:7];\n{\n> $a := DTYPE(INT16)MEM(q)[0:7];\n}\n> $b := DTYPE(INT16)MEM(q)[0:7];'), P, 'ztachip');
  assert.deepEqual(
    a.varDefs.map((d) => [d.name, d.slot]),
    [
      ['$x', 0],
      ['$a', 1],
      ['$b', 1],
    ],
  );
  assert.deepEqual(
    a.diagnostics.map((d) => d.code),
    [],
  );
});

test('data types per dialect: the guide implies INT16, the compiler requires DTYPE; PROC is an error for the compiler', () => {
  const guide = (body: string) =>
    analyze(program(body), P, 'guide')
      .diagnostics.filter((d) => d.code === 'tprog.dtype-mismatch')
      .map((d) => [d.range.start.character, d.message]);
  assert.deepEqual(guide('> DDR(p)[0:7] <= DTYPE(INT8)DDR(q)[0:7];'), [
    [14, 'Left and right term must have same data type: destination is INT16, source is INT8.'],
  ]);
  assert.deepEqual(guide('> DTYPE(INT8)DDR(p)[0:7] <= DDR(q)[0:7];'), [
    [25, 'Left and right term must have same data type: destination is INT8, source is INT16.'],
  ]);
  assert.deepEqual(guide('> DDR(p)[0:7] <= DDR(q)[0:7];'), []);
  // no type on either side in the compiler's dialect: no-dtype errors, no mismatch
  assert.deepEqual(
    found('> MEM(p)[0:7] <= DTYPE(INT8)MEM(q)[0:7];').map((d) => d[0]),
    ['tprog.no-dtype'],
  );
  // UINT8 and INT8 between memories: no constant hint
  assert.deepEqual(found('> DTYPE(UINT8)MEM(p)[0:7] <= DTYPE(INT8)MEM(q)[0:7];'), [
    ['tprog.dtype-mismatch', 'error', 2, 26, 28, 'Left and right term must have same data type: destination is UINT8, source is INT8.'],
  ]);
  // PROG and SPU destinations take any source type
  assert.deepEqual(found('> DTYPE(INT16)PROG(2) <= DTYPE(INT8)MEM(q)[0:7];'), []);
  const proc = found('> DTYPE(INT16)MEM(p)[0:63] <= PROC(1) <= DTYPE(INT16)PCORE(8)[:][0].k::a[0][:];');
  assert.deepEqual(
    proc.map((d) => d.slice(0, 5)),
    [['tprog.guide-proc', 'error', 2, 30, 38]],
  );
  assert.match(proc[0][5], /^Unrecognized memory space: PROC is the guide's spelling/);
});
