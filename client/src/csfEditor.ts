/**
 * The read-only custom editor of `.csfbin` sparse tensor files (`tensorLens.csfbin`). Opening reads only
 * the header and the pointers (positioned reads of local files; other schemes and the browser build read
 * the whole file once); the webview (media/src/csfview) asks for pages of the fiber table and of the
 * bytes, answered by `CsfViewHost`, which also validates the whole file in the background.
 * "Show in accelerator memory" (`tensorLens.csfbin.showInMemory`) loads the file into the accelerator's
 * two banks at the configured bases and opens the memory inspector on them.
 */
import * as vscode from 'vscode';
import { CsfView, bytesSource, type ByteSource } from '../../core/csf/view';
import { CsfViewHost } from '../../core/csf/viewHost';
import { createCsfSource, loadCsfAt } from '../../core/inspect/csfSource';
import { csfViewHtml, makeNonce } from '../../media/src/html';
import { openNodeFileSource } from './csfEditorFs';
import { cspSourceFor } from './webviewCsp';
import type { InspectorPanel } from './inspectorPanel';

export const CSF_VIEW_TYPE = 'tensorLens.csfbin';
export const CSF_SHOW_IN_MEMORY_COMMAND = 'tensorLens.csfbin.showInMemory';
/** Test/diagnostic command: the open viewers, the requests their webviews made and their validation state. */
export const CSF_DEBUG_STATE_COMMAND = 'tensorLens.csfbin.debugState';

const baseName = (uri: vscode.Uri) => uri.path.split('/').pop() || uri.toString();

/** Random access to a file: positioned reads for local files when Node's fs is there, else one whole read. */
export async function openByteSource(uri: vscode.Uri): Promise<ByteSource> {
  if (uri.scheme === 'file') {
    const s = await openNodeFileSource(uri.fsPath).catch(() => undefined);
    if (s) return s;
  }
  return bytesSource(await vscode.workspace.fs.readFile(uri));
}

class CsfDocument implements vscode.CustomDocument {
  constructor(
    readonly uri: vscode.Uri,
    readonly view: CsfView,
  ) {}
  dispose(): void {
    void this.view.close();
  }
}

class CsfEditorProvider implements vscode.CustomReadonlyEditorProvider<CsfDocument> {
  /** The document of the most recently active viewer. */
  active: vscode.Uri | undefined;
  /** Live viewers. */
  readonly hosts = new Set<{ uri: vscode.Uri; host: CsfViewHost; view: CsfView }>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly output: vscode.LogOutputChannel,
    private readonly showInMemory: (uri: vscode.Uri) => Promise<{ ok: boolean; message: string }>,
  ) {}

  async openCustomDocument(uri: vscode.Uri): Promise<CsfDocument> {
    const t0 = Date.now();
    const view = await CsfView.open(await openByteSource(uri));
    this.output.info(`[csfbin] opened ${baseName(uri)} (${view.size} bytes, ${view.rowCount} table rows) in ${Date.now() - t0} ms`);
    return new CsfDocument(uri, view);
  }

  async resolveCustomEditor(doc: CsfDocument, panel: vscode.WebviewPanel): Promise<void> {
    const media = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
    panel.webview.options = { enableScripts: true, localResourceRoots: [media] };
    const host = new CsfViewHost(doc.view, (m) => panel.webview.postMessage(m), {
      title: baseName(doc.uri),
      log: (level, message) => this.output[level](`[csfbin] ${message}`),
      showInMemory: () => this.showInMemory(doc.uri),
    });
    panel.webview.onDidReceiveMessage((m) => void host.handle(m));
    const entry = { uri: doc.uri, host, view: doc.view };
    this.hosts.add(entry);
    panel.onDidDispose(() => {
      host.dispose();
      this.hosts.delete(entry);
    });
    this.active = doc.uri;
    panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) this.active = doc.uri;
    });
    panel.webview.html = csfViewHtml({
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'csfview.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'csfview.css')).toString(),
      nonce: makeNonce(),
      cspSource: cspSourceFor(panel.webview),
      title: baseName(doc.uri),
    });
  }
}

/** Registers the custom editor and the "Show in accelerator memory" command. */
export function registerCsfEditor(context: vscode.ExtensionContext, inspector: InspectorPanel, output: vscode.LogOutputChannel): void {
  const showInMemory = async (uri: vscode.Uri): Promise<{ ok: boolean; message: string; title?: string }> => {
    const name = baseName(uri);
    const c = vscode.workspace.getConfiguration('tensorLens.csfbin');
    const mainBase = c.get<number>('mainBase', 0);
    const metaBase = c.get<number>('metadataBase', 0);
    let bytes: Uint8Array;
    try {
      bytes = await vscode.workspace.fs.readFile(uri);
    } catch (e) {
      return { ok: false, message: `${name}: cannot read: ${e instanceof Error ? e.message : String(e)}` };
    }
    const r = loadCsfAt(bytes, { name, mainBase, metaBase });
    if (!r.ok) {
      const i = r.issues[0];
      const message = `${name}: ${i.offset !== undefined ? `offset ${i.offset}: ` : ''}${i.message}`;
      void vscode.window.showErrorMessage(`Cannot load into accelerator memory: ${message}`);
      return { ok: false, message };
    }
    const title = `Accelerator memory: ${name}`;
    const source = createCsfSource(r.mem, {
      title,
      log: (level, message) => output[level](`[inspector] ${message}`),
      save: async (n, data) => {
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
        const target = await vscode.window.showSaveDialog({ defaultUri: folder ? vscode.Uri.joinPath(folder, n) : undefined, saveLabel: 'Export' });
        if (!target) return undefined;
        await vscode.workspace.fs.writeFile(target, data);
        return target.scheme === 'file' ? target.fsPath : target.toString();
      },
    });
    await inspector.showSource(title, source);
    const t = r.tensor;
    return {
      ok: true,
      title,
      message: `Loaded ${name}: tensor pointer ${t.t} (metadata words ${t.t}..${t.metaEnd - 1}), entries at main addresses ${t.mainBase}..${t.mainEnd - 1}.`,
    };
  };
  const provider = new CsfEditorProvider(context.extensionUri, output, showInMemory);
  context.subscriptions.push(
    vscode.window.registerCustomEditorProvider(CSF_VIEW_TYPE, provider, { supportsMultipleEditorsPerDocument: true }),
    vscode.commands.registerCommand(CSF_SHOW_IN_MEMORY_COMMAND, async (arg?: vscode.Uri | string) => {
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      const uri =
        typeof arg === 'string'
          ? vscode.Uri.parse(arg)
          : (arg ?? (tab instanceof vscode.TabInputCustom && tab.viewType === CSF_VIEW_TYPE ? tab.uri : provider.active));
      if (!uri) {
        void vscode.window.showWarningMessage('Open a .csfbin file first.');
        return undefined;
      }
      const r = await showInMemory(uri);
      if (!r.ok) output.error(`[csfbin] ${r.message}`);
      return r.title;
    }),
    vscode.commands.registerCommand(CSF_DEBUG_STATE_COMMAND, () =>
      [...provider.hosts].map(({ uri, host, view }) => ({
        uri: uri.toString(),
        source: view.source.kind,
        size: view.size,
        header: view.header,
        rows: view.rowCount,
        served: { ...host.served },
        validation: host.validationState,
      })),
    ),
  );
}
