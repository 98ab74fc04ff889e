/** Completion: statement keywords, targets, dtypes, layouts, argument names and values, tensor names in probes. */
import type { LayoutAnalysis } from '../analyze';
import { LAYOUT_ARGS, TARGETS, termFamily, type Family } from '../check';
import { DTYPES } from '../dtypes';
import { ELEMENT_ARRANGEMENTS } from '../models/spyre';
import { TILE_SHAPES } from '../models/ttTile';
import { TT_ARCH_PROPS } from '../models/ttArch';
import { parseLayout } from '../parse';
import type { CompletionEntry } from '../../common/featureResults';
import { CALL_DOCS, dtypeDoc, STATEMENT_DOCS, VALUE_DOCS, wordDoc } from './keywords';

const STATEMENT_SNIPPETS: CompletionEntry[] = [
  {
    label: 'tensor … spyre()',
    kind: 'snippet',
    insertText: 'tensor ${1:x}: ${2:float16}[${3:128, 256}] = spyre()',
    snippet: true,
    detail: 'Spyre tensor, default layout',
  },
  {
    label: 'tensor … tt()',
    kind: 'snippet',
    insertText: 'tensor ${1:x}: ${2:bfloat16}[${3:64, 64}] = tt(layout=${4:tile}, buffer=${5:dram})',
    snippet: true,
    detail: 'TT interleaved tensor',
  },
  {
    label: 'tensor … tt(block_sharded)',
    kind: 'snippet',
    insertText:
      'tensor ${1:x}: ${2:bfloat16}[${3:128, 128}] = tt(layout=tile, memory=block_sharded, shard=[${4:64, 64}], grid=${5:(0,0)-(1,1)}, orientation=row_major)',
    snippet: true,
    detail: 'TT block-sharded tensor',
  },
  {
    label: 'tensor … cells()',
    kind: 'snippet',
    insertText: 'tensor ${1:x}: ${2:int8}[${3:A=2, B=4, C=18}] = cells()',
    snippet: true,
    detail: '16-byte-cell tensor',
  },
  {
    label: 'tensor … strided()',
    kind: 'snippet',
    insertText: 'tensor ${1:x}: ${2:float32}[${3:4, 5}] = strided(strides=[${4:5, 1}])',
    snippet: true,
    detail: 'PyTorch strided view',
  },
  {
    label: 'tensor … fibers()',
    kind: 'snippet',
    insertText: 'tensor ${1:x}: float32[${2:2, 3}] = fibers(ptr=[${3:0, 1, 3}], index=[${4:1, 0, 2}])',
    snippet: true,
    detail: 'fibered sparse tensor',
  },
];

const LAYOUT_TERMS: CompletionEntry[] = [
  { label: 'spyre()', kind: 'function', insertText: 'spyre($1)', snippet: true, documentation: CALL_DOCS.spyre },
  { label: 'tt()', kind: 'function', insertText: 'tt($1)', snippet: true, documentation: CALL_DOCS.tt },
  { label: 'cells()', kind: 'function', insertText: 'cells($1)', snippet: true, documentation: CALL_DOCS.cells },
  { label: 'strided()', kind: 'function', insertText: 'strided($1)', snippet: true, documentation: CALL_DOCS.strided },
  { label: 'fibers()', kind: 'function', insertText: 'fibers(ptr=[$1], index=[$2])', snippet: true, documentation: CALL_DOCS.fibers },
  {
    label: 'SpyreTensorLayout()',
    kind: 'function',
    insertText: 'SpyreTensorLayout(device_size=[$1], dim_map=[$2])',
    snippet: true,
    documentation: CALL_DOCS.SpyreTensorLayout,
  },
  {
    label: 'ttnn.create_sharded_memory_config()',
    kind: 'function',
    insertText:
      'ttnn.create_sharded_memory_config(shape=${1:(32, 32)}, core_grid=ttnn.CoreGrid(y=${2:2}, x=${3:2}), strategy=ttnn.ShardStrategy.${4:BLOCK}, ' +
      'use_height_and_width_as_shard_shape=True)',
    snippet: true,
    documentation: CALL_DOCS.create_sharded_memory_config,
  },
  { label: 'ttnn.DRAM_MEMORY_CONFIG', kind: 'constant', documentation: CALL_DOCS.DRAM_MEMORY_CONFIG },
  { label: 'ttnn.L1_MEMORY_CONFIG', kind: 'constant', documentation: CALL_DOCS.L1_MEMORY_CONFIG },
  { label: 'ttnn.TILE_LAYOUT', kind: 'constant', documentation: CALL_DOCS.TILE_LAYOUT },
  { label: 'ttnn.ROW_MAJOR_LAYOUT', kind: 'constant', documentation: CALL_DOCS.ROW_MAJOR_LAYOUT },
];

const VALUES: Record<string, string[]> = {
  layout: ['tile', 'row_major'],
  buffer: ['dram', 'l1'],
  memory: ['interleaved', 'height_sharded', 'width_sharded', 'block_sharded', 'nd_sharded'],
  strategy: ['ttnn.ShardStrategy.HEIGHT', 'ttnn.ShardStrategy.WIDTH', 'ttnn.ShardStrategy.BLOCK'],
  orientation: ['row_major', 'col_major'],
  tile: TILE_SHAPES.map((t) => `${t[0]}x${t[1]}`),
  transpose_tile: ['true', 'false'],
  relax_rank: ['true', 'false'],
  use_height_and_width_as_shard_shape: ['True', 'False'],
  element_arrangement: [...ELEMENT_ARRANGEMENTS],
  device_dtype: [
    'DataFormats.SEN169_FP16',
    'DataFormats.IEEE_FP32',
    'DataFormats.IEEE_INT32',
    'DataFormats.SENINT8',
    'DataFormats.SENINT16',
    'DataFormats.SEN143_FP8',
    'DataFormats.SEN152_FP8',
  ],
  grid: ['(0,0)-(7,0)', '(0,0)-(1,1)', 'ttnn.CoreGrid(y=2, x=2)'],
  core_grid: ['ttnn.CoreGrid(y=2, x=2)'],
};
// words of the document index this table: without a prototype, `constructor`, `__proto__`, `toString` … are not entries
Object.setPrototypeOf(VALUES, null);

/** Text of the statement around the cursor, from its keyword to the cursor. */
function statementBefore(a: LayoutAnalysis, offset: number): string {
  const pos = a.lines.position(offset);
  for (let line = pos.line; line >= Math.max(0, pos.line - 40); line--) {
    const start = a.lines.starts[line];
    const text = a.text.slice(start, offset);
    if (/^\s*(tensor|probe|target)\b/.test(text) || line === 0) {
      // a statement keyword on this line; make sure we are still inside it (unclosed brackets continue it)
      if (line === pos.line) return text;
      const depth = [...text].reduce((d, c) => d + ('([{'.includes(c) ? 1 : ')]}'.includes(c) ? -1 : 0), 0);
      return depth > 0 ? text : a.text.slice(a.lines.starts[pos.line], offset);
    }
  }
  return a.text.slice(a.lines.starts[pos.line], offset);
}

/** Callee name and argument text of the innermost open `(`, or undefined at the top level. */
function openCall(text: string): { callee: string; after: string; inArgs: string } | undefined {
  const stack: { ch: string; at: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#' || (c === '/' && text[i + 1] === '/')) break;
    if ('([{'.includes(c)) stack.push({ ch: c, at: i });
    else if (')]}'.includes(c)) stack.pop();
  }
  for (let k = stack.length - 1; k >= 0; k--) {
    if (stack[k].ch !== '(') continue;
    if (k !== stack.length - 1) return undefined;
    const before = text.slice(0, stack[k].at);
    const m = /([A-Za-z_][\w.]*)\s*$/.exec(before);
    if (!m) return undefined;
    const inArgs = text.slice(stack[k].at + 1);
    const lastSep = Math.max(inArgs.lastIndexOf(','), -1);
    return { callee: m[1], after: inArgs.slice(lastSep + 1), inArgs };
  }
  return undefined;
}

function familyOf(callee: string): Family | undefined {
  const v = parseLayout(`tensor x: float32[1] = ${callee}`).stmts[0];
  return v && v.kind === 'tensor' && v.layout[0] ? termFamily(v.layout[0]) : undefined;
}

export function complete(a: LayoutAnalysis, offset: number): CompletionEntry[] | undefined {
  const before = statementBefore(a, offset);
  if (/(^|[^"'])(#|\/\/)[^\n]*$/.test(before.split('\n').pop() ?? '')) return undefined;
  if (/^\s*\w*$/.test(before))
    return [
      ...Object.keys(STATEMENT_DOCS)
        .filter((k) => ['target', 'tensor', 'probe'].includes(k))
        .map((k) => ({ label: k, kind: 'keyword' as const, documentation: STATEMENT_DOCS[k] })),
      ...STATEMENT_SNIPPETS,
    ];
  // target
  if (/^\s*target\s+\w*$/.test(before)) return Object.keys(TARGETS).map((t) => ({ label: t, kind: 'module' as const, documentation: TARGETS[t].doc }));
  const tcall = /^\s*target\s+(\w+)\s*\(([^)]*)$/.exec(before);
  if (tcall) {
    const last = tcall[2].split(',').pop() ?? '';
    if (/^\s*\w*$/.test(last)) {
      const keys =
        TARGETS[tcall[1]]?.family === 'tt' ? Object.keys(TT_ARCH_PROPS) : tcall[1] === 'spyre' ? ['memory'] : tcall[1] === 'npu' ? ['cell', 'capacity'] : [];
      return keys.map((k) => ({ label: k, kind: 'field' as const, insertText: `${k}=`, documentation: TT_ARCH_PROPS[k] ?? wordDoc(k) }));
    }
    return [];
  }
  // probe
  if (/^\s*probe\s+\w*$/.test(before))
    return [
      ...a.tensors.map((t) => ({ label: t.name, kind: 'variable' as const, detail: t.summary?.short ?? t.problem })),
      { label: 'address', kind: 'keyword' as const, documentation: STATEMENT_DOCS.address },
    ];
  const pname = /^\s*probe\s+(\w+)\s+\w*$/.exec(before);
  if (pname && pname[1] !== 'address') {
    const t = a.tensors.find((x) => x.name === pname[1]);
    return [
      { label: 'address', kind: 'keyword', documentation: STATEMENT_DOCS.address },
      ...(t?.family === 'spyre'
        ? [{ label: 'device', kind: 'keyword' as const, insertText: 'device[$1]', snippet: true, documentation: STATEMENT_DOCS.device }]
        : []),
    ];
  }
  const paddr = /^\s*probe\s+(?:(\w+)\s+)?address\s+\S+\s+(in\s+)?\w*$/.exec(before);
  if (paddr) {
    const t = a.tensors.find((x) => x.name === paddr[1]);
    const kind =
      t?.model?.kind === 'sparse'
        ? ['main', 'meta']
        : t?.model?.unitKind === 'core'
          ? ['core']
          : t?.model?.unitKind === 'bank'
            ? ['bank']
            : ['bank', 'core', 'main', 'meta'];
    return kind.map((k) => ({ label: k, kind: 'keyword' as const, documentation: STATEMENT_DOCS[k] }));
  }
  if (/^\s*probe\b/.test(before)) return undefined;
  // tensor
  if (!/^\s*tensor\b/.test(before)) return undefined;
  if (/^\s*tensor\s+\w+\s*:\s*[\w.]*$/.test(before)) return DTYPES.map((d) => ({ label: d, kind: 'typeParameter' as const, documentation: dtypeDoc(d) }));
  const call = openCall(before);
  if (call) {
    const fam = familyOf(call.callee);
    const kv = /(\w+)\s*=\s*[\w.]*$/.exec(call.after);
    if (kv) {
      const vals = VALUES[kv[1]];
      if (vals)
        return vals.map((v) => ({ label: v, kind: 'constant' as const, documentation: VALUE_DOCS[v.toUpperCase()] ?? wordDoc(v.replace(/^.*\./, '')) }));
      return [];
    }
    if (/^\s*\w*$/.test(call.after) && fam) {
      const last = call.callee.replace(/^.*\./, '').toLowerCase();
      const keys =
        last === 'create_sharded_memory_config'
          ? ['shape', 'core_grid', 'strategy', 'orientation', 'use_height_and_width_as_shard_shape']
          : Object.keys(LAYOUT_ARGS[fam]);
      const given = new Set([...call.inArgs.matchAll(/(\w+)\s*=/g)].map((m) => m[1]));
      return keys
        .filter((k) => !given.has(k))
        .map((k) => ({ label: k, kind: 'field' as const, insertText: `${k}=`, documentation: LAYOUT_ARGS[fam][k] ?? wordDoc(k) }));
    }
    return [];
  }
  // after the shape: layouts, then `at`
  const afterShape = /^\s*tensor\s+\w+\s*:\s*[\w.]+\s*\[[^\]]*\]\s*(=\s*)?(.*)$/s.exec(before);
  if (afterShape) {
    const rest = afterShape[2];
    if (/\bat\s+\S*$/.test(rest)) return [];
    if (/^[\w.]*$/.test(rest)) return LAYOUT_TERMS;
    if (/[)\w]\s+\w*$/.test(rest))
      return [{ label: 'at', kind: 'keyword', documentation: STATEMENT_DOCS.at }, ...LAYOUT_TERMS.filter((t) => t.label.startsWith('ttnn.'))];
  }
  return undefined;
}
