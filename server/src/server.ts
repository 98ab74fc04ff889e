/**
 * The Tensor Lens language server: wires LSP to the engine in core/. Transport-agnostic: node.ts
 * (stdio/IPC) and browser.ts (web worker) create the connection and the file access (ServerHost).
 *
 *   documents.ts   open documents + the Project that reads them
 *   languages/     one LanguageFeatures per language, picked by language id (registry.ts)
 *   checking.ts    when documents are checked; diagnostics.ts publishes the result
 *   features.ts    hover, inlay hints, completion, … and tensorLens/transferPreview
 *   runRequests.ts tensorLens/run and tensorLens/readMemory (the simulator)
 *   settings.ts    dialect and include paths, pulled per workspace folder
 *   documentStatus.ts  tensorLens/documentStatus (the client's language status item)
 */
import type { Connection } from 'vscode-languageserver';
import { ServerStatusRequest } from '../../core/protocol/lspExt';
import { initializeResult } from './capabilities';
import { CheckScheduler, listenForChanges } from './checking';
import { DiagnosticsPublisher } from './diagnostics';
import { DocumentStore } from './documents';
import { registerFeatures } from './features';
import type { ServerHost } from './host';
import { ClientFiles, followClientFiles } from './clientFiles';
import { LayoutLanguage } from './languages/layout';
import { PcoreLanguage } from './languages/pcore';
import { LanguageRegistry } from './languages/registry';
import { RunConfigLanguage } from './languages/runConfig';
import { TprogLanguage } from './languages/tprog';
import { registerRunRequests } from './runRequests';
import { RunValuesStore } from './runValues';
import { WorkspaceFolders } from './workspace';
import { defaultSettings, listenForSettings, PulledSettings } from './settings';
import { registerDocumentStatus } from './documentStatus';

export function startServer(connection: Connection, platform: ServerHost): void {
  // files the platform cannot read (the browser's, non-file: URIs) come through the client
  const files = new ClientFiles(connection);
  const host = files.wrap(platform);
  const settings = defaultSettings();
  const store = new DocumentStore(host, settings);
  const folders = new WorkspaceFolders();
  const pulled = new PulledSettings(settings, folders, store.project);
  const runValues = new RunValuesStore();
  const tprog = new TprogLanguage(store.project, !!host.simulator, runValues);
  // a spec reads .csfbin files in the workspace folders and its own folder (the server does not know whether the workspace is trusted)
  const layout = new LayoutLanguage(host.readBinary ? (path, roots) => host.readBinary!(path, roots) : undefined, (spec) => folders.rootsFor(spec));
  const pcore = new PcoreLanguage(store.project);
  // asked in this order for a document whose language id is not one of ours; tensor programs last (any C file)
  const runConfig = new RunConfigLanguage(store.project);
  const languages = new LanguageRegistry([runConfig, layout, pcore, tprog]);
  const publisher = new DiagnosticsPublisher(connection, store, languages);
  const scheduler = new CheckScheduler(publisher, settings);
  followClientFiles(files, store, languages, scheduler, publisher);

  connection.onInitialize((params) => {
    files.enable(params.capabilities.experimental);
    // new run values change the hints: the client is asked to fetch them again (when it can be)
    if (params.capabilities.workspace?.inlayHint?.refreshSupport)
      runValues.onChange = () => void connection.languages.inlayHint.refresh().catch(() => undefined);
    folders.listen(params);
    pulled.initialize(params.initializationOptions, !!params.capabilities.workspace?.configuration);
    return initializeResult(host.version);
  });
  const settingsPull = listenForSettings(connection, pulled, () => {
    for (const l of languages.languages) l.settingsChanged?.();
    for (const d of store.all()) scheduler.schedule(d.uri);
  });
  // the one `initialized` handler: the first pull of the settings, and the folders' changes (a new folder has its own settings)
  connection.onInitialized(() => {
    folders.follow(connection, settingsPull.pullNow);
    settingsPull.pullNow();
  });
  listenForChanges(connection, store, languages, scheduler, publisher, settings);
  registerFeatures(connection, store, languages);
  registerRunRequests(connection, host, store, settings, publisher, runValues);
  registerDocumentStatus(connection, store, languages, { tprog, pcore, layout }, pulled);
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
