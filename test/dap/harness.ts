/**
 * DAP test harness: the `tensor-lens` adapter served in this process on a local socket (one session
 * per connection, the target in a worker thread running debug/worker.ts through tsx), driven by
 * @vscode/debugadapter-testsupport's DebugClient.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { nodeSpawner } from '../../debug/nodeWorker';
import { TensorLensDebugSession } from '../../debug/session';

export const ROOT = join(__dirname, '..', '..');
export const WORKER = join(ROOT, 'debug', 'worker.ts');

export interface Harness {
  dc: DebugClient;
  close(): Promise<void>;
}

export async function startAdapter(): Promise<Harness> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setNoDelay(true);
    const s = new TensorLensDebugSession({ spawn: nodeSpawner(WORKER) });
    if (process.env.TL_DAP_TRACE) {
      // TL_DAP_TRACE=1: every message on stderr
      const log = (dir: string, m: unknown) => process.stderr.write(`${dir} ${JSON.stringify(m).slice(0, 300)}\n`);
      const handle = s.handleMessage.bind(s);
      s.handleMessage = (m) => (log('->', m), handle(m));
      const send = s.sendResponse.bind(s);
      s.sendResponse = (m) => (log('<-', m), send(m));
      const ev = s.sendEvent.bind(s);
      s.sendEvent = (m) => (log('<=', m), ev(m));
    }
    s.setRunAsServer(true);
    s.start(socket, socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const dc = new DebugClient('node', '', 'tensor-lens');
  dc.defaultTimeout = 20_000;
  await dc.start(port);
  queueStops(dc);
  return {
    dc,
    async close() {
      await Promise.race([dc.stop().catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const queues = new WeakMap<DebugClient, { events: DebugProtocol.StoppedEvent[]; waiters: ((e: DebugProtocol.StoppedEvent) => void)[] }>();

/** Queues `stopped` events from the start, so that none is missed between a request and the wait. */
function queueStops(dc: DebugClient): void {
  const q = { events: [] as DebugProtocol.StoppedEvent[], waiters: [] as ((e: DebugProtocol.StoppedEvent) => void)[] };
  queues.set(dc, q);
  let code: number | undefined;
  dc.on('exited', (e: DebugProtocol.ExitedEvent) => (code = e.body.exitCode));
  ends.set(dc, new Promise((resolve) => dc.on('terminated', () => resolve(code))));
  dc.on('stopped', (e: DebugProtocol.StoppedEvent) => {
    const w = q.waiters.shift();
    if (w) w(e);
    else q.events.push(e);
  });
}

const ends = new WeakMap<DebugClient, Promise<number | undefined>>();

/** Resolves when the session has sent `terminated`, with the exit code of its `exited` event (if any). */
export function ended(dc: DebugClient, timeout = 20_000): Promise<number | undefined> {
  return Promise.race([
    ends.get(dc)!,
    new Promise<never>((_r, rej) => setTimeout(() => rej(new Error(`not terminated within ${timeout} ms`)), timeout).unref()),
  ]);
}

/** The next `stopped` event (queued since the client started) and returns its body. */
export async function stopped(dc: DebugClient, timeout = 20_000): Promise<DebugProtocol.StoppedEvent['body']> {
  const q = queues.get(dc)!;
  const e = q.events.shift();
  if (e) return e.body;
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      q.waiters.splice(q.waiters.indexOf(w), 1);
      reject(new Error(`no stopped event within ${timeout} ms`));
    }, timeout);
    const w = (ev: DebugProtocol.StoppedEvent) => {
      clearTimeout(t);
      resolve(ev.body);
    };
    q.waiters.push(w);
  });
}

/** Top frame of a thread. */
export async function top(dc: DebugClient, threadId = 1): Promise<DebugProtocol.StackFrame> {
  const st = await dc.stackTraceRequest({ threadId });
  return st.body.stackFrames[0];
}

/** Variables of a scope (by name) of a frame, as name → variable. */
export async function scopeVars(dc: DebugClient, frameId: number, scope: string): Promise<Map<string, DebugProtocol.Variable>> {
  const sc = await dc.scopesRequest({ frameId });
  const s = sc.body.scopes.find((x) => x.name === scope);
  if (!s) throw new Error(`no scope ${scope} (have ${sc.body.scopes.map((x) => x.name).join(', ')})`);
  const vs = await dc.variablesRequest({ variablesReference: s.variablesReference });
  return new Map(vs.body.variables.map((v) => [v.name, v]));
}

export async function children(dc: DebugClient, v: DebugProtocol.Variable, start?: number, count?: number): Promise<Map<string, DebugProtocol.Variable>> {
  const vs = await dc.variablesRequest({ variablesReference: v.variablesReference, start, count, filter: start !== undefined ? 'indexed' : undefined });
  return new Map(vs.body.variables.map((x) => [x.name, x]));
}

/** Collects output events (category → text). */
export function collectOutput(dc: DebugClient): { text: (category?: string) => string } {
  const got: { category: string; output: string }[] = [];
  dc.on('output', (e: DebugProtocol.OutputEvent) => got.push({ category: e.body.category ?? 'console', output: e.body.output }));
  return {
    text: (c) =>
      got
        .filter((g) => !c || g.category === c)
        .map((g) => g.output)
        .join(''),
  };
}
