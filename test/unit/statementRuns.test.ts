/**
 * The per-statement table of run values (core/sim/engine/statementRuns.ts): one record per `>` statement
 * with how many times it ran and its last execution's resolved sides, against values computed by hand
 * from the fixture's request (in = 0x40000, out = 0x50000, w = 40, h = 3); and how the editor words them
 * (core/tprog/features/runValues.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkStatementRuns, type StatementRun } from '../../core/protocol/trace';
import { runHover, runInlay } from '../../core/tprog/features/runValues';
import { runFile, tempTree } from '../helpers/run';

const FIXTURE = join(__dirname, '..', 'fixtures', 'run-values', 'rows.m');

async function records(file: string, o: Parameters<typeof runFile>[1] = {}): Promise<StatementRun[]> {
  const r = await runFile(file, o);
  assert.equal(r.error, null, r.error?.message);
  // what crosses to the server conforms to the protocol's schema
  return checkStatementRuns(r.statements());
}

test('one record per statement: execution count, last step, elements and each side with the run values', async () => {
  const rs = await records(FIXTURE);
  assert.deepEqual(
    rs.map((r) => [r.line, r.column, r.kind, r.runs, r.step, r.process]),
    [
      [13, 9, 'transfer', 3, 2, 0], // the loop's transfer ran for r = 0, 1, 2 (steps 0..2)
      [15, 6, 'transfer', 1, 3, 0],
      [16, 6, 'define', 1, 4, 0],
      [17, 6, 'transfer', 1, 5, 0],
    ],
  );
  const [row, padded, def, fromVar] = rs;
  assert.equal(row.file, FIXTURE);
  assert.equal(row.text, 'DTYPE(UINT8)MEM(req->out,req->h,req->w)[r][0:req->w-1] <= DTYPE(UINT8)MEM(req->in,req->h,req->w)[r][0:req->w-1]');
  // the last execution: r = 2, one row of 40 bytes at row offset 2·40 = 80 = 0x50
  assert.deepEqual([row.elements, row.padded, row.skipped], [40, 0, 0]);
  assert.deepEqual(row.dst!.levels, [
    { label: 'req->out[0]', begin: 2, end: 2, step: 1, count: 1 },
    { label: 'req->out[1]', begin: 0, end: 39, step: 1, count: 40 },
  ]);
  assert.deepEqual([row.dst!.space, row.dst!.dtype, row.dst!.elements, row.dst!.first, row.dst!.last], ['MEM', 'UINT8', 40, 0x50050, 0x50077]);
  assert.deepEqual([row.src!.first, row.src!.last], [0x40050, 0x40077]);
  assert.ok(row.dst!.summary.includes('bytes 0x50050–0x50077 (40 bytes span)'), row.dst!.summary.join('\n'));
  assert.ok(row.src!.summary.includes('bytes 0x40050–0x40077 (40 bytes span)'), row.src!.summary.join('\n'));
  assert.deepEqual(row.table!.split('\n').slice(2, 4), ['req->out[2][0]   <=  req->in[2][0]', 'req->out[2][1]   <=  req->in[2][1]']);
  assert.equal(row.table!.split('\n').pop(), '… 24 more (40 elements in all)');

  // INT16, step 2 (20 columns), source rows 1..3 of 3: row 3 (20 elements) is PAD 7
  assert.deepEqual([padded.elements, padded.padded, padded.skipped], [60, 20, 0]);
  assert.deepEqual(
    padded.src!.levels.map((l) => [l.begin, l.end, l.step, l.count]),
    [
      [1, 3, 1, 3],
      [0, 38, 2, 20],
    ],
  );
  // element (i, j) of a 3×40 INT16 tensor at base b is at b + 2·(40·i + j)
  assert.deepEqual([padded.dst!.first, padded.dst!.last, padded.dst!.lastOut], [0x50100, 0x50100 + 2 * (40 * 2 + 38), undefined]);
  assert.deepEqual(
    [padded.src!.first, padded.src!.last, padded.src!.firstOut, padded.src!.lastOut],
    [0x40100 + 2 * 40, 0x40100 + 2 * (40 * 3 + 38), undefined, true],
  );
  assert.ok(padded.src!.summary.includes('out of bounds: 20 elements'));
  assert.equal(padded.table!.split('\n')[2], 'req->out+0x100[0][0]   <=  req->in+0x100[1][0]');

  // the definition: a descriptor of the whole 3×40 input; no table (nothing moves)
  assert.deepEqual([def.src!.elements, def.src!.first, def.src!.last, def.dst, def.table], [120, 0x40000, 0x40077, undefined, undefined]);
  // a use of $t is described by its definition's term
  assert.equal(fromVar.src!.levels[0].label, 'req->in[0]');
  assert.deepEqual([fromVar.elements, fromVar.dst!.first, fromVar.dst!.last], [120, 0x50200, 0x50277]);
});

test('a statement in a loop of many executions keeps one record; its values are the last execution', async () => {
  const dir = tempTree({
    'loop.m':
      '#include <stdint.h>\n' +
      'static uint8_t a[64];\n' +
      'void main(void) {\n' +
      '   for (int i = 0; i < 1000; i++) {\n' +
      '      int n = (i % 7) + 1;\n' +
      '      > DTYPE(UINT8)MEM((uint32_t)&a[0],64)[0:n-1] <= DTYPE(UINT8)MEM((uint32_t)&a[0],64)[8:8+n-1];\n' +
      '   }\n' +
      '}\n',
  });
  const rs = await records(join(dir, 'loop.m'));
  assert.equal(rs.length, 1);
  // i = 999 = 7·142 + 5: n = 6
  assert.deepEqual([rs[0].runs, rs[0].step, rs[0].elements, rs[0].dst!.levels[0].end], [1000, 999, 6, 5]);
  assert.equal(rs[0].src!.last! - rs[0].src!.first!, 5);
});

test('a definition with a [$] placeholder has no size of its own: no record for it, its uses have one', async () => {
  const dir = tempTree({
    'ph.m':
      '#include <stdint.h>\n' +
      'static uint8_t a[64];\n' +
      'void main(void) {\n' +
      '   > $v := DTYPE(UINT8)MEM((uint32_t)&a[0],8,8)[$][0:7];\n' +
      '   > DTYPE(UINT8)MEM((uint32_t)&a[0],8,8)[0][0:7] <= $v[3];\n' +
      '}\n',
  });
  const rs = await records(join(dir, 'ph.m'));
  assert.deepEqual(
    rs.map((r) => [r.line, r.kind]),
    [[5, 'transfer']],
  );
  // row 3 of the 8×8 bytes: offsets 24..31 from a
  assert.equal(rs[0].src!.last! - rs[0].src!.first!, 7);
  assert.deepEqual(
    rs[0].src!.levels.map((l) => [l.begin, l.end]),
    [
      [3, 3],
      [0, 7],
    ],
  );
});

test('the hover section and inlay hint word the record, marked with the given label', async () => {
  const [row, padded, def] = await records(FIXTURE);
  const md = runHover(row, 'last run');
  assert.ok(md.startsWith('---\n\n**last run** — ran 3 times; the last time (trace step 2, pid 0): **40** elements (1×40), 0 padded, 0 skipped\n\n'), md);
  assert.match(md, /destination — \*\*MEM\*\* external memory/);
  assert.match(md, /first element at 0x50050, last at 0x50077/);
  assert.match(md, /source — [^]*first element at 0x40050, last at 0x40077/);
  assert.match(md, /```\nMEM {14}<= {2}MEM\n/);
  assert.match(runHover(padded, 'at this stop'), /^---\n\n\*\*at this stop\*\* — ran once; [^]*\*\*60\*\* elements \(3×20\), 20 padded, 0 skipped/);
  assert.match(runHover(padded, 'x'), /last at 0x4023c \(outside the bounds: not accessed\)/);
  assert.deepEqual(runInlay(row, 'run')?.label, '⟨run: 40 elements, 1×40⟩');
  assert.deepEqual(runInlay(padded, 'at this stop')?.label, '⟨at this stop: 60 elements, 3×20⟩');
  assert.match(runInlay(padded, 'run')!.tooltip, /^ran once; the last time \(trace step 3, pid 0\): moved 60 elements of INT16, 20 padded; iteration/);
  assert.deepEqual(runInlay(def, 'run')?.label, '⟨run: ≔ 120 elements, 3×40⟩');
});
