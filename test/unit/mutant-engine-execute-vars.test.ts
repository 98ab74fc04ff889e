/**
 * Tensor variables, CONCURRENT, REMAP through the guide's PROC and run warnings in TensorExecutor
 * (core/sim/engine/execute.ts), where mutation testing found answers no test pinned. Rules (research §6.5): `$v[x]`
 * with a `[$]` placeholder re-programs only that dimension (begin, step, count from `b`, `b:e` or `b:s:e`, no upper
 * bound check), without a placeholder the definition is re-evaluated and the index ignored; variables are per process,
 * at most 7 live names each. CONCURRENT (§6.4.4) overwrites SCRATCH from byte 0 with the PCORE side's elements in the
 * term's type. REMAP (§6.4.3) applies table n to the PCORE-side value. Expected values are worked out by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import { readI16, writeI16 } from '../helpers/sim';
import { SimError } from '../../core/sim/types';
import { harness, plain } from './helpers/mutant-engine-execute';

/** The error `f` throws, as [message, location as "line:column"]. */
function failure(f: () => void): [string, string | undefined] {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof SimError, String(e));
    return [e.message, e.loc && `${e.loc.line}:${e.loc.column}`];
  }
  assert.fail('no error');
}

const P = 'int16 t::s[4];\nint16 t::big[32];\n_share int16 t::h[4];\n';

test('$v[x] with a [$] placeholder takes rows b, b:e or b:s:e of the definition; without one the index is ignored', () => {
  const a = analyze(
    [
      'void f(int p, int q, int i) {',
      '> $m := DTYPE(INT16)MEM(p,4,3)[$][:];',
      '> $n := DTYPE(INT16)MEM(p,4,3)[1][0:1];',
      '> $c := DTYPE(INT16)PCORE(8)[0].THREAD[0].t::s[1:3];',
      '> DTYPE(INT16)MEM(q)[0:5] <= $m[i:2:i+3];',
      '> DTYPE(INT16)MEM(q)[0:5] <= $m[i:i+1];',
      '> DTYPE(INT16)MEM(q)[0:5] <= $m[i+2:i+3];',
      '> DTYPE(INT16)MEM(q)[0:2] <= $m[i];',
      '> DTYPE(INT16)MEM(q)[0:1] <= $n[i+2];',
      '> DTYPE(INT16)MEM(q)[0:2] <= $c;',
      '}',
      '',
    ].join('\n'),
    P,
  );
  const h = harness(a);
  // a 4×3 INT16 matrix at p: row r, column c holds 3r + c + 1; the 13th..15th elements after it hold 13..15
  writeI16(
    h.m,
    0x1000,
    [...Array(15).keys()].map((k) => k + 1),
  );
  h.m.pages[0].priv.set([30, 40, 50], 1);
  for (let u = 0; u < 3; u++) h.ex.run(u, h.scope({ p: 0x1000, i: 1 }));
  const use = (u: number) => {
    h.m.mem.fill(0, 0x2000, 0x2010);
    h.ex.run(u, h.scope({ p: 0x1000, q: 0x2000, i: 1 }));
    return readI16(h.m.mem, 0x2000, 6);
  };
  // rows 1 and 3 (1:2:4 counts floor(3/2) + 1 = 2 rows)
  assert.deepEqual(use(3), [4, 5, 6, 10, 11, 12]);
  // rows 1..2
  assert.deepEqual(use(4), [4, 5, 6, 7, 8, 9]);
  // rows 3..4: row 4 is past the 4 rows, but a re-programmed dimension has no upper bound check: 13, 14, 15
  assert.deepEqual(use(5), [10, 11, 12, 13, 14, 15]);
  assert.deepEqual(use(6), [4, 5, 6, 0, 0, 0]);
  // $n is [1][0:1] whatever the index: 4, 5
  assert.deepEqual(use(7), [4, 5, 0, 0, 0, 0]);
  // PCORE 0, thread 0, t::s[1..3] = words 1..3
  assert.deepEqual(use(8), [30, 40, 50, 0, 0, 0]);
  assert.deepEqual([...h.ex.tensorVariables(0).keys()], ['$m', '$n', '$c']);
  assert.equal(h.ex.tensorVariables(0).get('$c')!.info.stmt.names![0].text, '$c');
  assert.deepEqual([...h.ex.tensorVariables(1).keys()], []);
  // a use is described by its definition's term, with the run's numbers: $m[i:2:i+3] iterates rows 1:2:3
  const recs = h.ex.statementRecords();
  assert.deepEqual(
    recs.filter((r) => r.kind === 'transfer').map((r) => [r.line, r.src!.summary.slice(1, 3), r.src!.elements]),
    [
      // the definition's MEM(p,4,3) gives the dimensions (the use `$m[...]` has none of its own)
      [5, ['dimensions: 4 × 3', 'iteration (outermost first): p[0] 1:2:3, p[1] 0:2'], 6],
      [6, ['dimensions: 4 × 3', 'iteration (outermost first): p[0] 1:2, p[1] 0:2'], 6],
      [7, ['dimensions: 4 × 3', 'iteration (outermost first): p[0] 3:4, p[1] 0:2'], 6],
      [8, ['dimensions: 4 × 3', 'iteration (outermost first): p[0] 1, p[1] 0:2'], 3],
      [9, ['dimensions: 4 × 3', 'iteration (outermost first): p[0] 1, p[1] 0:1'], 2],
      [10, ['variable: private int16 t::s[4] — 4 words (shape [4]) at word offset 0', 'variable shape: 4'], 3],
    ],
  );
  // definitions are recorded too, but one with a placeholder has no size to show until it is used
  assert.deepEqual(
    recs.filter((r) => r.kind === 'define').map((r) => [r.line, r.runs]),
    [
      [3, 1],
      [4, 1],
    ],
  );
});

test('tensor variables: an index is needed for a placeholder, a name must be defined in the process, 7 names at most', () => {
  const defs = ['$a', '$b', '$c', '$d', '$e', '$f', '$g', '$h'].map((n) => `> ${n} := DTYPE(INT16)MEM(p)[0:1];`);
  const a = analyze(['void f(int p, int q) {', '> $m := DTYPE(INT16)MEM(p,4,3)[$][:];', '> DTYPE(INT16)MEM(q)[0:2] <= $m;', ...defs, '}', ''].join('\n'));
  const h = harness(a);
  const run =
    (u: number, process: 0 | 1 = 0) =>
    () =>
      h.ex.run(u, h.scope({ p: 0x1000, q: 0x2000 }, process));
  // $m is not defined in process 0 yet
  assert.deepEqual(failure(run(1)), ['tensor variable $m has not been defined in process 0', '3:3']);
  run(0)();
  assert.deepEqual(failure(run(1)), ['$m has a [$] placeholder: give its index', '3:3']);
  // $m and $a..$f: 7 names; $g is the 8th
  for (let u = 2; u <= 7; u++) run(u)();
  assert.deepEqual(failure(run(8)), ['more than 7 tensor variables in process 0', '10:3']);
  // a name already defined is redefined; the other process has its own 7
  run(7)();
  run(8, 1)();
  assert.deepEqual([...h.ex.tensorVariables(0).keys()], ['$m', '$a', '$b', '$c', '$d', '$e', '$f']);
  assert.deepEqual([...h.ex.tensorVariables(1).keys()], ['$g']);
  assert.deepEqual(failure(run(1, 1)), ['tensor variable $m has not been defined in process 1', '3:3']);
});

test('CONCURRENT overwrites SCRATCH from byte 0 with the PCORE side in its type, whichever side it is on', () => {
  const a = analyze(
    [
      'void f(int p, int q) {',
      '> CONCURRENT DTYPE(INT16)PCORE(8)[0:1].THREAD[0].t::s[0:1] <= DTYPE(INT16)MEM(p)[0:3];',
      '> DTYPE(UINT8)MEM(q)[0:3] <= CONCURRENT DTYPE(UINT8)PCORE(8)[0:1].THREAD[1].t::s[0:1];',
      '> CONCURRENT DTYPE(INT8)PCORE(8)[2:3].t::h[1:2] <= DTYPE(INT8)MEM(p)[0:3];',
      // thread 16 of PCORE 7 is word 7·4096 + 16·256 = 32768, past the page; member index −2 is word −2
      '> DTYPE(INT16)MEM(q)[0:3] <= CONCURRENT DTYPE(INT16)PCORE(8)[7].THREAD[14:17].t::s[0];',
      '> DTYPE(INT16)MEM(q)[0:3] <= CONCURRENT DTYPE(INT16)PCORE(8)[0].THREAD[0].t::s[-2:1];',
      '}',
      '',
    ].join('\n'),
    P,
  );
  const h = harness(a);
  writeI16(h.m, 0x100, [1, -2, 300, 4]);
  const pr = h.m.pages[0].priv;
  pr.set([-5, 6], 256);
  pr.set([-7, 8], 4096 + 256);
  const scratch = (u: number) => {
    h.m.scratch.fill(0xee, 0, 16);
    h.ex.run(u, h.scope({ p: 0x100, q: 0x200 }));
    return [...h.m.scratch.subarray(0, 10)];
  };
  // INT16 1, −2, 300, 4 little-endian: 01 00, fe ff, 2c 01, 04 00
  assert.deepEqual(scratch(0), [1, 0, 0xfe, 0xff, 0x2c, 1, 4, 0, 0xee, 0xee]);
  // UINT8 of the words −5, 6, −7, 8: their low bytes 251, 6, 249, 8, one byte each
  assert.deepEqual(scratch(1), [251, 6, 249, 8, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee]);
  assert.deepEqual([...h.m.mem.subarray(0x200, 0x204)], [251, 6, 249, 8]);
  // INT8 bytes 01 00 fe ff into shared words of PCOREs 2 and 3 (t::h[1..2]), then back out as bytes
  assert.deepEqual(scratch(2), [1, 0, 0xfe, 0xff, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee]);
  assert.deepEqual(
    [...h.m.pages[0].shared].flatMap((v, i) => (v ? [[i, v]] : [])),
    [
      [2 * 4096 + 1, 1],
      [3 * 4096 + 1, -2],
      [3 * 4096 + 2, -1],
    ],
  );
  pr[7 * 4096 + 14 * 256] = 5;
  pr[7 * 4096 + 15 * 256] = 6;
  pr.set([9, 10], 0);
  // threads 14, 15 hold 5, 6; threads 16, 17 are past the page: 0
  assert.deepEqual(scratch(3), [5, 0, 6, 0, 0, 0, 0, 0, 0xee, 0xee]);
  // words −2, −1 are before the page: 0; words 0, 1 hold 9, 10
  assert.deepEqual(scratch(4), [0, 0, 0, 0, 9, 0, 10, 0, 0xee, 0xee]);
});

test('CONCURRENT of 4096 INT16 elements changes SCRATCH pages 0 and 1; the guide spelling SCATTER(0) does the same', () => {
  const a = analyze('void f(int p) {\n> CONCURRENT DTYPE(INT16)PCORE(8)[0:7].THREAD[0:15].t::big[0:31] <= DTYPE(INT16)MEM(p)[0:4095];\n}\n', P);
  const h = harness(a);
  // 8 PCOREs · 16 threads · 32 words = 4096 elements of value 1: 8192 bytes = SCRATCH pages 0 and 1
  for (let i = 0; i < 4096; i++) h.m.mem[0x1000 + 2 * i] = 1;
  h.m.scratch.fill(0xee);
  h.ex.run(0, h.scope({ p: 0x1000 }));
  assert.deepEqual([h.m.scratch[8190], h.m.scratch[8191], h.m.scratch[8192]], [1, 0, 0xee]);
  assert.deepEqual(h.steps[0].changed.SCRATCH, [0, 1]);
  const g = analyze('void f(int p) {\n> SCATTER(0) PCORE[0].THREAD[0].t::s[0:1] <= DDR(p)[0:1];\n}\n', P, 'guide');
  const hg = harness(g);
  hg.m.scratch.fill(0xee, 0, 16);
  writeI16(hg.m, 0x100, [3, 4]);
  hg.ex.run(0, hg.scope({ p: 0x100 }));
  assert.deepEqual([...hg.m.scratch.subarray(0, 6)], [3, 0, 4, 0, 0xee, 0xee]);
});

test('the guide PROC(n) between the terms remaps on the PCORE side, destination or source', () => {
  const g = analyze(
    'void f(int p, int q) {\n> DDR(q)[0:3] <= PROC(1) <= PCORE[0].THREAD[0].t::s[0:3];\n> PCORE[0].THREAD[1].t::s[0:3] <= PROC(1) <= DDR(p)[0:3];\n}\n',
    P,
    'guide',
  );
  const h = harness(g);
  // table 1: entry k = (slope 32, value 100 + k): y = 100 + k + ((32·r + 16) >> 5) = 100 + k + r for x = 32k + r
  for (let k = 0; k < 128; k++) h.m.spu.set([32, 100 + k], 256 + 2 * k);
  h.m.pages[0].priv.set([5, 33, 64, 0], 0);
  writeI16(h.m, 0x100, [5, 33, 64, 0]);
  h.ex.run(0, h.scope({ q: 0x200 }));
  h.ex.run(1, h.scope({ p: 0x100 }));
  // 5 → 100 + 0 + 5; 33 → 100 + 1 + 1; 64 → 100 + 2 + 0; 0 → 100
  assert.deepEqual(readI16(h.m.mem, 0x200, 4), [105, 102, 102, 100]);
  assert.deepEqual([...h.m.pages[0].priv.subarray(256, 260)], [105, 102, 102, 100]);
});

test('a transfer that clips an index the hardware does not check is a run warning at that term', () => {
  const a = analyze(
    [
      'void f(int p, int q) {',
      '> DTYPE(INT16)MEM(q)[-2:1] <= DTYPE(INT16)MEM(p)[0:3];',
      '> DTYPE(INT16)MEM(q)[0:3] <= DTYPE(INT16)PCORE(8)[0].THREAD[14:17].t::s[0];',
      // the hardware checks a MEM dimension's upper bound: skipped, no warning
      '> DTYPE(INT16)MEM(q,2)[0:3] <= DTYPE(INT16)MEM(p)[0:3];',
      '}',
      '',
    ].join('\n'),
    P,
  );
  const h = harness(a, { warn: true });
  a.units.forEach((_, i) => h.ex.run(i, h.scope({ p: 0x100, q: 0x200 })));
  assert.deepEqual(h.warnings, [
    [
      'dimension 0 of the MEM destination: index -2..1 is outside 0..16777215; the simulator skips those writes, ' +
        "but ztachip's hardware does not check the lower bound of a destination: it writes before the tensor",
      { file: '/t/x.m', line: 2, column: 3 },
    ],
    [
      'THREAD of the source: index 14..17 is outside 0..15; the simulator reads PAD there, ' +
        "but ztachip's hardware does not check thread indices: the access reaches the neighbouring thread or PCORE",
      // "> DTYPE(INT16)MEM(q)[0:3] <= " is 29 characters
      { file: '/t/x.m', line: 3, column: 30 },
    ],
  ]);
  assert.deepEqual(plain(h.steps.map((s) => [s.padded, s.skipped])), [
    [0, 2],
    [2, 0],
    [0, 2],
  ]);
  // without a warning sink the same transfers run
  const quiet = harness(a);
  a.units.forEach((_, i) => quiet.ex.run(i, quiet.scope({ p: 0x100, q: 0x200 })));
  assert.equal(quiet.steps.length, 3);
});

test('a definition keeps its broadcast, PAD and member without indices for every use', () => {
  const a = analyze(
    [
      'void f(int p, int q) {',
      '> $d := DTYPE(INT16)PCORE(8)[0].THREAD[0].t::s;',
      '> $b := DTYPE(INT16)PCORE(8)[*].THREAD[1].t::s[0];',
      '> $b <= INT16(3);',
      '> $p := PAD(9) DTYPE(INT16)MEM(p,2)[0:3];',
      '> DTYPE(INT16)MEM(q)[0:3] <= $p;',
      '> DTYPE(INT16)MEM(q + 8)[0:3] <= $d;',
      '}',
      '',
    ].join('\n'),
    P,
  );
  const h = harness(a);
  writeI16(h.m, 0x100, [1, 2, 3, 4]);
  h.m.pages[0].priv.set([11, 12, 13, 14], 0);
  a.units.forEach((_, u) => h.ex.run(u, h.scope({ p: 0x100, q: 0x200 })));
  // $b broadcasts to thread 1 (word 256) of all 8 PCOREs
  assert.deepEqual(
    [...h.m.pages[0].priv].flatMap((v, i) => (v && i >= 256 ? [i] : [])),
    [0, 1, 2, 3, 4, 5, 6, 7].map((p) => p * 4096 + 256),
  );
  // $p has 2 elements, then PAD(9); $d is all of t::s (4 words) of PCORE 0, thread 0
  assert.deepEqual(readI16(h.m.mem, 0x200, 8), [1, 2, 9, 9, 11, 12, 13, 14]);
});

test('a use without a placeholder re-evaluates the definition with the values at the use; each index text is evaluated once', () => {
  const a = analyze('void f(int p, int q, int r, int i) {\n> $n := DTYPE(INT16)MEM(p,4,3)[r][0:1];\n> DTYPE(INT16)MEM(q)[0:1] <= $n[i];\n}\n');
  const h = harness(a);
  writeI16(
    h.m,
    0x1000,
    [...Array(12).keys()].map((k) => k + 1),
  );
  h.ex.run(0, h.scope({ p: 0x1000, r: 1 }));
  // defined as row 1, used with r = 2: row 2 holds 7, 8
  h.ex.run(1, h.scope({ p: 0x1000, q: 0x2000, r: 2, i: 0 }));
  assert.deepEqual(readI16(h.m.mem, 0x2000, 2), [7, 8]);
  const b = analyze('void f(int p, int q, int i) {\n> $m := DTYPE(INT16)MEM(p,4,3)[$][:];\n> DTYPE(INT16)MEM(q)[0:2] <= $m[i];\n}\n');
  const hb = harness(b);
  hb.ex.run(0, hb.scope({ p: 0x1000 }));
  const seen: string[] = [];
  const sc = hb.scope({ p: 0x1000, q: 0x2000, i: 3 });
  hb.ex.run(1, { ...sc, eval: (t) => (seen.push(t), sc.eval(t)) });
  assert.deepEqual(
    seen.filter((t) => t === 'i'),
    ['i'],
  );
});
