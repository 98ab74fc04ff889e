/**
 * The memory inspector webview in real Chromium: the page from the extension's strict-CSP template,
 * the harness playing the extension side over a known 64 MiB image (scenario.ts), assertions on
 * the text a user sees, the decorations, the messages, and screenshots in test-artifacts/webview/.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { decos, goTo, hex2, open, row, rows, settle, setUp, shot, tearDown, until, type Fixture } from './util';
import { A, B, MEM_BYTES, W_VALUES, X, memByte } from './scenario';
import { ARTIFACTS } from './server';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

let f: Fixture | undefined;
before(async () => {
  f = await setUp();
});
after(async () => {
  await tearDown(f);
});

const fx = () => f!;
const addr7 = (n: number) => n.toString(16).padStart(7, '0');
const expectedHex = (off: number, n = 16) => Array.from({ length: n }, (_, i) => hex2(memByte(off + i)));
async function scrub(page: import('playwright-core').Page, step: number) {
  await page.evaluate(`(() => { const s = document.getElementById('tl-scrub'); s.value = '${step}'; s.dispatchEvent(new Event('input')); })()`);
}
const f32hex = (vals: number[]) => [...new Uint8Array(new Float32Array(vals).buffer)].map(hex2);

test('first rows show the known image byte for byte, with addresses, typed column and ASCII', async () => {
  const { page, problems, csp } = await open(fx(), '/inspector?state=fresh');
  await settle(page);
  const rs = await rows(page);
  assert.ok(rs.length >= 20, `only ${rs.length} rows visible`);
  assert.equal(rs[0].addr, '0000000');
  for (const r of rs) {
    const off = parseInt(r.addr, 16);
    if (off >= 0x1000) break;
    assert.deepEqual(r.hex, expectedHex(off), `row ${r.addr}`);
    assert.deepEqual(r.typed, expectedHex(off), `u8 in hex radix at ${r.addr}`);
  }
  assert.equal((await row(page, '0000140')).ascii, 'Tensor Lens! :-)');
  assert.equal((await row(page, '0000100')).ascii, '.<...{U5.~......');
  const header = (await page.textContent('.tl-head .tl-hex'))!.trim().split(/\s+/);
  assert.deepEqual(
    header,
    Array.from({ length: 16 }, (_, i) => hex2(i)),
  );
  assert.equal(await page.getAttribute('#tl-grid', 'role'), 'grid');
  assert.equal(await page.getAttribute('#tl-grid', 'aria-rowcount'), String(MEM_BYTES / 16 + 1));
  await shot(page, 'inspector-start');
  assert.deepEqual(problems, []);
  assert.deepEqual(await csp(), []);
  await page.close();
});

test('typed decoding: fp16, bf16, fp32 and 12-bit words', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await goTo(page, '0x100');
  await page.selectOption('#tl-type', 'f16');
  await settle(page);
  assert.deepEqual((await row(page, '0000100')).typed, ['1', '-2', '65500', '0.3333', 'NaN', '-Inf', '6e-8', '-0']);
  assert.match((await page.textContent('.tl-head .tl-typed'))!, /fp16 LE/);
  await page.selectOption('#tl-type', 'bf16');
  await settle(page);
  assert.deepEqual((await row(page, '0000110')).typed, ['1', '3.14', '-Inf', '3.39e38', '0', '-0', '0.1', 'NaN']);
  await page.selectOption('#tl-type', 'f32');
  await settle(page);
  assert.deepEqual((await row(page, '0000120')).typed, ['1.5', '-0.1', '3.4028235e38', '1e-45']);
  await page.selectOption('#tl-type', 'w12');
  await page.selectOption('#tl-radix', 'dec');
  await settle(page);
  assert.deepEqual((await row(page, '0000130')).typed, ['-1', '2047', '-2048', '5', '1', '564', '-1348', '0']);
  assert.deepEqual(
    (await row(page, '0000130')).hex,
    expectedHex(0x130).map((x) => String(parseInt(x, 16)).padStart(3, '0')),
  );
  await page.selectOption('#tl-radix', 'hex');
  await settle(page);
  assert.deepEqual((await row(page, '0000130')).typed, ['fff', '7ff', '800', '005', '001', '234', 'abc', '000']);
  await page.selectOption('#tl-type', 'i32');
  await page.selectOption('#tl-radix', 'dec');
  await settle(page);
  const dv = new DataView(new Uint8Array(expectedHex(0x140).map((x) => parseInt(x, 16))).buffer);
  assert.deepEqual(
    (await row(page, '0000140')).typed,
    [0, 4, 8, 12].map((o) => String(dv.getInt32(o, true))),
  );
  await shot(page, 'inspector-typed');
  await page.close();
});

test('endianness switch re-decodes multi-byte values', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await goTo(page, '0x130');
  await page.selectOption('#tl-type', 'u16');
  await page.selectOption('#tl-radix', 'hex');
  await settle(page);
  assert.deepEqual((await row(page, '0000130')).typed.slice(0, 4), ['0fff', '07ff', '0800', 'f005']);
  await page.click('#tl-endian');
  await settle(page);
  assert.equal(await page.textContent('#tl-endian'), 'BE');
  assert.equal(await page.getAttribute('#tl-endian', 'aria-pressed'), 'true');
  assert.deepEqual((await row(page, '0000130')).typed.slice(0, 4), ['ff0f', 'ff07', '0008', '05f0']);
  assert.match((await page.textContent('.tl-head .tl-typed'))!, /u16 BE/);
  await page.selectOption('#tl-type', 'f16');
  await goTo(page, '0x100');
  // BE fp16 of 00 3c = 0x003c (a subnormal)
  assert.equal((await row(page, '0000100')).typed[0], '3.6e-6');
  await page.close();
});

test('PCORE page: core and thread selectors, word addresses, 12-bit words after the step that wrote them', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await page.selectOption('#tl-space', 'PCORE0');
  await page.selectOption('#tl-part-core', '1');
  await page.selectOption('#tl-part-thread', '2');
  await page.selectOption('#tl-radix', 'dec');
  await settle(page);
  const rs = await rows(page);
  assert.equal(rs[0].addr, '1200', 'word address of core 1, thread 2');
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().totalRows'), 512 / 16, 'the thread window is 256 words');
  assert.deepEqual(rs[0].typed.slice(0, 4), W_VALUES.map(String));
  assert.match((await page.textContent('.tl-head .tl-addr'))!, /Word/);
  // before step 2 the words were zero
  await scrub(page, 1);
  await settle(page);
  assert.deepEqual((await rows(page))[0].typed.slice(0, 4), ['0', '0', '0', '0']);
  await scrub(page, 2);
  await settle(page);
  assert.deepEqual((await rows(page))[0].typed.slice(0, 4), W_VALUES.map(String));
  const chg = await decos(page, 'tl-chg');
  assert.ok(
    chg.some((d) => d.sec === 'v' && d.lo === 2 * 0x1200 && d.hi === 2 * 0x1200 + 8),
    JSON.stringify(chg),
  );
  await shot(page, 'inspector-pcore');
  await page.selectOption('#tl-space', 'csf:main');
  await settle(page);
  const cs = await rows(page);
  assert.equal(cs.length, 3, '6 entries of 8 bytes');
  assert.equal(cs[0].addr, '0000');
  assert.equal(cs[1].addr, '0002', 'addresses count entries');
  await page.close();
});

test('stepping: bytes each step changed and read, old values on hover, changes since step N', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await goTo(page, '0x1000');
  await page.click('#tl-prev');
  await page.click('#tl-prev');
  await page.click('#tl-prev');
  await settle(page);
  assert.match((await page.textContent('#tl-step'))!, /Step 0 of 4 · demo.tprog:10/);
  // step 0: A <= B changed A's 64 bytes where they differ; read B
  let chg = await decos(page, 'tl-chg');
  const changedBytes = new Set<number>();
  for (const d of chg.filter((x) => x.sec === 'b')) for (let i = d.lo; i < d.hi; i++) changedBytes.add(i);
  for (let i = 0; i < 64; i++) {
    const before = memByte(A.offset + i);
    const afterB = parseInt(f32hex(Array.from({ length: 16 }, (_, k) => k * 0.5))[i], 16);
    assert.equal(changedBytes.has(A.offset + i), before !== afterB, `byte A+${i}`);
  }
  assert.equal((await row(page, addr7(A.offset))).ov, 'A');
  await page.click('#tl-go-read');
  await settle(page);
  const rd = await decos(page, 'tl-rd');
  assert.ok(
    rd.some((d) => d.sec === 'b' && d.lo === B.offset && d.hi === B.offset + 16),
    JSON.stringify(rd),
  );
  assert.match((await page.textContent('#tl-status'))!, /Step 0 read 64 bytes of MEM \(DDR\) in 0x2000–0x203f/);
  // step 1: A[0][1] <= 2.5: only the two high bytes of that float change
  await page.click('#tl-next');
  await goTo(page, '0x1000');
  chg = await decos(page, 'tl-chg');
  assert.deepEqual(
    chg.filter((d) => d.sec === 'b').map((d) => [d.lo, d.hi]),
    [[A.offset + 6, A.offset + 8]],
  );
  assert.deepEqual(
    chg.filter((d) => d.sec === 'v').map((d) => [d.lo, d.hi]),
    [[A.offset + 6, A.offset + 8]],
  );
  await page.selectOption('#tl-type', 'f32');
  await settle(page);
  chg = await decos(page, 'tl-chg');
  assert.deepEqual(
    chg.filter((d) => d.sec === 'v').map((d) => [d.lo, d.hi]),
    [[A.offset + 4, A.offset + 8]],
    'the whole float is marked',
  );
  await page.selectOption('#tl-type', 'u8');
  await settle(page);
  // hover a changed byte: old value
  const box = await page.evaluate(
    "(() => { const d = window.tensorLens.inspector.decos.find((x) => x.cls === 'tl-chg' && x.sec === 'b'); const vp = " +
      "document.querySelector('.tl-viewport').getBoundingClientRect(); return { x: vp.left + d.x + 6, y: vp.top + d.y + 10 }; })()",
  );
  const { x, y } = box as { x: number; y: number };
  await page.mouse.move(x, y);
  await until(page, `!document.getElementById('tl-tip').hidden && document.getElementById('tl-tip').textContent.includes('last written')`);
  const tip = (await page.textContent('#tl-tip'))!;
  assert.match(tip, /MEM \(DDR\) 0x1006/);
  assert.match(tip, /changed by step 1: was 0x00 \(0\)/);
  assert.match(tip, /A \[0, 1\] byte 2/);
  assert.match(tip, /last written by step 1: demo\.tprog:11/);
  await shot(page, 'inspector-step1-hover');
  // step 2 reads A[0][0:1] (8 bytes) and changes nothing in MEM
  await page.click('#tl-next');
  await settle(page);
  assert.deepEqual((await decos(page, 'tl-chg')).length, 0);
  assert.ok((await decos(page, 'tl-rd')).some((d) => d.sec === 'b' && d.lo === A.offset && d.hi === A.offset + 8));
  // changes since the start, at the last step: A and $x
  await page.click('#tl-next');
  await page.fill('#tl-since', '-1');
  await page.check('#tl-since-on');
  await goTo(page, '0x3000');
  const since = await decos(page, 'tl-chg');
  assert.ok(
    since.some((d) => d.sec === 'b' && d.lo === X.offset && d.hi === X.offset + 16),
    JSON.stringify(since),
  );
  await shot(page, 'inspector-since');
  await page.close();
});

test('overlays: coloured, labelled, hover shows tensor coordinate and last writer; click reveals the statement', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await goTo(page, '0x1000');
  const ov = await decos(page, 'tl-o0');
  assert.ok(ov.some((d) => d.sec === 'b' && d.lo === A.offset && d.hi === A.offset + 16));
  assert.equal((await row(page, '0001000')).ov, 'A');
  await page.selectOption('#tl-type', 'f32');
  await settle(page);
  // A after step 3: B's values with A[0][1] = 2.5
  assert.deepEqual((await row(page, '0001000')).typed, ['0', '2.5', '1', '1.5']);
  // hover byte A+9 (A[0][2], byte 1)
  const pt = (await page.evaluate(
    "(() => { const vp = document.querySelector('.tl-viewport').getBoundingClientRect(); const ins = window.tensorLens.inspector; const g = " +
      "ins.geo; const row = [...document.querySelectorAll('.tl-viewport .tl-row')].find((r) => r.firstChild.textContent === '0001000'); const rr = " +
      'row.getBoundingClientRect(); const j = 9; return { x: vp.left + g.hexX + (j * (g.bc + 1) + Math.floor(j / 8) + 0.8) * g.cw, y: rr.top + ' +
      'rr.height / 2 }; })()',
  )) as { x: number; y: number };
  await page.mouse.move(pt.x, pt.y);
  await until(page, `document.getElementById('tl-tip').textContent.includes('last written')`);
  const tip = (await page.textContent('#tl-tip'))!;
  assert.match(tip, /0x1009/);
  assert.match(tip, /A \[0, 2\] byte 1/);
  assert.match(tip, /last written by step 0: demo\.tprog:10 >A\[0:3\]\[0:3\] <= B\[0:15\];/);
  await shot(page, 'inspector-overlay-hover');
  await page.mouse.down();
  await page.mouse.up();
  await until(page, 'window.harness.revealed.length > 0');
  assert.deepEqual(await page.evaluate('window.harness.revealed[0]'), { file: 'examples/demo.tprog', line: 10, column: 1, endLine: 10 });
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().cursor'), A.offset + 9);
  // the strided tensor C: a byte in its gap has no coordinate
  await page.selectOption('#tl-overlay', { label: 'C [2×2] @0x4000' });
  await settle(page);
  const hv = await page.evaluate(
    "window.harness.host.handle({ type: 'request', id: 99999, method: 'hover', params: { space: 'MEM', offset: 0x4000 + 8, step: 3 } }).then(() " +
      '=> window.harness.received.find((m) => m.id === 99999).result)',
  );
  assert.deepEqual((hv as any).overlays, [{ id: 'C', name: 'C' }]);
  await page.close();
});

test('virtual scrolling: the end of a 64 MiB memory, by keyboard and by scrollbar, with bounded memory', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await page.focus('#tl-grid');
  await page.keyboard.press('Control+End');
  await settle(page);
  let rs = await rows(page);
  const last = rs[rs.length - 1];
  assert.equal(last.addr, addr7(MEM_BYTES - 16));
  assert.deepEqual(last.hex, expectedHex(MEM_BYTES - 16));
  assert.equal(last.ascii, 'LAST ROW 3FFFFF0');
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().cursor'), MEM_BYTES - 1);
  await shot(page, 'inspector-end');
  // scrollbar: the middle and the bottom
  await page.evaluate(`(() => { const s = document.getElementById('tl-grid'); s.scrollTop = (s.scrollHeight - s.clientHeight) / 2; })()`);
  await settle(page);
  rs = await rows(page);
  const mid = parseInt(rs[0].addr, 16);
  assert.ok(Math.abs(mid - MEM_BYTES / 2) < MEM_BYTES / 100, `middle row ${rs[0].addr}`);
  for (const r of rs) assert.deepEqual(r.hex, expectedHex(parseInt(r.addr, 16)), `row ${r.addr}`);
  await page.evaluate(`(() => { const s = document.getElementById('tl-grid'); s.scrollTop = s.scrollHeight; })()`);
  await settle(page);
  rs = await rows(page);
  assert.equal(rs[rs.length - 1].addr, addr7(MEM_BYTES - 16));
  // wheel: exact rows
  const top0 = (await page.evaluate('window.tensorLens.inspector.debugInfo().top')) as number;
  await page.mouse.move(400, 400);
  await page.mouse.wheel(0, -200);
  await settle(page);
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().top'), top0 - 10);
  // jump around: the page cache never holds the memory
  for (let i = 0; i < 40; i++) {
    await page.evaluate(`window.tensorLens.inspector.setTop(${Math.floor((((i * 7919) % 1000) / 1000) * (MEM_BYTES / 16))})`);
    await page.evaluate('new Promise((r) => requestAnimationFrame(r))');
  }
  await settle(page);
  const info = (await page.evaluate('window.tensorLens.inspector.debugInfo()')) as { cachePages: number };
  assert.ok(info.cachePages * 4096 <= 16 * 1024 * 1024, `cache holds ${info.cachePages} pages`);
  // every read was an ArrayBuffer of at most 64 KiB
  const reads = (await page.evaluate(
    "window.harness.received.filter((m) => m.type === 'response' && m.result && m.result.bytes).map((m) => " +
      '[Object.prototype.toString.call(m.result.bytes), m.result.bytes.byteLength])',
  )) as [string, number][];
  assert.ok(reads.length > 10);
  for (const [tag, n] of reads) {
    assert.equal(tag, '[object ArrayBuffer]');
    assert.ok(n <= 65536);
  }
  await page.close();
});

test('go to: addresses, $variables, tensors; bad input is reported', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await goTo(page, '0x3000120');
  assert.deepEqual((await row(page, '3000120')).hex.slice(3, 7), ['de', 'ad', 'be', 'ef']);
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().cursor'), 0x3000120);
  assert.equal(await page.getAttribute('#tl-grid', 'aria-activedescendant'), 'tl-cursor-row');
  await goTo(page, '$x');
  const sel = await decos(page, 'tl-sel');
  assert.deepEqual(
    sel.filter((d) => d.sec === 'b').map((d) => [d.lo, d.hi]),
    [[X.offset, X.offset + 16]],
  );
  assert.match((await page.textContent('#tl-status'))!, /\$x: 0x3000, 16 bytes/);
  await goTo(page, 'B');
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().cursor'), B.offset);
  await goTo(page, 'w');
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().space'), 'PCORE0');
  await goTo(page, '0x9999999');
  assert.match((await page.textContent('#tl-status'))!, /outside/);
  await goTo(page, 'nosuch');
  assert.match((await page.textContent('#tl-status'))!, /no such address, variable or tensor/);
  await page.close();
});

test('search: hex bytes, typed values in the view byte order, next and previous', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await page.fill('#tl-find', 'de ad be ef');
  await page.press('#tl-find', 'Enter');
  await until(page, `/Found/.test(document.getElementById('tl-status').textContent)`);
  await settle(page);
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().cursor'), 0x3000123);
  assert.deepEqual(
    (await decos(page, 'tl-match')).filter((d) => d.sec === 'b').map((d) => [d.lo, d.hi]),
    [[0x3000123, 0x3000127]],
  );
  await shot(page, 'inspector-search');
  await goTo(page, '0');
  await page.selectOption('#tl-find-mode', 'f32');
  await page.fill('#tl-find', '2.5');
  await page.press('#tl-find', 'Enter');
  await until(page, `window.tensorLens.inspector.debugInfo().cursor === ${A.offset + 4}`);
  await page.click('#tl-find-next');
  await until(page, `window.tensorLens.inspector.debugInfo().cursor === ${A.offset + 20}`);
  await page.click('#tl-find-next');
  await until(page, `window.tensorLens.inspector.debugInfo().cursor === ${B.offset + 20}`);
  await page.click('#tl-find-prev');
  await until(page, `window.tensorLens.inspector.debugInfo().cursor === ${A.offset + 20}`);
  await page.fill('#tl-find', '1234.5');
  await page.press('#tl-find', 'Enter');
  await until(page, `/not found/.test(document.getElementById('tl-status').textContent)`);
  await page.selectOption('#tl-find-mode', 'hex');
  await page.fill('#tl-find', 'zz');
  await page.press('#tl-find', 'Enter');
  await until(page, `/not a hex byte/.test(document.getElementById('tl-status').textContent)`);
  await page.close();
});

test('keyboard: arrows, pages, selection, steps; the status line speaks for the cursor', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await page.focus('#tl-grid');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await settle(page);
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().cursor'), 0x13);
  await until(page, `/0x13 \\(offset 19\\)/.test(document.getElementById('tl-status').textContent)`);
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await settle(page);
  assert.deepEqual(
    (await decos(page, 'tl-sel')).filter((d) => d.sec === 'b').map((d) => [d.lo, d.hi]),
    [[0x13, 0x16]],
  );
  await page.keyboard.press('PageDown');
  await settle(page);
  const info = (await page.evaluate('window.tensorLens.inspector.debugInfo()')) as { cursor: number; visibleRows: number; top: number };
  assert.equal(info.cursor, 0x15 + info.visibleRows * 16);
  await page.keyboard.press('Home');
  await settle(page);
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().cursor'), 0x10 + info.visibleRows * 16);
  await page.keyboard.press('[');
  await settle(page);
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().step'), 2);
  assert.deepEqual(await page.evaluate('window.harness.stepsSelected'), [2]);
  await page.keyboard.press('Control+g');
  assert.equal(await page.evaluate('document.activeElement.id'), 'tl-goto');
  await page.keyboard.press('Control+f');
  assert.equal(await page.evaluate('document.activeElement.id'), 'tl-find');
  await page.close();
});

test('export: selection as .npy/.bin/hex text through the extension, and the view as PNG', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await goTo(page, 'A');
  await page.selectOption('#tl-type', 'f32');
  await page.selectOption('#tl-export-format', 'npy');
  await page.click('#tl-export');
  await until(page, 'window.harness.saved.length === 1');
  const s0 = (await page.evaluate('({ name: window.harness.saved[0].name, bytes: window.harness.bytesOfSaved(0) })')) as { name: string; bytes: number[] };
  assert.equal(s0.name, 'MEM_0x1000_64_f32.npy');
  const { decodeNpy } = await import('../../core/common/npy');
  const npy = decodeNpy(new Uint8Array(s0.bytes));
  assert.deepEqual(Array.from(npy.data).slice(0, 6), [0, 2.5, 1, 1.5, 2, 2.5]);
  await page.selectOption('#tl-export-format', 'hex');
  await page.click('#tl-export');
  await until(page, 'window.harness.saved.length === 2');
  const text = new TextDecoder().decode(new Uint8Array((await page.evaluate('window.harness.bytesOfSaved(1)')) as number[]));
  assert.match(text, /^1000: 00 00 00 00 00 00 20 40/m);
  await page.click('#tl-png');
  await until(page, 'window.harness.saved.length === 3');
  const png = (await page.evaluate('window.harness.bytesOfSaved(2)')) as number[];
  assert.deepEqual(png.slice(0, 8), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  writeFileSync(join(ARTIFACTS, 'inspector-export.png'), new Uint8Array(png));
  assert.match((await page.evaluate('window.harness.saved[2].name')) as string, /^MEM_0x\w+\.png$/);
  await page.close();
});

test('highlight requests from the editor select and reveal a range', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await page.evaluate(`window.harness.host.highlight('MEM', ${B.offset + 16}, 16, 'B[4:7]')`);
  await settle(page);
  assert.deepEqual(
    (await decos(page, 'tl-hl')).filter((d) => d.sec === 'b').map((d) => [d.lo, d.hi]),
    [[B.offset + 16, B.offset + 32]],
  );
  assert.match((await page.textContent('#tl-status'))!, /B\[4:7\]: 0x2010, 16 bytes/);
  await page.evaluate(`window.harness.host.highlight('PCORE0', ${2 * 0x1200}, 8, 'w')`);
  await settle(page);
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().space'), 'PCORE0');
  await page.evaluate(`window.harness.host.setStep(0)`);
  await settle(page);
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().step'), 0);
  assert.equal(await page.inputValue('#tl-scrub'), '0');
  await page.close();
});

test('state survives a reload (vscode.setState / getState)', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await goTo(page, '0x110');
  await page.selectOption('#tl-type', 'bf16');
  await page.click('#tl-endian');
  await page.click('#tl-prev');
  await settle(page);
  await page.waitForTimeout(250); // setState is debounced
  await page.goto(page.url().replace('?state=fresh', '?'));
  await until(page, 'document.body.dataset.firstPaint && window.tensorLens.inspector.debugInfo().stepsLoaded');
  await settle(page);
  const st = (await page.evaluate('window.tensorLens.inspector.debugInfo().state')) as { type: string; bigEndian: boolean; step: number; cursor: number };
  assert.equal(st.type, 'bf16');
  assert.equal(st.bigEndian, true);
  assert.equal(st.step, 2);
  assert.equal(st.cursor, 0x110);
  assert.ok((await rows(page)).some((r) => r.addr === '0000110'));
  await page.close();
});

test('malformed messages from the extension are ignored and logged; the view keeps working', async () => {
  const { page, warnings } = await open(fx(), '/inspector?state=fresh');
  const step0 = await page.evaluate('window.tensorLens.inspector.debugInfo().step');
  await page.evaluate(`(() => {
    const h = window.harness;
    h.post('junk');
    h.post({ type: 'notify', method: 'setStep', params: { step: 'x' } });
    h.post({ type: 'notify', method: 'highlight', params: { space: 'MEM', offset: -5, length: 1 } });
    h.post({ type: 'notify', method: 'rm -rf', params: {} });
    h.post({ type: 'response', id: 123456, ok: true, result: {} });
    h.post({ type: 'response', id: 1, ok: true, result: { bytes: [1, 2, 3] } });
  })()`);
  await until(page, 'window.tensorLens.dropped.length >= 6');
  const dropped = (await page.evaluate('window.tensorLens.dropped')) as string[];
  assert.match(dropped.join('\n'), /params\.step: expected a number/);
  assert.match(dropped.join('\n'), /offset: -5 < 0/);
  assert.match(dropped.join('\n'), /unknown method "rm -rf"/);
  assert.match(dropped.join('\n'), /no pending request 123456/);
  assert.ok(warnings.some((w) => /ignored malformed message/.test(w)));
  await until(page, `window.harness.log.filter((l) => l.includes('ignored malformed message')).length >= 6`);
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().step'), step0);
  await goTo(page, '0x140');
  assert.equal((await row(page, '0000140')).ascii, 'Tensor Lens! :-)');
  // and the host side drops what a webview must not send
  await page.evaluate(
    `window.harness.host.handle({ type: 'request', id: 77, method: 'read', params: { space: 'MEM', offset: 0, length: 99999999, step: 0 } })`,
  );
  assert.match(
    (await page.evaluate(`window.harness.log.find((l) => l.includes('length'))`)) as string,
    /webview message ignored: request read\.params\.length/,
  );
  await page.close();
});

test('strict CSP: only the nonce script runs; no inline script, style attribute or remote load', async () => {
  const { page, csp, problems } = await open(fx(), '/inspector?state=fresh');
  const meta = (await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content'))!;
  assert.match(meta, /default-src 'none'/);
  assert.match(meta, /script-src 'nonce-[\w-]+'/);
  assert.doesNotMatch(meta, /unsafe-inline|unsafe-eval|https?:\/\/(?!127\.0\.0\.1)/);
  const ran = await page.evaluate(
    "(() => { window.__inline = 0; const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; document.body.append(s); " +
      'return new Promise((r) => setTimeout(() => r(window.__inline), 50)); })()',
  );
  assert.equal(ran, 0);
  const v = await csp();
  assert.ok(
    v.some((x) => x.startsWith('script-src')),
    JSON.stringify(v),
  );
  assert.deepEqual(
    problems.filter((p) => !/Content Security Policy/.test(p)),
    [],
  );
  await page.close();
});

test('light theme and narrow width render', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh&theme=light', { width: 900, height: 600 });
  await goTo(page, '0x1000');
  await page.click('#tl-prev');
  await page.click('#tl-prev');
  await page.click('#tl-prev');
  await settle(page);
  const bg = await page.evaluate(`getComputedStyle(document.getElementById('tl-grid')).backgroundColor`);
  assert.equal(bg, 'rgb(255, 255, 255)');
  await shot(page, 'inspector-light');
  await page.close();
});

test('slow answers (40 ms per message): placeholders first, then the bytes; no request storms', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh&latency=40');
  await page.focus('#tl-grid');
  for (let i = 0; i < 10; i++) await page.keyboard.press('PageDown');
  await settle(page);
  const rs = await rows(page);
  for (const r of rs) assert.deepEqual(r.hex, expectedHex(parseInt(r.addr, 16)), `row ${r.addr}`);
  const reads = (await page.evaluate(`window.harness.sent.filter((m) => m.method === 'read').length`)) as number;
  assert.ok(reads < 40, `${reads} reads for 10 pages of scrolling`);
  await page.close();
});

test('overlays the extension builds from the trace: term names, element coordinate, last writer, click reveals the statement', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh&overlays=trace');
  await goTo(page, '0x1000');
  // step 0 `>A[0:3][0:3] <= B[0:15];` wrote A (named by the term left of <=) and read B (the term on the right)
  // …and steps 1 and 2 wrote A[0][1] and read A[0][0:3] in that row
  assert.equal((await row(page, '0001000')).ov, 'A[0:3][0:3], A[0][0:3], A[0][1]');
  assert.equal((await row(page, '0001010')).ov, 'A[0:3][0:3]');
  assert.ok((await decos(page)).some((d) => /^tl-o\d$/.test(d.cls) && d.sec === 'b' && d.lo === A.offset && d.hi === A.offset + 16));
  await goTo(page, '0x2000');
  assert.equal((await row(page, '0002000')).ov, 'B[0:15]');
  // a C global: typed int16 [4][4]
  await goTo(page, '0x5000');
  assert.equal((await row(page, '0005000')).ov, 'table');
  // go to a $variable by its name: `$x[0:15]` of step 3
  await goTo(page, '$x');
  assert.equal(await page.evaluate('window.tensorLens.inspector.debugInfo().cursor'), X.offset);
  assert.match((await page.textContent('#tl-status'))!, /\$x\[0:15\]: 0x3000, 16 bytes/);
  // hover A+9: the i16 element 4 of the term's range (byte 1), last written by step 0; click reveals the statement
  await goTo(page, '0x1000');
  const pt = (await page.evaluate(
    "(() => { const vp = document.querySelector('.tl-viewport').getBoundingClientRect(); const g = window.tensorLens.inspector.geo; const row = " +
      "[...document.querySelectorAll('.tl-viewport .tl-row')].find((r) => r.firstChild.textContent === '0001000'); const rr = " +
      'row.getBoundingClientRect(); const j = 9; return { x: vp.left + g.hexX + (j * (g.bc + 1) + Math.floor(j / 8) + 0.8) * g.cw, y: rr.top + ' +
      'rr.height / 2 }; })()',
  )) as { x: number; y: number };
  await page.mouse.move(pt.x, pt.y);
  await until(page, `document.getElementById('tl-tip').textContent.includes('last written')`);
  const tip = (await page.textContent('#tl-tip'))!;
  assert.match(tip, /A\[0:3\]\[0:3\] \[4\] byte 1/);
  assert.match(tip, /last written by step 0: demo\.tprog:10/);
  await shot(page, 'inspector-trace-overlays');
  await page.mouse.down();
  await page.mouse.up();
  await until(page, 'window.harness.revealed.length > 0');
  assert.deepEqual(await page.evaluate('window.harness.revealed[0]'), { file: 'examples/demo.tprog', line: 10, column: 1, endLine: 10 });
  await page.close();
});

test("the view reports what it renders (dumpView → viewDump), as the extension's debugState command asks", async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await goTo(page, '0x140');
  const d = (await page.evaluate('window.harness.host.dumpView()')) as {
    space: string;
    step: number;
    complete: boolean;
    rows: { addr: string; hex: string; ascii: string }[];
    title: string;
  };
  assert.equal(d.space, 'MEM');
  assert.equal(d.step, 3);
  assert.equal(d.complete, true);
  assert.equal(d.title, 'demo.tprog — memory');
  const r = d.rows.find((x) => x.addr === '0000140')!;
  assert.ok(r, JSON.stringify(d.rows.map((x) => x.addr)));
  assert.deepEqual(r.hex.trim().split(/\s+/), expectedHex(0x140));
  assert.equal(r.ascii, 'Tensor Lens! :-)');
  await page.close();
});

test('a read the extension cannot serve (an evicted run) is reported in the status line', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await page.evaluate(`window.harness.failReads = 'run 1 is no longer kept (only the last 3 runs stay readable)'`);
  await page.fill('#tl-goto', '0x2000000');
  await page.press('#tl-goto', 'Enter');
  await until(page, `/Cannot read MEM: run 1 is no longer kept/.test(document.getElementById('tl-status').textContent)`);
  assert.equal(await page.evaluate(`document.getElementById('tl-status').classList.contains('tl-warn')`), true);
  await page.close();
});

test('a panel restored after a window reload keeps its view and gets its memory from the next run', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await goTo(page, '0x110');
  await page.selectOption('#tl-type', 'bf16');
  await settle(page);
  await page.waitForTimeout(250); // setState is debounced
  // the serializer's panel: no run yet
  await page.goto(page.url().replace('?state=fresh', '?restore=1'));
  await until(page, `/run the program again/.test(document.getElementById('tl-title').textContent)`);
  assert.equal(await page.evaluate(`document.querySelectorAll('.tl-viewport .tl-row:not([hidden])').length`), 0);
  // the next run of the program takes the panel over: same position and type, the new memory
  await page.evaluate('window.harness.attachRun()');
  await until(page, `document.getElementById('tl-title').textContent === 'demo.tprog — memory' && window.tensorLens.inspector.debugInfo().stepsLoaded`);
  await settle(page);
  const st = (await page.evaluate('window.tensorLens.inspector.debugInfo().state')) as { type: string; cursor: number; space: string };
  assert.deepEqual([st.space, st.type, st.cursor], ['MEM', 'bf16', 0x110]);
  assert.deepEqual((await row(page, '0000110')).typed, ['1', '3.14', '-Inf', '3.39e38', '0', '-0', '0.1', 'NaN']);
  await page.close();
});

test('a strided tensor colours its elements, not the gaps between them', async () => {
  const { page } = await open(fx(), '/inspector?state=fresh');
  await goTo(page, '0x4000');
  // C: f32 [2][2] with strides [4, 1] at 0x4000 → elements at bytes 0–7 and 16–23
  const c = (await decos(page, 'tl-o3')).filter((d) => d.sec === 'b').map((d) => [d.lo - 0x4000, d.hi - 0x4000]);
  assert.deepEqual(c, [
    [0, 8],
    [16, 24],
  ]);
  assert.equal((await row(page, '0004000')).ov, 'C');
  await page.close();
});
