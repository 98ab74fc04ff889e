/** File access for the CLI: real files, with a size cap so a huge file cannot exhaust memory. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileSystem } from '../core/project/fileSystem';
import { readFileText, realPath } from '../node/files';

/** Regular files only, at most 256 MiB (node/files.ts); undefined when a file cannot be read. */
export const nodeFs: FileSystem = {
  read(path) {
    try {
      return readFileText(path);
    } catch {
      return undefined;
    }
  },
};

/**
 * Files below `dir` (skipping dot folders and node_modules), sorted. Each real directory is visited once
 * and each real file listed once (symbolic links to a folder above, or two links to one folder, are no loop).
 * `seen` holds the real paths already visited or listed (shared by the folders of one command).
 */
export function walk(dir: string, seen = new Set<string>()): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    const real = realPath(d);
    if (seen.has(real)) return;
    seen.add(real);
    let entries: string[];
    try {
      entries = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.startsWith('.') || e === 'node_modules') continue;
      const p = join(d, e);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) visit(p);
      else if (st.isFile()) {
        const rf = realPath(p);
        if (seen.has(rf)) continue;
        seen.add(rf);
        out.push(p);
      }
    }
  };
  visit(dir);
  return out;
}
