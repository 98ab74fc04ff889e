/**
 * Image files written byte by byte by the tests (no image library): a PNG (signature, IHDR, one IDAT of
 * zlib-deflated scanlines with filter 0, IEND, each chunk with its CRC-32) and a 24-bit BMP (bottom-up rows
 * of B, G, R padded to 4 bytes), so that what a decoder reads back is checked against pixels we chose.
 */
import { crc32, deflateSync } from 'node:zlib';

/** `rows[y][x]` = [r, g, b] (colour) or a number (grey). */
export type Pixels = (number[] | number)[][];

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  out.set(Buffer.from(type, 'latin1'), 4);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)) >>> 0);
  return out;
}

/** A PNG of 8-bit samples: colour type 2 (RGB) when the pixels are triples, 0 (grey) when numbers. */
export function pngOf(rows: Pixels): Uint8Array {
  const h = rows.length;
  const w = rows[0].length;
  const rgb = Array.isArray(rows[0][0]);
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, w);
  dv.setUint32(4, h);
  ihdr.set([8, rgb ? 2 : 0, 0, 0, 0], 8);
  const raw: number[] = [];
  for (const row of rows) {
    raw.push(0); // filter: none
    for (const px of row) raw.push(...(Array.isArray(px) ? px : [px]));
  }
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Uint8Array.from(raw))),
    chunk('IEND', new Uint8Array(0)),
  ];
  return Buffer.concat(parts);
}

/** A 24-bit uncompressed BMP (BITMAPINFOHEADER), rows stored bottom-up as B, G, R, each padded to 4 bytes. */
export function bmpOf(rows: number[][][]): Uint8Array {
  const h = rows.length;
  const w = rows[0].length;
  const stride = Math.ceil((w * 3) / 4) * 4;
  const size = 54 + stride * h;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  dv.setUint32(2, size, true);
  dv.setUint32(10, 54, true);
  dv.setUint32(14, 40, true);
  dv.setInt32(18, w, true);
  dv.setInt32(22, h, true);
  dv.setUint16(26, 1, true);
  dv.setUint16(28, 24, true);
  dv.setUint32(34, stride * h, true);
  dv.setInt32(38, 2835, true);
  dv.setInt32(42, 2835, true);
  for (let y = 0; y < h; y++) {
    const at = 54 + (h - 1 - y) * stride;
    rows[y].forEach(([r, g, b], x) => out.set([b, g, r], at + 3 * x));
  }
  return out;
}
