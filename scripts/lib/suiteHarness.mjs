// What the two launchers of the VS Code integration suites share: scripts/test-vscode.mjs (the Node
// extension host, in VS Code's server) and scripts/test-vscode-web.mjs (the web-worker extension host,
// in VS Code for the web). Each starts its own VS Code; from there the work is the same: a workbench in
// chromium (playwright-core) runs the suite module and reports through window.codeAutomationLog and
// codeAutomationExit; the launcher picks the suite's tagged lines out of everything the workbench logs,
// takes the screenshots the suite asks for (`@screenshot NAME`), waits for the exit with a timeout,
// stops what it started (also on SIGINT/SIGTERM), and ends with the suite's `N passed, M failed` line
// (`0 passed, 1 failed` when the harness itself failed), exit status 0 only when run() resolved.
import { join } from 'node:path';

/** A failure of the harness, not of the suite (its message is printed without a stack). */
export class HarnessError extends Error {}

/** The suite's closing line. */
export const SUMMARY = /^\s*(\d+) passed, (\d+) failed\s*$/;

/** Browser flags of both launchers (a headless, quiet chromium). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/**
 * The launcher's options and output, and its cleanup list. `name` prefixes its own lines
 * (`[name] …`); `out` prints a line (the web launcher passes one that bypasses its stdout capture).
 * Options: `--timeout SECONDS` (default `timeoutEnv`'s value, else `defaultTimeoutS`), `--headed`,
 * `--verbose` (or TENSOR_LENS_VSCODE_VERBOSE).
 */
export function createHarness({ name, timeoutEnv, defaultTimeoutS, repo, out = (line) => console.log(line) }) {
  const argv = process.argv.slice(2);
  const opt = (flag, dflt) => {
    const i = argv.indexOf(flag);
    return i >= 0 && argv[i + 1] ? argv[i + 1] : dflt;
  };
  const t0 = Date.now();
  const say = (msg) => out(`[${name}] ${msg}`);
  const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  const rel = (f) => (f.startsWith(repo + '/') ? f.slice(repo.length + 1) : f);

  // Everything this run started, undone in reverse order by cleanup() (each step bounded to 8 s).
  const cleanups = [];
  let cleaning;
  const cleanup = () => {
    cleaning ??= (async () => {
      for (const f of cleanups.reverse()) {
        let timer;
        try {
          await Promise.race([
            f(),
            new Promise((r) => {
              timer = setTimeout(r, 8000);
            }),
          ]);
        } catch {
          /* keep going */
        } finally {
          clearTimeout(timer);
        }
      }
    })();
    return cleaning;
  };
  let signalled = false;
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      if (signalled) process.exit(130); // a second signal: leave at once
      signalled = true;
      say(`${sig}: stopping`);
      setTimeout(() => process.exit(130), 10_000).unref();
      void cleanup().then(() => {
        out('0 passed, 1 failed');
        process.exit(130);
      });
    });
  }

  return {
    timeoutS: Number(opt('--timeout', process.env[timeoutEnv] ?? String(defaultTimeoutS))),
    headed: argv.includes('--headed'),
    verbose: argv.includes('--verbose') || !!process.env.TENSOR_LENS_VSCODE_VERBOSE,
    out,
    say,
    secs,
    rel,
    /** Adds a step to undo at the end (a function returning a promise or nothing). */
    onCleanup: (f) => {
      cleanups.push(f);
    },
    cleanup,
  };
}

/** Chromium with a fresh profile at `profile`, stopped by the harness's cleanup (never by playwright's own signal handlers). */
export async function launchChromium(h, chromiumLib, { executablePath, profile }) {
  let context;
  try {
    context = await chromiumLib.launchPersistentContext(profile, {
      executablePath,
      headless: !h.headed,
      handleSIGINT: false, // the harness stops the browser itself, in cleanup()
      handleSIGTERM: false,
      handleSIGHUP: false,
      viewport: { width: 1400, height: 900 },
      args: CHROMIUM_ARGS,
    });
  } catch (e) {
    throw new HarnessError(`chromium did not start: ${e.message.split('\n')[0]}`);
  }
  h.onCleanup(() => context.close());
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page };
}

/**
 * The suite's output as it arrives on the page: `take(text)` picks the suite's lines out of a logged
 * text (`parse(line)` returns `{ text, seq? }` for a suite line, undefined otherwise; a line with a
 * `seq` already seen came on another channel and is dropped), prints them as `  | line`, collects them
 * in `hostLines` and takes the screenshots they ask for; true when the text held a suite line.
 * `screenshot(name)` saves `artifacts/name.png`.
 */
export function suiteOutput(h, { page, artifacts, parse }) {
  const hostLines = [];
  const seen = new Set();
  const screenshot = async (name) => {
    const f = join(artifacts, `${name}.png`);
    try {
      await page.screenshot({ path: f, timeout: 10_000 });
      h.say(`screenshot: ${h.rel(f)}`);
    } catch (e) {
      h.say(`no screenshot ${name}: ${e.message.split('\n')[0]}`);
    }
  };
  const take = (text) => {
    let suite = false;
    for (const line of text.split('\n')) {
      const m = parse(line);
      if (!m) continue;
      suite = true;
      if (m.seq !== undefined) {
        if (seen.has(m.seq)) continue;
        seen.add(m.seq);
      }
      const l = m.text;
      if (hostLines.length === 0) h.say(`the suite started after ${h.secs()}`);
      hostLines.push(l);
      const shot = /^@screenshot ([\w-]+)\s*$/.exec(l);
      if (shot) {
        void screenshot(shot[1]);
        continue;
      }
      h.out(`  | ${l}`);
    }
    return suite;
  };
  return { hostLines, take, screenshot };
}

/**
 * Waits for `exited` (resolved with `{ code }` by codeAutomationExit, or `{ harness: why }` when the
 * page or the server died) for at most the harness's timeout, then takes the end screenshot.
 */
export async function waitForSuite(h, exited, screenshot) {
  let timer;
  const result = await Promise.race([
    exited,
    new Promise((r) => {
      timer = setTimeout(() => r({ harness: `timed out after ${h.timeoutS} s waiting for the suite (codeAutomationExit)` }), h.timeoutS * 1000);
    }),
  ]);
  clearTimeout(timer);
  if (result.code !== undefined) h.say(`codeAutomationExit(${result.code}) after ${h.secs()}`);
  await screenshot(result.code === 0 ? 'workbench-end' : 'workbench-end-failed');
  return result;
}

/**
 * Runs `main()` (resolving with `{ code } | { harness }` and `hostLines`), reports, cleans up and exits:
 * status 0 only when run() resolved; the last line is the suite's summary, `1 failed` at least when
 * run() rejected, `0 passed, 1 failed` on a harness failure.
 */
export async function runHarness(h, main) {
  let exitCode = 1;
  let last = '0 passed, 1 failed';
  try {
    const r = await main();
    const summary = [...r.hostLines].reverse().find((l) => SUMMARY.test(l));
    if (r.harness) {
      h.say(`HARNESS FAILURE: ${r.harness}`);
      if (summary) h.say(`(the suite had printed: ${summary.trim()})`);
    } else {
      if (!summary) h.say('the suite printed no `N passed, M failed` line (its output did not reach the harness)');
      if (r.code === 0) exitCode = 0;
      else h.say(`the suite failed: run() rejected (codeAutomationExit ${r.code})`);
      if (summary) last = summary.trim();
      else if (r.code === 0) last = '0 passed, 0 failed';
      // a rejected run() always counts as a failure, even when the summary says otherwise
      if (r.code !== 0 && summary && SUMMARY.exec(summary)[2] === '0') last = summary.replace(/(\d+) failed/, '1 failed').trim();
    }
  } catch (e) {
    h.say(`HARNESS FAILURE: ${e instanceof HarnessError ? e.message : (e?.stack ?? e)}`);
  }
  const tc = Date.now();
  await h.cleanup();
  if (h.verbose) h.say(`cleanup took ${Date.now() - tc} ms`);
  h.say(`finished in ${h.secs()} (exit ${exitCode})`);
  h.out(last);
  process.exit(exitCode);
}
