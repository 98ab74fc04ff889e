#!/usr/bin/env node
// `npm run fuzz`: long fuzzing of the engine with the properties of test/unit/fuzz.test.ts (random
// bytes, mutations of the example programs, random statements, PCORE mutations, mutations of the
// example layout specs, mutated and truncated .csfbin files): nothing throws, every call returns
// within a time bound, every range is inside the document, every .csfbin problem's byte offset is
// inside the file. Runs in worker threads under a watchdog, so a hang is reported (with its input)
// and fuzzing goes on.
//
// Kinds: tprog (mutated example programs), tprog-bytes (random bytes/text), tprog-soup (random
// statements), pcore (PCORE programs), tlayout (layout specs through analyzeLayout and every layout
// feature; also very long lists: shapes, pointers, strides of up to FUZZ_MAX_LIST numbers, negative hex
// among them), csfbin (files through the validator, codec, accelerator load and the viewer model/host),
// cli (the command line's main() in-process: numbers in every spelling, negative hex among them, for map
// and csf options; `check DIR` over a temporary tree with a FIFO, links to /dev/zero, a symbolic link
// loop, a dangling link, a folder linked to its parent).
//
// Configuration (environment, or the same names as --options: --runs 5000 --time 600 ...):
//   FUZZ_RUNS      inputs per kind (default 2000)
//   FUZZ_TIME      seconds per kind (default 60); whichever of runs/time ends first
//   FUZZ_KINDS     comma list of tprog,tprog-bytes,tprog-soup,pcore,tlayout,csfbin,cli (default all)
//   FUZZ_SEED      first seed (default random; printed)
//   FUZZ_LIMIT_MS  time bound per call (default 2000)
//   FUZZ_HANG_MS   no progress for this long = hang (default 30000)
//   FUZZ_PARALLEL  kinds fuzzed at once (default: number of CPUs, at most 4)
//   FUZZ_MAX_LINE, FUZZ_MAX_NEST, FUZZ_MAX_LIST, FUZZ_MAX_MUTATIONS  size of inserted long lines / nesting / long lists, edits per input
//   FUZZ_OUT       directory for failing inputs (default <tmp>/tensor-lens-fuzz-<time>)
// Exit code 1 when a failure or hang was found.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
require('tsx/cjs/api').register();
const { runCampaign } = require('../test/unit/fuzz-runner.ts');

function option(name, fallback) {
  const flag = `--${name
    .toLowerCase()
    .replace(/^fuzz_/, '')
    .replace(/_/g, '-')}`;
  const i = process.argv.indexOf(flag);
  if (i >= 0 && process.argv[i + 1] !== undefined) return process.argv[i + 1];
  return process.env[name] ?? fallback;
}

const KINDS = ['tprog', 'tprog-bytes', 'tprog-soup', 'pcore', 'tlayout', 'csfbin', 'cli'];
const runs = Number(option('FUZZ_RUNS', 2000));
const timeS = Number(option('FUZZ_TIME', 60));
const kinds = String(option('FUZZ_KINDS', KINDS.join(',')))
  .split(',')
  .map((k) => k.trim())
  .filter(Boolean);
const seed0 = Number(option('FUZZ_SEED', Math.floor(Math.random() * 2 ** 31)));
const limitMs = Number(option('FUZZ_LIMIT_MS', 2000));
const hangMs = Number(option('FUZZ_HANG_MS', 30000));
const parallel = Math.max(1, Number(option('FUZZ_PARALLEL', Math.min(4, availableParallelism()))));
const limits = {
  maxLine: Number(option('FUZZ_MAX_LINE', 30000)),
  maxNest: Number(option('FUZZ_MAX_NEST', 3000)),
  maxList: Number(option('FUZZ_MAX_LIST', 20000)),
};
const maxMutations = Number(option('FUZZ_MAX_MUTATIONS', 6));
const out = option('FUZZ_OUT', join(tmpdir(), `tensor-lens-fuzz-${new Date().toISOString().replace(/[:.]/g, '-')}`));

for (const k of kinds) if (!KINDS.includes(k)) throw new Error(`unknown kind ${k} (known: ${KINDS.join(', ')})`);
console.log(
  `fuzz: kinds ${kinds.join(', ')}; up to ${runs} inputs or ${timeS} s per kind; seed ${seed0}; per-call limit ${limitMs} ms; hang after ` +
    `${hangMs} ms; ${parallel} at once`,
);

const t0 = Date.now();
const signature = (f) =>
  `${f.kind} ${f.violations.map((v) => `${v.where.replace(/@\d+|\(.*\)/g, '')}: ${v.problem.split('\n')[0].replace(/\d+(\.\d+)?/g, 'N')}`).sort()[0]}`;
const unique = new Map();
let saved = 0;
function record(f, hang) {
  const sig = signature(f);
  const u = unique.get(sig);
  if (u) return void u.count++;
  unique.set(sig, { count: 1, first: f, hang });
  mkdirSync(out, { recursive: true });
  const file = join(out, `${String(++saved).padStart(3, '0')}-${f.kind}${hang ? '-hang' : ''}.json`);
  writeFileSync(file, JSON.stringify(f, null, 1));
  console.log(
    `\n!! ${hang ? 'HANG' : 'FAILURE'} [${f.kind}] ${f.violations[0].where}: ${f.violations[0].problem.split('\n').slice(0, 4).join(' | ')}\n   ` +
      `input ${f.input.path} (${f.input.text.length} chars) saved to ${file}`,
  );
}

const reports = [];
const queue = kinds.map((kind, i) => ({ kind, seed: (seed0 + i * 7919) >>> 0 }));
async function lane() {
  for (let q = queue.shift(); q; q = queue.shift()) {
    const job = { kind: q.kind, mode: 'campaign', numRuns: runs, seed: q.seed, limitMs, limits, maxMutations };
    const started = Date.now();
    let shown = started;
    const r = await runCampaign(job, {
      hangMs,
      totalTimeMs: timeS * 1000,
      onProgress: (n) => {
        if (Date.now() - shown < 10_000) return;
        shown = Date.now();
        console.log(`  ${q.kind}: ${n} inputs (${((shown - started) / 1000).toFixed(0)} s)`);
      },
      onFailure: record,
    });
    reports.push(r);
    console.log(
      `  ${q.kind}: done, ${r.tried} inputs in ${(r.ms / 1000).toFixed(1)} s, ${r.failures.length} failing, ${r.hangs.length} hangs ` +
        `(seeds ${r.seeds.join(', ')})`,
    );
  }
}
await Promise.all(Array.from({ length: Math.min(parallel, kinds.length) }, lane));

const pad = (s, n) => String(s).padEnd(n);
console.log(`\n${pad('kind', 13)}${pad('inputs', 9)}${pad('failures', 10)}${pad('hangs', 7)}slowest call`);
let tried = 0;
let failures = 0;
for (const r of reports.sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind))) {
  const slow = Object.entries(r.stats).sort((a, b) => b[1].max - a[1].max)[0];
  console.log(
    `${pad(r.kind, 13)}${pad(r.tried, 9)}${pad(r.failures.length, 10)}${pad(r.hangs.length, 7)}${slow ? `${slow[0]} ${slow[1].max.toFixed(0)} ms` : '-'}`,
  );
  tried += r.tried;
  failures += r.failures.length + r.hangs.length;
}
console.log(`\ninputs tried: ${tried}`);
console.log(`failures: ${failures} (${unique.size} distinct)`);
for (const [sig, u] of unique) console.log(`  ${u.count}× ${sig}`);
if (saved) console.log(`failing inputs: ${out}`);
console.log(`time: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failures ? 1 : 0);
