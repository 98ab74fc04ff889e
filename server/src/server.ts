/**
 * The Tensor Lens language server: wires LSP to the engine in core/. Transport-agnostic: node.ts
 * (stdio/IPC) and browser.ts (web worker) create the connection and the file access (ServerHost).
 *
 *   documents.ts   open documents + the Project that reads them
 *   languages/     one LanguageFeatures per language, picked by language id (registry.ts)
 *   checking.ts    when documents are checked; diagnostics.ts publishes the result
 *   features.ts    hover, inlay hints, completion, … and tensorLens/transferPreview
 *   runRequests.ts tensorLens/run and tensorLens/readMemory (the simulator)
 *   settings.ts    dialect and include paths
 */
import type { Connection } from 'vscode-languageserver';
import { ServerStatusRequest } from '../../core/protocol/lspExt';
import { initializeResult } from './capabilities';
import { CheckScheduler, listenForChanges } from './checking';
import { DiagnosticsPublisher } from './diagnostics';
import { DocumentStore } from './documents';
import { registerFeatures } from './features';
import type { ServerHost } from './host';
import { LayoutLanguage } from './languages/layout';
import { PcoreLanguage } from './languages/pcore';
import { LanguageRegistry } from './languages/registry';
import { TprogLanguage } from './languages/tprog';
import { registerRunRequests } from './runRequests';
import { WorkspaceFolders } from './workspace';
import { applySettings, defaultSettings, listenForSettings, type Settings } from './settings';

export function startServer(connection: Connection, host: ServerHost): void {
  const settings = defaultSettings();
  const store = new DocumentStore(host, settings);
  const folders = new WorkspaceFolders();
  const tprog = new TprogLanguage(store.project, !!host.simulator);
  // asked in this order for a document whose language id is not one of ours; tensor programs last (any C file)
  const languages = new LanguageRegistry([
    // a spec reads .csfbin files in the workspace folders and its own folder (the server does not know whether the workspace is trusted)
    new LayoutLanguage(host.readBinary ? (path, roots) => host.readBinary!(path, roots) : undefined, (spec) => folders.rootsFor(spec)),
    new PcoreLanguage(store.project),
    tprog,
  ]);
  const publisher = new DiagnosticsPublisher(connection, store, languages);
  const scheduler = new CheckScheduler(publisher, settings);

  connection.onInitialize((params) => {
    folders.listen(connection, params);
    applySettings(settings, params.initializationOptions as Partial<Settings> | undefined, store.project);
    return initializeResult(host.version);
  });
  listenForSettings(connection, settings, store.project, () => {
    for (const l of languages.languages) l.settingsChanged?.();
    for (const d of store.all()) scheduler.schedule(d.uri);
  });
  listenForChanges(connection, store, languages, scheduler, publisher, settings);
  registerFeatures(connection, store, languages);
  registerRunRequests(connection, host, store, settings, publisher);
  connection.onRequest(ServerStatusRequest, () => ({
    version: host.version,
    documents: store.all().length,
    lastCheckMs: tprog.lastCheckMs,
    dialect: settings.dialect,
    pid: typeof process === 'object' ? process.pid : undefined,
    execArgv: typeof process === 'object' ? process.execArgv : undefined,
  }));

  store.documents.listen(connection);
  connection.listen();
}
