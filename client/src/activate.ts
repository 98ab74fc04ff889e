/**
 * Extension logic shared by the desktop (node.ts) and web (browser.ts) entries: the language client,
 * `.m`/`.p` detection, and commands. The heavy lifting happens in the language server.
 */
import * as vscode from 'vscode';
import { DidChangeConfigurationNotification, type BaseLanguageClient, type LanguageClientOptions } from 'vscode-languageclient';
import { detectLanguage } from '../../core/project/detect';
import { errorText, warningText } from '../../core/sim/runWarning';
import {
  DebugValuesNotification,
  PREVIEW_TRANSFERS_COMMAND,
  ReadMemoryRequest,
  RUN_COMMAND,
  CREATE_RUN_CONFIG_COMMAND,
  RunProgressNotification,
  RunRequest,
  ServerStatusRequest,
  TransferPreviewRequest,
  type RunParams,
  type RunResultMessage,
  type TransferPreviewParams,
} from '../../core/protocol/lspExt';
import { registerCommandLine } from './commandLine';
import { registerCsfEditor } from './csfEditor';
import { registerDebugger } from './debug';
import { forwardFileReads } from './fsForward';
import { InspectorPanel } from './inspectorPanel';
import { LAYOUT, PCORE, SERVED_SCHEMES, TPROG } from './languageIds';
import { LazyServer } from './lazyStart';
import { registerLayoutMap } from './layoutMapPanel';
import { createLog, showOutputButton } from './log';
import { resolveRunConfig } from './runConfig';
import { registerCreateRunConfig } from './createRunConfig';
import { bufferText } from '../../core/sim/buffers';
import { RUN_CONFIG_FILE } from '../../core/sim/runConfigFile';
import { ServerHealth } from './serverHealth';
import { StatusItems, type StatusSnapshot } from './statusItem';
import { exists, registerWalkthrough } from './walkthrough';

export type ClientFactory = (options: LanguageClientOptions) => BaseLanguageClient;

/** Where the extension host runs: the desktop's Node host can run programs, the web worker host cannot. */
export type HostKind = 'node' | 'web';

export interface TensorLensApi {
  client: BaseLanguageClient;
  /** The last run's result (for tests and the memory inspector). */
  lastRun(): RunResultMessage | undefined;
  /**
   * Starts the language server if it has not started yet (see lazyStart.ts) and resolves when it has
   * answered `initialize`: whoever asks for it (a test, another extension) needs the server.
   */
  readonly ready: Promise<void>;
  /** Whether the language server was started, and why (undefined: not started). */
  serverStartedBecause(): string | undefined;
  /** The language status items as they are now. */
  statusItems(): StatusSnapshot[];
  /** Crash recovery of the language server (restarts, give-ups). */
  serverHealth: ServerHealth;
}

/** Switches a `.m`/`.p` document to our languages when it is a ztachip file (never other files). */
export async function maybeAdoptDocument(doc: vscode.TextDocument): Promise<void> {
  if (!vscode.workspace.getConfiguration('tensorLens', doc.uri).get<boolean>('detectLanguage', true)) return;
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

export async function activateWith(context: vscode.ExtensionContext, factory: ClientFactory, host: HostKind): Promise<TensorLensApi> {
  const output = createLog(context);
  // the first values of the server's settings (files outside every folder); it pulls each folder's own (server/src/settings.ts)
  const initial = vscode.workspace.getConfiguration('tensorLens');
  // restarts a crashed server and says so; stops after too many crashes (see serverHealth.ts)
  const health = new ServerHealth(output);
  const client = factory({
    ...health.clientOptions(),
    documentSelector: SERVED_SCHEMES.flatMap((scheme) => [
      { scheme, language: TPROG },
      { scheme, language: PCORE },
      { scheme, language: LAYOUT },
      // run configurations: checked against their programs (server/src/languages/runConfig.ts)
      { scheme, pattern: `**/${RUN_CONFIG_FILE}` },
    ]),
    // .csfbin files read by layout specs: the server re-checks the specs when one changes on disk
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.csfbin') },
    initializationOptions: { dialect: initial.get<string>('dialect', 'auto'), includePaths: initial.get<string[]>('includePaths', []) },
    outputChannel: output,
    traceOutputChannel: output,
  });
  health.attach(client);
  // the server's reads of files that are not open, where it has no file system of its own (the browser, virtual workspaces)
  forwardFileReads(client);
  context.subscriptions.push(health);
  // the server starts when there is work for it, not at activation (lazyStart.ts)
  const lazy = new LazyServer(client, health, output);
  const ready = (why: string) => lazy.start(why);
  const status = new StatusItems(client, lazy, health);
  context.subscriptions.push(lazy, status);
  lazy.watch();
  let lastRun: RunResultMessage | undefined;
  let lastRunName = '';
  context.subscriptions.push(
    { dispose: () => void (client.isRunning() ? client.stop() : undefined) },
    // the pull model: the server asks for the settings again (per folder) when told they changed
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('tensorLens') && client.isRunning()) void client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    }),
  );
  const inspector = new InspectorPanel(context.extensionUri, (p) => client.sendRequest(ReadMemoryRequest, p), output);
  context.subscriptions.push(inspector);
  registerLayoutMap(context, output);
  inspector.register(context);
  // "Open Memory Inspector" while debugging shows the paused program's memory
  const inspectDebuggee = registerDebugger(
    context,
    inspector,
    (p) => void (client.isRunning() ? client.sendNotification(DebugValuesNotification, p) : undefined),
  );
  registerCsfEditor(context, inspector, output);
  registerWalkthrough(context);
  registerCreateRunConfig(context);
  if (host === 'node') registerCommandLine(context);

  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument((d) => void maybeAdoptDocument(d)),
    vscode.commands.registerCommand(PREVIEW_TRANSFERS_COMMAND, async (uri?: string, fn?: string) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri.toString();
      if (!target) return;
      await ready('Preview Transfers');
      const params: TransferPreviewParams = { uri: target, function: fn, rows: 32 };
      const r = await client.sendRequest(TransferPreviewRequest, params);
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: r.markdown });
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    }),
    vscode.commands.registerCommand(RUN_COMMAND, async (uri?: string, entry?: string) => {
      const target = uri ? vscode.Uri.parse(uri) : vscode.window.activeTextEditor?.document.uri;
      if (host === 'web' || (target && target.scheme !== 'file' && target.scheme !== 'untitled')) {
        // the menus hide Run there (`shellExecutionSupported && !virtualWorkspace`); this is for the palette, a key or another extension
        void vscode.window.showErrorMessage(
          host === 'web'
            ? vscode.l10n.t('Tensor Lens: running a program needs the desktop VS Code (the simulator reads its inputs from disk in a Node worker).')
            : vscode.l10n.t(
                'Tensor Lens: running a program needs it in a local folder (the simulator reads its inputs from disk); {0} is not.',
                target!.toString(),
              ),
        );
        return undefined;
      }
      if (!target) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Open a tensor program to run it.'));
        return undefined;
      }
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            'Tensor Lens: running needs a trusted workspace (a run reads the files its configuration names and writes dumps). Checks work in Restricted Mode.',
          ),
        );
        return undefined;
      }
      await ready('Run Program');
      const resolved = await resolveRunConfig(target, entry ? { entry } : {});
      const out = showOutputButton(output);
      if (!resolved.config) {
        output.error(`[run] ${resolved.problem}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('Run configuration: {0}', resolved.problem ?? ''), out.title).then(out.then);
        return undefined;
      }
      const { program: _program, ...config } = resolved.config;
      const params: RunParams = { uri: target.toString(), ...config };
      const name = target.path.split('/').pop();
      const result = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: params.entry ? vscode.l10n.t('Running {0} ({1})', name ?? '', params.entry) : vscode.l10n.t('Running {0}', name ?? ''),
          cancellable: true,
        },
        async (progress, token) => {
          const sub = client.onNotification(RunProgressNotification, (p) => {
            if (p.uri === params.uri) progress.report({ message: vscode.l10n.t('{0} tensor statements', p.statements.toLocaleString()) });
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
      output.info(
        `[run] ${name} ${result.entry}: ${s.statements} tensor statements, ${s.steps} steps, ${s.bytesMoved} bytes moved, ${s.laneOps} ` +
          `lane-ops, ${s.timeMs} ms${result.warnings?.length ? `, ${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}` : ''}`,
      );
      if (result.output) output.info(result.output.replace(/\n$/, ''));
      for (const b of result.buffers ?? []) output.info(`  ${bufferText(b)}`);
      for (const w of result.warnings ?? []) output.warn(`  ${warningText(w, vscode.Uri.parse(w.uri).fsPath)}`);
      for (const d of result.dumps) output.info(d.file ? `  ${d.space}:${d.where} → ${d.file}` : `  ${d.space}:${d.where}:${d.dtype} = ${d.values?.join(' ')}`);
      if (result.error) {
        const log = result.error.kind === 'cancelled' ? output.info : output.error;
        log.call(output, `  ${errorText(result.error, vscode.Uri.parse(result.error.uri).fsPath)}`);
        for (const f of result.error.stack) log.call(output, `    at ${f}`);
        if (result.error.kind === 'entry-args') {
          // the entry needs arguments: offer to write them into a run configuration
          const create = vscode.l10n.t('Create Run Configuration');
          void vscode.window.showErrorMessage(vscode.l10n.t('Run failed: {0}', result.error.message), create, out.title).then((b) => {
            if (b === create) void vscode.commands.executeCommand(CREATE_RUN_CONFIG_COMMAND, target.toString(), result.entry || undefined);
            else out.then(b);
          });
        } else if (result.error.kind !== 'cancelled')
          void vscode.window.showErrorMessage(vscode.l10n.t('Run failed: {0}', result.error.message), out.title).then(out.then);
      } else {
        const inspect = vscode.l10n.t('Inspect Memory');
        void vscode.window
          .showInformationMessage(
            vscode.l10n.t('{0}: {1} tensor statements, {2} bytes moved in {3} ms', name ?? '', s.statements, s.bytesMoved, s.timeMs),
            out.title,
            inspect,
          )
          .then((b) => {
            if (b === inspect) void vscode.commands.executeCommand('tensorLens.openMemoryInspector');
            else out.then(b);
          });
        if (inspector.visible || vscode.workspace.getConfiguration('tensorLens').get<boolean>('openInspectorAfterRun', true)) {
          inspector
            .show(result, lastRunName, true, false, params)
            .catch((e: unknown) => output.error(`[inspector] ${e instanceof Error ? e.message : String(e)}`));
        }
      }
      return result;
    }),
    vscode.commands.registerCommand('tensorLens.openMemoryInspector', async () => {
      const session = vscode.debug.activeDebugSession;
      if (session?.type === 'tensor-lens' && (await inspectDebuggee(session))) return true;
      if (!lastRun || (lastRun.error && lastRun.error.kind === 'cancelled')) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Run a tensor program first (Tensor Lens: Run Program) to inspect its memory.'));
        return false;
      }
      await inspector.show(lastRun, lastRunName);
      return true;
    }),
    // the language status item is the first place to look; this pop-up stays for the palette
    vscode.commands.registerCommand('tensorLens.showServerStatus', async () => {
      await ready('Show Language Server Status');
      const st = await client.sendRequest(ServerStatusRequest);
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Tensor Lens server {0}: {1} documents, last check {2} ms, dialect {3}', st.version, st.documents, st.lastCheckMs, st.dialect),
      );
    }),
    vscode.commands.registerCommand('tensorLens.restartServer', async () => {
      await lazy.restart();
      output.info('[server] the Tensor Lens language server was restarted');
    }),
  );
  for (const d of vscode.workspace.textDocuments) void maybeAdoptDocument(d);
  return {
    client,
    get ready() {
      return ready('the extension API asked for it');
    },
    serverStartedBecause: () => lazy.startedBecause,
    statusItems: () => status.snapshot(),
    lastRun: () => lastRun,
    serverHealth: health,
  };
}
