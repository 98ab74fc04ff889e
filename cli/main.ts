/** Entry of the `tensor-lens` command-line tool. */
import { CHECK_USAGE, runCheck } from './check';
import { UsageError } from './args';

declare const TENSOR_LENS_VERSION: string;

const USAGE = `usage: tensor-lens <command> [options]
commands:
  check <file|dir>...   diagnostics for tensor programs and PCORE programs
  help                  this text
${CHECK_USAGE}`;

export async function main(argv: string[]): Promise<number> {
  const out = (s: string) => process.stdout.write(s + '\n');
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'check':
        return runCheck(rest, out);
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
      process.stderr.write(`tensor-lens: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
}
