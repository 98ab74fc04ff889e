/** Web entry: the language server runs in a web worker. */
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/browser';
import { activateWith, type TensorLensApi } from './activate';

export function activate(context: vscode.ExtensionContext): Promise<TensorLensApi> {
  const main = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server', 'browser.js');
  const worker = new Worker(main.toString(true));
  return activateWith(context, (opts) => new LanguageClient('tensorLens', 'Tensor Lens', worker, opts), 'web');
}

export function deactivate(): void {}
