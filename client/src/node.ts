/** Desktop entry: the language server runs as a Node child process over IPC. */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { SERVER_NODE_FLAGS } from '../../core/protocol/serverProcess';
import { activateWith, type TensorLensApi } from './activate';

export function activate(context: vscode.ExtensionContext): Promise<TensorLensApi> {
  const module = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server', 'node.js').fsPath;
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS] } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS, '--nolazy', '--inspect=6010'] } },
  };
  return activateWith(context, (opts) => new LanguageClient('tensorLens', 'Tensor Lens', serverOptions, opts), 'node');
}

export function deactivate(): void {}
