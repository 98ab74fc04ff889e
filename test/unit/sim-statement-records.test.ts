/**
 * The statement records a run leaves (TensorExecutor.statementRecords through RunResult.statements, what hovers and
 * inlay hints show after a run): how many times a `>` transfer ran, the counts and the sides resolved by its last run
 * (levels with their begin/end, first and last addresses, which of them is out of bounds), all worked out by hand
 * for buf at 0x1000 (the first global of MEM).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runFile, tempTree } from '../helpers/run';
import { bufProgram } from '../helpers/bufProgram';

const TEXT = bufProgram([
  '   int i;',
  '   for (i = 0; i < 3; i++) {',
  '      > DTYPE(INT16)MEM(p,2,4)[0:2][0:3] <= PAD(7) DTYPE(INT16)MEM(p+64,10)[i:i+8];',
  '   }',
  '   int k = -1;',
  '   > DTYPE(INT16)MEM(p+64)[0:1] <= DTYPE(INT16)MEM(p,2,4)[k:k+1][1];',
]);

test('records: runs, last counts and the last run resolved sides with their end addresses', async () => {
  const dir = tempTree({ 's.m': TEXT });
  const r = await runFile(join(dir, 's.m'));
  assert.equal(r.error, null);
  const recs = r.statements();
  assert.equal(recs.length, 2);
  const [loop, once] = recs;
  assert.deepEqual([loop.line, loop.column, loop.endLine, loop.kind], [7, 9, 7, 'transfer']);
  assert.equal(loop.text, 'DTYPE(INT16)MEM(p,2,4)[0:2][0:3] <= PAD(7) DTYPE(INT16)MEM(p+64,10)[i:i+8]');
  // three runs; the last is trace step 2 (steps 0, 1, 2)
  assert.deepEqual([loop.runs, loop.step, loop.process], [3, 2, 0]);
  // i = 2: source elements 2..10 of 10 — 10 is out (PAD), and 9 source elements for 12 destination elements: 3
  // exhausted (PAD); destination row 2 of 2 rows: 4 writes skipped
  assert.deepEqual([loop.elements, loop.padded, loop.skipped], [12, 4, 4]);
  const dst = loop.dst!;
  assert.equal(dst.space, 'MEM');
  assert.equal(dst.dtype, 'INT16');
  assert.equal(dst.elements, 12);
  assert.deepEqual(dst.levels, [
    { label: 'p[0]', begin: 0, end: 2, step: 1, count: 3 },
    { label: 'p[1]', begin: 0, end: 3, step: 1, count: 4 },
  ]);
  // first p[0][0] = 0x1000; last p[2][3] = 0x1000 + (2·4 + 3)·2 = 0x1016, out of bounds
  assert.equal(dst.first, 0x1000);
  assert.equal(dst.last, 0x1016);
  assert.equal(dst.firstOut, undefined);
  assert.equal(dst.lastOut, true);
  const src = loop.src!;
  assert.equal(src.elements, 9);
  assert.deepEqual(src.levels, [{ label: 'p+64[0]', begin: 2, end: 10, step: 1, count: 9 }]);
  // 0x1040 + 2·2 and 0x1040 + 10·2 (element 10 of 10: out)
  assert.deepEqual([src.first, src.last, src.firstOut, src.lastOut], [0x1044, 0x1054, undefined, true]);
  assert.ok(loop.table?.includes('p[2][0]  <=  p+64[10]'));

  assert.deepEqual([once.line, once.runs, once.step], [10, 1, 3]);
  // source rows −1 and 0 of column 1: the first is out of bounds (PAD), the second read
  assert.deepEqual([once.elements, once.padded, once.skipped], [2, 1, 0]);
  // first p[-1][1] = 0x1000 + (−4 + 1)·2 = 0xffa; last p[0][1] = 0x1002
  assert.deepEqual([once.src!.first, once.src!.last, once.src!.firstOut, once.src!.lastOut], [0xffa, 0x1002, true, undefined]);
  assert.deepEqual(once.src!.levels, [
    { label: 'p[0]', begin: -1, end: 0, step: 1, count: 2 },
    { label: 'p[1]', begin: 1, end: 1, step: 1, count: 1 },
  ]);
  assert.deepEqual([once.dst!.first, once.dst!.last, once.dst!.firstOut, once.dst!.lastOut], [0x1040, 0x1042, undefined, undefined]);
});
