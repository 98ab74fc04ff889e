/** Language features of layout specs (`.tlayout`), on core/layout. */
import { InlayHint, InlayHintKind, type CompletionItem, type DocumentSymbol, type Hover, type SemanticTokens, type TextEdit } from 'vscode-languageserver';
import type { Diagnostic } from '../../core/common/diagnostic';
import { analyzeLayout, complete, documentSymbols, formatLayout, hover, inlayHints, semanticTokens, type LayoutAnalysis } from '../../core/layout';
import { encodeTokens, toCompletionItem, toDocumentSymbol } from './convert';

export class LayoutDocuments {
  private cache = new Map<string, { version: number; a: LayoutAnalysis }>();

  get(uri: string, path: string, version: number, text: string): LayoutAnalysis {
    const hit = this.cache.get(uri);
    if (hit && hit.version === version) return hit.a;
    const a = analyzeLayout(text, path);
    this.cache.set(uri, { version, a });
    return a;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }
}

export const layoutFeatures = {
  diagnostics: (a: LayoutAnalysis): Diagnostic[] => a.diagnostics,
  hover(a: LayoutAnalysis, offset: number): Hover | null {
    const h = hover(a, offset);
    return h ? { contents: { kind: 'markdown', value: h.markdown }, range: h.range } : null;
  },
  inlay(a: LayoutAnalysis, start: number, end: number): InlayHint[] {
    return inlayHints(a, start, end).map((h) => {
      const hint = InlayHint.create(h.position, h.label, InlayHintKind.Type);
      hint.paddingLeft = true;
      hint.tooltip = h.tooltip;
      return hint;
    });
  },
  complete: (a: LayoutAnalysis, offset: number): CompletionItem[] => (complete(a, offset) ?? []).map(toCompletionItem),
  symbols: (a: LayoutAnalysis): DocumentSymbol[] => documentSymbols(a).map(toDocumentSymbol),
  format: (a: LayoutAnalysis): TextEdit[] => formatLayout(a),
  tokens: (a: LayoutAnalysis): SemanticTokens => encodeTokens(semanticTokens(a)),
};
