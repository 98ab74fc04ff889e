// Bundles the extension with esbuild: client and server for the Node extension host and for the
// browser (web worker server), the CLI, and the integration-test module.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const define = { TENSOR_LENS_VERSION: JSON.stringify(pkg.version) };
// web-tree-sitter's ESM build reads import.meta.url; give CommonJS bundles a real one.
const nodeShim = {
  banner: { js: "const __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
  define: { ...define, 'import.meta.url': '__importMetaUrl' },
};
// The web extension host has no Node worker threads: its bundle gets client/src/debugWeb.ts in place of the debugger.
const webDebugStub = {
  name: 'web-debug-stub',
  setup: (b) =>
    b.onResolve({ filter: /^\.\/debug$/ }, (a) =>
      a.importer.endsWith('activate.ts') ? { path: new URL('../client/src/debugWeb.ts', import.meta.url).pathname } : undefined,
    ),
};
const common = { bundle: true, sourcemap: !production, minify: production, define, logLevel: 'warning', legalComments: 'none' };

const builds = [
  { ...common, entryPoints: ['client/src/node.ts'], outfile: 'dist/client/node.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  { ...common, ...nodeShim, entryPoints: ['server/src/node.ts'], outfile: 'dist/server/node.js', platform: 'node', format: 'cjs', target: 'node20' },
  { ...common, ...nodeShim, entryPoints: ['server/src/simWorker.ts'], outfile: 'dist/server/simWorker.js', platform: 'node', format: 'cjs', target: 'node20' },
  {
    ...common,
    entryPoints: ['client/src/browser.ts'],
    outfile: 'dist/client/browser.js',
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    plugins: [webDebugStub],
    define: { ...define, 'process.env.NODE_DEBUG': 'false', global: 'globalThis' },
  },
  {
    ...common,
    entryPoints: ['server/src/browser.ts'],
    outfile: 'dist/server/browser.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    define: { ...define, 'process.env.NODE_DEBUG': 'false', global: 'globalThis' },
  },
  { ...common, ...nodeShim, entryPoints: ['cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20' },
  { ...common, ...nodeShim, entryPoints: ['debug/worker.ts'], outfile: 'dist/debug/worker.js', platform: 'node', format: 'cjs', target: 'node20' },
  { ...common, ...nodeShim, entryPoints: ['debug/main.ts'], outfile: 'dist/debug/main.js', platform: 'node', format: 'cjs', target: 'node20' },
  {
    ...common,
    entryPoints: ['test/vscode/index.ts'],
    outfile: 'dist/test/vscode/index.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
  },
];

if (!watch) rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await (await import('./build-webview.mjs')).buildWebview({ production, watch });
const t0 = Date.now();
if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('[build] watching…');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  // the simulator's C parser: web-tree-sitter's runtime and the C grammar, beside the bundles
  const req = createRequire(import.meta.url);
  mkdirSync(new URL('../dist/wasm', import.meta.url), { recursive: true });
  for (const f of ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-c/tree-sitter-c.wasm'])
    copyFileSync(req.resolve(f), new URL(`../dist/wasm/${f.split('/')[1]}`, import.meta.url));
  console.log(`[build] ${builds.length} bundles in ${Date.now() - t0} ms${production ? ' (production)' : ''}`);
}
