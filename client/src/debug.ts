/**
 * The `tensor-lens` debugger in the extension: the debug adapter runs inline (core/debug/session.ts,
 * the simulator in a worker thread), launch configurations are completed from the active editor and
 * the program's tensorlens.run.json, and a "Tensor Trace" view in the Run and Debug side bar lists
 * the executed `>` statements whenever the program stops.
 */
import * as vscode from 'vscode';
import { nodeSpawner } from '../../core/debug/nodeWorker';
import type { LaunchArgs } from '../../core/debug/protocol';
import { TensorLensDebugSession } from '../../core/debug/session';
import { findRunConfig } from './runConfig';

export const DEBUG_TYPE = 'tensor-lens';

interface TraceRow {
  step: number;
  kind: string;
  file: string;
  line: number;
  column: number;
  text: string;
  process: number;
  elements: number;
  written?: { space: string; lo: number; hi: number };
}

/** Last tensor statements of the current (or last) session, newest first. */
class TraceView implements vscode.TreeDataProvider<TraceRow> {
  private rows: TraceRow[] = [];
  private total = 0;
  private readonly changed = new vscode.EventEmitter<TraceRow | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  async refresh(session: vscode.DebugSession): Promise<void> {
    try {
      const head = (await session.customRequest('tensorTrace', { start: 0, count: 0 })) as { total: number };
      const start = Math.max(0, head.total - 1000);
      const r = (await session.customRequest('tensorTrace', { start, count: 1000 })) as { total: number; steps: TraceRow[] };
      this.show(r);
    } catch {
      // the session has ended: keep what was shown
    }
  }

  show(r: { total: number; steps: TraceRow[] }): void {
    this.total = r.total;
    this.rows = r.steps.slice().reverse();
    this.changed.fire(undefined);
  }

  clear(): void {
    this.rows = [];
    this.total = 0;
    this.changed.fire(undefined);
  }

  getTreeItem(r: TraceRow): vscode.TreeItem {
    const item = new vscode.TreeItem(`#${r.step} ${r.text.length > 80 ? r.text.slice(0, 79) + '…' : r.text}`);
    const w = r.written ? ` → ${r.written.space}[${r.written.lo}..${r.written.hi}]` : '';
    item.description = `pid ${r.process} · line ${r.line} · ${r.kind} · ${r.elements} el${w}`;
    item.tooltip = `${r.text}\n${r.file}:${r.line}\n${this.total} statements executed`;
    item.command = { command: 'vscode.open', title: 'Show statement', arguments: [vscode.Uri.file(r.file), { selection: new vscode.Range(r.line - 1, Math.max(0, r.column - 1), r.line - 1, Math.max(0, r.column - 1)) }] };
    return item;
  }

  getChildren(r?: TraceRow): TraceRow[] {
    return r ? [] : this.rows;
  }
}

/** Completes a launch configuration: the active program, then the program's run configuration, then the settings. */
async function resolve(config: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration | undefined> {
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
  const program = vscode.Uri.file(config.program as string);
  const found = await findRunConfig(program);
  const rc = found.config;
  if (rc && found.base) {
    const abs = (f: string) => (/^([a-zA-Z]:)?[\\/]/.test(f) ? f : vscode.Uri.joinPath(found.base!, f).fsPath);
    config.entry ??= rc.entry;
    config.args ??= rc.args;
    config.load ??= rc.load?.map((l) => ({ where: l.where, file: abs(l.file) }));
    config.dump ??= rc.dump?.map((d) => ({ ...d, file: d.file ? abs(d.file) : undefined }));
    config.memBytes ??= rc.memBytes;
    config.stepBudget ??= rc.stepBudget;
  }
  const settings = vscode.workspace.getConfiguration('tensorLens');
  config.memBytes ??= settings.get<number>('run.memBytes');
  config.stepBudget ??= settings.get<number>('run.stepBudget');
  // unsaved editor contents of tensor programs and headers are what gets debugged
  const overlay: Record<string, string> = {};
  for (const d of vscode.workspace.textDocuments) if (d.isDirty && d.uri.scheme === 'file') overlay[d.uri.fsPath] = d.getText();
  (config as vscode.DebugConfiguration & Partial<LaunchArgs>).overlay = overlay;
  return config;
}

export function registerDebugger(context: vscode.ExtensionContext): void {
  const worker = vscode.Uri.joinPath(context.extensionUri, 'dist', 'debug', 'worker.js').fsPath;
  const trace = new TraceView();
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      createDebugAdapterDescriptor: () => new vscode.DebugAdapterInlineImplementation(new TensorLensDebugSession({ spawn: nodeSpawner(worker) }) as unknown as vscode.DebugAdapter),
    }),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
      resolveDebugConfiguration: (_folder, config) => resolve(config),
    }),
    vscode.debug.registerDebugAdapterTrackerFactory(DEBUG_TYPE, {
      createDebugAdapterTracker: (session) => ({
        onWillStartSession: () => trace.clear(),
        onDidSendMessage: (m: { type?: string; event?: string; body?: unknown }) => {
          if (m.type === 'event' && m.event === 'stopped') void trace.refresh(session);
          // sent by the target when the program ends
          if (m.type === 'event' && m.event === 'tensorTrace') trace.show(m.body as { total: number; steps: TraceRow[] });
        },
      }),
    }),
    vscode.window.registerTreeDataProvider('tensorLens.tensorTrace', trace),
  );
}
