/** File access for the CLI: real files, with a size cap so a huge file cannot exhaust memory. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileSystem } from '../core/project/fileSystem';

export const MAX_FILE_BYTES = 256 * 1024 * 1024;

export const nodeFs: FileSystem = {
  read(path) {
    try {
      const st = statSync(path);
      if (!st.isFile() || st.size > MAX_FILE_BYTES) return undefined;
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
};

/** Files below `dir` (skipping dot folders and node_modules), sorted. */
export function walk(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
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
      else if (st.isFile()) out.push(p);
    }
  };
  visit(dir);
  return out;
}
