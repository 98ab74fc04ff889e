/**
 * Answers the language server's `tensorLens/readFile` (core/protocol/lspExt.ts) with `vscode.workspace.fs`, as Even Better TOML
 * does: the web-worker server has no file system, and the desktop server reads only `file:` paths itself, so the `.p` beside a
 * `.m`, included headers and `fibers(file=…)` reach it this way in the browser and in virtual workspaces — under the Node
 * server's rules (readRules.ts).
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { CLIENT_READS_FILES, ReadFileRequest } from '../../core/protocol/lspExt';
import { readUnderRules, type UriFs } from './readRules';

const workspaceFs: UriFs = {
  stat: (uri) => Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.parse(uri, true))),
  readFile: (uri) => Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.parse(uri, true))),
};

/** Announces the capability and answers the requests; call before the client starts. */
export function forwardFileReads(client: BaseLanguageClient): void {
  client.registerFeature({
    fillClientCapabilities: (c) => void (c.experimental = { ...(c.experimental as object | undefined), [CLIENT_READS_FILES]: true }),
    initialize: () => undefined,
    getState: () => ({ kind: 'static' }),
    clear: () => undefined,
  });
  client.onRequest(ReadFileRequest, (p) => readUnderRules(p, workspaceFs));
}
