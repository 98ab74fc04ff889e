/**
 * The C functions of a tensor program with their parameters, as a run configuration needs them: how many
 * arguments an entry takes (the editor's check of `args`) and which are pointers (Create Run
 * Configuration gives those a buffer). Read with the checker's C scan, the `>` lines set aside.
 */
import { scanC } from '../tprog/ccontext';
import { scanTensorLines } from '../tprog/lines';
import { defaultEntry } from './run';

export interface EntryParam {
  name: string;
  /** A pointer or array parameter: an address the caller passes (a buffer). */
  pointer: boolean;
}

/** How a parameter is named to the user: its name, or `#n` (1-based) for an unnamed one. */
export function paramName(p: EntryParam, i: number): string {
  return p.name || `#${i + 1}`;
}

export interface EntrySignature {
  name: string;
  params: EntryParam[];
  /** Offsets of the function's name in the text. */
  nameStart: number;
  nameEnd: number;
}

export interface ProgramEntries {
  functions: EntrySignature[];
  /** The function a run without `entry` starts (main, the only kernel_*, the only one never called). */
  defaultEntry?: string;
  /** Functions that can be an entry: main, kernel_* (ztachip's), and functions without parameters nothing calls. */
  entries: string[];
}

/** The functions defined in `text` with their parameters. */
export function programEntries(text: string): ProgramEntries {
  const c = scanC(text, scanTensorLines(text).tensorLines);
  const called = new Set(c.calls.map((x) => x.name));
  const functions = c.functions.map((f) => ({ name: f.name, params: paramsAfter(text, f.nameSpan.end), nameStart: f.nameSpan.start, nameEnd: f.nameSpan.end }));
  return {
    functions,
    defaultEntry: defaultEntry(
      functions.map((f) => f.name),
      called,
    ),
    entries: functions.filter((f) => f.name === 'main' || f.name.startsWith('kernel_') || (!f.params.length && !called.has(f.name))).map((f) => f.name),
  };
}

/** The parameters of the list that opens after offset `at` (a function's name). */
function paramsAfter(text: string, at: number): EntryParam[] {
  const open = text.indexOf('(', at);
  if (open < 0) return [];
  let depth = 0;
  let start = open + 1;
  const parts: string[] = [];
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') {
      depth--;
      if (depth === 0) {
        parts.push(text.slice(start, i));
        break;
      }
    } else if (ch === ',' && depth === 1) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  const out: EntryParam[] = [];
  for (const raw of parts) {
    const p = raw.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').trim();
    if (!p || p === 'void' || p === '...') continue;
    const name = /([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*$/.exec(p)?.[1] ?? '';
    // an unnamed parameter (a type alone) keeps an empty name
    const typeOnly = /^(?:const\s+|volatile\s+|unsigned\s+|signed\s+)*(?:void|char|short|int|long|float|double|u?int\d+_t|size_t|bool)$/.test(p);
    out.push({ name: typeOnly ? '' : name, pointer: /[*[]/.test(p) });
  }
  return out;
}
