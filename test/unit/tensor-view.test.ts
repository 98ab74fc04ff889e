/**
 * core/inspect/tensorView.ts: planning a picture of a region (sizes from shape or width/height, located
 * errors when it does not fit), pixel ↔ byte mapping for each image layout, the colour scale's exact
 * steps, the rectangles of a written byte range, and the difference to a reference — all against values
 * worked out by hand here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  diffMask,
  heatRGBA,
  heatValues,
  imageRGBA,
  offsetOf,
  pixelOf,
  planView,
  rectsOfBytes,
  referenceValues,
  scaleRGB,
  valueRange,
  viewValues,
} from '../../core/inspect/tensorView';
import { encodeNpy } from '../../core/common/npy';
import { encode as encodePng } from 'fast-png';
import type { TensorView } from '../../core/protocol/webview';

const region = (v: Partial<TensorView>): TensorView => ({ label: 'r', space: 'MEM', offset: 0x100, bytes: 1 << 20, mode: 'image', ...v });

test('image layouts: grey, RGB planar [c, h, w], BGR interleaved [h, w, c] map pixels to the right bytes', () => {
  const grey = planView(region({ format: 'grey', width: 4, height: 3 }));
  assert.equal(grey.count, 12);
  assert.equal(offsetOf(grey, 3, 2), 11);
  const planar = planView(region({ shape: [3, 2, 4] }));
  assert.equal(planar.describe, 'RGB planar 4×2');
  // channel 2 (blue) of pixel (1, 1): plane 2 starts at 8, pixel 5
  assert.equal(offsetOf(planar, 1, 1, 2), 2 * 8 + 5);
  const bgr = planView(region({ format: 'bgr-interleaved', shape: [2, 4, 3] }));
  assert.equal(bgr.describe, 'BGR interleaved 4×2');
  assert.deepEqual(bgr.rgb, [2, 1, 0]);
  assert.equal(offsetOf(bgr, 1, 1, 0), 3 * 5);
  assert.deepEqual(pixelOf(bgr, 3 * 5 + 2), { x: 1, y: 1 });
  // pixels: bytes 0..23; BGR pixel 0 = bytes (0, 1, 2) → R 2, G 1, B 0
  const bytes = Uint8Array.from({ length: 24 }, (_, i) => i);
  const rgba = imageRGBA(bytes, bgr);
  assert.deepEqual([...rgba.slice(0, 8)], [2, 1, 0, 255, 5, 4, 3, 255]);
  const p = imageRGBA(bytes, planar);
  // pixel 3 of planar: R byte 3, G byte 11, B byte 19
  assert.deepEqual([...p.slice(12, 16)], [3, 11, 19, 255]);
});

test('a shape that does not fit, a missing size, a bad slice: errors naming the region and the sizes', () => {
  assert.throws(
    () => planView(region({ bytes: 100, shape: [3, 10, 10] })),
    /^Error: r \(MEM offset 256, 100 bytes\): RGB planar 10×10 needs 300 bytes, the region has 100$/,
  );
  assert.throws(() => planView(region({ format: 'grey' })), /give the image width and height \(or a shape\)/);
  assert.throws(() => planView(region({ shape: [4, 5, 6] })), /shape \[4, 5, 6\] has 6 channels/);
  assert.throws(() => planView(region({ mode: 'heatmap', dtype: 'f32', shape: [2, 3, 4], slice: [2] })), /slice index 2 is outside dimension 0 \(size 2\)/);
  assert.throws(() => planView(region({ mode: 'heatmap', dtype: 'i32', bytes: 40, shape: [3, 4] })), /shape \[3, 4\] of i32 needs 48 bytes, the region has 40/);
  assert.throws(() => planView(region({ shape: [0, 4] })), /empty dimension/);
});

test('heatmap slice: the second [3, 4] matrix of [2, 3, 4] i16 starts 24 bytes in; no shape: rows of the width', () => {
  const p = planView(region({ mode: 'heatmap', dtype: 'i16', shape: [2, 3, 4], slice: [1] }));
  assert.equal(p.base, 24);
  assert.equal(p.describe, 'i16 heatmap [2, 3, 4] slice [1]');
  const bytes = new Uint8Array(new Int16Array(Array.from({ length: 24 }, (_, i) => i - 12)).buffer);
  assert.deepEqual(
    [...heatValues(bytes, p)],
    Array.from({ length: 12 }, (_, i) => i),
  );
  const q = planView(region({ mode: 'heatmap', dtype: 'u8', width: 16, bytes: 100 }));
  assert.deepEqual([q.width, q.height], [16, 6]);
});

test('colour scale: blue at min, white in the middle, red at max, exact integer steps', () => {
  assert.deepEqual(scaleRGB(0), [0, 0, 255]);
  assert.deepEqual(scaleRGB(0.5), [255, 255, 255]);
  assert.deepEqual(scaleRGB(1), [255, 0, 0]);
  assert.deepEqual(scaleRGB(0.25), [128, 128, 255]); // k = round(127.5) = 128
  assert.deepEqual(scaleRGB(0.75), [255, 127, 127]); // k = round(382.5) = 383 → 510 − 383 = 127
});

test('heatRGBA and valueRange: f32 with NaN and Inf', () => {
  const vals = new Float32Array([-1, 0, 1, NaN, Infinity]);
  assert.deepEqual(valueRange(vals), { min: -1, max: 1, nonFinite: 2 });
  // NaN without ±Inf (one pass), all NaN, nothing
  assert.deepEqual(valueRange(new Float32Array([NaN, 2, NaN, -3])), { min: -3, max: 2, nonFinite: 2 });
  assert.deepEqual(valueRange([NaN, NaN]), { min: 0, max: 0, nonFinite: 2 });
  assert.deepEqual(valueRange([-Infinity, Infinity]), { min: 0, max: 0, nonFinite: 2 });
  const px = heatRGBA(vals, -1, 1);
  assert.deepEqual([...px], [0, 0, 255, 255, 255, 255, 255, 255, 255, 0, 0, 255, 255, 0, 255, 255, 255, 0, 255, 255]);
  // the path without checks (no NaN or ±Inf) gives the same colours
  const finite = new Float32Array([-1, -0.5, 0, 0.25, 1]);
  assert.deepEqual([...heatRGBA(finite, -1, 1, undefined, true)], [...heatRGBA(finite, -1, 1)]);
  assert.deepEqual([...heatRGBA(finite, -1, 1, undefined, true).slice(4, 8)], [128, 128, 255, 255]); // t = 0.25 → k = round(127.5) = 128
  // one value only: all white
  assert.deepEqual([...heatRGBA(new Float32Array([7, 7]), 7, 7).slice(0, 4)], [255, 255, 255, 255]);
});

test('rectsOfBytes: a written range as partial first row, whole rows, partial last row; planar per plane', () => {
  const p = planView(region({ mode: 'heatmap', dtype: 'i16', shape: [4, 5] }));
  // elements 3..13 (bytes 6..28): row 0 x 3..4, row 1 whole, row 2 x 0..3
  assert.deepEqual(rectsOfBytes(p, 6, 28), [
    { x: 3, y: 0, w: 2, h: 1 },
    { x: 0, y: 2, w: 4, h: 1 },
    { x: 0, y: 1, w: 5, h: 1 },
  ]);
  assert.deepEqual(rectsOfBytes(p, 100, 200), []);
  const planar = planView(region({ shape: [3, 2, 2] }));
  // bytes 3..5: pixel 3 of red, pixels 0..1 of green
  assert.deepEqual(rectsOfBytes(planar, 3, 6), [
    { x: 1, y: 1, w: 1, h: 1 },
    { x: 0, y: 0, w: 2, h: 1 },
  ]);
});

test('difference to a reference: .npy values, .bin bytes, wrong sizes and malformed files named', () => {
  const p = planView(region({ mode: 'heatmap', dtype: 'f32', shape: [2, 2] }));
  const bytes = new Uint8Array(new Float32Array([1, 2, NaN, 4]).buffer);
  const ref = referenceValues('e.npy', encodeNpy({ dtype: 'f4', shape: [4], data: [1, 2.5, NaN, 5] }), p);
  const d = diffMask(p, viewValues(bytes, p), ref);
  assert.equal(d.count, 2);
  assert.deepEqual([...d.mask], [0, 1, 0, 1]);
  assert.throws(
    () => referenceValues('e.npy', encodeNpy({ dtype: 'f4', shape: [5], data: [1, 2, 3, 4, 5] }), p),
    /e.npy: 5 elements \(shape \[5\]\), the view shows 4/,
  );
  assert.throws(() => referenceValues('bad.npy', new Uint8Array(12), p), /^Error: bad.npy: offset 0: /);
  assert.throws(() => referenceValues('x.bin', new Uint8Array(15), p), /x.bin: 15 bytes, the view's 4 f32 elements take 16/);
  assert.throws(() => referenceValues('ref.png', new Uint8Array(15), p), /ref.png: an image compares with 8-bit data, the view shows f32/);
  // a PNG of the view's size, decoded to BGR interleaved for a BGR interleaved view: pixel (1, 0) red = (255, 0, 0) → B G R = 0 0 255
  const bgr = planView(region({ format: 'bgr-interleaved', width: 2, height: 1 }));
  const png = encodePng({ width: 2, height: 1, channels: 3, depth: 8, data: Uint8Array.from([10, 20, 30, 255, 0, 0]) });
  assert.deepEqual(Array.from(referenceValues('ref.png', png, bgr)), [30, 20, 10, 0, 0, 255]);
  assert.throws(() => referenceValues('ref.png', png, planView(region({ format: 'grey', width: 3, height: 1 }))), /ref.png: 2×1 pixels, the view shows 3×1/);
  assert.throws(() => referenceValues('bad.png', Uint8Array.from([1, 2, 3]), bgr), /^Error: bad.png/);
  // interleaved RGB: two channels of one pixel differ → 2 elements, 1 pixel
  const rgb = planView(region({ shape: [1, 2, 3] }));
  const img = Uint8Array.from([1, 2, 3, 4, 5, 6]);
  const r = diffMask(rgb, viewValues(img, rgb), [1, 2, 3, 4, 0, 0]);
  assert.deepEqual([r.count, r.pixels, [...r.mask]], [2, 1, [0, 1]]);
  // i32 above 2^24 compared exactly
  const big = planView(region({ mode: 'heatmap', dtype: 'i32', width: 1, height: 1 }));
  const b = new Uint8Array(new Int32Array([16777217]).buffer);
  assert.equal(diffMask(big, viewValues(b, big), [16777216]).count, 1);
});
