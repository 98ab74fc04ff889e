/**
 * `npm run bench`: performance of the engine and of the language server on a generated workload
 * (a ~20,000-line tensor program and a ~2,000-line PCORE program; bench/generate.ts), all measured
 * in this run:
 *   - full parse+check (a fresh Project: .m + .p + header), median of several runs in a child process
 *     started like the language server (SERVER_NODE_FLAGS) that has already checked code: warmed up by
 *     6 full checks of the program's first 4,000 lines (about as much work as one check of the whole
 *     file), so V8 has optimised the checker; beside it the same with V8's default flags, the first
 *     full check in a fresh process (cold JIT, median of 3 processes) and the program with every
 *     statement distinct (the generated one repeats statements, which the parse cache shares)
 *   - re-check after a one-character edit through the same Project (warm parse cache), median: a
 *     character replaced (later text stays) and a character inserted or deleted (later text moves)
 *   - hover and inlay-hint latency p50/p95 through the real language server over stdio
 *   - server memory (VmRSS/VmHWM from /proc/<pid>/status), bundle sizes of dist/*
 *   - server start → initialize result (the activation proxy: requiring dist/client needs vscode)
 * The benchmark runs under the language server's Node flags (SERVER_NODE_FLAGS; it restarts itself with
 * them). Prints a table with targets and PASS/FAIL. Not a test: it always exits 0.
 *
 * Environment: BENCH_LINES (20000), BENCH_PCORE_LINES (2000), BENCH_RUNS (7), BENCH_REQUESTS (200),
 * BENCH_BUDGET_MS (20000: slow measurements are repeated less, at least 3 times),
 * BENCH_JSON=<file> also writes the results as JSON, BENCH_ONLY_LSP=1 skips the other modules' benchmarks
 * (bench/all.ts), BENCH_ONLY=engine measures only the engine part (no language server, no bundles,
 * no other modules).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { HoverRequest, InlayHintRequest, type Position } from 'vscode-languageserver-protocol/node';
import type { FileSystem } from '../core/project/fileSystem';
import { loadPcoreView } from '../core/project/pcoreAdapter';
import { Project } from '../core/project/project';
import { analyzePcore } from '../core/pcore';
import { ServerStatusRequest } from '../core/protocol/lspExt';
import { SERVER_NODE_FLAGS } from '../core/protocol/serverProcess';
import { hover } from '../core/tprog/features/hover';
import { inlayHints } from '../core/tprog/features/inlay';
import { analyzeTprog } from '../core/tprog/analyze';
import { LspClient, ROOT, SERVER_JS, TPROG } from '../test/lsp/lspClient';
import { generatePcore, generateTprog, HEADER } from './generate';
import { mulberry32 as rng } from '../test/helpers/rng';

const LINES = Number(process.env.BENCH_LINES ?? 20_000);
const PCORE_LINES = Number(process.env.BENCH_PCORE_LINES ?? 2_000);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 7));
const REQUESTS = Math.max(10, Number(process.env.BENCH_REQUESTS ?? 200));
/** Repetitions of a slow measurement stop after this much time (at least 3 runs). */
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 20_000);
/** BENCH_ONLY=engine: the in-process engine measurements only. */
const ENGINE_ONLY = process.env.BENCH_ONLY === 'engine';
/** BENCH_SLASHLESS_LINES: lines of the program of `>` lines without comments (the scan that was quadratic). */
const SLASHLESS_LINES = Number(process.env.BENCH_SLASHLESS_LINES ?? 200_000);

interface Row {
  metric: string;
  target?: number;
  measured?: number;
  unit: string;
  note?: string;
}
const rows: Row[] = [];
const row = (metric: string, measured: number | undefined, unit: string, target?: number, note?: string) => {
  rows.push({ metric, measured, unit, target, note });
  console.log(`  ${metric}: ${measured === undefined ? 'n/a' : fmt(measured, unit)}${note ? ` (${note})` : ''}`);
};

function fmt(v: number, unit: string): string {
  if (unit === 'ms') return v < 10 ? `${v.toFixed(2)} ms` : `${v.toFixed(1)} ms`;
  if (unit === 'KiB') return v >= 1024 ? `${(v / 1024).toFixed(1)} MiB` : `${v.toFixed(0)} KiB`;
  return `${v} ${unit}`;
}

const median = (xs: number[]) => percentile(xs, 0.5);
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
}

/** Runs `f` up to `runs` times, fewer (at least `min`) when the total exceeds `budgetMs`; durations in ms. */
function repeat(runs: number, budgetMs: number, f: () => void, min = 3): number[] {
  const out: number[] = [];
  let total = 0;
  while (out.length < runs && (out.length < min || total < budgetMs)) {
    const t0 = performance.now();
    f();
    out.push(performance.now() - t0);
    total += out[out.length - 1];
  }
  return out;
}

const timeIt = <T>(f: () => T): [T, number] => {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
};

/** The same program with every `>` statement distinct (same values: `(NUM_PCORE)` becomes `(NUM_PCORE+0*<line>)`). */
function distinctStatements(text: string): string {
  return text
    .split('\n')
    .map((l, i) => (/^\s*>/.test(l) ? l.replace('(NUM_PCORE)', `(NUM_PCORE+0*${i})`) : l))
    .join('\n');
}

interface FullCheckResult {
  runs: number[];
  diagnostics: number;
  distinct?: number[];
  distinctDiagnostics?: number;
  /** PCORE analysis of the `.p` alone, warm. */
  pcore?: number[];
}

/**
 * Child-process mode (BENCH_FULL_CHILD=cold|warm): full checks of the generated workload in this
 * process, printed as JSON (`fullChecks` runs it with the Node flags under test).
 *   cold: the first check in a fresh process (the checker still interpreted);
 *   warm: a server that has been checking code: 6 checks of the program's first 4,000 lines (about as
 *         much work as one check of the whole file), then fresh Projects of the whole program, then the
 *         same with every statement distinct.
 */
function fullCheckChild(mode: string): void {
  const pcore = generatePcore(PCORE_LINES, 'bench.h');
  const tprog = generateTprog(LINES, pcore.blocks, 'bench.h');
  const files: Record<string, string> = { '/bench/bench.h': HEADER, '/bench/bench.p': pcore.text, '/bench/bench.m': tprog.text };
  const check = (text: string) =>
    new Project({ fs: { read: (p) => files[p] }, loadPcore: loadPcoreView }).analyze('/bench/bench.m', text)?.diagnostics.length ?? -1;
  const out: FullCheckResult = { runs: [], diagnostics: 0 };
  if (mode === 'cold') {
    const t0 = performance.now();
    out.diagnostics = check(tprog.text);
    out.runs.push(performance.now() - t0);
  } else {
    const warm = tprog.text.split('\n').slice(0, 4000).join('\n');
    for (let i = 0; i < 6; i++) check(warm);
    out.runs = repeat(RUNS, BUDGET_MS, () => (out.diagnostics = check(tprog.text)));
    const distinct = distinctStatements(tprog.text);
    out.distinct = repeat(RUNS, BUDGET_MS, () => (out.distinctDiagnostics = check(distinct)));
    out.pcore = repeat(RUNS, BUDGET_MS, () =>
      analyzePcore(pcore.text, '/bench/bench.p', { resolveInclude: (inc) => (inc === 'bench.h' ? HEADER : undefined) }),
    );
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

/** Runs `fullCheckChild` in a fresh Node process started with `flags`. */
function fullChecks(mode: 'cold' | 'warm', flags: readonly string[]): FullCheckResult | undefined {
  const own = process.execArgv.filter((f) => !SERVER_NODE_FLAGS.includes(f));
  const r = spawnSync(process.execPath, [...flags, ...own, process.argv[1]], {
    env: { ...process.env, BENCH_FULL_CHILD: mode },
    encoding: 'utf8',
    timeout: 600_000,
  });
  try {
    return JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as FullCheckResult;
  } catch {
    console.log(`  full-check child (${mode}, ${flags.join(' ') || 'default flags'}) failed: ${r.stderr?.slice(0, 300) ?? r.error}`);
    return undefined;
  }
}

async function main(): Promise<void> {
  // ---- workload, written to a temporary directory so the server finds the .p and .h on disk
  const dir = join(tmpdir(), `tensor-lens-bench-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const pcore = generatePcore(PCORE_LINES, 'bench.h');
  const tprog = generateTprog(LINES, pcore.blocks, 'bench.h');
  const paths = { h: join(dir, 'bench.h'), p: join(dir, 'bench.p'), m: join(dir, 'bench.m') };
  writeFileSync(paths.h, HEADER);
  writeFileSync(paths.p, pcore.text);
  writeFileSync(paths.m, tprog.text);
  console.log(
    `machine: ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? '?'}), load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; node ${process.version}`,
  );
  console.log(
    `workload: ${paths.m}: ${tprog.lines} lines, ${tprog.functions} functions, ${tprog.statements} statement lines; ` +
      `${paths.p}: ${pcore.text.split('\n').length} lines, ${pcore.blocks * 3} classes`,
  );
  const files: Record<string, string> = { [paths.h]: HEADER, [paths.p]: pcore.text, [paths.m]: tprog.text };
  const fs: FileSystem = { read: (p) => files[p] };

  // ---- engine
  console.log('\nengine (in process):');
  // full checks in child processes started like the language server (SERVER_NODE_FLAGS), and for
  // comparison with V8's default settings
  const flagsText = SERVER_NODE_FLAGS.join(' ');
  const warm = fullChecks('warm', SERVER_NODE_FLAGS);
  const runsOf = (xs: number[]) => `runs ${xs.map((x) => x.toFixed(0)).join(', ')} ms`;
  row(
    `full parse+check, ${tprog.lines}-line .m + .p + .h (warm server, ${flagsText}, median of ${warm?.runs.length ?? 0})`,
    warm ? median(warm.runs) : undefined,
    'ms',
    150,
    warm ? `${warm.diagnostics} diagnostics; ${runsOf(warm.runs)}` : undefined,
  );
  row(`  of which: PCORE analysis, ${pcore.text.split('\n').length}-line .p (median)`, warm?.pcore ? median(warm.pcore) : undefined, 'ms');
  const plain = fullChecks('warm', []);
  row(
    `  the same with V8's default flags (median of ${plain?.runs.length ?? 0})`,
    plain ? median(plain.runs) : undefined,
    'ms',
    undefined,
    plain ? runsOf(plain.runs) : undefined,
  );
  const cold = [0, 1, 2].map(() => fullChecks('cold', SERVER_NODE_FLAGS)?.runs[0]).filter((x): x is number => x !== undefined);
  row(
    `  first full check in a fresh process (cold JIT, ${flagsText}, median of ${cold.length})`,
    cold.length ? median(cold) : undefined,
    'ms',
    undefined,
    runsOf(cold),
  );
  // the generated program repeats statements (56 PCORE class blocks cycle), which the parse cache and
  // the per-unit memo share; a hand-written program repeats far less
  row(
    `  same program, every statement distinct (warm server, ${flagsText}, median of ${warm?.distinct?.length ?? 0})`,
    warm?.distinct ? median(warm.distinct) : undefined,
    'ms',
    undefined,
    warm?.distinct ? `${warm.distinctDiagnostics} diagnostics; ${runsOf(warm.distinct)}` : undefined,
  );

  // re-check after one-character edits, same Project (parse cache of the document, cached .p)
  const project = new Project({ fs, loadPcore: loadPcoreView });
  let text = tprog.text;
  project.analyze(paths.m, text);
  const lines = text.split('\n');
  const editable = lines
    .map((l, i) => [l, i] as const)
    .filter(([l]) => /\[0:7\]/.test(l))
    .map(([, i]) => i);
  const r = rng(7);
  // one character on a statement line somewhere in the file, one statement re-parsed: replaced
  // (`[0:7]` ↔ `[0:6]`, later text stays) or inserted/deleted (`[0:7]` ↔ `[0:07]`, later text moves)
  const edit = (insert: boolean) => {
    const line = editable[Math.floor(r() * editable.length)];
    const l = lines[line];
    if (insert) lines[line] = l.includes('[0:07]') ? l.replace('[0:07]', '[0:7]') : l.replace('[0:7]', '[0:07]');
    else lines[line] = l.includes('[0:7]') ? l.replace('[0:7]', '[0:6]') : l.replace('[0:6]', '[0:7]');
    text = lines.join('\n');
    return timeIt(() => project.analyze(paths.m, text))[1];
  };
  // warm-up: a server re-checks the document it has open after every keystroke
  for (let i = 0; i < 6; i++) edit(i % 2 === 1);
  const recheck: number[] = [];
  const recheckInsert: number[] = [];
  for (let i = 0, total = 0; i < RUNS * 6 && (i < 10 || total < BUDGET_MS); i++) {
    const ms = edit(i % 2 === 1);
    (i % 2 === 1 ? recheckInsert : recheck).push(ms);
    total += ms;
  }
  row(
    `re-check after a one-character edit, same Project (median of ${recheck.length})`,
    median(recheck),
    'ms',
    30,
    `p95 ${percentile(recheck, 0.95).toFixed(0)} ms`,
  );
  row(
    `re-check after inserting or deleting a character (later text moves; median of ${recheckInsert.length})`,
    median(recheckInsert),
    'ms',
    30,
    `p95 ${percentile(recheckInsert, 0.95).toFixed(0)} ms`,
  );
  const a = project.analyze(paths.m, text)!;
  const offsets = statementOffsets(text, REQUESTS, 11);
  const hov = offsets.map((o) => timeIt(() => hover(a, o))[1]);
  row('hover, engine only (p95)', percentile(hov, 0.95), 'ms', undefined, `p50 ${median(hov).toFixed(2)} ms`);
  const inl = windows(text, REQUESTS, 13).map(([s, e]) => timeIt(() => inlayHints(a, s, e))[1]);
  row('inlay hints for 60 lines, engine only (p95)', percentile(inl, 0.95), 'ms', undefined, `p50 ${median(inl).toFixed(2)} ms`);
  // issue #16 item 3: `>` lines with no `/` after them (a search per line ran to the end of the file: 28 s before)
  const slashless = 'void f(void){\n' + '> DTYPE(INT16)MEM(0)[0:3] <= DTYPE(INT16)MEM(0)[4:7];\n'.repeat(SLASHLESS_LINES) + '}\n';
  const [sa, sms] = timeIt(() => analyzeTprog(slashless, { file: 'slashless.m' }));
  row(
    `full check, ${SLASHLESS_LINES.toLocaleString('en-US')} identical \`>\` lines without a '/' (one run, in process)`,
    sms,
    'ms',
    2000,
    `${sa.diagnostics.length} diagnostics`,
  );

  // ---- language server over stdio
  if (ENGINE_ONLY) {
    rmSync(dir, { recursive: true, force: true });
    printTable();
    return;
  }
  console.log('\nlanguage server (node dist/server/node.js --stdio):');
  try {
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const c = await LspClient.start();
      starts.push(c.startToInitializeMs);
      await c.shutdown();
    }
    row('server start → initialize result (median of 5)', median(starts), 'ms', 1000, 'activation proxy');
    const lsp = await LspClient.start();
    const rssIdle = lsp.rssKiB();
    const t0 = performance.now();
    const uri = await lsp.open(paths.m, TPROG, text);
    const diag = await lsp.diagnostics(uri, undefined, 600_000);
    row(
      'didOpen → publishDiagnostics of the large file',
      performance.now() - t0,
      'ms',
      undefined,
      `${diag.diagnostics.length} diagnostics; includes the server's 0 ms open debounce`,
    );
    const docLines = text.split('\n');
    const hoverMs: number[] = [];
    let answered = 0;
    for (const o of offsets) {
      const position = positionOf(docLines, o);
      const t = performance.now();
      const h = await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
      hoverMs.push(performance.now() - t);
      if (h) answered++;
    }
    row(`hover over LSP, ${hoverMs.length} requests (p50)`, median(hoverMs), 'ms', undefined, `${answered} with content`);
    row(`hover over LSP (p95)`, percentile(hoverMs, 0.95), 'ms', 10);
    const inlayMs: number[] = [];
    let hints = 0;
    for (const [s, e] of windows(text, REQUESTS, 13)) {
      const t = performance.now();
      const res = await lsp.conn.sendRequest(InlayHintRequest.type, {
        textDocument: { uri },
        range: { start: { line: s, character: 0 }, end: { line: e, character: 0 } },
      });
      inlayMs.push(performance.now() - t);
      hints += res?.length ?? 0;
    }
    row(`inlay hints over LSP, 60-line ranges, ${inlayMs.length} requests (p50)`, median(inlayMs), 'ms', undefined, `${hints} hints`);
    row(`inlay hints over LSP (p95)`, percentile(inlayMs, 0.95), 'ms', 10);
    // typing: an edit, then a hover (the hover waits for the re-check of the new version)
    const typing: number[] = [];
    for (let i = 0, total = 0; i < RUNS * 2 && (i < 3 || total < BUDGET_MS); i++, total += typing[typing.length - 1]) {
      const line = editable[Math.floor(r() * editable.length)];
      const col = docLines[line].indexOf('[0:');
      const t = performance.now();
      await lsp.change(uri, [{ range: { start: { line, character: col + 3 }, end: { line, character: col + 4 } }, text: '0' }]);
      await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character: col + 1 } });
      typing.push(performance.now() - t);
    }
    row(
      `edit + hover over LSP (re-check included, median of ${typing.length})`,
      median(typing),
      'ms',
      undefined,
      `p95 ${percentile(typing, 0.95).toFixed(0)} ms`,
    );
    const status = await lsp.conn.sendRequest(ServerStatusRequest);
    row('  server-side duration of the last re-check (tensorLens/serverStatus lastCheckMs)', status.lastCheckMs, 'ms');
    const rss = lsp.rssKiB();
    row('server memory after the large file (VmRSS)', rss?.rss, 'KiB', undefined, rssIdle ? `idle ${fmt(rssIdle.rss, 'KiB')}` : undefined);
    row('server peak memory (VmHWM)', rss?.hwm, 'KiB');
    await lsp.shutdown(20_000);
  } catch (e) {
    console.log(`  language server part skipped: ${(e as Error).message}`);
  }

  // ---- bundles
  console.log('\nbundles:');
  try {
    const dist = join(ROOT, 'dist');
    const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
    for (const f of walk(dist)
      .filter((f) => f.endsWith('.js'))
      .sort())
      row(
        `bundle ${relative(ROOT, f)}`,
        statSync(f).size / 1024,
        'KiB',
        undefined,
        `.map ${fmt((statSync(f + '.map', { throwIfNoEntry: false })?.size ?? 0) / 1024, 'KiB')}`,
      );
  } catch {
    console.log(`  no dist/: run \`npm run build\` (${SERVER_JS})`);
  }

  rmSync(dir, { recursive: true, force: true });
  printTable();
  if (process.env.BENCH_JSON)
    writeFileSync(process.env.BENCH_JSON, JSON.stringify({ date: new Date().toISOString(), node: process.version, lines: tprog.lines, rows }, null, 1));
}

/** Offsets on statement lines: on `<=`, on a member name, on a macro, on a tensor variable. */
function statementOffsets(text: string, n: number, seed: number): number[] {
  const r = rng(seed);
  const targets: number[] = [];
  const re = /<=|::\w|\bNUM_PCORE\b|\$\w+|EXE_LOCKSTEP|DTYPE/g;
  let lineStart = 0;
  for (const line of text.split('\n')) {
    if (/^\s*>/.test(line)) for (const m of line.matchAll(re)) targets.push(lineStart + m.index! + 1);
    lineStart += line.length + 1;
  }
  return Array.from({ length: n }, () => targets[Math.floor(r() * targets.length)]);
}

/** Visible-range windows of 60 lines at random places. */
function windows(text: string, n: number, seed: number): [number, number][] {
  const r = rng(seed);
  const count = text.split('\n').length;
  return Array.from({ length: n }, () => {
    const s = Math.floor(r() * Math.max(1, count - 60));
    return [s, s + 60];
  });
}

function positionOf(lines: string[], offset: number): Position {
  let o = offset;
  for (let line = 0; line < lines.length; line++) {
    if (o <= lines[line].length) return { line, character: o };
    o -= lines[line].length + 1;
  }
  return { line: lines.length - 1, character: 0 };
}

function printTable(): void {
  const head = ['metric', 'target', 'measured', 'ratio', 'result'];
  const body = rows.map((r) => {
    const measured = r.measured === undefined ? 'n/a' : fmt(r.measured, r.unit);
    if (r.target === undefined) return [r.metric, '-', measured, '-', 'info'];
    const ratio = r.measured === undefined ? undefined : r.measured / r.target;
    return [
      r.metric,
      `< ${fmt(r.target, r.unit)}`,
      measured,
      ratio === undefined ? '-' : `${ratio.toFixed(2)}×`,
      ratio === undefined ? 'n/a' : ratio < 1 ? 'PASS' : 'FAIL',
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const b of body) console.log(line(b));
  const targets = rows.filter((r) => r.target !== undefined && r.measured !== undefined);
  const failed = targets.filter((r) => r.measured! >= r.target!);
  console.log(
    `\nload average at the end: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${availableParallelism()} CPUs (a load above the CPU count inflates every number).`,
  );
  console.log(
    `${targets.length - failed.length} of ${targets.length} targets ` +
      `met${failed.length ? `; FAIL: ${failed.map((r) => r.metric).join('; ')}` : ''}. (The benchmark does not fail the build.)`,
  );
}

if (process.env.BENCH_FULL_CHILD) {
  fullCheckChild(process.env.BENCH_FULL_CHILD);
  process.exit(0);
}
// the in-process measurements run under the language server's Node flags: started without them, the
// benchmark starts itself again with them
if (!SERVER_NODE_FLAGS.every((f) => process.execArgv.includes(f))) {
  const again = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}

main()
  .catch((e) => {
    console.log(`benchmark error: ${(e as Error)?.stack ?? e}`);
    printTable();
  })
  .then(() => (process.env.BENCH_ONLY_LSP || ENGINE_ONLY ? undefined : import('./all').then((m) => m.benchAll())))
  .catch((e) => console.log(`benchmark error: ${(e as Error)?.stack ?? e}`))
  .finally(() => process.exit(0));
