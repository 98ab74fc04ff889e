/**
 * The pure parts of the ztachip conformance runner (scripts/ztachip-conformance.mjs, issue #18): the BMP
 * reader that lays a bitmap out as ztachip's TENSOR::CreateWithBitmap does, the comparison behind each
 * check line (with test.cpp's histogram tolerance), and the set-up arithmetic taken from test.cpp and the
 * graph nodes (crop offsets of test_yuyv_to_bgr, GraphNodeColorAndReshape's format mapping).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = join(__dirname, '..', '..', 'scripts', 'conformance');
// the scripts are plain ES modules without type declarations: imported by URL, typed loosely
const load = (name: string): Promise<any> => import(pathToFileURL(join(dir, name)).href);

/** A 24-bit BMP of `w` x `h` pixels whose pixel (r, c) (top row r = 0) is [b, g, r] = px(r, c). */
function makeBmp(w: number, h: number, px: (r: number, c: number) => [number, number, number], topDown = false): Buffer {
  const stride = Math.floor((w * 3 + 3) / 4) * 4;
  const off = 54;
  const buf = Buffer.alloc(off + stride * h, 0xee); // padding bytes are not zero: they must be skipped
  buf.write('BM', 0, 'latin1');
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(off, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(w, 18);
  buf.writeInt32LE(topDown ? -h : h, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(24, 28);
  buf.writeUInt32LE(0, 30);
  for (let r = 0; r < h; r++) {
    const row = off + (topDown ? r : h - 1 - r) * stride;
    for (let c = 0; c < w; c++) {
      const [b, g, rd] = px(r, c);
      buf[row + 3 * c] = b;
      buf[row + 3 * c + 1] = g;
      buf[row + 3 * c + 2] = rd;
    }
  }
  return buf;
}

const pixel = (r: number, c: number): [number, number, number] => [10 * r + c, 100 + 10 * r + c, 200 + 10 * r + c];

test('decodeBmp: split R, G, B planes, top row first, rows padded to 4 bytes skipped', async () => {
  const { decodeBmp } = await load('common.mjs');
  for (const topDown of [false, true]) {
    const { width, height, data } = decodeBmp(makeBmp(3, 2, pixel, topDown));
    assert.equal(width, 3);
    assert.equal(height, 2);
    assert.deepEqual(
      [...data],
      [
        // red plane (the third byte of each BMP pixel)
        200, 201, 202, 210, 211, 212,
        // green
        100, 101, 102, 110, 111, 112,
        // blue
        0, 1, 2, 10, 11, 12,
      ],
    );
  }
});

test('decodeBmp refuses what ztachip bmpRead cannot read', async () => {
  const { decodeBmp } = await load('common.mjs');
  assert.throws(() => decodeBmp(Buffer.from('not a bitmap at all, but long enough to have a header of 54 bytes')), /BM/);
  const bmp = makeBmp(2, 2, pixel);
  bmp.writeUInt16LE(32, 28);
  assert.throws(() => decodeBmp(bmp), /24-bit/);
  assert.throws(() => decodeBmp(makeBmp(4, 4, pixel).subarray(0, 60)), /truncated/);
});

test('checkFrom: identical, differing (count, first element with coordinates, max abs diff), tolerance', async () => {
  const { checkFrom } = await load('common.mjs');
  const exp = Uint8Array.from([1, 2, 3, 4, 5, 6]);
  assert.deepEqual(checkFrom('t', exp, Uint8Array.from(exp)), { name: 't', pass: true, detail: 'identical (6 elements)' });
  const act = Uint8Array.from([1, 2, 9, 4, 5, 0]);
  const bad = checkFrom('t', exp, act, { shape: [2, 3] });
  assert.equal(bad.pass, false);
  assert.equal(bad.detail, '2 of 6 elements differ; first at 2 [0][2]: expected 3, got 9; max abs diff 6');
  // test.cpp's histogram rule: a byte passes when |diff| < 10
  const near = checkFrom('h', exp, Uint8Array.from([1, 2, 12, 4, 5, 6]), { tolerance: 10 });
  assert.equal(near.pass, true);
  assert.match(near.detail, /within tolerance \|diff\| < 10: 1 of 6 elements differ, max abs diff 9/);
  const far = checkFrom('h', exp, Uint8Array.from([1, 2, 13, 4, 5, 0]), { tolerance: 10 });
  assert.equal(far.pass, false);
  assert.match(far.detail, /^1 of 6 elements differ \(\|diff\| >= 10; 2 differ at all\); first at 2 \[2\]: expected 3, got 13; max abs diff 10$/);
  assert.match(checkFrom('s', exp, Uint8Array.from([1, 2])).detail, /2 elements produced, 6 expected/);
});

test('test_yuyv_to_bgr crops: offsets rounded down to even, 4 formats each', async () => {
  const { cases } = await load('yuyv.mjs');
  const cs = cases(100, 100);
  assert.equal(cs.length, 20);
  assert.deepEqual(
    cs.filter((_c: unknown, i: number) => i % 4 === 0).map((c: any) => [c.dstW, c.xOff]),
    [
      [100, 0],
      [98, 0],
      [96, 2],
      [94, 2],
      [92, 4],
    ],
  );
});

test("test_color: GraphNodeColorAndReshape's mapping of the test's 16 cases to kernel_copy_exe formats", async () => {
  const { CASES, nodeArgs } = await load('color.mjs');
  assert.equal(CASES.length, 16);
  for (const c of CASES) {
    // for every case of test.cpp the node's formats and orders are the test's own
    assert.deepEqual(nodeArgs(c), { srcfmt: c.srcfmt, srcorder: c.srcorder, dstfmt: c.dstfmt, dstorder: c.dstorder });
  }
});
