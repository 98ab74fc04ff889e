/** `tensorLens/documentStatus`: the language, dialect and paired files of an open document (the client's language status item). */
import type { Connection } from 'vscode-languageserver';
import { DocumentStatusRequest, type DocumentStatusResult } from '../../core/protocol/lspExt';
import type { DocumentStore } from './documents';
import type { LayoutLanguage } from './languages/layout';
import type { PcoreLanguage } from './languages/pcore';
import type { LanguageRegistry } from './languages/registry';
import type { TprogLanguage } from './languages/tprog';
import type { PulledSettings } from './settings';
import { pathToUri, uriToPath } from './uri';

export function registerDocumentStatus(
  connection: Connection,
  store: DocumentStore,
  languages: LanguageRegistry,
  ours: { tprog: TprogLanguage; pcore: PcoreLanguage; layout: LayoutLanguage },
  settings: PulledSettings,
): void {
  connection.onRequest(DocumentStatusRequest, ({ uri }): DocumentStatusResult => {
    const doc = store.get(uri);
    if (!doc) return { paired: [] };
    const lang = languages.for(doc);
    const path = uriToPath(uri);
    if (lang === ours.tprog) {
      const pcore = store.project.pcorePathFor(path);
      return {
        language: lang.id,
        dialect: ours.tprog.analysis(doc)?.dialect,
        dialectSetting: settings.forPath(path).dialect,
        paired: pcore ? [pathToUri(pcore)] : [],
      };
    }
    if (lang === ours.pcore) return { language: lang.id, paired: store.project.tprogPathsFor(path).map(pathToUri) };
    return { language: lang.id, paired: [], tensors: ours.layout.analysis(doc).tensors.length };
  });
}
