// npm's `prepare`: builds after `npm ci` / `npm install`. Not under `npx tensor-lens` (npm_command
// `exec`), which installs this folder into npx's cache and would otherwise rebuild everything (about
// 4.5 s) before each first run there: bin/tensor-lens builds by itself when dist/ is missing or stale.
import { spawnSync } from 'node:child_process';

if (process.env.npm_command === 'exec') process.exit(0);
const r = spawnSync(process.execPath, [new URL('./build.mjs', import.meta.url).pathname], { stdio: 'inherit' });
process.exit(r.status ?? 1);
