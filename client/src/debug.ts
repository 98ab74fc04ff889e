/**
 * The `tensor-lens` debugger in the extension: the debug adapter runs inline (debug/session.ts,
 * the simulator in a worker thread), launch configurations are completed from the active editor and
 * the program's tensorlens.run.json, and a "Tensor Trace" view in the Run and Debug side bar lists
 * the executed `>` statements whenever the program stops. The memory inspector follows a session: an
 * open panel of the program (or one opened with "Open Memory Inspector" while debugging) shows the
 * paused program's memory at every stop, the bytes changed since the previous stop highlighted.
 */
import * as vscode from 'vscode';
import { nodeSpawner } from '../../debug/nodeWorker';
import type { LaunchArgs } from '../../debug/protocol';
import { isAbsolutePath, type RunConfig } from '../../core/sim/runConfig';
import { TensorLensDebugSession } from '../../debug/session';
import { createDebugSource, type DebugSource } from '../../core/inspect/debugSource';
import { checkStatementRuns, checkTraceSlice, type TraceStep } from '../../core/protocol/trace';
import type { DebugValuesParams } from '../../core/protocol/lspExt';
import type { InspectorPanel } from './inspectorPanel';
import { resolveRunConfig } from './runConfig';

export const DEBUG_TYPE = 'tensor-lens';

/** Last tensor statements of the current (or last) session, newest first. */
class TraceView implements vscode.TreeDataProvider<TraceStep> {
  private rows: TraceStep[] = [];
  private total = 0;
  private readonly changed = new vscode.EventEmitter<TraceStep | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  async refresh(session: vscode.DebugSession): Promise<void> {
    try {
      const head = checkTraceSlice(await session.customRequest('tensorTrace', { start: 0, count: 0 }));
      const start = Math.max(0, head.total - 1000);
      this.show(await session.customRequest('tensorTrace', { start, count: 1000 }));
    } catch {
      // the session has ended: keep what was shown
    }
  }

  /** Shows a `tensorTrace` answer or event (checked: it comes from the debug adapter). */
  show(body: unknown): void {
    const r = checkTraceSlice(body);
    this.total = r.total;
    this.rows = r.steps.slice().reverse();
    this.changed.fire(undefined);
  }

  clear(): void {
    this.rows = [];
    this.total = 0;
    this.changed.fire(undefined);
  }

  getTreeItem(r: TraceStep): vscode.TreeItem {
    const item = new vscode.TreeItem(`#${r.step} ${r.text.length > 80 ? r.text.slice(0, 79) + '…' : r.text}`);
    const w = r.written ? ` → ${r.written.space}[${r.written.lo}..${r.written.hi}]` : '';
    item.description = `pid ${r.process} · line ${r.line} · ${r.kind} · ${r.elements} el${w}`;
    item.tooltip = `${r.text}\n${r.file}:${r.line}\n${this.total} statements executed`;
    item.command = {
      command: 'vscode.open',
      title: 'Show statement',
      arguments: [vscode.Uri.file(r.file), { selection: new vscode.Range(r.line - 1, Math.max(0, r.column - 1), r.line - 1, Math.max(0, r.column - 1)) }],
    };
    return item;
  }

  getChildren(r?: TraceStep): TraceStep[] {
    return r ? [] : this.rows;
  }
}

/** Completes a launch configuration: the active program, then the program's run configuration, then the settings. */
async function resolve(config: vscode.DebugConfiguration, folder?: vscode.WorkspaceFolder): Promise<vscode.DebugConfiguration | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!config.type && !config.request && !config.name) {
    if (!editor || editor.document.languageId !== 'tensor-program') {
      void vscode.window.showErrorMessage('Open a tensor program to debug it (or add a "tensor-lens" launch configuration).');
      return undefined;
    }
    config.type = DEBUG_TYPE;
    config.request = 'launch';
    config.name = 'Debug tensor program';
    config.program = editor.document.uri.fsPath;
  }
  if (!config.program) config.program = editor?.document.uri.fsPath;
  if (!config.program) {
    void vscode.window.showErrorMessage('The tensor-lens launch configuration needs a "program".');
    return undefined;
  }
  // a relative program or cwd (launch.json) starts from the workspace folder, as VS Code's own paths do:
  // the frames, breakpoints and messages then name the file the editor has open (with a relative path
  // VS Code opened a second copy of the program at each stop, in the active group, and errors named
  // files the output could not open)
  const base = folder?.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri;
  const absolute = (p: string, from: vscode.Uri | undefined) => (isAbsolutePath(p) || !from ? p : vscode.Uri.joinPath(from, p).fsPath);
  if (typeof config.cwd === 'string') config.cwd = absolute(config.cwd, base);
  config.program = absolute(String(config.program), typeof config.cwd === 'string' ? vscode.Uri.file(config.cwd) : base);
  // what the launch configuration does not say: the program's tensorlens.run.json, then the settings
  const resolved = await resolveRunConfig(vscode.Uri.file(config.program as string), config as Partial<RunConfig>);
  if (!resolved.config) {
    void vscode.window.showErrorMessage(`Run configuration: ${resolved.problem}`);
    return undefined;
  }
  Object.assign(config, resolved.config);
  // unsaved editor contents of tensor programs and headers are what gets debugged
  const overlay: Record<string, string> = {};
  for (const d of vscode.workspace.textDocuments) if (d.isDirty && d.uri.scheme === 'file') overlay[d.uri.fsPath] = d.getText();
  (config as vscode.DebugConfiguration & Partial<LaunchArgs>).overlay = overlay;
  return config;
}

/** Memory inspector panels bound to debug sessions (one per session, titled like the program's run panel). */
class DebugInspector {
  private readonly bound = new Map<string, { source: DebugSource; title: string }>();

  constructor(private readonly inspector: InspectorPanel) {}

  /** The run panel's title for the session's program: `Memory: test.m (kernel_test)`. */
  private titleOf(session: vscode.DebugSession): string {
    const program = String(session.configuration.program ?? '');
    const name = program.split(/[\\/]/).pop() ?? program;
    const entry = session.configuration.entry as string | undefined;
    return `Memory: ${name}${entry ? ` (${entry})` : ''}`;
  }

  private bind(session: vscode.DebugSession, title: string): { source: DebugSource; title: string } {
    const b = {
      title,
      source: createDebugSource({ title: `${title} — debugging`, request: (command, args) => Promise.resolve(session.customRequest(command, args)) }),
    };
    this.bound.set(session.id, b);
    return b;
  }

  /** The session stopped: an open panel of its program shows the stop. */
  async stopped(session: vscode.DebugSession): Promise<void> {
    let b = this.bound.get(session.id);
    if (b && !this.inspector.titles.includes(b.title)) {
      // the panel was closed
      this.bound.delete(session.id);
      b = undefined;
    }
    if (!b) {
      const title = this.titleOf(session);
      // the program's panel (a run panel of another entry too), not a second view
      const prefix = `${title.replace(/ \(.*\)$/, '')} (`;
      const titles = this.inspector.titles;
      const open = titles.includes(title) ? title : titles.find((t) => t.startsWith(prefix) && !t.includes(' · view '));
      if (!open) return;
      b = this.bind(session, open);
    }
    if (!(await b.source.update())) return;
    await this.inspector.showSource(b.title, b.source, true, false);
    // the view follows the stop: to the bytes that changed since the previous one
    const stop = b.source.currentStep?.() ?? -1;
    const r = await b.source.changedRange(stop);
    if (r) this.inspector.highlightIn(b.title, r.space, r.offset, r.length, `changed since stop ${stop - 1}`);
  }

  /** "Open Memory Inspector" while debugging: a panel on the paused program (false when it is not paused). */
  async open(session: vscode.DebugSession): Promise<boolean> {
    const b = this.bound.get(session.id) ?? this.bind(session, this.titleOf(session));
    if (!(await b.source.update())) {
      this.bound.delete(session.id);
      return false;
    }
    await this.inspector.showSource(b.title, b.source, false);
    return true;
  }

  ended(session: vscode.DebugSession): void {
    this.bound.get(session.id)?.source.end();
    this.bound.delete(session.id);
  }
}

/**
 * The language server's hovers and inlay hints follow a session: at each stop they get what every `>`
 * statement did up to it (the adapter's `runValues`), and lose it when the program continues or ends.
 * Steps keep the previous stop's values until the next stop replaces them (no flicker while stepping).
 */
class StopValues {
  constructor(private readonly send: (p: DebugValuesParams) => void) {}

  async stopped(session: vscode.DebugSession): Promise<void> {
    try {
      const body = (await session.customRequest('runValues')) as { statements?: unknown } | undefined;
      this.send({ session: session.id, statements: checkStatementRuns(body?.statements, 'runValues') });
    } catch {
      // the session has ended (or the adapter is not ours)
    }
  }

  resumed(session: vscode.DebugSession): void {
    this.send({ session: session.id, statements: null });
  }
}

/**
 * Registers the debugger; with the memory inspector, returns what "Open Memory Inspector" calls while a
 * `tensor-lens` session is active (true when it opened a panel on the paused program). `sendStopValues`
 * tells the language server what the statements did at each stop (tensorLens/debugValues).
 */
export function registerDebugger(
  context: vscode.ExtensionContext,
  inspector?: InspectorPanel,
  sendStopValues?: (p: DebugValuesParams) => void,
): (session: vscode.DebugSession) => Promise<boolean> {
  const values = sendStopValues && new StopValues(sendStopValues);
  const worker = vscode.Uri.joinPath(context.extensionUri, 'dist', 'debug', 'worker.js').fsPath;
  const trace = new TraceView();
  const memory = inspector && new DebugInspector(inspector);
  const log = (e: unknown) => void vscode.window.showWarningMessage(`Memory inspector: ${e instanceof Error ? e.message : String(e)}`);
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      createDebugAdapterDescriptor: () => new vscode.DebugAdapterInlineImplementation(new TensorLensDebugSession({ spawn: nodeSpawner(worker) })),
    }),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
      resolveDebugConfiguration: (folder, config) => resolve(config, folder),
    }),
    vscode.debug.registerDebugAdapterTrackerFactory(DEBUG_TYPE, {
      createDebugAdapterTracker: (session) => ({
        onWillStartSession: () => trace.clear(),
        onWillReceiveMessage: (m: { type?: string; command?: string }) => {
          if (m.type === 'request' && m.command === 'continue') values?.resumed(session);
        },
        onWillStopSession: () => values?.resumed(session),
        onDidSendMessage: (m: { type?: string; event?: string; body?: unknown }) => {
          if (m.type === 'event' && m.event === 'stopped') {
            void trace.refresh(session);
            memory?.stopped(session).catch(log);
            void values?.stopped(session);
          }
          // sent by the target when the program ends
          if (m.type === 'event' && m.event === 'tensorTrace') trace.show(m.body);
        },
      }),
    }),
    vscode.window.registerTreeDataProvider('tensorLens.tensorTrace', trace),
    vscode.debug.onDidTerminateDebugSession((s) => {
      if (s.type === DEBUG_TYPE) memory?.ended(s);
    }),
  );
  return async (session) => (memory ? memory.open(session) : false);
}
