/**
 * The `.csfbin` viewer's Heatmap in Debian Chromium (the test harness: the real CsfView/CsfViewHost over the
 * file's bytes in the page, so no disk read is timed): first paint of a 2048 × 2048 slice holding 2^20 entries
 * (request → slice read and densified by the host → values and entry numbers posted → colours → drawn), and
 * of a 1000 × 5000 slice with 10^6 entries drawn downsampled (blocks of 1 × 3 cells, max-abs).
 * `node --import tsx bench/csfHeatmap.ts` prints the table.
 */
import { launchChromium } from '../test/webview/server';
import { startCsfViewServer } from '../test/webview/csfviewServer';
import { runIfMain, type Row } from './rows';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchCsfHeatmap(): Promise<Row[]> {
  const rows: Row[] = [];
  const server = await startCsfViewServer();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    const paint = async (file: string, name: string, targetMs: number, cells: string) => {
      await page.goto(`${server.url}/csfview?file=${file}&chunk=${64 << 20}`);
      await page.waitForFunction('document.body.dataset.ready === "1"', undefined, { timeout: 60000 });
      await page.click('#csf-heatbtn');
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        if (i > 0) await page.evaluate('window.tensorLens.viewer.heatmap.load()');
        await page.waitForFunction('/^painted/.test(document.body.dataset.heatmap ?? "")', undefined, { timeout: 60000 });
        const got = (await page.evaluate('(() => { const s = window.tensorLens.viewer.heatmap.slice; return `${s.rows}×${s.cols}`; })()')) as string;
        if (got !== cells) throw new Error(`bench: the heatmap drew ${got} cells, expected ${cells}`);
        times.push((await page.evaluate('window.tensorLens.viewer.heatmap.lastPaintMs')) as number);
      }
      const ms = median(times);
      rows.push({ name, target: `< ${targetMs} ms`, measured: `${ms.toFixed(1)} ms`, ratio: Math.round((ms / targetMs) * 1000) / 1000, pass: ms < targetMs });
    };
    await paint('heat', 'csf heatmap: first paint of a 2048×2048 slice with 2^20 entries (median of 5)', 300, '2048×2048');
    await paint('big', 'csf heatmap: 1000×5000 slice with 10^6 entries, downsampled to 1000×1667 (median of 5)', 300, '1000×1667');
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

runIfMain(import.meta.url, benchCsfHeatmap);
