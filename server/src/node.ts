/** Language server entry for Node (desktop extension host, CLI tests): stdio or IPC transport. */
import { readFileSync, statSync } from 'node:fs';
import { format } from 'node:util';
import { createConnection, ProposedFeatures, type Connection } from 'vscode-languageserver/node';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import { READ_FILE_MAX_BYTES } from '../../core/protocol/lspExt';
import { nodeSimulator } from './simulator';
import { readBinaryConfined } from './fileAccess';
import { startServer } from './server';
import { LspFraming } from './stdioFraming';

declare const TENSOR_LENS_VERSION: string;

/**
 * Over stdio the input goes through LspFraming first: a malformed header (`Content-Length: abc`) is
 * dropped with a line on stderr and the server reads on at the next message (the library's reader
 * would wedge). Other transports (IPC, sockets) are left to the library.
 */
function connect(): Connection {
  if (!process.argv.includes('--stdio')) return createConnection(ProposedFeatures.all);
  const input = process.stdin.pipe(new LspFraming((why) => process.stderr.write(`[tensor-lens server] LSP input: ${why}\n`)));
  const connection = createConnection(ProposedFeatures.all, input, process.stdout);
  // what the library does for --stdio: nothing but LSP messages may go to stdout
  const log = (...a: unknown[]) => connection.console.log(format(...a));
  console.log = console.info = console.debug = console.trace = console.dir = log;
  console.warn = (...a: unknown[]) => connection.console.warn(format(...a));
  console.error = (...a: unknown[]) => connection.console.error(format(...a));
  return connection;
}

const connection = connect();
startServer(connection, {
  version: typeof TENSOR_LENS_VERSION === 'string' ? TENSOR_LENS_VERSION : 'dev',
  loadPcore: loadPcoreView,
  simulator: nodeSimulator(__dirname),
  readDisk(path) {
    try {
      const st = statSync(path);
      if (!st.isFile() || st.size > READ_FILE_MAX_BYTES) return undefined;
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
  readBinary: (path, roots) => readBinaryConfined(path, roots),
});
process.on('uncaughtException', (e) => connection.console.error(`[uncaught] ${e?.stack ?? e}`));
