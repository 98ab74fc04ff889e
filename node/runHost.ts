/**
 * The `RunHost` of Node (CLI, the language server's simulator worker, the debug target worker).
 *
 * node/ holds the Node adapters shared by the CLI, the server, the debugger and the tests: core/ is
 * plain TypeScript that also runs in a browser worker, so whatever needs `node:*` lives here, once,
 * rather than in each of its users.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { loadPcoreView } from '../core/project/pcoreAdapter';
import { MAX_FILE_BYTES, readFileBytes, readFileText } from './files';
import { nodeLoadWasm } from './wasm';
import type { RunHost } from '../core/sim/prepare';

/**
 * Files from disk (regular files only, through node/files.ts), unsaved editor contents (`overlay`, by absolute path) first; texts larger
 * than `maxTextBytes` are not read, nor loads larger than `maxBytes` (both 256 MiB by default).
 */
export function nodeRunHost(opts: { overlay?: Record<string, string>; maxTextBytes?: number; maxBytes?: number } = {}): RunHost {
  const overlay = opts.overlay ?? {};
  const max = opts.maxTextBytes ?? MAX_FILE_BYTES;
  return {
    readText(p) {
      if (Object.prototype.hasOwnProperty.call(overlay, p)) return overlay[p];
      try {
        return readFileText(p, max);
      } catch {
        return undefined;
      }
    },
    readBytes: (p) => readFileBytes(p, opts.maxBytes ?? MAX_FILE_BYTES),
    resolve: (base, rel) => (isAbsolute(rel) ? rel : resolve(base, rel)),
    dirname,
    loadWasm: nodeLoadWasm,
    loadPcore: loadPcoreView,
  };
}
