/**
 * How TensorExecutor (core/sim/engine/execute.ts) turns each term of a `>` statement into a side of a transfer, where
 * mutation testing found answers no test pinned: the data type (a name, a run-time code, a constant's own type),
 * MEM/SCRATCH element size and INT16 alignment of a run-time DTYPE, constants, PCORE members and their errors,
 * broadcast (`[*]`) destinations (research §6.4.5), `_global` assignments, PROG, EXE_LOCKSTEP's forms and the step
 * budget of a transfer. PCORE word addresses are pcore·4096 + thread·256 + the member's offset (research §6.1), MEM
 * bytes are little-endian; every expected value is worked out by hand in the comment beside it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';
import { readI16, writeI16 } from '../helpers/sim';
import { encodeExeWord } from '../../core/sim/engine/execute';
import { SimError } from '../../core/sim/types';
import { evaluate } from '../../core/cexpr/evaluate';
import { harness, plain, type Harness } from './helpers/mutant-engine-execute';
import type { HostScope } from '../../core/sim/types';

/** t::s is the only private variable (word offset 0), t::h the only shared one (offset 0). */
const P = '_share int16 t::h[4];\nint16 t::s[4];\n_kernel_ void t::k(_global int g, _global int gh) { }\n_kernel_ void t::j(void) { }\n';

/** The error `f` throws, as [message, kind, location as "line:column"]; its C stack must be the statement's scope's. */
function failure(f: () => void): [string, string, string | undefined] {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof SimError, String(e));
    assert.deepEqual(e.stack_, ['f (/t/x.m:1:1)'], e.message);
    return [e.message, e.kind, e.loc && `${e.loc.line}:${e.loc.column}`];
  }
  assert.fail('no error');
}

/** A program of `>` lines in `void f(params)`, with the PCORE program `pcore`. */
const program = (params: string, lines: string[], pcore = P) => analyze([`void f(${params}) {`, ...lines.map((l) => `> ${l}`), '}', ''].join('\n'), pcore);

/** The non-zero words of a PCORE page as [word address, value]. */
const nonZero = (words: Int16Array) => [...words].flatMap((v, i) => (v ? [[i, v]] : []));

/** A scope that knows only `vars`: no type name or macro is evaluated as C behind the executor's back. */
const only = (vars: Record<string, number>): HostScope => ({
  process: 0,
  stack: () => [],
  eval: (t) => {
    const v = evaluate(t, (n) => vars[n]);
    if (v === undefined) throw new Error(`C text ${t} evaluated`);
    return v;
  },
});

test('DTYPE by name or by a run-time code converts MEM elements to PCORE words by that type', () => {
  const a = program('int p, int d', [
    'DTYPE(d)PCORE(8)[1].THREAD[2].t::s[0:1] <= DTYPE(d)MEM(p)[0:1];',
    'DTYPE(UINT8)PCORE(8)[1].THREAD[2].t::s[0:1] <= DTYPE(UINT8)MEM(p)[0:1];',
  ]);
  // PCORE 1, thread 2, t::s[0]: word 4096 + 2·256 = 4608. MEM bytes ff 01 80 f0.
  // INT16 (3): 0x01ff = 511 (low 11 bits); 0xf080 is negative: (0xf080 & 0x7ff) − 2048 = 128 − 2048 = −1920.
  // INT8 (2): 0xff → −1, 0x01 → 1 (sign-extended bytes). UINT8 (4): 255, 1 (zero-extended).
  const cases: [number, number[]][] = [
    [3, [511, -1920]],
    [2, [-1, 1]],
    [4, [255, 1]],
  ];
  for (const [d, words] of cases) {
    const h = harness(a);
    h.m.mem.set([0xff, 0x01, 0x80, 0xf0], 0x100);
    h.ex.run(0, only({ p: 0x100, d }));
    assert.deepEqual(nonZero(h.m.pages[0].priv), [
      [4608, words[0]],
      [4609, words[1]],
    ]);
  }
  // a type written by name is not evaluated as C
  const h = harness(a);
  h.m.mem.set([0xff, 0x01], 0x100);
  h.ex.run(1, only({ p: 0x100 }));
  assert.deepEqual(nonZero(h.m.pages[0].priv), [
    [4608, 255],
    [4609, 1],
  ]);
});

test('a run-time DTYPE sets the MEM and SCRATCH element size, and aligns an INT16 address down to even', () => {
  const a = analyze('void f(int p, int d) {\n> DTYPE(d)MEM(p)[0:1] <= DTYPE(d)SCRATCH(p)[0:1];\n> DTYPE(d)SCRATCH(p)[0:1] <= DTYPE(d)MEM(p + 16)[0:1];\n}\n');
  const run = (d: number) => {
    const h = harness(a);
    h.m.scratch.set([1, 2, 3, 4, 5, 6], 0x100);
    h.m.mem.set([7, 8, 9, 10, 11], 0x110);
    h.ex.run(0, h.scope({ p: 0x101, d }));
    h.ex.run(1, h.scope({ p: 0x101, d }));
    return {
      mem: [...h.m.mem.subarray(0x100, 0x106)],
      scratch: [...h.m.scratch.subarray(0x100, 0x106)],
      steps: plain(h.steps.map((s) => [s.read, s.written])),
      bytesMoved: h.ex.bytesMoved,
    };
  };
  // the bytes a step read or wrote: [space, first, last] (count = last − first + 1)
  const io = (space: string, lo: number, hi: number) => ({ space, lo, hi, count: hi - lo + 1 });
  // the first and last byte of each step's source (at p + 16 for the second) and destination
  const steps = (first: number, last: number) => [
    [io('SCRATCH', first, last), io('MEM', first, last)],
    [io('MEM', first + 16, last + 16), io('SCRATCH', first, last)],
  ];
  // INT16 (3): both addresses 0x101 → 0x100, two 2-byte elements = bytes 0x100..0x103 (the second source at 0x110)
  // bytes moved: 4 into MEM, 4 into SCRATCH
  assert.deepEqual(run(3), { mem: [1, 2, 3, 4, 0, 0], scratch: [7, 8, 9, 10, 5, 6], steps: steps(0x100, 0x103), bytesMoved: 8 });
  // INT8 (2): 0x101 stays, two 1-byte elements = bytes 0x101..0x102 (the second source at 0x111)
  assert.deepEqual(run(2), { mem: [0, 2, 3, 0, 0, 0], scratch: [1, 8, 9, 4, 5, 6], steps: steps(0x101, 0x102), bytesMoved: 4 });
});

test('constants take their own type and a run-time value; bytes moved count 2 per PCORE word, 1 per MEM byte', () => {
  const a = program('int p, int x', [
    'DTYPE(INT8)PCORE(8)[0].THREAD[0].t::s[0:2] <= INT8(200);',
    'DTYPE(INT16)PCORE(8)[0].THREAD[0].t::s[0:1] <= INT16(x);',
    'DTYPE(INT16)MEM(p)[0:2] <= INT16(x);',
  ]);
  const h = harness(a);
  for (let u = 0; u < 3; u++) h.ex.run(u, h.scope({ p: 0x100, x: 1000 }));
  // INT8(200) is the byte 0xc8 = −56; INT16(1000) = 0x3e8 fits 11 bits: 1000 (over words 0 and 1)
  assert.deepEqual(nonZero(h.m.pages[0].priv), [
    [0, 1000],
    [1, 1000],
    [2, -56],
  ]);
  assert.deepEqual(readI16(h.m.mem, 0x100, 4), [1000, 1000, 1000, 0]);
  // 3 + 2 PCORE words · 2 bytes + 3 INT16 MEM elements · 2 bytes
  assert.equal(h.ex.bytesMoved, 16);
});

test('broadcast PCORE destinations: [*] every PCORE, [*][j] the PCOREs p & (c−1) = j, [i][*] i·c..i·c+c−1, [*][*] all', () => {
  const a = program('void', [
    'DTYPE(INT16)PCORE(8)[*].THREAD[0].t::s[0] <= INT16(7);',
    'DTYPE(INT16)PCORE(2,4)[*][1].THREAD[0].t::s[1] <= INT16(8);',
    'DTYPE(INT16)PCORE(2,4)[1][*].THREAD[0].t::s[2] <= INT16(9);',
    'DTYPE(INT16)PCORE(2,4)[*][*].THREAD[0].t::s[3] <= INT16(10);',
    'DTYPE(INT16)PCORE(2,4)[1][2].THREAD[1].t::s[3] <= INT16(11);',
    'DTYPE(INT16)PCORE(8)[2].t::h[1] <= INT16(-12);',
  ]);
  const h = harness(a);
  a.units.forEach((_, i) => h.ex.run(i, h.scope()));
  const at = (p: number, w: number, v: number) => [p * 4096 + w, v];
  assert.deepEqual(nonZero(h.m.pages[0].priv), [
    at(0, 0, 7),
    at(0, 3, 10),
    at(1, 0, 7),
    // [*][1] of 2×4: PCOREs 1 and 5
    at(1, 1, 8),
    at(1, 3, 10),
    at(2, 0, 7),
    at(2, 3, 10),
    at(3, 0, 7),
    at(3, 3, 10),
    at(4, 0, 7),
    // [1][*] of 2×4: PCOREs 4..7
    at(4, 2, 9),
    at(4, 3, 10),
    at(5, 0, 7),
    at(5, 1, 8),
    at(5, 2, 9),
    at(5, 3, 10),
    at(6, 0, 7),
    at(6, 2, 9),
    at(6, 3, 10),
    // [1][2] of 2×4 is PCORE 6 alone, thread 1: 6·4096 + 256 + 3
    at(6, 256 + 3, 11),
    at(7, 0, 7),
    at(7, 2, 9),
    at(7, 3, 10),
  ]);
  // shared words are per PCORE: PCORE 2, t::h[1]
  assert.deepEqual(nonZero(h.m.pages[0].shared), [[8193, -12]]);
  // each statement moves one element; the words written count every copy: 8 + 2 + 4 + 8 + 1 + 1 = 24 words · 2 bytes
  assert.deepEqual(
    h.steps.map((s) => [s.elements, s.written?.count]),
    [
      [1, 8],
      [1, 2],
      [1, 4],
      [1, 8],
      [1, 1],
      [1, 1],
    ],
  );
  assert.equal(h.ex.bytesMoved, 48);
});

test('PCORE members: a program is needed, the name must be a variable with memory and an offset', () => {
  const a = program(
    'void',
    [
      'DTYPE(INT16)PCORE(8)[0].THREAD[0].t::zz[0] <= INT16(1);',
      'DTYPE(INT16)PCORE(8)[0].THREAD[0].t::k.g[0] <= INT16(1);',
      'DTYPE(INT16)PCORE(8)[0].THREAD[0].u::b[0][0] <= INT16(1);',
      'DTYPE(INT16)SRAM(0)[0] <= INT16(1);',
    ],
    // u::b follows a variable of unknown size: it has no offset
    P + 'vint16 u::a[N];\nvint16 u::b[4];\n',
  );
  const h = harness(a);
  const none = harness(a, { pcore: undefined });
  const cases: [Harness, number, string, string, string][] = [
    [h, 0, 't::zz: `t::zz` is not a variable of the PCORE program', 'compile', '2:3'],
    [h, 1, 't::k.g is not PCORE memory (integer)', 'compile', '3:3'],
    [h, 2, 'u::b has no PCORE memory offset', 'compile', '4:3'],
    [h, 3, 'not simulated: memory space SRAM', 'not-simulated', '5:3'],
    [none, 0, 'no PCORE program: t::zz cannot be resolved (put the .p beside the .m or pass --pcore)', 'compile', '2:3'],
  ];
  for (const [hh, u, ...want] of cases)
    assert.deepEqual(
      failure(() => hh.ex.run(u, hh.scope())),
      want,
    );
  assert.deepEqual(h.steps, []);
});

test('_global assignments: INT16 and INT8 values wrap into their slot; a name that is no _global is refused', () => {
  const a = analyze('void f(int x) {\n> t::k.g <= INT16(x);\n> t::k.gh <= INT8(x);\n> t::s <= INT16(3);\n}\n', P);
  const h = harness(a);
  h.ex.run(0, h.scope({ x: -70000 }));
  h.ex.run(1, h.scope({ x: 1000 }));
  // −70000 + 2·65536 = 61072 = 0xee90 → as int16: 61072 − 65536 = −4464; 1000 = 0x3e8 → byte 0xe8 → −24
  assert.deepEqual(h.m.globals, [-4464, -24]);
  assert.deepEqual(plain(h.steps.map((s) => [s.kind, s.text, s.elements])), [
    ['global', 't::k.g <= INT16(x)', 1],
    ['global', 't::k.gh <= INT8(x)', 1],
  ]);
  assert.deepEqual(
    failure(() => h.ex.run(2, h.scope())),
    ['t::s is not a _global int kernel parameter', 'compile', '4:3'],
  );
  const none = harness(a, { pcore: undefined });
  assert.deepEqual(
    failure(() => none.ex.run(0, none.scope({ x: 1 }))),
    ['no PCORE program for a _global assignment', 'compile', '2:3'],
  );
});

test('PROG records how many entries were loaded and moves nothing', () => {
  const a = analyze('void f(int p) {\n> PROG(4) <= DTYPE(INT16)MEM(p,16)[:];\n}\n');
  const h = harness(a);
  h.ex.run(0, h.scope({ p: 0x100 }));
  assert.equal(h.m.progEntries, 16);
  assert.deepEqual(plain(h.steps), [
    {
      step: 0,
      kind: 'prog',
      file: '/t/x.m',
      line: 2,
      column: 3,
      endLine: 2,
      text: 'PROG(4) <= DTYPE(INT16)MEM(p,16)[:]',
      process: 0,
      elements: 16,
      padded: 0,
      skipped: 0,
      changed: {},
    },
  ]);
  assert.equal(h.ex.bytesMoved, 0);
});

test('a transfer spends one budget step per element before it runs; one that does not fit stops with the budget at 0', () => {
  const a = analyze('void f(int p) {\n> DTYPE(INT16)MEM(p)[0:7] <= INT16(5);\n}\n');
  // 1 for the statement + 8 elements = 9: exactly enough
  const h = harness(a, { steps: 9 });
  h.ex.run(0, h.scope({ p: 0x100 }));
  assert.equal(h.budget.steps, 0);
  assert.deepEqual(readI16(h.m.mem, 0x100, 8), [5, 5, 5, 5, 5, 5, 5, 5]);
  const short = harness(a, { steps: 8 });
  assert.deepEqual(
    failure(() => short.ex.run(0, short.scope({ p: 0x100 }))),
    ['step budget exhausted (raise the step budget setting): this transfer moves 8 elements, each counts as a step', 'budget', '2:3'],
  );
  assert.equal(short.budget.steps, 0);
  // nothing was written
  assert.deepEqual(readI16(short.m.mem, 0x100, 1), [0]);
});

test('EXE_LOCKSTEP: a kernel by name or by code address with PCORE and thread counts, or one command word', () => {
  const a = program('int w, int n, int m, int ka', ['EXE_LOCKSTEP(t::k, 8);', 'EXE_LOCKSTEP(t::j, n, m);', 'EXE_LOCKSTEP(ka, 2);', 'EXE_LOCKSTEP(w);']);
  // kernel code address 1 is t::k, 2 is t::j
  const h = harness(a, { laneOps: 5, kernelByAddress: (x) => ['t::k', 't::j'][x - 1] });
  // ka = 0x20: code address 0x20 >> 4 = 2; w = encodeExeWord(1, 2, 3): kernel 1 on 2 PCOREs × 3 threads
  const vars = { n: 3, m: 4, ka: 0x20, w: encodeExeWord(1, 2, 3) };
  a.units.forEach((_, i) => h.ex.run(i, h.scope(vars, 1)));
  assert.deepEqual(
    h.launches.map((l) => [l.kernel, l.process, l.numPcore, l.numThread, l.at.line]),
    [
      // 16 threads unless given
      ['t::k', 1, 8, 16, 2],
      ['t::j', 1, 3, 4, 3],
      ['t::j', 1, 2, 16, 4],
      ['t::k', 1, 2, 3, 5],
    ],
  );
  assert.deepEqual(plain(h.steps.map((s) => [s.kind, s.text, s.kernel, s.laneOps, s.elements])), [
    ['exe', 'EXE_LOCKSTEP(t::k, 8)', 't::k', 5, 128],
    ['exe', 'EXE_LOCKSTEP(t::j, n, m)', 't::j', 5, 12],
    ['exe', 'EXE_LOCKSTEP(ka, 2)', 't::j', 5, 32],
    ['exe', 'EXE_LOCKSTEP(w)', 't::k', 5, 6],
  ]);
  assert.equal(h.ex.laneOps, 20);
});

test('EXE_LOCKSTEP: counts outside 1..8 PCOREs and 1..16 threads, and addresses or words that name no kernel', () => {
  const a = analyze('void f(int w, int n, int m, int ka) {\n> EXE_LOCKSTEP(t::j, n, m);\n> EXE_LOCKSTEP(ka, 2);\n> EXE_LOCKSTEP(w);\n}\n', P);
  const h = harness(a, { laneOps: 1, kernelByAddress: (x) => ['t::k', 't::j'][x - 1] });
  const counts: [number, number, string][] = [
    [0, 1, 'PCORE count 0 is outside 1..8'],
    [9, 1, 'PCORE count 9 is outside 1..8'],
    [1, 0, 'thread count 0 is outside 1..16'],
    [1, 17, 'thread count 17 is outside 1..16'],
  ];
  for (const [n, m, message] of counts)
    assert.deepEqual(
      failure(() => h.ex.run(0, h.scope({ n, m }))),
      [`EXE_LOCKSTEP: ${message}`, 'fault', '2:3'],
    );
  // the bounds themselves run
  h.ex.run(0, h.scope({ n: 8, m: 16 }));
  h.ex.run(0, h.scope({ n: 1, m: 1 }));
  assert.deepEqual(
    h.launches.map((l) => [l.numPcore, l.numThread]),
    [
      [8, 16],
      [1, 1],
    ],
  );
  // 0x30 >> 4 = 3: no kernel there
  assert.deepEqual(
    failure(() => h.ex.run(1, h.scope({ ka: 0x30 }))),
    ['EXE_LOCKSTEP: ka = 48 is not the address of a kernel of the PCORE program', 'fault', '3:3'],
  );
  // encodeExeWord(5, 1, 1) = 4 + 5·2^7 + 2^23 = 0x800284
  assert.deepEqual(
    failure(() => h.ex.run(2, h.scope({ w: encodeExeWord(5, 1, 1) }))),
    ['EXE_LOCKSTEP(w): command word 0x800284 does not name a kernel of the PCORE program', 'fault', '4:3'],
  );
  // without a PCORE program a kernel is still found by its code address
  const byAddress = harness(a, { pcore: undefined, laneOps: 2, kernelByAddress: (x) => ['t::k', 't::j'][x - 1] });
  byAddress.ex.run(1, byAddress.scope({ ka: 0x10 }));
  assert.deepEqual(
    byAddress.launches.map((l) => [l.kernel, l.numPcore, l.numThread]),
    [['t::k', 2, 16]],
  );
  const none = harness(a, { kernelByAddress: () => 't::j' });
  assert.deepEqual(
    failure(() => none.ex.run(0, none.scope({ n: 1, m: 1 }))),
    ['not simulated: EXE_LOCKSTEP(t::j) — no PCORE program is loaded', 'not-simulated', '2:3'],
  );
  assert.equal(h.steps.length, 2);
});

test('a MEM source and destination in INT16 read back what was written', () => {
  const a = analyze('void f(int p, int q) {\n> DTYPE(INT16)MEM(q)[0:2] <= DTYPE(INT16)MEM(p)[0:2];\n}\n');
  const h = harness(a);
  writeI16(h.m, 0x100, [-1, 300, 7]);
  h.ex.run(0, h.scope({ p: 0x100, q: 0x200 }));
  assert.deepEqual(readI16(h.m.mem, 0x200, 3), [-1, 300, 7]);
  // 3 INT16 elements = 6 bytes
  assert.equal(h.ex.bytesMoved, 6);
});

test('a MEM destination [*] is index 0 once; the guide PCORE[*] (no count) reaches every PCORE; a guide cast is the data type', () => {
  const a = program('int p', ['DTYPE(INT16)MEM(p)[*] <= INT16(5);']);
  const h = harness(a);
  // 0xfff0 + 2 bytes fits MEM: a broadcast of MEM bytes would reach past its end
  h.ex.run(0, h.scope({ p: 0xfff0 }));
  assert.deepEqual(readI16(h.m.mem, 0xfff0, 2), [5, 0]);
  assert.deepEqual(h.steps[0].written, { space: 'MEM', lo: 0xfff0, hi: 0xfff1, count: 2 });
  const g = analyze('void f(int p) {\n> PCORE[*].THREAD[0].t::s[0:1] <= DDR(p)[0:1];\n> PCORE[0].THREAD[1].t::s[0:1] <= (UINT8)DDR(p)[0:1];\n}\n', P, 'guide');
  const hg = harness(g);
  writeI16(hg.m, 0x100, [-1, 2]);
  hg.ex.run(0, hg.scope({ p: 0x100 }));
  hg.ex.run(1, hg.scope({ p: 0x100 }));
  // INT16 −1, 2 into words 0, 1 of every PCORE; (UINT8) reads the bytes ff ff: 255, 255 into thread 1
  assert.deepEqual(nonZero(hg.m.pages[0].priv), [
    ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((p) => [
      [p * 4096, -1],
      [p * 4096 + 1, 2],
      ...(p === 0
        ? [
            [256, 255],
            [257, 255],
          ]
        : []),
    ]),
  ]);
});

test("a member written on a MEM term (the checker's tprog.member-space) is not looked up: the term is MEM", () => {
  const a = program('int p', ['DTYPE(INT16)MEM(p)[0:1].t::zz <= INT16(4);']);
  const h = harness(a);
  h.ex.run(0, h.scope({ p: 0x100 }));
  assert.deepEqual(readI16(h.m.mem, 0x100, 3), [4, 4, 0]);
});
