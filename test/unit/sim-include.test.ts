/**
 * A driver program that `#include`s a kernel file (issue #18 defects 4 and 5): the kernel file's `>`
 * statements run, located in the kernel file, with the `.p` beside it; its `zta_pcore_img` is declared
 * although the driver never names it; what cannot be run together is refused with a located error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseDump } from '../../core/sim/dump';
import { runFile, tempTree } from '../helpers/run';

const KERNEL_P = `vint16 inc::a;
vint16 inc::z;
_kernel_ void inc::add(_global int k) {
   _VMASK = -1;
   z = a + k;
}
`;

const KERNEL_M = `#include <stdint.h>
#include "../../base/ztalib.h"
#include "kern.p.img"

void kernel_inc(uint32_t src, uint32_t dst, int k) {
   ztaInitPcore(zta_pcore_img);
   > DTYPE(INT16)PCORE(8)[:].THREAD[:].inc::a[:] <= DTYPE(INT16)MEM(src)[0:1023];
   > inc::add.k <= INT16(k);
   > EXE_LOCKSTEP(inc::add, 8);
   > DTYPE(INT16)MEM(dst)[0:1023] <= DTYPE(INT16)PCORE(8)[:].THREAD[:].inc::z[:];
   ztaJobDone(0);
}
`;

const DRIVER = `#include "../kern/kern.m"
int16_t in[1024];
int16_t out[1024];
int main(void) {
   for (int i = 0; i < 1024; i++) in[i] = i - 300;
   kernel_inc((uint32_t)in, (uint32_t)out, 5);
   return 0;
}
`;

const tree = (files: Record<string, string>) => tempTree(files, 'tl-include-');
const run = (file: string) => runFile(file, { dumps: [parseDump('MEM:out:1024:i16')] });

test("a driver runs the > statements of the kernel file it includes, with that file's .p", async () => {
  const root = tree({ 'kern/kern.m': KERNEL_M, 'kern/kern.p': KERNEL_P, 'drv/drv.m': DRIVER });
  const r = await run(join(root, 'drv/drv.m'));
  assert.equal(r.error, null, JSON.stringify(r.error));
  const out = r.dumps[0].values!;
  for (let i = 0; i < 1024; i++) assert.equal(out[i], i - 300 + 5, `out[${i}]`);
  // the steps are located in the kernel file, at its > lines (7..10) and its ztaJobDone (11)
  const kern = join(root, 'kern/kern.m');
  assert.deepEqual(
    r.trace.map((s) => `${s.kind}:${s.file === kern ? 'kern' : s.file}:${s.line}`),
    ['transfer:kern:7', 'global:kern:8', 'exe:kern:9', 'transfer:kern:10', 'callback:kern:11'],
  );
  assert.equal(r.trace[2].kernel, 'inc::add');
});

test('an included kernel file with its own .p beside a driver with another .p is refused, located', async () => {
  const root = tree({ 'kern/kern.m': KERNEL_M, 'kern/kern.p': KERNEL_P, 'drv/drv.m': DRIVER, 'drv/drv.p': 'vint16 other::v;\n_kernel_ void other::k() { }\n' });
  const r = await run(join(root, 'drv/drv.m'));
  assert.ok(r.error);
  assert.match(r.error.message, /not simulated: .*kern\.m runs kernels of .*kern\.p, but this run's PCORE program is .*drv\.p/);
  assert.equal(r.error.file, join(root, 'kern/kern.m'));
});

test('an error in the included kernel file stops the run at its location', async () => {
  const bad = KERNEL_M.replace('inc::add.k <= INT16(k);', 'inc::add.nosuch <= INT16(k);');
  const root = tree({ 'kern/kern.m': bad, 'kern/kern.p': KERNEL_P, 'drv/drv.m': DRIVER });
  const r = await run(join(root, 'drv/drv.m'));
  assert.ok(r.error);
  assert.match(r.error.message, /the included tensor program has errors/);
  assert.deepEqual([r.error.file, r.error.line], [join(root, 'kern/kern.m'), 8]);
});

test('ztaInitPcore of an image that is not the program\'s own is "not simulated", not a silent no-op', async () => {
  const m = KERNEL_M.replace('ztaInitPcore(zta_pcore_img);', 'uint16_t other[4] = {0};\n   ztaInitPcore(other);');
  const root = tree({ 'kern/kern.m': m, 'kern/kern.p': KERNEL_P, 'drv/drv.m': DRIVER });
  const r = await run(join(root, 'drv/drv.m'));
  assert.ok(r.error);
  assert.match(r.error.message, /not simulated: ztaInitPcore\(0x[0-9a-f]+\) loads a PCORE image other than this program's zta_pcore_img/);
  assert.deepEqual([r.error.file, r.error.line], [join(root, 'kern/kern.m'), 7]);
});
