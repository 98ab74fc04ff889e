// A Stryker reporter for scripts/mutate.mjs: appends every surviving or uncovered mutant to
// reports/mutation/live.survivors.txt as soon as it is tested, so tests can be written while a long run goes on
// (Stryker's own reports are written only at the end), and keeps the counts so far per file and status in
// reports/mutation/live.counts.json (what a run stopped before its end had measured).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { PluginKind, declareClassPlugin } from '@stryker-mutator/api/plugin';

// scripts/mutate.mjs names them per run (TENSOR_LENS_MUTATE_LIVE), so that runs of single files can go on side by side
const live = () => `reports/mutation/${process.env.TENSOR_LENS_MUTATE_LIVE ?? 'live'}`;

/** One line per mutant: file:line:col status mutator → replacement (shared with scripts/mutate.mjs). */
export function describeMutant(r) {
  const flat = String(r.replacement ?? '').replace(/\s+/g, ' ');
  const text = flat.length > 100 ? flat.slice(0, 97) + '...' : flat;
  return `${relative(process.cwd(), r.fileName)}:${r.location.start.line}:${r.location.start.column + 1} ${r.status} ${r.mutatorName} → ${text}`;
}

class LiveSurvivors {
  counts = {};
  written = 0;
  constructor() {
    this.file = `${live()}.survivors.txt`;
    this.countsFile = `${live()}.counts.json`;
    mkdirSync('reports/mutation', { recursive: true });
    writeFileSync(this.file, '');
    writeFileSync(this.countsFile, '{}\n');
  }
  onMutantTested(r) {
    if (r.status === 'Survived' || r.status === 'NoCoverage') appendFileSync(this.file, describeMutant(r) + '\n');
    const file = (this.counts[relative(process.cwd(), r.fileName)] ??= {});
    file[r.status] = (file[r.status] ?? 0) + 1;
    // at most once a second: a run tests thousands of mutants
    if (Date.now() - this.written > 1000) this.flush();
  }
  onMutationTestReportReady() {
    this.flush();
  }
  flush() {
    this.written = Date.now();
    writeFileSync(this.countsFile, JSON.stringify(this.counts, null, 1) + '\n');
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'live-survivors', LiveSurvivors)];
