/** The `RunHost` of Node (CLI, the language server's simulator worker, the debug target worker). */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { loadPcoreView } from '../project/pcoreAdapter';
import { nodeLoadWasm } from './host/nodeWasm';
import type { RunHost } from './prepare';

/** Files from disk, unsaved editor contents (`overlay`, by absolute path) first; texts larger than `maxTextBytes` are not read. */
export function nodeRunHost(opts: { overlay?: Record<string, string>; maxTextBytes?: number } = {}): RunHost {
  const overlay = opts.overlay ?? {};
  const max = opts.maxTextBytes ?? 256 * 1024 * 1024;
  return {
    readText(p) {
      if (Object.prototype.hasOwnProperty.call(overlay, p)) return overlay[p];
      try {
        const st = statSync(p);
        return st.isFile() && st.size <= max ? readFileSync(p, 'utf8') : undefined;
      } catch {
        return undefined;
      }
    },
    readBytes: (p) => new Uint8Array(readFileSync(p)),
    resolve: (base, rel) => (isAbsolute(rel) ? rel : resolve(base, rel)),
    dirname,
    loadWasm: nodeLoadWasm,
    loadPcore: loadPcoreView,
  };
}
