/**
 * Named buffers of a run (`buffers` of a run configuration, `--buffer NAME=…`): their contents from a
 * file (raw, .npy, PNG/BMP image), their place in MEM — taken from the same allocator as the C globals,
 * the C stack and the heap, so nothing else lives there — and the `@name` arguments and buffer dumps
 * that refer to them.
 */
import { npyLoadBytes, NpyError } from '../common/npy';
import { decodeImage, ImageError, imageKind } from '../image/decode';
import type { RunBuffer } from '../protocol/webview';
import { SpecError, type DumpDtype, type DumpSpec } from './dump';
import type { Machine } from './machine';
import { BUFFER_ARG, BUFFER_NAME, DEFAULT_BUFFER_ALIGN, MAX_BUFFER_ALIGN, type BufferConfig, type DumpConfig } from './runConfig';
import { dumpText } from './runConfigText';
import { SimError } from './types';

export type { RunBuffer } from '../protocol/webview';

/** A buffer ready to be placed: its size, alignment and initial contents. */
export interface BufferSpec {
  name: string;
  bytes: number;
  align: number;
  /** Initial contents (from the start of the buffer); the rest is zero. */
  data?: Uint8Array;
  /** The file as the configuration gives it (for messages). */
  file?: string;
}

/**
 * The buffer `name` of a configuration, its file's bytes read (`read`: the path as written → bytes; it
 * throws with the reason). Throws SpecError naming the buffer (and the file) for a bad name, size or
 * alignment, or a file that cannot be read or decoded.
 */
export function bufferSpec(name: string, c: BufferConfig, read: (file: string) => Uint8Array): BufferSpec {
  const what = `buffer ${name}`;
  if (!new RegExp(BUFFER_NAME).test(name)) throw new SpecError(`${what}: the name must be letters, digits and _, not starting with a digit`);
  const align = c.align ?? DEFAULT_BUFFER_ALIGN;
  if (!(Number.isInteger(align) && align >= 1 && align <= MAX_BUFFER_ALIGN && (align & (align - 1)) === 0))
    throw new SpecError(`${what}: align must be a power of two from 1 to ${MAX_BUFFER_ALIGN} (got ${align})`);
  if (c.bytes !== undefined && !(Number.isSafeInteger(c.bytes) && c.bytes >= 1)) throw new SpecError(`${what}: bytes must be at least 1 (got ${c.bytes})`);
  if (c.file === undefined) {
    if (c.bytes === undefined) throw new SpecError(`${what}: give its size ("bytes") or its contents ("file")`);
    if (c.layout || c.channels) throw new SpecError(`${what}: layout and channels describe an image file (.png, .bmp); this buffer has no file`);
    return { name, bytes: c.bytes, align };
  }
  const file = c.file;
  let raw: Uint8Array;
  try {
    raw = read(file);
  } catch (e) {
    throw new SpecError(`${what}: ${e instanceof Error && e.message ? e.message : `cannot read ${file}`}`);
  }
  let data: Uint8Array;
  try {
    if (imageKind(file)) data = decodeImage(file, raw, { layout: c.layout, channels: c.channels }).data;
    else if (c.layout || c.channels) throw new SpecError(`layout and channels describe an image file (.png, .bmp), not ${file}`);
    else if (file.toLowerCase().endsWith('.npy')) data = npyLoadBytes(raw, file);
    else data = raw;
  } catch (e) {
    if (e instanceof ImageError || e instanceof NpyError || e instanceof SpecError) throw new SpecError(`${what}: ${e.message}`);
    throw e;
  }
  if (data.length === 0 && c.bytes === undefined) throw new SpecError(`${what}: ${file} holds no data; give the size with "bytes"`);
  if (c.bytes !== undefined && c.bytes < data.length)
    throw new SpecError(`${what}: ${file} holds ${data.length} bytes, more than its ${c.bytes} bytes ("bytes")`);
  return { name, bytes: c.bytes ?? data.length, align, data, file };
}

/**
 * Places the buffers in MEM, in order, through the machine's allocator (after the C globals: the C stack
 * and the heap come after them) and writes their contents. Throws SpecError when MEM is too small.
 */
export function placeBuffers(m: Machine, specs: readonly BufferSpec[]): RunBuffer[] {
  return specs.map((b) => {
    let address: number;
    try {
      address = m.alloc(b.bytes, b.align);
    } catch (e) {
      if (e instanceof SimError) throw new SpecError(`buffer ${b.name} (${b.bytes} bytes): ${e.message}`);
      throw e;
    }
    m.mem.fill(0, address, address + b.bytes);
    if (b.data) m.mem.set(b.data, address);
    return { name: b.name, address, bytes: b.bytes };
  });
}

/** The entry's arguments with each `"@name"` / `"@name+bytes"` replaced by that buffer's address. Throws SpecError for an unknown buffer. */
export function resolveArgs(args: readonly (number | string)[], buffers: readonly RunBuffer[]): number[] {
  return args.map((a, i) => {
    if (typeof a === 'number') return a;
    const m = new RegExp(BUFFER_ARG).exec(a);
    if (!m) throw new SpecError(`argument ${i + 1}: ${JSON.stringify(a)} is neither an integer nor a buffer reference ("@name", "@name+bytes")`);
    const [name, plus] = a.slice(1).split('+');
    const b = buffers.find((x) => x.name === name);
    if (!b)
      throw new SpecError(
        `argument ${i + 1} (${a}): ${noBuffer(
          name,
          buffers.map((x) => x.name),
        )}`,
      );
    const off = plus === undefined ? 0 : Number(plus);
    if (off > b.bytes) throw new SpecError(`argument ${i + 1} (${a}): ${off} is past the end of ${name} (${b.bytes} bytes)`);
    return b.address + off;
  });
}

/** `buffer NAME: 0xADDR, N bytes`: how the CLI and the editor's run summary say where a buffer is. */
export function bufferText(b: RunBuffer): string {
  return `buffer ${b.name}: 0x${b.address.toString(16)}, ${b.bytes} bytes`;
}

/** "no buffer named x (buffers: a, b)" — or "(this configuration has no buffers)". */
export function noBuffer(name: string, names: readonly string[]): string {
  return `no buffer named ${name} (${names.length ? `buffers: ${names.join(', ')}` : 'this configuration has no buffers'})`;
}

const DTYPE_BYTES: Record<DumpDtype, number> = { u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, f32: 4, word12: 1 };

/**
 * A dump of a configuration as the simulator's DumpSpec: `{buffer, dtype, shape?, count?}` reads MEM at
 * the buffer (count: shape's product, else what the buffer holds); `{space, where, count, dtype}` as it
 * is. `shape` must multiply to the count. Throws SpecError.
 */
export function dumpSpecOf(d: DumpConfig, buffers: readonly BufferSpec[], parse: (text: string) => DumpSpec): DumpSpec {
  const shapeCount = d.shape?.reduce((a, b) => a * b, 1);
  if (d.buffer !== undefined) {
    if (d.space !== undefined || d.where !== undefined)
      throw new SpecError(`dump of buffer ${d.buffer}: give "buffer" or "space" and "where", not both (a buffer is in MEM)`);
    const b = buffers.find((x) => x.name === d.buffer);
    if (!b)
      throw new SpecError(
        `dump of buffer ${d.buffer}: ${noBuffer(
          d.buffer,
          buffers.map((x) => x.name),
        )}`,
      );
    const count = d.count ?? shapeCount ?? Math.floor(b.bytes / DTYPE_BYTES[d.dtype]);
    if (count < 1) throw new SpecError(`dump of buffer ${d.buffer}: ${b.bytes} bytes hold no ${d.dtype} element`);
    return withShape(parse(dumpText({ space: 'MEM', where: d.buffer, count, dtype: d.dtype, file: d.file })), d.shape, shapeCount);
  }
  if (d.space === undefined || d.where === undefined || d.count === undefined)
    throw new SpecError(`dump ${JSON.stringify(d)}: give "buffer", or "space", "where" and "count"`);
  return withShape(parse(dumpText(d)), d.shape, shapeCount);
}

function withShape(spec: DumpSpec, shape: number[] | undefined, product: number | undefined): DumpSpec {
  if (!shape) return spec;
  if (product !== spec.count) throw new SpecError(`dump ${spec.text}: shape [${shape.join(', ')}] holds ${product} elements, not ${spec.count}`);
  return { ...spec, shape };
}
