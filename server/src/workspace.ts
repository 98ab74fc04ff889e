/**
 * The client's workspace folders (as paths), from `initialize` and then its change notifications:
 * where a layout spec may read the `.csfbin` files it names. The server does not know whether the
 * workspace is trusted, so a spec reads only in the workspace folders and its own folder tree.
 */
import type { Connection, InitializeParams, WorkspaceFolder } from 'vscode-languageserver';
import { specRoots } from '../../core/layout/csfLoader';
import { uriToPath } from './uri';

export class WorkspaceFolders {
  private folders: string[] = [];

  private followsChanges = false;

  /** Takes the folders of `initialize` (or its older root); `follow` then follows the client's changes. */
  listen(params: InitializeParams): void {
    const given: WorkspaceFolder[] = params.workspaceFolders ?? [];
    const root = params.rootUri ? uriToPath(params.rootUri) : (params.rootPath ?? undefined);
    this.folders = given.length ? given.map((f) => uriToPath(f.uri)) : root ? [root] : [];
    this.followsChanges = !!params.capabilities.workspace?.workspaceFolders;
  }

  /** Once initialized (server.ts owns the one `initialized` handler): follows added and removed folders, then calls `changed`. */
  follow(connection: Connection, changed: () => void): void {
    if (!this.followsChanges) return;
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      const removed = new Set(e.removed.map((f) => uriToPath(f.uri)));
      this.folders = [...this.folders.filter((f) => !removed.has(f)), ...e.added.map((f) => uriToPath(f.uri))];
      changed();
    });
  }

  get all(): readonly string[] {
    return this.folders;
  }

  /** Where a spec at `spec` may read from: the workspace folders and the spec's own folder. */
  rootsFor(spec: string): string[] {
    return specRoots(spec, this.folders);
  }
}
