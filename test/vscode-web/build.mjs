// Bundles the web integration suite (test/vscode-web/index.ts) for VS Code's web-worker extension host:
// dist/test/vscode-web/index.js (CommonJS, platform browser, `vscode` external, mocha's browser build
// inlined). `npm run build` does not build it (and wipes dist/); scripts/test-vscode-web.mjs calls
// buildWebSuite() before every run. Standalone: node test/vscode-web/build.mjs
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WEB_SUITE_JS = join(REPO, 'dist', 'test', 'vscode-web', 'index.js');

/**
 * mocha/mocha.js is a UMD file, but mocha's package.json says "type": "module", so esbuild would inline
 * it as ESM and its `module.exports = factory()` would overwrite THIS bundle's exports (the extension
 * host would then call mocha's own run() instead of ours). Load it as a CommonJS module of its own.
 */
const mochaBrowserBuild = {
  name: 'mocha-browser-build',
  setup(build) {
    build.onResolve({ filter: /^mocha\/mocha\.js$/ }, () => ({
      path: createRequire(join(REPO, 'package.json')).resolve('mocha/mocha.js'),
      namespace: 'mocha-umd',
    }));
    build.onLoad({ filter: /.*/, namespace: 'mocha-umd' }, (args) => ({
      contents: `var module = { exports: {} }, exports = module.exports;\n${readFileSync(args.path, 'utf8')}\nexport default module.exports;\n`,
      loader: 'js',
    }));
  },
};

export async function buildWebSuite() {
  await esbuild.build({
    absWorkingDir: REPO,
    entryPoints: [join(REPO, 'test', 'vscode-web', 'index.ts')],
    outfile: WEB_SUITE_JS,
    bundle: true,
    format: 'cjs',
    platform: 'browser',
    target: 'es2022',
    external: ['vscode'],
    define: { 'process.env.NODE_DEBUG': 'false', global: 'globalThis' },
    sourcemap: 'inline',
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [mochaBrowserBuild],
  });
  return WEB_SUITE_JS;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  const out = await buildWebSuite();
  console.log(`[build] ${out.slice(REPO.length + 1)} in ${Date.now() - t0} ms`);
}
