/** Language server entry for the browser: runs in a web worker; files that are not open are read through the client. */
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { loadPcoreView } from '../../core/project/pcoreAdapter';
import { startServer } from './server';

declare const TENSOR_LENS_VERSION: string;
declare const self: DedicatedWorkerGlobalScope;

const connection = createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self));
startServer(connection, {
  version: typeof TENSOR_LENS_VERSION === 'string' ? TENSOR_LENS_VERSION : 'dev',
  loadPcore: loadPcoreView,
  // no file system: files that are not open are read through the client (clientFiles.ts)
});
