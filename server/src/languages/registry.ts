/**
 * The server's languages, each one `LanguageFeatures` (tensor programs, PCORE programs, layout specs),
 * picked for a document by its language id — as Langium's service registry picks a language's
 * services — so a request handler asks the document's language and never tests what the document is.
 */
import type { CodeLens, CompletionItem, DocumentSymbol, Hover, InlayHint, Location, SemanticTokens, SignatureHelp, TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../../core/common/diagnostic';
import type { TransferPreviewResult } from '../../../core/protocol/lspExt';
import { uriToPath } from '../uri';

/**
 * What a language answers. Everything but `diagnostics` is optional: a request for a feature the
 * document's language lacks gets the empty answer (null, [] or no tokens). Offsets are into the
 * document's text; lines are 0-based.
 */
export interface LanguageFeatures {
  /** The language id the client gives this language's documents. */
  readonly id: string;
  /** A document under another language id (or none) is of this language when its path says so. */
  ownsPath(path: string): boolean;
  /** Problems of the document (also what its quick fixes come from). */
  diagnostics(doc: TextDocument): Diagnostic[];
  hover?(doc: TextDocument, offset: number): Hover | null;
  inlayHints?(doc: TextDocument, startLine: number, endLine: number): InlayHint[];
  codeLenses?(doc: TextDocument): CodeLens[];
  symbols?(doc: TextDocument): DocumentSymbol[];
  definition?(doc: TextDocument, offset: number): Location[];
  references?(doc: TextDocument, offset: number, includeDeclaration: boolean): Location[];
  completion?(doc: TextDocument, offset: number): CompletionItem[];
  signatureHelp?(doc: TextDocument, offset: number): SignatureHelp | null;
  semanticTokens?(doc: TextDocument): SemanticTokens;
  format?(doc: TextDocument): TextEdit[];
  /** `tensorLens/transferPreview`; undefined when the document has nothing to preview. */
  transferPreview?(doc: TextDocument, fn: string | undefined, rows: number | undefined): TransferPreviewResult | undefined;

  /** The document was closed: drop what is cached for it (called on every language: its id may have changed). */
  forget?(uri: string): void;
  /** Another open document (`changedPath`) changed: drop what of `doc` may depend on it; true when `doc` must be checked again. */
  dependsOn?(doc: TextDocument, changedPath: string): boolean;
  /** The checker's settings changed: drop every cached result. */
  settingsChanged?(): void;
  /** Files changed on disk: drop what read them; true when this language's open documents must be checked again. */
  filesChanged?(uris: string[]): boolean;
}

export class LanguageRegistry {
  private readonly byId: Map<string, LanguageFeatures>;

  /** `languages` in the order their `ownsPath` is asked; the last is the fallback for any other path. */
  constructor(readonly languages: readonly LanguageFeatures[]) {
    this.byId = new Map(languages.map((l) => [l.id, l]));
  }

  /**
   * The document's language: its language id when it is one of ours, else the first language whose
   * path it has (a `.tlayout` or `.p` opened as plain text), else the last (the tensor-program checker,
   * which reads any C file).
   */
  for(doc: TextDocument): LanguageFeatures {
    const byId = this.byId.get(doc.languageId);
    if (byId) return byId;
    const path = uriToPath(doc.uri);
    return this.languages.find((l) => l.ownsPath(path)) ?? this.languages[this.languages.length - 1];
  }
}
