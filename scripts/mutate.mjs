#!/usr/bin/env node
// npm run mutate [-- MODULE...] [--incremental] [--runner tap]: mutation testing (StrykerJS over the node:test unit
// tests, run through tsx) of the core modules whose answers users rely on, one Stryker run per module
// (stryker.config.mjs), then one table: killed, survived, timeout, no coverage, score. On demand only; not part of
// npm test or CI.
//
// --runner tap uses Stryker's tap runner (a process per test file and mutant) instead of ours (scripts/mutate/runner.mjs).
// --file PATH (repeatable, with one module) mutates only those files of the module, with the module's whole test list,
// and writes its reports under its own name (MODULE-FILE…), in its own sandbox and at concurrency 1, so that several
// can run at once while tests are written for different files. A file's mutants are independent of the other files',
// so the per-file scores add up to the module's.
// --incremental reuses the previous run's results for mutants whose code and covering test files did not change
// (reports/mutation/MODULE.incremental.json). Reports: reports/mutation/MODULE.html and .json; the surviving
// mutants, one line each (file:line:col mutator → replacement), in reports/mutation/MODULE.survivors.txt.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { Stryker } from '@stryker-mutator/core';
import { base, modules, testFiles } from '../stryker.config.mjs';
import { describeMutant } from './mutate/live.mjs';

const usage = `usage: npm run mutate -- [${Object.keys(modules).join('|')} ...] [--file PATH ...] [--incremental] [--runner tap]`;
const names = [];
const files = [];
let incremental = false;
let runner = base.testRunner;
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--help') {
    console.log(usage);
    process.exit(0);
  } else if (a === '--incremental') incremental = true;
  else if (a === '--runner') {
    runner = process.argv[++i];
    if (runner !== 'tap') fail(`--runner takes tap (the default is ours, ${base.testRunner})`);
  } else if (a === '--file') {
    const f = process.argv[++i];
    if (!f || !existsSync(f)) fail(`--file takes an existing source file (got ${f ?? 'nothing'})`);
    files.push(relative(process.cwd(), resolve(f)));
  } else if (a.startsWith('--')) fail(`unknown option ${a}`);
  else if (a in modules) names.push(a);
  else fail(`unknown module ${a}`);
}

if (files.length > 0 && names.length !== 1) fail('--file needs exactly one module (the one whose tests exercise the files)');

const OUT = 'reports/mutation';
mkdirSync(OUT, { recursive: true });
const rows = [];
for (const module of names.length > 0 ? names : Object.keys(modules)) {
  const started = Date.now();
  const name = files.length === 0 ? module : [module, ...files.map(slug)].join('-');
  // the live reporter (scripts/mutate/live.mjs) writes reports/mutation/LIVE.survivors.txt and LIVE.counts.json
  process.env.TENSOR_LENS_MUTATE_LIVE = files.length === 0 ? 'live' : `${name}.live`;
  // a fresh copy per run: Stryker writes its defaults into the options it is given (nulls that break a second run)
  const results = await new Stryker({
    ...structuredClone(base),
    mutate: files.length === 0 ? modules[module].mutate : files,
    ...testFiles(modules[module].tests),
    ...(files.length === 0 ? {} : { concurrency: 1, tempDirName: `.stryker-tmp-${name}` }),
    testRunner: runner,
    htmlReporter: { fileName: `${OUT}/${name}.html` },
    jsonReporter: { fileName: `${OUT}/${name}.json` },
    incremental,
    incrementalFile: `${OUT}/${name}.incremental.json`,
  }).runMutationTest();
  const count = (status) => results.filter((r) => r.status === status).length;
  const row = {
    module: name,
    mutants: results.length,
    killed: count('Killed'),
    survived: count('Survived'),
    timeout: count('Timeout'),
    noCoverage: count('NoCoverage'),
    errors: count('RuntimeError') + count('CompileError'),
    ignored: count('Ignored'),
    seconds: Math.round((Date.now() - started) / 1000),
  };
  // Stryker's mutation score: detected (killed + timeout) over detected + undetected (survived + no coverage).
  const valid = row.killed + row.timeout + row.survived + row.noCoverage;
  row.score = valid === 0 ? 0 : (100 * (row.killed + row.timeout)) / valid;
  rows.push(row);
  const survivors = results
    .filter((r) => r.status === 'Survived' || r.status === 'NoCoverage')
    .map(describeMutant)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  writeFileSync(`${OUT}/${name}.survivors.txt`, survivors.join('\n') + '\n');
}

const header = ['module', 'mutants', 'killed', 'survived', 'timeout', 'no coverage', 'errors', 'ignored', 'score', 'time'];
const table = rows.map((r) => [
  r.module,
  r.mutants,
  r.killed,
  r.survived,
  r.timeout,
  r.noCoverage,
  r.errors,
  r.ignored,
  `${r.score.toFixed(1)} %`,
  `${r.seconds} s`,
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => String(t[i]).length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
console.log('\n' + line(header));
for (const t of table) console.log(line(t));
console.log(`\nsurviving mutants: ${OUT}/MODULE.survivors.txt; reports: ${OUT}/MODULE.html`);

/** core/layout/models/spyre/maps.ts → spyre_maps: the last two parts (tt/validate.ts and spyre/validate.ts differ) */
function slug(file) {
  return file.replace(/\.ts$/, '').split(/[\\/]/).slice(-2).join('_');
}

function fail(message) {
  console.error(`mutate: ${message}`);
  console.error(usage);
  process.exit(2);
}
