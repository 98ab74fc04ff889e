/**
 * Named buffers (core/sim/buffers.ts) through the CLI (`--buffer`, `--arg @name`, a buffer as WHERE) and
 * a run configuration (`buffers`, `{buffer, dtype, shape}` dumps): where they are placed (aligned, apart
 * from each other, the C globals, the heap and the C stack), what they hold, and the errors for bad names,
 * unknown buffers, sizes and alignments.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { UsageError } from '../../cli/args';
import { decodeNpy, encodeNpy } from '../../core/common/npy';
import { SpecError } from '../../core/sim/dump';
import { prepareRun } from '../../core/sim/prepare';
import { runProgram } from '../../core/sim/run';
import type { RunConfig } from '../../core/sim/runConfig';
import { nodeRunHost } from '../../node/runHost';
import { tempTree } from '../helpers/run';
import { pngOf } from '../helpers/images';

const cli = runCli;

/** Copies n bytes from `in` to `out`; records where a global, a malloc'd block and a local live. */
const CP = `#include <stdint.h>
#include <stdlib.h>
static uint8_t g[100];
static uint32_t where[3];
void kernel_cp(uint32_t in, uint32_t out, int n) {
   uint8_t local[4];
   local[0] = 1;
   where[0] = (uint32_t)&g[0];
   where[1] = (uint32_t)malloc(16);
   where[2] = (uint32_t)&local[0];
   > DTYPE(UINT8)MEM(out)[0:n-1] <= DTYPE(UINT8)MEM(in)[0:n-1];
}
`;

function tree(): string {
  const dir = tempTree({ 'cp.m': CP });
  writeFileSync(join(dir, 'in.bin'), Uint8Array.from([1, 2, 3, 4, 5, 6]));
  return dir;
}

const overlaps = (a: [number, number], b: [number, number]) => a[0] < b[1] && b[0] < a[1];

test('--buffer places each buffer aligned, apart from the others, the C globals, the heap and the stack; --arg @name passes its address', async () => {
  const dir = tree();
  const r = await cli(
    join(dir, 'cp.m'),
    '--json',
    '--buffer',
    `input=${join(dir, 'in.bin')}`,
    '--buffer',
    'big=5000,align=4096',
    '--buffer',
    'out=6',
    '--arg',
    '@input',
    '--arg',
    '@out',
    '--arg',
    '6',
    '--dump',
    'MEM:out:6:u8',
    '--dump',
    'MEM:where:3:u32',
    '--dump',
    'MEM:input+4:2:u8',
  );
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.error, null);
  assert.deepEqual(
    j.buffers.map((b: { name: string; bytes: number }) => [b.name, b.bytes]),
    [
      ['input', 6],
      ['big', 5000],
      ['out', 6],
    ],
  );
  const [input, big, out] = j.buffers as { address: number; bytes: number }[];
  assert.equal(input.address % 64, 0, 'the default alignment is 64');
  assert.equal(out.address % 64, 0);
  assert.equal(big.address % 4096, 0, 'align=4096');
  // the copy went from the file's bytes to the output buffer, both named
  assert.deepEqual(j.dumps[0].values, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(j.dumps[2].values, [5, 6]);
  const [global, heap, stack] = j.dumps[1].values as number[];
  const spans = j.buffers.map((b: { address: number; bytes: number }) => [b.address, b.address + b.bytes] as [number, number]);
  for (let i = 0; i < spans.length; i++) {
    for (let k = i + 1; k < spans.length; k++) assert.ok(!overlaps(spans[i], spans[k]), `buffers ${i} and ${k} overlap`);
    assert.ok(!overlaps(spans[i], [global, global + 100]), 'a buffer over the C global g');
    assert.ok(!overlaps(spans[i], [heap, heap + 16]), 'a buffer over the malloc block');
    assert.ok(!overlaps(spans[i], [stack, stack + 4]), 'a buffer over the C stack');
  }
  // text output says where each buffer is
  const t = await cli(join(dir, 'cp.m'), '--buffer', `input=${join(dir, 'in.bin')}`, '--buffer', 'out=6', '--arg', '@input', '--arg', '@out+2', '--arg', '4');
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, new RegExp(`^buffer input: 0x${input.address.toString(16)}, 6 bytes$`, 'm'));
  assert.match(t.out, /^buffer out: 0x[0-9a-f]+, 6 bytes$/m);
});

test('a run configuration: buffers from a PNG, "@name" arguments, a buffer dump with its .npy shape', async () => {
  const dir = tree();
  // 3 × 2 RGB: planar R plane 10..15, G 20..25, B 30..35
  const px = (y: number, x: number) => [10 + 3 * y + x, 20 + 3 * y + x, 30 + 3 * y + x];
  writeFileSync(join(dir, 'in.png'), pngOf([[0, 1, 2].map((x) => px(0, x)), [0, 1, 2].map((x) => px(1, x))]));
  const config: RunConfig = {
    program: 'cp.m',
    buffers: { input: { file: 'in.png' }, output: { bytes: 18 } },
    args: ['@input', '@output', 18],
    dump: [
      { buffer: 'output', dtype: 'u8', file: 'out.npy', shape: [3, 2, 3] },
      { buffer: 'output', dtype: 'u16' },
    ],
  };
  const prepared = prepareRun({ ...config, cwd: dir }, nodeRunHost());
  const r = await runProgram({ ...prepared.options, history: false });
  assert.equal(r.error, null);
  assert.deepEqual(
    r.buffers.map((b) => [b.name, b.bytes]),
    [
      ['input', 18],
      ['output', 18],
    ],
  );
  const npy = decodeNpy(r.dumps[0].bytes!);
  assert.deepEqual(npy.shape, [3, 2, 3]);
  assert.deepEqual([...npy.data], [10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 30, 31, 32, 33, 34, 35]);
  // without a count: what the buffer holds (18 bytes = 9 u16, little-endian)
  assert.equal(r.dumps[1].values!.length, 9);
  assert.equal(r.dumps[1].values![0], 10 + 11 * 256);
  // interleaved, as the configuration says
  const inter = prepareRun({ ...config, cwd: dir, buffers: { input: { file: 'in.png', layout: 'interleaved' }, output: { bytes: 18 } } }, nodeRunHost());
  const ri = await runProgram({ ...inter.options, history: false });
  assert.deepEqual(decodeNpy(ri.dumps[0].bytes!).data.slice(0, 6), Uint8Array.from([10, 20, 30, 11, 21, 31]));
});

test("a .npy buffer holds the array's data bytes (little-endian), not its header", async () => {
  const dir = tree();
  writeFileSync(join(dir, 't.npy'), encodeNpy({ dtype: 'i2', shape: [2], data: [-2, 300] }));
  const r = await cli(join(dir, 'cp.m'), '--json', '--buffer', `t=${join(dir, 't.npy')}`, '--arg', '@t', '--arg', '@t', '--arg', '1', '--dump', 'MEM:t:4:u8');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.buffers[0].bytes, 4);
  // -2 = 0xfffe, 300 = 0x012c
  assert.deepEqual(j.dumps[0].values, [0xfe, 0xff, 0x2c, 0x01]);
});

test('bad buffers, names and references are usage errors naming what is wrong', async () => {
  const dir = tree();
  const prog = join(dir, 'cp.m');
  const bin = join(dir, 'in.bin');
  const usage = async (re: RegExp, ...argv: string[]) =>
    assert.rejects(cli(prog, ...argv), (e: unknown) => e instanceof UsageError && re.test(e.message), argv.join(' '));
  await usage(/^--buffer 2x=8: NAME must be letters, digits and _/, '--buffer', '2x=8');
  await usage(/^--buffer a=8: buffer a is given twice/, '--buffer', 'a=8', '--buffer', 'a=8');
  await usage(/^--arg @in-put: expected an integer, @NAME or @NAME\+BYTES/, '--arg', '@in-put');
  await usage(/^argument 2 \(@nope\): no buffer named nope \(buffers: input\)/, '--buffer', `input=${bin}`, '--arg', '@input', '--arg', '@nope', '--arg', '1');
  await usage(/^argument 1 \(@input\+7\): 7 is past the end of input \(6 bytes\)/, '--buffer', `input=${bin}`, '--arg', '@input+7');
  await usage(/^buffer g: the program has a C global of that name/, '--buffer', 'g=8', '--arg', '1', '--arg', '2', '--arg', '3');
  await usage(/^buffer a: align must be a power of two from 1 to 65536 \(got 48\)/, '--buffer', 'a=8,align=48');
  await usage(/^buffer a: .*in\.bin holds 6 bytes, more than its 4 bytes/, '--buffer', `a=${bin},bytes=4`);
  await usage(/^buffer a: layout and channels describe an image file/, '--buffer', 'a=8,layout=planar');
  await usage(/^buffer a: layout and channels describe an image file \(\.png, \.bmp\), not .*in\.bin/, '--buffer', `a=${bin},channels=grey`);
  await usage(/^buffer a: .*missing\.bin/, '--buffer', `a=${join(dir, 'missing.bin')}`);
  await usage(/^buffer huge \(100000 bytes\): out of simulated MEM/, '--mem-bytes', '65536', '--buffer', 'huge=100000');
  await usage(
    /^--dump MEM:out:8:u8: 8 bytes are more than out holds \(6 bytes\)/,
    '--buffer',
    'out=6',
    '--arg',
    '@out',
    '--arg',
    '@out',
    '--arg',
    '1',
    '--dump',
    'MEM:out:8:u8',
  );
  writeFileSync(join(dir, 'bad.png'), Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]));
  await usage(/^buffer a: .*bad\.png: corrupt PNG image/, '--buffer', `a=${join(dir, 'bad.png')}`);
  // configuration dumps that cannot be made
  const spec = (dump: RunConfig['dump'], re: RegExp) =>
    assert.throws(
      () => prepareRun({ program: 'cp.m', cwd: dir, buffers: { out: { bytes: 6 } }, dump }, nodeRunHost()),
      (e: unknown) => e instanceof SpecError && re.test(e.message),
    );
  spec([{ buffer: 'outt', dtype: 'u8' }], /^dump of buffer outt: no buffer named outt \(buffers: out\)$/);
  spec([{ buffer: 'out', dtype: 'u8', count: 6, shape: [4, 2] }], /^dump MEM:out:6:u8: shape \[4, 2\] holds 8 elements, not 6$/);
  spec([{ buffer: 'out', space: 'MEM', where: 'out', dtype: 'u8' }], /give "buffer" or "space" and "where", not both/);
  spec([{ space: 'MEM', dtype: 'u8' }], /give "buffer", or "space", "where" and "count"/);
});

test('an entry called with too few arguments is an error at its definition, not at the prototype in a header', async () => {
  const dir = tempTree({
    'k.h': 'void kernel_k(unsigned in, unsigned out, int n);\n',
    'k.m': '#include "k.h"\nstatic int x;\n\nvoid kernel_k(unsigned in, unsigned out, int n) {\n   x = n;\n}\n',
  });
  const r = await cli(join(dir, 'k.m'), '--json');
  assert.equal(r.code, 1);
  const e = JSON.parse(r.out).error;
  assert.deepEqual([e.file.endsWith('k.m'), e.line, e.column], [true, 4, 1]);
  assert.equal(
    e.message,
    'kernel_k() takes 3 argument(s) (in, out, n), 0 given: give them in the run configuration ("args", e.g. "@input" for a buffer\'s address)',
  );
  assert.equal(readFileSync(join(dir, 'k.h'), 'utf8').includes('kernel_k'), true);
});
