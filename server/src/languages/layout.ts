/** Language features of layout specs (`.tlayout`), on core/layout. One analysis per document version. */
import type { CodeLens } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeLayout, complete, documentSymbols, formatLayout, hover, inlayHints, semanticTokens, type LayoutAnalysis } from '../../../core/layout';
import { csfSparseLoader, type ReadBytes } from '../../../core/layout/csfLoader';
import { OPEN_LAYOUT_MAP_COMMAND } from '../../../core/protocol/lspExt';
import { encodeTokens, toCompletionItem, toDocumentSymbol, toHover, toInlayHint } from '../convert';
import { uriToPath } from '../uri';
import type { LanguageFeatures } from './registry';

export const LAYOUT_LANGUAGE = 'tensor-layout';

export class LayoutLanguage implements LanguageFeatures {
  readonly id = LAYOUT_LANGUAGE;
  private cache = new Map<string, { version: number; a: LayoutAnalysis }>();
  private readonly loadSparse?: ReturnType<typeof csfSparseLoader>;

  /**
   * `readBytes`: the host's binary file access, for `fibers(file="x.csfbin")` (relative to the spec's
   * folder); `roots`: the folders a spec may read from (csfLoader.ts checks the path, `readBytes` its real path).
   */
  constructor(readBytes?: ReadBytes, roots?: (spec: string) => readonly string[]) {
    if (readBytes) this.loadSparse = csfSparseLoader(readBytes, { roots });
  }

  ownsPath(path: string): boolean {
    return path.endsWith('.tlayout');
  }

  analysis(doc: TextDocument): LayoutAnalysis {
    const hit = this.cache.get(doc.uri);
    if (hit && hit.version === doc.version) return hit.a;
    const a = analyzeLayout(doc.getText(), uriToPath(doc.uri), { loadSparse: this.loadSparse });
    this.cache.set(doc.uri, { version: doc.version, a });
    return a;
  }

  diagnostics(doc: TextDocument) {
    return this.analysis(doc).diagnostics;
  }

  hover(doc: TextDocument, offset: number) {
    const h = hover(this.analysis(doc), offset);
    return h ? toHover(h) : null;
  }

  inlayHints(doc: TextDocument, startLine: number, endLine: number) {
    return inlayHints(this.analysis(doc), startLine, endLine).map(toInlayHint);
  }

  completion(doc: TextDocument, offset: number) {
    return (complete(this.analysis(doc), offset) ?? []).map(toCompletionItem);
  }

  symbols(doc: TextDocument) {
    return documentSymbols(this.analysis(doc)).map(toDocumentSymbol);
  }

  format(doc: TextDocument) {
    return formatLayout(this.analysis(doc));
  }

  semanticTokens(doc: TextDocument) {
    return encodeTokens(semanticTokens(this.analysis(doc)));
  }

  /** "Show layout map" on each tensor that has a model (arguments: document URI, tensor name). */
  codeLenses(doc: TextDocument): CodeLens[] {
    return this.analysis(doc)
      .tensors.filter((t) => t.model)
      .map((t) => ({ range: t.nameRange, command: { title: 'Show layout map', command: OPEN_LAYOUT_MAP_COMMAND, arguments: [doc.uri, t.name] } }));
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }

  /** A `.csfbin` a spec may read changed on disk: every spec is analysed again. */
  filesChanged(uris: string[]): boolean {
    if (!uris.some((u) => u.toLowerCase().endsWith('.csfbin'))) return false;
    this.cache.clear();
    return true;
  }
}
