/**
 * Helpers of the real-VS-Code suite (see index.ts) that need the Node extension host or the repository
 * as the workspace; those the web suite also uses are in suite.ts. Area files (csf.ts, layout.ts,
 * inspector.ts, debug.ts, …) import from both and export their own `TESTS` list; index.ts runs them in order.
 */
import * as path from 'node:path';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './suite';

export interface RunResult {
  summary: { statements: number };
  dumps: { values?: number[] }[];
  error: { message: string; line: number } | null;
}

// ---------------------------------------------------------------- helpers

/**
 * Every line the suite prints carries this tag, so that a launcher can pick the suite's output out of
 * everything else the workbench logs (scripts/test-vscode.mjs strips it again).
 */
export const TAG = '[tensor-lens-suite] ';
export const log = (msg: string) =>
  console.log(
    msg
      .split('\n')
      .map((l) => TAG + l)
      .join('\n'),
  );

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
  return waitFor(
    `${path.posix.basename(uri.path)} to become ${id} (is ${liveDoc(uri)?.languageId})`,
    () => {
      const d = liveDoc(uri);
      return d && d.languageId === id ? d : undefined;
    },
    timeoutMs,
  );
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
