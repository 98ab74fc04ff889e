/**
 * `tensorLens/run` and `tensorLens/readMemory`: running a tensor program on the host's simulator (its
 * open documents as they are in the editor) and reading a kept run's memory for the inspector. A run's
 * error and warnings become diagnostics (runDiagnostics.ts) until the next run or an edit; what its `>`
 * statements did goes to the run values of hovers and inlay hints (runValues.ts), as do a debugger stop's
 * (`tensorLens/debugValues`).
 */
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver';
import {
  DebugValuesNotification,
  ReadMemoryRequest,
  RunProgressNotification,
  RunRequest,
  type ReadMemoryParams,
  type RunResultMessage,
} from '../../core/protocol/lspExt';
import { checkStatementRuns } from '../../core/protocol/trace';
import { SPACE_NAMES, spaceDef } from '../../core/sim/spaces';
import { toBase64 } from '../../core/common/base64';
import type { DiagnosticsPublisher } from './diagnostics';
import type { DocumentStore } from './documents';
import type { ServerHost } from './host';
import { runDiagnosticsOf } from './runDiagnostics';
import type { RunValuesStore } from './runValues';
import type { Settings } from './settings';
import type { SimRunResult } from './simulator';
import { pathToUri, uriToPath } from './uri';

export function registerRunRequests(
  connection: Connection,
  host: ServerHost,
  store: DocumentStore,
  settings: Settings,
  publisher: DiagnosticsPublisher,
  runValues: RunValuesStore,
): void {
  let runId = 0;
  /** The run whose statement values hovers and hints show (a run that stopped with an error tells what ran before it). */
  let valuesOf = 0;
  connection.onRequest(RunRequest, async (p, token) => {
    const id = ++runId;
    const empty: RunResultMessage = {
      runId: id,
      entry: p.entry ?? '',
      summary: { steps: 0, statements: 0, bytesMoved: 0, laneOps: 0, timeMs: 0 },
      warnings: [],
      trace: [],
      traceTruncated: false,
      dumps: [],
      output: '',
      error: null,
    };
    if (!host.simulator)
      return {
        ...empty,
        error: { uri: p.uri, line: 1, column: 1, message: 'Running programs needs the desktop (Node) extension host', kind: 'unsupported', stack: [] },
      };
    const { uri: _uri, ...config } = p;
    const file = uriToPath(p.uri);
    // the documents as the run reads them: values shown after an edit say "before your edits"
    const versions = documentVersions(store);
    const r = await host.simulator.run(
      // read as the checker reads it unless the request says otherwise
      {
        ...config,
        includePaths: config.includePaths ?? settings.includePaths,
        dialect: config.dialect ?? settings.dialect,
        runId: id,
        file,
        overlay: store.overlay(),
      },
      (statements) => void connection.sendNotification(RunProgressNotification, { uri: p.uri, steps: statements, statements }),
      () => token.isCancellationRequested,
      (f) => token.onCancellationRequested(f),
      // a later run's values are not replaced by an earlier one's that arrive late
      (statements) => {
        if (id >= valuesOf) {
          valuesOf = id;
          runValues.setRun(statements, versions);
        }
      },
    );
    const out = toMessage(r, id);
    if (r.cancelled) out.error = { uri: p.uri, line: 1, column: 1, message: 'run cancelled', kind: 'cancelled', stack: [] };
    // the run's error and warnings replace the previous run's in the Problems panel
    publisher.replaceRun(runDiagnosticsOf(r, (uri, line) => store.lineLength(uri, line)));
    return out;
  });

  connection.onNotification(DebugValuesNotification, (p) => {
    try {
      if (typeof p?.session !== 'string') throw new Error('debugValues: session must be a string');
      runValues.setStop(p.session, p.statements === null ? undefined : checkStatementRuns(p.statements), () => documentVersions(store));
    } catch (e) {
      connection.console.log(`[error] ${(e as Error).message}`);
    }
  });

  connection.onRequest(ReadMemoryRequest, async (p) => {
    if (!host.simulator) return { data: '', unit: 1, size: 0 };
    // the client's names and numbers are checked before they reach the worker (its space table is a Map)
    const why = badReadParams(p);
    if (why) throw new ResponseError(ErrorCodes.InvalidParams, why);
    const r = await host.simulator.read(p.runId, p.space, p.start, p.length, p.step ?? undefined);
    // an unknown, evicted or failed run is an error the inspector shows (not an empty memory)
    if (r.error) throw new ResponseError(ErrorCodes.InvalidParams, r.error);
    return { data: r.data ? toBase64(r.data) : '', unit: r.unit, size: r.size };
  });
}

/** The versions of the open documents, by URI. */
function documentVersions(store: DocumentStore): Map<string, number> {
  return new Map(store.all().map((d) => [d.uri, d.version]));
}

/** Why a `tensorLens/readMemory` request cannot be answered; undefined when it is well formed. */
export function badReadParams(p: unknown): string | undefined {
  if (!p || typeof p !== 'object') return 'readMemory: expected an object';
  const { runId, space, start, length, step } = p as Partial<Record<keyof ReadMemoryParams, unknown>>;
  if (!Number.isSafeInteger(runId)) return 'readMemory: runId must be an integer';
  if (typeof space !== 'string' || !spaceDef(space)) {
    const shown = typeof space === 'string' ? JSON.stringify(space.slice(0, 64)) : typeof space;
    return `readMemory: no memory space ${shown} (known: ${SPACE_NAMES.join(', ')})`;
  }
  if (!Number.isSafeInteger(start) || (start as number) < 0) return 'readMemory: start must be an integer ≥ 0';
  if (!Number.isSafeInteger(length) || (length as number) < 0) return 'readMemory: length must be an integer ≥ 0';
  if (step !== undefined && step !== null && (!Number.isSafeInteger(step) || (step as number) < -1)) return 'readMemory: step must be an integer ≥ -1';
  return undefined;
}

/** The worker's result for the client: files as URIs (the rest, `cancelled` included, as it came). */
function toMessage(r: SimRunResult & { cancelled?: boolean }, runId: number): RunResultMessage {
  return {
    ...r,
    runId,
    warnings: (r.warnings ?? []).map(({ file: f, ...w }) => ({ uri: pathToUri(f), ...w })),
    error: r.error
      ? { uri: pathToUri(r.error.file), line: r.error.line, column: r.error.column, message: r.error.message, kind: r.error.kind, stack: r.error.stack }
      : null,
  };
}
