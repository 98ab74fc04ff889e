/**
 * Where `fibers(file=…)` may read (#16 item 10): with the host's roots (the language server's workspace
 * folders and the spec's own folder) a path outside them — absolute, `../`, or a symbolic link whose
 * real path is outside (server/src/fileAccess.ts) — is refused before or instead of reading, special
 * files and link loops are not read, and a file that is not a `.csfbin` is reported without its bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeLayout } from '../../core/layout';
import { csfSparseLoader, placementOf } from '../../core/layout/csfLoader';
import { FileAccessError, isInside } from '../../core/project/fileSystem';
import { readBinaryConfined } from '../../server/src/fileAccess';

const A = new Uint8Array(readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'layouts', 'A.csfbin')));

test('isInside: a folder and what lies under it, `..` resolved, drive letters in any case', () => {
  assert.ok(isInside('/w/a.csfbin', '/w'));
  assert.ok(isInside('/w/sub/a.csfbin', '/w/'));
  assert.ok(isInside('/w', '/w'));
  assert.ok(!isInside('/wx/a.csfbin', '/w'));
  assert.ok(!isInside('/w/../etc/passwd.csfbin', '/w'));
  assert.ok(!isInside('/etc/passwd', '/w'));
  assert.ok(isInside('C:\\w\\a.csfbin', 'c:/w'));
  assert.ok(!isInside('d:/w/a.csfbin', 'c:/w'));
  assert.ok(!isInside('/w/a', ''));
});

test('with roots: absolute paths and ../ outside them are refused without reading', () => {
  const reads: string[] = [];
  const load = csfSparseLoader((p) => (reads.push(p), p === '/w/specs/A.csfbin' || p === '/w/data/A.csfbin' ? A : undefined), {
    roots: (spec) => ['/w', spec.slice(0, spec.lastIndexOf('/'))],
  });
  assert.deepEqual([...load('A.csfbin', '/w/specs/s.tlayout')!.shape], [2, 3]);
  assert.deepEqual([...load('../data/A.csfbin', '/w/specs/s.tlayout')!.shape], [2, 3]);
  for (const f of ['/etc/passwd.csfbin', '../../etc/x.csfbin', '../../../../../../x.csfbin', '/wx/A.csfbin'])
    assert.throws(() => load(f, '/w/specs/s.tlayout'), /is outside the workspace/, f);
  assert.deepEqual(reads, ['/w/specs/A.csfbin', '/w/data/A.csfbin']);
  // without roots (the CLI: a trusted user) a path anywhere is read
  const free = csfSparseLoader((p) => (p === '/elsewhere/A.csfbin' ? A : undefined));
  assert.ok(free('/elsewhere/A.csfbin', '/w/s.tlayout'));
});

test('a file that is not a .csfbin: "bad magic", never its bytes', () => {
  for (const text of ['root:x:0:0:root:/root:/bin/bash\n', '\x7fELF\x02\x01\x01', 'PK\x03\x04zip', '{"a": 1}']) {
    const r = placementOf(new TextEncoder().encode(text));
    assert.ok(r instanceof Error);
    assert.equal(r.message, 'not a .csfbin file (bad magic)');
  }
  const a = analyzeLayout('tensor s: float32[2, 3] = fibers(file="p.csfbin")\n', '/w/s.tlayout', {
    loadSparse: csfSparseLoader(() => new TextEncoder().encode('root:x:0:0')),
  });
  const d = a.diagnostics.find((x) => x.code === 'CSF009')!;
  assert.equal(d.message, 'p.csfbin: not a .csfbin file (bad magic)');
  assert.doesNotMatch(d.message, /1953460082|root/);
});

test('the host refusal is shown; other read failures are "not found"', () => {
  const load = csfSparseLoader((p) => {
    if (p.endsWith('link.csfbin')) throw new FileAccessError('a symbolic link leading outside the workspace');
    throw new Error('EACCES: secret detail');
  });
  assert.throws(() => load('link.csfbin', '/w/s.tlayout'), { message: '/w/link.csfbin: a symbolic link leading outside the workspace' });
  assert.throws(() => load('other.csfbin', '/w/s.tlayout'), { message: 'file not found: /w/other.csfbin' });
});

test('readBinaryConfined: real paths (symbolic links), special files, loops, folders', { skip: process.platform === 'win32' }, () => {
  const base = mkdtempSync(join(tmpdir(), 'tl-csf-access-'));
  try {
    const ws = join(base, 'ws');
    const out = join(base, 'outside');
    mkdirSync(ws);
    mkdirSync(out);
    writeFileSync(join(ws, 'A.csfbin'), A);
    writeFileSync(join(out, 'secret.txt'), 'root:x:0:0');
    symlinkSync(join(out, 'secret.txt'), join(ws, 'secret.csfbin'));
    symlinkSync(join(ws, 'A.csfbin'), join(ws, 'inner.csfbin'));
    symlinkSync(join(ws, 'loop1.csfbin'), join(ws, 'loop2.csfbin'));
    symlinkSync(join(ws, 'loop2.csfbin'), join(ws, 'loop1.csfbin'));
    symlinkSync('/dev/zero', join(ws, 'zero.csfbin'));
    mkdirSync(join(ws, 'dir.csfbin'));
    const roots = [ws];
    assert.deepEqual(readBinaryConfined(join(ws, 'A.csfbin'), roots), A);
    assert.deepEqual(readBinaryConfined(join(ws, 'inner.csfbin'), roots), A);
    assert.throws(() => readBinaryConfined(join(ws, 'secret.csfbin'), roots), { name: 'FileAccessError', message: /outside the workspace/ });
    assert.throws(() => readBinaryConfined(join(ws, 'zero.csfbin'), roots), /outside the workspace/);
    assert.throws(() => readBinaryConfined(join(ws, 'zero.csfbin'), ['/']), { message: 'not a regular file' });
    assert.throws(() => readBinaryConfined(join(ws, 'dir.csfbin'), roots), { message: 'a folder, not a file' });
    assert.equal(readBinaryConfined(join(ws, 'loop1.csfbin'), roots), undefined);
    assert.equal(readBinaryConfined(join(ws, 'missing.csfbin'), roots), undefined);
    assert.throws(() => readBinaryConfined(join(ws, 'A.csfbin'), roots, 8), { message: 'larger than 8 bytes' });
    // the whole chain: the loader, then the real path
    const load = csfSparseLoader((p, r) => readBinaryConfined(p, r), { roots: () => roots });
    const spec = join(ws, 's.tlayout');
    assert.ok(load('A.csfbin', spec));
    assert.throws(() => load('secret.csfbin', spec), /: a symbolic link leading outside the workspace$/);
    assert.throws(() => load('loop1.csfbin', spec), /^Error: file not found: /);
    assert.throws(() => load('../outside/x.csfbin', spec), /is outside the workspace/);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
