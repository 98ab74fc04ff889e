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
