/**
 * examples/vision runs as a user runs it — its tensorlens.run.json configuration, prepared the one way every
 * run is (named buffers, the PNG decoded to planar RGB, dumps with shapes) — and its three planes equal an
 * independent model: the picture from make-input.mjs's own drawing function (not the PNG), then luma, the
 * 3x3 binomial blur and the Sobel magnitude with zero padding and the edge curve, in plain JavaScript.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { configurationFor, parseRunConfigFile } from '../../core/sim/runConfigFile';
import { prepareRun } from '../../core/sim/prepare';
import { runProgram } from '../../core/sim/run';
import { decodeNpy } from '../../core/common/npy';
import { nodeRunHost } from '../../node/runHost';

const DIR = resolve(__dirname, '..', '..', 'examples', 'vision');

interface Picture {
  W: number;
  H: number;
  pixel(x: number, y: number): number[];
}

/** grey, blurred and edges planes of the picture, computed without the simulator. */
function model({ W, H, pixel }: Picture) {
  const grey = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const [r, g, b] = pixel(x, y);
      grey[y * W + x] = (77 * r + 150 * g + 29 * b) >> 8;
    }
  const at = (img: Uint8Array, x: number, y: number) => (x < 0 || y < 0 || x >= W || y >= H ? 0 : img[y * W + x]);
  const blurred = new Uint8Array(W * H);
  const edges = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const g = (dx: number, dy: number) => at(grey, x + dx, y + dy);
      blurred[y * W + x] = (g(-1, -1) + 2 * g(0, -1) + g(1, -1) + 2 * g(-1, 0) + 4 * g(0, 0) + 2 * g(1, 0) + g(-1, 1) + 2 * g(0, 1) + g(1, 1)) >> 4;
    }
  const curve = (m: number) => (m < 32 ? 0 : m < 160 ? 2 * m - 64 : 255);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const t = (dx: number, dy: number) => at(blurred, x + dx, y + dy);
      const gx = t(1, -1) + 2 * t(1, 0) + t(1, 1) - t(-1, -1) - 2 * t(-1, 0) - t(-1, 1);
      const gy = t(-1, 1) + 2 * t(0, 1) + t(1, 1) - t(-1, -1) - 2 * t(0, -1) - t(1, -1);
      edges[y * W + x] = curve((Math.abs(gx) + Math.abs(gy)) >> 1);
    }
  return { grey, blurred, edges };
}

function differing(got: Uint8Array, want: Uint8Array): string {
  const bad: number[] = [];
  for (let i = 0; i < want.length && bad.length < 5; i++) if (got[i] !== want[i]) bad.push(i);
  return bad.map((i) => `[${i}] ${got[i]} != ${want[i]}`).join(', ');
}

test('examples/vision: the run configuration gives the grey, blurred and edge planes of an independent model', async () => {
  const picture = (await import(join(DIR, 'make-input.mjs'))) as Picture;
  const want = model(picture);
  const n = picture.W * picture.H;
  assert.equal(n, 256 * 192);
  // the model itself is not trivial: the picture has edges and flat areas
  const lit = want.edges.filter((v) => v > 0).length;
  assert.ok(lit > 500 && lit < n / 4, `${lit} edge pixels`);

  const file = parseRunConfigFile(readFileSync(join(DIR, 'tensorlens.run.json'), 'utf8'));
  assert.deepEqual(file.problems, []);
  const { config, problems } = configurationFor(file, 'vision.m');
  assert.deepEqual(problems, []);
  const prepared = prepareRun({ ...config!, cwd: DIR }, nodeRunHost());
  const r = await runProgram(prepared.options);
  assert.equal(r.error, null, r.error?.message);
  assert.deepEqual(r.warnings, [], 'the example runs without a warning (no unwritten memory read, nothing unmodelled)');

  // buffers: in the configuration's order, where nothing else lives, each as large as configured
  assert.deepEqual(
    r.buffers.map((b) => [b.name, b.bytes]),
    [
      ['picture', 3 * n],
      ['grey', n],
      ['blurred', n],
      ['edges', n],
    ],
  );
  for (let i = 1; i < r.buffers.length; i++) assert.ok(r.buffers[i].address >= r.buffers[i - 1].address + r.buffers[i - 1].bytes, 'buffers do not overlap');

  const plane = (name: string) => {
    const b = r.buffers.find((x) => x.name === name)!;
    return r.machine.mem.subarray(b.address, b.address + b.bytes);
  };
  assert.equal(differing(plane('grey'), want.grey), '');
  assert.equal(differing(plane('blurred'), want.blurred), '');
  assert.equal(differing(plane('edges'), want.edges), '');

  // the dumps are .npy files of the configured shape holding the same planes
  const edgesDump = r.dumps.find((d) => d.file?.endsWith('edges.npy'));
  const npy = decodeNpy(edgesDump!.bytes!);
  assert.deepEqual(npy.shape, [192, 256]);
  assert.equal(differing(new Uint8Array(npy.data as Uint8Array), want.edges), '');
});
