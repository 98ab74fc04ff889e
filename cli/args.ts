/** A small argument parser: `--flag`, `--opt value`, `--opt=value`, repeated options, positionals. */
export class UsageError extends Error {}

export interface Parsed {
  positionals: string[];
  flags: Set<string>;
  options: Map<string, string[]>;
}

export function parseArgs(argv: string[], spec: { flags: string[]; options: string[] }): Parsed {
  const out: Parsed = { positionals: [], flags: new Set(), options: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('--') || a === '-') {
      if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
      out.positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (spec.flags.includes(name)) {
      if (eq > 0) throw new UsageError(`--${name} takes no value`);
      out.flags.add(name);
    } else if (spec.options.includes(name)) {
      const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`--${name} needs a value`);
      out.options.set(name, [...(out.options.get(name) ?? []), v]);
    } else throw new UsageError(`unknown option --${name}`);
  }
  return out;
}
