/**
 * Runs the integration suite (dist/test/vscode/index.js, built by `npm run build`) in a DESKTOP VS Code through
 * @vscode/test-electron, for machines that have one. It is not what runs the suite in `npm test` and CI: the VS Code this
 * project installs (scripts/setup-vscode.mjs) is the server build inside the npm package code-server, which has no Electron
 * binary for `runTests({ vscodeExecutablePath })` to start, and a desktop build cannot be had offline (test-electron downloads
 * it from update.code.visualstudio.com; Debian packages neither VS Code nor Electron; the `electron` npm package downloads its
 * binary from GitHub at install). scripts/test-vscode.mjs runs this same module in that server's Node extension host instead.
 *
 *   VSCODE_EXECUTABLE=/path/to/code xvfb-run -a npx tsx test/vscode/runElectron.ts   a desktop build already installed
 *   xvfb-run -a npx tsx test/vscode/runElectron.ts --download                          test-electron downloads stable (internet)
 *
 * Without either it does not run anything and says so with exit status 2 (never a "skipped" success).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';

const NOT_RUN = `runElectron: not run — give a desktop VS Code: VSCODE_EXECUTABLE=/path/to/code (or --download, which needs the internet).
The integration suite runs in npm test and CI with \`npm run test:vscode\` (scripts/test-vscode.mjs): VS Code 1.139's server build
from code-server, which has no Electron binary this runner could start.`;

async function main(): Promise<number> {
  const executable = process.env.VSCODE_EXECUTABLE;
  const download = process.argv.includes('--download');
  if (!executable && !download) {
    console.error(NOT_RUN);
    return 2;
  }
  if (executable && !existsSync(executable)) {
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
      ...(executable ? { vscodeExecutablePath: executable } : { version: 'stable' }),
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
