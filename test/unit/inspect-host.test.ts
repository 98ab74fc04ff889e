/**
 * core/inspect host side: WebviewHost answering the protocol from a simulator-like run (real
 * SpaceHistory), and layout-map descriptions from each layout model with hover/locate round trips.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebviewHost, coordOf } from '../../core/inspect/host';
import { createSource, readSpace } from '../../core/inspect/simSource';
import { layoutMapFromModel } from '../../core/inspect/layoutMap';
import { LayoutMapS, bytesOf, explainHostMessage, type HostToWebview, type RequestMethod } from '../../core/protocol/webview';
import { decodeNpy } from '../../core/common/npy';
import { buildScenario, layoutModel, LAYOUT_CASES, A, X, W_OFFSET, W_VALUES } from '../webview/scenario';

const MEM = 1 << 20;

function setup() {
  const sc = buildScenario(MEM);
  const out: HostToWebview[] = [];
  const saved: { name: string; bytes: Uint8Array }[] = [];
  const revealed: unknown[] = [];
  const logs: string[] = [];
  const host = new WebviewHost(
    createSource({
      spaces: sc.spaces,
      trace: sc.trace,
      overlays: sc.overlays,
      save: (name, bytes) => (saved.push({ name, bytes }), `/tmp/${name}`),
      reveal: (l) => revealed.push(l),
      log: (lv, m) => logs.push(`${lv}: ${m}`),
    }),
    (m) => out.push(m),
  );
  let id = 0;
  const methods = new Map<number, RequestMethod>();
  async function call(method: RequestMethod, params: unknown): Promise<any> {
    const i = ++id;
    methods.set(i, method);
    await host.handle({ type: 'request', id: i, method, params });
    const r = out.find((m) => m.type === 'response' && m.id === i) as any;
    assert.ok(r, `no answer to ${method}`);
    assert.equal(
      explainHostMessage(r, (k) => methods.get(k)),
      undefined,
    );
    if (!r.ok) throw new Error(r.error);
    return r.result;
  }
  return { sc, host, out, call, saved, revealed, logs };
}

test('hello lists the simulator spaces with units and partitions, the steps and the current step', async () => {
  const { call } = setup();
  const h = await call('hello', { view: 'inspector', protocol: 1 });
  assert.deepEqual(
    h.spaces.map((s: any) => s.id),
    ['MEM', 'SCRATCH', 'PCORE0', 'PCORE0S', 'PCORE1', 'PCORE1S', 'SPU', 'csf:main', 'csf:meta'],
  );
  const p = h.spaces.find((s: any) => s.id === 'PCORE0');
  assert.equal(p.unitBytes, 2);
  assert.equal(p.defaultType, 'w12');
  assert.deepEqual(
    p.partitions.map((x: any) => x.name),
    ['core', 'thread'],
  );
  assert.equal(h.steps, 4);
  assert.equal(h.step, 3);
});

test('read returns ArrayBuffers of the contents after any step (history)', async () => {
  const { call } = setup();
  const at = async (step: number) => [...bytesOf((await call('read', { space: 'MEM', offset: A.offset + 4, length: 4, step })).bytes)];
  const f = (v: number) => [...new Uint8Array(new Float32Array([v]).buffer)];
  const before = await at(-1);
  assert.deepEqual(await at(0), f(0.5)); // A <= B: A[0][1] = B[1] = 0.5
  assert.deepEqual(await at(1), f(2.5));
  assert.deepEqual(await at(3), f(2.5));
  assert.notDeepEqual(before, f(0.5));
  const w = bytesOf((await call('read', { space: 'PCORE0', offset: W_OFFSET, length: 8, step: 2 })).bytes);
  assert.deepEqual([...new Int16Array(w.slice().buffer)], W_VALUES);
  const w1 = bytesOf((await call('read', { space: 'PCORE0', offset: W_OFFSET + 1, length: 2, step: 1 })).bytes);
  assert.deepEqual([...w1], [0, 0]);
  // clamped at the end of the space
  assert.equal(bytesOf((await call('read', { space: 'MEM', offset: MEM - 3, length: 16, step: 3 })).bytes).length, 3);
  await assert.rejects(call('read', { space: 'NOPE', offset: 0, length: 1, step: 0 }), /no memory space NOPE/);
});

test('hover: tensor coordinate, byte in element, and the statement that last changed the byte', async () => {
  const { call } = setup();
  const h1 = await call('hover', { space: 'MEM', offset: A.offset + 9, step: 3 });
  assert.deepEqual(h1.overlays, [{ id: 'A', name: 'A', coord: [0, 2], byteInElement: 1 }]);
  assert.equal(h1.lastWrite.step, 0);
  assert.equal(h1.lastWrite.loc.line, 10);
  assert.equal(h1.lastWrite.exact, true);
  const h2 = await call('hover', { space: 'MEM', offset: A.offset + 4, step: 3 });
  assert.equal(h2.lastWrite.step, 1);
  const h3 = await call('hover', { space: 'MEM', offset: A.offset + 4, step: 0 });
  assert.equal(h3.lastWrite.step, 0);
  const h4 = await call('hover', { space: 'MEM', offset: X.offset + 20, step: 3 });
  assert.equal(h4.lastWrite, undefined);
  const h5 = await call('hover', { space: 'PCORE0', offset: W_OFFSET + 4, step: 3 });
  assert.deepEqual(h5.overlays[0].coord, [2]);
  assert.equal(h5.lastWrite.step, 2);
  // a byte inside the written range whose value did not change
  const h6 = await call('hover', { space: 'MEM', offset: A.offset + 1, step: 3 });
  assert.equal(h6.lastWrite.exact, true); // B[0] = 0.0 replaced pattern bytes
});

test('coordOf: contiguous and strided tensors, gaps have no coordinate', () => {
  const C = { id: 'C', name: 'C', space: 'MEM', offset: 0, length: 24, kind: 'tensor' as const, type: 'f32' as const, shape: [2, 2], strides: [4, 1] };
  assert.deepEqual(coordOf(C, 4), { coord: [0, 1], byteInElement: 0 });
  assert.deepEqual(coordOf(C, 16 + 6), { coord: [1, 1], byteInElement: 2 });
  assert.deepEqual(coordOf(C, 8), {});
  assert.deepEqual(coordOf({ ...C, strides: undefined, shape: [2, 3] }, 4 * 4), { coord: [1, 1], byteInElement: 0 });
});

test('resolve, search, export, savePng, reveal', async () => {
  const { call, host, saved, revealed } = setup();
  assert.deepEqual(await call('resolve', { text: '$x' }), { space: 'MEM', offset: X.offset, length: 16, label: '$x' });
  assert.deepEqual(await call('resolve', { text: 'A + 4' }), { space: 'MEM', offset: A.offset + 4, length: 1, label: 'A' });
  assert.deepEqual(await call('resolve', { text: 'w' }), { space: 'PCORE0', offset: W_OFFSET, length: 8, label: 'w' });
  assert.equal(await call('resolve', { text: 'nothing' }), null);
  const pat = new Uint8Array(new Float32Array([2.5]).buffer);
  assert.deepEqual(await call('search', { space: 'MEM', step: 3, pattern: pat.slice().buffer, from: 0, align: 4 }), { offset: A.offset + 4 });
  // after step 0 only, A = B = 0, 0.5, 1, …: 2.5 is A[1][1]
  assert.deepEqual(await call('search', { space: 'MEM', step: 0, pattern: pat.slice().buffer, from: 0, align: 4 }), { offset: A.offset + 20 });
  const none = new Uint8Array(new Float32Array([1234.5]).buffer);
  assert.deepEqual(await call('search', { space: 'MEM', step: 3, pattern: none.slice().buffer, from: 0, align: 4, wrap: true }), { offset: -1 });
  assert.deepEqual(await call('search', { space: 'MEM', step: 3, pattern: pat.slice().buffer, from: 0x2000 + 21, align: 4, wrap: true }), {
    offset: A.offset + 4,
  }); // past B[5]: wraps round to A[0][1]
  const ex = await call('export', { space: 'MEM', step: 3, offset: A.offset, length: 64, format: 'npy', type: 'f32', bigEndian: false });
  assert.equal(ex.saved, true);
  assert.equal(saved[0].name, 'MEM_0x1000_64_f32.npy');
  const npy = decodeNpy(saved[0].bytes);
  assert.deepEqual(Array.from(npy.data).slice(0, 3), [0, 2.5, 1]);
  const hex = await call('export', { space: 'PCORE0', step: 3, offset: W_OFFSET, length: 8, format: 'hex', type: 'w12', bigEndian: false });
  assert.equal(hex.saved, true);
  assert.equal(new TextDecoder().decode(saved[1].bytes).split(':')[0], (W_OFFSET / 2).toString(16).padStart(4, '0'));
  const png = await call('savePng', { name: 'view', png: new Uint8Array([0x89, 0x50]).buffer });
  assert.deepEqual(png, { saved: true, path: '/tmp/view.png' });
  await host.handle({ type: 'notify', method: 'reveal', params: { loc: { file: 'a.tprog', line: 2 } } });
  assert.deepEqual(revealed, [{ file: 'a.tprog', line: 2 }]);
});

test('malformed messages are logged; a bad request still gets an error answer', async () => {
  const { host, out, logs } = setup();
  await host.handle({ type: 'request', id: 5, method: 'read', params: { space: 'MEM', offset: -4, length: 1, step: 0 } });
  await host.handle('garbage');
  await host.handle({ type: 'notify', method: 'reveal', params: {} });
  assert.equal(logs.length, 3);
  assert.match(logs[0], /offset: -4 < 0/);
  const r = out.find((m) => m.type === 'response' && m.id === 5) as any;
  assert.equal(r.ok, false);
});

test('host notifications validate on the webview side', () => {
  const { host, out } = setup();
  host.refresh();
  host.setStep(1);
  host.highlight('MEM', 16, 4, 'x');
  for (const m of out) assert.equal(explainHostMessage(m), undefined);
});

test('readSpace on Int16 histories handles odd byte offsets', () => {
  const sc = buildScenario(MEM);
  const pc = sc.spaces.find((s) => s.info.id === 'PCORE0')!;
  const all = readSpace(pc, W_OFFSET, 8, 3);
  assert.deepEqual([...readSpace(pc, W_OFFSET + 1, 5, 3)], [...all.subarray(1, 6)]);
});

test('layout maps: every model kind gives a valid description; locate → query round trips coordinates', () => {
  for (const c of LAYOUT_CASES) {
    if (c === 'big') continue;
    const model = layoutModel(c);
    const p = layoutMapFromModel(model, { id: c });
    assert.equal(LayoutMapS.check(p.map, c), undefined, c);
    const kinds = new Uint8Array(p.map.raster!.kinds);
    assert.equal(kinds.length, p.map.cols * p.map.rows);
    const shape = model.shape;
    const n = shape.reduce((a, b) => a * b, 1);
    for (let i = 0; i < n; i += Math.max(1, Math.floor(n / 37))) {
      const coord: number[] = [];
      let r = i;
      for (let d = shape.length - 1; d >= 0; d--) {
        coord[d] = r % shape[d];
        r = Math.floor(r / shape[d]);
      }
      const hit = p.locate({ coord });
      if (c === 'sparse' && !hit) continue; // only stored entries have an address
      assert.ok(hit, `${c} ${coord}`);
      const q = p.query(hit.x!, hit.y!, hit.innerRow, hit.innerCol);
      if (p.map.inner) assert.deepEqual(q.coord, coord, `${c}: query at ${hit.x},${hit.y},${hit.innerRow},${hit.innerCol}`);
      else assert.deepEqual(q.coord, coord, `${c}: query at ${hit.x},${hit.y}`);
      assert.equal(q.address, hit.address, c);
    }
  }
});

test('layout maps: padding cells, fibers, core grid positions, element detail', () => {
  const hs = layoutMapFromModel(layoutModel('tt-height'));
  // core (1,0) holds rows 64..127: tile row 2 is data, tile row 3 has rows 96..99 data and 100..127 padding
  const panel = hs.map.panels[1];
  assert.equal(panel.label, 'core (1,0)');
  const full = hs.detail!(panel.x, panel.y, 1, 1);
  assert.ok(
    full.kinds.every((k) => k === 1),
    'tile of data rows',
  );
  const d = hs.detail!(panel.x, panel.y + 1, 1, 1);
  assert.equal(d.kinds[3 * 32], 1);
  assert.equal(d.kinds[4 * 32], 3);
  assert.ok(Number.isNaN(d.keys[31 * 32 + 31]));
  assert.equal(new Uint8Array(hs.map.raster!.kinds)[(panel.y + 1) * hs.map.cols + panel.x], 2, 'partial page');
  const block = layoutMapFromModel(layoutModel('tt-block'));
  assert.deepEqual(
    block.map.panels.map((p) => [p.label, p.x > 0 ? 1 : 0, p.y > 0 ? 1 : 0]),
    [
      ['core (0,0)', 0, 0],
      ['core (1,0)', 1, 0],
      ['core (0,1)', 0, 1],
      ['core (1,1)', 1, 1],
    ],
  );
  const sp = layoutMapFromModel(layoutModel('sparse'));
  assert.deepEqual(
    sp.map.regions.filter((r) => r.label?.startsWith('fiber')).map((r) => r.label),
    ['fiber (0)', 'fiber (2)', 'fiber (3)'],
  );
  const kinds = new Uint8Array(sp.map.raster!.kinds);
  assert.ok(kinds.includes(5), 'metadata words');
  const cells = layoutMapFromModel(layoutModel('cells'));
  assert.equal(cells.map.cols % 2, 0, 'rows of 2 cells stay together');
});

test('layout maps: a 2^26-element tensor is aggregated to at most 32,768 cells', () => {
  const t0 = performance.now();
  const p = layoutMapFromModel(layoutModel('big'));
  const ms = performance.now() - t0;
  assert.ok(p.map.panels.reduce((s, q) => s + Math.ceil(q.slots / q.slotsPerCell), 0) <= 32768);
  assert.ok(p.map.panels[0].slotsPerCell > 1);
  assert.ok(p.map.panels[0].slotsPerCell >= 1);
  assert.equal(p.map.panels.length, 12);
  const q = p.query(0, 0);
  assert.deepEqual(q.coord, [0, 0]);
  assert.ok(ms < 5000, `took ${ms} ms`);
});

test('dumpView: the host asks the view what it renders and matches the answer by token; stepSelected is remembered', async () => {
  const { host, out, logs } = setup();
  assert.equal(host.selectedStep, undefined);
  const p = host.dumpView(2000);
  const ask = out.find((m) => m.type === 'notify' && m.method === 'dumpView') as any;
  assert.ok(ask, 'a dumpView notification was posted');
  assert.equal(explainHostMessage(ask), undefined);
  const dump = {
    token: ask.params.token,
    space: 'MEM',
    step: 3,
    top: 0,
    cursor: 16,
    complete: true,
    rows: [{ addr: '0000000', hex: '01 02', typed: ' 01 02', ascii: '..', ov: 'A' }],
    status: 'ok',
    title: 't',
  };
  // an answer with another token, or a malformed one, is not taken
  await host.handle({ type: 'notify', method: 'viewDump', params: { ...dump, token: ask.params.token + 1 } });
  await host.handle({ type: 'notify', method: 'viewDump', params: { ...dump, rows: 'nope' } });
  assert.ok(
    logs.some((l) => /viewDump.*rows: expected an array/.test(l)),
    logs.join('\n'),
  );
  await host.handle({ type: 'notify', method: 'viewDump', params: dump });
  assert.deepEqual(await p, dump);
  await host.handle({ type: 'notify', method: 'stepSelected', params: { step: 2 } });
  assert.equal(host.selectedStep, 2);
  // no answer: a clear rejection
  await assert.rejects(host.dumpView(30), /did not answer dumpView in 30 ms/);
});

test('space names from the webview are checked against the known spaces (prototype names are an error answer)', async () => {
  const { call } = setup();
  for (const space of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    for (const [method, params] of [
      ['read', { space, offset: 0, length: 16, step: 0 }],
      ['overlays', { space }],
      ['hover', { space, offset: 0, step: 0 }],
      ['search', { space, step: 0, pattern: new Uint8Array([1]).buffer, from: 0 }],
      ['export', { space, step: 0, offset: 0, length: 4, format: 'bin', type: 'u8', bigEndian: false }],
    ] as const)
      await assert.rejects(call(method, params), /no memory space/, `${method} ${space}`);
    // go to: an unknown space only drops the preference
    assert.equal(await call('resolve', { text: 'no_such_name', space }), null);
  }
  const r = await call('read', { space: 'MEM', offset: 0, length: 16, step: 0 });
  assert.equal(r.bytes.byteLength, 16);
});
