/**
 * The `.csfbin` viewer's Heatmap in real Chromium (the page from the real strict-CSP template, the real
 * CsfView/CsfViewHost behind it): canvas pixels at known cells of hand-made tensors against colours worked
 * out by hand on the blue–white–red scale (k = round((v − min) / (max − min) · 510); k ≤ 255: (k, k, 255),
 * else (255, 510 − k, 510 − k)), the structure's grey, a 3-D slice switch, hover text and a click that
 * selects the entry in the table and the hex view.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './server';
import { startCsfViewServer, type CsfViewServer } from './csfviewServer';
import { until } from './util';

let server: CsfViewServer | undefined;
let browser: Browser | undefined;
before(async () => {
  server = await startCsfViewServer();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function openHeatmap(file: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser!.newPage({ viewport: { width: 1200, height: 800 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript('window.__csp = []; document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective));');
  await page.goto(`${server!.url}/csfview?file=${file}`);
  await until(page, 'document.body.dataset.ready === "1"', 20000);
  await page.click('#csf-heatbtn');
  await until(page, '/^(painted|failed)/.test(document.body.dataset.heatmap ?? "")');
  return { page, problems };
}

const pixel = (page: Page, row: number, col: number) => page.evaluate(`window.tensorLens.viewer.heatmap.drawnPixel(${row}, ${col})`) as Promise<number[]>;

async function hoverCell(page: Page, row: number, col: number): Promise<string> {
  const q = (await page.evaluate(`window.tensorLens.viewer.heatmap.cssPointOf(${row}, ${col})`)) as { x: number; y: number };
  const box = (await page.locator('#csf-heatcanvas').boundingBox())!;
  await page.mouse.move(box.x + q.x, box.y + q.y);
  return ((await page.textContent('#csf-heathover')) ?? '').trim();
}

test('2-D tensor: min, max, a middle value and an implicit zero in the scale; structure paints implicit zeros grey', async () => {
  // A = [[0, 1.5, 0], [-2, 0, 3.25]]: min −2, max 3.25, span 5.25
  const { page, problems } = await openHeatmap('a');
  assert.equal(await page.getAttribute('#csf-heatbtn', 'aria-pressed'), 'true');
  assert.equal((await page.textContent('#csf-heatlegend-range'))!.trim(), 'min -2 · max 3.25');
  assert.deepEqual(await pixel(page, 1, 0), [0, 0, 255, 255]); // −2: k = 0
  assert.deepEqual(await pixel(page, 1, 2), [255, 0, 0, 255]); // 3.25: k = 510
  assert.deepEqual(await pixel(page, 0, 1), [255, 170, 170, 255]); // 1.5: 3.5 / 5.25 · 510 = 340
  assert.deepEqual(await pixel(page, 0, 0), [194, 194, 255, 255]); // implicit 0: 2 / 5.25 · 510 = 194.3 → 194
  await page.click('#csf-structure');
  assert.deepEqual(await pixel(page, 0, 0), [128, 128, 128, 255]);
  assert.deepEqual(await pixel(page, 1, 1), [128, 128, 128, 255]);
  assert.deepEqual(await pixel(page, 0, 1), [255, 170, 170, 255]);
  // zoom out with the keyboard (the inspector's picture; the 2×3 picture fits at the largest zoom, 64): cells stay whole and keep their colours
  const zoom = (await page.evaluate('window.tensorLens.viewer.heatmap.picture.zoom')) as number;
  await page.focus('#csf-heatcanvas');
  assert.equal(zoom, 64);
  await page.keyboard.press('-');
  assert.equal(await page.evaluate('window.tensorLens.viewer.heatmap.picture.zoom'), 32);
  assert.deepEqual(await pixel(page, 1, 2), [255, 0, 0, 255]);
  assert.deepEqual(await pixel(page, 1, 0), [0, 0, 255, 255]);
  assert.deepEqual(await page.evaluate('window.__csp'), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('hover tells coordinate, value, stored or not, entry and byte offset; a click selects the entry in the table and the hex view', async () => {
  const { page } = await openHeatmap('a');
  // entries start at offset 8 + 4·2 = 16: entry 2 at 32, entry 1 at 24
  assert.equal(await hoverCell(page, 1, 2), 'x[1, 2] = 3.25 · stored: entry 2 at offset 32 (0x20)');
  assert.equal(await hoverCell(page, 0, 2), 'x[0, 2] = 0 · implicit zero (no stored entry)');
  await hoverCell(page, 1, 0);
  await page.mouse.down();
  await page.mouse.up();
  // entry 1 is the first entry of fiber 1: table row 1 + 1 + 1 = 3
  await until(page, `document.querySelector('#csf-table .csf-row.csf-selected')?.dataset.row === "3"`);
  const hl = (await page.evaluate("[...document.querySelectorAll('#csf-hex .h-b.csf-hl')].map((c) => Number(c.dataset.o))")) as number[];
  assert.deepEqual(hl, [24, 25, 26, 27, 28, 29, 30, 31]);
  // an implicit zero selects nothing
  await hoverCell(page, 0, 0);
  await page.mouse.down();
  await page.mouse.up();
  assert.equal(await page.evaluate(`document.querySelector('#csf-table .csf-row.csf-selected')?.dataset.row`), '3');
  await page.close();
});

test('3-D tensor: the slice of the last two modes at a chosen leading index', async () => {
  // x[0] = [[1, 0, 0], [0, 2, 0]] (range 0..2), x[1] = [[0, 0, 9], [4, 0, 0]] (range 0..9); entries from offset 8 + 4·3 = 20
  const { page, problems } = await openHeatmap('cube');
  assert.equal(await page.evaluate('document.body.dataset.heatmap'), 'painted 0');
  assert.deepEqual(await pixel(page, 1, 1), [255, 0, 0, 255]); // 2 = max
  assert.deepEqual(await pixel(page, 0, 0), [255, 255, 255, 255]); // 1: the middle, k = 255
  assert.equal(await hoverCell(page, 0, 0), 'x[0, 0, 0] = 1 · stored: entry 0 at offset 20 (0x14)');
  await page.fill('#csf-lead-0', '1');
  await page.dispatchEvent('#csf-lead-0', 'change');
  await until(page, 'document.body.dataset.heatmap === "painted 1"');
  assert.equal((await page.textContent('#csf-heatlegend-range'))!.trim(), 'min 0 · max 9');
  assert.deepEqual(await pixel(page, 0, 2), [255, 0, 0, 255]); // 9
  assert.deepEqual(await pixel(page, 1, 0), [227, 227, 255, 255]); // 4: 4 / 9 · 510 = 226.7 → 227
  assert.deepEqual(await pixel(page, 1, 1), [0, 0, 255, 255]); // implicit 0 = min
  assert.equal(await hoverCell(page, 1, 0), 'x[1, 1, 0] = 4 · stored: entry 3 at offset 44 (0x2c)');
  // an index outside the mode is refused with the reason
  await page.fill('#csf-lead-0', '2');
  await page.dispatchEvent('#csf-lead-0', 'change');
  await until(page, 'document.body.dataset.heatmap === "failed"');
  assert.equal((await page.textContent('#csf-heatnote'))!.trim(), 'index 2 of mode 0 is outside [0, 2)');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a file without a usable fiber index: the heatmap says why it cannot be drawn', async () => {
  const { page } = await openHeatmap('a-bad-end');
  assert.equal(await page.evaluate('document.body.dataset.heatmap'), 'failed');
  assert.equal((await page.textContent('#csf-heatnote'))!.trim(), 'the heatmap cannot be drawn: offset 52: the end pointer ptr[2] must equal nnz = 3, found 2');
  assert.equal(await page.isHidden('#csf-heatlegend'), true);
  await page.close();
});

test('a slice wider than 2048 cells is drawn downsampled, each cell the stored value of largest magnitude in its block', async () => {
  // big: shape 1000 × 5000, entry k of fiber f at index 5k + f mod 5 with value 1000f + k; blocks of ceil(5000 / 2048) = 3 columns
  const { page, problems } = await openHeatmap('big');
  assert.equal(
    (await page.textContent('#csf-heatnote'))!.trim(),
    'the 1000 × 5000 slice is drawn as 1000 × 1667 cells: each shows the stored value of largest magnitude in its 1 × 3 block',
  );
  const describe = (r: number, c: number) => page.evaluate(`window.tensorLens.viewer.heatmap.describe(${r}, ${c})`) as Promise<string>;
  // fiber 0: columns 3..5 hold index 5 (entry 1, value 1, offset 16 + 8 = 24); columns 6..8 hold nothing
  assert.equal(await describe(0, 1), 'x[0, 3:6] = 1 (largest magnitude in the block) · stored: entry 1 at offset 24 (0x18)');
  assert.equal(await describe(0, 2), 'x[0, 6:9] = 0 · implicit zero (no stored entry)');
  // fiber 999 (index 5k + 4): columns 4998..4999 (the last, shorter block) hold index 4999, k = 999, value 999999, entry 999·1000 + 999
  assert.equal(await describe(999, 1666), 'x[999, 4998:5000] = 999999 (largest magnitude in the block) · stored: entry 999999 at offset 8000008 (0x7a1208)');
  assert.equal((await page.textContent('#csf-heatlegend-range'))!.trim(), 'min 0 · max 999999');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the heatmap comes back as it was left (shown, its slice, the structure) when the webview is restored', async () => {
  const { page } = await openHeatmap('cube');
  await page.fill('#csf-lead-0', '1');
  await page.dispatchEvent('#csf-lead-0', 'change');
  await until(page, 'document.body.dataset.heatmap === "painted 1"');
  await page.click('#csf-structure');
  await page.reload();
  await until(page, 'document.body.dataset.ready === "1"', 20000);
  await until(page, 'document.body.dataset.heatmap === "painted 1"');
  assert.equal(await page.getAttribute('#csf-heatbtn', 'aria-pressed'), 'true');
  assert.equal(await page.isChecked('#csf-structure'), true);
  assert.deepEqual(await pixel(page, 1, 1), [128, 128, 128, 255]); // implicit zero, structure shown
  assert.deepEqual(await pixel(page, 0, 2), [255, 0, 0, 255]); // x[1, 0, 2] = 9
  // hidden again: a reload keeps it hidden
  await page.click('#csf-heatbtn');
  assert.equal(await page.isHidden('#csf-heatpane'), true);
  await page.reload();
  await until(page, 'document.body.dataset.ready === "1"', 20000);
  assert.equal(await page.isHidden('#csf-heatpane'), true);
  assert.equal(await page.getAttribute('#csf-heatbtn', 'aria-pressed'), 'false');
  await page.close();
});
