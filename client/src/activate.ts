/**
 * Extension logic shared by the desktop (node.ts) and web (browser.ts) entries: the language client,
 * `.m`/`.p` detection, and commands. The heavy lifting happens in the language server.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient, LanguageClientOptions } from 'vscode-languageclient';
import { detectLanguage } from '../../core/project/detect';
import { warningText } from '../../core/sim/runWarning';
import {
  PREVIEW_TRANSFERS_COMMAND,
  ReadMemoryRequest,
  RUN_COMMAND,
  RunProgressNotification,
  RunRequest,
  ServerStatusRequest,
  TransferPreviewRequest,
  type RunParams,
  type RunResultMessage,
  type TransferPreviewParams,
} from '../../core/protocol/lspExt';
import { registerCsfEditor } from './csfEditor';
import { registerDebugger } from './debug';
import { InspectorPanel } from './inspectorPanel';
import { registerLayoutMap } from './layoutMapPanel';
import { resolveRunConfig } from './runConfig';
import { ServerHealth } from './serverHealth';
import { exists, registerWalkthrough } from './walkthrough';

export const TPROG = 'tensor-program';
export const PCORE = 'pcore';
export const LAYOUT = 'tensor-layout';

export type ClientFactory = (options: LanguageClientOptions) => BaseLanguageClient;

export interface TensorLensApi {
  client: BaseLanguageClient;
  /** The last run's result (for tests and the memory inspector). */
  lastRun(): RunResultMessage | undefined;
  /** Resolves when the server has answered `initialize`. */
  ready: Promise<void>;
  /** Crash recovery of the language server (restarts, give-ups). */
  serverHealth: ServerHealth;
}

function settings() {
  const c = vscode.workspace.getConfiguration('tensorLens');
  return {
    dialect: c.get<string>('dialect', 'auto'),
    includePaths: c.get<string[]>('includePaths', []),
    detectLanguage: c.get<boolean>('detectLanguage', true),
  };
}

/** Switches a `.m`/`.p` document to our languages when it is a ztachip file (never other files). */
export async function maybeAdoptDocument(doc: vscode.TextDocument): Promise<void> {
  if (!settings().detectLanguage) return;
  if (doc.languageId === TPROG || doc.languageId === PCORE) return;
  const path = doc.uri.path;
  if (!/\.(m|p)$/i.test(path)) return;
  // the text alone usually decides; only then look for a same-named sibling (in parallel)
  let d = detectLanguage(path, doc.getText(), () => false);
  if (!d.language) {
    const stem = path.replace(/\.[^./]+$/, '');
    const names = ['.m', '.p', '.tprog', '.pcore'].map((e) => stem + e).filter((p) => p !== path);
    const found = await Promise.all(names.map((p) => exists(doc.uri.with({ path: p }))));
    const siblings = new Set(names.filter((_, i) => found[i]));
    d = detectLanguage(path, doc.getText(), (p) => siblings.has(p));
  }
  if (d.language) await vscode.languages.setTextDocumentLanguage(doc, d.language);
}

export async function activateWith(context: vscode.ExtensionContext, factory: ClientFactory): Promise<TensorLensApi> {
  const output = vscode.window.createOutputChannel('Tensor Lens', { log: true });
  const s = settings();
  // restarts a crashed server and says so; stops after too many crashes (see serverHealth.ts)
  const health = new ServerHealth(output);
  const client = factory({
    ...health.clientOptions(),
    documentSelector: ['file', 'untitled', 'vscode-vfs', 'vscode-test-web'].flatMap((scheme) => [
      { scheme, language: TPROG },
      { scheme, language: PCORE },
      { scheme, language: LAYOUT },
    ]),
    // .csfbin files read by layout specs: the server re-checks the specs when one changes on disk
    synchronize: { configurationSection: 'tensorLens', fileEvents: vscode.workspace.createFileSystemWatcher('**/*.csfbin') },
    initializationOptions: { dialect: s.dialect, includePaths: s.includePaths },
    outputChannel: output,
  });
  health.attach(client);
  context.subscriptions.push(health);
  const ready = client.start();
  let lastRun: RunResultMessage | undefined;
  let lastRunName = '';
  context.subscriptions.push({ dispose: () => void client.stop() });
  const inspector = new InspectorPanel(context.extensionUri, (p) => client.sendRequest(ReadMemoryRequest, p), output);
  context.subscriptions.push(inspector);
  registerLayoutMap(context, output);
  inspector.register(context);
  // "Open Memory Inspector" while debugging shows the paused program's memory
  const inspectDebuggee = registerDebugger(context, inspector);
  registerCsfEditor(context, inspector, output);
  registerWalkthrough(context);

  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument((d) => void maybeAdoptDocument(d)),
    vscode.commands.registerCommand(PREVIEW_TRANSFERS_COMMAND, async (uri?: string, fn?: string) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri.toString();
      if (!target) return;
      await ready;
      const params: TransferPreviewParams = { uri: target, function: fn, rows: 32 };
      const r = await client.sendRequest(TransferPreviewRequest, params);
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: r.markdown });
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    }),
    vscode.commands.registerCommand(RUN_COMMAND, async (uri?: string, entry?: string) => {
      const target = uri ? vscode.Uri.parse(uri) : vscode.window.activeTextEditor?.document.uri;
      if (!target) {
        void vscode.window.showWarningMessage('Open a tensor program to run it.');
        return undefined;
      }
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage(
          'Tensor Lens: running a program needs a trusted workspace (a run reads the files its run configuration names and writes its dumps). ' +
            'Checking and hovers work in Restricted Mode.',
        );
        return undefined;
      }
      await ready;
      const resolved = await resolveRunConfig(target, entry ? { entry } : {});
      if (!resolved.config) {
        output.appendLine(`[run] ${resolved.problem}`);
        void vscode.window.showErrorMessage(`Run configuration: ${resolved.problem}`, 'Show Output').then((b) => b && output.show(true));
        return undefined;
      }
      const { program: _program, ...config } = resolved.config;
      const params: RunParams = { uri: target.toString(), ...config };
      const name = target.path.split('/').pop();
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Running ${name}${params.entry ? ' (' + params.entry + ')' : ''}`, cancellable: true },
        async (progress, token) => {
          const sub = client.onNotification(RunProgressNotification, (p) => {
            if (p.uri === params.uri) progress.report({ message: `${p.statements.toLocaleString()} tensor statements` });
          });
          try {
            return await client.sendRequest(RunRequest, params, token);
          } finally {
            sub.dispose();
          }
        },
      );
      lastRun = result;
      lastRunName = name ?? '';
      const s = result.summary;
      output.appendLine(
        `[run] ${name} ${result.entry}: ${s.statements} tensor statements, ${s.steps} steps, ${s.bytesMoved} bytes moved, ${s.laneOps} ` +
          `lane-ops, ${s.timeMs} ms${result.warnings?.length ? `, ${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}` : ''}`,
      );
      if (result.output) output.appendLine(result.output.replace(/\n$/, ''));
      for (const w of result.warnings ?? []) output.appendLine(`  ${warningText(w, vscode.Uri.parse(w.uri).fsPath)}`);
      for (const d of result.dumps)
        output.appendLine(d.file ? `  ${d.space}:${d.where} → ${d.file}` : `  ${d.space}:${d.where}:${d.dtype} = ${d.values?.join(' ')}`);
      if (result.error) {
        output.appendLine(`  error: ${result.error.message} (${result.error.uri}:${result.error.line}:${result.error.column})`);
        for (const f of result.error.stack) output.appendLine(`    at ${f}`);
        if (result.error.kind !== 'cancelled')
          void vscode.window.showErrorMessage(`Run failed: ${result.error.message}`, 'Show Output').then((b) => b && output.show(true));
      } else {
        void vscode.window
          .showInformationMessage(`${name}: ${s.statements} tensor statements, ${s.bytesMoved} bytes moved in ${s.timeMs} ms`, 'Show Output', 'Inspect Memory')
          .then((b) => {
            if (b === 'Show Output') output.show(true);
            else if (b === 'Inspect Memory') void vscode.commands.executeCommand('tensorLens.openMemoryInspector');
          });
        if (inspector.visible || vscode.workspace.getConfiguration('tensorLens').get<boolean>('openInspectorAfterRun', true)) {
          inspector.show(result, lastRunName, true, false, params).catch((e: unknown) => output.error(`[inspector] ${e instanceof Error ? e.message : String(e)}`));
        }
      }
      return result;
    }),
    vscode.commands.registerCommand('tensorLens.openMemoryInspector', async () => {
      const session = vscode.debug.activeDebugSession;
      if (session?.type === 'tensor-lens' && (await inspectDebuggee(session))) return true;
      if (!lastRun || (lastRun.error && lastRun.error.kind === 'cancelled')) {
        void vscode.window.showWarningMessage('Run a tensor program first (Tensor Lens: Run Program) to inspect its memory.');
        return false;
      }
      await inspector.show(lastRun, lastRunName);
      return true;
    }),
    vscode.commands.registerCommand('tensorLens.showServerStatus', async () => {
      await ready;
      const st = await client.sendRequest(ServerStatusRequest);
      void vscode.window.showInformationMessage(
        `Tensor Lens server ${st.version}: ${st.documents} documents, last check ${st.lastCheckMs} ms, dialect ${st.dialect}`,
      );
    }),
    vscode.commands.registerCommand('tensorLens.restartServer', async () => {
      await health.restart(client);
      output.appendLine('Tensor Lens language server restarted.');
    }),
  );
  for (const d of vscode.workspace.textDocuments) void maybeAdoptDocument(d);
  await ready;
  return { client, ready, lastRun: () => lastRun, serverHealth: health };
}
