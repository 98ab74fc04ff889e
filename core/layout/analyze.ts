/** `analyzeLayout`: parse and check a `.tlayout` document; the entry point of the editor features and the CLI. */
import type { Diagnostic } from '../common/diagnostic';
import { LineIndex } from '../common/lineIndex';
import type { LayoutFile } from './ast';
import { type CheckOptions, checkLayout, type ProbeInfo, type TargetInfo, type TensorInfo } from './check';
import { parseLayout } from './parse';

export interface LayoutAnalysis {
  file: string;
  text: string;
  lines: LineIndex;
  ast: LayoutFile;
  diagnostics: Diagnostic[];
  targets: TargetInfo[];
  tensors: TensorInfo[];
  probes: ProbeInfo[];
}

export type AnalyzeOptions = Omit<CheckOptions, 'file'>;

export function analyzeLayout(text: string, file: string, options: AnalyzeOptions = {}): LayoutAnalysis {
  const lines = new LineIndex(text);
  const ast = parseLayout(text);
  const r = checkLayout(ast, lines, { ...options, file });
  return { file, text, lines, ast, diagnostics: r.diagnostics, targets: r.targets, tensors: r.tensors, probes: r.probes };
}
