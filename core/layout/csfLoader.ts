/**
 * `fibers(file="x.csfbin")` for hosts that can read files (language server, CLI, extension): the file
 * is resolved relative to the `.tlayout`'s folder, read through the host's `read` function, validated
 * with the `.csfbin` validator (formats.md §A.4, rules V1–V15) and turned into a `SparsePlacement`.
 * Problems are thrown as Errors whose message says what is wrong (the checker puts them on the
 * reference's range).
 */
import { parseCsf } from '../csf/codec';
import { dirname, join } from '../project/fileSystem';
import type { SparsePlacement } from './models/sparse';

/** Reads a file's bytes; undefined when it does not exist or cannot be read. */
export type ReadBytes = (path: string) => Uint8Array | undefined;

interface Cached {
  length: number;
  sum: number;
  result: SparsePlacement | Error;
}

/** A cheap fingerprint of a file's bytes (FNV-1a over up to 64 KiB spread over the file, plus the length). */
function fingerprint(b: Uint8Array): number {
  let h = 0x811c9dc5;
  const step = Math.max(1, Math.floor(b.length / 65536));
  for (let i = 0; i < b.length; i += step) h = Math.imul(h ^ b[i], 0x01000193);
  if (b.length) h = Math.imul(h ^ b[b.length - 1], 0x01000193);
  return h >>> 0;
}

/** Where `file` (as written in the spec) lives for a spec at `from`. */
export function resolveSpecPath(file: string, from: string): string {
  const f = file.replace(/\\/g, '/');
  if (f.startsWith('/') || /^[a-z]:\//i.test(f) || !from) return f;
  return join(dirname(from.replace(/\\/g, '/')), f);
}

/**
 * A `loadSparse` for `analyzeLayout` reading through `read`. Parsed files are kept (by path, length
 * and a fingerprint of the bytes) so that re-checking a spec on every keystroke does not re-parse.
 */
export function csfSparseLoader(read: ReadBytes, cache = new Map<string, Cached>()): (file: string, from: string) => SparsePlacement | undefined {
  return (file, from) => {
    const path = resolveSpecPath(file, from);
    if (!/\.csfbin$/i.test(path)) throw new Error(`expected a .csfbin file, got ${JSON.stringify(file)}`);
    let bytes: Uint8Array | undefined;
    try {
      bytes = read(path);
    } catch {
      bytes = undefined;
    }
    if (!bytes) throw new Error(`file not found: ${path}`);
    const sum = fingerprint(bytes);
    const hit = cache.get(path);
    let result: SparsePlacement | Error;
    if (hit && hit.length === bytes.length && hit.sum === sum) result = hit.result;
    else {
      result = placementOf(bytes);
      cache.set(path, { length: bytes.length, sum, result });
    }
    if (result instanceof Error) throw result;
    return result;
  };
}

/** Validates a `.csfbin` and returns its placement at main entry 0 / metadata word 0, or the first problem. */
export function placementOf(bytes: Uint8Array): SparsePlacement | Error {
  const r = parseCsf(bytes);
  if (!r.ok) {
    const i = r.issues.find((x) => x.severity === 'error') ?? r.issues[0];
    const where = [i.rule ? `rule ${i.rule}` : undefined, i.offset !== undefined ? `byte offset ${i.offset}` : undefined].filter(Boolean).join(', ');
    return new Error(`invalid .csfbin${where ? ` (${where})` : ''}: ${i.message}`);
  }
  const t = r.tensor;
  return { shape: [...t.shape], ptr: t.ptr, index: t.indices, mainBase: 0, metaBase: 0 };
}
