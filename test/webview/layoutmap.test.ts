/**
 * The layout-map webview in real Chromium, one case per model kind (TT interleaved banks × pages,
 * TT height/block-sharded core grids with tiles and faces, Spyre sticks, 16-byte cells, CSR fibers,
 * strided storage, a 2^26-element tensor): canvas pixels at known cells, hit tests, hover text,
 * coordinate ↔ address lookups, zoom to single elements, screenshots.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { open, setUp, shot, tearDown, until, type Fixture } from './util';

let f: Fixture | undefined;
before(async () => {
  f = await setUp();
});
after(async () => {
  await tearDown(f);
});
const fx = () => f!;

type RGB = [number, number, number];

/** Canvas pixel (CSS px) as RGB. */
async function pixel(page: Page, px: number, py: number): Promise<RGB> {
  return (await page.evaluate(
    "(() => { const c = document.getElementById('lm-canvas'); const d = window.devicePixelRatio || 1; const p = " +
      `c.getContext('2d').getImageData(Math.round(${px} * d), Math.round(${py} * d), 1, 1).data; return [p[0], p[1], p[2]]; })()`,
  )) as RGB;
}

/** Screen point (CSS px in the canvas) of a cell, or an element inside it. */
async function at(page: Page, x: number, y: number, ir?: number, ic?: number): Promise<{ px: number; py: number }> {
  return (await page.evaluate(`window.tensorLens.layoutMap.toScreen(${x}, ${y}, ${ir ?? 'undefined'}, ${ic ?? 'undefined'})`)) as { px: number; py: number };
}

async function map(page: Page): Promise<any> {
  return page.evaluate(
    '(() => { const m = window.tensorLens.layoutMap.map; return { cols: m.cols, rows: m.rows, panels: m.panels, kinds: [...new ' +
      'Uint8Array(m.raster.kinds)], keys: [...new Float32Array(m.raster.keys)], inner: m.inner, regions: m.regions.map((r) => ({ kind: r.kind, ' +
      'label: r.label, x: r.x, y: r.y, w: r.w, h: r.h })) }; })()',
  );
}

const near = (a: RGB, b: RGB, tol = 3) => a.every((v, i) => Math.abs(v - b[i]) <= tol);
const VIRIDIS0: RGB = [68, 1, 84];
const VIRIDIS1: RGB = [253, 231, 37];

/** Hovers a canvas point and returns the tooltip text once the extension answered. */
async function hover(page: Page, p: { px: number; py: number }, expect: RegExp): Promise<string> {
  const box = (await page.evaluate(
    `(() => { const r = document.getElementById('lm-canvas').getBoundingClientRect(); return { x: r.left, y: r.top }; })()`,
  )) as { x: number; y: number };
  await page.mouse.move(box.x + p.px, box.y + p.py);
  await until(page, `${expect}.test(document.getElementById('lm-tip').textContent)`, 5000).catch(() => undefined);
  return (await page.textContent('#lm-tip'))!;
}

async function waitDetail(page: Page) {
  await until(page, 'window.tensorLens.layoutMap.debugInfo().detail > 0 && window.tensorLens.rpc.inFlight === 0', 10000);
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

test('TT interleaved: banks × pages; page colour = position of its first element; hover names bank, page, tile', async () => {
  const { page, problems, csp } = await open(fx(), '/layoutmap?layout=tt-interleaved');
  const m = await map(page);
  assert.equal(m.panels.length, 12);
  assert.deepEqual(
    m.panels.slice(0, 2).map((p: any) => p.label),
    ['DRAM bank 0', 'DRAM bank 1'],
  );
  assert.equal(m.cols, 3, '28 pages over 12 banks: 3 page slots per bank');
  // bank 0, page slot 0 holds host page 0 = tile (0, 0): the first colour of the gradient
  assert.ok(near(await pixel(page, ...(Object.values(await at(page, 0, 0)) as [number, number])), VIRIDIS0), 'first page');
  // bank 4, slot 2 is reserved but unused (28 pages: banks 4–11 hold 2)
  assert.equal(m.kinds[4 * m.cols + 2], 4);
  assert.ok(near(await pixel(page, ...(Object.values(await at(page, 2, 4)) as [number, number])), [51, 56, 66]), 'unused slot colour');
  const tip = await hover(page, await at(page, 1, 0), /host page 12/);
  assert.match(tip, /DRAM bank 0 · page 1/);
  assert.match(tip, /host page 12 = tile \(1, 5\)/);
  assert.match(tip, /first element \(32, 160\)/);
  assert.match((await page.textContent('#lm-legend')) ?? '', /page with elements · 18 cells/);
  await shot(page, 'layoutmap-tt-interleaved');
  assert.deepEqual(problems, []);
  assert.deepEqual(await csp(), []);
  await page.close();
});

test('TT height-sharded: two cores, tiles with faces, padding rows hatched when zoomed to elements', async () => {
  const { page } = await open(fx(), '/layoutmap?layout=tt-height');
  const m = await map(page);
  assert.deepEqual(
    m.panels.map((p: any) => p.label),
    ['core (0,0)', 'core (1,0)'],
  );
  assert.equal(m.inner.rows, 32);
  assert.equal(m.inner.blocks.length, 4);
  await waitDetail(page);
  const p1 = m.panels[1];
  // tile row 3 of the tensor: rows 96..99 are data, 100..127 padding (hatched: grey pixels)
  const data = await pixel(page, ...(Object.values(await at(page, p1.x, p1.y + 1, 2, 5)) as [number, number]));
  const pad = await pixel(page, ...(Object.values(await at(page, p1.x, p1.y + 1, 20, 5)) as [number, number]));
  assert.ok(!(data[0] === data[1] && data[1] === data[2]), `data element is coloured: ${data}`);
  assert.ok(pad[0] === pad[1] && pad[1] === pad[2] && pad[0] >= 100, `padding is hatched grey: ${pad}`);
  const tip = await hover(page, await at(page, p1.x, p1.y + 1, 3, 7), /element \(99, 7\)/);
  assert.match(tip, /core \(1,0\) · page 2 · tile row 3, col 7/);
  assert.match(tip, /element \(99, 7\)/);
  const tip2 = await hover(page, await at(page, p1.x, p1.y + 1, 10, 7), /padding|PADDING/);
  assert.match(tip2, /padding/i);
  await shot(page, 'layoutmap-tt-height');
  await page.close();
});

test('TT block-sharded: the 2×2 core grid is drawn as a grid; locate a coordinate, zoomed to the element', async () => {
  const { page } = await open(fx(), '/layoutmap?layout=tt-block');
  const m = await map(page);
  const pos = Object.fromEntries(m.panels.map((p: any) => [p.label, [p.x, p.y]]));
  assert.ok(pos['core (1,0)'][0] > pos['core (0,0)'][0] && pos['core (1,0)'][1] === pos['core (0,0)'][1]);
  assert.ok(pos['core (0,1)'][1] > pos['core (0,0)'][1] && pos['core (0,1)'][0] === pos['core (0,0)'][0]);
  // the last element is in core (1,1): the last colour of the gradient at its last page
  await page.fill('#lm-coord', '(127, 127)');
  await page.press('#lm-coord', 'Enter');
  await until(page, `/element \\(127, 127\\)/.test(document.getElementById('lm-status').textContent)`);
  const loc = (await page.evaluate('window.tensorLens.layoutMap.located')) as any;
  assert.equal(loc.unitLabel, 'core (1,1)');
  assert.equal(loc.innerRow, 31);
  assert.equal(loc.innerCol, 31);
  assert.match(loc.lines.join(' '), /address 0x1ffe/);
  await waitDetail(page);
  // the zoomed detail may still be drawing on a loaded machine: poll the pixel for a few seconds
  let c = await pixel(page, ...(Object.values(await at(page, loc.x, loc.y, 31, 31)) as [number, number]));
  for (let k = 0; k < 30 && !near(c, VIRIDIS1, 4); k++) {
    await new Promise((r) => setTimeout(r, 100));
    c = await pixel(page, ...(Object.values(await at(page, loc.x, loc.y, 31, 31)) as [number, number]));
  }
  assert.ok(near(c, VIRIDIS1, 4), `last element colour ${c}`);
  await shot(page, 'layoutmap-tt-block-located');
  // address → where it is drawn
  await page.selectOption('#lm-unit', { label: 'core (0,1)' });
  await page.fill('#lm-addr', '0x0');
  await page.press('#lm-addr', 'Enter');
  await until(page, `/element \\(64, 0\\)/.test(document.getElementById('lm-status').textContent)`);
  await page.click('#lm-fit');
  await shot(page, 'layoutmap-tt-block');
  await page.close();
});

test('Spyre sticks: rows of sticks (the stick dimension outermost), partial sticks padded', async () => {
  const { page } = await open(fx(), '/layoutmap?layout=spyre');
  const m = await map(page);
  assert.equal(m.cols, 3, 'one row of the picture per stick column: 3 rows of the tensor');
  assert.deepEqual(m.kinds, [1, 1, 1, 2, 2, 2], 'sticks 0–2 full (columns 0–63), 3–5 partial (64–99)');
  await waitDetail(page);
  const tip = await hover(page, await at(page, 1, 1, 0, 40), /padding/i);
  assert.match(tip, /stick 4/);
  assert.match(tip, /padding/i, 'elements 36..63 of the second stick are padding');
  const tip2 = await hover(page, await at(page, 1, 1, 0, 10), /element \(1, 74\)/);
  assert.match(tip2, /element \(1, 74\)/);
  const pad = await pixel(page, ...(Object.values(await at(page, 2, 1, 0, 50)) as [number, number]));
  assert.ok(pad[0] === pad[1] && pad[1] === pad[2], `hatched ${pad}`);
  await shot(page, 'layoutmap-spyre');
  await page.close();
});

test('16-byte cells: rows of two cells; padding elements hatched; hover coordinate ↔ address', async () => {
  const { page } = await open(fx(), '/layoutmap?layout=cells');
  const m = await map(page);
  assert.equal(m.cols % 2, 0);
  await waitDetail(page);
  // cell 1 (second of row 0): elements 8..10 then 5 padding elements
  const pad = await pixel(page, ...(Object.values(await at(page, 1, 0, 0, 6)) as [number, number]));
  assert.ok(pad[0] === pad[1] && pad[1] === pad[2], `hatched ${pad}`);
  const tip = await hover(page, await at(page, 1, 0, 0, 2), /element \(0, 0, 10\)/);
  assert.match(tip, /Core Memory · cell 1/);
  assert.match(tip, /address 0x14/);
  await shot(page, 'layoutmap-cells');
  await page.close();
});

test('CSR fibers: entries coloured by coordinate, fibers framed and labelled, metadata words', async () => {
  const { page } = await open(fx(), '/layoutmap?layout=sparse');
  const m = await map(page);
  assert.deepEqual(
    m.regions.filter((r: any) => r.kind === 'frame' && r.label.startsWith('fiber')).map((r: any) => [r.label, r.x, r.w]),
    [
      ['fiber (0)', 0, 2],
      ['fiber (2)', 2, 3],
      ['fiber (3)', 5, 1],
    ],
  );
  const meta = m.panels.find((p: any) => p.label === 'metadata memory');
  assert.ok(near(await pixel(page, ...(Object.values(await at(page, meta.x, meta.y)) as [number, number])), [209, 134, 22]), 'metadata colour');
  const tip = await hover(page, await at(page, 2, 0), /\(2, 0\)/);
  assert.match(tip, /main memory · entry 2/);
  await shot(page, 'layoutmap-sparse');
  await page.close();
});

test('strided storage: gaps of the view are drawn as unused; keyboard moves between elements', async () => {
  const { page } = await open(fx(), '/layoutmap?layout=strided');
  const m = await map(page);
  assert.equal(m.cols, 8, 'wrapped at the row stride');
  assert.deepEqual(m.kinds.slice(0, 8), [1, 1, 1, 1, 1, 4, 4, 4]);
  assert.ok(near(await pixel(page, ...(Object.values(await at(page, 6, 0)) as [number, number])), [51, 56, 66]));
  await page.focus('#lm-canvas');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await until(page, `/element \\(1, 1\\)/.test(document.getElementById('lm-status').textContent)`);
  assert.match((await page.textContent('#lm-status'))!, /storage · element 9/);
  const s0 = (await page.evaluate('window.tensorLens.layoutMap.debugInfo().scale')) as number;
  await page.keyboard.press('+');
  assert.ok(((await page.evaluate('window.tensorLens.layoutMap.debugInfo().scale')) as number) > s0);
  await page.keyboard.press('0');
  assert.equal(await page.evaluate('window.tensorLens.layoutMap.debugInfo().scale'), s0);
  await shot(page, 'layoutmap-strided');
  await page.close();
});

test('2^26 elements: aggregated cells, drawn fast, hover still exact, wheel zoom around the pointer', async () => {
  const { page } = await open(fx(), '/layoutmap?layout=big');
  const m = await map(page);
  assert.ok(m.cols * m.rows <= 80000, `${m.cols}×${m.rows}`);
  assert.equal(m.panels.length, 12);
  assert.ok(m.panels[0].slotsPerCell >= 1);
  const times = (await page.evaluate('window.tensorLens.layoutMap.drawTimes')) as number[];
  assert.ok(times.length > 0);
  const tip = await hover(page, await at(page, 0, 0), /\(0, 0\)/);
  assert.match(tip, /DRAM bank 0 · pages? 0/);
  const before = (await page.evaluate('window.tensorLens.layoutMap.debugInfo()')) as any;
  const box = (await page.evaluate(
    `(() => { const r = document.getElementById('lm-canvas').getBoundingClientRect(); return { x: r.left, y: r.top }; })()`,
  )) as { x: number; y: number };
  const p = await at(page, 100, 30);
  await page.mouse.move(box.x + p.px, box.y + p.py);
  await page.mouse.wheel(0, -500);
  await until(page, `window.tensorLens.layoutMap.debugInfo().scale > ${before.scale * 1.5}`);
  const hit = (await page.evaluate(`window.tensorLens.layoutMap.hitTest(${p.px}, ${p.py})`)) as any;
  assert.equal(hit.x, 100, 'the point under the pointer stays put');
  assert.equal(hit.y, 30);
  await shot(page, 'layoutmap-big');
  await page.close();
});

test('layout messages: a malformed description is dropped; a new one replaces the picture', async () => {
  const { page } = await open(fx(), '/layoutmap?layout=cells');
  await page.evaluate(`window.harness.post({ type: 'notify', method: 'showLayout', params: { layout: { id: 'x', cols: -1 } } })`);
  await until(page, 'window.tensorLens.dropped.length > 0');
  assert.equal(await page.evaluate('window.tensorLens.layoutMap.debugInfo().mapId'), 'cells');
  await page.evaluate(`window.harness.host.showLayout(window.harness.layoutCase('spyre'))`);
  await until(page, `window.tensorLens.layoutMap.debugInfo().mapId === 'spyre'`);
  assert.match((await page.textContent('#lm-title'))!, /spyre \(3, 100\) float16/);
  await page.click('#lm-png');
  await until(page, 'window.harness.saved.length === 1');
  assert.deepEqual(await page.evaluate('window.harness.bytesOfSaved(0).slice(0, 4)'), [0x89, 0x50, 0x4e, 0x47]);
  await page.close();
});

test('over a JSON channel (as VS Code serialises messages: NaN → null, buffers aside) every view still works', async () => {
  for (const c of ['tt-height', 'sparse']) {
    const { page, problems } = await open(fx(), `/layoutmap?layout=${c}&json=1`);
    assert.deepEqual(await page.evaluate('window.tensorLens.dropped'), [], c);
    const tip = await hover(page, await at(page, 0, 0), /\(\d+, \d+\)/);
    assert.match(tip, /\(\d+, \d+\)/);
    assert.deepEqual(problems, []);
    await page.close();
  }
  const { page } = await open(fx(), '/inspector?state=fresh&json=1');
  assert.deepEqual(await page.evaluate('window.tensorLens.dropped'), []);
  await page.fill('#tl-find', 'de ad be ef');
  await page.press('#tl-find', 'Enter');
  await until(page, `window.tensorLens.inspector.debugInfo().cursor === ${0x3000123}`);
  await page.close();
});

test('the same tensor redrawn (its spec edited) keeps the zoom; another tensor fits; a refresh with a reason shows it', async () => {
  const { page } = await open(fx(), '/layoutmap?layout=cells');
  await page.click('#lm-in');
  await page.click('#lm-in');
  const zoomed = (await page.evaluate('window.tensorLens.layoutMap.debugInfo()')) as { scale: number; ox: number; oy: number };
  // the panel sends the same map id again after an edit of the spec
  await page.evaluate(`(() => { const p = window.harness.layoutCase('cells'); window.harness.host.showLayout(p); })()`);
  await until(page, `window.tensorLens.layoutMap.drawn > 0`);
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  const again = (await page.evaluate('window.tensorLens.layoutMap.debugInfo()')) as { scale: number; ox: number; oy: number };
  assert.deepEqual([again.scale, again.ox, again.oy], [zoomed.scale, zoomed.ox, zoomed.oy]);
  // a different tensor starts fitted, not at the old zoom
  await page.evaluate(`window.harness.host.showLayout(window.harness.layoutCase('spyre'))`);
  await until(page, `window.tensorLens.layoutMap.debugInfo().mapId === 'spyre'`);
  const other = (await page.evaluate('window.tensorLens.layoutMap.debugInfo()')) as { scale: number };
  assert.notEqual(other.scale, zoomed.scale);
  // the extension cannot draw the tensor now (a typo in the spec): the reason shows, the picture stays
  await page.evaluate(`window.harness.host.notify('refresh', { steps: 0, step: -1, title: "'a' has no valid layout: shard [33, 32] is not a tile multiple" })`);
  await until(page, `/no valid layout/.test(document.getElementById('lm-status').textContent)`);
  assert.ok(await page.evaluate(`document.getElementById('lm-status').classList.contains('tl-warn')`));
  assert.equal(await page.evaluate('window.tensorLens.layoutMap.debugInfo().mapId'), 'spyre');
  // the next good picture clears it
  await page.evaluate(`window.harness.host.showLayout(window.harness.layoutCase('spyre'))`);
  await until(page, `document.getElementById('lm-status').textContent === ''`);
  await page.close();
});
