/**
 * Issue #17 item 1: the packaged extension's README works on VS Code's details page. That page loads
 * images only from https: and data: and drops relative links, and the project has no public URL, so
 * scripts/package.mjs inlines the README's screenshots (scripts/lib/packagedReadme.mjs). These tests
 * package the working tree with vsce (the same options as the script, the bundles as built) and read the
 * .vsix back: its readme shows every screenshot byte for byte, holds no link the page cannot follow, and
 * every file the README and the manifest name is inside the package.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Readable } from 'node:stream';

const REPO = resolve(__dirname, '..', '..');
// plain ES modules without type declarations: imported by URL, typed loosely
const load = (rel: string): Promise<any> => import(pathToFileURL(join(REPO, rel)).href);

// yauzl (installed with vsce) has no type declarations here: the part of it this file uses
interface ZipEntry {
  fileName: string;
}
interface Zip {
  on(ev: 'entry', f: (e: ZipEntry) => void): void;
  on(ev: 'end', f: () => void): void;
  on(ev: 'error', f: (e: Error) => void): void;
  readEntry(): void;
  openReadStream(e: ZipEntry, f: (err: Error | null, s?: Readable) => void): void;
}
const yauzl = createRequire(__filename)('yauzl') as { open(file: string, o: object, f: (err: Error | null, zip?: Zip) => void): void };

/** Every entry of the zip at `file` with its bytes. */
function unzip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((ok, fail) => {
    const out = new Map<string, Buffer>();
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return fail(err);
      zip.on('entry', (e) =>
        zip.openReadStream(e, (err2, s) => {
          if (err2 || !s) return fail(err2);
          const parts: Buffer[] = [];
          s.on('data', (d: Buffer) => parts.push(d));
          s.on('end', () => {
            out.set(e.fileName, Buffer.concat(parts));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => ok(out));
      zip.on('error', fail);
      zip.readEntry();
    });
  });
}

const readRepo = (rel: string) => {
  try {
    return readFileSync(join(REPO, rel));
  } catch {
    return undefined;
  }
};

test('packagedReadme inlines a relative image as a data: URI of its bytes and keeps https links and anchors', async () => {
  const { packagedReadme } = await load('scripts/lib/packagedReadme.mjs');
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  const text = 'Intro [site](https://example.org/x) and [up](#top).\n| ![a](shots/a.png) | ![b](./shots/b.png) |\n`![not](code.png)`\n';
  const r = packagedReadme(text, (p: string) => (p === 'shots/a.png' || p === 'shots/b.png' ? png : undefined));
  // base64 of 89 50 4e 47 01 02 03, computed by hand: iVBORwECAw==
  assert.equal(
    r.text,
    'Intro [site](https://example.org/x) and [up](#top).\n| ![a](data:image/png;base64,iVBORwECAw==) | ![b](data:image/png;base64,iVBORwECAw==) |\n`![not](code.png)`\n',
  );
  assert.deepEqual(
    r.images.map((i: { path: string }) => i.path),
    ['shots/a.png', 'shots/b.png'],
  );
});

test('packagedReadme refuses, with README.md:line:column, links the details page cannot follow', async () => {
  const { packagedReadme } = await load('scripts/lib/packagedReadme.mjs');
  const text = 'See [the spec](docs/spec.md).\n\n![gone](docs/gone.png) and [f](file:///etc/passwd) and ![v](docs/v.svg)\n';
  assert.throws(
    () => packagedReadme(text, () => undefined),
    (e: Error) => {
      assert.match(e.message, /README\.md:1:5: docs\/spec\.md: a relative link does not open/);
      assert.match(e.message, /README\.md:3:1: docs\/gone\.png: no such file/);
      assert.match(e.message, /README\.md:3:28: file:\/\/\/etc\/passwd: only https: and mailto: links/);
      assert.match(e.message, /README\.md:3:56: docs\/v\.svg: not an image the details page shows/);
      return true;
    },
  );
});

test('the .vsix holds one readme whose screenshots are the docs/ files inlined, and every file the README and manifest name', async () => {
  const { packagedReadme, markdownLinks } = await load('scripts/lib/packagedReadme.mjs');
  const vsce: any = await import('@vscode/vsce');
  const source = readFileSync(join(REPO, 'README.md'), 'utf8');
  const shown = markdownLinks(source).filter((l: { image: boolean }) => l.image);
  assert.ok(shown.length >= 5, `the README shows ${shown.length} images, expected the 5 screenshots`);
  const expected = packagedReadme(source, readRepo);

  const dir = mkdtempSync(join(tmpdir(), 'tensor-lens-package-test-'));
  // vsce reads --readme-path from inside the folder it packages: a name of our own, removed afterwards, and
  // outside dist/ (a build elsewhere in the tree may empty dist/ while this test runs)
  const readmeRel = `test-artifacts/packaging/README-${process.pid}.md`;
  mkdirSync(join(REPO, 'test-artifacts', 'packaging'), { recursive: true });
  writeFileSync(join(REPO, readmeRel), expected.text);
  try {
    const vsix = join(dir, 'x.vsix');
    await vsce.createVSIX({
      cwd: REPO,
      packagePath: vsix,
      dependencies: false,
      allowMissingRepository: true,
      rewriteRelativeLinks: false,
      skipLicense: true,
      readmePath: readmeRel,
    });
    const entries = await unzip(vsix);
    const files = new Map([...entries].filter(([n]) => n.startsWith('extension/')).map(([n, b]) => [n.slice('extension/'.length), b]));
    const readmes = [...files.keys()].filter((f) => /readme\.md$/i.test(f) && !f.includes('/'));
    assert.deepEqual(readmes, ['readme.md'], 'exactly one README at the root of the package');
    const packaged = files.get('readme.md')!.toString('utf8');
    assert.equal(packaged, expected.text);

    // every image is a data: URI whose bytes are the screenshot the source README names
    const links = markdownLinks(packaged);
    const images = links.filter((l: { image: boolean }) => l.image);
    assert.equal(images.length, shown.length);
    images.forEach((l: { target: string }, i: number) => {
      const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(l.target);
      assert.ok(m, `image ${i + 1} (${shown[i].target}) is not inlined: ${l.target.slice(0, 60)}`);
      assert.ok(Buffer.from(m[1], 'base64').equals(readFileSync(join(REPO, shown[i].target))), `image ${i + 1} differs from ${shown[i].target}`);
    });
    // no link the details page would drop
    for (const l of links.filter((x: { image: boolean }) => !x.image))
      assert.match(l.target, /^(https:|mailto:|#)/, `README.md:${l.line}:${l.column}: ${l.target} cannot be followed from the details page`);

    // the user-facing files the README names (docs/, examples/, schemas/) are packaged
    const named = new Set([...source.matchAll(/`((?:docs|examples|schemas)\/[^`\s*]+\.[a-z]+)`/g)].map((m) => m[1]));
    assert.ok(named.has('docs/tlayout.md'), 'the README names docs/tlayout.md');
    for (const f of named) assert.ok(files.has(f), `the README names ${f}, which is not in the package`);

    // the manifest's files: the changelog (a tab of the details page), the icons
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    assert.ok(files.has('changelog.md'), 'CHANGELOG.md is packaged (vsce stores it as changelog.md)');
    assert.ok(files.has(pkg.icon), `${pkg.icon} is packaged`);
    for (const lang of pkg.contributes.languages)
      for (const theme of ['light', 'dark'])
        if (lang.icon) assert.ok(files.has(lang.icon[theme].replace(/^\.\//, '')), `${lang.id}'s ${theme} icon ${lang.icon[theme]} is packaged`);
  } finally {
    rmSync(join(REPO, readmeRel), { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CHANGELOG.md follows Keep a Changelog: an Unreleased section, then versions, the package version among them', () => {
  const text = readFileSync(join(REPO, 'CHANGELOG.md'), 'utf8');
  const versions = [...text.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]);
  assert.equal(versions[0], 'Unreleased');
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  assert.ok(versions.includes(pkg.version), `no section for version ${pkg.version}: ${versions.join(', ')}`);
  for (const h of text.matchAll(/^### (.+)$/gm)) assert.ok(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'].includes(h[1]), `### ${h[1]}`);
});
