/** What the platform entry (node.ts: stdio/IPC; browser.ts: web worker) gives the server. */
import type { PcoreLoader } from '../../core/project/project';
import type { SimulatorHost } from './simulator';

export interface ServerHost {
  /** The simulator (absent in the browser, where Run is not available yet). */
  simulator?: SimulatorHost;
  /**
   * Reads a file that is not open in the editor from the file system; absent in the browser. Only
   * `file:` paths come here: other files are read through the client (clientFiles.ts).
   */
  readDisk?(path: string): string | undefined;
  /**
   * Reads a file's bytes (`.csfbin` files of layout specs); absent in the browser. With `roots`, the
   * file's real path must lie under one of them (else a FileAccessError, core/project/fileSystem.ts).
   */
  readBinary?(path: string, roots?: readonly string[]): Uint8Array | undefined;
  loadPcore: PcoreLoader;
  version: string;
}
