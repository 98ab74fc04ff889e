/**
 * The memory inspector webview panels: one panel per program run (a new run of the same program and
 * entry takes over that program's panel), reading the run's memories from the language server's
 * simulator worker through `tensorLens/readMemory` (the server keeps the last few runs), answered by
 * `WebviewHost`. The run's transfer terms and C globals are overlays; clicking a byte reveals the
 * statement that last wrote it; the cursor or mouse on a tensor term in the editor highlights its bytes.
 * Panels come back after a window reload (serializer) with their view state; their memory returns
 * with the next run of the program.
 */
import * as vscode from 'vscode';
import { WebviewHost, type InspectorSource, type ViewDump } from '../../core/inspect/host';
import { createRemoteSource } from '../../core/inspect/remoteSource';
import { rangeAtPoint, resolveName, traceOverlays } from '../../core/inspect/traceOverlays';
import type { ReadMemoryParams, ReadMemoryResult, RunResultMessage } from '../../core/protocol/lspExt';
import type { Overlay, SourceLoc, TensorView } from '../../core/protocol/webview';
import { configViews, runRegions, viewOfVariable, type ConfigView, type RunPlaces } from '../../core/inspect/runRegions';
import { checkTraceSteps, type TraceStep } from '../../core/protocol/trace';
import { inspectorHtml, makeNonce } from '../../media/src/html';
import { cspSourceFor } from './webviewCsp';

export const INSPECTOR_VIEW_TYPE = 'tensorLens.inspector';
/** Test/diagnostic command: what the active inspector panel renders (its visible rows' text). */
export const DEBUG_STATE_COMMAND = 'tensorLens.inspector.debugState';
/** Highlights in the panel the bytes of the term at the editor's cursor. */
export const SHOW_TERM_COMMAND = 'tensorLens.inspector.showTerm';
/** Test/diagnostic command: closes the Views pane of the active inspector panel (or the one titled by the argument). */
export const CLOSE_VIEW_COMMAND = 'tensorLens.inspector.closeView';
/** Another panel on the run the last used panel shows. */
export const NEW_VIEW_COMMAND = 'tensorLens.inspector.newView';
/** Variables view while debugging: the variable's memory as an image / a heatmap in the inspector's Views pane. */
export const VIEW_VARIABLE_IMAGE_COMMAND = 'tensorLens.inspector.viewVariableAsImage';
export const VIEW_VARIABLE_HEATMAP_COMMAND = 'tensorLens.inspector.viewVariableAsHeatmap';
/** Largest reference file "Diff…" reads. */
const MAX_REFERENCE_BYTES = 256 * 1024 * 1024;

/** What of the run configuration the inspector lists and opens: loads, entry arguments, views. */
export type InspectorRunConfig = Pick<RunPlaces, 'load' | 'args'> & { views?: ConfigView[] };

/** A trace `file` is a path or a URI. */
function fileUri(file: string): vscode.Uri {
  return /^[a-z][\w+.-]+:/i.test(file) && !/^[a-z]:[\\/]/i.test(file) ? vscode.Uri.parse(file) : vscode.Uri.file(file);
}

/** What VS Code passes a `debug/variables/context` command: the DAP variable. */
interface VariableContext {
  variable?: { name: string; value?: string; type?: string; evaluateName?: string; memoryReference?: string };
}

interface View {
  key: string;
  /** The program's file name (panel titles are made of it). */
  name: string;
  panel: vscode.WebviewPanel;
  host: WebviewHost;
  run?: RunResultMessage;
  trace: readonly TraceStep[];
  overlays: Overlay[];
  /** When the panel was last shown or focused (the most recent one answers debugState and editor highlights first). */
  used: number;
}

export class InspectorPanel {
  private readonly views = new Map<string, View>();
  private queue: Promise<unknown> = Promise.resolve();
  private clock = 0;
  /** Editor selection changes before this time come from our own reveal (not the user). */
  private quietUntil = 0;
  private highlightTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly readMemory: (p: ReadMemoryParams) => Promise<ReadMemoryResult>,
    private readonly output: vscode.LogOutputChannel,
  ) {}

  /** Registers the serializer (panels survive a reload), the debug-state command and the editor → panel highlight. */
  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      vscode.window.registerWebviewPanelSerializer(INSPECTOR_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel: vscode.WebviewPanel) => {
          this.restore(panel);
        },
      }),
      vscode.commands.registerCommand(DEBUG_STATE_COMMAND, (title?: string) => this.debugState(title)),
      vscode.commands.registerCommand(NEW_VIEW_COMMAND, async () => {
        const t = await this.newView();
        if (!t) void vscode.window.showWarningMessage('Open the memory inspector on a run first.');
        return t;
      }),
      vscode.commands.registerCommand(CLOSE_VIEW_COMMAND, (title?: string) => {
        const v = this.latest(title);
        v?.host.closeView();
        return !!v;
      }),
      vscode.commands.registerCommand(VIEW_VARIABLE_IMAGE_COMMAND, (ctx?: VariableContext) => this.viewVariable(ctx, 'image')),
      vscode.commands.registerCommand(VIEW_VARIABLE_HEATMAP_COMMAND, (ctx?: VariableContext) => this.viewVariable(ctx, 'heatmap')),
      vscode.commands.registerCommand(SHOW_TERM_COMMAND, async () => {
        const ed = vscode.window.activeTextEditor;
        if (!ed) return false;
        const ok = await this.highlightAt(ed.document, ed.selection.active);
        if (!ok)
          void vscode.window.showInformationMessage(
            this.views.size ? 'The last run did not execute a transfer term here.' : 'Run the program first (Tensor Lens: Run Program) to see its memory.',
          );
        return ok;
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        // only what the user does (a reveal from the panel moves the selection too)
        if (e.kind !== vscode.TextEditorSelectionChangeKind.Keyboard && e.kind !== vscode.TextEditorSelectionChangeKind.Mouse) return;
        if (Date.now() < this.quietUntil || this.views.size === 0) return;
        const doc = e.textEditor.document;
        const pos = e.selections[0]?.active;
        if (!pos) return;
        clearTimeout(this.highlightTimer);
        this.highlightTimer = setTimeout(() => void this.highlightAt(doc, pos), 120);
      }),
      vscode.languages.registerHoverProvider([{ language: 'tensor-program' }], {
        provideHover: (doc, pos) => {
          if (this.views.size) void this.highlightAt(doc, pos);
          return undefined;
        },
      }),
    );
  }

  get visible(): boolean {
    return this.views.size > 0;
  }

  /** Title of the most recently used panel. */
  get title(): string | undefined {
    return this.latest()?.panel.title;
  }

  /** Titles of the open panels. */
  get titles(): string[] {
    return [...this.views.values()].map((v) => v.panel.title);
  }

  private latest(title?: string): View | undefined {
    let best: View | undefined;
    for (const v of this.views.values()) if ((!title || v.panel.title === title) && (!best || v.used > best.used)) best = v;
    return best;
  }

  /**
   * Opens (or reveals) the panel of `run`'s program and returns its title (calls are served one after
   * another). `newView`: another panel on the same run (its own position, type, step), which later runs
   * of the program leave alone.
   */
  show(run: RunResultMessage, name: string, preserveFocus = false, newView = false, config?: InspectorRunConfig): Promise<string> {
    if (config) {
      this.configs.set(run.runId, config);
      // the server keeps the last few runs: so many configurations are enough
      for (const k of [...this.configs.keys()].slice(0, -16)) this.configs.delete(k);
    }
    const next = this.queue.then(() => this.open(run, name, preserveFocus, newView, this.configs.get(run.runId)));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Another view of the run the most recently used panel shows (false when there is none). */
  async newView(): Promise<string | false> {
    const v = this.latest();
    if (!v?.run) return false;
    return this.show(v.run, v.name, false, true);
  }

  /** The run configuration of each run shown (its loads, arguments and views), by run id. */
  private readonly configs = new Map<number, InspectorRunConfig>();

  private async open(run: RunResultMessage, name: string, preserveFocus: boolean, newView: boolean, config?: InspectorRunConfig): Promise<string> {
    const main = `Memory: ${name}${run.entry ? ' (' + run.entry + ')' : ''}`;
    let title = main;
    if (newView) for (let k = 2; this.views.has(title); k++) title = `${main} · view ${k}`;
    // the steps come from the language server: checked, not cast
    const trace = checkTraceSteps(run.trace, 'run.trace');
    const overlays = traceOverlays(trace, run.globals ?? []);
    // the run's dumps, buffers, loads and @buffer arguments to jump to; the configuration's views to open
    const places: RunPlaces = { dumps: run.dumps, buffers: run.buffers, globals: run.globals, load: config?.load, args: config?.args };
    const { regions, unplaced } = runRegions(places);
    const cv = configViews(config?.views ?? [], places);
    if (unplaced.length) this.output.info(`[inspector] not listed (no MEM place known): ${unplaced.join(', ')}`);
    for (const p of cv.problems) this.output.warn(`[inspector] ${p}`);
    let view = this.views.get(title);
    const source = await createRemoteSource({
      runId: run.runId,
      title,
      readMemory: this.readMemory,
      trace,
      traceTruncated: run.traceTruncated,
      overlays,
      resolve: (text, space) => resolveName(overlays, text, space),
      initial: () => {
        // start at the run's first dump or named buffer, else at the C global the first MEM transfer used, else at that transfer's range
        if (regions[0]) return { space: regions[0].space, offset: regions[0].offset, length: regions[0].bytes };
        const mem = overlays.filter((o) => o.space === 'MEM');
        const t = mem.find((o) => o.kind !== 'global');
        const g = t && mem.find((o) => o.kind === 'global' && t.offset >= o.offset && t.offset < o.offset + o.length);
        const o = g ?? t ?? overlays[0];
        return o ? { space: o.space, offset: o.offset } : undefined;
      },
      reveal: (loc, keep) => void this.reveal(loc, keep),
      // the editor follows the timeline: the statement of the step the user scrubbed to
      stepSelected: (step) => this.follow(trace[step]),
      log: (level, message) => this.output[level](`[inspector] ${message}`),
      save: (n, bytes) => this.save(n, bytes),
    });
    source.regions = () => regions;
    source.views = () => cv.views;
    if (view) {
      const v = view;
      v.name = name;
      v.run = run;
      v.trace = trace;
      v.overlays = overlays;
      v.host = new WebviewHost(source, (m) => v.panel.webview.postMessage(m));
      v.used = ++this.clock;
      v.host.refresh();
      v.panel.reveal(undefined, preserveFocus);
      return title;
    }
    const media = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
    const panel = vscode.window.createWebviewPanel(
      INSPECTOR_VIEW_TYPE,
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
      { enableScripts: true, localResourceRoots: [media], retainContextWhenHidden: true },
    );
    view = this.attach(panel, title, source);
    view.name = name;
    view.run = run;
    view.trace = trace;
    view.overlays = overlays;
    return title;
  }

  /**
   * Opens (or reveals) the panel titled `title` on any source (a `.csfbin` loaded into accelerator memory,
   * a paused debug session, …); returns the title. `reveal: false` updates an open panel where it is.
   */
  showSource(title: string, source: InspectorSource, preserveFocus = false, reveal = true): Promise<string> {
    const next = this.queue.then(() => {
      const v = this.views.get(title);
      source.pickReference ??= (label) => this.pickReference(label);
      if (v) {
        Object.assign(v, { run: undefined, trace: [], overlays: [], used: ++this.clock, host: new WebviewHost(source, (m) => v.panel.webview.postMessage(m)) });
        v.host.refresh();
        if (reveal) v.panel.reveal(undefined, preserveFocus);
        return title;
      }
      const media = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
      const panel = vscode.window.createWebviewPanel(
        INSPECTOR_VIEW_TYPE,
        title,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
        { enableScripts: true, localResourceRoots: [media], retainContextWhenHidden: true },
      );
      this.attach(panel, title, source);
      return title;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Wires a panel (new or restored) to a source and loads the page. */
  private attach(panel: vscode.WebviewPanel, key: string, source: InspectorSource): View {
    source.pickReference ??= (label) => this.pickReference(label);
    const view: View = {
      key,
      name: '',
      panel,
      host: new WebviewHost(source, (m) => panel.webview.postMessage(m)),
      trace: [],
      overlays: [],
      used: ++this.clock,
    };
    this.views.set(key, view);
    panel.onDidDispose(() => {
      if (this.views.get(key) === view) this.views.delete(key);
    });
    panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) view.used = ++this.clock;
    });
    panel.webview.onDidReceiveMessage((m) => void view.host.handle(m));
    const media = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
    panel.webview.options = { enableScripts: true, localResourceRoots: [media] };
    const styleUri = panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'inspector.css')).toString();
    panel.webview.html = inspectorHtml({
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'inspector.js')).toString(),
      styleUri,
      nonce: makeNonce(),
      cspSource: cspSourceFor(panel.webview, styleUri),
      title: panel.title,
    });
    return view;
  }

  /** Highlights (and scrolls to) bytes in the panel titled `title` (false when it is not open). */
  highlightIn(title: string, space: string, offset: number, length: number, label?: string): boolean {
    const v = this.views.get(title);
    v?.host.highlight(space, offset, length, label);
    return !!v;
  }

  /** Opens the Views pane of the panel titled `title` on a picture (false when it is not open). */
  showViewIn(title: string, v: TensorView): boolean {
    const p = this.views.get(title);
    p?.host.showView(v);
    return !!p;
  }

  /**
   * "View as Image / Heatmap" on a Variables entry while debugging: the inspector of the paused session
   * (opened if needed) shows the variable's memory in its Views pane.
   */
  private async viewVariable(ctx: VariableContext | undefined, mode: 'image' | 'heatmap'): Promise<boolean> {
    const v = ctx?.variable;
    const spec = v ? viewOfVariable({ name: v.evaluateName ?? v.name, type: v.type, memoryReference: v.memoryReference }, mode) : undefined;
    if (!spec) {
      void vscode.window.showInformationMessage(`${v?.name ?? 'This variable'} has no memory to view (no memory reference).`);
      return false;
    }
    const opened = await vscode.commands.executeCommand<boolean>('tensorLens.openMemoryInspector');
    const title = this.title;
    if (!opened || !title) return false;
    return this.showViewIn(title, spec);
  }

  /** Asks for the reference file of "Diff…" (a .npy, .bin or image) and reads it. */
  private async pickReference(label: string): Promise<{ name: string; bytes: Uint8Array } | undefined> {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: 'Compare',
      title: `Reference to compare ${label} with`,
      filters: { 'Reference data': ['npy', 'bin', 'raw', 'png', 'bmp'], 'All files': ['*'] },
    });
    const uri = picked?.[0];
    if (!uri) return undefined;
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > MAX_REFERENCE_BYTES) throw new Error(`${uri.fsPath}: ${stat.size} bytes, more than a reference may have (${MAX_REFERENCE_BYTES})`);
    return { name: uri.scheme === 'file' ? uri.fsPath : uri.toString(), bytes: await vscode.workspace.fs.readFile(uri) };
  }

  /** A panel VS Code brings back after a reload: its view state returns, its memory with the next run. */
  private restore(panel: vscode.WebviewPanel): void {
    const key = panel.title;
    const old = this.views.get(key);
    if (old && old.panel !== panel) old.panel.dispose();
    const empty: InspectorSource = { title: `${key} — run the program again to see its memory`, spaces: () => [], read: () => new Uint8Array(0) };
    this.attach(panel, key, empty);
  }

  /** What the most recently used panel (or the one titled `title`) renders now. */
  async debugState(title?: string): Promise<(ViewDump & { panelTitle: string; runId?: number }) | undefined> {
    const v = this.latest(title);
    if (!v) return undefined;
    const d = await v.host.dumpView();
    return { ...d, panelTitle: v.panel.title, runId: v.run?.runId };
  }

  /** Highlights in the panel the bytes of the term at `pos` (the range the last run's trace gives it). */
  async highlightAt(doc: vscode.TextDocument, pos: vscode.Position): Promise<boolean> {
    const file = doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString();
    const views = [...this.views.values()].filter((v) => v.run).sort((a, b) => b.used - a.used);
    // cheap test first (hovers come often): a traced statement on this line, or a $variable
    const L = pos.line + 1;
    if (!doc.lineAt(pos.line).text.includes('$') && !views.some((v) => v.trace.some((st) => st.line <= L && L <= Math.max(st.line, st.endLine)))) return false;
    const lines: string[] = [];
    for (let i = 0; i < doc.lineCount; i++) lines.push(doc.lineAt(i).text);
    for (const v of views) {
      const r = rangeAtPoint(v.trace, v.overlays, lines, { file, line: pos.line + 1, column: pos.character + 1 }, v.host.selectedStep);
      if (!r) continue;
      v.host.highlight(r.space, r.offset, r.length, r.label);
      return true;
    }
    return false;
  }

  private followTimer: ReturnType<typeof setTimeout> | undefined;

  /** Shows the statement of a step in the editor (debounced: scrubbing passes many steps), keeping the focus in the panel. */
  private follow(s: TraceStep | undefined): void {
    clearTimeout(this.followTimer);
    if (!s || !s.file) return;
    this.followTimer = setTimeout(
      () => void this.reveal({ file: s.file, line: Math.max(1, s.line), column: Math.max(1, s.column), endLine: Math.max(1, s.line, s.endLine) }, true),
      150,
    );
  }

  private async reveal(loc: SourceLoc, preserveFocus?: boolean): Promise<void> {
    try {
      const doc = await vscode.workspace.openTextDocument(fileUri(loc.file));
      const line = Math.min(doc.lineCount - 1, Math.max(0, loc.line - 1));
      const pos = new vscode.Position(line, Math.max(0, (loc.column ?? 1) - 1));
      // the whole statement: from its first character to the end of its last line
      const last = Math.min(doc.lineCount - 1, Math.max(line, (loc.endLine ?? loc.line) - 1));
      const end = doc.lineAt(last).range.end;
      this.quietUntil = Date.now() + 600;
      await vscode.window.showTextDocument(doc, {
        viewColumn: vscode.ViewColumn.One,
        preserveFocus: !!preserveFocus,
        selection: new vscode.Range(pos, end.isBefore(pos) ? pos : end),
      });
      this.quietUntil = Date.now() + 300;
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
    clearTimeout(this.highlightTimer);
    clearTimeout(this.followTimer);
    for (const v of [...this.views.values()]) v.panel.dispose();
    this.views.clear();
  }
}
