#!/usr/bin/env node
// npm run mutate [-- MODULE...] [--incremental] [--runner tap]: mutation testing (StrykerJS over the node:test unit
// tests, run through tsx) of the core modules whose answers users rely on, one Stryker run per module
// (stryker.config.mjs), then one table: killed, survived, timeout, no coverage, score. On demand only; not part of
// npm test or CI.
//
// --runner tap uses Stryker's tap runner (a process per test file and mutant) instead of ours (scripts/mutate/runner.mjs).
// --incremental reuses the previous run's results for mutants whose code and covering test files did not change
// (reports/mutation/MODULE.incremental.json). Reports: reports/mutation/MODULE.html and .json; the surviving
// mutants, one line each (file:line:col mutator → replacement), in reports/mutation/MODULE.survivors.txt.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Stryker } from '@stryker-mutator/core';
import { base, modules, testFiles } from '../stryker.config.mjs';
import { describeMutant } from './mutate/live.mjs';

const usage = `usage: npm run mutate -- [${Object.keys(modules).join('|')} ...] [--incremental] [--runner tap]`;
const names = [];
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
  } else if (a.startsWith('--')) fail(`unknown option ${a}`);
  else if (a in modules) names.push(a);
  else fail(`unknown module ${a}`);
}

const OUT = 'reports/mutation';
mkdirSync(OUT, { recursive: true });
const rows = [];
for (const name of names.length > 0 ? names : Object.keys(modules)) {
  const started = Date.now();
  // a fresh copy per run: Stryker writes its defaults into the options it is given (nulls that break a second run)
  const results = await new Stryker({
    ...structuredClone(base),
    mutate: modules[name].mutate,
    ...testFiles(modules[name].tests),
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

function fail(message) {
  console.error(`mutate: ${message}`);
  console.error(usage);
  process.exit(2);
}
