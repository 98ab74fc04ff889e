/**
 * The other issues' benchmarks, run after bench/run.ts's language-server figures: simulator transfers
 * and trace memory, host C, PCORE kernels, .csfbin, layout models, webviews. Each module measures its
 * ratios in the same run; a failing module is reported and the others still run.
 */
import { benchCsf } from './csf';
import { benchDebug } from './debug';
import { benchCsfView } from './csfview';
import { benchCsfHeatmap } from './csfHeatmap';
import { benchHost } from './host';
import { benchLayout } from './layout';
import { benchPcore } from './pcore';
import { benchSim } from './sim';
import { benchSteps } from './steps';
import { benchWebview } from './webview';
import type { Row } from './rows';

type AnyRow = Row;

export async function benchAll(): Promise<void> {
  const modules: [string, () => Promise<AnyRow[]>][] = [
    ['simulator transfers', benchSim],
    ['tensor steps through a whole run', benchSteps],
    ['host C interpreter', benchHost as unknown as () => Promise<AnyRow[]>],
    ['PCORE kernels', benchPcore as unknown as () => Promise<AnyRow[]>],
    ['.csfbin', benchCsf],
    ['.csfbin viewer', benchCsfView],
    ['.csfbin heatmap (Chromium)', benchCsfHeatmap],
    ['layout models', benchLayout],
    ['webviews (Chromium)', benchWebview],
    ['debugger', benchDebug],
  ];
  for (const [title, f] of modules) {
    console.log(`\n--- ${title} ---`);
    try {
      for (const r of await f()) console.log(`${r.pass ? 'PASS' : 'FAIL'}  ${r.name}: ${r.measured} (target ${r.target})`);
    } catch (e) {
      console.log(`benchmark error: ${(e as Error)?.message ?? e}`);
    }
  }
}
