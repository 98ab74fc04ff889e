/** A small argument parser: `--flag`, `--opt value`, `--opt=value`, repeated options, positionals; and the one number parser of the CLI. */
export class UsageError extends Error {
  /** The usage text of the command at fault (main prints it; the general usage when none). */
  usage?: string;
}

/** Runs a command's body; a UsageError it throws carries `usage` (the command's own usage text) unless it has one. */
export function withUsage<T>(usage: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UsageError) e.usage ??= usage;
    throw e;
  }
}

export interface Parsed {
  positionals: string[];
  flags: Set<string>;
  options: Map<string, string[]>;
}

/**
 * Parses `argv`. `options` take a value and may be given once; `repeatable` ones may be given again
 * (each value is kept). A single-valued option given twice is a usage error (the second is never ignored).
 */
export function parseArgs(argv: string[], spec: { flags: string[]; options: string[]; repeatable?: string[] }): Parsed {
  const out: Parsed = { positionals: [], flags: new Set(), options: new Map() };
  const repeatable = spec.repeatable ?? [];
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
    } else if (spec.options.includes(name) || repeatable.includes(name)) {
      const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`--${name} needs a value`);
      const prev = out.options.get(name);
      if (prev && !repeatable.includes(name)) throw new UsageError(`--${name} is given twice (${prev[0]} and ${v}); give it once`);
      out.options.set(name, [...(prev ?? []), v]);
    } else throw new UsageError(`unknown option --${name}`);
  }
  return out;
}

/**
 * The one integer parser of the command line: decimal or hexadecimal (`0x…`), either with a leading `-`
 * (`-0x10` is -16), checked against `min..max` (inclusive). Throws UsageError naming the option.
 */
export function parseInteger(s: string, what: string, min: number, max: number): number {
  const m = /^(-?)(?:0x([0-9a-f]+)|(\d+))$/i.exec(s.trim());
  if (!m) throw new UsageError(`${what} must be an integer (decimal or 0x hexadecimal), got "${s}"`);
  const magnitude = m[2] !== undefined ? parseInt(m[2], 16) : Number(m[3]);
  const v = m[1] ? -magnitude : magnitude;
  if (!Number.isSafeInteger(v) || v < min || v > max) throw new UsageError(`${what} must be between ${rangeText(min)} and ${rangeText(max)}, got ${s}`);
  return v === 0 ? 0 : v;
}

function rangeText(n: number): string {
  if (n === Number.MAX_SAFE_INTEGER) return '2^53-1';
  const a = Math.abs(n);
  const p = Math.log2(a);
  return a >= 65536 && Number.isInteger(p) ? `${n < 0 ? '-' : ''}2^${p}` : String(n);
}
