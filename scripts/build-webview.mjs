// Bundles the webview UIs (memory inspector, layout map): one iife script and one style sheet per view,
// into dist/media/ (or `outdir`). `node scripts/build-webview.mjs [--production] [--watch] [--outdir=DIR]`,
// or `import { buildWebview } from './build-webview.mjs'` from the main build.
import * as esbuild from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, resolve } from 'node:path';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** esbuild options of the webview bundles. */
export function webviewBuildOptions({ outdir = resolve(root, 'dist/media'), production = false } = {}) {
  return {
    absWorkingDir: root,
    entryPoints: [
      { in: 'media/src/inspector/main.ts', out: 'inspector' },
      { in: 'media/src/inspector/inspector.css', out: 'inspector' },
      { in: 'media/src/layoutmap/main.ts', out: 'layoutmap' },
      { in: 'media/src/layoutmap/layoutmap.css', out: 'layoutmap' },
      { in: 'media/src/csfview/main.ts', out: 'csfview' },
      { in: 'media/src/csfview/csfview.css', out: 'csfview' },
    ],
    outdir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome114'],
    sourcemap: production ? false : 'linked',
    minify: production,
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
  };
}

/** Builds (or watches) the webview bundles; resolves when the first build is done. */
export async function buildWebview(opts = {}) {
  const options = webviewBuildOptions(opts);
  if (opts.watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
    return ctx;
  }
  return esbuild.build(options);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const outArg = args.find((a) => a.startsWith('--outdir='));
  const t0 = Date.now();
  await buildWebview({ production: args.includes('--production'), watch: args.includes('--watch'), outdir: outArg ? resolve(outArg.slice(9)) : undefined });
  console.log(args.includes('--watch') ? '[build-webview] watching…' : `[build-webview] 2 views in ${Date.now() - t0} ms`);
}
