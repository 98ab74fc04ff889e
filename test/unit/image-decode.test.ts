/**
 * Images as buffer contents (core/image/decode.ts): PNG and BMP files written byte by byte here
 * (test/helpers/images.ts) decode to the pixels chosen, planar (ztachip's "split") or interleaved, RGB,
 * BGR or grey; a corrupt file is an error naming it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeImage, ImageError } from '../../core/image/decode';
import { bmpOf, pngOf } from '../helpers/images';

// 3 × 2 pixels: distinct values in every channel of every pixel
const RGB = [
  [
    [10, 20, 30],
    [11, 21, 31],
    [12, 22, 32],
  ],
  [
    [13, 23, 33],
    [14, 24, 34],
    [255, 0, 0],
  ],
];
const PLANAR = [10, 11, 12, 13, 14, 255, 20, 21, 22, 23, 24, 0, 30, 31, 32, 33, 34, 0];
const INTERLEAVED = [10, 20, 30, 11, 21, 31, 12, 22, 32, 13, 23, 33, 14, 24, 34, 255, 0, 0];

test('a PNG decodes planar by default, interleaved or BGR when asked', () => {
  const png = pngOf(RGB);
  const planar = decodeImage('in.png', png);
  assert.deepEqual([planar.width, planar.height, planar.channels], [3, 2, 3]);
  assert.deepEqual([...planar.data], PLANAR);
  assert.deepEqual([...decodeImage('in.png', png, { layout: 'interleaved' }).data], INTERLEAVED);
  // BGR planar: the blue plane first
  assert.deepEqual([...decodeImage('in.png', png, { channels: 'bgr' }).data], [...PLANAR.slice(12), ...PLANAR.slice(6, 12), ...PLANAR.slice(0, 6)]);
  assert.deepEqual([...decodeImage('IN.PNG', png, { channels: 'bgr', layout: 'interleaved' }).data].slice(0, 6), [30, 20, 10, 31, 21, 11]);
});

test('grey: a grey PNG stays one channel; a colour image becomes BT.601 luma (77R + 150G + 29B + 128) >> 8', () => {
  const grey = decodeImage('g.png', pngOf([[0, 128, 255]]));
  assert.equal(grey.channels, 1);
  assert.deepEqual([...grey.data], [0, 128, 255]);
  const luma = decodeImage('in.png', pngOf(RGB), { channels: 'grey' });
  // (77·10 + 150·20 + 29·30 + 128) >> 8 = 4768 >> 8 = 18; pure red: (77·255 + 128) >> 8 = 77
  assert.equal(luma.data[0], 18);
  assert.equal(luma.data[5], 77);
  assert.equal(luma.data.length, 6);
  // a grey image asked as RGB repeats its value in each plane
  assert.deepEqual([...decodeImage('g.png', pngOf([[7, 9]]), { channels: 'rgb' }).data], [7, 9, 7, 9, 7, 9]);
});

test('a 24-bit BMP (bottom-up rows, BGR, padded) decodes to the same top-down pixels', () => {
  const bmp = bmpOf(RGB);
  const d = decodeImage('in.bmp', bmp);
  assert.deepEqual([d.width, d.height, d.channels], [3, 2, 3]);
  assert.deepEqual([...d.data], PLANAR);
  assert.deepEqual([...decodeImage('in.bmp', bmp, { layout: 'interleaved' }).data], INTERLEAVED);
});

test('corrupt or truncated images are errors naming the file', () => {
  const png = pngOf(RGB);
  const bad = (file: string, bytes: Uint8Array, re: RegExp) =>
    assert.throws(
      () => decodeImage(file, bytes),
      (e: unknown) => e instanceof ImageError && re.test(e.message),
    );
  bad('a.png', Uint8Array.from([1, 2, 3]), /^a\.png: not a PNG image/);
  bad('a.png', png.subarray(0, 40), /^a\.png: corrupt PNG image/);
  const crc = png.slice();
  crc[29] ^= 0xff; // the IHDR chunk's CRC
  bad('crc.png', crc, /^crc\.png: corrupt PNG image/);
  bad('a.bmp', Uint8Array.from([0x42, 0x4d, 0, 0]), /^a\.bmp: corrupt BMP image/);
  bad('b.bmp', png, /^b\.bmp: not a BMP image/);
  bad('c.gif', png, /^c\.gif: not a PNG or BMP file name/);
});
