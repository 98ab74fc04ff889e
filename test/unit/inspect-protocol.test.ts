/** core/protocol/webview: every message both ways is validated; malformed ones are explained, never accepted. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTraceSlice, checkTraceSteps, traceStepsError } from '../../core/protocol/trace';
import {
  LayoutMapS,
  MAX_READ_BYTES,
  explainHostMessage,
  explainResult,
  explainWebviewMessage,
  isHostToWebview,
  isWebviewToHost,
  partitionWindow,
  transferablesOf,
  validateMessage,
  type SpaceInfo,
} from '../../core/protocol/webview';

const req = (method: string, params: unknown, id = 1) => ({ type: 'request', id, method, params });
const buf = new ArrayBuffer(4);

test('every request method accepts well-formed params', () => {
  const ok = [
    req('hello', { view: 'inspector', protocol: 1 }),
    req('read', { space: 'MEM', offset: 0, length: 4096, step: -1 }),
    req('steps', { from: 0, count: 100 }),
    req('overlays', { space: 'MEM' }),
    req('hover', { space: 'MEM', offset: 5, step: 3 }),
    req('resolve', { text: '$x' }),
    req('search', { space: 'MEM', step: 0, pattern: buf, from: 0, backward: true, align: 4, mask: new Uint8Array(4), wrap: true }),
    req('export', { space: 'MEM', step: 0, offset: 0, length: 16, format: 'npy', type: 'f16', bigEndian: false }),
    req('savePng', { name: 'x', png: buf }),
    req('layoutQuery', { mapId: 'm', x: 1, y: 2, innerRow: 3, innerCol: 4 }),
    req('layoutLocate', { mapId: 'm', coord: [1, 2] }),
    req('layoutDetail', { mapId: 'm', x: 0, y: 0, w: 2, h: 2 }),
    { type: 'notify', method: 'reveal', params: { loc: { file: 'a.tprog', line: 3 } } },
    { type: 'notify', method: 'log', params: { level: 'warn', message: 'x' } },
    { type: 'notify', method: 'stepSelected', params: { step: -1 } },
  ];
  for (const m of ok) assert.equal(explainWebviewMessage(m), undefined, JSON.stringify(m));
  for (const m of ok) assert.ok(validateMessage(m, 'webview'));
});

test('malformed webview messages are rejected with the offending path', () => {
  const bad: [unknown, RegExp][] = [
    [null, /expected an object/],
    ['read', /expected an object/],
    [{ type: 'request', id: 1, method: 'nope', params: {} }, /unknown method "nope"/],
    [{ type: 'request', id: 1, method: '__proto__', params: {} }, /unknown method/],
    [{ type: 'request', id: 1, method: 'toString', params: {} }, /unknown method/],
    [req('read', { space: 'MEM', offset: -1, length: 1, step: 0 }), /params\.offset: -1 < 0/],
    [req('read', { space: 'MEM', offset: 0, length: MAX_READ_BYTES + 1, step: 0 }), /params\.length/],
    [req('read', { space: 'MEM', offset: 0.5, length: 1, step: 0 }), /integer/],
    [req('read', { space: 'MEM', offset: 0, length: 1 }), /params\.step: missing/],
    [req('read', { space: 'MEM', offset: '0', length: 1, step: 0 }), /expected a number/],
    [req('search', { space: 'MEM', step: 0, pattern: [1, 2], from: 0 }), /pattern: expected an ArrayBuffer/],
    [req('export', { space: 'MEM', step: 0, offset: 0, length: 1, format: 'exe', type: 'u8', bigEndian: false }), /format/],
    [req('export', { space: 'MEM', step: 0, offset: 0, length: 1, format: 'bin', type: 'u64', bigEndian: false }), /type/],
    [{ type: 'request', id: 'x', method: 'steps', params: { from: 0, count: 1 } }, /id: expected a number/],
    [{ type: 'notify', method: 'reveal', params: { loc: { file: 'a', line: 0 } } }, /line: 0 < 1/],
    [{ type: 'bogus' }, /unknown type/],
  ];
  for (const [m, re] of bad) {
    const why = explainWebviewMessage(m);
    assert.ok(why, `accepted ${JSON.stringify(m)}`);
    assert.match(why!, re);
    assert.equal(isWebviewToHost(m), false);
  }
});

test('host messages: responses are checked against the pending request method', () => {
  const methodOf = (id: number) => (id === 7 ? ('read' as const) : undefined);
  assert.equal(explainHostMessage({ type: 'response', id: 7, ok: true, result: { bytes: buf } }, methodOf), undefined);
  assert.match(explainHostMessage({ type: 'response', id: 7, ok: true, result: { bytes: [1, 2, 3] } }, methodOf)!, /bytes: expected an ArrayBuffer/);
  assert.match(explainHostMessage({ type: 'response', id: 8, ok: true, result: {} }, methodOf)!, /no pending request 8/);
  assert.equal(explainHostMessage({ type: 'response', id: 8, ok: false, error: 'nope' }), undefined);
  assert.match(explainHostMessage({ type: 'response', id: 8, ok: false })!, /error: missing|result/);
  assert.equal(isHostToWebview({ type: 'notify', method: 'setStep', params: { step: 3 } }), true);
  assert.equal(isHostToWebview({ type: 'notify', method: 'setStep', params: { step: -2 } }), false);
  assert.equal(isHostToWebview({ type: 'notify', method: 'highlight', params: { space: 'MEM', offset: 0, length: 4 } }), true);
  assert.equal(isHostToWebview({ type: 'notify', method: 'evil', params: {} }), false);
  assert.equal(explainResult('resolve', null), undefined);
  assert.match(explainResult('search', { offset: -2 })!, /-2 < -1/);
});

test('layout map descriptions: raster buffers are binary; regions need positive sizes', () => {
  const map = {
    id: 'm',
    title: 't',
    model: 'tt',
    shape: [2, 2],
    dtype: 'bfloat16',
    slotName: 'page',
    slotBytes: 2048,
    cols: 2,
    rows: 1,
    panels: [{ unit: 0, label: 'bank 0', x: 0, y: 0, w: 2, h: 1, slots: 2, slotsPerCell: 1, base: 0 }],
    regions: [{ kind: 'data', x: 0, y: 0, w: 2, h: 1, colorKey: NaN }],
    raster: { keys: new ArrayBuffer(8), kinds: new ArrayBuffer(2) },
  };
  assert.equal(LayoutMapS.check(map, 'map'), undefined);
  assert.match(LayoutMapS.check({ ...map, regions: [{ kind: 'data', x: 0, y: 0, w: 0, h: 1 }] }, 'map')!, /regions\[0\]\.w: 0 < 1/);
  assert.match(LayoutMapS.check({ ...map, raster: { keys: [0, 1], kinds: new ArrayBuffer(2) } }, 'map')!, /raster\.keys/);
  assert.match(LayoutMapS.check({ ...map, regions: [{ kind: 'weird', x: 0, y: 0, w: 1, h: 1 }] }, 'map')!, /kind/);
});

test('transferablesOf and partitionWindow', () => {
  const a = new ArrayBuffer(1);
  const b = new ArrayBuffer(2);
  assert.deepEqual(transferablesOf({ x: a, y: [b, { z: a }], v: new Uint8Array(3) }), [a, b]);
  const pcore: SpaceInfo = {
    id: 'PCORE0',
    label: 'p',
    bytes: 65536,
    unitBytes: 2,
    partitions: [
      { name: 'core', count: 8, strideBytes: 8192 },
      { name: 'thread', count: 16, strideBytes: 512 },
    ],
  };
  assert.deepEqual(partitionWindow(pcore, []), { offset: 0, length: 65536 });
  assert.deepEqual(partitionWindow(pcore, [1]), { offset: 8192, length: 8192 });
  assert.deepEqual(partitionWindow(pcore, [1, 2]), { offset: 8192 + 1024, length: 512 });
  assert.deepEqual(partitionWindow(pcore, [undefined, 2]), { offset: 0, length: 65536 });
});

test('trace steps: one schema for the run result, the steps answer and tensorTrace', () => {
  const s = {
    step: 0,
    kind: 'transfer',
    file: 'a.m',
    line: 3,
    column: 2,
    endLine: 3,
    text: '>x<=y;',
    process: 0,
    elements: 4,
    padded: 0,
    skipped: 0,
    changed: { MEM: [0] },
    written: { space: 'MEM', lo: 0, hi: 3, count: 4 },
  };
  assert.equal(traceStepsError([s, { ...s, step: 1, kind: 'global', register: { r2: 0, r: 5, value: 4 } }]), undefined);
  assert.match(traceStepsError([s, { ...s, process: 2 }]) ?? '', /^trace\[1\]\.process: expected 0 \| 1/);
  assert.match(traceStepsError([{ ...s, written: { space: 'MEM', lo: 0, hi: 3 } }]) ?? '', /^trace\[0\]\.written\.count: missing/);
  assert.deepEqual(checkTraceSlice({ total: 7, steps: [s] }).steps, [s]);
  assert.throws(() => checkTraceSlice({ steps: [s] }), /not a trace slice: tensorTrace\.total: missing/);
  assert.throws(() => checkTraceSteps([{ ...s, changed: { MEM: [-1] } }], 'run.trace'), /not a trace: run\.trace\[0\]\.changed\.MEM\[0\]: -1 < 0/);
});
