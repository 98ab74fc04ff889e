/** What the server tells the client it can do (the `initialize` result). */
import { TextDocumentSyncKind, type InitializeResult } from 'vscode-languageserver';
import { TOKEN_MODIFIERS, TOKEN_TYPES } from '../../core/common/semanticTokens';

export function initializeResult(version: string): InitializeResult {
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      inlayHintProvider: true,
      codeLensProvider: { resolveProvider: false },
      documentSymbolProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      completionProvider: { triggerCharacters: ['$', ':', '.', '(', ' ', '>'] },
      signatureHelpProvider: { triggerCharacters: ['(', ','] },
      codeActionProvider: true,
      documentFormattingProvider: true,
      // one legend for all languages (core/common/semanticTokens.ts)
      semanticTokensProvider: { legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] }, full: true },
      // the folders bound where a layout spec may read .csfbin files (workspace.ts)
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'tensor-lens', version },
  };
}
