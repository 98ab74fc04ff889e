/**
 * Drives a real VS Code workbench (VS Code's server from code-server, the extension installed from the
 * packaged .vsix) in Debian's Chromium the way a user does: keyboard, mouse, the command palette, Quick
 * Open, panels and webviews. Used by test/e2e/scenarios.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Frame, Locator, Page } from 'playwright-core';

export const REPO = resolve(__dirname, '..', '..');
export const ARTIFACTS = join(REPO, 'test-artifacts', 'e2e');

interface VSCodeServer {
  base: string;
  dir: string;
  url(folder: string): string;
  stop(): Promise<void>;
  vs: { chromium: string; vscodeVersion: string };
}
interface VSCodeServerModule {
  startVSCodeServer(o: { vsix: string; settings?: Record<string, unknown>; logFile?: string }): Promise<VSCodeServer>;
  quietSettings(extra?: Record<string, unknown>): Record<string, unknown>;
}

/** A build of the working tree: the packaged extension and the CLI of the same bundles. */
export interface Build {
  dir: string;
  vsix: string;
  /** runs the packaged CLI (`tensor-lens ...`) and returns its stdout; throws on exit status > 1 */
  cli(args: string[], cwd?: string): string;
  dispose(): void;
}

/**
 * Packages the working tree with `scripts/package.mjs` in a temporary copy (the shared dist/ and
 * tensor-lens.vsix of the repository stay as they are; other work may be using them), so the scenarios
 * run exactly what a user installs.
 */
export function buildVsix(): Build {
  // TENSOR_LENS_E2E_BUILD=<dir>: reuse (and keep) the build in <dir> when it has a package, else build there
  const keep = process.env.TENSOR_LENS_E2E_BUILD;
  const dir = keep ? resolve(keep) : mkdtempSync(join(tmpdir(), 'tensor-lens-e2e-build-'));
  const vsix = join(dir, 'tensor-lens.vsix');
  const cli = (args: string[], cwd = dir) => {
    const c = spawnSync(process.execPath, [join(dir, 'bin', 'tensor-lens'), ...args], { cwd, encoding: 'utf8' });
    if (c.status === null || c.status > 1) throw new Error(`tensor-lens ${args.join(' ')} failed (exit ${c.status}): ${c.stderr}`);
    return c.stdout;
  };
  const dispose = () => {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  if (keep && existsSync(vsix)) return { dir, vsix, cli, dispose };
  const ls = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' });
  if (ls.status !== 0) throw new Error(`git ls-files failed: ${ls.stderr}`);
  for (const f of ls.stdout.split('\0')) {
    if (!f || !existsSync(join(REPO, f))) continue; // deleted in the working tree
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(REPO, f), join(dir, f));
  }
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const r = spawnSync(process.execPath, ['scripts/package.mjs', '--out', vsix], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(vsix)) throw new Error(`scripts/package.mjs failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return { dir, vsix, cli, dispose };
}

/** Polls `fn` until it returns a truthy value (returned) or `timeout` ms pass (throws, naming `what`). */
export async function poll<T>(what: string, fn: () => Promise<T> | T, timeout = 30_000, every = 150): Promise<NonNullable<T>> {
  const end = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end)
      throw new Error(
        `timed out after ${timeout} ms waiting for ${what} (last: ${last instanceof Error ? last.message.split('\n')[0] : JSON.stringify(last)})`,
      );
    await new Promise((r) => setTimeout(r, every));
  }
}

export class Workbench {
  private constructor(
    readonly page: Page,
    private readonly context: BrowserContext,
    private readonly server: VSCodeServer,
    readonly folder: string,
    private readonly profile: string,
  ) {}

  /** Starts VS Code with the .vsix installed and opens the workbench on `folder` in Chromium. */
  static async open(vsix: string, folder: string, extraSettings: Record<string, unknown> = {}): Promise<Workbench> {
    const mod = (await import(pathToFileURL(join(REPO, 'scripts', 'lib', 'vscodeServer.mjs')).href)) as VSCodeServerModule;
    mkdirSync(ARTIFACTS, { recursive: true });
    const settings = mod.quietSettings({
      'security.workspace.trust.enabled': false,
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'editor.hover.delay': 200,
      'window.restoreWindows': 'none',
      'extensions.ignoreRecommendations': true,
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      'files.autoSave': 'off',
      'workbench.colorTheme': 'Default Dark Modern',
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.commandCenter.enabled': false,
      ...extraSettings,
    });
    const server = await mod.startVSCodeServer({ vsix, settings, logFile: join(ARTIFACTS, 'server.log') });
    const { chromium } = await import('playwright-core');
    const profile = mkdtempSync(join(tmpdir(), 'tensor-lens-e2e-chromium-'));
    let context: BrowserContext;
    try {
      context = await chromium.launchPersistentContext(profile, {
        executablePath: server.vs.chromium,
        headless: true,
        // wide enough for a text editor and the memory inspector side by side, whole, in the README's screenshots
        viewport: { width: 1600, height: 1000 },
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--disable-dev-shm-usage',
        ],
      });
    } catch (e) {
      await server.stop();
      throw e;
    }
    const page = context.pages()[0] ?? (await context.newPage());
    const wb = new Workbench(page, context, server, folder, profile);
    try {
      await page.goto(server.url(folder), { waitUntil: 'domcontentloaded', timeout: 60_000 });
      await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
      await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
    } catch (e) {
      await wb.close();
      throw e;
    }
    return wb;
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.server.stop().catch(() => undefined);
    rmSync(this.profile, { recursive: true, force: true });
  }

  /**
   * Saves a screenshot of the whole window to test-artifacts/e2e/<name>.png; with TENSOR_LENS_E2E_DOCS=1
   * also over docs/screenshots/<name>.png when the README shows one of that name (how the README's
   * screenshots are taken: `TENSOR_LENS_E2E_DOCS=1 node --import tsx --test test/e2e/scenarios.test.ts`).
   */
  async screenshot(name: string): Promise<string> {
    const file = join(ARTIFACTS, `${name}.png`);
    await this.page.screenshot({ path: file, timeout: 15_000 });
    const doc = join(REPO, 'docs', 'screenshots', `${name}.png`);
    if (process.env.TENSOR_LENS_E2E_DOCS === '1' && existsSync(doc)) cpSync(file, doc);
    return file;
  }

  /**
   * Drags the sash between the first two editor groups so that the first gets `fraction` of their width
   * (a webview beside a text editor then shows its whole width in a screenshot).
   */
  async splitEditorGroups(fraction: number): Promise<void> {
    const groups = this.page.locator('.part.editor .editor-group-container');
    const [a, b] = [await groups.nth(0).boundingBox(), await groups.nth(1).boundingBox()];
    if (!a || !b) throw new Error('splitEditorGroups: two editor groups side by side are needed');
    const y = a.y + a.height / 2;
    const to = a.x + (a.width + b.width) * fraction;
    await this.page.mouse.move(a.x + a.width, y);
    await this.page.mouse.down();
    await this.page.mouse.move(to, y, { steps: 8 });
    await this.page.mouse.up();
    await poll('the editor groups to take their new widths', async () => {
      const box = await groups.nth(0).boundingBox();
      return box && Math.abs(box.width - (to - a.x)) < 24;
    });
  }

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** Types `text` into a fresh quick input opened with `key`, waits for the row whose label is `label`, accepts it. */
  private async quickPick(key: string, text: string, label: RegExp, description?: RegExp, timeout = 20_000): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press(key);
    const input = this.quickInput.locator('input.input');
    await input.waitFor({ timeout });
    await input.fill(text);
    const row = this.quickInput
      .locator('.monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: label }) })
      .filter(description ? { has: this.page.locator('.label-description', { hasText: description }) } : {})
      .first();
    await row.click({ timeout });
    await this.quickInput.waitFor({ state: 'hidden', timeout });
  }

  /** Runs a command by its title through the command palette (F1), e.g. "Tensor Lens: Run Program". */
  async runCommand(title: string, timeout = 20_000): Promise<void> {
    await this.quickPick('F1', `>${title}`, new RegExp(`^${escapeRe(title)}$`), undefined, timeout);
  }

  /** Opens a workspace file with Quick Open (Ctrl+P) by its relative path and waits for its editor tab. */
  async quickOpen(relPath: string, timeout = 20_000): Promise<void> {
    const parts = relPath.split('/');
    const name = parts.pop()!;
    const folder = parts.join('/');
    await this.quickPick('Control+P', relPath, new RegExp(`^${escapeRe(name)}$`), folder ? new RegExp(`(^|/)${escapeRe(folder)}$`) : undefined, timeout);
    await this.page.locator(`.tabs-container .tab.active[aria-label*="${name}"]`).waitFor({ timeout });
  }

  /** Waits until the text of one of `locator`'s elements matches `re` (non-breaking spaces read as spaces); returns that text. */
  async waitForText(locator: Locator, re: RegExp, timeout = 30_000): Promise<string> {
    return poll(
      `text ${re} in ${locator}`,
      async () => {
        const texts = await locator.allTextContents();
        return texts.map((t) => t.replace(/\u00a0/g, ' ')).find((t) => re.test(t));
      },
      timeout,
    );
  }

  /** The active text editor. */
  get editor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor[data-uri]').first();
  }

  /** The rendered line of the active editor whose text matches `re` (the line must be in view). */
  editorLine(re: RegExp | string): Locator {
    return this.editor.locator('.view-lines .view-line', { hasText: re }).first();
  }

  /** Moves the cursor to a line (Ctrl+G) of the active editor. */
  async goToLine(line: number, column = 1): Promise<void> {
    await this.page.keyboard.press('Control+G');
    const input = this.quickInput.locator('input.input');
    await input.waitFor();
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.quickInput.waitFor({ state: 'hidden' });
  }

  /**
   * The frame of the webview whose document has an element matching `selector` (webviews are an
   * iframe.webview holding the view's own iframe); waits for it.
   */
  async webviewFrame(selector: string, timeout = 30_000): Promise<Frame> {
    return poll(
      `a webview with ${selector}`,
      async () => {
        for (const f of this.page.frames()) {
          if (f === this.page.mainFrame() || !f.parentFrame() || f.parentFrame() === this.page.mainFrame()) continue;
          if (
            (await f
              .locator(selector)
              .count()
              .catch(() => 0)) > 0
          )
            return f;
        }
        return undefined;
      },
      timeout,
    );
  }
}

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Polls a JavaScript expression in a frame until it is truthy (frames with a strict CSP forbid eval-based waits). */
export async function until(frame: Frame, expr: string, timeout = 20_000): Promise<void> {
  await poll(expr, () => frame.evaluate(expr), timeout, 50);
}
