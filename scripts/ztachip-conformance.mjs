#!/usr/bin/env node
// Runs ztachip's own vision checks (SW/src/test.cpp of a ztachip checkout) on the Tensor Lens simulator.
//
//   npm run conformance -- <ztachip checkout> [--only NAME[,NAME...]] [--keep] [--mem-bytes N] [--steps N] [--verbose]
//
// For every test of test.cpp that compares a kernel's output with a file of SW/fs or with bytes test.cpp
// computes (test_gaussian, test_canny, test_harris, test_resize, test_histogram, test_yuyv_to_bgr,
// test_of, test_color) it writes a driver program of ours into a temporary folder — it #includes the
// kernel's .m from the checkout, declares the buffers, computes what ztachip's C++ graph node computes
// (coefficients, stream-processor tables, request arguments) and calls the kernel_*_exe entry — runs it
// with `tensor-lens run`, and compares the dumped outputs (or reads the verdicts the driver prints).
// The drivers live in scripts/conformance/<family>.mjs. Nothing is written into the checkout.
//
// Prints one line per check (identical, or how it differs), then the total and the run time per kernel.
// Exit status 0 when every check passes, 1 otherwise, 2 on bad usage. Not part of CI: it needs a checkout.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTyped } from './conformance/common.mjs';
import * as gaussian from './conformance/gaussian.mjs';
import * as canny from './conformance/canny.mjs';
import * as harris from './conformance/harris.mjs';
import * as resize from './conformance/resize.mjs';
import * as histogram from './conformance/histogram.mjs';
import * as yuyv from './conformance/yuyv.mjs';
import * as of from './conformance/of.mjs';
import * as color from './conformance/color.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'bin', 'tensor-lens');
/** In test.cpp's order of test(): histogram, gaussian, resize, harris, canny, yuyv, of, color. */
const FAMILIES = [histogram, gaussian, resize, harris, canny, yuyv, of, color];

const USAGE = `usage: npm run conformance -- <ztachip checkout> [--only NAME[,NAME...]] [--keep] [--mem-bytes N] [--steps N] [--verbose]
  <ztachip checkout>  the folder holding SW/ (or SW itself)
  --only              run only these tests: ${FAMILIES.map((f) => f.family).join(', ')} (the test_ prefix may be left out)
  --keep              keep the temporary folder with the drivers and dumps (its path is printed)
  --mem-bytes N       simulated MEM size for every run (default: each test's own, at least 64 MiB)
  --steps N           step budget of every run (default: each test's own)
  --verbose           print each run's command line and output`;

function parseArgs(argv) {
  const o = { only: undefined, keep: false, memBytes: undefined, steps: undefined, verbose: false, checkout: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    const num = (s) => {
      if (!/^\d+$/.test(s)) throw new Error(`${a} ${s}: a positive integer expected`);
      return Number(s);
    };
    if (a === '--only')
      o.only = val()
        .split(',')
        .map((s) => (s.startsWith('test_') ? s : `test_${s}`));
    else if (a === '--keep') o.keep = true;
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--mem-bytes') o.memBytes = num(val());
    else if (a === '--steps') o.steps = num(val());
    else if (a === '-h' || a === '--help') {
      console.log(USAGE);
      process.exit(0);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else if (o.checkout) throw new Error(`one checkout expected, got ${o.checkout} and ${a}`);
    else o.checkout = a;
  }
  if (!o.checkout) throw new Error('the path of a ztachip checkout is required');
  if (o.only) {
    const known = new Set(FAMILIES.map((f) => f.family));
    for (const n of o.only) if (!known.has(n)) throw new Error(`--only ${n}: not one of ${[...known].join(', ')}`);
  }
  return o;
}

function findSw(dir) {
  for (const c of [path.join(dir, 'SW'), dir]) {
    if (fs.existsSync(path.join(c, 'src', 'test.cpp')) && fs.existsSync(path.join(c, 'fs')) && fs.existsSync(path.join(c, 'apps'))) return path.resolve(c);
  }
  throw new Error(`${dir}: not a ztachip checkout (no SW/src/test.cpp, SW/fs, SW/apps)`);
}

/** Runs one driver; returns { ok, code, ms, simMs, stdout, stderr, error }. */
function runJob(job, tmp, opts) {
  const file = path.join(tmp, `${job.name}.m`);
  fs.writeFileSync(file, job.driver);
  const args = [CLI, 'run', file];
  for (const l of job.loads ?? []) args.push('--load', `${l.where}=${l.file}`);
  for (const d of job.dumps ?? []) args.push('--dump', `MEM:${d.where}:${d.count}:${d.dtype}=${d.file}`);
  const memBytes = Math.max(opts.memBytes ?? 0, job.memBytes ?? 64 * 1024 * 1024);
  args.push('--mem-bytes', String(memBytes));
  args.push('--steps', String(opts.steps ?? job.steps ?? 2_000_000_000));
  if (opts.verbose) console.log(`  $ ${process.execPath} ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: tmp, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - t0;
  const stdout = r.stdout ?? '';
  const stderr = r.stderr ?? '';
  if (opts.verbose) {
    for (const line of (stdout + stderr).split('\n')) if (line) console.log(`  | ${line}`);
  }
  const m = /,\s*(\d+)\s*ms\s*$/m.exec(stdout);
  const simMs = m ? Number(m[1]) : undefined;
  let error;
  if (r.error) error = r.error.message;
  else if (r.status !== 0) {
    const lines = (stderr + '\n' + stdout).split('\n').filter((s) => /error|internal|not built|fault|not simulated/i.test(s));
    error = `tensor-lens run exited with ${r.status}${r.signal ? ` (${r.signal})` : ''}: ${(lines[0] ?? stderr.trim().split('\n')[0] ?? '').trim()}`;
  }
  const warnings = (stderr + '\n' + stdout).split('\n').filter((s) => /: warning: /.test(s));
  return { ok: !error, ms, simMs, stdout, stderr, error, warnings, file };
}

function fmtMs(ms) {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`ztachip-conformance: ${e.message}\n${USAGE}`);
    return 2;
  }
  let sw;
  try {
    sw = findSw(opts.checkout);
  } catch (e) {
    console.error(`ztachip-conformance: ${e.message}`);
    return 2;
  }
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) {
    console.error('ztachip-conformance: the CLI is not built; run `npm run build` first');
    return 2;
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tensor-lens-conformance-'));
  const fsFile = (name) => {
    const f = path.join(sw, 'fs', name);
    if (!fs.existsSync(f)) throw new Error(`${f} is missing`);
    return f;
  };
  const ctx = { sw, tmp, fsFile };
  const families = FAMILIES.filter((f) => !opts.only || opts.only.includes(f.family));
  console.log(`ztachip conformance: ${sw} on ${path.relative(process.cwd(), CLI) || CLI} (drivers in ${tmp})`);

  const results = []; // { family, check }
  const times = new Map(); // kernel -> { ms, simMs, runs }
  let exitCode = 0;
  for (const fam of families) {
    let jobs;
    try {
      jobs = fam.jobs(ctx);
    } catch (e) {
      const check = { name: fam.family, pass: false, detail: `set-up failed: ${e.message}` };
      results.push({ family: fam.family, check });
      console.log(`FAIL  ${check.name}: ${check.detail}`);
      continue;
    }
    for (const job of jobs) {
      const dtypes = new Map((job.dumps ?? []).map((d) => [d.file, d]));
      const run = runJob(job, tmp, opts);
      const t = times.get(job.kernel) ?? { ms: 0, simMs: 0, runs: 0 };
      t.ms += run.ms;
      t.simMs += run.simMs ?? 0;
      t.runs++;
      times.set(job.kernel, t);
      let checks;
      if (!run.ok && !job.verifyFailedRun) {
        checks = (job.checkNames ?? [job.name]).map((name) => ({ name, pass: false, detail: run.error }));
      } else {
        const vctx = {
          stdout: run.stdout,
          error: run.error,
          dump: (file) => {
            const d = dtypes.get(file);
            if (!d) throw new Error(`${file} is not a dump of ${job.name}`);
            if (!fs.existsSync(file)) throw new Error(`${path.basename(file)} was not written`);
            return readTyped(file, d.dtype, d.count);
          },
          expected: (name, dtype, count) => readTyped(fsFile(name), dtype, count),
        };
        try {
          checks = job.verify(vctx);
        } catch (e) {
          checks = (job.checkNames ?? [job.name]).map((name) => ({ name, pass: false, detail: run.error ?? `verification failed: ${e.message}` }));
        }
      }
      for (const check of checks) {
        results.push({ family: fam.family, check });
        console.log(`${check.pass ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`);
      }
      for (const w of [...new Set(run.warnings)].slice(0, 5)) console.log(`      (run warning) ${w.replace(tmp + path.sep, '')}`);
      if (!run.ok && run.stderr && !opts.verbose) {
        for (const line of run.stderr.trim().split('\n').slice(0, 6)) console.log(`      | ${line.replace(tmp + path.sep, '')}`);
      }
    }
  }

  const passed = results.filter((r) => r.check.pass).length;
  const combos = results.reduce((acc, r) => acc + (r.check.count ?? 1), 0);
  const combosPassed = results.reduce((acc, r) => acc + (r.check.pass ? (r.check.count ?? 1) : (r.check.passedCount ?? 0)), 0);
  console.log('');
  console.log(
    `total: ${passed}/${results.length} checks passed` + (combos !== results.length ? ` (${combosPassed}/${combos} counting each test_color combination)` : ''),
  );
  for (const fam of families) {
    const rs = results.filter((r) => r.family === fam.family);
    const p = rs.filter((r) => r.check.pass).length;
    console.log(`  ${fam.family.padEnd(18)} ${p}/${rs.length}`);
  }
  console.log('run time per kernel (wall clock of tensor-lens run; simulator time in brackets):');
  for (const [kernel, t] of times) {
    console.log(`  ${kernel.padEnd(18)} ${fmtMs(t.ms).padStart(9)}  [${fmtMs(t.simMs)}]  ${t.runs} run${t.runs === 1 ? '' : 's'}`);
  }
  if (passed !== results.length || results.length === 0) exitCode = 1;
  if (opts.keep) console.log(`drivers and dumps kept in ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
  return exitCode;
}

process.exitCode = main();
