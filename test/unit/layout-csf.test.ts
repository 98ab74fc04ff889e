/**
 * `fibers(file="x.csfbin")`: the loader the language server and the extension use (core/layout/csfLoader):
 * paths relative to the spec, the `.csfbin` validator's verdict as the error, caching by content.
 * A.csfbin holds [[0, 1.5, 0], [-2, 0, 3.25]]: order 2, shape [2, 3], nnz 3, ptr [0, 1, 3], index [1, 0, 2].
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeLayout } from '../../core/layout';
import { csfSparseLoader, placementOf, resolveSpecPath } from '../../core/layout/csfLoader';

const A = new Uint8Array(readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'layouts', 'A.csfbin')));

test('paths are resolved against the folder of the spec', () => {
  assert.equal(resolveSpecPath('A.csfbin', '/w/specs/s.tlayout'), '/w/specs/A.csfbin');
  assert.equal(resolveSpecPath('../data/./A.csfbin', '/w/specs/s.tlayout'), '/w/data/A.csfbin');
  assert.equal(resolveSpecPath('/abs/A.csfbin', '/w/specs/s.tlayout'), '/abs/A.csfbin');
  assert.equal(resolveSpecPath('sub\\A.csfbin', '/w/s.tlayout'), '/w/sub/A.csfbin');
  assert.equal(resolveSpecPath('A.csfbin', ''), 'A.csfbin');
});

test('a valid file becomes a placement with the file’s pointers and indices', () => {
  const p = placementOf(A);
  assert.ok(!(p instanceof Error));
  assert.deepEqual([...p.shape], [2, 3]);
  assert.deepEqual([...Array.from(p.ptr)], [0, 1, 3]);
  assert.deepEqual([...Array.from(p.index)], [1, 0, 2]);
});

test('every problem is an Error saying what is wrong (and the rule, offset of formats.md §A.4)', () => {
  const files = new Map<string, Uint8Array>([['/w/A.csfbin', A]]);
  const bad = new Uint8Array(A);
  new DataView(bad.buffer).setUint32(0, 0, true); // order 0: rule V2
  files.set('/w/bad.csfbin', bad);
  const load = csfSparseLoader((p) => files.get(p));
  assert.throws(() => load('nope.csfbin', '/w/s.tlayout'), { message: 'file not found: /w/nope.csfbin' });
  assert.throws(() => load('A.npy', '/w/s.tlayout'), { message: 'expected a .csfbin file, got "A.npy"' });
  // order 0 fails the first word, the format's magic: not a .csfbin (its bytes are not shown)
  assert.throws(() => load('bad.csfbin', '/w/s.tlayout'), { message: 'not a .csfbin file (bad magic)' });
  const ok = load('A.csfbin', '/w/s.tlayout')!;
  assert.deepEqual([...ok.shape], [2, 3]);
  // the same bytes again: the cached placement; other bytes at the same path: parsed again
  assert.equal(load('A.csfbin', '/w/s.tlayout'), ok);
  files.set('/w/A.csfbin', bad);
  assert.throws(() => load('A.csfbin', '/w/s.tlayout'), /bad magic/);
  // past the first word, the validator's rule and offset
  const short = A.slice(0, A.length - 4);
  files.set('/w/short.csfbin', short);
  assert.throws(() => load('short.csfbin', '/w/s.tlayout'), /^Error: invalid \.csfbin \(rule V\d+, byte offset \d+\): /);
});

test('through analyzeLayout: real nnz in the summary, errors on the reference, shape mismatch on the shape', () => {
  const files = new Map<string, Uint8Array>([['/w/A.csfbin', A]]);
  const opts = { loadSparse: csfSparseLoader((p) => files.get(p)) };
  const text = 'tensor s: float32[2, 3] = fibers(file="A.csfbin", main=4)\nprobe s[1, 0]\n';
  const a = analyzeLayout(text, '/w/s.tlayout', opts);
  assert.deepEqual(
    a.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  assert.equal(a.tensors[0].summary?.short, '3 entries (50.0 % dense) · 24 B main + 6 metadata words');
  // (1, 0): fiber 1 starts at entry ptr[1] = 1, index 0 is its first entry → main entry 4 + 1 = 5 → byte 40
  assert.equal(a.probes[0].forward?.address, 40);
  const m = analyzeLayout('tensor s: float32[2, 3] = fibers(file="gone.csfbin")\n', '/w/s.tlayout', opts);
  const d = m.diagnostics.find((x) => x.code === 'CSF009')!;
  assert.equal(d.message, 'gone.csfbin: file not found: /w/gone.csfbin');
  assert.deepEqual([d.range.start.character, d.range.end.character], [38, 51]); // "gone.csfbin" with its quotes: 38 + 13
  const w = analyzeLayout('tensor s: float32[3, 3] = fibers(file="A.csfbin")\n', '/w/s.tlayout', opts);
  const e = w.diagnostics.find((x) => x.code === 'CSF010')!;
  assert.deepEqual([e.range.start.character, e.range.end.character], [17, 23]); // [3, 3]
  assert.equal(e.fixes?.[0].title, 'Use [2, 3]');
});

test('examples/layouts/csfbin.tlayout: the file beside it is read; its probes come out as hand-computed', () => {
  const dir = join(import.meta.dirname, '..', '..', 'examples', 'layouts');
  const path = join(dir, 'csfbin.tlayout');
  const read = (p: string) => {
    try {
      return new Uint8Array(readFileSync(p));
    } catch {
      return undefined;
    }
  };
  const a = analyzeLayout(readFileSync(path, 'utf8'), path, { loadSparse: csfSparseLoader(read) });
  assert.deepEqual(
    a.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    [],
  );
  // A[1, 2]: fiber 1 = entries ptr[1]..ptr[2]-1 = 1..2, index 2 is entry 2 → byte 16
  assert.equal(a.probes[0].forward?.address, 16);
  // main byte 8 = entry 1 = first entry of fiber 1 (index 0) → A[1, 0]
  assert.deepEqual(a.probes[1].inverse?.coord, [1, 0]);
  // without a reader (the browser, the CLI for now) the reference says so
  const none = analyzeLayout(readFileSync(path, 'utf8'), path);
  assert.deepEqual(
    none.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
    ['CSF009'],
  );
});
