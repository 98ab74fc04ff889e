/** Runs of programs written to disk by a test: a temporary file tree, and a run with a fresh Project over it. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Project } from '../../core/project/project';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import { runProgram, type RunOptions, type RunResult } from '../../core/sim/run';
import { nodeFs } from '../../cli/nodeFs';
import { nodeLoadWasm } from '../../node/wasm';

/** Writes `files` (relative paths, folders created) under a new temporary folder; returns the folder. */
export function tempTree(files: Record<string, string>, prefix = 'tl-test-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

/** Runs `file` as the CLI would (a Project reading the disk, the Node wasm loader). */
export function runFile(file: string, o: Partial<RunOptions> = {}): Promise<RunResult> {
  return runProgram({ project: new Project({ fs: nodeFs, loadPcore: loadPcoreView }), file, loadWasm: nodeLoadWasm, ...o });
}
