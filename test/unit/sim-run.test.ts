/** End-to-end runs of tensor programs: host C, tensor statements, PCORE kernels, both processes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Project } from '../../core/project/project';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import { nodeLoadWasm } from '../../node/wasm';
import { parseDump } from '../../core/sim/dump';
import { runProgram } from '../../core/sim/run';
import { nodeFs } from '../../cli/nodeFs';

const project = () => new Project({ fs: nodeFs, loadPcore: loadPcoreView });

function tempProgram(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tl-run-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('the test kernel: outbuf = inbuf + 1 over both processes (2048 elements)', async () => {
  const r = await runProgram({
    project: project(),
    file: resolve('examples/test/test.m'),
    loadWasm: nodeLoadWasm,
    dumps: [parseDump('MEM:outbuf:2048:i16'), parseDump('MEM:inbuf:2048:i16')],
  });
  assert.equal(r.error, null, JSON.stringify(r.error));
  const [out, inp] = r.dumps.map((d) => d.values!);
  for (let i = 0; i < 2048; i++) assert.equal(out[i], inp[i] + 1, `element ${i}`);
  assert.equal(inp[0], -1000);
  // both processes: two loads, two kernels, two stores; process 1 runs after process 0 yields (test.m:21:4);
  // ztaJobDone's CALLBACK last
  assert.deepEqual(
    r.trace.map((s) => `${s.kind}@${s.process}`),
    ['transfer@0', 'exe@0', 'yield@0', 'transfer@1', 'exe@1', 'yield@1', 'transfer@0', 'transfer@1', 'callback@0'],
  );
  assert.deepEqual(
    r.trace.map((s) => s.step),
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
  );
  assert.deepEqual([r.trace[2].line, r.trace[2].column, r.trace[5].line], [21, 4, 21]);
  assert.equal(r.trace[1].kernel, 'test::add');
  // and ztaJobDone(0): CALLBACK(0, 0) at test.m's call
  assert.equal(r.summary.statements, 7);
});

test('PCORE dumps read private words of a process page', async () => {
  const r = await runProgram({
    project: project(),
    file: resolve('examples/test/test.m'),
    loadWasm: nodeLoadWasm,
    dumps: [parseDump('PCORE:0.0.test::_Z:8:word12'), parseDump('PCORE@1:7.15.test::_A:8:word12')],
  });
  assert.equal(r.error, null);
  assert.deepEqual(r.dumps[0].values, [-999, -998, -997, -996, -995, -994, -993, -992]);
  // process 1 handles elements 1024..2047: pcore 7 thread 15 holds the last 8 (i - 1000 for i = 2040..2047)
  assert.deepEqual(r.dumps[1].values, [1040, 1041, 1042, 1043, 1044, 1045, 1046, 1047]);
});

test('a run-time fault reports file:line:col and the C call stack', async () => {
  const dir = tempProgram({
    'bad.m':
      '#include <stdint.h>\n' +
      'static void copy(uint32_t p) {\n' +
      '   > DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(0x7fffffff)[0:7];\n' +
      '}\n' +
      'void kernel_bad(void) {\n' +
      '   copy(0x1000);\n' +
      '}\n',
  });
  const r = await runProgram({ project: project(), file: join(dir, 'bad.m'), loadWasm: nodeLoadWasm });
  assert.ok(r.error);
  assert.equal(r.error.line, 3);
  assert.match(r.error.message, /outside MEM/);
  assert.ok(
    r.error.stack.some((f) => f.startsWith('copy')),
    r.error.stack.join(' | '),
  );
  assert.ok(
    r.error.stack.some((f) => f.startsWith('kernel_bad')),
    r.error.stack.join(' | '),
  );
});

test('a transfer fault is reported at the term at fault, with the address as the C program holds it', async () => {
  // the source address is a uint32_t past 0x7fffffff: 0x1000 + 0x7fffff00 = 0x80000f00 (not a negative number)
  const src =
    '#include <stdint.h>\n' +
    'void kernel_src(void) {\n' +
    '   uint32_t p = 0x1000;\n' +
    '   uint32_t bad = p + 0x7fffff00;\n' +
    '   > DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(bad)[0:7];\n' +
    '}\n';
  const dst = '#include <stdint.h>\nvoid kernel_dst(void) {\n   > DTYPE(INT16)MEM(0x3fffff8)[0:7] <=\n   >    DTYPE(INT16)MEM(0x1000)[0:7];\n}\n';
  const dir = tempProgram({ 'src.m': src, 'dst.m': dst });
  const a = await runProgram({ project: project(), file: join(dir, 'src.m'), loadWasm: nodeLoadWasm });
  assert.ok(a.error);
  // line 5 is `   > DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(bad)[0:7];`: the source term starts at column 33
  assert.deepEqual([a.error.line, a.error.column], [5, 33]);
  assert.equal(a.error.message, 'source bytes 0x80000f00..0x80000f0f are outside MEM (size 67108864 bytes)');
  // MEM is 64 MiB = 0x4000000 bytes: the destination's 16 bytes from 0x3fffff8 end 8 bytes past it
  const b = await runProgram({ project: project(), file: join(dir, 'dst.m'), loadWasm: nodeLoadWasm });
  assert.ok(b.error);
  assert.deepEqual([b.error.line, b.error.column], [3, 6]);
  assert.equal(b.error.message, 'destination bytes 0x3fffff8..0x4000007 are outside MEM (size 67108864 bytes)');
  assert.ok(b.error.stack[0].startsWith('kernel_dst'), b.error.stack.join(' | '));
});

test('the summary of a run that stops with an error counts what ran before it', async () => {
  // two 8-element INT16 copies (16 bytes each), then a destination past the end of MEM
  const text =
    '#include <stdint.h>\n' +
    'static int16_t buf[64];\n' +
    'void kernel_main(void) {\n' +
    '   uint32_t p = (uint32_t)&buf[0];\n' +
    '   > DTYPE(INT16)MEM(p)[0:7] <= DTYPE(INT16)MEM(p)[8:15];\n' +
    '   > DTYPE(INT16)MEM(p)[16:23] <= DTYPE(INT16)MEM(p)[8:15];\n' +
    '   > DTYPE(INT16)MEM(0x3fffff8)[0:7] <= DTYPE(INT16)MEM(p)[8:15];\n' +
    '}\n';
  const r = await runProgram({ project: project(), file: join(tempProgram({ 'partial.m': text }), 'partial.m'), loadWasm: nodeLoadWasm });
  assert.ok(r.error);
  assert.equal(r.error.line, 7);
  assert.equal(r.summary.statements, 2);
  assert.equal(r.summary.bytesMoved, 32);
});

test('an unknown library call stops the run with "not simulated"', async () => {
  const dir = tempProgram({ 'nc.m': 'void kernel_nc(void) {\n   mystery_call(3);\n}\n' });
  const r = await runProgram({ project: project(), file: join(dir, 'nc.m'), loadWasm: nodeLoadWasm });
  assert.ok(r.error);
  assert.match(r.error.message, /not simulated/);
  assert.equal(r.error.line, 2);
});

test('the step budget stops an endless loop', async () => {
  const dir = tempProgram({ 'loop.m': 'void kernel_loop(void) {\n   volatile int x = 0;\n   while (1) { x++; }\n}\n' });
  const r = await runProgram({ project: project(), file: join(dir, 'loop.m'), loadWasm: nodeLoadWasm, stepBudget: 100000 });
  assert.ok(r.error);
  assert.equal(r.error.kind, 'budget');
  assert.equal(r.error.line, 3);
});

test('a program with check errors does not run', async () => {
  const r = await runProgram({ project: project(), file: resolve('examples/mistakes/mistakes.m'), loadWasm: nodeLoadWasm });
  assert.ok(r.error);
  assert.equal(r.error.kind, 'compile');
  assert.equal(r.error.line, 10);
});

test('--load fills a C global before the run', async () => {
  const dir = tempProgram({
    'ld.m':
      '#include <stdint.h>\n' +
      'static int16_t src[8];\n' +
      'static int16_t dst[8];\n' +
      'void kernel_ld(void) {\n' +
      '   > DTYPE(INT16)MEM((uint32_t)&dst[0])[0:7] <= DTYPE(INT16)MEM((uint32_t)&src[0])[0:7];\n' +
      '}\n',
  });
  const bytes = new Uint8Array(new Int16Array([5, -6, 7, -8, 9, -10, 11, -12]).buffer);
  const r = await runProgram({
    project: project(),
    file: join(dir, 'ld.m'),
    loadWasm: nodeLoadWasm,
    loads: [{ where: 'src', file: 'in.bin', text: 'src=in.bin', bytes }],
    dumps: [parseDump('MEM:dst:8:i16')],
  });
  assert.equal(r.error, null, JSON.stringify(r.error));
  assert.deepEqual(r.dumps[0].values, [5, -6, 7, -8, 9, -10, 11, -12]);
});
