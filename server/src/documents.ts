/**
 * The open documents and the Project that reads them: a file open in the editor is read from its
 * buffer (unsaved text included), any other from the host's disk access.
 */
import { TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileSystem } from '../../core/project/fileSystem';
import { Project } from '../../core/project/project';
import type { ServerHost } from './host';
import type { Settings } from './settings';
import { pathToUri, uriToPath } from './uri';

export class DocumentStore {
  readonly documents = new TextDocuments(TextDocument);
  /** Shared by tensor programs and PCORE programs (a `.m` reads its `.p` and headers through it). */
  readonly project: Project;

  constructor(host: ServerHost, settings: Settings) {
    const fs: FileSystem = {
      read: (path) => {
        const doc = this.documents.get(pathToUri(path));
        if (doc) return doc.getText();
        try {
          return host.readDisk?.(path);
        } catch {
          return undefined;
        }
      },
    };
    this.project = new Project({ fs, loadPcore: host.loadPcore, dialect: settings.dialect, includePaths: settings.includePaths });
  }

  get(uri: string): TextDocument | undefined {
    return this.documents.get(uri);
  }

  all(): TextDocument[] {
    return this.documents.all();
  }

  /** Every open document's text by path (a run reads these rather than the saved files). */
  overlay(): Record<string, string> {
    const overlay: Record<string, string> = {};
    for (const d of this.documents.all()) overlay[uriToPath(d.uri)] = d.getText();
    return overlay;
  }

  /** Files changed on disk (the client's file events): listeners drop what they keep of them. */
  readonly filesChanged: ((uris: string[]) => void)[] = [];

  /** Length of a line (0-based) of an open document, without its line break; undefined when not open. */
  lineLength(uri: string, line: number): number | undefined {
    return this.documents
      .get(uri)
      ?.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } })
      .replace(/\r?\n$/, '').length;
  }
}
