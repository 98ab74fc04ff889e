/**
 * The heatmap's slices of `.csfbin` tensors (core/csf/slice.ts): dense values, entry numbers and notes of
 * small hand-made files, checked against values worked out by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_ENTRY, SliceBuilder, readSlice, sliceGeometry } from '../../core/csf/slice';
import { CsfView, bytesSource } from '../../core/csf/view';
import { CsfViewHost } from '../../core/csf/viewHost';
import { explainCsfHostMessage, type CsfHostToWebview } from '../../core/protocol/webview';
import { tensorA, tensorABadEnd, tensorABadIndex, writeCsfFixture } from '../webview/csfviewFixtures';

const N = NO_ENTRY;
const open = (b: Uint8Array) => CsfView.open(bytesSource(b));

test('order 2: the matrix, implicit zeros without an entry number', async () => {
  // A = [[0, 1.5, 0], [-2, 0, 3.25]]: entries 0 (1.5), 1 (−2), 2 (3.25)
  const s = await readSlice(await open(tensorA()), []);
  assert.deepEqual([s.rows, s.cols, s.sliceRows, s.sliceCols, s.blockRows, s.blockCols], [2, 3, 2, 3, 1, 1]);
  assert.deepEqual([...s.values], [0, 1.5, 0, -2, 0, 3.25]);
  assert.deepEqual([...s.entries], [N, 0, N, 1, N, 2]);
  assert.equal(s.stored, 3);
  assert.deepEqual(s.notes, []);
});

test('order 1: one row', async () => {
  const s = await readSlice(
    await open(
      writeCsfFixture(
        [4],
        [
          [
            [1, 5],
            [3, -1],
          ],
        ],
      ),
    ),
    [],
  );
  assert.deepEqual([s.rows, s.cols], [1, 4]);
  assert.deepEqual([...s.values], [0, 5, 0, -1]);
  assert.deepEqual([...s.entries], [N, 0, N, 1]);
});

test('order 3: the slice at a leading index reads only its own fibers', async () => {
  // shape 2×2×3, fibers (0,0) (0,1) (1,0) (1,1); x[1] = [[0, 0, 9], [4, 0, 0]], x[0] = [[1, 0, 0], [0, 2, 0]]
  const b = writeCsfFixture([2, 2, 3], [[[0, 1]], [[1, 2]], [[2, 9]], [[0, 4]]]);
  const v = await open(b);
  const s1 = await readSlice(v, [1]);
  assert.deepEqual([...s1.values], [0, 0, 9, 4, 0, 0]);
  assert.deepEqual([...s1.entries], [N, N, 2, 3, N, N]);
  const s0 = await readSlice(v, [0]);
  assert.deepEqual([...s0.values], [1, 0, 0, 0, 2, 0]);
  assert.deepEqual([...s0.entries], [0, N, N, N, 1, N]);
  await assert.rejects(readSlice(v, [2]), /leading index 0 is 2, outside \[0, 2\) of shape/);
  await assert.rejects(readSlice(v, []), /order 3 takes 1 leading index for its slice, found 0/);
});

test('sliceGeometry: first fiber of a 4-D slice, empty extents', () => {
  // shape 2×3×4×5: lead (1, 2) is fiber row (1·3 + 2)·4 = 20
  assert.deepEqual(sliceGeometry([2, 3, 4, 5], [1, 2]), { f0: 20, rows: 4, cols: 5 });
  assert.match(sliceGeometry([2, 0], []) as string, /empty: shape .* has an extent 0/);
});

test('downsampling: each cell of a block keeps the value of largest magnitude, NaN wins', () => {
  // 5×4 slice at most 2 a side: blocks of ceil(5/2) = 3 rows × ceil(4/2) = 2 columns → 2×2 cells
  const b = new SliceBuilder(5, 4, 2);
  b.add(0, 0, 0, 1, 100);
  b.add(1, 1, 1, -7, 108);
  b.add(2, 2, 0, 3, 116);
  b.add(4, 3, 3, NaN, 124);
  b.add(3, 4, 2, 2, 132);
  b.add(0, 5, 3, 0.5, 140);
  const s = b.finish();
  assert.deepEqual([s.rows, s.cols, s.blockRows, s.blockCols], [2, 2, 3, 2]);
  assert.deepEqual([...s.values].slice(0, 3), [-7, 0.5, 0]);
  assert.ok(Number.isNaN(s.values[3]));
  assert.deepEqual([...s.entries], [1, 5, N, 3]);
  assert.equal(s.stored, 3);
  assert.deepEqual(s.notes, []);
});

test('entries the picture cannot place are reported, not dropped silently', async () => {
  // entry 2 (bytes 32..39) has index 3 = shape[1]
  const s = await readSlice(await open(tensorABadIndex()), []);
  assert.deepEqual([...s.values], [0, 1.5, 0, -2, 0, 0]);
  assert.equal(s.stored, 2);
  assert.deepEqual(s.notes, ['1 entry is not drawn (V13): entry 2 at offset 32 has index 3, past the last extent 3']);
  const r = new SliceBuilder(1, 3);
  r.add(0, 0, 1, 4, 16);
  r.add(0, 1, 1, 6, 24);
  const t = r.finish();
  assert.deepEqual([...t.values], [0, 6, 0]);
  assert.deepEqual(t.notes, ['1 entry repeats a cell, the later drawn (V14): entry 1 at offset 24 is at the cell of entry 0 (row 0, index 1)']);
});

test('a file without a usable fiber index: why the heatmap cannot be drawn, with the offset', async () => {
  await assert.rejects(
    readSlice(await open(tensorABadEnd()), []),
    /^Error: the heatmap cannot be drawn: offset 52: the end pointer ptr\[2\] must equal nnz = 3, found 2$/,
  );
});

test('csf.slice through the viewer host: answers with the slice, refuses malformed parameters with the reason', async () => {
  const sent: CsfHostToWebview[] = [];
  const host = new CsfViewHost(await open(tensorA()), (m) => sent.push(m), { title: 'a.csfbin' });
  await host.handle({ type: 'request', id: 1, method: 'csf.slice', params: { lead: [] } });
  const r = sent.find((m) => m.type === 'response' && m.id === 1) as {
    ok: boolean;
    result: { rows: number; cols: number; values: ArrayBuffer; entries: ArrayBuffer };
  };
  assert.equal(r.ok, true);
  assert.deepEqual([r.result.rows, r.result.cols], [2, 3]);
  assert.deepEqual([...new Float32Array(r.result.values)], [0, 1.5, 0, -2, 0, 3.25]);
  assert.deepEqual([...new Uint32Array(r.result.entries)], [N, 0, N, 1, N, 2]);
  assert.equal(
    explainCsfHostMessage(r, () => 'csf.slice'),
    undefined,
  );
  await host.handle({ type: 'request', id: 2, method: 'csf.slice', params: { lead: [-1] } });
  await host.handle({ type: 'request', id: 3, method: 'csf.slice', params: { lead: [], maxSide: 4096 } });
  await host.handle({ type: 'request', id: 4, method: 'csf.slice', params: { lead: [0] } });
  const err = (id: number) => (sent.find((m) => m.type === 'response' && m.id === id) as { ok: boolean; error: string }).error;
  assert.match(err(2), /lead\[0\]/);
  assert.match(err(3), /maxSide/);
  assert.equal(err(4), 'no slice to draw: a tensor of order 2 takes 0 leading indices for its slice, found 1');
  host.dispose();
});

test('a slice read stops between chunks when a newer one is asked for', async () => {
  // 2^17 + 1 entries in one row: three chunks of 2^16; cancelled after the first
  const n = (1 << 17) + 1;
  const fiber: [number, number][] = Array.from({ length: n }, (_, j) => [j, 1]);
  const v = await open(writeCsfFixture([n], [fiber]));
  let asked = 0;
  await assert.rejects(
    readSlice(v, [], undefined, () => ++asked > 1),
    /^Error: the slice was not drawn: another slice was asked for$/,
  );
  assert.equal(asked, 2);
  const s = await readSlice(v, []);
  // 131073 columns in blocks of ceil(131073 / 2048) = 65 → 2017 cells, every one stored with value 1
  assert.deepEqual([s.rows, s.cols, s.blockCols, s.stored], [1, 2017, 65, 2017]);
});
