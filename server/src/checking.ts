/**
 * When documents are checked: a short quiet time after each edit (several edits, one check), again
 * when something they read changed — another open document, a watched file, the settings.
 */
import type { Connection } from 'vscode-languageserver';
import type { DiagnosticsPublisher } from './diagnostics';
import type { DocumentStore } from './documents';
import type { LanguageRegistry } from './languages/registry';
import type { Settings } from './settings';
import { uriToPath } from './uri';

export class CheckScheduler {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly publisher: DiagnosticsPublisher,
    private readonly settings: Settings,
  ) {}

  /** Publishes the document's diagnostics after `delay` ms, unless scheduled again before. */
  schedule(uri: string, delay = this.settings.checkDelayMs): void {
    const t = this.timers.get(uri);
    if (t) clearTimeout(t);
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        this.publisher.publish(uri);
      }, delay),
    );
  }
}

/** Checks documents as they open and change, and those that depend on a changed one; clears closed ones. */
export function listenForChanges(
  connection: Connection,
  store: DocumentStore,
  languages: LanguageRegistry,
  scheduler: CheckScheduler,
  publisher: DiagnosticsPublisher,
  settings: Settings,
): void {
  const { documents } = store;
  documents.onDidOpen((e) => scheduler.schedule(e.document.uri, 0));
  connection.onDidChangeWatchedFiles((p) => {
    const uris = p.changes.map((c) => c.uri);
    for (const f of store.filesChanged) f(uris);
    for (const lang of languages.languages) {
      if (!lang.filesChanged?.(uris)) continue;
      for (const d of documents.all()) if (languages.for(d) === lang) scheduler.schedule(d.uri);
    }
  });
  documents.onDidChangeContent((e) => {
    const changed = e.document.uri;
    publisher.dropRun(changed);
    scheduler.schedule(changed);
    // later than the edited document itself: it is the one being typed in
    const path = uriToPath(changed);
    for (const doc of documents.all()) {
      if (doc.uri !== changed && languages.for(doc).dependsOn?.(doc, path)) scheduler.schedule(doc.uri, settings.checkDelayMs * 2);
    }
  });
  documents.onDidClose((e) => {
    for (const lang of languages.languages) lang.forget?.(e.document.uri);
    store.project.forget(uriToPath(e.document.uri));
    publisher.clear(e.document.uri);
  });
}
