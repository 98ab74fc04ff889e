/** `tensor-lens run` (cli/run.ts): --json output, dumps and loads, error format and exit statuses. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runRun } from '../../cli/run';
import { main } from '../../cli/main';
import { UsageError } from '../../cli/args';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runRun(
    argv,
    (s) => out.push(s),
    (s) => err.push(s),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('--json: summary, trace, dumps in command-line order, no error', async () => {
  const r = await cli(
    resolve('examples/test/test.m'),
    '--json',
    '--dump',
    'MEM:outbuf:4:i16',
    '--dump',
    'PCORE@1:7.15.test::_Z:2:word12',
    '--dump',
    'MEM:inbuf+2046:2:i16',
  );
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.error, null);
  assert.equal(j.entry, 'kernel_test');
  // ztaJobDone(0) at the end is the runtime library's CALLBACK(0, 0)
  assert.equal(j.summary.statements, 7);
  assert.deepEqual(
    j.trace.map((s: { kind: string }) => s.kind),
    ['transfer', 'exe', 'yield', 'transfer', 'exe', 'yield', 'transfer', 'transfer', 'callback'],
  );
  assert.deepEqual(j.dumps, [
    { space: 'MEM', where: 'outbuf', dtype: 'i16', values: [-999, -998, -997, -996] },
    // process 1, PCORE 7, thread 15: elements 2040..2047 of inbuf (i - 1000) + 1
    { space: 'PCORE@1', where: '7.15.test::_Z', dtype: 'word12', values: [1041, 1042] },
    { space: 'MEM', where: 'inbuf+2046', dtype: 'i16', values: [23, 24] },
  ]);
});

test('--load of a raw file and --dump to a file; text output', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-cli-'));
  const prog = join(dir, 'cp.m');
  writeFileSync(
    prog,
    '#include <stdint.h>\n' +
      'static uint8_t a[4];\n' +
      'static uint8_t b[4];\n' +
      'void kernel_cp(void) {\n' +
      '   > DTYPE(UINT8)MEM((uint32_t)&b[0])[0:3] <= DTYPE(UINT8)MEM((uint32_t)&a[0])[0:3];\n' +
      '}\n',
  );
  writeFileSync(join(dir, 'in.bin'), new Uint8Array([9, 8, 7, 6]));
  const r = await cli(prog, '--load', `a=${join(dir, 'in.bin')}`, '--dump', `MEM:b:4:u8=${join(dir, 'out.bin')}`, '--dump', 'MEM:b+1:2:u8');
  assert.equal(r.code, 0, r.err);
  assert.deepEqual([...readFileSync(join(dir, 'out.bin'))], [9, 8, 7, 6]);
  assert.match(r.out, /MEM:b\+1:u8 = 8 7/);
  assert.match(r.out, /kernel_cp: 1 tensor statements/);
});

test('--entry with --arg values; --pcore overrides the .p beside the program', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-cli-'));
  writeFileSync(join(dir, 'e.m'), 'static int r;\nint scale(int a, int b) {\n   r = a * b;\n   return r;\n}\nvoid other(void) { r = 1; }\n');
  const e = JSON.parse((await cli(join(dir, 'e.m'), '--entry', 'scale', '--arg', '6', '--arg', '-7', '--json', '--dump', 'MEM:r:1:i32')).out);
  assert.equal(e.error, null);
  assert.equal(e.entry, 'scale');
  assert.deepEqual(e.dumps[0].values, [-42]);
  // the same test program with a PCORE program that adds 2 instead of 1
  writeFileSync(join(dir, 'test.m'), readFileSync(resolve('examples/test/test.m'), 'utf8'));
  writeFileSync(join(dir, 'test.h'), readFileSync(resolve('examples/test/test.h'), 'utf8'));
  writeFileSync(join(dir, 'test.p'), readFileSync(resolve('examples/test/test.p'), 'utf8'));
  writeFileSync(join(dir, 'add2.p'), readFileSync(resolve('examples/test/test.p'), 'utf8').replace('_Z = _A + 1;', '_Z = _A + 2;'));
  const beside = JSON.parse((await cli(join(dir, 'test.m'), '--json', '--dump', 'MEM:outbuf:2:i16')).out);
  assert.deepEqual(beside.dumps[0].values, [-999, -998]);
  const over = JSON.parse((await cli(join(dir, 'test.m'), '--json', '--pcore', join(dir, 'add2.p'), '--dump', 'MEM:outbuf:2:i16')).out);
  assert.equal(over.error, null);
  assert.deepEqual(over.dumps[0].values, [-998, -997]);
});

test('a runtime error: exit 1 and file:line:col: error: with the C stack', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-cli-'));
  const prog = join(dir, 'bad.m');
  writeFileSync(prog, 'static void f(int d) {\n   int x = 10 / d;\n   (void)x;\n}\nvoid kernel_bad(void) {\n   f(0);\n}\n');
  const r = await cli(prog);
  assert.equal(r.code, 1);
  assert.match(r.err, /bad\.m:2:\d+: error: .*division by zero/i);
  assert.match(r.err, /at f \(/);
  assert.match(r.err, /at kernel_bad \(/);
  const j = JSON.parse((await cli(prog, '--json')).out);
  assert.equal(j.error.line, 2);
  assert.ok(j.error.stack.length >= 2);
});

test('bad usage: a UsageError (exit 2 through main)', async () => {
  await assert.rejects(cli(resolve('examples/test/test.m'), '--dump', 'NOPE:1:1:i16'), UsageError);
  await assert.rejects(cli(resolve('examples/test/test.m'), '--mem-bytes', '12'), UsageError);
  await assert.rejects(cli('/no/such/file.m'), UsageError);
  const write = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    assert.equal(await main(['run', resolve('examples/test/test.m'), '--dump', 'MEM:x']), 2);
  } finally {
    process.stderr.write = write;
  }
});

test('without --json or --trace the steps are not kept: a run longer than the recorded-step limit completes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-cli-'));
  const prog = join(dir, 'long.m');
  // 210,000 transfers: more than DEFAULT_MAX_TRACE_STEPS (200,000), which stops a run that records them
  writeFileSync(
    prog,
    '#include <stdint.h>\n' +
      'static int16_t buf[16];\n' +
      'void kernel_long(void) {\n' +
      '   uint32_t p = (uint32_t)&buf[0];\n' +
      '   int i;\n' +
      '   for (i = 0; i < 210000; i++) {\n' +
      '      > DTYPE(INT16)MEM(p)[0:3] <= DTYPE(INT16)MEM(p)[4:7];\n' +
      '   }\n' +
      '}\n',
  );
  const r = await cli(prog);
  assert.equal(r.code, 0, r.err);
  // 8 bytes per transfer
  assert.match(r.out, /^kernel_long: 210000 tensor statements, \d+ steps, 1680000 bytes moved/m);
  // with --trace the steps are recorded and the limit applies (a located error, exit status 1)
  const t = await cli(prog, '--trace', '--steps', '5000000');
  assert.equal(t.code, 1);
  assert.match(t.err, /long\.m:7:\d+: error: stopped after 200000 tensor steps/);
});

test('--include and --dialect read the program as tensor-lens check does', async () => {
  const fix = resolve('test/fixtures/run-include');
  const failing = await cli(join(fix, 'prog/inc.m'), '--dump', 'MEM:r:1:i32');
  assert.equal(failing.code, 1);
  assert.match(failing.err, /inc\.m:2:2: error: cannot open include file "scale.h"/);
  const ok = await cli(join(fix, 'prog/inc.m'), '--include', join(fix, 'include'), '--dump', 'MEM:r:1:i32');
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /MEM:r:i32 = 42/);
  const guide = resolve('examples/guide/transfers.m');
  const refused = await cli(guide, '--dialect', 'ztachip');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /error: the program has errors; fix them first: DTYPE is not defined/);
  assert.equal((await cli(guide, '--dialect', 'guide')).code, 0);
  await assert.rejects(cli(guide, '--dialect', 'c99'), (e: Error) => e instanceof UsageError && /--dialect must be auto, ztachip or guide/.test(e.message));
});
