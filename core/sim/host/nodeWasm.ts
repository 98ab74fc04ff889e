/**
 * Node helper: where web-tree-sitter's runtime wasm and tree-sitter-c's grammar wasm are
 * installed (for the CLI, the language server and tests). Browser workers fetch the files
 * themselves and pass their bytes to `compileProgram` instead.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { WasmLoader, WasmSources } from './syntax';

declare const __filename: string | undefined;

function nodeRequire(): NodeRequire {
  // CommonJS (bundled CLI/server, tsx) has `require`; ESM gets one from createRequire
  if (typeof require === 'function') return require;
  return createRequire(typeof __filename === 'string' ? __filename : process.cwd() + '/');
}

/** Absolute paths of the two wasm files. */
export function nodeWasmPaths(): { runtime: string; c: string } {
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
