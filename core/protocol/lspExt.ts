/**
 * Custom LSP requests and notifications between the Tensor Lens client and server (the typed
 * counterpart of rust-analyzer's lsp_ext.ts). Plain types only, so both sides and tests import it.
 */

/** `tensorLens/transferPreview`: markdown listing each transfer of a function (or the file) with its element table. */
export const TransferPreviewMethod = 'tensorLens/transferPreview';
export interface TransferPreviewParams {
  uri: string;
  /** C function name; all transfers of the file when absent. */
  function?: string;
  /** Rows per table (default 16). */
  rows?: number;
}
export interface TransferPreviewResult {
  markdown: string;
  transfers: number;
}

/** `tensorLens/serverStatus`: what the server is doing (shown by the client's status item). */
export const ServerStatusMethod = 'tensorLens/serverStatus';
export interface ServerStatusResult {
  version: string;
  documents: number;
  lastCheckMs: number;
  dialect: string;
}
