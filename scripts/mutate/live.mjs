// A Stryker reporter for scripts/mutate.mjs: appends every surviving or uncovered mutant to
// reports/mutation/live.survivors.txt as soon as it is tested, so tests can be written while a long run goes on
// (Stryker's own reports are written only at the end), and keeps the counts so far per file and status in
// reports/mutation/live.counts.json (what a run stopped before its end had measured).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { PluginKind, declareClassPlugin } from '@stryker-mutator/api/plugin';

const FILE = 'reports/mutation/live.survivors.txt';
const COUNTS = 'reports/mutation/live.counts.json';

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
    mkdirSync('reports/mutation', { recursive: true });
    writeFileSync(FILE, '');
    writeFileSync(COUNTS, '{}\n');
  }
  onMutantTested(r) {
    if (r.status === 'Survived' || r.status === 'NoCoverage') appendFileSync(FILE, describeMutant(r) + '\n');
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
    writeFileSync(COUNTS, JSON.stringify(this.counts, null, 1) + '\n');
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'live-survivors', LiveSurvivors)];
