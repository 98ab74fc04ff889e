/** Language features of PCORE programs (`.p`): diagnostics, hover on symbols, outline. */
import { SymbolKind, type DocumentSymbol, type Hover } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../../core/common/diagnostic';
import { mdCode, mdText } from '../../../core/common/markdown';
import { formatPcoreVariable } from '../../../core/pcore';
import type { PcoreView } from '../../../core/project/pcoreAdapter';
import { isPcorePath, type Project } from '../../../core/project/project';
import { uriToPath } from '../uri';
import type { LanguageFeatures } from './registry';

export const PCORE_LANGUAGE = 'pcore';

/** The Project's view of the program: the tensor programs beside it read the same parse. */
function view(project: Project, doc: TextDocument): PcoreView | undefined {
  return project.pcore(uriToPath(doc.uri), doc.getText()) as PcoreView | undefined;
}

export class PcoreLanguage implements LanguageFeatures {
  readonly id = PCORE_LANGUAGE;

  constructor(private readonly project: Project) {}

  ownsPath(path: string): boolean {
    return isPcorePath(path);
  }

  diagnostics(doc: TextDocument): Diagnostic[] {
    return view(this.project, doc)?.program.diagnostics ?? [];
  }

  hover(doc: TextDocument, offset: number): Hover | null {
    const v = view(this.project, doc);
    const ref = v?.program.symbolAt(offset);
    if (!v || !ref) return null;
    const s = ref.symbol;
    let md: string;
    switch (s.kind) {
      case 'variable':
        md = mdText(formatPcoreVariable(s.variable));
        break;
      case 'param':
        md = mdText(formatPcoreVariable(s.param));
        break;
      case 'local':
        md = mdText(formatPcoreVariable(s.local));
        break;
      case 'function':
        md = `${s.fn.isKernel ? 'kernel' : 'function'} ${mdCode(s.fn.fullName)}(${mdText(s.fn.params.map((p) => `${p.type} ${p.name}`).join(', '))})`;
        break;
      case 'builtin':
        md =
          s.name === 'tid'
            ? '`tid` — thread index 0..15'
            : s.name === 'pid'
              ? '`pid` — PCORE index'
              : '`_VMASK` — lane-enable mask of vector stores (bit i = lane i; -1 = all lanes)';
        break;
      default:
        md = `intrinsic ${mdCode(s.name)}`;
    }
    return { contents: { kind: 'markdown', value: md }, range: v.program.lineIndex.range(ref.start, ref.end) };
  }

  symbols(doc: TextDocument): DocumentSymbol[] {
    const v = view(this.project, doc);
    if (!v) return [];
    const out: DocumentSymbol[] = [];
    for (const c of v.program.classes.values()) {
      const children: DocumentSymbol[] = [];
      for (const x of c.variables.values())
        children.push({ name: x.name, detail: formatPcoreVariable(x), kind: SymbolKind.Field, range: x.range, selectionRange: x.nameRange });
      for (const k of c.kernels.values())
        children.push({ name: k.name, detail: k.isKernel ? 'kernel' : 'function', kind: SymbolKind.Function, range: k.range, selectionRange: k.nameRange });
      if (!children.length) continue;
      const first = children.reduce((m, x) => (x.range.start.line < m.range.start.line ? x : m));
      const last = children.reduce((m, x) => (x.range.end.line > m.range.end.line ? x : m));
      out.push({
        name: c.name,
        kind: SymbolKind.Class,
        range: { start: first.range.start, end: last.range.end },
        selectionRange: first.selectionRange,
        children,
      });
    }
    return out;
  }
}
