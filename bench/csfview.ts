/**
 * `.csfbin` viewer benchmarks on a generated 100 MB file written to a temporary folder: the time from
 * opening the file (what the custom editor's openCustomDocument does: positioned reads of the header
 * and pointers) to the first page ready (the first 256 fiber-table rows and the first 4 KiB of bytes,
 * i.e. the webview's first requests), and the background validation's throughput through the same reads.
 * Run standalone with `npx tsx bench/csfview.ts`; `benchCsfView()` returns the rows for a combined report.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsfView } from '../core/csf/view';
import { CsfViewHost } from '../core/csf/viewHost';
import { openNodeFileSource } from '../client/src/csfEditorFs';
import { generateCsfFile } from './csf';
import { runIfMain, type Row } from './rows';

export type { Row } from './rows';

export async function benchCsfView(): Promise<Row[]> {
  const rows: Row[] = [];
  const MB = 1e6;
  const dir = mkdtempSync(join(tmpdir(), 'tl-csfview-bench-'));
  try {
    const path = join(dir, 'big.csfbin');
    const bytes = generateCsfFile(100 * MB);
    writeFileSync(path, bytes);
    const size = bytes.length;

    // open → first page ready (best of 5; the OS page cache is warm after writing, as after any earlier open)
    let t = Infinity;
    for (let k = 0; k < 5; k++) {
      const t0 = performance.now();
      const src = await openNodeFileSource(path);
      if (!src) throw new Error('bench: process.getBuiltinModule is not available');
      const view = await CsfView.open(src);
      const [table, hex] = await Promise.all([view.rows(0, 256), view.hex(0, 4096)]);
      const dt = performance.now() - t0;
      if (!view.pointers || table.length !== 256 || hex.length !== 4096) throw new Error('bench: the viewer could not index the file');
      await view.close();
      t = Math.min(t, dt);
    }
    rows.push({
      name: 'csf viewer: open 100 MB file → first page ready (lazy)',
      target: '< 1000 ms',
      measured: `${t.toFixed(1)} ms`,
      ratio: 1000 / t,
      pass: t < 1000,
    });

    // background validation as the viewer runs it (4 MiB positioned reads, yields between chunks); best of 2
    let tv = Infinity;
    for (let k = 0; k < 2; k++) {
      const src = await openNodeFileSource(path);
      const view = await CsfView.open(src!);
      const t0 = performance.now();
      const host = new CsfViewHost(view, () => undefined, { title: 'big.csfbin' });
      const v = await host.validated;
      tv = Math.min(tv, performance.now() - t0);
      await view.close();
      if (v.ok !== true) throw new Error('bench: the generated file does not validate');
    }
    const mbps = size / MB / (tv / 1000);
    rows.push({
      name: 'csf viewer: background validation of 100 MB (file reads)',
      target: '≥ 300 MB/s',
      measured: `${mbps.toFixed(0)} MB/s (${tv.toFixed(0)} ms)`,
      ratio: mbps / 300,
      pass: mbps >= 300,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

runIfMain(import.meta.url, benchCsfView);
