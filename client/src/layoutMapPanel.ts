/**
 * The layout-map webview panel of a `.tlayout` tensor ("Show layout map" code lens, command
 * `tensorLens.openLayoutMap`): one panel per tensor, redrawn when the spec changes, restored after a
 * reload by a serializer (and kept alive while hidden).
 *
 * Where the data comes from: the extension host analyses the spec with core/layout itself and answers
 * the webview through `WebviewHost` + `layoutMapFromModel` (core/inspect), rather than asking the
 * language server. The picture's hover, locate and zoom requests need the live model (lazy slot
 * classification, `inverse`, per-element detail): through the LSP each would be a round trip and the
 * raster and detail buffers would travel as base64 inside JSON, while here they are plain calls and
 * ArrayBuffers posted straight to the webview. Analysing a spec takes a few milliseconds and is the
 * same code the server runs, so the picture and the editor's hovers cannot disagree; `.csfbin` files
 * are read with `vscode.workspace.fs` (desktop and web) and validated by the same loader.
 */
import * as vscode from 'vscode';
import { WebviewHost, type InspectorSource, type LayoutMapProvider } from '../../core/inspect/host';
import { layoutMapFromModel } from '../../core/inspect/layoutMap';
import { analyzeLayout, type LayoutAnalysis } from '../../core/layout';
import { csfSparseLoader, readSpecFiles, specRoots } from '../../core/layout/csfLoader';
import { OPEN_LAYOUT_MAP_COMMAND } from '../../core/protocol/lspExt';
import { layoutMapHtml, makeNonce } from '../../media/src/html';
import { cspSourceFor } from './webviewCsp';

export const LAYOUT_MAP_VIEW_TYPE = 'tensorLens.layoutMap';
/** Longest map id the webview protocol carries (S.str(256)). */
const MAX_ID = 256;

/** Map id of a tensor: it is what the webview saves in its state, so the serializer can reopen the tensor. */
export function mapIdOf(uri: string, tensor: string): string | undefined {
  const id = `tlayout:${tensor}@${uri}`;
  return id.length <= MAX_ID ? id : undefined;
}

export function parseMapId(id: unknown): { uri: string; tensor: string } | undefined {
  if (typeof id !== 'string' || id.length > MAX_ID) return undefined;
  const m = /^tlayout:([A-Za-z_][\w.]*)@(.+)$/.exec(id);
  return m ? { tensor: m[1], uri: m[2] } : undefined;
}

/** The folders a spec may read from: the workspace folders of its file system (scheme and authority) and its own folder. */
function rootsOf(doc: vscode.TextDocument): string[] {
  const same = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === doc.uri.scheme && f.uri.authority === doc.uri.authority);
  return specRoots(
    doc.uri.path,
    same.map((f) => f.uri.path),
  );
}

export async function analyzeDocument(doc: vscode.TextDocument): Promise<LayoutAnalysis> {
  const roots = rootsOf(doc);
  const at = (path: string) => doc.uri.with({ path });
  // vscode.workspace.fs tells a symbolic link (a flag of the type) but not where it leads
  const read = await readSpecFiles(doc.getText(), doc.uri.path, roots, {
    isLink: async (path) => ((await vscode.workspace.fs.stat(at(path))).type & vscode.FileType.SymbolicLink) !== 0,
    read: async (path) => vscode.workspace.fs.readFile(at(path)),
  });
  return analyzeLayout(doc.getText(), doc.uri.path, { loadSparse: csfSparseLoader(read, { roots: () => roots }) });
}

class LayoutMapPanel {
  private host: WebviewHost | undefined;
  private provider: LayoutMapProvider | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;
  private readonly subs: vscode.Disposable[] = [];
  /** Why the tensor cannot be drawn at the moment (the last good picture stays). */
  problem: string | undefined;
  /** Requests the page made (hello, layoutQuery, …), for the debug state of the tests. */
  readonly requests: Record<string, number> = {};

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly uri: vscode.Uri,
    readonly tensor: string,
    readonly id: string,
    private readonly extensionUri: vscode.Uri,
    private readonly output: vscode.LogOutputChannel,
    onDispose: () => void,
  ) {
    const media = vscode.Uri.joinPath(extensionUri, 'dist', 'media');
    panel.webview.options = { enableScripts: true, localResourceRoots: [media] };
    this.subs.push(
      panel.webview.onDidReceiveMessage((m: unknown) => {
        const method = m && typeof m === 'object' && (m as { type?: unknown }).type === 'request' ? (m as { method?: unknown }).method : undefined;
        if (typeof method === 'string' && method.length < 64) this.requests[method] = (this.requests[method] ?? 0) + 1;
        void this.host?.handle(m);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === uri.toString()) this.schedule();
      }),
      vscode.workspace.onDidSaveTextDocument((d) => {
        // a .csfbin written next to the spec (or the spec itself saved): redraw
        if (d.uri.toString() === uri.toString()) this.schedule();
      }),
      panel.onDidDispose(() => {
        if (this.timer) clearTimeout(this.timer);
        for (const s of this.subs) s.dispose();
        onDispose();
      }),
    );
  }

  /** Builds the picture from the current text; the first time it also loads the page. */
  async update(): Promise<void> {
    const seq = ++this.seq;
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(this.uri);
    } catch (e) {
      this.setProblem(`cannot open ${this.uri.path}: ${e instanceof Error ? e.message : String(e)}`);
      if (!this.host) this.load();
      return;
    }
    const a = await analyzeDocument(doc);
    if (seq !== this.seq) return; // a newer update is running
    const t = a.tensors.find((x) => x.name === this.tensor);
    if (!t) this.setProblem(`no tensor '${this.tensor}' in ${this.uri.path.split('/').pop()}`);
    else if (!t.model) this.setProblem(`'${this.tensor}' has no valid layout: ${t.problem ?? 'see the Problems panel'}`);
    else {
      const name = this.uri.path.split('/').pop() ?? '';
      const shape = t.shape ? `[${t.shape.join(', ')}]` : '';
      try {
        this.provider = layoutMapFromModel(t.model, { id: this.id, title: `${this.tensor}: ${t.dtype ?? ''}${shape} — ${t.model.kind} (${name})` });
        this.problem = undefined;
        this.panel.title = `Layout: ${this.tensor}`;
        if (!this.host) this.load();
        else this.host.showLayout(this.provider);
      } catch (e) {
        this.setProblem(`'${this.tensor}' cannot be drawn: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (!this.host) this.load();
  }

  /** What the panel shows (tests). */
  debugState() {
    const m = this.provider?.map;
    return {
      id: this.id,
      title: this.panel.title,
      visible: this.panel.visible,
      problem: this.problem,
      requests: { ...this.requests },
      map: m && { title: m.title, summary: m.summary, model: m.model, shape: m.shape, panels: m.panels.length, cols: m.cols, rows: m.rows },
    };
  }

  /** Where the picture draws a coordinate (tests: the answer the page gets for "go to coordinate"). */
  locate(coord: number[]) {
    return this.provider?.locate({ coord }) ?? null;
  }

  private setProblem(why: string): void {
    this.problem = why;
    this.panel.title = `Layout: ${this.tensor} (not drawable)`;
    this.output.warn(`[layout map] ${why}`);
    this.host?.notify('refresh', { steps: 0, step: -1, title: why });
  }

  private load(): void {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    const source: InspectorSource = {
      // before the first good picture the page shows this title: say why there is none
      get title() {
        return !self.provider && self.problem ? `Layout map: ${self.problem}` : `Layout map: ${self.tensor}`;
      },
      spaces: () => [],
      read: () => new Uint8Array(0),
      layout: () => this.provider,
      log: (level, message) => this.output[level](`[layout map] ${message}`),
    };
    const webview = this.panel.webview;
    this.host = new WebviewHost(source, (m) => webview.postMessage(m));
    const media = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
    const styleUri = webview.asWebviewUri(vscode.Uri.joinPath(media, 'layoutmap.css')).toString();
    webview.html = layoutMapHtml({
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'layoutmap.js')).toString(),
      styleUri,
      nonce: makeNonce(),
      cspSource: cspSourceFor(webview, styleUri),
      title: `Layout map: ${this.tensor}`,
    });
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.update().catch((e: unknown) => this.output.error(`[layout map] ${e instanceof Error ? e.message : String(e)}`));
    }, 200);
  }
}

/** Registers the command, the panel serializer and the bookkeeping of open layout maps. */
export function registerLayoutMap(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): void {
  const open = new Map<string, LayoutMapPanel>();

  const adopt = async (panel: vscode.WebviewPanel, uri: vscode.Uri, tensor: string, id: string): Promise<LayoutMapPanel> => {
    const p = new LayoutMapPanel(panel, uri, tensor, id, context.extensionUri, output, () => open.delete(id));
    open.set(id, p);
    await p.update();
    return p;
  };

  /** The tensor under the cursor of the active `.tlayout` editor (or picked from its tensors). */
  const pickTensor = async (): Promise<{ uri: vscode.Uri; tensor: string } | undefined> => {
    const ed = vscode.window.activeTextEditor;
    if (!ed || (ed.document.languageId !== 'tensor-layout' && !ed.document.uri.path.endsWith('.tlayout'))) {
      void vscode.window.showWarningMessage('Open a layout spec (.tlayout) to show the layout map of one of its tensors.');
      return undefined;
    }
    const a = await analyzeDocument(ed.document);
    const line = ed.selection.active.line;
    const here = a.tensors.find((t) => t.range.start.line <= line && t.range.end.line >= line);
    if (here) return { uri: ed.document.uri, tensor: here.name };
    const names = a.tensors.filter((t) => t.model).map((t) => t.name);
    if (names.length === 0) {
      void vscode.window.showWarningMessage('This layout spec has no tensor with a valid layout.');
      return undefined;
    }
    const tensor = names.length === 1 ? names[0] : await vscode.window.showQuickPick(names, { placeHolder: 'Tensor to draw' });
    return tensor ? { uri: ed.document.uri, tensor } : undefined;
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_LAYOUT_MAP_COMMAND, async (uriArg?: string | vscode.Uri, tensorArg?: string) => {
      let target: { uri: vscode.Uri; tensor: string } | undefined;
      if (uriArg && typeof tensorArg === 'string') target = { uri: typeof uriArg === 'string' ? vscode.Uri.parse(uriArg) : uriArg, tensor: tensorArg };
      else target = await pickTensor();
      if (!target) return undefined;
      const id = mapIdOf(target.uri.toString(), target.tensor) ?? `tlayout:${target.tensor}@#${open.size}`;
      const existing = open.get(id);
      if (existing) {
        existing.panel.reveal(undefined, true);
        await existing.update();
        return { viewType: LAYOUT_MAP_VIEW_TYPE, title: existing.panel.title, problem: existing.problem };
      }
      const media = vscode.Uri.joinPath(context.extensionUri, 'dist', 'media');
      const panel = vscode.window.createWebviewPanel(
        LAYOUT_MAP_VIEW_TYPE,
        `Layout: ${target.tensor}`,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [media], retainContextWhenHidden: true },
      );
      const p = await adopt(panel, target.uri, target.tensor, id);
      return { viewType: LAYOUT_MAP_VIEW_TYPE, title: panel.title, problem: p.problem };
    }),
    vscode.commands.registerCommand('tensorLens.layoutMap.debugState', () => [...open.values()].map((p) => p.debugState())),
    vscode.commands.registerCommand('tensorLens.layoutMap.debugLocate', (tensor: string, coord: number[]) => {
      const p = [...open.values()].find((x) => x.tensor === tensor);
      return p?.locate(coord) ?? null;
    }),
    vscode.window.registerWebviewPanelSerializer(LAYOUT_MAP_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        // the state is what the webview saved: validate it like any message from it
        const parsed = parseMapId(state && typeof state === 'object' ? (state as { mapId?: unknown }).mapId : undefined);
        if (!parsed) {
          panel.dispose();
          return;
        }
        let uri: vscode.Uri;
        try {
          uri = vscode.Uri.parse(parsed.uri, true);
        } catch {
          panel.dispose();
          return;
        }
        const id = mapIdOf(parsed.uri, parsed.tensor)!;
        // an untitled spec does not survive the reload; reopening its URI would make an empty one
        if (open.has(id) || uri.scheme === 'untitled') {
          panel.dispose();
          return;
        }
        await adopt(panel, uri, parsed.tensor, id);
      },
    }),
    { dispose: () => [...open.values()].forEach((p) => p.panel.dispose()) },
  );
}
