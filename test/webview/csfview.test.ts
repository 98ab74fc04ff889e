/**
 * The `.csfbin` viewer webview in real Chromium: the page from the extension's strict-CSP template
 * (csfViewHtml), the harness playing the extension with the real CsfView/CsfViewHost over fixture files
 * written by csfviewFixtures.ts, assertions on the text a user sees, and a screenshot in
 * test-artifacts/webview/csfview.png.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchChromium } from './server';
import { startCsfViewServer, type CsfViewServer } from './csfviewServer';
import { until } from './util';
import { BIG_F, BIG_L, bigIndex, bigValue, tensorA, writeCsfFixture } from './csfviewFixtures';
import { CsfView, bytesSource } from '../../core/csf/view';
import { CsfViewHost } from '../../core/csf/viewHost';
import { explainCsfHostMessage } from '../../core/protocol/webview';

let server: CsfViewServer | undefined;
let browser: Browser | undefined;
before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startCsfViewServer();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

interface Opened {
  page: Page;
  problems: string[];
  csp: () => Promise<string[]>;
}

async function open(query: string, opts: { height?: number; width?: number } = {}): Promise<Opened> {
  const page = await browser!.newPage({ viewport: { width: opts.width ?? 1400, height: opts.height ?? 760 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/favicon|status of 404/.test(m.text())) problems.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(
    'window.__csp = []; document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));',
  );
  await page.goto(`${server!.url}/csfview?${query}`);
  await until(page, 'document.body.dataset.ready === "1"', 20000);
  return { page, problems, csp: () => page.evaluate('window.__csp') as Promise<string[]> };
}

/** Two frames, then until no page request is pending. */
async function settle(page: Page): Promise<void> {
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  await until(page, '(() => { const d = window.tensorLens.viewer.debugInfo(); return d.pending === 0 && d.inFlight === 0; })()');
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

const text = async (page: Page, sel: string) => ((await page.textContent(sel)) ?? '').trim();

interface TableRow {
  row: number;
  cls: string;
  cells: string[];
}

async function tableRows(page: Page): Promise<TableRow[]> {
  return (await page.evaluate(
    "[...document.querySelectorAll('#csf-table .csf-row:not([hidden])')].map((r) => ({ row: Number(r.dataset.row), cls: r.className, cells: " +
      '[...r.children].map((c) => c.textContent.trim()) }))',
  )) as TableRow[];
}

async function hexRows(page: Page): Promise<{ off: string; bytes: string[]; hl: number[] }[]> {
  return (await page.evaluate(
    "[...document.querySelectorAll('#csf-hex .csf-hexrow:not([hidden])')].map((r) => ({ off: r.children[0].textContent, bytes: " +
      "[...r.querySelectorAll('.h-b')].map((c) => c.textContent).filter((t) => t !== ''), hl: [...r.querySelectorAll('.h-b.csf-hl')].map((c) => " +
      'Number(c.dataset.o)) }))',
  )) as { off: string; bytes: string[]; hl: number[] }[];
}

test('header facts and the entries of a fiber of formats.md A.8.1 (2×3, [[0, 1.5, 0], [-2, 0, 3.25]])', async () => {
  const { page, problems, csp } = await open('file=a');
  await until(page, 'document.body.dataset.validation === "done"');
  await settle(page);
  assert.equal(await text(page, '#csf-order'), '2');
  assert.equal(await text(page, '#csf-shape'), '2×3');
  assert.equal(await text(page, '#csf-nnz'), '3');
  assert.equal(await text(page, '#csf-fibers'), '2');
  assert.equal(await text(page, '#csf-density'), '50%');
  assert.equal(await text(page, '#csf-size'), '56 bytes');
  assert.equal(await text(page, '#csf-valstate'), 'valid: every rule V1–V15 holds');
  assert.equal(await page.$$eval('#csf-problems li', (l) => l.length), 0);
  const rows = await tableRows(page);
  // fiber 0 (1 entry), its entry, fiber 1 (2 entries), its entries
  assert.deepEqual(
    rows.map((r) => r.cells),
    [
      ['fiber 0', 'x[0, :]', '1 entry', '[0, 1)', 'ptr @0000002c'],
      ['entry 0', 'x[0, 1]', '1.5', '0x3FC00000', '@00000010'],
      ['fiber 1', 'x[1, :]', '2 entries', '[1, 3)', 'ptr @00000030'],
      ['entry 1', 'x[1, 0]', '-2', '0xC0000000', '@00000018'],
      ['entry 2', 'x[1, 2]', '3.25', '0x40500000', '@00000020'],
    ],
  );
  // the hex view shows the file's bytes
  const hex = await hexRows(page);
  assert.equal(hex.length, 4);
  assert.deepEqual(hex[0].bytes, ['02', '00', '00', '00', '02', '00', '00', '00', '03', '00', '00', '00', '03', '00', '00', '00']);
  assert.deepEqual(hex[3].bytes, ['01', '00', '00', '00', '03', '00', '00', '00']);
  // selecting an entry highlights its 8 bytes
  await page.click('#csf-table .csf-row[data-row="4"]');
  await settle(page);
  assert.deepEqual((await hexRows(page))[2].hl, [32, 33, 34, 35, 36, 37, 38, 39]);
  await page.screenshot({ path: join(ARTIFACTS, 'csfview.png') });
  assert.deepEqual(problems, []);
  assert.deepEqual(await csp(), []);
  await page.close();
});

test('a file with 1,000,000 entries: the table scrolls to its last entry, holding only a few pages', async () => {
  const { page, problems } = await open('file=big');
  assert.equal(await text(page, '#csf-nnz'), '1,000,000');
  assert.equal(await text(page, '#csf-fibers'), '1,000');
  assert.equal(await text(page, '#csf-shape'), '1000×5000');
  assert.equal(await text(page, '#csf-density'), '20%');
  assert.equal(await page.getAttribute('#csf-table', 'aria-rowcount'), String(BIG_F + BIG_F * BIG_L));
  // drag the scrollbar to the bottom
  await page.evaluate(`(() => { const s = document.getElementById('csf-table'); s.scrollTop = s.scrollHeight; })()`);
  await settle(page);
  let rows = await tableRows(page);
  const last = rows[rows.length - 1];
  const f = BIG_F - 1;
  const k = BIG_L - 1;
  assert.equal(last.row, BIG_F + BIG_F * BIG_L - 1);
  assert.deepEqual(last.cells.slice(0, 3), [`entry ${BIG_F * BIG_L - 1}`, `x[${f}, ${bigIndex(f, k)}]`, String(bigValue(f, k))]);
  // End key and a jump into the middle agree
  await page.fill('#csf-goto', 'fiber 500');
  await page.press('#csf-goto', 'Enter');
  await settle(page);
  rows = await tableRows(page);
  const head = rows.findIndex((r) => r.cells[0] === 'fiber 500');
  assert.ok(head >= 0, 'fiber 500 is shown');
  assert.deepEqual(rows[head].cells.slice(0, 4), ['fiber 500', 'x[500, :]', '1,000 entries', `[${500 * BIG_L}, ${501 * BIG_L})`]);
  assert.deepEqual(rows[head + 1].cells.slice(0, 3), [`entry ${500 * BIG_L}`, `x[500, ${bigIndex(500, 0)}]`, String(bigValue(500, 0))]);
  const info = (await page.evaluate('window.tensorLens.viewer.debugInfo()')) as { tablePages: number; hexPages: number };
  assert.ok(info.tablePages <= 64 && info.hexPages <= 64, `pages held: ${JSON.stringify(info)}`);
  await until(page, 'document.body.dataset.validation === "done"', 30000);
  assert.equal(await text(page, '#csf-valstate'), 'valid: every rule V1–V15 holds');
  assert.deepEqual(problems, []);
  await page.close();
});

/** Table cells of the visible rows that the user cannot read whole: cut by the pane's edge or by their own width (an ellipsis). */
async function clippedCells(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const pane = document.getElementById('csf-table').getBoundingClientRect();
    const out = [];
    for (const r of document.querySelectorAll('#csf-table .csf-row:not([hidden]), .csf-thead')) {
      const rr = r.getBoundingClientRect();
      if (rr.bottom <= pane.top || rr.top >= pane.bottom) continue;
      for (const c of r.children) {
        const b = c.getBoundingClientRect();
        const cut = b.left < pane.left - 0.5 || b.right > pane.right + 0.5 || c.scrollWidth > c.clientWidth;
        if (cut) out.push(c.className + ' "' + c.textContent + '" at ' + Math.round(b.left) + '..' + Math.round(b.right) + ' in ' + Math.round(pane.right));
      }
    }
    return out;
  })()`)) as string[];
}

for (const width of [1000, 800]) {
  test(`at ${width} px (an editor beside VS Code's side bar) the fiber table shows every column whole: counts, values, bits, offsets`, async () => {
    const { page, problems } = await open('file=big', { width });
    await settle(page);
    const rows = await tableRows(page);
    // fiber 0 and its first entries: the count and the entry values are there and readable
    assert.deepEqual(rows[0].cells, ['fiber 0', 'x[0, :]', '1,000 entries', `[0, ${BIG_L})`, rows[0].cells[4]]);
    assert.deepEqual(rows[1].cells.slice(0, 3), ['entry 0', `x[0, ${bigIndex(0, 0)}]`, String(bigValue(0, 0))]);
    assert.match(rows[1].cells[3], /^0x[0-9A-F]{8}$/);
    assert.match(rows[1].cells[4], /^@[0-9a-f]{8}$/);
    assert.deepEqual(await clippedCells(page), []);
    // the last rows hold the widest numbers
    await page.evaluate(`(() => { const s = document.getElementById('csf-table'); s.scrollTop = s.scrollHeight; })()`);
    await settle(page);
    assert.deepEqual(await clippedCells(page), []);
    // the hex view is still there, whole rows of 16 bytes
    const hex = await hexRows(page);
    assert.ok(hex.length > 0 && hex[0].bytes.length === 16, `hex rows: ${hex.length}`);
    await page.screenshot({ path: join(ARTIFACTS, `csfview-${width}.png`) });
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('a corrupt file: the problem links to its byte offset in the hex view and to the entry', async () => {
  const { page, problems } = await open('file=a-bad-index');
  await until(page, 'document.body.dataset.validation === "done"');
  await settle(page);
  assert.equal(await text(page, '#csf-valstate'), '1 problem');
  const items = await page.$$eval('#csf-problems li', (l) => l.map((x) => x.textContent));
  assert.equal(items.length, 1);
  assert.match(
    items[0]!,
    /^offset 32 \(0x20\) error V14 csf\.index-out-of-range entry 2 \(fiber 1, x\[1, :\]\) has index 3, expected an index below shape\[1\] = 3$/,
  );
  // scroll the hex view away first, so that the link has to bring offset 32 back
  await page.click('.csf-link');
  await settle(page);
  const hex = await hexRows(page);
  const r = hex.find((x) => x.off === '00000020');
  assert.ok(r, 'row 0x20 is visible');
  assert.deepEqual(r.hl, [32, 33, 34, 35]);
  assert.equal(hex.flatMap((x) => x.hl).length, 4, 'only the index field is highlighted');
  assert.match(await text(page, '#csf-status'), /^offset 32 \(0x20\): entry 2, index \(u32\)$/);
  const sel = (await tableRows(page)).find((x) => x.cls.includes('csf-selected'));
  assert.deepEqual(sel?.cells.slice(0, 2), ['entry 2', 'x[1, 3]']);
  assert.match(sel!.cls, /csf-bad/);
  assert.deepEqual(problems, []);
  await page.close();

  // a structural problem: no fiber table, the problem still links into the hex view
  const b = await open('file=a-bad-end');
  await until(b.page, 'document.body.dataset.validation === "done"');
  await settle(b.page);
  assert.equal(await text(b.page, '#csf-tablenote'), 'No fiber table: the end pointer ptr[2] must equal nnz = 3, found 2');
  assert.equal(await b.page.getAttribute('.csf-link', 'data-offset'), '52');
  await b.page.click('.csf-link');
  await settle(b.page);
  assert.deepEqual(
    (await hexRows(b.page)).flatMap((x) => x.hl),
    [52, 53, 54, 55],
  );
  await b.page.close();
});

test('invalid messages are rejected on both sides', async () => {
  const { page, problems } = await open('file=a');
  await until(page, 'document.body.dataset.validation === "done"');
  await settle(page);
  const before = await text(page, '#csf-valstate');
  // extension → webview: a malformed notification and a response nobody asked for
  await page.evaluate(`harness.post({ type: 'notify', method: 'csf.validation', params: { state: 'bogus', checked: 0, total: 0, problems: [] } })`);
  await page.evaluate(`harness.post({ type: 'notify', method: 'csf.validation', params: { state: 'done', checked: -1, total: 56, problems: [] } })`);
  await page.evaluate(`harness.post({ type: 'response', id: 9999, ok: true, result: {} })`);
  await page.evaluate(`harness.post('not an object')`);
  await until(page, 'window.tensorLens.dropped.length >= 4');
  const dropped = (await page.evaluate('window.tensorLens.dropped')) as string[];
  assert.match(dropped[0], /csf\.validation.*state/);
  assert.match(dropped[1], /checked: -1 < 0/);
  assert.match(dropped[2], /no pending request 9999/);
  assert.match(dropped[3], /expected an object/);
  assert.equal(await text(page, '#csf-valstate'), before, 'the view did not act on them');
  // webview → extension: bad parameters, unknown methods, garbage
  await page.evaluate(`harness.fromWebview({ type: 'request', id: 77, method: 'csf.rows', params: { start: -1, count: 5 } })`);
  await page.evaluate(`harness.fromWebview({ type: 'request', id: 78, method: 'csf.hex', params: { offset: 0, length: 1e9 } })`);
  await page.evaluate(`harness.fromWebview({ type: 'request', id: 79, method: 'csf.deleteFile', params: {} })`);
  await page.evaluate(`harness.fromWebview({ type: 'notify', method: 'csf.log', params: { level: 'loud', message: 'x' } })`);
  const answers = (await page.evaluate(`harness.received.filter((m) => m.type === 'response' && m.id >= 77).map((m) => [m.id, m.ok, m.error])`)) as [
    number,
    boolean,
    string,
  ][];
  assert.deepEqual(
    answers.map(([id, ok]) => [id, ok]),
    [
      [77, false],
      [78, false],
      [79, false],
    ],
  );
  assert.match(answers[0][2], /request csf\.rows\.params\.start: -1 < 0/);
  assert.match(answers[1][2], /params\.length: 1000000000 > 65536/);
  assert.match(answers[2][2], /unknown method "csf\.deleteFile"/);
  const log = (await page.evaluate('harness.log')) as string[];
  assert.ok(
    log.some((l) => /^warn: .*notify csf\.log\.params\.level/.test(l)),
    log.join('\n'),
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('"Show in accelerator memory" loads the tensor at the configured bases (formats.md §A.7)', async () => {
  const { page } = await open('file=a&mainBase=3&metaBase=6');
  await settle(page);
  await page.click('#csf-show');
  await until(page, 'harness.shown.length === 1');
  await until(page, `document.getElementById('csf-status').textContent.startsWith('Loaded')`);
  const shown = (await page.evaluate('harness.shown[0]')) as {
    spaces: { id: string; bytes: number; unitBytes: number }[];
    metaWords: number[];
    mainBytes: number[];
    initial: unknown;
  };
  assert.deepEqual(shown.spaces, [
    { id: 'csf:main', bytes: 8 * 6, unitBytes: 8 },
    { id: 'csf:meta', bytes: 4 * 12, unitBytes: 4 },
  ]);
  // tensor pointer 6: order, shape, then the file pointers [0, 1, 3] + main base 3
  assert.deepEqual(shown.metaWords, [0, 0, 0, 0, 0, 0, 2, 2, 3, 3, 4, 6]);
  const main = new DataView(new Uint8Array(shown.mainBytes).buffer);
  assert.deepEqual(
    [3, 4, 5].map((a) => [main.getUint32(8 * a, true), main.getFloat32(8 * a + 4, true)]),
    [
      [1, 1.5],
      [0, -2],
      [2, 3.25],
    ],
  );
  assert.deepEqual(shown.initial, { space: 'csf:main', offset: 24, length: 24 });
  assert.equal(await text(page, '#csf-status'), 'Loaded: tensor pointer 6, entries at 3..5');
  await page.close();
});

// ------------------------------------------------------------------------------------------------
// The extension side of the viewer (CsfView, CsfViewHost) directly in Node: the fiber table's row
// mapping and the structural problems that leave no table, on the corrupt cases of formats.md A.8.4
// (made here by editing A's bytes), and arbitrary bytes never throwing.

const u32le = (b: Uint8Array, at: number, v: number) => new DataView(b.buffer, b.byteOffset).setUint32(at, v, true);

test('CsfView: rows of a tensor with an empty fiber map back to fibers and entries', async () => {
  // formats.md A.8.2: [[0, 0, 0], [4, 0, 0.5]], ptr = [0, 0, 2]
  const v = await CsfView.open(
    bytesSource(
      writeCsfFixture(
        [2, 3],
        [
          [],
          [
            [0, 4],
            [2, 0.5],
          ],
        ],
      ),
    ),
  );
  assert.equal(v.rowCount, 4);
  const rows = await v.rows(0, 10);
  assert.deepEqual(rows, [
    { kind: 'fiber', row: 0, fiber: 0, coord: [0], start: 0, end: 0 },
    { kind: 'fiber', row: 1, fiber: 1, coord: [1], start: 0, end: 2 },
    { kind: 'entry', row: 2, entry: 0, fiber: 1, index: 0, bits: 0x40800000, offset: 16 },
    { kind: 'entry', row: 3, entry: 1, fiber: 1, index: 2, bits: 0x3f000000, offset: 24 },
  ]);
  // any window gives the same rows
  for (let s = 0; s < 4; s++) for (let n = 1; n <= 4 - s; n++) assert.deepEqual(await v.rows(s, n), rows.slice(s, s + n), `rows(${s}, ${n})`);
  assert.equal(v.rowOfEntry(1), 3);
  assert.equal(v.rowOfFiber(1), 1);
  assert.equal(v.rowOfOffset(24), 3, 'entry 1 starts at byte 24');
  assert.equal(v.rowOfOffset(36), 0, 'ptr[0] (bytes 36..39) is fiber 0');
  assert.equal(v.rowOfOffset(41), 1, 'ptr[1] (bytes 40..43) is fiber 1');
  assert.equal(v.rowOfOffset(44), undefined, 'the end pointer shows no row');
  // order 1: one fiber
  const o1 = await CsfView.open(
    bytesSource(
      writeCsfFixture(
        [5],
        [
          [
            [1, 1],
            [4, -1],
          ],
        ],
      ),
    ),
  );
  assert.deepEqual(
    (await o1.rows(0, 3)).map((r) => r.kind + (r.kind === 'entry' ? r.index : r.fiber)),
    ['fiber0', 'entry1', 'entry4'],
  );
});

test('CsfView: structural problems of formats.md A.8.4 leave no fiber table and name the rule and offset', async () => {
  const a = tensorA();
  const cases: [string, Uint8Array, string, number][] = [
    ['header cut', a.slice(0, 6), 'V4', 4],
    ['last byte cut', a.slice(0, 55), 'V8', 44],
    [
      'order 0',
      (() => {
        const b = new Uint8Array(16);
        u32le(b, 8, 1);
        return b;
      })(),
      'V2',
      0,
    ],
    [
      'nnz overstated',
      (() => {
        const b = a.slice();
        u32le(b, 12, 4);
        return b;
      })(),
      'V7',
      48,
    ],
    [
      'P = 2',
      (() => {
        const b = new Uint8Array(52);
        b.set(a.subarray(0, 40));
        u32le(b, 40, 2);
        u32le(b, 44, 0);
        u32le(b, 48, 3);
        return b;
      })(),
      'V7',
      40,
    ],
    [
      'ptr = [1, 1, 3]',
      (() => {
        const b = a.slice();
        u32le(b, 44, 1);
        return b;
      })(),
      'V10',
      44,
    ],
    [
      'ptr = [0, 1, 2]',
      (() => {
        const b = a.slice();
        u32le(b, 52, 2);
        return b;
      })(),
      'V11',
      52,
    ],
    [
      'ptr = [0, 4, 3]',
      (() => {
        const b = a.slice();
        u32le(b, 48, 4);
        return b;
      })(),
      'V12',
      52,
    ],
  ];
  for (const [what, bytes, rule, offset] of cases) {
    const v = await CsfView.open(bytesSource(bytes));
    assert.equal(v.rowCount, 0, what);
    assert.deepEqual([v.indexProblem?.rule, v.indexProblem?.offset], [rule, offset], `${what}: ${v.indexProblem?.message}`);
    // the full validation agrees on the first problem
    const host = new CsfViewHost(v, () => undefined, { title: what });
    const val = await host.validated;
    assert.equal(val.ok, false, what);
    assert.equal(val.problems[0].rule, rule, `${what}: ${val.problems[0].message}`);
    assert.equal(val.problems[0].offset, offset, what);
  }
  // trailing bytes: the table is there, the validation reports V9 at the end of the pointers
  const trailing = new Uint8Array(60);
  trailing.set(a);
  const t = await CsfView.open(bytesSource(trailing));
  assert.equal(t.rowCount, 5);
  const tv = await new CsfViewHost(t, () => undefined, { title: 't' }).validated;
  assert.deepEqual(
    tv.problems.map((p) => [p.rule, p.offset, p.length]),
    [['V9', 56, 4]],
  );
});

test('CsfView and CsfViewHost never throw on arbitrary bytes', async () => {
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const a = tensorA();
  for (let k = 0; k < 400; k++) {
    const b = k % 4 === 0 ? new Uint8Array(Math.floor(rnd() * 80)).map(() => Math.floor(rnd() * 256)) : a.slice(0, Math.floor(rnd() * 64));
    if (k % 4 !== 0) for (let m = 0; m < 3; m++) if (b.length) b[Math.floor(rnd() * b.length)] = [0, 1, 2, 3, 0xff][Math.floor(rnd() * 5)];
    const v = await CsfView.open(bytesSource(b));
    const posted: unknown[] = [];
    const host = new CsfViewHost(v, (m) => posted.push(m), { title: 'fuzz' });
    await host.handle({ type: 'request', id: 1, method: 'csf.hello', params: { protocol: 1 } });
    await host.handle({ type: 'request', id: 2, method: 'csf.rows', params: { start: Math.floor(rnd() * 8), count: 50 } });
    await host.handle({ type: 'request', id: 3, method: 'csf.hex', params: { offset: Math.floor(rnd() * 100), length: 64 } });
    await host.handle({ type: 'request', id: 4, method: 'csf.locate', params: { offset: Math.floor(rnd() * 100) } });
    await host.validated;
    const answers = posted.filter((m) => (m as { type: string }).type === 'response') as { id: number; ok: boolean; error?: string }[];
    assert.deepEqual(
      answers.map((m) => [m.id, m.ok]),
      [
        [1, true],
        [2, true],
        [3, true],
        [4, true],
      ],
      `case ${k}: ${answers.map((m) => m.error).join('; ')}`,
    );
    for (const m of posted) assert.equal(explainCsfHostMessage(m), undefined, `case ${k}: the host sent a malformed message`);
  }
});
