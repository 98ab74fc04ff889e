/**
 * The per-statement run records (core/sim/engine/statementRuns.ts) driven directly: statements of an analysed
 * program noted with their descriptors as the executor notes them, and the records read back whole — each side's
 * levels, first and last addresses (bytes for MEM/SCRATCH from the base, words for PCORE at pcore·4096 + thread·256 +
 * word), which end is out of bounds (a checked index or the `N(…)` buffer limit), a constant source, the order of
 * the records (file, line, column), the transfer in progress, definitions, sides whose sizes are not numbers, and the
 * caps that keep a record within the protocol's limits. Expected values worked out by hand from the statements.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatementRuns, type RanSide } from '../../core/sim/engine/statementRuns';
import { checkStatementRuns, type StatementRun } from '../../core/protocol/trace';
import type { StmtInfo } from '../../core/tprog/analysis';
import type { Descriptor } from '../../core/tprog/descriptor';
import { analyze, stmts } from '../helpers/tprog';

const P = 'vint16 k::a[4];\nint16 k::b[3];\n_kernel_ void k::run() { }\n';
const [toMem, toPcore, limited, negative] = stmts(
  analyze(
    'void f(void) {\n' +
      '   > DTYPE(INT16)MEM(0x300,16)[0:3] <= INT16(7);\n' +
      '   > DTYPE(INT16)PCORE(2)[0:1].THREAD[1:2].k::b[1:2] <= DTYPE(INT16)SCRATCH(0x40,32)[0:7];\n' +
      '   > DTYPE(INT16)MEM(0x500,8(16))[2:9] <= DTYPE(INT16)MEM(0x600,24)[0:7];\n' +
      '   > DTYPE(INT16)SCRATCH(0x20,4,4)[-1:0][3] <= DTYPE(INT16)MEM(0x600,2,4)[0:1][0];\n' +
      '}\n',
    P,
  ),
);

const ran = (d: Descriptor): RanSide => ({ desc: d, dtype: 'INT16' });
/** Notes `info` once as a transfer of both its sides. */
function noteBoth(sr: StatementRuns, info: StmtInfo, step: number, st = {}): void {
  sr.note(info, 'transfer', step, 0, ran(info.dst!.desc), ran(info.src!.desc), st);
}
/** Every statement at line = its step + 2 of /t/x.m. */
const at = (sr: StatementRuns, lines = new Map<StmtInfo, number>([toMem, toPcore, limited, negative].map((s, k) => [s, k + 2]))) =>
  sr.records((info) => ({ file: '/t/x.m', line: lines.get(info) ?? 0, column: 4 }));
/** A record without its summaries (checked on their own). */
const bare = (r: StatementRun) => ({ ...r, dst: r.dst && { ...r.dst, summary: undefined }, src: r.src && { ...r.src, summary: undefined } });

test('each side with its levels, end addresses and out-of-bounds ends; a constant source; the pairing table', () => {
  const sr = new StatementRuns();
  noteBoth(sr, toMem, 0, { elements: 4 });
  noteBoth(sr, toPcore, 1, { elements: 4 });
  noteBoth(sr, limited, 2, { elements: 8, skipped: 6 });
  noteBoth(sr, negative, 3, { elements: 2, skipped: 1 });
  const rs = checkStatementRuns(at(sr));
  const common = { file: '/t/x.m', column: 4, kind: 'transfer', runs: 1, process: 0, padded: 0 };
  const lvl = (label: string, begin: number, end: number) => ({ label, begin, end, step: 1, count: end - begin + 1 });
  assert.deepEqual(rs.map(bare), [
    {
      ...common,
      line: 2,
      endLine: 2,
      text: 'DTYPE(INT16)MEM(0x300,16)[0:3] <= INT16(7)',
      step: 0,
      elements: 4,
      skipped: 0,
      // INT16 elements 0..3 at 0x300: the last at 0x300 + 3·2
      dst: { space: 'MEM', elements: 4, levels: [lvl('0x300[0]', 0, 3)], dtype: 'INT16', first: 0x300, last: 0x306, summary: undefined },
      // a constant is one element with no level and no address
      src: { space: 'CONST', elements: 1, levels: [], dtype: 'INT16', summary: undefined },
      table: 'MEM       <=  value\n-----------------------\n0x300[0]  <=  7\n0x300[1]  <=  7\n0x300[2]  <=  7\n0x300[3]  <=  7',
    },
    {
      ...common,
      line: 3,
      endLine: 3,
      text: 'DTYPE(INT16)PCORE(2)[0:1].THREAD[1:2].k::b[1:2] <= DTYPE(INT16)SCRATCH(0x40,32)[0:7]',
      step: 1,
      elements: 4,
      skipped: 0,
      // b at word 32 (after a's 4 vectors of 8 words): pcore 0 thread 1 b[1] = 256 + 33, pcore 1 thread 2 b[2] = 4096 + 512 + 34
      dst: {
        space: 'PCORE',
        elements: 8,
        levels: [lvl('PCORE', 0, 1), lvl('THREAD', 1, 2), lvl('b', 1, 2)],
        dtype: 'INT16',
        first: 289,
        last: 4642,
        summary: undefined,
      },
      // SCRATCH bytes from 0x40: 0x40 and 0x40 + 7·2
      src: { space: 'SCRATCH', elements: 8, levels: [lvl('SCRATCH[0]', 0, 7)], dtype: 'INT16', first: 0x40, last: 0x4e, summary: undefined },
      table:
        'PCORE  THREAD  b  <=  SCRATCH\n' +
        '------------------------------------\n' +
        '0      1       1  <=  SCRATCH[0]\n' +
        '0      1       2  <=  SCRATCH[1]\n' +
        '0      2       1  <=  SCRATCH[2]\n' +
        '0      2       2  <=  SCRATCH[3]\n' +
        '1      1       1  <=  SCRATCH[4]\n' +
        '1      1       2  <=  SCRATCH[5]\n' +
        '1      2       1  <=  SCRATCH[6]\n' +
        '1      2       2  <=  SCRATCH[7]',
    },
    {
      ...common,
      line: 4,
      endLine: 4,
      text: 'DTYPE(INT16)MEM(0x500,8(16))[2:9] <= DTYPE(INT16)MEM(0x600,24)[0:7]',
      step: 2,
      elements: 8,
      skipped: 6,
      // element 2 at 0x504 is below the 8-byte limit; element 9 at 0x512 (byte 18 of the buffer) is past it
      dst: { space: 'MEM', elements: 8, levels: [lvl('0x500[0]', 2, 9)], dtype: 'INT16', first: 0x504, last: 0x512, lastOut: true, summary: undefined },
      src: { space: 'MEM', elements: 8, levels: [lvl('0x600[0]', 0, 7)], dtype: 'INT16', first: 0x600, last: 0x60e, summary: undefined },
      table: rs[2].table,
    },
    {
      ...common,
      line: 5,
      endLine: 5,
      text: 'DTYPE(INT16)SCRATCH(0x20,4,4)[-1:0][3] <= DTYPE(INT16)MEM(0x600,2,4)[0:1][0]',
      step: 3,
      elements: 2,
      skipped: 1,
      // rows of 4 INT16: [-1][3] at 0x20 + (−4 + 3)·2 = 0x1e (row −1: out), [0][3] at 0x20 + 6
      dst: {
        space: 'SCRATCH',
        elements: 2,
        levels: [lvl('SCRATCH[0]', -1, 0), lvl('SCRATCH[1]', 3, 3)],
        dtype: 'INT16',
        first: 0x1e,
        last: 0x26,
        firstOut: true,
        summary: undefined,
      },
      src: { space: 'MEM', elements: 2, levels: [lvl('0x600[0]', 0, 1), lvl('0x600[1]', 0, 0)], dtype: 'INT16', first: 0x600, last: 0x608, summary: undefined },
      table: rs[3].table,
    },
  ]);
  assert.deepEqual(rs[0].src!.summary, ['**constant** INT16(7) — every destination element receives this value']);
  assert.equal(rs[1].dst!.summary.at(-1), 'PCORE words (pcore 0, thread 1, word 33) … (pcore 1, thread 2, word 34)');
  assert.equal(rs[2].table!.split('\n')[4], '0x500[4]  <=  0x600[2]  ← destination out of bound: write skipped');
});

test('records in source order: file, then line, then column (a line or column below 1 reads as 1)', () => {
  const sr = new StatementRuns();
  for (const [k, s] of [limited, toMem, negative, toPcore].entries()) noteBoth(sr, s, k);
  const where = new Map<StmtInfo, [string, number, number]>([
    [toMem, ['/b.m', 1, 1]],
    [toPcore, ['/a.m', 5, 2]],
    [limited, ['/a.m', 2, 9]],
    [negative, ['/a.m', 2, 0]],
  ]);
  const rs = sr.records((info) => {
    const [file, line, column] = where.get(info)!;
    return { file, line, column };
  });
  assert.deepEqual(
    rs.map((r) => [r.file, r.line, r.column, r.step]),
    [
      ['/a.m', 2, 1, 2],
      ['/a.m', 2, 9, 0],
      ['/a.m', 5, 2, 3],
      ['/b.m', 1, 1, 1],
    ],
  );
});

test('the transfer in progress: counted with the runs before it, its partial counts, once', () => {
  const sr = new StatementRuns();
  noteBoth(sr, toMem, 0, { elements: 4 });
  noteBoth(sr, toMem, 5, { elements: 4 });
  noteBoth(sr, limited, 6, { elements: 8, padded: 0, skipped: 6 });
  const progress = { done: 3, total: 8, stats: { elements: 3, padded: 1, skipped: 2 } };
  sr.started({ info: limited, step: 9, process: 1, dst: ran(limited.dst!.desc), src: ran(limited.src!.desc), progress });
  const rs = at(sr);
  assert.deepEqual(
    rs.map((r) => [r.line, r.runs, r.step, r.process, r.elements, r.padded, r.skipped, r.running]),
    [
      [2, 2, 5, 0, 4, 0, 0, undefined],
      // its second run, in progress: 3 of 8 moved
      [4, 2, 9, 1, 3, 1, 2, { done: 3, total: 8 }],
    ],
  );
  assert.equal(rs[1].dst!.first, 0x504);
  // a statement that has not run before, in progress with no counts yet
  sr.started({ info: toPcore, step: 10, process: 0, dst: ran(toPcore.dst!.desc), src: ran(toPcore.src!.desc), progress: { done: 0, total: 8, stats: {} } });
  assert.deepEqual(
    at(sr).map((r) => [r.line, r.runs, r.step, r.elements, r.padded, r.skipped, r.running]),
    [
      [2, 2, 5, 4, 0, 0, undefined],
      [3, 1, 10, 0, 0, 0, { done: 0, total: 8 }],
      [4, 1, 6, 8, 0, 6, undefined],
    ],
  );
  // a transfer in progress whose side has no size yet has no record either
  sr.started({ info: toPcore, step: 11, process: 0, dst: ran(unsized(toPcore.dst!.desc)), src: ran(toPcore.src!.desc), progress });
  assert.deepEqual(
    at(sr).map((r) => r.line),
    [2, 4],
  );
  // ended: the records of the completed runs
  sr.started(undefined);
  assert.deepEqual(
    at(sr).map((r) => [r.line, r.runs, r.running]),
    [
      [2, 2, undefined],
      [4, 1, undefined],
    ],
  );
});

/** The descriptor with its first level's count not known (a `[$]` placeholder). */
function unsized(d: Descriptor): Descriptor {
  return { ...d, levels: d.levels.map((l, k) => (k === 0 ? { ...l, count: undefined } : l)) };
}

test('a definition has its source and no table; a side that is missing is left out, one that has no size drops the record', () => {
  const sr = new StatementRuns();
  sr.note(toMem, 'define', 0, 0, undefined, ran(toMem.dst!.desc), {});
  sr.note(toPcore, 'transfer', 1, 0, ran(toPcore.dst!.desc), undefined, { elements: 8 });
  sr.note(limited, 'define', 2, 0, ran(limited.dst!.desc), ran(limited.src!.desc), {});
  const rs = at(sr);
  assert.deepEqual(
    rs.map((r) => [r.line, r.kind, r.dst?.first, r.src?.first, 'table' in r]),
    [
      // the definition's source: MEM 0x300 (the statement's destination descriptor, noted as its source)
      [2, 'define', undefined, 0x300, false],
      [3, 'transfer', 289, undefined, false],
      [4, 'define', 0x504, 0x600, false],
    ],
  );
  assert.equal('dst' in rs[0], false);
  assert.equal('src' in rs[1], false);
  // sizes that are not numbers: none of these records is made
  const d = toMem.dst!.desc;
  const lv = d.levels[0];
  for (const bad of [
    { ...d, total: undefined },
    { ...d, total: 2 ** 60 },
    { ...d, levels: [{ ...lv, begin: undefined }] },
    { ...d, levels: [{ ...lv, step: undefined }] },
    { ...d, levels: [{ ...lv, count: undefined }] },
    { ...d, levels: [{ ...lv, begin: 2 ** 60 }] },
    { ...d, levels: [{ ...lv, step: 0.5 }] },
    { ...d, levels: [{ ...lv, count: 2 ** 60 }] },
  ]) {
    const one = new StatementRuns();
    one.note(toMem, 'transfer', 0, 0, ran(bad), ran(toMem.src!.desc), {});
    one.note(toPcore, 'transfer', 1, 0, ran(toPcore.dst!.desc), ran(bad), {});
    assert.deepEqual(at(one), [], JSON.stringify(bad.levels[0]));
  }
});

test('the run gives the data type DTYPE leaves to run time; the end addresses need strides, a base and safe numbers', () => {
  const sr = new StatementRuns();
  const d = toMem.dst!.desc;
  // DTYPE(t) with a variable t: the run's INT16
  sr.note(toMem, 'transfer', 0, 0, ran({ ...d, dtype: undefined, dtypeText: 't' }), ran(toMem.src!.desc), {});
  const [r] = at(sr);
  assert.equal(r.dst!.dtype, 'INT16');
  assert.deepEqual([r.dst!.first, r.dst!.last], [0x300, 0x306]);
  // no address of its ends: a stride not known, a MEM base not known, a location past 2^53
  for (const side of [
    { ...d, levels: d.levels.map((l) => ({ ...l, stride: undefined })) },
    { ...d, base: undefined },
    { ...d, levels: d.levels.map((l) => ({ ...l, stride: 2 ** 60 })) },
  ]) {
    const one = new StatementRuns();
    one.note(toMem, 'transfer', 0, 0, ran(side), ran(toMem.src!.desc), {});
    const [x] = at(one);
    assert.deepEqual([x.dst!.elements, 'first' in x.dst!, 'last' in x.dst!], [4, false, false]);
  }
  // a PCORE side whose member offset is not known has no word address either
  const p = toPcore.dst!.desc;
  const pc = new StatementRuns();
  pc.note(toPcore, 'transfer', 0, 0, ran({ ...p, base: undefined }), ran(toPcore.src!.desc), {});
  const [w] = at(pc);
  assert.deepEqual([w.dst!.elements, 'first' in w.dst!, 'last' in w.dst!], [8, false, false]);
});

test('a very long statement: its text, level labels and summary lines cut to what the protocol carries, the table too', () => {
  // an address expression of 33205 characters (0x100 + 8300 × "+0*0") in both terms: a statement of 66466 characters
  const addr = '0x100' + '+0*0'.repeat(8300);
  const [long] = stmts(analyze(`void f(void) {\n   > DTYPE(UINT8)MEM(${addr},16)[0:15] <= DTYPE(UINT8)MEM(${addr},16)[0:15];\n}\n`));
  const sr = new StatementRuns();
  sr.note(long, 'transfer', 0, 0, { desc: long.dst!.desc, dtype: 'UINT8' }, { desc: long.src!.desc, dtype: 'UINT8' }, {});
  // the protocol's check of the table passes (it failed on the 33208-character label)
  const [r] = checkStatementRuns(sr.records(() => ({ file: '/t/x.m', line: 2, column: 4 })));
  // text: 65535 characters and '…'
  assert.equal(r.text, `DTYPE(UINT8)MEM(${addr},16)[0:15] <= DTYPE(UINT8)MEM(${addr},16)[0:15]`.slice(0, 65535) + '…');
  // label: 255 characters and '…'
  assert.equal(r.dst!.levels[0].label, `${addr}[0]`.slice(0, 255) + '…');
  // summary lines: those longer than 4000 characters cut to 4000 and '…', the others whole
  assert.deepEqual(
    r.dst!.summary.map((x) => x.length),
    [40, 14, 4001, 35, 33],
  );
  // (the Markdown line escapes each `*`)
  assert.equal(r.dst!.summary[2], `iteration (outermost first): ${addr.replaceAll('*', '\\*')}[0] 0:15`.slice(0, 4000) + '…');
  // the table: its first 65536 characters (the header `MEM` padded to the 33208-character destination column, its rule, …)
  assert.equal(r.table!.length, 1 << 16);
  assert.match(r.table!, /^MEM {33200}/);
  assert.deepEqual([r.dst!.first, r.dst!.last], [0x100, 0x10f]);
});

test('the buffer limit: the last element starting at the limit is out, the one before it in; PCORE words have no buffer limit', () => {
  // INT16 elements of an 8-byte buffer at 0x500: [3:4] ends with element 4 at byte 8 = the limit (out); [0:3] ends at byte 6 (in)
  const [edge, inside] = stmts(
    analyze(
      'void f(void) {\n' +
        '   > DTYPE(INT16)MEM(0x500,8(16))[3:4] <= DTYPE(INT16)MEM(0x600,24)[0:1];\n' +
        '   > DTYPE(INT16)MEM(0x500,8(16))[0:3] <= DTYPE(INT16)MEM(0x600,24)[0:3];\n' +
        '}\n',
    ),
  );
  const sr = new StatementRuns();
  noteBoth(sr, edge, 0, { elements: 2, skipped: 1 });
  noteBoth(sr, inside, 1, { elements: 4 });
  // a PCORE side given a buffer limit of 1 word by hand: its word addresses are not held to it
  sr.note(toPcore, 'transfer', 2, 0, ran({ ...toPcore.dst!.desc, bufLimit: 1 }), ran(toPcore.src!.desc), {});
  const rs = at(
    sr,
    new Map([
      [edge, 2],
      [inside, 3],
      [toPcore, 4],
    ]),
  );
  assert.deepEqual(
    rs.map((r) => [r.dst!.first, r.dst!.last, r.dst!.firstOut, r.dst!.lastOut]),
    [
      [0x506, 0x508, undefined, true],
      [0x500, 0x506, undefined, undefined],
      [289, 4642, undefined, undefined],
    ],
  );
});

test('only MEM, SCRATCH and PCORE sides have end addresses: not an SPU table, even with a base', () => {
  // SPU: one flat level of 2 tables × 256 words
  const [spu] = stmts(analyze('void f(void) {\n   > DTYPE(INT16)MEM(0x300,512)[0:511] <= SPU(2);\n}\n'));
  const sr = new StatementRuns();
  sr.note(spu, 'transfer', 0, 0, ran(spu.dst!.desc), ran({ ...spu.src!.desc, base: 0 }), {});
  const [r] = at(sr, new Map([[spu, 2]]));
  assert.deepEqual(bare(r).src, {
    space: 'SPU',
    dtype: 'INT16',
    elements: 512,
    levels: [{ label: 'SPU', begin: 0, end: 511, step: 1, count: 512 }],
    summary: undefined,
  });
});

test('a label of exactly 255 characters is kept whole, one of 256 is cut', () => {
  // '0x10' and 62 × '+0*0': 252 characters; the labels `…[0]` and `…[1]` of MEM(addr,4,4) are 255 characters
  const addr = '0x10' + '+0*0'.repeat(62);
  const wide = addr + '+0';
  const [s] = stmts(analyze(`void f(void) {\n   > DTYPE(UINT8)MEM(${addr},4,4)[0][0:3] <= DTYPE(UINT8)MEM(${wide},4,4)[1][0:3];\n}\n`));
  const sr = new StatementRuns();
  sr.note(s, 'transfer', 0, 0, { desc: s.dst!.desc, dtype: 'UINT8' }, { desc: s.src!.desc, dtype: 'UINT8' }, {});
  const [r] = at(sr, new Map([[s, 2]]));
  assert.deepEqual(
    r.dst!.levels.map((l) => l.label),
    [`${addr}[0]`, `${addr}[1]`],
  );
  assert.equal(r.dst!.levels[0].label.length, 255);
  // 257 characters: the first 255 and '…'
  assert.deepEqual(
    r.src!.levels.map((l) => l.label),
    [`${wide}[0]`.slice(0, 255) + '…', `${wide}[1]`.slice(0, 255) + '…'],
  );
});
