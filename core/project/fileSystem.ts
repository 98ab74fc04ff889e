/** The files the engine may read: the host (CLI, language server, tests) decides where they come from. */
export interface FileSystem {
  /** File text, or undefined when it does not exist or cannot be read. */
  read(path: string): string | undefined;
}

/** Path helpers that work the same in Node and in a web worker (forward slashes). */
export function dirname(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? (i === 0 ? '/' : '.') : p.slice(0, i);
}

export function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

export function stripExt(p: string): string {
  const b = basename(p);
  const dot = b.lastIndexOf('.');
  return dot <= 0 ? p : p.slice(0, p.length - (b.length - dot));
}

export function extname(p: string): string {
  const b = basename(p);
  const dot = b.lastIndexOf('.');
  return dot <= 0 ? '' : b.slice(dot);
}

export function join(dir: string, rel: string): string {
  if (rel.startsWith('/')) return normalize(rel);
  return normalize(`${dir}/${rel}`);
}

export function normalize(p: string): string {
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return (abs ? '/' : '') + out.join('/');
}

/**
 * A file the host refuses to read, with a message that may be shown (it names no file content): a
 * symbolic link leading outside the allowed folders, a special file, a file too large.
 */
export class FileAccessError extends Error {
  override name = 'FileAccessError';
}

/** `path` with forward slashes, normalized (`..` and `.` resolved); Windows drive letters lower-cased. */
function comparable(p: string): string {
  const f = normalize(p.replace(/\\/g, '/'));
  return /^[a-z]:/i.test(f) ? f[0].toLowerCase() + f.slice(1) : f;
}

/** True when `path` is `root` or lies under it (absolute paths; `..` is resolved first, symbolic links are not). */
export function isInside(path: string, root: string): boolean {
  const p = comparable(path);
  const r = comparable(root);
  if (!r || !p) return false;
  if (p === r) return true;
  return p.startsWith(r.endsWith('/') ? r : `${r}/`);
}
