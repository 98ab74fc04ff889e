/** Entry of the `tensor-lens` command-line tool. */
import { CHECK_USAGE, runCheck } from './check';
import { RUN_USAGE, runRun } from './run';
import { CSF_USAGE, runCsf } from './csf';
import { MAP_USAGE, runMap } from './map';
import { UsageError } from './args';

declare const TENSOR_LENS_VERSION: string;

const USAGE = `usage: tensor-lens <command> [options]
commands:
  check <file|dir>...   diagnostics for tensor programs and PCORE programs
  run <program>         run a tensor program on the embedded simulator
  map <spec.tlayout>    tensor layout specs: summaries, coordinate → address, address → coordinate
  csf <command> ...     sparse tensor files (.csfbin): show, validate, from-npy, to-npy, contract
  help                  this text
${CHECK_USAGE}
${RUN_USAGE}
${MAP_USAGE}
${CSF_USAGE}`;

/** Runs a command; `io` writes its stdout and stderr (process.stdout and process.stderr by default; tests capture them). */
export async function main(
  argv: string[],
  io: { out: (s: string) => void; err: (s: string) => void } = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
): Promise<number> {
  const out = (s: string) => io.out(s + '\n');
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'check':
        return runCheck(rest, out);
      case 'map':
        return runMap(rest, out);
      case 'csf':
        return runCsf(rest, out);
      case 'run':
        return await runRun(rest, out, (s) => io.err(s + '\n'));
      case 'help':
      case '--help':
      case '-h':
        out(USAGE);
        return 0;
      case '--version':
        out(typeof TENSOR_LENS_VERSION === 'string' ? TENSOR_LENS_VERSION : 'dev');
        return 0;
      default:
        throw new UsageError(cmd ? `unknown command: ${cmd}` : 'missing command');
    }
  } catch (e) {
    if (e instanceof UsageError) {
      // the usage of the command at fault (all of them only when the command itself is wrong)
      const own: Record<string, string> = { check: CHECK_USAGE, run: RUN_USAGE, map: MAP_USAGE, csf: CSF_USAGE };
      const usage = e.usage ?? (Object.prototype.hasOwnProperty.call(own, cmd) ? own[cmd] : USAGE);
      io.err(`tensor-lens: ${e.message}\n${usage}\n`);
      return 2;
    }
    throw e;
  }
}
