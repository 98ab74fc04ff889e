/**
 * The `tensor-lens` debug adapter over stdio (dist/debug/main.js): `node dist/debug/main.js` speaks
 * the Debug Adapter Protocol on stdin/stdout, for editors other than VS Code and for tests.
 */
import { join } from 'node:path';
import { nodeSpawner } from './nodeWorker';
import { TensorLensDebugSession } from './session';

declare const __filename: string;
const here = typeof __filename === 'string' ? __filename : '';
const worker = here.endsWith('.ts') ? join(here, '..', 'worker.ts') : join(here, '..', 'worker.js');
const session = new TensorLensDebugSession({ spawn: nodeSpawner(worker) });
session.start(process.stdin, process.stdout);
