/**
 * The extension side of the `.csfbin` viewer protocol (core/protocol/webview.ts, "csfbin viewer"),
 * independent of VS Code: give it an opened `CsfView` and a `post` function, feed it every message the
 * webview sends. It validates each message, answers page requests from the lazy file, runs the full
 * validation in the background and reports its progress. The custom editor (client/src/csfEditor.ts)
 * and the browser test harness both use it.
 */
import {
  CSF_MAX_HEX,
  PROTOCOL_VERSION,
  explainCsfWebviewMessage,
  toArrayBuffer,
  type CsfHostToWebview,
  type CsfParamsOf,
  type CsfProblem,
  type CsfRequestMethod,
  type CsfResultOf,
  type CsfValidationInfo,
  type CsfWebviewToHost,
} from '../protocol/webview';
import { readSlice } from './slice';
import type { CsfIssue } from './types';
import type { CsfView } from './view';

export interface CsfViewHostOptions {
  title: string;
  /** Loads the file into the accelerator memories and opens the inspector; absent when unavailable. */
  showInMemory?: () => Promise<{ ok: boolean; message: string }>;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** Problems the validation lists at most (default 200). */
  maxProblems?: number;
  /** Bytes the validation reads at a time (default 4 MiB). */
  chunkBytes?: number;
}

type Handlers = { [M in CsfRequestMethod]: (p: CsfParamsOf<M>) => Promise<CsfResultOf<M>> | CsfResultOf<M> };

export function problemOf(i: CsfIssue): CsfProblem {
  const p: CsfProblem = { code: i.code, severity: i.severity, message: i.message.slice(0, 4096) };
  if (i.rule) p.rule = i.rule;
  if (i.offset !== undefined) p.offset = i.offset;
  if (i.length !== undefined) p.length = i.length;
  return p;
}

export class CsfViewHost {
  private validation: CsfValidationInfo;
  private greeted = false;
  private disposed = false;
  private lastProgress = 0;
  private sliceTicket = 0;
  /** Requests answered, by method (diagnostics and tests: shows the webview really asked). */
  readonly served: Record<string, number> = {};
  /** Resolves when the background validation has finished. */
  readonly validated: Promise<CsfValidationInfo>;

  constructor(
    private readonly view: CsfView,
    private readonly post: (m: CsfHostToWebview) => unknown,
    private readonly opts: CsfViewHostOptions,
  ) {
    this.validation = { state: 'running', checked: 0, total: view.size, problems: [] };
    this.validated = this.runValidation();
  }

  private async runValidation(): Promise<CsfValidationInfo> {
    try {
      const v = await this.view.validate({
        maxIssues: this.opts.maxProblems ?? 200,
        chunkBytes: this.opts.chunkBytes,
        cancelled: () => this.disposed,
        progress: (checked, total) => {
          this.validation = { ...this.validation, checked, total };
          const now = Date.now();
          if (now - this.lastProgress > 150 && checked < total) {
            this.lastProgress = now;
            this.notify();
          }
        },
      });
      this.validation = { state: 'done', checked: this.view.size, total: this.view.size, ok: v.ok, problems: v.issues.slice(0, 1000).map(problemOf) };
    } catch (e) {
      this.validation = { ...this.validation, state: 'failed', error: (e instanceof Error ? e.message : String(e)).slice(0, 4096) };
    }
    this.notify();
    return this.validation;
  }

  private notify(): void {
    if (this.greeted && !this.disposed) this.post({ type: 'notify', method: 'csf.validation', params: this.validation });
  }

  /** Handles one message from the webview (anything: invalid messages are logged, requests answered with an error). */
  async handle(msg: unknown): Promise<void> {
    const why = explainCsfWebviewMessage(msg);
    if (why) {
      this.opts.log?.('warn', `csfbin viewer message ignored: ${why}`);
      const m = msg as { type?: unknown; id?: unknown };
      if (m && typeof m === 'object' && m.type === 'request' && Number.isSafeInteger(m.id) && (m.id as number) >= 0)
        this.post({ type: 'response', id: m.id as number, ok: false, error: why });
      return;
    }
    const m = msg as CsfWebviewToHost;
    if (m.type === 'notify') {
      this.opts.log?.(m.params.level, `[csfbin viewer] ${m.params.message}`);
      return;
    }
    try {
      const h = this.handlers[m.method] as (p: unknown) => unknown;
      const result = await h(m.params);
      this.served[m.method] = (this.served[m.method] ?? 0) + 1;
      if (!this.disposed) this.post({ type: 'response', id: m.id, ok: true, result });
    } catch (e) {
      if (!this.disposed) this.post({ type: 'response', id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  }

  private readonly handlers: Handlers = {
    'csf.hello': () => {
      this.greeted = true;
      const v = this.view;
      return {
        protocol: PROTOCOL_VERSION,
        title: this.opts.title,
        size: v.size,
        header: v.header ? { ...v.header, shape: [...v.header.shape] } : null,
        entriesOffset: v.entriesOffset,
        pointersOffset: v.pointersOffset,
        rows: v.rowCount,
        indexProblem: v.indexProblem ? problemOf(v.indexProblem) : undefined,
        validation: this.validation,
        canShowInMemory: !!this.opts.showInMemory,
      };
    },
    'csf.rows': async ({ start, count }) => ({ start, rows: await this.view.rows(start, count) }),
    'csf.hex': async ({ offset, length }) => ({ offset, bytes: toArrayBuffer(await this.view.hex(offset, Math.min(length, CSF_MAX_HEX))) }),
    'csf.locate': ({ fiber, entry, offset }) => {
      const v = this.view;
      if (!v.pointers || !v.header) return { row: null };
      if (fiber !== undefined) return { row: fiber < v.header.fibers ? v.rowOfFiber(fiber) : null };
      if (entry !== undefined) return { row: entry < v.header.nnz ? v.rowOfEntry(entry) : null };
      if (offset !== undefined) return { row: v.rowOfOffset(offset) ?? null };
      return { row: null };
    },
    'csf.slice': async ({ lead, maxSide }) => {
      // a newer slice request stops this one's reading (a user stepping through leading indices of a big file)
      const ticket = ++this.sliceTicket;
      const s = await readSlice(this.view, lead, maxSide, () => ticket !== this.sliceTicket || this.disposed);
      const { values, entries, ...rest } = s;
      return { ...rest, lead: [...lead], values: toArrayBuffer(values), entries: toArrayBuffer(entries) };
    },
    'csf.showInMemory': async () => {
      if (!this.opts.showInMemory) return { ok: false, message: 'Showing in accelerator memory is not available here.' };
      const r = await this.opts.showInMemory();
      return { ok: r.ok, message: r.message.slice(0, 4096) };
    },
  };

  /** The validation's current state. */
  get validationState(): CsfValidationInfo {
    return this.validation;
  }

  dispose(): void {
    this.disposed = true;
  }
}
