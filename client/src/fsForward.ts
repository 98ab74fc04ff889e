/**
 * Answers the language server's `tensorLens/readFile` (core/protocol/lspExt.ts) with `vscode.workspace.fs`, as Even Better TOML
 * does: the web-worker server has no file system, and the desktop server reads only `file:` paths itself, so the `.p` beside a
 * `.m`, included headers and `fibers(file=…)` reach it this way in the browser and in virtual workspaces. The rules are the Node
 * server's (server/src/node.ts, fileAccess.ts): a regular file of at most READ_FILE_MAX_BYTES; with `roots` (a layout spec's
 * `.csfbin`), a file under one of them — and as this file system tells a symbolic link but not where it leads, a link between the
 * root and the file is refused (csfLoader.ts firstLinkBelowRoot, the layout map's rule).
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { toBase64 } from '../../core/common/base64';
import { firstLinkBelowRoot } from '../../core/layout/csfLoader';
import { isInside } from '../../core/project/fileSystem';
import { CLIENT_READS_FILES, READ_FILE_MAX_BYTES, ReadFileRequest, type ReadFileParams, type ReadFileResult } from '../../core/protocol/lspExt';

/** Announces the capability and answers the requests; call before the client starts. */
export function forwardFileReads(client: BaseLanguageClient): void {
  client.registerFeature({
    fillClientCapabilities: (c) => void (c.experimental = { ...(c.experimental as object | undefined), [CLIENT_READS_FILES]: true }),
    initialize: () => undefined,
    getState: () => ({ kind: 'static' }),
    clear: () => undefined,
  });
  client.onRequest(ReadFileRequest, (p) => readForServer(p, vscode.workspace.fs));
}

/** The part of `vscode.workspace.fs` a read uses (tests give their own). */
export type ReadFs = Pick<vscode.FileSystem, 'stat' | 'readFile'>;

/** One read under the server's rules; never throws (a malformed request is refused). */
export async function readForServer(p: ReadFileParams, fs: ReadFs): Promise<ReadFileResult> {
  let uri: vscode.Uri;
  let roots: vscode.Uri[] | undefined;
  try {
    if (typeof p?.uri !== 'string' || (p.as !== 'text' && p.as !== 'bytes')) throw new Error('malformed');
    uri = vscode.Uri.parse(p.uri, true);
    roots = p.roots?.map((r) => vscode.Uri.parse(r, true));
  } catch {
    return { kind: 'refused', reason: 'malformed tensorLens/readFile request' };
  }
  if (roots) {
    const under = roots.filter((r) => r.scheme === uri.scheme && r.authority === uri.authority && isInside(uri.path, r.path));
    if (!under.length) return { kind: 'refused', reason: 'outside the workspace' };
    const isLink = async (path: string) => {
      try {
        return ((await fs.stat(uri.with({ path }))).type & vscode.FileType.SymbolicLink) !== 0;
      } catch {
        return false;
      }
    };
    const link = await firstLinkBelowRoot(
      uri.path,
      under.map((r) => r.path),
      isLink,
    );
    if (link) return { kind: 'refused', reason: `${link === uri.path ? 'a symbolic link' : `${link} is a symbolic link`}, which is not followed here` };
  }
  let stat: vscode.FileStat;
  try {
    stat = await fs.stat(uri);
  } catch {
    return { kind: 'missing' };
  }
  // devices and FIFOs (FileType.Unknown) would block or never end; folders are not files
  if (!(stat.type & vscode.FileType.File))
    return { kind: 'refused', reason: stat.type & vscode.FileType.Directory ? 'a folder, not a file' : 'not a regular file' };
  if (stat.size > READ_FILE_MAX_BYTES) return { kind: 'refused', reason: `larger than ${READ_FILE_MAX_BYTES} bytes` };
  let data: Uint8Array;
  try {
    data = await fs.readFile(uri);
  } catch {
    return { kind: 'missing' };
  }
  // it may have grown between stat and read
  if (data.length > READ_FILE_MAX_BYTES) return { kind: 'refused', reason: `larger than ${READ_FILE_MAX_BYTES} bytes` };
  return p.as === 'text' ? { kind: 'text', text: new TextDecoder().decode(data) } : { kind: 'bytes', base64: toBase64(data) };
}
