/**
 * Issue #16: the command line against hostile inputs — special files, negative hex numbers, symlink loops,
 * failed writes, outputs over inputs, usage errors reported as usage errors (exit 2, the option named).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../cli/main';
import { parseInteger, UsageError } from '../../cli/args';
import { FileError, readFileBytes, readFileChunks } from '../../node/files';
import { nodeRunHost } from '../../node/runHost';
import { encodeNpy } from '../../core/common/npy';

/** Runs the CLI as `bin/tensor-lens` does: exit status, stdout and stderr. */
async function tl(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join(''), err: err.join('') };
}

const PROGRAM =
  '#include <stdint.h>\n' +
  '#include "x.h"\n' +
  'static uint8_t a[4];\n' +
  'static uint8_t b[4];\n' +
  'static int r;\n' +
  'void kernel_cp(int n) {\n' +
  '   r = n;\n' +
  '   > DTYPE(UINT8)MEM((uint32_t)&b[0])[0:3] <= DTYPE(UINT8)MEM((uint32_t)&a[0])[0:3];\n' +
  '}\n';

function project(): { dir: string; prog: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tl-hard-'));
  const prog = join(dir, 'x.m');
  writeFileSync(prog, PROGRAM);
  writeFileSync(join(dir, 'x.h'), '#define X_H 1\n');
  writeFileSync(join(dir, 'in.bin'), new Uint8Array([1, 2, 3, 4]));
  return { dir, prog };
}

test('#16.2 one reader: regular files only (fstat after open), a size limit naming the file', () => {
  assert.throws(
    () => readFileBytes('/dev/zero'),
    (e: Error) => e instanceof FileError && /\/dev\/zero: it is a character device/.test(e.message),
  );
  assert.throws(() => readFileChunks('/dev/zero', () => undefined), FileError);
  const dir = mkdtempSync(join(tmpdir(), 'tl-hard-'));
  writeFileSync(join(dir, 'big'), new Uint8Array(11));
  assert.throws(
    () => readFileBytes(join(dir, 'big'), 10),
    (e: Error) => e instanceof FileError && e.message.includes(join(dir, 'big')) && /11 bytes, more than the limit of 10 bytes/.test(e.message),
  );
  assert.equal(readFileBytes(join(dir, 'big'), 11).length, 11);
  assert.throws(() => readFileBytes(dir), /it is a directory/);
  // the run host of the server's worker and the debugger
  const host = nodeRunHost();
  assert.throws(() => host.readBytes('/dev/zero'), FileError);
  assert.equal(host.readText('/dev/zero'), undefined);
});

test('#16.2 the CLI refuses /dev/zero at once (run --load, csf show/to-npy/validate)', async () => {
  const { dir, prog } = project();
  const t0 = Date.now();
  const r = await tl('run', prog, '--arg', '1', '--load', '0=/dev/zero');
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /--load 0=\/dev\/zero: cannot read \/dev\/zero: it is a character device/);
  for (const argv of [
    ['csf', 'show', '/dev/zero'],
    ['csf', 'to-npy', '/dev/zero', join(dir, 'z.npy')],
    ['csf', 'validate', '/dev/zero'],
  ]) {
    const c = await tl(...argv);
    assert.equal(c.code, 2, argv.join(' '));
    assert.match(c.err, /\/dev\/zero is a character device/);
  }
  assert.ok(Date.now() - t0 < 10_000);
});

test('#16.4 one number parser: decimal, hex, negative hex, range per option', async () => {
  assert.equal(parseInteger('-0x10', '--arg', -100, 100), -16);
  assert.equal(parseInteger('0x10', '--arg', -100, 100), 16);
  assert.equal(parseInteger('-7', '--arg', -100, 100), -7);
  assert.throws(() => parseInteger('-0x1', '--steps', 1, 10), /--steps must be between 1 and 10, got -0x1/);
  assert.throws(() => parseInteger('1e3', '--steps', 1, 10), UsageError);
  const { prog } = project();
  const steps = await tl('run', prog, '--arg', '1', '--steps', '-0x1');
  assert.equal(steps.code, 2);
  assert.match(steps.err, /--steps must be between 1/);
  const mem = await tl('run', prog, '--arg', '1', '--mem-bytes', '-0x1');
  assert.equal(mem.code, 2);
  assert.match(mem.err, /--mem-bytes must be between/);
  assert.doesNotMatch(mem.err, /internal|RangeError/);
  const arg = await tl('run', prog, '--arg', '-0x10', '--dump', 'MEM:r:1:i32');
  assert.equal(arg.code, 0, arg.err);
  assert.match(arg.out, /MEM:r:i32 = -16/);
});

test('#16.5 check DIR visits each real directory once and reports each file once (symlink loops)', async () => {
  const { dir } = project();
  const d = join(dir, 'd');
  mkdirSync(d);
  writeFileSync(join(d, 'bad.m'), '> x <= ;\n');
  symlinkSync('.', join(d, 'a'));
  symlinkSync('.', join(d, 'b'));
  symlinkSync('bad.m', join(d, 'same.m'));
  const t0 = Date.now();
  const r = await tl('check', d, '--json');
  assert.ok(Date.now() - t0 < 10_000);
  const files = new Set((JSON.parse(r.out) as { file: string }[]).map((x) => x.file));
  assert.equal(files.size, 1, [...files].join(', '));
  const s = await tl('check', d, d, '--summary');
  assert.match(s.out, /1 file checked/);
});

test('#16.7 a dump that cannot be written: exit 1, the file named, no stack', async () => {
  const { dir, prog } = project();
  for (const target of ['/nonexistent/x.bin', dir]) {
    const r = await tl('run', prog, '--arg', '1', '--dump', `MEM:0:4:u8=${target}`);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, new RegExp(`cannot write ${target.replace(/[/.]/g, '\\$&')}`));
    assert.doesNotMatch(r.err, /internal error|\n\s+at /);
  }
  if (process.getuid?.() !== 0) {
    const ro = join(dir, 'ro');
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    const r = await tl('run', prog, '--arg', '1', '--dump', `MEM:0:4:u8=${join(ro, 'x.bin')}`);
    assert.equal(r.code, 1);
    assert.match(r.err, /permission denied/);
  }
});

test('#16.8 outputs never overwrite inputs (program, included header, load; csf inputs), by real path', async () => {
  const { dir, prog } = project();
  for (const [target, name] of [
    [prog, 'the program'],
    [join(dir, 'x.h'), 'an included header'],
    [join(dir, 'in.bin'), 'a load'],
  ]) {
    const before = readFileSync(target);
    const r = await tl('run', prog, '--arg', '1', '--load', `a=${join(dir, 'in.bin')}`, '--dump', `MEM:b:4:u8=${target}`);
    assert.equal(r.code, 2, name);
    assert.match(r.err, /is an input of this run/);
    assert.deepEqual(readFileSync(target), before, name);
  }
  // through a link
  symlinkSync(prog, join(dir, 'link.m'));
  const l = await tl('run', prog, '--arg', '1', '--dump', `MEM:b:4:u8=${join(dir, 'link.m')}`);
  assert.equal(l.code, 2);
  assert.equal(readFileSync(prog, 'utf8'), PROGRAM);
  const npy = join(dir, 'a.npy');
  const bytes = encodeNpy({ dtype: 'f4', shape: [2, 2], data: [1, 0, 2, 3] });
  writeFileSync(npy, bytes);
  const f = await tl('csf', 'from-npy', npy, npy);
  assert.equal(f.code, 2);
  assert.match(f.err, /is the input/);
  assert.deepEqual(new Uint8Array(readFileSync(npy)), bytes);
  const csf = resolve('examples/sparse/matrix.csfbin');
  const copy = join(dir, 'm.csfbin');
  writeFileSync(copy, readFileSync(csf));
  assert.equal((await tl('csf', 'to-npy', copy, copy)).code, 2);
  assert.equal((await tl('csf', 'contract', copy, copy, copy)).code, 2);
  assert.deepEqual(readFileSync(copy), readFileSync(csf));
});

test('#16.11 a bad --load (address, .npy, Fortran order) is a usage error naming the option and the file', async () => {
  const { dir, prog } = project();
  const addr = await tl('run', prog, '--arg', '1', '--load', `nosuch=${join(dir, 'in.bin')}`);
  assert.equal(addr.code, 2);
  assert.match(addr.err, /--load nosuch=.*in\.bin: location "nosuch": no C global/);
  assert.doesNotMatch(addr.err, /x\.m:1:1/);
  writeFileSync(join(dir, 'bad.npy'), 'garbage');
  const bad = await tl('run', prog, '--arg', '1', '--load', `a=${join(dir, 'bad.npy')}`);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--load a=\S*bad\.npy: \S*bad\.npy: offset 0: expected the \.npy magic/);
  const fortran = encodeNpy({ dtype: 'u1', shape: [2, 2], data: [0, 2, 1, 3] });
  const at = Buffer.from(fortran).indexOf('False');
  fortran.set(Buffer.from('True '), at);
  writeFileSync(join(dir, 'f.npy'), fortran);
  const f = await tl('run', prog, '--arg', '1', '--load', `a=${join(dir, 'f.npy')}`);
  assert.equal(f.code, 2);
  assert.match(f.err, /f\.npy: a Fortran-order \(column-major\) array of shape \(2, 2\) is not loaded/);
  // a one-dimensional Fortran array is the same bytes: loaded
  const one = encodeNpy({ dtype: 'u1', shape: [4], data: [5, 6, 7, 8] });
  one.set(Buffer.from('True '), Buffer.from(one).indexOf('False'));
  writeFileSync(join(dir, 'f1.npy'), one);
  const ok = await tl('run', prog, '--arg', '1', '--load', `a=${join(dir, 'f1.npy')}`, '--dump', 'MEM:b:4:u8');
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /MEM:b:u8 = 5 6 7 8/);
});

test('#16.12 run: --steps 0/-5, --dump count 0, a dump past its global, an option given twice', async () => {
  const { prog } = project();
  for (const s of ['0', '-5']) {
    const r = await tl('run', prog, '--arg', '1', '--steps', s);
    assert.equal(r.code, 2, s);
    assert.match(r.err, /--steps must be between 1/);
  }
  const zero = await tl('run', prog, '--arg', '1', '--dump', 'MEM:a:0:u8');
  assert.equal(zero.code, 2);
  assert.match(zero.err, /COUNT must be at least 1/);
  const past = await tl('run', prog, '--arg', '1', '--dump', 'MEM:a:8:u8');
  assert.equal(past.code, 2);
  assert.match(past.err, /--dump MEM:a:8:u8: 8 bytes are more than a holds \(4 bytes\)/);
  const plus = await tl('run', prog, '--arg', '1', '--dump', 'MEM:a+2:2:u8');
  assert.equal(plus.code, 0, plus.err);
  const twice = await tl('run', prog, '--arg', '1', '--mem-bytes', '65536', '--mem-bytes', '12');
  assert.equal(twice.code, 2);
  assert.match(twice.err, /--mem-bytes is given twice/);
  // its own usage, not every command's
  assert.match(twice.err, /usage: tensor-lens run/);
  assert.doesNotMatch(twice.err, /usage: tensor-lens (check|map)|commands:/);
});

test('#16.12 check: --pcore of a device, a named file of an unknown extension; map: a directory, a device', async () => {
  const { dir, prog } = project();
  const p = await tl('check', prog, '--pcore', '/dev/zero');
  assert.equal(p.code, 2);
  assert.match(p.err, /--pcore \/dev\/zero: .*character device/);
  writeFileSync(join(dir, 'n.txt'), 'hi\n');
  const n = await tl('check', join(dir, 'n.txt'));
  assert.equal(n.code, 2);
  assert.match(n.err, /n\.txt is not a tensor program or PCORE program/);
  assert.match(n.err, /usage: tensor-lens check/);
  const d = await tl('map', dir);
  assert.equal(d.code, 2);
  assert.match(d.err, /it is a directory/);
  const z = await tl('map', '/dev/zero');
  assert.equal(z.code, 2);
  assert.match(z.err, /\/dev\/zero: it is a character device/);
});

test('#16.12 map --coord out of range: a located error (exit 1, --json too); a malformed one prints map usage only', async () => {
  const spec = resolve('examples/layouts/strided.tlayout');
  const r = await tl('map', spec, '--tensor', 'x', '--coord', '9,9');
  assert.equal(r.code, 1);
  assert.match(r.out, /strided\.tlayout:\d+:\d+: error: --coord 9,9: index 9 is out of range/);
  assert.equal(r.err, '');
  const j = await tl('map', spec, '--tensor', 'x', '--coord', '9,9', '--json');
  assert.equal(j.code, 1);
  const e = JSON.parse(j.out).errors[0];
  assert.equal(e.code, 'coord-out-of-range');
  assert.ok(e.line > 0 && e.column > 0);
  const u = await tl('map', spec, '--tensor', 'x', '--coord', 'a');
  assert.equal(u.code, 2);
  assert.match(u.err, /usage: tensor-lens map/);
  assert.doesNotMatch(u.err, /usage: tensor-lens (run|check)|commands:/);
});
