/** Hover: address mapping of terms, transfer tables, tensor variables, PCORE members, macros, keywords. */
import type { Range } from '../../common/diagnostic';
import type { HoverResult } from '../../common/featureResults';
import type { TprogAnalysis } from '../analyze';
import { locate } from '../locate';
import { termSummary, transferTable } from '../explain';
import { KEYWORD_DOCS } from './keywords';
import { runHover, runRecordOf, runSideHover, type RunValues } from './runValues';
import { mdBlock, mdCode, mdText } from '../../common/markdown';

const baseName = (f: string) => mdText(f.split('/').pop() ?? f);

/** `run`: the values of the last run or debugger stop, shown beside the static form of a `>` statement. */
export function hover(a: TprogAnalysis, offset: number, run?: RunValues): HoverResult | undefined {
  const loc = locate(a, offset);
  if (!loc) return hoverC(a, offset);
  const { unit, info, node } = loc;
  if (!info || !node) return undefined;
  const range = a.rangeOf(unit, node.span);
  const ran = runRecordOf(a, info, run);
  const withRun = (markdown: string, section: string | undefined) => (section ? `${markdown}\n\n${section}` : markdown);
  switch (node.kind) {
    case 'op': {
      if (info.stmt.kind === 'vardef')
        return info.src
          ? {
              markdown: withRun(
                '**tensor variable definition** — the descriptor below is evaluated now and stored in a slot of this ' +
                  `process\n\n${termSummary(info.src).join('  \n')}`,
                ran && runHover(ran, run!.label),
              ),
              range,
            }
          : undefined;
      const table = transferTable(info);
      const parts = [`**transfer** ${info.dst?.desc.total ?? '?'} elements (the destination count is the length)`];
      if (info.dst) parts.push(`destination — ${termSummary(info.dst).join('  \n')}`);
      if (info.src) parts.push(`source — ${termSummary(info.src).join('  \n')}`);
      if (table) parts.push(mdBlock(table));
      if (ran) parts.push(runHover(ran, run!.label));
      return { markdown: parts.join('\n\n'), range };
    }
    case 'space':
    case 'term':
    case 'index': {
      const side = node.term === info.dst ? 'dst' : node.term === info.src ? 'src' : undefined;
      return { markdown: withRun(termSummary(node.term).join('  \n'), ran && side && runSideHover(ran, side, run!.label)), range };
    }
    case 'member': {
      const m = node.term.member;
      const lines = termSummary(node.term);
      if (m) lines.unshift(`${mdCode(m.fullName)} — ${mdText(m.summary)}${a.pcore ? ` (${baseName(a.pcore.file)})` : ''}`);
      return { markdown: lines.join('  \n'), range };
    }
    case 'var': {
      const def = [...a.varDefs].reverse().find((d) => d.name === node.name && d.info && d.info.unit.buf.firstLine <= unit.buf.firstLine);
      if (!def?.info) return { markdown: `tensor variable ${mdCode(node.name)} (no definition before this point)`, range };
      const defText = def.info.unit.buf.text.slice(def.info.stmt.span.start, def.info.stmt.span.end);
      const sum = def.info.src ? termSummary(def.info.src) : [];
      return {
        markdown:
          `tensor variable ${mdCode(node.name)} (slot ${def.slot}) — defined on line ${def.range.start.line + 1}:\n\n` +
          `${mdBlock('> ' + defText + ';')}\n\n${sum.join('  \n')}` +
          `${def.hasPlaceholder ? '  \n`[$]` is replaced by the index given at each use' : ''}`,
        range,
      };
    }
    case 'global': {
      const r = a.pcore?.lookupMember(node.name);
      return {
        markdown:
          r && r.ok
            ? `${mdCode(node.name)} — ${mdText(r.member.summary)}` +
              `${r.member.global ? `; written to host register PARM${r.member.globalSlot ?? 0} and read by the next EXE` : ''}`
            : `${mdCode(node.name)} kernel parameter`,
        range,
      };
    }
    case 'kernel': {
      const k = a.pcore?.kernel(node.name);
      return {
        markdown: k
          ? `kernel ${mdCode(k.fullName)}(${mdText(k.params.map((p) => p.summary).join(', '))})`
          : `kernel ${mdCode(node.name)} (not found in the PCORE program)`,
        range,
      };
    }
    case 'keyword':
    case 'prefix': {
      const word = node.kind === 'keyword' ? node.word : node.prefix.kind;
      const doc = KEYWORD_DOCS[word];
      if (node.kind === 'prefix' && node.prefix.kind === 'FOR') return { markdown: `${doc ?? ''}\n\n${termSummary(node.term).slice(-3).join('  \n')}`, range };
      return doc ? { markdown: doc, range } : undefined;
    }
    case 'ident':
      return hoverIdent(a, node.name, a.docSpan(unit, node.span).start, range, info.resolve);
    default:
      return undefined;
  }
}

function hoverIdent(a: TprogAnalysis, name: string, docOffset: number, range: Range, resolve: (n: string) => number | undefined): HoverResult | undefined {
  const m = a.values.macro(name);
  const v = resolve(name);
  if (m)
    return {
      markdown:
        mdCode(`#define ${name}${m.params ? '(' + m.params.join(',') + ')' : ''} ${m.value}`) +
        `${v !== undefined && String(v) !== m.value ? ` = **${v}**` : ''}` +
        `${m.file && m.file !== a.file ? `  \nfrom ${baseName(m.file)}` : ''}`,
      range,
    };
  const cv = a.values.variableAt(name, docOffset);
  if (cv)
    return {
      markdown: `${mdCode(`${cv.type} ${name}${cv.init ? ' = ' + cv.init : ''}`)}${v !== undefined ? ` = **${v}** here` : ' (value known only at run time)'}`,
      range,
    };
  if (v !== undefined) return { markdown: `${mdCode(name)} = **${v}** (machine constant)`, range };
  const doc = KEYWORD_DOCS[name.toUpperCase()];
  return doc ? { markdown: doc, range } : undefined;
}

function hoverC(a: TprogAnalysis, offset: number): HoverResult | undefined {
  const text = a.text;
  let s = offset;
  let e = offset;
  while (s > 0 && /[A-Za-z0-9_]/.test(text[s - 1])) s--;
  while (e < text.length && /[A-Za-z0-9_]/.test(text[e])) e++;
  if (s === e) return undefined;
  // $cls::kernel address in C code
  const ref = a.c.kernelRefs.find((r) => offset >= r.span.start && offset <= r.span.end);
  if (ref) {
    const k = a.pcore?.kernel(ref.name);
    return {
      markdown: k
        ? `encoded address of kernel ${mdCode(k.fullName)} (replaced by the compiler with the kernel's code address)`
        : `${mdCode('$' + ref.name)}: not a kernel of the PCORE program (left unchanged by the compiler)`,
      range: a.lines.range(ref.span.start, ref.span.end),
    };
  }
  const name = text.slice(s, e);
  if (!a.values.macro(name) && !a.values.variableAt(name, s)) return undefined;
  return hoverIdent(a, name, s, a.lines.range(s, e), a.values.resolverAt(s));
}
