/**
 * The inspector's Views pane in real Chromium: regions of the known 64 MiB image (scenario.ts) drawn as
 * images and heatmaps, checked by reading back the canvas at the centre of known pixels against values
 * computed here from `memByte` and the scale's definition (blue → white → red); hover text, the last
 * writer and reveal, the step outline, difference to a reference file, export, bad shapes, narrow panels.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { open, settle, setUp, shot, tearDown, until, type Fixture } from './util';
import { A, B, memByte } from './scenario';

let f: Fixture | undefined;
before(async () => {
  f = await setUp();
});
after(async () => {
  await tearDown(f);
});
const fx = () => f!;

/** Opens the pane on a view as the extension would, and waits until it has painted it. */
async function view(page: Page, spec: object): Promise<void> {
  const before = Number(await page.evaluate('document.body.dataset.viewPainted ?? 0'));
  await page.evaluate(`window.harness.showView(${JSON.stringify(spec)})`);
  await until(page, `Number(document.body.dataset.viewPainted ?? 0) > ${before} || document.querySelector('#tl-vstatus').classList.contains('tl-warn')`);
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

/** RGBA painted on the visible canvas at the centre of picture pixel (x, y). */
const drawn = (page: Page, x: number, y: number) => page.evaluate(`window.tensorLens.inspector.views.drawnPixel(${x}, ${y})`) as Promise<number[]>;
const text = async (page: Page, sel: string) => ((await page.textContent(sel)) ?? '').trim();

/** The scale's colour at t (its definition: k = round(510 t); k ≤ 255 → (k, k, 255), else (255, 510 − k, 510 − k)). */
function scale(t: number): number[] {
  const k = Math.round(t * 510);
  return k <= 255 ? [k, k, 255, 255] : [255, 510 - k, 510 - k, 255];
}

test('grey image: each pixel is its byte, zoomed with crisp edges', async () => {
  const { page, problems, csp } = await open(fx(), '/inspector?state=fresh');
  const off = 0x6000;
  await view(page, { label: 'grey', space: 'MEM', offset: off, bytes: 32 * 16, mode: 'image', format: 'grey', width: 32, height: 16 });
  for (const [x, y] of [
    [0, 0],
    [5, 3],
    [31, 15],
    [17, 9],
  ]) {
    const g = memByte(off + y * 32 + x);
    assert.deepEqual(await drawn(page, x, y), [g, g, g, 255], `pixel (${x}, ${y})`);
  }
  assert.match(await text(page, '#tl-vstatus'), /grey: grey 32×16 at MEM 0x6000/);
  // zoom is a whole number of canvas pixels per picture pixel, and neighbours are not blended
  const zoom = (await page.evaluate('window.tensorLens.inspector.views.picture.zoom')) as number;
  assert.ok(zoom >= 2 && Number.isInteger(zoom), `fit zoom ${zoom}`);
  assert.equal(await page.evaluate(`getComputedStyle(document.getElementById('tl-vcanvas')).imageRendering`), 'pixelated');
  // wheel zoom in at pixel (17, 9): it stays under the mouse, drawn larger, still exactly its byte
  const at = (await page.evaluate(`(() => {
    const r = document.getElementById('tl-vcanvas').getBoundingClientRect();
    const p = window.tensorLens.inspector.views.picture.cssPointOf(17, 9);
    return { x: r.left + p.x, y: r.top + p.y };
  })()`)) as { x: number; y: number };
  await page.mouse.move(at.x, at.y);
  await page.mouse.wheel(0, -100);
  await page.mouse.wheel(0, -100);
  const zoomed = (await page.evaluate('window.tensorLens.inspector.views.picture.zoom')) as number;
  assert.ok(Math.abs(zoomed - zoom * 1.5625) < 1e-9, `zoom ${zoom} → ${zoomed}`);
  const g = memByte(off + 9 * 32 + 17);
  assert.deepEqual(await drawn(page, 17, 9), [g, g, g, 255]);
  assert.match(await text(page, '.tl-selected .tl-vhover'), /^\(x 17, y 9\) = /);
  // dragging pans: the picture moves with the mouse
  const panX = (await page.evaluate('window.tensorLens.inspector.views.picture.panX')) as number;
  await page.mouse.down();
  await page.mouse.move(at.x + 30, at.y, { steps: 3 });
  await page.mouse.up();
  const moved = (await page.evaluate('window.tensorLens.inspector.views.picture.panX')) as number;
  assert.equal(moved - panX, 30 * ((await page.evaluate('window.devicePixelRatio')) as number));
  await shot(page, 'views-grey');
  assert.deepEqual(problems, []);
  assert.deepEqual(await csp(), []);
  await page.close();
});

test('RGB planar and BGR interleaved images take their channels from the right bytes', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  const w = 20;
  const hgt = 10;
  const n = w * hgt;
  const off = 0x7000;
  await view(page, { label: 'planar', space: 'MEM', offset: off, bytes: 3 * n, mode: 'image', shape: [3, hgt, w] });
  assert.match(await text(page, '#tl-vstatus'), /RGB planar 20×10/);
  for (const [x, y] of [
    [0, 0],
    [7, 4],
    [19, 9],
  ]) {
    const i = y * w + x;
    assert.deepEqual(await drawn(page, x, y), [memByte(off + i), memByte(off + n + i), memByte(off + 2 * n + i), 255], `planar (${x}, ${y})`);
  }
  await view(page, { label: 'bgr', space: 'MEM', offset: off, bytes: 3 * n, mode: 'image', format: 'bgr-interleaved', width: w, height: hgt });
  assert.match(await text(page, '#tl-vstatus'), /BGR interleaved 20×10/);
  for (const [x, y] of [
    [0, 0],
    [7, 4],
    [19, 9],
  ]) {
    const i = 3 * (y * w + x);
    // memory holds B, G, R per pixel
    assert.deepEqual(await drawn(page, x, y), [memByte(off + i + 2), memByte(off + i + 1), memByte(off + i), 255], `bgr (${x}, ${y})`);
  }
  // an [h, w, 3] shape reads as interleaved RGB
  await view(page, { label: 'hwc', space: 'MEM', offset: off, bytes: 3 * n, mode: 'image', shape: [hgt, w, 3] });
  assert.match(await text(page, '#tl-vstatus'), /RGB interleaved 20×10/);
  assert.deepEqual(await drawn(page, 3, 2), [memByte(off + 3 * 43), memByte(off + 3 * 43 + 1), memByte(off + 3 * 43 + 2), 255]);
  await shot(page, 'views-rgb');
  await page.close();
});

test('heatmap scale: min blue, max red, the middle value white; legend states the range', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  // MEM bytes 0, 1, 2 are 1, 8, 15: min, exact middle, max
  assert.deepEqual([memByte(0), memByte(1), memByte(2)], [1, 8, 15]);
  await view(page, { label: 'three', space: 'MEM', offset: 0, bytes: 3, mode: 'heatmap', dtype: 'u8', width: 3 });
  assert.deepEqual(await drawn(page, 0, 0), [0, 0, 255, 255]);
  assert.deepEqual(await drawn(page, 1, 0), [255, 255, 255, 255]);
  assert.deepEqual(await drawn(page, 2, 0), [255, 0, 0, 255]);
  assert.equal(await text(page, '.tl-selected .tl-vrange'), 'min 1 · max 15');
  assert.equal(await page.isVisible('.tl-selected .tl-vlegend'), true);
  // f32 B = 0, 0.5, …, 7.5 as 4 × 4: value k/2 sits at t = k/15
  await view(page, { label: 'B', space: 'MEM', offset: B.offset, bytes: 64, mode: 'heatmap', dtype: 'f32', shape: [4, 4] });
  assert.equal(await text(page, '.tl-selected .tl-vrange'), 'min 0 · max 7.5');
  for (const k of [0, 3, 7, 8, 12, 15]) assert.deepEqual(await drawn(page, k % 4, Math.floor(k / 4)), scale(k / 15), `B[${k}] = ${k / 2}`);
  assert.deepEqual(scale(7 / 15), [238, 238, 255, 255]);
  // i16 heatmap of a 3-D tensor, slice [1]: the halves of B's last eight f32 values (4 … 7.5)
  const bBytes = new Uint8Array(new Float32Array(Array.from({ length: 16 }, (_, i) => i * 0.5)).buffer);
  const i16 = (i: number) => new DataView(bBytes.buffer).getInt16(2 * i, true);
  await view(page, { label: 'Bi16', space: 'MEM', offset: B.offset, bytes: 64, mode: 'heatmap', dtype: 'i16', shape: [2, 4, 4], slice: [1] });
  const vals = Array.from({ length: 16 }, (_, i) => i16(16 + i));
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  assert.equal(await text(page, '.tl-selected .tl-vrange'), `min ${lo} · max ${hi}`);
  for (const i of [0, 5, 15]) assert.deepEqual(await drawn(page, i % 4, Math.floor(i / 4)), scale((vals[i] - lo) / (hi - lo)), `slice [1] element ${i}`);
  assert.match(await text(page, '#tl-vstatus'), /i16 heatmap \[2, 4, 4\] slice \[1\]/);
  await shot(page, 'views-heatmap');
  await page.close();
});

test('hover tells coordinate, value, address and last writer; click reveals it; the step outline follows the timeline', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await view(page, { label: 'A', space: 'MEM', offset: A.offset, bytes: 64, mode: 'heatmap', dtype: 'f32', shape: [4, 4] });
  const box = (await page.evaluate(
    `(() => {
      const r = document.getElementById('tl-vcanvas').getBoundingClientRect();
      const p = window.tensorLens.inspector.views.picture.cssPointOf(1, 0);
      return { x: r.left + p.x, y: r.top + p.y };
    })()`,
  )) as { x: number; y: number };
  await page.mouse.move(box.x, box.y);
  await until(page, `document.querySelector('.tl-selected .tl-vhover').textContent.includes('last written')`);
  assert.equal(await text(page, '.tl-selected .tl-vhover'), '[0, 1] = 2.5 (f32) · MEM 0x1004 · last written by step 1: demo.tprog:11 >A[0][1] <= 2.5;');
  await page.mouse.click(box.x, box.y);
  await until(page, 'window.harness.revealed.length > 0');
  assert.equal(((await page.evaluate('window.harness.revealed[0]')) as { line: number }).line, 11);
  // the last step (3) wrote $x, not A: no outline; step 1 wrote A[0][1]: that pixel is outlined
  assert.deepEqual(await page.evaluate('window.tensorLens.inspector.views.picture.outlined'), []);
  const painted = Number(await page.evaluate('document.body.dataset.viewPainted'));
  await page.evaluate(`(() => { const s = document.getElementById('tl-scrub'); s.value = '1'; s.dispatchEvent(new Event('input')); })()`);
  await until(page, `Number(document.body.dataset.viewPainted) > ${painted}`);
  assert.deepEqual(await page.evaluate('window.tensorLens.inspector.views.picture.outlined'), [{ x: 1, y: 0, w: 1, h: 1 }]);
  // before step 0 copied B into A, A holds the pattern bytes
  await page.evaluate(`(() => { const s = document.getElementById('tl-scrub'); s.value = '-1'; s.dispatchEvent(new Event('input')); })()`);
  await until(page, `window.tensorLens.inspector.views.shownStep === -1`);
  const f0 = new DataView(Uint8Array.from({ length: 4 }, (_, i) => memByte(A.offset + i)).buffer).getFloat32(0, true);
  await page.mouse.move(box.x - 30, box.y + 30);
  const p00 = (await page.evaluate(`window.tensorLens.inspector.views.describePixel(0, 0)`)) as string;
  assert.ok(p00.startsWith(`[0, 0] = ${Number.isInteger(f0) ? f0 : Number(f0.toPrecision(6))} (f32) · MEM 0x1000`), p00);
  await page.close();
});

test('difference to a reference .npy counts and marks the differing elements; a wrong size is a clear error', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await view(page, { label: 'B', space: 'MEM', offset: B.offset, bytes: 64, mode: 'heatmap', dtype: 'f32', shape: [4, 4] });
  const ref = Array.from({ length: 16 }, (_, i) => i * 0.5);
  ref[5] = 99;
  ref[14] = -1;
  await page.evaluate(`window.harness.setReference('/tmp/expected.npy', ${JSON.stringify(ref)}, 'f4', [4, 4])`);
  await page.click('#tl-vdiff');
  await until(page, `document.getElementById('tl-vdiffinfo').textContent !== ''`);
  assert.equal(await text(page, '#tl-vdiffinfo'), '2 of 16 elements differ from expected.npy (2 pixels, red)');
  // a differing pixel is tinted red over its colour; an equal one keeps the scale's colour
  const tinted = await drawn(page, 1, 1);
  assert.ok(tinted[0] > 200 && tinted[1] < 150, `tinted ${tinted}`);
  assert.deepEqual(await drawn(page, 0, 1), scale(4 / 15));
  // equal to itself: nothing differs
  await page.evaluate(`window.harness.setReference('same.npy', ${JSON.stringify(ref.map((_, i) => i * 0.5))}, 'f4', [16])`);
  await page.click('#tl-vdiff');
  await until(page, `document.getElementById('tl-vdiffinfo').textContent.includes('same.npy')`);
  assert.equal(await text(page, '#tl-vdiffinfo'), 'no element differs from same.npy (16 compared)');
  // a .bin of the wrong size names the file and both sizes
  await page.evaluate(`window.harness.setReference('short.bin', [1, 2, 3])`);
  await page.click('#tl-vdiff');
  await until(page, `document.getElementById('tl-vdiffinfo').textContent.includes('short.bin')`);
  assert.equal(await text(page, '#tl-vdiffinfo'), "short.bin: 3 bytes, the view's 16 f32 elements take 64");
  // an image of 3 × 2 u8 against a .bin: the raw bytes compared, one differs
  const img = Array.from({ length: 6 }, (_, i) => memByte(0x6000 + i));
  img[4] ^= 1;
  await view(page, { label: 'tiny', space: 'MEM', offset: 0x6000, bytes: 6, mode: 'image', format: 'grey', width: 3, height: 2 });
  await page.evaluate(`window.harness.setReference('tiny.bin', ${JSON.stringify(img)})`);
  await page.click('#tl-vdiff');
  await until(page, `document.getElementById('tl-vdiffinfo').textContent.includes('tiny.bin')`);
  assert.equal(await text(page, '#tl-vdiffinfo'), '1 of 6 elements differ from tiny.bin (1 pixels, red)');
  // the same as a grey PNG (decoded by core/image): two pixels differ now
  img[0] ^= 2;
  await page.evaluate(`window.harness.setReference('tiny.png', ${JSON.stringify(img)}, 'u1', [2, 3, 1])`);
  await page.click('#tl-vdiff');
  await until(page, `document.getElementById('tl-vdiffinfo').textContent.includes('tiny.png')`);
  assert.equal(await text(page, '#tl-vdiffinfo'), '2 of 6 elements differ from tiny.png (2 pixels, red)');
  await page.close();
});

test('a shape that does not fit the region is a clear error at its address; nothing is drawn', async () => {
  const { page, problems } = await open(fx(), '/inspector?state=fresh');
  await view(page, { label: 'A', space: 'MEM', offset: A.offset, bytes: 64, mode: 'image', shape: [3, 100, 100] });
  assert.equal(await text(page, '#tl-vstatus'), 'A (MEM offset 4096, 64 bytes): RGB planar 100×100 needs 30000 bytes, the region has 64');
  const d = (await page.evaluate(`window.tensorLens.inspector.viewDump(1).picture`)) as { error?: string };
  assert.match(d.error ?? '', /needs 30000 bytes/);
  await view(page, { label: 'A', space: 'MEM', offset: A.offset, bytes: 64, mode: 'heatmap', dtype: 'f32', shape: [2, 4, 4], slice: [2] });
  assert.equal(await text(page, '#tl-vstatus'), 'A (MEM offset 4096, 64 bytes): slice index 2 is outside dimension 0 (size 2) of [2, 4, 4]');
  // typed in the controls: a malformed shape names the item
  await view(page, { label: 'A', space: 'MEM', offset: A.offset, bytes: 64, mode: 'heatmap', dtype: 'f32', shape: [4, 4] });
  await page.fill('#tl-vshape', '4,x');
  await page.press('#tl-vshape', 'Enter');
  await page.dispatchEvent('#tl-vshape', 'change');
  await until(page, `document.getElementById('tl-vstatus').textContent.startsWith('shape:')`, 3000).catch(async (e) => {
    throw new Error(e.message + ' status: ' + (await text(page, '#tl-vstatus')));
  });
  assert.equal(await text(page, '#tl-vstatus'), 'shape: "x" (item 2 of "4,x") is not a size (an integer ≥ 1)');
  // the controls change the view: 2 × 8 rows of the same bytes
  await page.fill('#tl-vshape', '2,8');
  await page.dispatchEvent('#tl-vshape', 'change');
  await until(page, `document.getElementById('tl-vstatus').textContent.includes('[2, 8]')`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('export as PNG and .npy: the picture and the shown elements with their shape', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await view(page, { label: 'planar', space: 'MEM', offset: 0x7000, bytes: 3 * 40, mode: 'image', shape: [3, 5, 8] });
  await page.click('#tl-vpng');
  await until(page, 'window.harness.saved.length === 1');
  const png = (await page.evaluate('window.harness.bytesOfSaved(0)')) as number[];
  assert.deepEqual(png.slice(0, 8), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const be32 = (o: number) => ((png[o] << 24) | (png[o + 1] << 16) | (png[o + 2] << 8) | png[o + 3]) >>> 0;
  assert.deepEqual([be32(16), be32(20)], [8, 5], 'IHDR width and height');
  assert.equal(await page.evaluate('window.harness.saved[0].name'), 'planar.png');
  await page.click('#tl-vnpy');
  await until(page, 'window.harness.saved.length === 2');
  const npy = (await page.evaluate('window.harness.bytesOfSaved(1)')) as number[];
  const header = String.fromCharCode(...npy.slice(10, 80));
  assert.match(header, /'descr': '\|u1', 'fortran_order': False, 'shape': \(3, 5, 8\)/);
  const dataAt = npy.length - 120;
  assert.deepEqual(
    npy.slice(dataAt),
    Array.from({ length: 120 }, (_, i) => memByte(0x7000 + i)),
  );
  await page.close();
});

test('section 4: a run with regions opens on its first dump, lists buffers, dumps and pointer arguments, and stays usable at half width', async () => {
  const { page, problems } = await open(fx(), '/inspector?state=fresh&regions=1', { width: 680, height: 760 });
  await settle(page);
  const info = (await page.evaluate('window.tensorLens.inspector.debugInfo()')) as { cursor: number; space: string };
  assert.equal(info.space, 'MEM');
  assert.equal(info.cursor, 0x2000, 'the view starts at the first listed region (the dump out)');
  const groups = (await page.evaluate(
    `[...document.querySelectorAll('#tl-jump optgroup')].map((g) => g.label + ': ' + [...g.children].map((o) => o.textContent).join(', '))`,
  )) as string[];
  assert.deepEqual(groups, ['Buffers: input', 'Dumps: out', 'Pointer arguments: arg 1 (table)']);
  await page.selectOption('#tl-jump', { label: 'input' });
  await settle(page);
  assert.equal(((await page.evaluate('window.tensorLens.inspector.debugInfo()')) as { cursor: number }).cursor, 0x8000);
  await page.click('#tl-view');
  await until(page, `Number(document.body.dataset.viewPainted ?? 0) > 0`);
  assert.match(await text(page, '#tl-vstatus'), /input: RGB planar 16×8 at MEM 0x8000/);
  assert.deepEqual(await drawn(page, 2, 1), [memByte(0x8000 + 18), memByte(0x8000 + 128 + 18), memByte(0x8000 + 256 + 18), 255]);
  // half width: the pane stacks under the grid, both usable
  const g = (await page.evaluate(`(() => {
    const a = document.getElementById('tl-grid').getBoundingClientRect();
    const b = document.getElementById('tl-vcanvas').getBoundingClientRect();
    return { gridH: a.height, gridBottom: a.bottom, canvasTop: b.top, canvasW: b.width, canvasH: b.height, scrollW: document.documentElement.scrollWidth };
  })()`)) as Record<string, number>;
  assert.ok(g.gridH > 100, `grid height ${g.gridH}`);
  assert.ok(g.canvasTop >= g.gridBottom - 1, 'the pane is below the grid');
  assert.ok(g.canvasW > 600 && g.canvasH > 100, `canvas ${g.canvasW}×${g.canvasH}`);
  assert.ok(g.scrollW <= 680, `page scrolls sideways: ${g.scrollW}`);
  await shot(page, 'views-half-width');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the run configuration lists a view: the pane opens on it at the start', async () => {
  const spec = { label: 'B', space: 'MEM', offset: B.offset, bytes: 64, mode: 'heatmap', dtype: 'f32', shape: [4, 4] };
  const { page } = await open(fx(), `/inspector?state=fresh&view=${encodeURIComponent(JSON.stringify(spec))}`);
  await until(page, `Number(document.body.dataset.viewPainted ?? 0) > 0`);
  assert.equal(await page.isVisible('#tl-views'), true);
  assert.deepEqual(await drawn(page, 3, 3), scale(1));
  const d = (await page.evaluate(`window.tensorLens.inspector.viewDump(1).picture`)) as { label: string; pixel0: number[] };
  assert.equal(d.label, 'B');
  assert.deepEqual(d.pixel0, scale(0));
  // the configured views are offered in the region list (selected: the one shown)
  assert.equal(await page.evaluate(`document.querySelector('#tl-vregion').selectedOptions[0].textContent`), 'view B');
  // the extension closes it (as its × does): hidden, and viewDump says no picture
  await page.evaluate('window.harness.host.closeView()');
  await until(page, `document.getElementById('tl-views').hidden`);
  assert.equal(await page.evaluate(`window.tensorLens.inspector.viewDump(2).picture`), undefined);
  await page.close();
});

// ---------------------------------------------------------------------------------------------
// Several pictures: tiles side by side (the run configuration's views, e.g. an input and its output)

const IN = { label: 'in', space: 'MEM', offset: 0x6000, bytes: 512, mode: 'image', format: 'grey', width: 32, height: 16 };
const OUT = { label: 'out', space: 'MEM', offset: 0x6200, bytes: 512, mode: 'image', format: 'grey', width: 32, height: 16 };
const HEAT_A = { label: 'A', space: 'MEM', offset: A.offset, bytes: 64, mode: 'heatmap', dtype: 'f32', shape: [4, 4] };

/** Opens the inspector as a run listing `views` would, and waits until every one has painted. */
async function openViews(views: object[], size?: { width: number; height: number }) {
  const o = await open(fx(), `/inspector?state=fresh&view=${encodeURIComponent(JSON.stringify(views))}`, size ?? {});
  await until(o.page, `Number(document.body.dataset.viewPainted ?? 0) >= ${views.length}`);
  await o.page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  return o;
}
const tile = (i: number) => `window.tensorLens.inspector.views.tiles[${i}]`;
const tileDrawn = (page: Page, i: number, x: number, y: number) => page.evaluate(`${tile(i)}.drawnPixel(${x}, ${y})`) as Promise<number[]>;
const viewOf = (page: Page, i: number) =>
  page.evaluate(`(() => { const p = ${tile(i)}.picture; return { zoom: p.zoom, panX: p.panX, panY: p.panY }; })()`) as Promise<{
    zoom: number;
    panX: number;
    panY: number;
  }>;
/** The page point over the centre of picture pixel (x, y) of tile i. */
const pointOf = (page: Page, i: number, x: number, y: number) =>
  page.evaluate(`(() => {
    const p = ${tile(i)}.picture;
    const r = p.canvas.getBoundingClientRect();
    const q = p.cssPointOf(${x}, ${y});
    return { x: r.left + q.x, y: r.top + q.y };
  })()`) as Promise<{ x: number; y: number }>;
const rects = (page: Page) =>
  page.evaluate(
    `[...document.querySelectorAll('.tl-vtile')].map((t) => {
      const r = t.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    })`,
  ) as Promise<{ left: number; right: number; top: number; bottom: number }[]>;
const grey = (off: number, x: number, y: number) => {
  const g = memByte(off + y * 32 + x);
  return [g, g, g, 255];
};

test('a run listing three views opens three tiles side by side, each with its own pixels; every tile follows the step', async () => {
  const { page, problems, csp } = await openViews([IN, OUT, HEAT_A]);
  assert.deepEqual(await page.evaluate(`[...document.querySelectorAll('canvas.tl-vcanvas')].map((c) => c.dataset.label)`), ['in', 'out', 'A']);
  assert.equal(await page.evaluate(`document.getElementById('tl-vcanvas').dataset.label`), 'in', 'the first tile keeps the id');
  const r = await rects(page);
  assert.equal(r.length, 3);
  for (const i of [1, 2]) {
    assert.ok(Math.abs(r[i].top - r[0].top) < 1, `tile ${i} on the first row: ${r[i].top} vs ${r[0].top}`);
    assert.ok(r[i].left >= r[i - 1].right, `tile ${i} right of tile ${i - 1}`);
  }
  // the input and the output pictures hold their own bytes at the same coordinates
  for (const [x, y] of [
    [0, 0],
    [5, 3],
    [31, 15],
  ]) {
    assert.deepEqual(await tileDrawn(page, 0, x, y), grey(0x6000, x, y), `in (${x}, ${y})`);
    assert.deepEqual(await tileDrawn(page, 1, x, y), grey(0x6200, x, y), `out (${x}, ${y})`);
  }
  assert.notDeepEqual(grey(0x6000, 5, 3), grey(0x6200, 5, 3), 'the two regions differ there');
  // the heatmap tile has its legend; the images none
  assert.deepEqual(await page.evaluate(`[...document.querySelectorAll('.tl-vtile .tl-vlegend')].map((l) => !l.hidden)`), [false, false, true]);
  // the first view is selected: the bar and the status speak of it
  assert.match(await text(page, '#tl-vstatus'), /^in: grey 32×16 at MEM 0x6000/);
  assert.equal(await page.evaluate(`document.querySelectorAll('.tl-vtile.tl-selected').length`), 1);
  const d = (await page.evaluate(`window.tensorLens.inspector.viewDump(1)`)) as { picture: { label: string }; pictures: { label: string; pixel0: number[] }[] };
  assert.equal(d.picture.label, 'in');
  assert.deepEqual(
    d.pictures.map((p) => p.label),
    ['in', 'out', 'A'],
  );
  assert.deepEqual(d.pictures[1].pixel0, grey(0x6200, 0, 0));
  // step 1 wrote A[0][1]: every tile re-reads at step 1, only A outlines a pixel
  const painted = Number(await page.evaluate('document.body.dataset.viewPainted'));
  await page.evaluate(`(() => { const s = document.getElementById('tl-scrub'); s.value = '1'; s.dispatchEvent(new Event('input')); })()`);
  await until(page, `Number(document.body.dataset.viewPainted) >= ${painted + 3}`);
  assert.deepEqual(await page.evaluate(`window.tensorLens.inspector.views.tiles.map((t) => t.shownStep)`), [1, 1, 1]);
  assert.deepEqual(await page.evaluate(`window.tensorLens.inspector.views.tiles.map((t) => t.picture.outlined)`), [[], [], [{ x: 1, y: 0, w: 1, h: 1 }]]);
  await shot(page, 'views-tiles');
  assert.deepEqual(problems, []);
  assert.deepEqual(await csp(), []);
  await page.close();
});

test('linked pictures of the same size zoom and pan together; another size does not; link off unties them', async () => {
  const { page } = await openViews([IN, OUT, HEAT_A]);
  assert.equal(await page.isChecked('#tl-vlink'), true, 'link is on by default');
  const heat0 = await viewOf(page, 2);
  const at = await pointOf(page, 0, 17, 9);
  await page.mouse.move(at.x, at.y);
  await page.mouse.wheel(0, -100);
  await page.mouse.wheel(0, -100);
  const v0 = await viewOf(page, 0);
  assert.deepEqual(await viewOf(page, 1), v0, 'out follows in');
  assert.deepEqual(await viewOf(page, 2), heat0, 'the 4 × 4 heatmap keeps its own view');
  // the same picture pixel is under the same canvas point in both, drawn with its own byte
  assert.deepEqual(await page.evaluate(`${tile(1)}.picture.cssPointOf(17, 9)`), await page.evaluate(`${tile(0)}.picture.cssPointOf(17, 9)`));
  assert.deepEqual(await tileDrawn(page, 1, 17, 9), grey(0x6200, 17, 9));
  assert.deepEqual(await tileDrawn(page, 0, 17, 9), grey(0x6000, 17, 9));
  // dragging the output pans the input along
  const b = await pointOf(page, 1, 10, 8);
  await page.mouse.move(b.x, b.y);
  await page.mouse.down();
  await page.mouse.move(b.x - 20, b.y + 10, { steps: 3 });
  await page.mouse.up();
  const dpr = (await page.evaluate('window.devicePixelRatio')) as number;
  const v1 = await viewOf(page, 1);
  assert.deepEqual(v1, { zoom: v0.zoom, panX: v0.panX - 20 * dpr, panY: v0.panY + 10 * dpr });
  assert.deepEqual(await viewOf(page, 0), v1);
  // link off: zooming the input leaves the output where it was
  await page.click('#tl-vlink');
  assert.equal(await page.isChecked('#tl-vlink'), false);
  const a2 = await pointOf(page, 0, 12, 6);
  await page.mouse.move(a2.x, a2.y);
  await page.mouse.wheel(0, 100);
  assert.notEqual((await viewOf(page, 0)).zoom, v1.zoom);
  assert.deepEqual(await viewOf(page, 1), v1);
  // link on again: the others take the selected tile's view (out, selected by the drag)
  await page.click('#tl-vlink');
  assert.match(await text(page, '#tl-vstatus'), /^out: /);
  assert.deepEqual(await viewOf(page, 0), v1);
  // a new picture of the same size joins the linked view; its pixels are its own
  await view(page, { ...IN, label: 'third', offset: 0x6400 });
  const centre = (i: number) => page.evaluate(`${tile(i)}.picture.centre()`) as Promise<{ x: number; y: number }>;
  // (adding a tile changed the layout: the tiles are whole again, still linked; the new one, on a row of its
  // own, shares their zoom and the picture point at its centre, within a canvas pixel: pans are whole canvas pixels)
  const v3 = await viewOf(page, 3);
  assert.equal(v3.zoom, (await viewOf(page, 1)).zoom);
  assert.deepEqual(await viewOf(page, 0), await viewOf(page, 1));
  const [c1, c3] = [await centre(1), await centre(3)];
  assert.ok(Math.abs(c1.x - c3.x) <= 1 / v3.zoom && Math.abs(c1.y - c3.y) <= 1 / v3.zoom, `centres ${JSON.stringify([c1, c3])}`);
  assert.deepEqual(await tileDrawn(page, 3, 12, 6), grey(0x6400, 12, 6));
  await page.close();
});

test('a click selects a tile: it is outlined and the bar, Fit and export act on it; × closes one tile', async () => {
  const { page, problems } = await openViews([IN, OUT, HEAT_A]);
  const outline = (i: number) => page.evaluate(`getComputedStyle(document.querySelectorAll('.tl-vtile')[${i}]).outlineStyle`);
  assert.equal(await outline(0), 'solid');
  assert.equal(await outline(2), 'none');
  assert.equal(await page.inputValue('#tl-vmode'), 'image');
  await page.click('.tl-vtile:nth-child(3) .tl-vtitle');
  assert.equal(await outline(2), 'solid');
  assert.equal(await outline(0), 'none');
  assert.equal(await page.inputValue('#tl-vmode'), 'heatmap');
  assert.equal(await page.inputValue('#tl-vshape'), '4,4');
  assert.match(await text(page, '#tl-vstatus'), /^A: f32 heatmap \[4, 4\]/);
  // the shape control changes the selected tile only
  await page.fill('#tl-vshape', '2,8');
  await page.dispatchEvent('#tl-vshape', 'change');
  await until(page, `document.getElementById('tl-vstatus').textContent.includes('[2, 8]')`);
  assert.deepEqual(await page.evaluate(`window.tensorLens.inspector.views.tiles.map((t) => t.plan.width + '×' + t.plan.height)`), ['32×16', '32×16', '8×2']);
  // export names the selected picture
  await page.click('#tl-vpng');
  await until(page, 'window.harness.saved.length === 1');
  assert.equal(await page.evaluate('window.harness.saved[0].name'), 'A.png');
  // select "out" and close it with its ×: two tiles remain, the next one (A) selected
  await page.click('.tl-vtile:nth-child(2) .tl-vtitle');
  assert.match(await text(page, '#tl-vstatus'), /^out: /);
  await page.click('.tl-vtile:nth-child(2) .tl-vtileclose');
  assert.deepEqual(await page.evaluate(`[...document.querySelectorAll('canvas.tl-vcanvas')].map((c) => c.dataset.label)`), ['in', 'A']);
  assert.match(await text(page, '#tl-vstatus'), /^A: /);
  // closing the first moves the id tl-vcanvas to the new first; closing the last closes the pane
  await page.click('.tl-vtile:nth-child(1) .tl-vtileclose');
  assert.equal(await page.evaluate(`document.getElementById('tl-vcanvas').dataset.label`), 'A');
  assert.deepEqual(await tileDrawn(page, 0, 0, 0), (await page.evaluate(`window.tensorLens.inspector.viewDump(2).pictures[0].pixel0`)) as number[]);
  await page.click('.tl-vtile:nth-child(1) .tl-vtileclose');
  assert.equal(await page.evaluate(`document.getElementById('tl-views').hidden`), true);
  // showView adds a tile; the same label again replaces that tile
  await view(page, IN);
  await view(page, OUT);
  await view(page, { ...IN, offset: 0x6400 });
  assert.deepEqual(await page.evaluate(`[...document.querySelectorAll('canvas.tl-vcanvas')].map((c) => c.dataset.label)`), ['in', 'out']);
  assert.match(await text(page, '#tl-vstatus'), /^in: grey 32×16 at MEM 0x6400/);
  assert.deepEqual(await tileDrawn(page, 0, 3, 2), grey(0x6400, 3, 2));
  // the extension closes one tile by its label
  await page.evaluate(`window.harness.post({ type: 'notify', method: 'closeView', params: { label: 'out' } })`);
  await until(page, `document.querySelectorAll('.tl-vtile').length === 1`);
  assert.deepEqual(await page.evaluate(`[...document.querySelectorAll('canvas.tl-vcanvas')].map((c) => c.dataset.label)`), ['in']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a narrow panel wraps the tiles to rows; no tile is cut off sideways', async () => {
  const { page, problems } = await openViews([IN, OUT, HEAT_A], { width: 420, height: 1000 });
  const r = await rects(page);
  const pane = (await page.evaluate(
    `(() => { const r = document.getElementById('tl-vtiles').getBoundingClientRect(); return { left: r.left, right: r.right }; })()`,
  )) as {
    left: number;
    right: number;
  };
  for (const [i, t] of r.entries()) {
    assert.ok(t.left >= pane.left - 0.5 && t.right <= pane.right + 0.5, `tile ${i} ${t.left}…${t.right} inside ${pane.left}…${pane.right}`);
  }
  // two to a row at most: the third starts a row of its own and takes its width
  assert.ok(r[2].top >= r[0].bottom - 0.5, `tile 2 (top ${r[2].top}) below tile 0 (bottom ${r[0].bottom})`);
  assert.ok(r[2].right - r[2].left > 300, `the last tile takes the row's width: ${r[2].right - r[2].left}`);
  assert.deepEqual(
    await page.evaluate(
      `(() => { const t = document.getElementById('tl-vtiles'); return [t.scrollWidth <= t.clientWidth, document.documentElement.scrollWidth <= 420]; })()`,
    ),
    [true, true],
  );
  assert.deepEqual(await tileDrawn(page, 1, 30, 14), grey(0x6200, 30, 14));
  await shot(page, 'views-tiles-narrow');
  // the panel widens: the tiles share a row again, every canvas sized to its new box (not stretched)
  await page.setViewportSize({ width: 1360, height: 760 });
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  const wide = await rects(page);
  assert.ok(Math.abs(wide[2].top - wide[0].top) < 1, 'one row');
  const sizes = (await page.evaluate(`[...document.querySelectorAll('canvas.tl-vcanvas')].map((c) => {
    const r = c.getBoundingClientRect();
    return [c.width, c.height, Math.round(r.width * devicePixelRatio), Math.round(r.height * devicePixelRatio)];
  })`)) as number[][];
  for (const [i, [w, hh, bw, bh]] of sizes.entries()) assert.deepEqual([w, hh], [bw, bh], `canvas ${i}`);
  assert.deepEqual(await tileDrawn(page, 1, 30, 14), grey(0x6200, 30, 14));
  assert.deepEqual(problems, []);
  await page.close();
});
