/**
 * Real-VS-Code tests of the walkthrough's first step, *Tensor Lens: Open the Examples*: the bundled
 * examples are copied into `<folder>/tensor-lens-examples`, and an existing copy is never overwritten.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, type TestCase } from './suite';

const extensionRoot = () => vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri.fsPath;

export const TESTS: TestCase[] = [
  [
    'Open the Examples copies the bundled examples into tensor-lens-examples/ and never overwrites a copy',
    async () => {
      const parent = mkdtempSync(join(tmpdir(), 'tl-examples-'));
      try {
        const first = await vscode.commands.executeCommand<string>('tensorLens.openExamples', vscode.Uri.file(parent), false);
        const target = join(parent, 'tensor-lens-examples');
        assert.equal(vscode.Uri.parse(first).fsPath, target);
        // every example folder and the files of test/, byte for byte
        const bundled = join(extensionRoot(), 'examples');
        assert.deepEqual(readdirSync(target).sort(), readdirSync(bundled).sort());
        for (const f of ['test.m', 'test.p', 'tensorlens.run.json'])
          assert.equal(readFileSync(join(target, 'test', f), 'utf8'), readFileSync(join(bundled, 'test', f), 'utf8'), f);
        // the user's edits survive a second Open the Examples
        writeFileSync(join(target, 'test', 'test.m'), '// mine\n');
        const second = await vscode.commands.executeCommand<string>('tensorLens.openExamples', vscode.Uri.file(parent), false);
        assert.equal(vscode.Uri.parse(second).fsPath, target);
        assert.equal(readFileSync(join(target, 'test', 'test.m'), 'utf8'), '// mine\n');
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    },
  ],
];
