/**
 * The `RunHost` of Node (CLI, the language server's simulator worker, the debug target worker).
 *
 * node/ holds the Node adapters shared by the CLI, the server, the debugger and the tests: core/ is
 * plain TypeScript that also runs in a browser worker, so whatever needs `node:*` lives here, once,
 * rather than in each of its users.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { loadPcoreView } from '../core/project/pcoreAdapter';
import { nodeLoadWasm } from './wasm';
import type { RunHost } from '../core/sim/prepare';

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
