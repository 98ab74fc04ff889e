/** Language server entry for Node (desktop extension host, CLI tests): stdio or IPC transport. */
import { readFileSync, statSync } from 'node:fs';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import { nodeSimulator } from './simulator';
import { startServer } from './server';

declare const TENSOR_LENS_VERSION: string;

const MAX_FILE = 64 * 1024 * 1024;

const connection = createConnection(ProposedFeatures.all);
startServer(connection, {
  version: typeof TENSOR_LENS_VERSION === 'string' ? TENSOR_LENS_VERSION : 'dev',
  loadPcore: loadPcoreView,
  simulator: nodeSimulator(__dirname),
  readDisk(path) {
    try {
      const st = statSync(path);
      if (!st.isFile() || st.size > MAX_FILE) return undefined;
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
  readBinary(path) {
    try {
      const st = statSync(path);
      if (!st.isFile() || st.size > MAX_FILE) return undefined;
      return new Uint8Array(readFileSync(path));
    } catch {
      return undefined;
    }
  },
});
process.on('uncaughtException', (e) => connection.console.error(`[uncaught] ${e?.stack ?? e}`));
