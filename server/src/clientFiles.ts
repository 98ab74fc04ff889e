/**
 * Files read through the client (`tensorLens/readFile`, core/protocol/lspExt.ts) where the server has no file system of its own:
 * the web worker, and non-`file:` URIs on the desktop. The engine reads synchronously (core/project/fileSystem.ts) and the client
 * answers asynchronously, so reads are served from a cache: a file not seen yet reads as absent while it is asked for, and when
 * the answer comes `changed` is called (the server drops what it derived from the absence and checks the open documents again);
 * while such a first read is outstanding (`awaiting`), the diagnostics of a check are held back rather than published with a
 * `.p` or header missing. A cached text older than `maxAgeMs` is still served, and asked for again in the background (a file
 * edited elsewhere is seen at the next check after); a `.csfbin` is asked for again after the client's file events or a close.
 * A client that never answers costs `timeoutMs`; the file then reads as absent.
 */
import type { Connection } from 'vscode-languageserver';
import { fromBase64 } from '../../core/common/base64';
import { FileAccessError } from '../../core/project/fileSystem';
import { CLIENT_READS_FILES, ReadFileRequest, type ReadFileParams, type ReadFileResult } from '../../core/protocol/lspExt';
import type { CheckScheduler } from './checking';
import type { DiagnosticsPublisher } from './diagnostics';
import type { DocumentStore } from './documents';
import type { ServerHost } from './host';
import type { LanguageRegistry } from './languages/registry';
import { isFilePath, pathToUri, uriToPath } from './uri';

/** An answer as it is served: bytes decoded once (a spec is checked on every keystroke). */
type Served = Exclude<ReadFileResult, { kind: 'bytes' }> | { kind: 'bytes'; bytes: Uint8Array };

interface Entry {
  result?: Served;
  at: number;
  asking?: boolean;
}

export class ClientFiles {
  private enabled = false;
  private readonly entries = new Map<string, Entry>();
  private firstReads = 0;

  /** An answer differs from what was served for `path` (or is the first): what was derived from it is stale (followClientFiles). */
  changed: (path: string) => void = () => undefined;
  /** Every first read has been answered: checks held back may be published. */
  settled: () => void = () => undefined;

  constructor(
    private readonly connection: Connection,
    private readonly maxAgeMs = 2000,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Turns forwarding on when the client's `initialize` capabilities announce it. */
  enable(experimental: unknown): void {
    this.enabled = (experimental as Record<string, unknown> | undefined)?.[CLIENT_READS_FILES] === true;
  }

  /** True while a file asked for the first time has no answer: a check now would see it as missing. */
  get awaiting(): boolean {
    return this.firstReads > 0;
  }

  /** `host` with its reads of files it cannot reach (all of them in the browser; non-`file:` URIs on Node) going through the client. */
  wrap(host: ServerHost): ServerHost {
    const { readDisk, readBinary } = host;
    return {
      ...host,
      readDisk: (path) => (readDisk && isFilePath(path) ? readDisk(path) : this.readText(path)),
      readBinary: (path, roots) => (readBinary && isFilePath(path) ? readBinary(path, roots) : this.readBytes(path, roots)),
    };
  }

  /** Text of a file, or undefined (missing, refused, not answered yet, forwarding off). */
  readText(path: string): string | undefined {
    const r = this.read(path, 'text');
    return r?.kind === 'text' ? r.text : undefined;
  }

  /** Bytes of a file (a `.csfbin`), under `roots` when given; a refusal is a FileAccessError (csfLoader shows its message). */
  readBytes(path: string, roots?: readonly string[]): Uint8Array | undefined {
    if (!this.enabled) throw new FileAccessError('this editor does not give the language server its files (a layout spec reads .csfbin files on the desktop)');
    const r = this.read(path, 'bytes', roots);
    if (r?.kind === 'refused') throw new FileAccessError(r.reason);
    return r?.kind === 'bytes' ? r.bytes : undefined;
  }

  /** The file changed or closed in the editor: the next read asks again (a first read: its check is held back until the answer). */
  forget(path: string): void {
    for (const k of this.entries.keys()) if (k.endsWith(`\n${path}`)) this.entries.delete(k);
  }

  private read(path: string, as: ReadFileParams['as'], roots?: readonly string[]): Served | undefined {
    // an untitled document's sibling (`untitled:Untitled-1.p`) is no file anywhere: nothing to ask
    if (!this.enabled || !/^(\/|[A-Za-z]:[\\/]|[a-zA-Z][\w+.-]+:\/)/.test(path)) return undefined;
    const key = `${as}\n${roots?.join('\n') ?? ''}\n${path}`;
    let e = this.entries.get(key);
    if (!e) this.entries.set(key, (e = { at: 0 }));
    // text (a .p, a header) is asked for again when older than maxAgeMs; a .csfbin, which may be large, only after the client's
    // file events or a close say it changed (forget)
    if (!e.asking && (e.at === 0 || (as === 'text' && Date.now() - e.at > this.maxAgeMs)))
      void this.ask(key, e, { uri: pathToUri(path), as, roots: roots?.map(pathToUri) }, path);
    return e.result;
  }

  private async ask(key: string, e: Entry, params: ReadFileParams, path: string): Promise<void> {
    const first = e.result === undefined;
    e.asking = true;
    if (first) this.firstReads++;
    let r: ReadFileResult;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<ReadFileResult>((resolve) => {
        timer = setTimeout(() => resolve({ kind: 'missing' }), this.timeoutMs);
      });
      r = await Promise.race([this.connection.sendRequest(ReadFileRequest, params), timeout]);
    } catch (err) {
      this.connection.console.log(`[files] reading ${params.uri} through the client failed: ${(err as Error)?.message ?? err}`);
      r = { kind: 'missing' };
    } finally {
      clearTimeout(timer);
    }
    const before = e.result;
    e.result = r.kind === 'bytes' ? { kind: 'bytes', bytes: fromBase64(r.base64) } : r;
    e.at = Date.now();
    e.asking = false;
    // a forget() while asking dropped the entry: this answer may be older than the edit, so it is not kept
    if (this.entries.get(key) !== e) this.entries.set(key, { at: 0 });
    // a first read was served as absent: only a file that is there (or refused, with its reason) changes anything
    if (first ? r.kind !== 'missing' : !sameResult(before, e.result)) this.changed(path);
    if (first && --this.firstReads === 0) this.settled();
  }
}

function sameResult(a: Served | undefined, b: Served): boolean {
  if (!a || a.kind !== b.kind) return false;
  if (a.kind === 'text') return a.text === (b as typeof a).text;
  if (a.kind === 'bytes') {
    const x = a.bytes;
    const y = (b as typeof a).bytes;
    return x.length === y.length && x.every((v, i) => v === y[i]);
  }
  if (a.kind === 'refused') return a.reason === (b as typeof a).reason;
  return true;
}

/**
 * What the server does with the client's answers: a file that arrived or changed makes every open document's derived state stale
 * (its analysis, the parsed `.p` and headers, a spec's `.csfbin`), so each is checked again; checks held back while first reads
 * were outstanding are checked again when the last is answered; a file closed in the editor or changed on disk is asked for again.
 */
export function followClientFiles(
  files: ClientFiles,
  store: DocumentStore,
  languages: LanguageRegistry,
  scheduler: CheckScheduler,
  publisher: DiagnosticsPublisher,
): void {
  files.changed = () => {
    for (const doc of store.all()) {
      for (const l of languages.languages) l.forget?.(doc.uri);
      store.project.forget(uriToPath(doc.uri));
      scheduler.schedule(doc.uri);
    }
  };
  files.settled = () => {
    for (const uri of publisher.release()) scheduler.schedule(uri, 0);
  };
  publisher.holdBack = () => files.awaiting;
  store.documents.onDidClose((e) => files.forget(uriToPath(e.document.uri)));
  store.filesChanged.push((uris) => uris.forEach((u) => files.forget(uriToPath(u))));
}
