/** Language features of layout specs (`.tlayout`), on core/layout. */
import { InlayHint, InlayHintKind, type CodeLens, type CompletionItem, type DocumentSymbol, type Hover, type SemanticTokens, type TextEdit } from 'vscode-languageserver';
import type { Diagnostic } from '../../core/common/diagnostic';
import { analyzeLayout, complete, documentSymbols, formatLayout, hover, inlayHints, semanticTokens, type LayoutAnalysis } from '../../core/layout';
import { csfSparseLoader, type ReadBytes } from '../../core/layout/csfLoader';
import { encodeTokens, toCompletionItem, toDocumentSymbol } from './convert';

/** The command the "Show layout map" code lens runs (client/src/layoutMapPanel.ts registers it). */
export const OPEN_LAYOUT_MAP_COMMAND = 'tensorLens.openLayoutMap';

export class LayoutDocuments {
  private cache = new Map<string, { version: number; a: LayoutAnalysis }>();
  private readonly loadSparse?: ReturnType<typeof csfSparseLoader>;

  /** `readBytes`: the host's binary file access, for `fibers(file="x.csfbin")` (relative to the spec's folder). */
  constructor(readBytes?: ReadBytes) {
    if (readBytes) this.loadSparse = csfSparseLoader(readBytes);
  }

  get(uri: string, path: string, version: number, text: string): LayoutAnalysis {
    const hit = this.cache.get(uri);
    if (hit && hit.version === version) return hit.a;
    const a = analyzeLayout(text, path, { loadSparse: this.loadSparse });
    this.cache.set(uri, { version, a });
    return a;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }

  /** Drops every cached analysis (a file a spec reads may have changed). */
  clear(): void {
    this.cache.clear();
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
  /** "Show layout map" on each tensor that has a model (arguments: document URI, tensor name). */
  codeLenses(a: LayoutAnalysis, uri: string): CodeLens[] {
    return a.tensors.filter((t) => t.model).map((t) => ({ range: t.nameRange, command: { title: 'Show layout map', command: OPEN_LAYOUT_MAP_COMMAND, arguments: [uri, t.name] } }));
  },
};
