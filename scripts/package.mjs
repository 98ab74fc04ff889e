#!/usr/bin/env node
// `npm run package`: production bundles (minified, no source maps), then `tensor-lens.vsix` with
// @vscode/vsce. The bundles carry every dependency, so the package holds no node_modules
// (`--no-dependencies`); .vscodeignore lists what goes in. Prints the size and the file count, and fails
// when the package holds a file it must not (source maps, sources, tests, node_modules) or lacks one
// the manifest needs. The README goes in as the details page can show it (scripts/lib/packagedReadme.mjs:
// its screenshots inlined as data: URIs, since that page loads no relative image).
//
// Usage: node scripts/package.mjs [--out FILE] [--skip-build]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listVsixAsync } from './lib/vsix.mjs';
import { packagedReadme } from './lib/packagedReadme.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const outIdx = argv.indexOf('--out');
const OUT = resolve(outIdx >= 0 && argv[outIdx + 1] ? argv[outIdx + 1] : join(REPO, 'tensor-lens.vsix'));
// the extension itself; the README's screenshots (inlined, see below) have a budget of their own
const LIMIT = 3 * 1024 * 1024;
const IMAGES_LIMIT = 2 * 1024 * 1024;
let imageBytes = 0;

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`[package] ${[cmd, ...args].join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

const t0 = Date.now();
if (!argv.includes('--skip-build')) run(process.execPath, ['scripts/build.mjs', '--production']);
// vsce takes the README from --readme-path (inside the folder it packages) and stores it as readme.md
const README = 'dist/package/README.md';
try {
  const readme = packagedReadme(readFileSync(join(REPO, 'README.md'), 'utf8'), (rel) => {
    try {
      return readFileSync(join(REPO, rel));
    } catch {
      return undefined;
    }
  });
  mkdirSync(join(REPO, dirname(README)), { recursive: true });
  writeFileSync(join(REPO, README), readme.text);
  imageBytes = readme.images.reduce((n, i) => n + i.bytes.length, 0);
  console.log(
    `[package] README: ${readme.images.length} images inlined, ${(imageBytes / 1024).toFixed(0)} KiB (${readme.images.map((i) => i.path).join(', ')})`,
  );
} catch (e) {
  console.error(`[package] ${e.message}`);
  process.exit(1);
}
run(process.execPath, [
  join(REPO, 'node_modules', '@vscode', 'vsce', 'vsce'),
  'package',
  '--no-dependencies',
  '--allow-missing-repository',
  '--no-rewrite-relative-links',
  '--skip-license',
  '--readme-path',
  README,
  '--out',
  OUT,
]);

const entries = await listVsixAsync(OUT);
const files = entries.filter((e) => e.name.startsWith('extension/')).map((e) => e.name.slice('extension/'.length));
const forbidden = files.filter((f) => /\.map$|\.ts$|^node_modules\/|^test\/|^bench\/|^core\/|^client\/|^server\/|^scripts\/|^\.ci\/|^dist\/package\//.test(f));
// one README only: a second one differing in case would collide on case-insensitive file systems
if (files.filter((f) => /^readme\.md$/i.test(f)).length !== 1) forbidden.push(...files.filter((f) => /^readme\.md$/i.test(f)));
const required = [
  'package.json',
  'dist/client/node.js',
  'dist/client/browser.js',
  'dist/server/node.js',
  'dist/server/browser.js',
  'dist/server/simWorker.js',
  'dist/debug/worker.js',
  'dist/media/inspector.js',
  'dist/wasm/tree-sitter-c.wasm',
  'dist/wasm/web-tree-sitter.wasm',
  'media/icon/icon.png',
  'syntaxes/tprog.tmLanguage.json',
  'examples/test/test.m',
  'readme.md',
  'changelog.md',
];
const missing = required.filter((f) => !files.includes(f));
const size = statSync(OUT).size;
const unpacked = entries.reduce((s, e) => s + e.size, 0);
console.log(
  `[package] ${OUT}: ${(size / 1024).toFixed(0)} KiB (${((size - imageBytes) / 1024).toFixed(0)} KiB without the README's screenshots, ` +
    `${(unpacked / 1024).toFixed(0)} KiB unpacked), ${files.length} files, ` +
    `in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);
const biggest = entries
  .filter((e) => e.name.startsWith('extension/'))
  .sort((a, b) => b.size - a.size)
  .slice(0, 6);
for (const e of biggest) console.log(`[package]   ${(e.size / 1024).toFixed(0).padStart(6)} KiB  ${e.name.slice('extension/'.length)}`);
let bad = false;
if (forbidden.length) {
  console.error(`[package] files that must not be packaged: ${forbidden.join(', ')}`);
  bad = true;
}
if (missing.length) {
  console.error(`[package] files missing from the package: ${missing.join(', ')}`);
  bad = true;
}
// PNG bytes do not compress further, and their base64 in the zip deflates back to about their size
if (imageBytes > IMAGES_LIMIT) {
  console.error(`[package] the README's screenshots weigh ${(imageBytes / 1024 / 1024).toFixed(2)} MiB, over their ${IMAGES_LIMIT / 1024 / 1024} MiB budget`);
  bad = true;
}
if (size - imageBytes > LIMIT) {
  console.error(
    `[package] ${((size - imageBytes) / 1024 / 1024).toFixed(2)} MiB without the README's screenshots is over the ${LIMIT / 1024 / 1024} MiB budget`,
  );
  bad = true;
}
process.exit(bad ? 1 : 0);
