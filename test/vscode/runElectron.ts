/**
 * Runs the integration suite (dist/test/vscode/index.js, built by `npm run build`) in a desktop VS Code
 * through @vscode/test-electron. Nothing is downloaded: point VSCODE_EXECUTABLE at an installed
 * VS Code (the `code` binary of a desktop build, >= 1.91). Needs a display (e.g. `xvfb-run -a`).
 *
 *   npm run build && VSCODE_EXECUTABLE=/path/to/code xvfb-run -a npx tsx test/vscode/runElectron.ts
 *
 * Offline machines use scripts/test-vscode.mjs instead, which runs the same module in VS Code's server.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<number> {
  const executable = process.env.VSCODE_EXECUTABLE;
  if (!executable) {
    console.log('SKIPPED: set VSCODE_EXECUTABLE to a desktop VS Code binary to run the suite with @vscode/test-electron');
    return 0;
  }
  if (!existsSync(executable)) {
    console.error(`VSCODE_EXECUTABLE=${executable} does not exist`);
    return 1;
  }
  const repo = resolve(__dirname, '..', '..');
  const extensionTestsPath = join(repo, 'dist', 'test', 'vscode', 'index.js');
  if (!existsSync(extensionTestsPath)) {
    console.error(`${extensionTestsPath} is missing: run \`npm run build\` first`);
    return 1;
  }
  const userData = mkdtempSync(join(tmpdir(), 'tensor-lens-electron-'));
  try {
    return await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: repo,
      extensionTestsPath,
      launchArgs: [
        repo,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        `--user-data-dir=${join(userData, 'user')}`,
        `--extensions-dir=${join(userData, 'extensions')}`,
      ],
    });
  } catch (e) {
    console.error(`the suite failed: ${(e as Error)?.message ?? e}`);
    return 1;
  } finally {
    rmSync(userData, { recursive: true, force: true });
  }
}

void main().then((code) => process.exit(code));
