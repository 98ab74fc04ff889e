/**
 * The editor features over LSP: each request goes to its document's language (languages/registry.ts);
 * a document that is not open, or whose language lacks the feature, gets the empty answer. A failing
 * handler is logged and answered with that empty answer, never fatal.
 */
import type { Connection } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { TransferPreviewRequest, type TransferPreviewResult } from '../../core/protocol/lspExt';
import { toCodeActions } from './convert';
import type { DocumentStore } from './documents';
import type { LanguageFeatures, LanguageRegistry } from './languages/registry';

export function registerFeatures(connection: Connection, store: DocumentStore, languages: LanguageRegistry): void {
  /** Runs `f` on the document's language: `fallback` when the document is not open or `f` has no answer, `failed` when it throws. */
  function on<T>(name: string, uri: string, fallback: T, f: (lang: LanguageFeatures, doc: TextDocument) => T | undefined, failed = fallback): T {
    try {
      const doc = store.get(uri);
      return (doc && f(languages.for(doc), doc)) ?? fallback;
    } catch (e) {
      connection.console.log(`[error] ${name} failed: ${(e as Error)?.stack ?? e}`);
      return failed;
    }
  }

  connection.onHover((p) => on('hover', p.textDocument.uri, null, (l, doc) => l.hover?.(doc, doc.offsetAt(p.position))));
  connection.languages.inlayHint.on((p) => on('inlayHint', p.textDocument.uri, [], (l, doc) => l.inlayHints?.(doc, p.range.start.line, p.range.end.line)));
  connection.onCodeLens((p) => on('codeLens', p.textDocument.uri, [], (l, doc) => l.codeLenses?.(doc)));
  connection.onDocumentSymbol((p) => on('documentSymbol', p.textDocument.uri, [], (l, doc) => l.symbols?.(doc)));
  connection.onDefinition((p) => on('definition', p.textDocument.uri, [], (l, doc) => l.definition?.(doc, doc.offsetAt(p.position))));
  connection.onReferences((p) =>
    on('references', p.textDocument.uri, [], (l, doc) => l.references?.(doc, doc.offsetAt(p.position), p.context.includeDeclaration)),
  );
  connection.onCompletion((p) => on('completion', p.textDocument.uri, [], (l, doc) => l.completion?.(doc, doc.offsetAt(p.position))));
  connection.onSignatureHelp((p) => on('signatureHelp', p.textDocument.uri, null, (l, doc) => l.signatureHelp?.(doc, doc.offsetAt(p.position))));
  connection.languages.semanticTokens.on((p) => on('semanticTokens', p.textDocument.uri, { data: [] }, (l, doc) => l.semanticTokens?.(doc)));
  connection.onDocumentFormatting((p) => on('formatting', p.textDocument.uri, [], (l, doc) => l.format?.(doc)));

  // quick fixes: those of the diagnostics on the lines of the range
  connection.onCodeAction((p) =>
    on('codeAction', p.textDocument.uri, [], (l, doc) => {
      const inRange = l.diagnostics(doc).filter((d) => d.range.start.line <= p.range.end.line && d.range.end.line >= p.range.start.line);
      return toCodeActions(p.textDocument.uri, inRange);
    }),
  );

  const noPreview: TransferPreviewResult = { markdown: 'not a tensor program', transfers: 0 };
  const failedPreview: TransferPreviewResult = { markdown: 'internal error', transfers: 0 };
  connection.onRequest(TransferPreviewRequest, (p) =>
    on('transferPreview', p.uri, noPreview, (l, doc) => l.transferPreview?.(doc, p.function, p.rows), failedPreview),
  );
}
