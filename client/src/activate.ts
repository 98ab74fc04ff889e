/**
 * Extension logic shared by the desktop (node.ts) and web (browser.ts) entries: the language client,
 * `.m`/`.p` detection, and commands. The heavy lifting happens in the language server.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient, LanguageClientOptions } from 'vscode-languageclient';
import { detectLanguage } from '../../core/project/detect';
import { ServerStatusMethod, TransferPreviewMethod, type ServerStatusResult, type TransferPreviewParams, type TransferPreviewResult } from '../../core/protocol/lspExt';

export const TPROG = 'tensor-program';
export const PCORE = 'pcore';

export type ClientFactory = (options: LanguageClientOptions) => BaseLanguageClient;

export interface TensorLensApi {
  client: BaseLanguageClient;
  /** Resolves when the server has answered `initialize`. */
  ready: Promise<void>;
}

function settings() {
  const c = vscode.workspace.getConfiguration('tensorLens');
  return { dialect: c.get<string>('dialect', 'auto'), includePaths: c.get<string[]>('includePaths', []), detectLanguage: c.get<boolean>('detectLanguage', true) };
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** Switches a `.m`/`.p` document to our languages when it is a ztachip file (never other files). */
export async function maybeAdoptDocument(doc: vscode.TextDocument): Promise<void> {
  if (!settings().detectLanguage) return;
  if (doc.languageId === TPROG || doc.languageId === PCORE) return;
  const path = doc.uri.path;
  if (!/\.(m|p)$/i.test(path)) return;
  const stem = path.replace(/\.[^./]+$/, '');
  const siblings = new Set<string>();
  for (const e of ['.m', '.p', '.tprog', '.pcore']) if (await exists(doc.uri.with({ path: stem + e }))) siblings.add(stem + e);
  const d = detectLanguage(path, doc.getText(), (p) => siblings.has(p));
  if (d.language) await vscode.languages.setTextDocumentLanguage(doc, d.language);
}

export async function activateWith(context: vscode.ExtensionContext, factory: ClientFactory): Promise<TensorLensApi> {
  const output = vscode.window.createOutputChannel('Tensor Lens', { log: true });
  const s = settings();
  const client = factory({
    documentSelector: [{ language: TPROG }, { language: PCORE }],
    synchronize: { configurationSection: 'tensorLens' },
    initializationOptions: { dialect: s.dialect, includePaths: s.includePaths },
    outputChannel: output,
  });
  const ready = client.start();
  context.subscriptions.push({ dispose: () => void client.stop() });

  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument((d) => void maybeAdoptDocument(d)),
    vscode.commands.registerCommand('tensorLens.previewTransfers', async (uri?: string, fn?: string) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri.toString();
      if (!target) return;
      await ready;
      const params: TransferPreviewParams = { uri: target, function: fn, rows: 32 };
      const r = await client.sendRequest<TransferPreviewResult>(TransferPreviewMethod, params);
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: r.markdown });
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    }),
    vscode.commands.registerCommand('tensorLens.showServerStatus', async () => {
      await ready;
      const st = await client.sendRequest<ServerStatusResult>(ServerStatusMethod);
      void vscode.window.showInformationMessage(`Tensor Lens server ${st.version}: ${st.documents} documents, last check ${st.lastCheckMs} ms, dialect ${st.dialect}`);
    }),
    vscode.commands.registerCommand('tensorLens.restartServer', async () => {
      await client.stop();
      await client.start();
      output.appendLine('Tensor Lens language server restarted.');
    }),
  );
  for (const d of vscode.workspace.textDocuments) void maybeAdoptDocument(d);
  await ready;
  return { client, ready };
}
