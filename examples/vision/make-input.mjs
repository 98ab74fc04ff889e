#!/usr/bin/env node
// Draws the example's input picture (a house under the sun) and writes it as input.bin (planar RGB, the
// layout kernel_vision_exe reads) and input.png (the same picture for people and image viewers).
// Run it again after changing W or H: node make-input.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const W = 256;
export const H = 192;

/** The colour of pixel (x, y). */
export function pixel(x, y) {
  const inside = (x0, y0, x1, y1) => x >= x0 && x < x1 && y >= y0 && y < y1;
  if ((x - 200) ** 2 + (y - 40) ** 2 < 22 ** 2) return [250, 210, 60]; // sun
  if (inside(120, 140, 136, 176)) return [90, 50, 30]; // door
  if (inside(80, 150, 100, 166) || inside(156, 150, 176, 166)) return [170, 220, 250]; // windows
  if (inside(70, 120, 186, 176)) return [190, 60, 50]; // walls
  if (y >= 70 && y < 120 && Math.abs(x - 128) <= (y - 70) * 1.3) return [110, 70, 40]; // roof
  if (y >= 160) return [60, 140 + ((x * 7 + y * 3) % 20), 50]; // grass with a little texture
  return [90 + (y >> 2), 140 + (y >> 2), 230]; // sky, lighter towards the horizon
}

/** Planar RGB bytes: all R, then all G, then all B. */
export function planar() {
  const out = new Uint8Array(3 * W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) pixel(x, y).forEach((v, c) => (out[c * W * H + y * W + x] = v));
  return out;
}

function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** An 8-bit RGB PNG of the picture (filter 0 on every row). */
export function png() {
  const rows = Buffer.alloc(H * (1 + 3 * W));
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rows.set(pixel(x, y), y * (1 + 3 * W) + 1 + 3 * x);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(W, 0);
  header.writeUInt32BE(H, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const here = dirname(fileURLToPath(import.meta.url));
  writeFileSync(join(here, 'input.bin'), planar());
  writeFileSync(join(here, 'input.png'), png());
  console.log(`input.bin, input.png: ${W}x${H} RGB`);
}
