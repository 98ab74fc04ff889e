/**
 * What both integration suites share inside the extension host: the desktop one (index.ts, Node
 * extension host) and the web one (test/vscode-web/index.ts, web-worker extension host, bundled for the
 * browser). So nothing here imports Node modules or mocha itself: each suite hands in its own Mocha
 * (the npm package, or mocha's browser build) and its own `log` (each tags its lines for its launcher).
 */
import * as vscode from 'vscode';

export const EXTENSION_ID = 'tensor-lens.tensor-lens';
/** Language ids of tensor programs and PCORE programs. */
export const TPROG = 'tensor-program';
export const PCORE = 'pcore';

/** What the extension's activate() returns. */
export interface TensorLensApi {
  client: unknown;
  ready: Promise<void>;
}

/** A test: its title and body. */
export type TestCase = [string, () => Promise<void>];

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `probe` until it returns something other than undefined; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const t0 = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message ?? last})` : ''}`);
    await sleep(everyMs);
  }
}

export const codeOf = (d: vscode.Diagnostic) =>
  typeof d.code === 'object' && d.code !== null ? String(d.code.value) : d.code === undefined ? undefined : String(d.code);
export const fmtDiag = (d: vscode.Diagnostic) =>
  `${d.range.start.line + 1}:${d.range.start.character + 1} ${vscode.DiagnosticSeverity[d.severity]} ${codeOf(d)} ${d.message}`;

export function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
}

export function hintLabel(h: vscode.InlayHint): string {
  return typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('');
}

type MochaClass = typeof import('mocha');

export interface SuiteOptions {
  /** The top suite's title (the first line the launcher shows). */
  title: string;
  /** Per-test timeout (ms). */
  timeout: number;
  tests: readonly TestCase[];
  /** Prints a line of the suite's output (tagged for the launcher). */
  log: (msg: string) => void;
  before?: [string, () => void | Promise<void>];
  after?: [string, () => void | Promise<void>];
}

/**
 * Runs `tests` in order with `Mocha` (tdd, no colours) and a reporter printing through `log`: a title
 * line, `  ✓ title (N ms)` or `  ✗ title` with the stack, and last `N passed, M failed` (the line the
 * launchers report). Resolves when every test passed; rejects otherwise, and when the suite could not
 * start (after printing `0 passed, 1 failed`).
 */
export function runSuite(Mocha: MochaClass, o: SuiteOptions): Promise<void> {
  const { log } = o;
  class Reporter {
    constructor(runner: Mocha.Runner) {
      let passed = 0;
      let failed = 0;
      runner.on('suite', (s: Mocha.Suite) => {
        if (s.title) log(s.title);
      });
      runner.on('pass', (t: Mocha.Test) => {
        passed++;
        log(`  ✓ ${t.title} (${t.duration ?? 0} ms)`);
      });
      runner.on('fail', (t: Mocha.Runnable, err: Error) => {
        failed++;
        log(`  ✗ ${t.title}\n      ${(err?.stack ?? String(err)).split('\n').join('\n      ')}`);
      });
      runner.on('end', () => log(`${passed} passed, ${failed} failed`));
    }
  }
  return new Promise<void>((resolve, reject) => {
    try {
      const mocha = new Mocha({ ui: 'tdd', timeout: o.timeout, color: false, reporter: Reporter as unknown as string });
      const suite = Mocha.Suite.create(mocha.suite, o.title);
      if (o.before) suite.beforeAll(o.before[0], o.before[1]);
      for (const [title, fn] of o.tests) suite.addTest(new Mocha.Test(title, fn));
      if (o.after) suite.afterAll(o.after[0], o.after[1]);
      mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
    } catch (e) {
      log(`the suite could not start: ${(e as Error)?.stack ?? e}`);
      log('0 passed, 1 failed');
      reject(e);
    }
  });
}
