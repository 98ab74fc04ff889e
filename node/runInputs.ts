/**
 * No output over an input: the files a run reads (program, headers, .p, loads) and the documents open in the
 * editor, compared by real path, so a dump never overwrites one of them. One rule for the CLI (`cli/run.ts`),
 * the editor's run (`server/src/simWorker.ts`) and the debugger (`debug/worker.ts` for `debug/target.ts`).
 */
import type { RunHost } from '../core/sim/prepare';
import { realPath } from './files';

export class RunInputs {
  private readonly read = new Set<string>();
  private readonly open = new Set<string>();

  /** `open`: the paths of the documents open in the editor (none for the CLI). */
  constructor(open: Iterable<string> = []) {
    for (const p of open) this.open.add(realPath(p));
  }

  /** Records `path` as read by the run. */
  add(path: string): void {
    this.read.add(realPath(path));
  }

  /** `host` with every text it returns and every byte array it reads recorded as an input. */
  track<H extends Pick<RunHost, 'readText' | 'readBytes'>>(host: H): H {
    return {
      ...host,
      readText: (p: string) => {
        const t = host.readText(p);
        if (t !== undefined) this.add(p);
        return t;
      },
      readBytes: (p: string) => {
        const b = host.readBytes(p);
        this.add(p);
        return b;
      },
    };
  }

  /** Why `path` must not be written (`name`: how the message names it), or undefined when it may be. */
  refusal(path: string, name = path): string | undefined {
    const real = realPath(path);
    if (this.read.has(real)) return `${name} is an input of this run; it is not overwritten`;
    if (this.open.has(real)) return `${name} is open in the editor; it is not overwritten`;
    return undefined;
  }
}
