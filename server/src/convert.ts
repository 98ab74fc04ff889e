/** Conversions from engine results (core/common: the same for every language) to LSP types. */
import {
  CodeAction,
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  InlayHint,
  InlayHintKind,
  InsertTextFormat,
  SymbolKind,
  type CompletionItem,
  type Diagnostic as LspDiagnostic,
  type DocumentSymbol,
  type Hover,
} from 'vscode-languageserver';
import type { Diagnostic } from '../../core/common/diagnostic';
import type { CompletionEntry, DocSymbol, HoverResult, InlayHintItem } from '../../core/common/featureResults';
import type { SemToken } from '../../core/common/semanticTokens';

const SEV: Record<Diagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  const out: LspDiagnostic = { range: d.range, severity: SEV[d.severity], code: d.code, source: 'tensor-lens', message: d.message };
  if (d.tags) out.tags = d.tags.map((t) => (t === 'unnecessary' ? DiagnosticTag.Unnecessary : DiagnosticTag.Deprecated));
  return out;
}

export function toCodeActions(uri: string, diags: Diagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of diags) {
    for (const f of d.fixes ?? []) {
      const action = CodeAction.create(f.title, { changes: { [uri]: f.edits } }, CodeActionKind.QuickFix);
      action.diagnostics = [toLspDiagnostic(d)];
      action.isPreferred = f.preferred;
      out.push(action);
    }
  }
  return out;
}

const SYM: Record<DocSymbol['kind'] & string, SymbolKind> = {
  function: SymbolKind.Function,
  event: SymbolKind.Event,
  variable: SymbolKind.Variable,
  constant: SymbolKind.Constant,
  operator: SymbolKind.Operator,
  module: SymbolKind.Module,
};

export function toDocumentSymbol(s: DocSymbol): DocumentSymbol {
  return {
    name: s.name || '?',
    detail: s.detail,
    kind: SYM[s.kind],
    range: s.range,
    selectionRange: s.selectionRange,
    children: s.children.map(toDocumentSymbol),
  };
}

const CK: Record<CompletionEntry['kind'], CompletionItemKind> = {
  keyword: CompletionItemKind.Keyword,
  module: CompletionItemKind.Module,
  typeParameter: CompletionItemKind.TypeParameter,
  field: CompletionItemKind.Field,
  function: CompletionItemKind.Function,
  variable: CompletionItemKind.Variable,
  constant: CompletionItemKind.Constant,
  class: CompletionItemKind.Class,
  snippet: CompletionItemKind.Snippet,
};

export function toCompletionItem(e: CompletionEntry): CompletionItem {
  return {
    label: e.label,
    kind: CK[e.kind],
    detail: e.detail,
    documentation: e.documentation ? { kind: 'markdown', value: e.documentation } : undefined,
    insertText: e.insertText,
    insertTextFormat: e.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
  };
}

export function toHover(h: HoverResult): Hover {
  return { contents: { kind: 'markdown', value: h.markdown }, range: h.range };
}

export function toInlayHint(h: InlayHintItem): InlayHint {
  const hint = InlayHint.create(h.position, h.label, InlayHintKind.Type);
  hint.paddingLeft = true;
  hint.tooltip = h.tooltip;
  return hint;
}

/** LSP's relative encoding of semantic tokens (sorted by position). */
export function encodeTokens(tokens: SemToken[]): { data: number[] } {
  const data: number[] = [];
  let line = 0;
  let char = 0;
  for (const t of tokens) {
    const dl = t.line - line;
    data.push(dl, dl === 0 ? t.char - char : t.char, t.length, t.type, t.modifiers);
    line = t.line;
    char = t.char;
  }
  return { data };
}
