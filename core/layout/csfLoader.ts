/**
 * `fibers(file="x.csfbin")` for hosts that can read files (language server, CLI, extension): the file
 * is resolved relative to the `.tlayout`'s folder, read through the host's `read` function, validated
 * with the `.csfbin` validator (formats.md §A.4, rules V1–V15) and turned into a `SparsePlacement`.
 * Problems are thrown as Errors whose message says what is wrong (the checker puts them on the
 * reference's range).
 *
 * Where a spec may read is the host's choice (`roots`): the language server confines it to the
 * workspace folders and the spec's own folder (a spec in an untrusted workspace must not read
 * `/etc/passwd`); this checks the path as written (`..`, absolute paths) and hands the roots to `read`,
 * which checks the real path (symbolic links) where there is a file system. The CLI, whose user is
 * trusted, gives none. A file that does not start like a `.csfbin` is reported without its bytes.
 */
import { parseCsf } from '../csf/codec';
import { dirname, FileAccessError, isInside, join, normalize } from '../project/fileSystem';
import type { SparsePlacement } from './models/sparse';

/**
 * Reads a file's bytes; undefined when it does not exist or cannot be read. With `roots`, the file's
 * real path (symbolic links resolved) must lie under one of them: else it throws a FileAccessError.
 */
export type ReadBytes = (path: string, roots?: readonly string[]) => Uint8Array | undefined;

export interface CsfLoaderOptions {
  /** The folders a spec at `spec` may read from (absent: anywhere, for a trusted user such as the CLI's). */
  roots?: (spec: string) => readonly string[];
  /** Parsed files by path (shared between loaders). */
  cache?: Map<string, Cached>;
}

export interface Cached {
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

/** Where a spec at `spec` may read `.csfbin` files from: the workspace folders and the spec's own folder (with what is under them). */
export function specRoots(spec: string, folders: readonly string[]): string[] {
  const own = spec ? dirname(spec.replace(/\\/g, '/')) : undefined;
  return own && own !== '.' && own !== '/' ? [...folders, own] : [...folders];
}

/**
 * Why a spec may not read `path` (resolved with `resolveSpecPath`) given its `roots`, judged on the path as written (an absolute
 * path, `..` leading out): undefined when it lies under one of them or when there are no roots (a trusted user).
 */
export function outsideRoots(path: string, roots: readonly string[] | undefined): string | undefined {
  if (!roots || roots.some((r) => isInside(path, r))) return undefined;
  return `${path} is outside the workspace (a layout spec reads .csfbin files in its workspace folders or its own folder)`;
}

/**
 * For a host that can tell a symbolic link but not where it leads (`vscode.workspace.fs`): the first path from the root holding `path`
 * down to `path` itself that `isLink` says is a link, or undefined (the roots themselves may be links: the workspace is where it is).
 */
export async function firstLinkBelowRoot(path: string, roots: readonly string[], isLink: (p: string) => Promise<boolean>): Promise<string | undefined> {
  const p = normalize(path.replace(/\\/g, '/'));
  // the deepest root holding the path: the fewest components to look at
  const root = roots
    .map((r) => normalize(r.replace(/\\/g, '/')))
    .filter((r) => isInside(p, r))
    .sort((a, b) => b.length - a.length)[0];
  if (root === undefined) return undefined;
  const rest = p.slice(root.length).split('/').filter(Boolean);
  let at = root === '/' ? '' : root;
  for (const part of rest) {
    at = `${at}/${part}`;
    if (await isLink(at)) return at;
  }
  return undefined;
}

/** An asynchronous file system that tells a symbolic link but not where it leads (`vscode.workspace.fs`); both throw for a missing file. */
export interface LinkBlindFs {
  isLink(path: string): Promise<boolean>;
  read(path: string): Promise<Uint8Array>;
}

/**
 * Reads ahead every `file="…"` of a spec at `spec` (`text`) for the synchronous `csfSparseLoader` of a host with an asynchronous file
 * system (the extension's layout map), where the language server would read it: under `roots` (`specRoots`). A path outside them
 * (absolute, `..`) is not read (the loader, given the same roots, refuses it in the server's words). As `fs` cannot tell where a link
 * leads, a symbolic link on the way from the root to the file is not followed: the returned reader refuses it (a FileAccessError).
 */
export async function readSpecFiles(text: string, spec: string, roots: readonly string[], fs: LinkBlindFs): Promise<ReadBytes> {
  const files = new Map<string, Uint8Array | FileAccessError>();
  const names = new Set<string>();
  for (const m of text.matchAll(/\bfile\s*=\s*"([^"\n]{1,1024})"/g)) names.add(m[1]);
  const isLink = (p: string) => fs.isLink(p).catch(() => false);
  await Promise.all(
    [...names].map(async (name) => {
      const path = resolveSpecPath(name, spec);
      if (!/\.csfbin$/i.test(path) || outsideRoots(path, roots)) return;
      try {
        const link = await firstLinkBelowRoot(path, roots, isLink);
        const what = link === path ? 'a symbolic link' : `${link} is a symbolic link`;
        if (link) files.set(path, new FileAccessError(`${what}, which the layout map does not follow (it cannot tell whether it leads outside the workspace)`));
        else files.set(path, await fs.read(path));
      } catch {
        /* missing: the loader says so */
      }
    }),
  );
  return (p) => {
    const f = files.get(p);
    if (f instanceof FileAccessError) throw f;
    return f;
  };
}

/**
 * A `loadSparse` for `analyzeLayout` reading through `read`. Parsed files are kept (by path, length
 * and a fingerprint of the bytes) so that re-checking a spec on every keystroke does not re-parse.
 */
export function csfSparseLoader(read: ReadBytes, opts: CsfLoaderOptions = {}): (file: string, from: string) => SparsePlacement | undefined {
  const cache = opts.cache ?? new Map<string, Cached>();
  return (file, from) => {
    const path = resolveSpecPath(file, from);
    if (!/\.csfbin$/i.test(path)) throw new Error(`expected a .csfbin file, got ${JSON.stringify(file)}`);
    const roots = opts.roots?.(from);
    const outside = outsideRoots(path, roots);
    if (outside) throw new Error(outside);
    let bytes: Uint8Array | undefined;
    try {
      bytes = read(path, roots);
    } catch (e) {
      // the host's refusal says why (a link leading outside the workspace, a special file); other failures are "not found"
      if (e instanceof FileAccessError) throw new Error(`${path}: ${e.message}`);
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
    // the first word (the order, 1..MAX_ORDER) is the format's magic: a file that fails it is not a
    // .csfbin, and its bytes are not shown (a link to a text file printed "found 1953460082", "root")
    if ((i.rule === 'V2' || i.rule === 'V3') && i.offset === 0) return new Error('not a .csfbin file (bad magic)');
    const where = [i.rule ? `rule ${i.rule}` : undefined, i.offset !== undefined ? `byte offset ${i.offset}` : undefined].filter(Boolean).join(', ');
    return new Error(`invalid .csfbin${where ? ` (${where})` : ''}: ${i.message}`);
  }
  const t = r.tensor;
  return { shape: [...t.shape], ptr: t.ptr, index: t.indices, mainBase: 0, metaBase: 0 };
}
