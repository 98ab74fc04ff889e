/**
 * Custom LSP requests and notifications between the Tensor Lens client and server (the counterpart of
 * rust-analyzer's lsp_ext.ts). Each is a typed `RequestType`/`NotificationType`, so a call site cannot
 * pair a method with the wrong parameters or result: the client (`client.sendRequest(RunRequest, …)`),
 * the server (`connection.onRequest(RunRequest, …)`) and the tests all name these objects, never the method string.
 *
 * `vscode-jsonrpc` is the one import besides plain types: its package entry is the platform-neutral
 * `lib/common` API (no Node modules), so this file also goes into the web-worker server and the web
 * extension host. Client and server libraries (vscode-languageclient 11, vscode-languageserver 11) share
 * it through one vscode-languageserver-protocol (3.18.5 → jsonrpc 10): one copy is bundled, and these
 * types are the ones both libraries accept.
 */
import { NotificationType, RequestType, RequestType0 } from 'vscode-jsonrpc';
import type { RunConfig } from '../sim/runConfig';
import type { RunSummary } from '../sim/trace';
import type { StatementRun, TraceStep } from './trace';
import type { RunBuffer } from './webview';

/** `tensorLens/transferPreview`: markdown listing each transfer of a function (or the file) with its element table. */
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
export const TransferPreviewRequest = new RequestType<TransferPreviewParams, TransferPreviewResult, void>('tensorLens/transferPreview');

/** `tensorLens/serverStatus`: what the server is doing (shown by the client's status item). */
export interface ServerStatusResult {
  version: string;
  documents: number;
  lastCheckMs: number;
  dialect: string;
  /** Process id of the server (desktop: a Node process; absent for the web worker). */
  pid?: number;
  /** Node flags of the server process (desktop: the client starts it with SERVER_NODE_FLAGS). */
  execArgv?: string[];
}
export const ServerStatusRequest = new RequestType0<ServerStatusResult, void>('tensorLens/serverStatus');

/**
 * `tensorLens/documentStatus`: what the server made of one open document — the client's language
 * status item shows it (the dialect a tensor program is read in, the files paired with it).
 */
export interface DocumentStatusParams {
  uri: string;
}
export interface DocumentStatusResult {
  /** The language the server reads it as: `tensor-program`, `pcore` or `tensor-layout`; absent when the document is not open in the server. */
  language?: string;
  /** Tensor programs: the dialect it is read in (with `auto`, decided by its constructs). */
  dialect?: 'ztachip' | 'guide';
  /** Tensor programs: the `tensorLens.dialect` setting it was read with (`auto`, `ztachip` or `guide`). */
  dialectSetting?: string;
  /** URIs of the files paired with it: a tensor program's PCORE program (`.p` of the same name), a PCORE program's tensor programs. */
  paired: string[];
  /** Layout specs: how many tensors it declares. */
  tensors?: number;
}
export const DocumentStatusRequest = new RequestType<DocumentStatusParams, DocumentStatusResult, void>('tensorLens/documentStatus');

/**
 * `tensorLens/run`: runs a tensor program on the simulator (in a worker; cancel with $/cancelRequest).
 * The run configuration of the program at `uri` (core/sim/runConfig.ts); relative load and dump files
 * start from the program's folder; without `includePaths` or `dialect` the server's settings apply
 * (those the checker reads the program with).
 */
export type RunParams = { uri: string } & Omit<RunConfig, 'program'>;
export interface RunWarningMessage {
  uri: string;
  line: number;
  column: number;
  message: string;
  /** How many times it happened there. */
  count: number;
}
export interface RunResultMessage {
  runId: number;
  entry: string;
  summary: RunSummary;
  /** What the simulator did not model exactly, once per place and message (the server shows them as Warning diagnostics). */
  warnings: RunWarningMessage[];
  /** The executed steps as the simulator recorded them (the client checks them with checkTraceSteps). */
  trace: TraceStep[];
  /** Trace steps beyond this many are not sent (they stay readable through readMemory by step number). */
  traceTruncated: boolean;
  dumps: { space: string; where: string; dtype: string; values?: number[]; file?: string }[];
  output: string;
  error: { uri: string; line: number; column: number; message: string; kind: string; stack: string[] } | null;
  /** C globals of the host program with their MEM byte addresses (the memory inspector labels them). */
  globals?: { name: string; address: number; size: number; type: string; file?: string; line?: number }[];
  /** The run's named buffers (tensorlens.run.json `buffers`) where the simulator placed them in MEM, in the configuration's order. */
  buffers?: RunBuffer[];
}
export const RunRequest = new RequestType<RunParams, RunResultMessage, void>('tensorLens/run');

/** `tensorLens/runProgress` (server → client notification). */
export interface RunProgressParams {
  uri: string;
  steps: number;
  statements: number;
}
export const RunProgressNotification = new NotificationType<RunProgressParams>('tensorLens/runProgress');

/**
 * `tensorLens/readMemory`: bytes of a space of run `runId`, as they were after a step (base64). The
 * server keeps the last few runs; a read of an unknown or evicted run fails (a ResponseError,
 * InvalidParams) with a message saying so.
 */
export interface ReadMemoryParams {
  runId: number;
  space: string;
  start: number;
  length: number;
  /** −1 = before the first step; omitted = at the end of the run. */
  step?: number;
}
export interface ReadMemoryResult {
  /** Little-endian bytes (PCORE spaces: int16 words) as base64. */
  data: string;
  /** Element unit: 1 for byte spaces, 2 for word spaces. */
  unit: number;
  size: number;
}
export const ReadMemoryRequest = new RequestType<ReadMemoryParams, ReadMemoryResult, void>('tensorLens/readMemory');

/**
 * `tensorLens/readFile` (server → client): a file the server needs that is not open in the editor (the `.p` beside a `.m`, an
 * included header, a `fibers(file=…)` `.csfbin`) when the server cannot read it itself — in the browser (a web worker has no
 * file system) and, on the desktop, for a URI that is not `file:` (a virtual workspace). The client reads it with
 * `vscode.workspace.fs` under the rules the Node server keeps on disk: a regular file of at most READ_FILE_MAX_BYTES, and with
 * `roots`, only a file under one of them reached through no symbolic link below the root (where a link leads, that file system
 * cannot tell). The server asks only a client that announced CLIENT_READS_FILES in `capabilities.experimental`.
 */
export interface ReadFileParams {
  uri: string;
  /** `text` (UTF-8) or `bytes` (answered as base64). */
  as: 'text' | 'bytes';
  /** URIs of the folders the file must lie under (a layout spec's `.csfbin`); absent: anywhere. */
  roots?: string[];
}
export type ReadFileResult =
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; base64: string }
  | { kind: 'missing' }
  /** A file the rules refuse; `reason` says why and names no content (`a folder, not a file`, `larger than … bytes`). */
  | { kind: 'refused'; reason: string };
export const ReadFileRequest = new RequestType<ReadFileParams, ReadFileResult, void>('tensorLens/readFile');
/** The client capability (`capabilities.experimental[CLIENT_READS_FILES] === true`) that says the client answers ReadFileRequest. */
export const CLIENT_READS_FILES = 'tensorLensReadFile';
/** The largest file the language server reads, from disk or through the client (64 MiB). */
export const READ_FILE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * `tensorLens/debugValues` (client → server notification): a `tensor-lens` debug session stopped, with
 * what each `>` statement did up to this stop (the adapter's `runValues` answer, debug/protocol.ts), so
 * hovers and inlay hints show "at this stop"; `statements: null` when the session runs on or has ended.
 * The server checks the records (checkStatementRuns, core/protocol/trace.ts).
 */
export interface DebugValuesParams {
  /** The debug session's id (a later session's stop replaces an earlier one's). */
  session: string;
  statements: StatementRun[] | null;
}
export const DebugValuesNotification = new NotificationType<DebugValuesParams>('tensorLens/debugValues');

/*
 * Commands the server's code lenses run (the client registers them; arguments: document URI, then the
 * function or tensor name).
 */
/** "▶ Run" on a function of a tensor program (client/src/activate.ts). */
export const RUN_COMMAND = 'tensorLens.run';
/** "Create Run Configuration" on an entry function with parameters (client/src/createRunConfig.ts). */
export const CREATE_RUN_CONFIG_COMMAND = 'tensorLens.createRunConfiguration';
/** "Preview transfers" on a function of a tensor program (client/src/activate.ts). */
export const PREVIEW_TRANSFERS_COMMAND = 'tensorLens.previewTransfers';
/** "Show layout map" on a tensor of a layout spec (client/src/layoutMapPanel.ts). */
export const OPEN_LAYOUT_MAP_COMMAND = 'tensorLens.openLayoutMap';
