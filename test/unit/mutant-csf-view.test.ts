/**
 * The `.csfbin` viewer's model (CsfView) and its protocol side (CsfViewHost) in plain unit tests: mutation testing
 * (npm run mutate -- csf) found them reached only by the browser suite. One hand-built file, every expectation worked
 * out from its bytes:
 *
 *   order 3, shape 2×2×4 → F = 2·2 = 4 fibers, nnz 4
 *   bytes 0..19 header (order, 3 extents, nnz); entries at 20, 28, 36, 44 (index u32, value f32 bits);
 *   pointer count P = 5 at 52; pointers [0, 2, 2, 2, 4] at 56..75; 76 bytes in all
 *   fiber 0 (coord 0,0) holds entries 0 (index 1, 1.0) and 1 (index 3, 2.0); fibers 1 (0,1) and 2 (1,0) are empty;
 *   fiber 3 (1,1) holds entries 2 (index 0, 3.0) and 3 (index 2, −1.5)
 *   table rows: 0 fiber 0 · 1 entry 0 · 2 entry 1 · 3 fiber 1 · 4 fiber 2 · 5 fiber 3 · 6 entry 2 · 7 entry 3
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CsfView, bytesSource, formatDensity, type ByteSource } from '../../core/csf/view';
import { CsfViewHost, problemOf } from '../../core/csf/viewHost';
import { PROTOCOL_VERSION, type CsfHostToWebview } from '../../core/protocol/webview';

const ONE = 0x3f800000;
const TWO = 0x40000000;
const THREE = 0x40400000;
const MINUS_1_5 = 0xbfc00000;

/** The file above, with parts replaced to break it. */
function file(o: { P?: number; pointers?: number[]; nnz?: number } = {}): Uint8Array {
  const words = [3, 2, 2, 4, o.nnz ?? 4, 1, ONE, 3, TWO, 0, THREE, 2, MINUS_1_5, o.P ?? 5, ...(o.pointers ?? [0, 2, 2, 2, 4])];
  const b = new Uint8Array(4 * words.length);
  const dv = new DataView(b.buffer);
  words.forEach((w, i) => dv.setUint32(4 * i, w >>> 0, true));
  return b;
}

/** The same bytes at an odd offset of their buffer (the viewer then copies words instead of aliasing them). */
function unaligned(b: Uint8Array): Uint8Array {
  const buf = new Uint8Array(b.byteLength + 1);
  buf.set(b, 1);
  return buf.subarray(1);
}

const ROWS = [
  { kind: 'fiber', row: 0, fiber: 0, coord: [0, 0], start: 0, end: 2 },
  { kind: 'entry', row: 1, entry: 0, fiber: 0, index: 1, bits: ONE, offset: 20 },
  { kind: 'entry', row: 2, entry: 1, fiber: 0, index: 3, bits: TWO, offset: 28 },
  { kind: 'fiber', row: 3, fiber: 1, coord: [0, 1], start: 2, end: 2 },
  { kind: 'fiber', row: 4, fiber: 2, coord: [1, 0], start: 2, end: 2 },
  { kind: 'fiber', row: 5, fiber: 3, coord: [1, 1], start: 2, end: 4 },
  { kind: 'entry', row: 6, entry: 2, fiber: 3, index: 0, bits: THREE, offset: 36 },
  { kind: 'entry', row: 7, entry: 3, fiber: 3, index: 2, bits: MINUS_1_5, offset: 44 },
];

test('opening reads the header and the pointers: offsets, counts, density', async () => {
  const v = await CsfView.open(bytesSource(file()));
  assert.equal(v.size, 76);
  assert.deepEqual(v.header, { order: 3, shape: [2, 2, 4], nnz: 4, fibers: 4, density: 4 / 16 });
  assert.equal(v.entriesOffset, 20);
  assert.equal(v.pointersOffset, 56);
  assert.deepEqual([...v.pointers!], [0, 2, 2, 2, 4]);
  assert.equal(v.indexProblem, undefined);
  assert.equal(v.rowCount, 8);
});

test('rows: the whole table, and windows that start or end inside a fiber', async () => {
  for (const bytes of [file(), unaligned(file())]) {
    const v = await CsfView.open(bytesSource(bytes));
    assert.deepEqual(await v.rows(0, 100), ROWS);
    assert.deepEqual(await v.rows(2, 3), ROWS.slice(2, 5));
    assert.deepEqual(await v.rows(4, 3), ROWS.slice(4, 7));
    assert.deepEqual(await v.rows(1, 1), ROWS.slice(1, 2));
    assert.deepEqual(await v.rows(7, 5), ROWS.slice(7));
    assert.deepEqual(await v.rows(8, 1), []);
    assert.deepEqual(await v.rows(3, 0), []);
  }
});

test('fibers, entries, rows and byte offsets map onto each other', async () => {
  const v = await CsfView.open(bytesSource(file()));
  assert.deepEqual(
    [0, 1, 2, 3].map((f) => v.rowOfFiber(f)),
    [0, 3, 4, 5],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((e) => v.fiberOfEntry(e)),
    [0, 0, 3, 3],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((e) => v.rowOfEntry(e)),
    [1, 2, 6, 7],
  );
  // entries 20..51 (8 bytes each), the pointer count 52..55 (no row), pointers 56..75 (ptr[4] is the end: no row)
  const at = (o: number) => v.rowOfOffset(o);
  assert.deepEqual([19, 20, 27, 28, 44, 51, 52, 55].map(at), [undefined, 1, 1, 2, 7, 7, undefined, undefined]);
  assert.deepEqual([56, 59, 60, 64, 68, 71, 72, 75, 76].map(at), [0, 0, 3, 4, 5, 5, undefined, undefined, undefined]);
});

test('hex serves the bytes asked for, shorter at the end of the file', async () => {
  const bytes = file();
  const v = await CsfView.open(bytesSource(bytes));
  assert.deepEqual([...(await v.hex(0, 4))], [3, 0, 0, 0]);
  assert.deepEqual([...(await v.hex(70, 100))], [...bytes.subarray(70)]);
  assert.deepEqual([...(await v.hex(76, 4))], []);
  assert.deepEqual([...(await v.hex(80, 4))], []);
});

test('each structural problem of the index is located and worded', async () => {
  const problem = async (b: Uint8Array, maxOrder?: number) => {
    const v = await CsfView.open(bytesSource(b), { maxOrder });
    assert.equal(v.pointers, undefined);
    assert.equal(v.rowCount, 0);
    assert.deepEqual(await v.rows(0, 10), []);
    assert.equal(v.rowOfOffset(20), undefined);
    const p = v.indexProblem!;
    return [p.rule, p.code, p.offset, p.length, p.message];
  };
  assert.deepEqual(await problem(file().subarray(0, 40)), [
    'V6',
    'csf.truncated-entries',
    20,
    20,
    'nnz = 4 needs 36 bytes from offset 20 (4 entries of 8 bytes, then the 4-byte pointer count), found 20 bytes',
  ]);
  assert.deepEqual(await problem(file({ nnz: 1 }).subarray(0, 21)), [
    'V6',
    'csf.truncated-entries',
    20,
    1,
    'nnz = 1 needs 12 bytes from offset 20 (1 entry of 8 bytes, then the 4-byte pointer count), found 1 byte',
  ]);
  assert.deepEqual(await problem(file({ P: 4 })), [
    'V7',
    'csf.pointer-count-mismatch',
    52,
    4,
    'expected the pointer count P = F + 1 = 5 (4 fibers of shape 2×2×4 plus the end pointer) after 4 entries, found 4',
  ]);
  assert.deepEqual(await problem(file().subarray(0, 70)), [
    'V8',
    'csf.truncated-pointers',
    56,
    14,
    'expected 20 bytes for the 5 pointers (u32) at offset 56, found 14 bytes',
  ]);
  assert.deepEqual(await problem(file({ pointers: [1, 2, 2, 2, 4] })), [
    'V10',
    'csf.first-pointer-nonzero',
    56,
    4,
    'ptr[0] must be 0 (pointers count entries from the first one), found 1',
  ]);
  assert.deepEqual(await problem(file({ pointers: [0, 2, 2, 2, 3] })), [
    'V11',
    'csf.last-pointer-mismatch',
    72,
    4,
    'the end pointer ptr[4] must equal nnz = 4, found 3',
  ]);
  assert.deepEqual(await problem(file({ pointers: [0, 2, 1, 2, 4] })), [
    'V12',
    'csf.non-monotone-pointers',
    64,
    4,
    'pointers must not decrease: expected ptr[2] ≥ ptr[1] = 2, found 1',
  ]);
  // header problems are worded by the validator: order 3 above a limit of 2, order 0, an empty file
  assert.deepEqual(await problem(file(), 2), ['V3', 'csf.order-too-large', 0, 4, "order must be at most 2 (the simulator's MAX_ORDER), found 3"]);
  assert.deepEqual(await problem(new Uint8Array(8)), ['V2', 'csf.bad-order', 0, 4, 'order must be at least 1, found 0']);
  assert.deepEqual(await problem(new Uint8Array(0)), ['V1', 'csf.truncated-header', 0, 0, 'expected 4 bytes for the order (u32) at offset 0, found 0 bytes']);
  // the header cut short inside the extents (order 3 needs 20 bytes): V4, as the validator words it
  const [rule, code, offset] = await problem(file().subarray(0, 12));
  assert.deepEqual([rule, code, offset], ['V4', 'csf.truncated-header', 4]);
});

test('validate streams the whole file, reports progress, and stops when cancelled', async () => {
  const v = await CsfView.open(bytesSource(file()));
  const seen: [number, number][] = [];
  const ok = await v.validate({ progress: (c, t) => seen.push([c, t]) });
  assert.equal(ok.ok, true);
  assert.deepEqual(ok.issues, []);
  assert.deepEqual(seen, [[76, 76]]);
  // cancelled before the first chunk: nothing is read, and the (empty) result is not a valid file
  const none = await v.validate({ cancelled: () => true, progress: () => assert.fail('no chunk read') });
  assert.equal(none.ok, false);
  // a broken file: its problems, at most maxIssues
  const bad = await CsfView.open(bytesSource(file({ pointers: [1, 2, 1, 2, 3] })));
  const r = await bad.validate({ maxIssues: 1 });
  assert.equal(r.ok, false);
  assert.equal(r.issues.length, 1);
});

test('density is written as the CLI writes it', () => {
  assert.equal(formatDensity(0), '0%');
  assert.equal(formatDensity(1), '100%');
  assert.equal(formatDensity(0.5), '50%');
  assert.equal(formatDensity(0.115), '11.5%');
  assert.equal(formatDensity(1 / 3), '33.3%');
  assert.equal(formatDensity(0.01), '1%');
  assert.equal(formatDensity(0.001234), '0.12%');
  assert.equal(formatDensity(0.000012), '0.0012%');
});

test('problemOf keeps rule, offset and length only when the issue has them, and caps the message', () => {
  assert.deepEqual(problemOf({ code: 'csf.truncated-header', severity: 'error', message: 'm' }), {
    code: 'csf.truncated-header',
    severity: 'error',
    message: 'm',
  });
  assert.deepEqual(problemOf({ code: 'csf.truncated-header', severity: 'warning', rule: 'V2', offset: 0, length: 0, message: 'x'.repeat(5000) }), {
    code: 'csf.truncated-header',
    severity: 'warning',
    rule: 'V2',
    offset: 0,
    length: 0,
    message: 'x'.repeat(4096),
  });
});

/** A host over the file, its posted messages, its log. */
async function host(bytes: Uint8Array, showInMemory?: () => Promise<{ ok: boolean; message: string }>) {
  const posted: CsfHostToWebview[] = [];
  const log: string[] = [];
  const view = await CsfView.open(bytesSource(bytes));
  const h = new CsfViewHost(view, (m) => posted.push(m), { title: 'a.csfbin', showInMemory, log: (level, m) => log.push(`${level}: ${m}`) });
  const ask = async (id: number, method: string, params: unknown) => {
    await h.handle({ type: 'request', id, method, params });
    return posted.filter((m) => m.type === 'response' && m.id === id);
  };
  return { h, posted, log, ask };
}

test('the host answers hello, rows, hex and locate from the view', async () => {
  const { h, ask } = await host(file());
  await h.validated;
  const [hello] = await ask(1, 'csf.hello', { protocol: PROTOCOL_VERSION });
  assert.deepEqual(hello, {
    type: 'response',
    id: 1,
    ok: true,
    result: {
      protocol: PROTOCOL_VERSION,
      title: 'a.csfbin',
      size: 76,
      header: { order: 3, shape: [2, 2, 4], nnz: 4, fibers: 4, density: 0.25 },
      entriesOffset: 20,
      pointersOffset: 56,
      rows: 8,
      indexProblem: undefined,
      validation: { state: 'done', checked: 76, total: 76, ok: true, problems: [] },
      canShowInMemory: false,
    },
  });
  assert.deepEqual((await ask(2, 'csf.rows', { start: 5, count: 2 }))[0], { type: 'response', id: 2, ok: true, result: { start: 5, rows: ROWS.slice(5, 7) } });
  const hex = (await ask(3, 'csf.hex', { offset: 72, length: 8 }))[0] as { result: { offset: number; bytes: ArrayBuffer } };
  assert.equal(hex.result.offset, 72);
  assert.deepEqual([...new Uint8Array(hex.result.bytes)], [4, 0, 0, 0]);
  const row = async (id: number, params: object) => ((await ask(id, 'csf.locate', params))[0] as { result: { row: number | null } }).result.row;
  assert.equal(await row(4, { fiber: 3 }), 5);
  assert.equal(await row(5, { fiber: 4 }), null);
  assert.equal(await row(6, { entry: 2 }), 6);
  assert.equal(await row(7, { entry: 4 }), null);
  assert.equal(await row(8, { offset: 60 }), 3);
  assert.equal(await row(9, { offset: 52 }), null);
  assert.equal(await row(10, {}), null);
  assert.deepEqual(h.served, { 'csf.hello': 1, 'csf.rows': 1, 'csf.hex': 1, 'csf.locate': 7 });
});

test('the host: a file without an index, show in memory, bad messages, log notifications, validation after hello', async () => {
  const broken = await host(file({ P: 4 }));
  const [hello] = (await broken.ask(1, 'csf.hello', { protocol: PROTOCOL_VERSION })) as { result: { rows: number; indexProblem: { rule: string } } }[];
  assert.equal(hello.result.rows, 0);
  assert.equal(hello.result.indexProblem.rule, 'V7');
  assert.deepEqual((await broken.ask(2, 'csf.locate', { fiber: 0 }))[0], { type: 'response', id: 2, ok: true, result: { row: null } });
  // the validation finishes after hello: the webview is told
  const done = await broken.h.validated;
  assert.equal(done.state, 'done');
  assert.equal(done.ok, false);
  assert.deepEqual(
    broken.posted.filter((m) => m.type === 'notify').map((m) => m.type === 'notify' && m.params.state),
    ['done'],
  );
  assert.deepEqual((await broken.ask(3, 'csf.showInMemory', {}))[0], {
    type: 'response',
    id: 3,
    ok: true,
    result: { ok: false, message: 'Showing in accelerator memory is not available here.' },
  });
  // a malformed request: answered with an error and logged; a message that is no request: only logged
  const bad = await broken.ask(4, 'csf.rows', { start: -1, count: 1 });
  assert.equal(bad.length, 1);
  assert.equal((bad[0] as { ok: boolean }).ok, false);
  await broken.h.handle({ type: 'nonsense' });
  assert.equal(broken.log.length, 2);
  assert.ok(broken.log.every((l) => l.startsWith('warn: csfbin viewer message ignored: ')));
  await broken.h.handle({ type: 'notify', method: 'csf.log', params: { level: 'error', message: 'boom' } });
  assert.equal(broken.log[2], 'error: [csfbin viewer] boom');

  const shown = await host(file(), async () => ({ ok: true, message: 'loaded' }));
  const [h2] = (await shown.ask(1, 'csf.hello', { protocol: PROTOCOL_VERSION })) as { result: { canShowInMemory: boolean } }[];
  assert.equal(h2.result.canShowInMemory, true);
  assert.deepEqual((await shown.ask(2, 'csf.showInMemory', {}))[0], { type: 'response', id: 2, ok: true, result: { ok: true, message: 'loaded' } });
  // after dispose nothing more is posted
  shown.h.dispose();
  const before = shown.posted.length;
  await shown.h.handle({ type: 'request', id: 3, method: 'csf.rows', params: { start: 0, count: 1 } });
  assert.equal(shown.posted.length, before);
});

test('a read that fails makes the validation "failed" with the reason', async () => {
  const bytes = file();
  let opened = false;
  const source: ByteSource = {
    size: bytes.byteLength,
    read: async (o, n) => {
      if (opened) throw new Error('disk gone');
      return bytes.subarray(o, o + n);
    },
  };
  const view = await CsfView.open(source);
  opened = true;
  const h = new CsfViewHost(view, () => {}, { title: 't' });
  const v = await h.validated;
  assert.equal(v.state, 'failed');
  assert.equal(v.error, 'disk gone');
  assert.equal(h.validationState, v);
});
