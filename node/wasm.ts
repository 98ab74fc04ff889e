/**
 * Node helper: where web-tree-sitter's runtime wasm and tree-sitter-c's grammar wasm are
 * installed (for the CLI, the language server, the debugger and tests). Browser workers fetch the files
 * themselves and pass their bytes to `compileProgram` instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { WasmLoader, WasmSources } from '../core/sim/host/syntax';

declare const __filename: string | undefined;

function nodeRequire(): NodeRequire {
  // CommonJS (bundled CLI/server, tsx) has `require`; ESM gets one from createRequire
  if (typeof require === 'function') return require;
  return createRequire(typeof __filename === 'string' ? __filename : process.cwd() + '/');
}

declare const __dirname: string | undefined;

/** Absolute paths of the two wasm files: the copies the build puts in `dist/wasm/` (the packaged
 * extension has no node_modules), else the installed packages. */
export function nodeWasmPaths(): { runtime: string; c: string } {
  if (typeof __dirname === 'string') {
    for (const dir of [join(__dirname, 'wasm'), join(__dirname, '..', 'wasm')]) {
      const runtime = join(dir, 'web-tree-sitter.wasm');
      const c = join(dir, 'tree-sitter-c.wasm');
      if (existsSync(runtime) && existsSync(c)) return { runtime, c };
    }
  }
  const req = nodeRequire();
  return {
    runtime: req.resolve('web-tree-sitter/web-tree-sitter.wasm'),
    c: req.resolve('tree-sitter-c/tree-sitter-c.wasm'),
  };
}

/** A `loadWasm` for Node: reads both files. */
export const nodeLoadWasm: WasmLoader = async (): Promise<WasmSources> => {
  const p = nodeWasmPaths();
  return { runtime: new Uint8Array(readFileSync(p.runtime)), c: new Uint8Array(readFileSync(p.c)) };
};
