/**
 * The layout map (client/src/layoutMapPanel.ts) reads `fibers(file=…)` ahead through `vscode.workspace.fs` with `readSpecFiles`, under
 * the roots the language server uses (`specRoots`: the workspace folders and the spec's own folder tree): a path outside them (absolute,
 * `..`) is never read and is refused in the server's words; as that file system tells a symbolic link but not where it leads, a link on
 * the way from the root to the file is not followed (a FileAccessError naming it), while files reached without links are read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeLayout } from '../../core/layout';
import { csfSparseLoader, firstLinkBelowRoot, outsideRoots, readSpecFiles, specRoots, type LinkBlindFs } from '../../core/layout/csfLoader';

const A = new Uint8Array(readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'layouts', 'A.csfbin')));

/** A workspace /w (with /w/specs/s.tlayout): files by path, the paths that are links, and what was read or looked at. */
function fakeFs(files: Record<string, Uint8Array>, links: string[] = []): LinkBlindFs & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    isLink: async (p) => links.includes(p),
    read: async (p) => {
      reads.push(p);
      const f = files[p];
      if (!f) throw new Error('ENOENT');
      return f;
    },
  };
}

const SPEC = '/w/specs/s.tlayout';

test("specRoots: the workspace folders and the spec's own folder (the server's rule)", () => {
  assert.deepEqual(specRoots(SPEC, ['/w', '/v']), ['/w', '/v', '/w/specs']);
  assert.deepEqual(specRoots('/s.tlayout', ['/w']), ['/w']);
  assert.deepEqual(specRoots('Untitled-1', ['/w']), ['/w']);
  assert.deepEqual(specRoots('C:\\w\\s.tlayout', []), ['C:/w']);
});

test("outsideRoots: the server's message for an absolute path or .. leading out; nothing without roots", () => {
  const roots = specRoots(SPEC, ['/w']);
  assert.equal(outsideRoots('/w/data/A.csfbin', roots), undefined);
  assert.equal(
    outsideRoots('/etc/x.csfbin', roots),
    '/etc/x.csfbin is outside the workspace (a layout spec reads .csfbin files in its workspace folders or its own folder)',
  );
  assert.match(outsideRoots('/w/../etc/x.csfbin', roots)!, /is outside the workspace/);
  assert.equal(outsideRoots('/etc/x.csfbin', undefined), undefined);
});

test('firstLinkBelowRoot: each step from the deepest root down to the file, the root itself not', async () => {
  const looked: string[] = [];
  const isLink = (links: string[]) => async (p: string) => (looked.push(p), links.includes(p));
  assert.equal(await firstLinkBelowRoot('/w/a/b/A.csfbin', ['/w'], isLink([])), undefined);
  assert.deepEqual(looked, ['/w/a', '/w/a/b', '/w/a/b/A.csfbin']);
  assert.equal(await firstLinkBelowRoot('/w/a/b/A.csfbin', ['/w'], isLink(['/w/a'])), '/w/a');
  assert.equal(await firstLinkBelowRoot('/w/a/b/A.csfbin', ['/w', '/w/a/b'], isLink(['/w/a', '/w/a/b'])), undefined);
  assert.equal(await firstLinkBelowRoot('/w/A.csfbin', ['/w'], isLink(['/w/A.csfbin'])), '/w/A.csfbin');
  assert.equal(await firstLinkBelowRoot('/x/A.csfbin', ['/w'], isLink(['/x/A.csfbin'])), undefined);
  assert.equal(await firstLinkBelowRoot('/a/A.csfbin', ['/'], isLink(['/a'])), '/a');
});

test('readSpecFiles: files under the roots are read; outside paths are not read and are refused as the server refuses them', async () => {
  const fs = fakeFs({ '/w/specs/A.csfbin': A, '/w/data/A.csfbin': A, '/etc/secret.csfbin': A, '/w/../etc/secret.csfbin': A });
  const text = [
    'tensor a: float32[2, 3] = fibers(file="A.csfbin", main=0, meta=0)',
    'tensor b: float32[2, 3] = fibers(file="../data/A.csfbin", main=0, meta=0)',
    'tensor c: float32[2, 3] = fibers(file="/etc/secret.csfbin", main=0, meta=0)',
    'tensor d: float32[2, 3] = fibers(file="../../etc/secret.csfbin", main=0, meta=0)',
  ].join('\n');
  const roots = specRoots(SPEC, ['/w']);
  const read = await readSpecFiles(text, SPEC, roots, fs);
  assert.deepEqual(fs.reads.sort(), ['/w/data/A.csfbin', '/w/specs/A.csfbin']);
  const load = csfSparseLoader(read, { roots: () => roots });
  assert.deepEqual([...load('A.csfbin', SPEC)!.shape], [2, 3]);
  assert.deepEqual([...load('../data/A.csfbin', SPEC)!.shape], [2, 3]);
  for (const f of ['/etc/secret.csfbin', '../../etc/secret.csfbin'])
    assert.throws(() => load(f, SPEC), /is outside the workspace \(a layout spec reads \.csfbin files in its workspace folders or its own folder\)/, f);
});

test('readSpecFiles: a symbolic link on the way is not followed (the file system cannot say where it leads)', async () => {
  const fs = fakeFs({ '/w/specs/link.csfbin': A, '/w/out/A.csfbin': A, '/w/specs/A.csfbin': A }, ['/w/specs/link.csfbin', '/w/out']);
  const roots = specRoots(SPEC, ['/w']);
  const text = 'x file="link.csfbin" y file="../out/A.csfbin" z file="A.csfbin"';
  const read = await readSpecFiles(text, SPEC, roots, fs);
  assert.deepEqual(fs.reads, ['/w/specs/A.csfbin']);
  const load = csfSparseLoader(read, { roots: () => roots });
  assert.throws(() => load('link.csfbin', SPEC), {
    message: '/w/specs/link.csfbin: a symbolic link, which the layout map does not follow (it cannot tell whether it leads outside the workspace)',
  });
  assert.throws(() => load('../out/A.csfbin', SPEC), /^Error: \/w\/out\/A\.csfbin: \/w\/out is a symbolic link, which the layout map does not follow/);
  assert.ok(load('A.csfbin', SPEC));
});

test('the picture of a spec naming a file outside the workspace says why, like the editor', async () => {
  const fs = fakeFs({ '/etc/secret.csfbin': A });
  const text = 'tensor c: float32[2, 3] = fibers(file="/etc/secret.csfbin", main=0, meta=0)\n';
  const roots = specRoots(SPEC, ['/w']);
  const a = analyzeLayout(text, SPEC, { loadSparse: csfSparseLoader(await readSpecFiles(text, SPEC, roots, fs), { roots: () => roots }) });
  assert.deepEqual(fs.reads, []);
  assert.ok(
    a.diagnostics.some((d) => /\/etc\/secret\.csfbin is outside the workspace/.test(d.message)),
    JSON.stringify(a.diagnostics.map((d) => d.message)),
  );
});
