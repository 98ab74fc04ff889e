/**
 * The extension side of the Views pane's messages (core/inspect/host.ts): the pictures a page gets at
 * its hello (the source's configured views, or the last one asked for with showView, none after
 * closeView), the run's regions in hello and refresh, the reference file a diff asks for, and `.npy`
 * export with a shape. Every message the host posts is checked against the protocol.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebviewHost, type InspectorSource } from '../../core/inspect/host';
import { bytesOf, explainHostMessage, type HostToWebview, type Region, type TensorView } from '../../core/protocol/webview';
import { decodeNpy } from '../../core/common/npy';

const mem = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7) & 0xff);
const REGIONS: Region[] = [{ kind: 'dump', name: 'out', space: 'MEM', offset: 64, bytes: 24, dtype: 'u8', shape: [2, 3, 4] }];
const CONFIGURED: TensorView = { label: 'out', space: 'MEM', offset: 64, bytes: 24, mode: 'image', shape: [2, 3, 4] };

function setup(pick?: InspectorSource['pickReference']) {
  const out: HostToWebview[] = [];
  const saved: Uint8Array[] = [];
  const src: InspectorSource = {
    spaces: () => [{ id: 'MEM', label: 'MEM', bytes: mem.length, unitBytes: 1 }],
    read: (_s, o, l) => mem.slice(o, o + l),
    regions: () => REGIONS,
    views: () => [CONFIGURED],
    pickReference: pick,
    save: (_n, b) => (saved.push(b), '/tmp/x.npy'),
  };
  const host = new WebviewHost(src, (m) => {
    const why = explainHostMessage(m);
    assert.equal(why, undefined, `the host posted a malformed message: ${why}`);
    out.push(m);
  });
  let id = 0;
  const call = async (method: string, params: unknown): Promise<any> => {
    const i = ++id;
    await host.handle({ type: 'request', id: i, method, params });
    const r = out.find((m) => m.type === 'response' && m.id === i) as any;
    assert.equal(r.ok, true, r.error);
    return r.result;
  };
  return { host, out, saved, call };
}

test('hello gives the configured views, the last showView instead once asked, the configured ones again after closeView', async () => {
  const { host, out, call } = setup();
  const hello = () => call('hello', { view: 'inspector', protocol: 1 });
  assert.deepEqual((await hello()).views, [CONFIGURED]);
  assert.deepEqual((await hello()).regions, REGIONS);
  const v: TensorView = { label: 'acc', space: 'MEM', offset: 0, bytes: 64, mode: 'heatmap', dtype: 'i16', width: 8 };
  host.showView(v);
  assert.deepEqual(out.at(-1), { type: 'notify', method: 'showView', params: v });
  assert.deepEqual((await hello()).views, [v]);
  host.closeView();
  assert.deepEqual(out.at(-1), { type: 'notify', method: 'closeView', params: {} });
  assert.deepEqual((await hello()).views, [CONFIGURED]);
  host.refresh();
  const r = out.at(-1) as any;
  assert.equal(r.method, 'refresh');
  assert.deepEqual([r.params.regions, r.params.buffers], [REGIONS, []]);
});

test('reference: the picked file as bytes, null when cancelled or when the source cannot ask', async () => {
  const file = Uint8Array.from([1, 2, 3]);
  const a = setup(() => ({ name: '/ref/a.bin', bytes: file }));
  const r = await a.call('reference', { label: 'out' });
  assert.equal(r.name, '/ref/a.bin');
  assert.deepEqual([...bytesOf(r.bytes)], [1, 2, 3]);
  assert.equal(await setup(() => undefined).call('reference', { label: 'out' }), null);
  assert.equal(await setup().call('reference', { label: 'out' }), null);
});

test('export as .npy keeps the shape of the picture (1-D when the count differs)', async () => {
  const { call, saved } = setup();
  await call('export', { space: 'MEM', step: 0, offset: 64, length: 24, format: 'npy', type: 'u8', bigEndian: false, shape: [2, 3, 4] });
  const a = decodeNpy(saved[0]);
  assert.deepEqual(a.shape, [2, 3, 4]);
  assert.deepEqual([...a.data], [...mem.slice(64, 88)]);
  await call('export', { space: 'MEM', step: 0, offset: 64, length: 24, format: 'npy', type: 'u8', bigEndian: false, shape: [5, 5] });
  assert.deepEqual(decodeNpy(saved[1]).shape, [24]);
});
