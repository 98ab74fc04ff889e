/**
 * Shared helpers of the real-VS-Code suite (see index.ts). Area files (csf.ts, layout.ts, inspector.ts,
 * debug.ts) import from here and export their own `TESTS` list; index.ts runs them in order.
 */
import * as path from 'node:path';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'tensor-lens.tensor-lens';
export const TPROG = 'tensor-program';
export const PCORE = 'pcore';

export interface RunResult {
  summary: { statements: number };
  dumps: { values?: number[] }[];
  error: { message: string; line: number } | null;
}

/** A test: its title and body. */
export type TestCase = [string, () => Promise<void>];

// ---------------------------------------------------------------- helpers

/**
 * Every line the suite prints carries this tag, so that a launcher can pick the suite's output out of
 * everything else the workbench logs (scripts/test-vscode.mjs strips it again).
 */
export const TAG = '[tensor-lens-suite] ';
export const log = (msg: string) => console.log(msg.split('\n').map((l) => TAG + l).join('\n'));
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `probe` until it returns something other than undefined; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const t0 = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message ?? last})` : ''}`);
    await sleep(everyMs);
  }
}

let root: vscode.Uri;
/** Set once the extension is located (index.ts). */
export function setRoot(uri: vscode.Uri): void {
  root = uri;
}
export const file = (rel: string) => vscode.Uri.joinPath(root, ...rel.split('/'));

/** The live document for `uri` (a language switch replaces the TextDocument object). */
export function liveDoc(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
}

export async function open(rel: string, show = true): Promise<vscode.Uri> {
  const uri = file(rel);
  const doc = await vscode.workspace.openTextDocument(uri);
  if (show) await vscode.window.showTextDocument(doc, { preview: false });
  return uri;
}

export async function languageBecomes(uri: vscode.Uri, id: string, timeoutMs = 15_000): Promise<vscode.TextDocument> {
  return waitFor(`${path.posix.basename(uri.path)} to become ${id} (is ${liveDoc(uri)?.languageId})`, () => {
    const d = liveDoc(uri);
    return d && d.languageId === id ? d : undefined;
  }, timeoutMs);
}

export const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' && d.code !== null ? String(d.code.value) : d.code === undefined ? undefined : String(d.code));
export const fmtDiag = (d: vscode.Diagnostic) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${vscode.DiagnosticSeverity[d.severity]} ${codeOf(d)} ${d.message}`;

export function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
}

export function hintLabel(h: vscode.InlayHint): string {
  return typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('');
}

/** Position of the first occurrence of `needle` on the first line matching `lineRe` (0-based). */
export function positionOf(doc: vscode.TextDocument, lineRe: RegExp, needle: string): vscode.Position {
  for (let i = 0; i < doc.lineCount; i++) {
    const t = doc.lineAt(i).text;
    if (lineRe.test(t)) {
      const c = t.indexOf(needle);
      assert.ok(c >= 0, `line ${i + 1} has no ${needle}`);
      return new vscode.Position(i, c);
    }
  }
  throw new Error(`no line matches ${lineRe}`);
}

