/**
 * A real LSP client for the tests and the benchmark: spawns `node dist/server/node.js --stdio` and
 * talks to it through vscode-languageserver-protocol's `createProtocolConnection` over the child's
 * stdin/stdout (recipe B of the research notes). Nothing here reaches into the server's code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../core/protocol/serverProcess';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';

/** Repository root (this file is test/lsp/lspClient.ts). */
export const ROOT = resolve(__dirname, '..', '..');
export const SERVER_JS = resolve(ROOT, 'dist/server/node.js');

export const TPROG = 'tensor-program';
export const PCORE = 'pcore';

export function uriOf(path: string): string {
  return pathToFileURL(resolve(ROOT, path)).href;
}

/** Throws a clear error when the server bundle has not been built. */
export function requireServerBundle(): void {
  if (!existsSync(SERVER_JS)) throw new Error(`Language server bundle ${SERVER_JS} is missing: run \`npm run build\` before the LSP tests/benchmark.`);
}

interface Waiter {
  uri: string;
  pred: (p: PublishDiagnosticsParams) => boolean;
  resolve: (p: PublishDiagnosticsParams) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

export interface StartOptions {
  initializationOptions?: unknown;
  /** Node flags for the server process; default: the client's (`SERVER_NODE_FLAGS`). */
  nodeArgs?: readonly string[];
  /** Workspace folders (paths) sent in `initialize`, with change notifications; default: the repository as `rootUri`. */
  workspaceFolders?: readonly string[];
  /** Answers `workspace/configuration` per item (and says so in the capabilities, so the server pulls its settings); default: no pull, null answers. */
  configuration?: (item: { section?: string; scopeUri?: string }) => unknown;
  /** `capabilities.experimental` of `initialize` (e.g. the client's announcement that it answers tensorLens/readFile). */
  experimental?: Record<string, unknown>;
}

export class LspClient {
  /** Every publishDiagnostics received, by URI, in arrival order. */
  readonly published = new Map<string, PublishDiagnosticsParams[]>();
  /** window/logMessage lines of the server. */
  readonly logs: string[] = [];
  stderr = '';
  exitCode: number | null | undefined = undefined;
  exitSignal: NodeJS.Signals | null = null;
  initializeResult!: InitializeResult;
  /** Wall time from spawn to the initialize result, ms. */
  startToInitializeMs = 0;
  private readonly versions = new Map<string, number>();
  private waiters: Waiter[] = [];

  private constructor(
    readonly child: ChildProcess,
    readonly conn: ProtocolConnection,
  ) {}

  static async start(opts: StartOptions = {}): Promise<LspClient> {
    requireServerBundle();
    const t0 = performance.now();
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? SERVER_NODE_FLAGS), SERVER_JS, '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const conn = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const c = new LspClient(child, conn);
    child.stderr!.on('data', (d) => (c.stderr += String(d)));
    child.on('exit', (code, signal) => {
      c.exitCode = code;
      c.exitSignal = signal;
      for (const w of c.waiters)
        w.reject(new Error(`server exited (code ${code}, signal ${signal}) while waiting for diagnostics of ${w.uri}\nstderr:\n${c.stderr}`));
      c.waiters = [];
    });
    // a write to a dead server must fail the test, not crash the runner
    child.stdin!.on('error', () => undefined);
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      const list = c.published.get(p.uri) ?? [];
      list.push(p);
      c.published.set(p.uri, list);
      c.waiters = c.waiters.filter((w) => {
        if (w.uri !== p.uri || !w.pred(p)) return true;
        clearTimeout(w.timer);
        w.resolve(p);
        return false;
      });
    });
    conn.onNotification(LogMessageNotification.method, (p: { message: string }) => void c.logs.push(p.message));
    // server→client requests the server may send (configuration, refresh, registration, progress)
    conn.onRequest('workspace/configuration', (p: { items?: { section?: string; scopeUri?: string }[] }) =>
      (p.items ?? []).map((item) => (opts.configuration ? opts.configuration(item) : null)),
    );
    for (const m of [
      'client/registerCapability',
      'client/unregisterCapability',
      'window/workDoneProgress/create',
      'workspace/inlayHint/refresh',
      'workspace/semanticTokens/refresh',
      'workspace/codeLens/refresh',
      'workspace/diagnostic/refresh',
    ])
      conn.onRequest(m, () => null);
    conn.listen();
    c.initializeResult = await conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(opts.workspaceFolders?.[0] ?? ROOT).href,
      capabilities: {
        ...(opts.experimental ? { experimental: opts.experimental } : {}),
        workspace: { ...(opts.workspaceFolders ? { workspaceFolders: true } : {}), ...(opts.configuration ? { configuration: true } : {}) },
        textDocument: {
          hover: { contentFormat: ['markdown', 'plaintext'] },
          publishDiagnostics: { versionSupport: true, relatedInformation: true },
          synchronization: { didSave: false, dynamicRegistration: false },
        },
      },
      initializationOptions: opts.initializationOptions,
      workspaceFolders: opts.workspaceFolders?.map((f) => ({ uri: pathToFileURL(f).href, name: f })) ?? null,
    });
    c.startToInitializeMs = performance.now() - t0;
    await conn.sendNotification(InitializedNotification.type, {});
    return c;
  }

  get alive(): boolean {
    return this.exitCode === undefined;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Opens a document; `text` defaults to the file's contents on disk. Returns its URI. */
  async open(path: string, languageId: string, text?: string): Promise<string> {
    const abs = resolve(ROOT, path);
    const uri = pathToFileURL(abs).href;
    this.versions.set(uri, 1);
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text: text ?? readFileSync(abs, 'utf8') },
    });
    return uri;
  }

  /** Sends a didChange (incremental or full) and returns the new version. */
  async change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: changes });
    return version;
  }

  async close(uri: string): Promise<void> {
    this.versions.delete(uri);
    await this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  version(uri: string): number | undefined {
    return this.versions.get(uri);
  }

  /**
   * Resolves with the first publishDiagnostics for `uri` (already received or future) that
   * satisfies `pred`; by default one carrying the document's current version.
   */
  diagnostics(uri: string, pred?: (p: PublishDiagnosticsParams) => boolean, timeoutMs = 10_000): Promise<PublishDiagnosticsParams> {
    const want = this.versions.get(uri);
    const test = pred ?? ((p: PublishDiagnosticsParams) => p.version === want);
    const seen = (this.published.get(uri) ?? []).filter(test).pop();
    if (seen) return Promise.resolve(seen);
    if (!this.alive) return Promise.reject(new Error(`server is not running (exit ${this.exitCode})`));
    return new Promise((res, rej) => {
      const w: Waiter = {
        uri,
        pred: test,
        resolve: res,
        reject: rej,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((x) => x !== w);
          const got = (this.published.get(uri) ?? []).map((p) => `v${p.version}: ${p.diagnostics.length} diagnostics`).join(', ') || 'none';
          rej(new Error(`no matching publishDiagnostics for ${uri} within ${timeoutMs} ms (received: ${got})`));
        }, timeoutMs),
      };
      this.waiters.push(w);
    });
  }

  /** Shutdown + exit; resolves with the exit code. Kills the process if it does not exit in time. */
  async shutdown(timeoutMs = 5000): Promise<number | null> {
    if (!this.alive) return this.exitCode ?? null;
    const exited = new Promise<number | null>((res) => this.child.once('exit', (code) => res(code)));
    await this.conn.sendRequest(ShutdownRequest.type);
    await this.conn.sendNotification(ExitNotification.type);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await exited;
    clearTimeout(timer);
    this.conn.dispose();
    return code;
  }

  /** Kills the server (test cleanup after a failure). */
  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
    this.conn.dispose();
  }

  /** Resident set size of the server process from /proc/<pid>/status, in KiB (undefined off Linux). */
  rssKiB(): { rss: number; hwm: number } | undefined {
    try {
      const s = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const rss = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(s)?.[1]);
      const hwm = Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(s)?.[1]);
      return Number.isFinite(rss) ? { rss, hwm } : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Position of the `n`-th (0-based) occurrence of `needle` on `line` (0-based) of `text`, plus `delta` characters. */
export function posOf(text: string, line: number, needle: string, delta = 0, n = 0): { line: number; character: number } {
  const l = text.split(/\r\n|\r|\n/)[line];
  if (l === undefined) throw new Error(`no line ${line}`);
  let at = -1;
  for (let i = 0; i <= n; i++) {
    at = l.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`\`${needle}\` (#${n}) not found on line ${line + 1}: ${l}`);
  }
  return { line, character: at + delta };
}
