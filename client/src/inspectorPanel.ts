/**
 * The memory inspector webview panel: one panel, showing the memories of the last run (read from the
 * language server's simulator worker through `tensorLens/readMemory`), answered by `WebviewHost`.
 */
import * as vscode from 'vscode';
import { WebviewHost } from '../../core/inspect/host';
import { createRemoteSource } from '../../core/inspect/remoteSource';
import type { ReadMemoryParams, ReadMemoryResult, RunResultMessage } from '../../core/protocol/lspExt';
import type { SourceLoc, StepRecord } from '../../core/protocol/webview';
import { inspectorHtml } from '../../media/src/html';

export const INSPECTOR_VIEW_TYPE = 'tensorLens.inspector';

function nonce(): string {
  const b = new Uint8Array(24);
  globalThis.crypto.getRandomValues(b);
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_');
}

/** A trace `file` is a path or a URI. */
function fileUri(file: string): vscode.Uri {
  return /^[a-z][\w+.-]+:/i.test(file) && !/^[a-z]:[\\/]/i.test(file) ? vscode.Uri.parse(file) : vscode.Uri.file(file);
}

/**
 * The source to allow in the CSP. `webview.cspSource` may hold several tokens (`'self' https://*.vscode-cdn.net`)
 * that `webviewCsp` cannot take (it strips quotes and spaces), so pass its one host token (else the
 * origin the bundles come from, when that is a valid CSP host).
 */
function cspSourceFor(webview: vscode.Webview, resource: string): string {
  const token = webview.cspSource.split(/\s+/).find((t) => t && !t.startsWith("'"));
  if (token) return token;
  try {
    const u = new URL(resource);
    if (/^https?:$/.test(u.protocol) && /^[\w.-]+(:\d+)?$/.test(u.host)) return u.origin;
  } catch {
    /* fall through */
  }
  return webview.cspSource;
}

export class InspectorPanel {
  private panel: vscode.WebviewPanel | undefined;
  private host: WebviewHost | undefined;
  private runId: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly readMemory: (p: ReadMemoryParams) => Promise<ReadMemoryResult>,
    private readonly output: vscode.LogOutputChannel,
  ) {}

  get visible(): boolean {
    return !!this.panel;
  }

  get title(): string | undefined {
    return this.panel?.title;
  }

  /** Opens (or reveals) the panel on `run` and returns its title (calls are served one after another). */
  show(run: RunResultMessage, name: string, preserveFocus = false): Promise<string> {
    const next = this.queue.then(() => this.open(run, name, preserveFocus));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async open(run: RunResultMessage, name: string, preserveFocus: boolean): Promise<string> {
    const title = `Memory: ${name}${run.entry ? ' (' + run.entry + ')' : ''}`;
    const source = await createRemoteSource({
      runId: run.runId,
      title,
      readMemory: this.readMemory,
      trace: run.trace as StepRecord[],
      traceTruncated: run.traceTruncated,
      reveal: (loc, keep) => void this.reveal(loc, keep),
      log: (level, message) => this.output[level](`[inspector] ${message}`),
      save: (n, bytes) => this.save(n, bytes),
    });
    const fresh = !this.panel;
    if (!this.panel) {
      const media = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
      const panel = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus }, { enableScripts: true, localResourceRoots: [media], retainContextWhenHidden: true });
      this.panel = panel;
      panel.onDidDispose(() => {
        if (this.panel === panel) {
          this.panel = undefined;
          this.host = undefined;
        }
      });
      panel.webview.onDidReceiveMessage((m) => void this.host?.handle(m));
    }
    const panel = this.panel;
    panel.title = title;
    const same = this.runId === run.runId;
    this.runId = run.runId;
    this.host = new WebviewHost(source, (m) => panel.webview.postMessage(m));
    if (fresh) {
      const media = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
      const styleUri = panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'inspector.css')).toString();
      panel.webview.html = inspectorHtml({
        scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'inspector.js')).toString(),
        styleUri,
        nonce: nonce(),
        cspSource: cspSourceFor(panel.webview, styleUri),
        title,
      });
    } else if (!same) this.host.refresh();
    panel.reveal(undefined, preserveFocus);
    return title;
  }

  private async reveal(loc: SourceLoc, preserveFocus?: boolean): Promise<void> {
    try {
      const doc = await vscode.workspace.openTextDocument(fileUri(loc.file));
      const pos = new vscode.Position(Math.max(0, loc.line - 1), Math.max(0, (loc.column ?? 1) - 1));
      const end = loc.endLine && loc.endLine > loc.line ? new vscode.Position(loc.endLine - 1, 0) : pos;
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: !!preserveFocus, selection: new vscode.Range(pos, end.isBefore(pos) ? pos : end) });
    } catch (e) {
      this.output.warn(`[inspector] cannot open ${loc.file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async save(name: string, bytes: Uint8Array): Promise<string | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({ defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined, saveLabel: 'Export' });
    if (!target) return undefined;
    await vscode.workspace.fs.writeFile(target, bytes);
    return target.scheme === 'file' ? target.fsPath : target.toString();
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
