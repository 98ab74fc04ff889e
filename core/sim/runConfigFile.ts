/**
 * Reading `tensorlens.run.json` at run time: parsed with the position of every value kept, and the
 * configuration that is used validated against the same schema VS Code validates the file with
 * (runConfig.ts), so a mistake is reported as `file:line:col: path: message` instead of being cast
 * and failing somewhere in the run.
 */
import { LineIndex } from '../common/lineIndex';
import { BUFFER_ARG, BUFFER_NAME, fileConfigurationSchema, runConfigFileSchema, type FileRunConfig, type JsonSchema } from './runConfig';

export const RUN_CONFIG_FILE = 'tensorlens.run.json';

export interface ConfigProblem {
  line: number;
  column: number;
  /** The value (or property name) at fault: offsets [start, end) in the file's text. */
  start: number;
  end: number;
  /** JSON path of the value at fault (`configurations[0].args[1]`), empty for the whole file. */
  path: string;
  message: string;
}

export interface RunConfigFile {
  /** The configurations as written (each validated only when it is used: `configurationFor`). */
  configurations: unknown[];
  /** Offsets of values by JSON path. */
  at: Map<string, number>;
  /** Offsets just past values by JSON path. */
  ends: Map<string, number>;
  /** Offsets of property names (their opening quote) by JSON path. */
  keys: Map<string, number>;
  /** Offsets just past property names by JSON path. */
  keyEnds: Map<string, number>;
  lines: LineIndex;
  problems: ConfigProblem[];
}

/** Parses the file; syntax errors and a wrong top level are `problems`. */
export function parseRunConfigFile(text: string): RunConfigFile {
  const lines = new LineIndex(text);
  const file: RunConfigFile = { configurations: [], at: new Map(), ends: new Map(), keys: new Map(), keyEnds: new Map(), lines, problems: [] };
  let value: unknown;
  try {
    value = new LocatingParser(text, file).parse();
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    file.problems.push({ ...position(lines, e.offset), start: e.offset, end: Math.min(text.length, e.offset + 1), path: '', message: e.message });
    return file;
  }
  // the top level without its configurations (each is checked when it is used)
  const top = runConfigFileSchema();
  const shallow = { ...top, properties: { ...top.properties, configurations: { type: 'array' } } } as JsonSchema;
  file.problems.push(...validate(value, shallow, '', file));
  if (!file.problems.length) file.configurations = (value as { configurations: unknown[] }).configurations;
  return file;
}

/**
 * The configuration of `program` (its path relative to the file's folder, with `/`): the first one
 * whose `program` names it — with `entry` (the ▶ Run lens's function), the first of those whose `entry`
 * is that function when there is one — validated; `problems` are that configuration's.
 */
export function configurationFor(file: RunConfigFile, program: string, entry?: string): { config?: FileRunConfig; problems: ConfigProblem[] } {
  const i = configurationIndex(file.configurations, program, entry);
  if (i < 0) return { problems: [] };
  const problems = validateConfiguration(file, i);
  return problems.length ? { problems } : { config: file.configurations[i] as FileRunConfig, problems };
}

/** The index of `configurationFor`'s configuration in `configurations` (as written), −1 when none names the program. */
export function configurationIndex(configurations: readonly unknown[], program: string, entry?: string): number {
  const field = (c: unknown, k: 'program' | 'entry') => (c as Record<string, unknown> | null)?.[k];
  const mine = (c: unknown) => {
    const p = field(c, 'program');
    return typeof p === 'string' && p.replace(/\\/g, '/').replace(/^\.\//, '') === program;
  };
  const exact = entry === undefined ? -1 : configurations.findIndex((c) => mine(c) && field(c, 'entry') === entry);
  return exact >= 0 ? exact : configurations.findIndex(mine);
}

/** The problems of configuration `i` of the file under the schema. */
export function validateConfiguration(file: RunConfigFile, i: number): ConfigProblem[] {
  return validate(file.configurations[i], fileConfigurationSchema(), `configurations[${i}]`, file);
}

/** `file:line:col: path: message`. */
export function formatProblem(fileName: string, p: ConfigProblem): string {
  return `${fileName}:${p.line}:${p.column}: ${p.path ? p.path + ': ' : ''}${p.message}`;
}

/** A problem at the value of JSON path `path` (`key`: at its property name), or at its closest enclosing value that was parsed. */
export function problemAt(file: RunConfigFile, path: string, message: string, key = false): ConfigProblem {
  let p = path;
  while (p && !file.at.has(p)) p = p.replace(/(\.[^.[\]]*|\[\d+\])$/, '');
  const start = (key ? file.keys.get(p) : undefined) ?? file.at.get(p) ?? 0;
  const end = (key ? file.keyEnds.get(p) : undefined) ?? file.ends.get(p) ?? start;
  return { ...position(file.lines, start), start, end, path, message };
}

function position(lines: LineIndex, offset: number): { line: number; column: number } {
  const p = lines.position(offset);
  return { line: p.line + 1, column: p.character + 1 };
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : JSON.stringify(v));

/** Problems of `v` under schema `s` (the subset runConfig.ts uses), located through `file.at`. */
function validate(v: unknown, s: JsonSchema, path: string, file: RunConfigFile): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  const fail = (p: string, message: string, key = false) => out.push(problemAt(file, p, message, key));
  if (s.anyOf) {
    if (s.anyOf.some((alt) => validate(v, alt, path, file).length === 0)) return out;
    // the one form of the value's type says what is wrong with it; else the forms allowed
    const sameType = s.anyOf.filter((alt) => alt.type === jsonType(v));
    if (sameType.length === 1) return validate(v, sameType[0], path, file);
    const forms = s.anyOf.map((alt) => (alt.type === 'integer' ? 'an integer' : alt.type === 'object' ? 'an object' : `a ${alt.type}`));
    fail(path, `must be ${forms.join(' or ')} (got ${describe(v)})`);
    return out;
  }
  if (s.enum) {
    if (!s.enum.includes(v as string)) fail(path, `must be one of ${s.enum.join(', ')} (got ${describe(v)})`);
    return out;
  }
  switch (s.type) {
    case 'string':
      if (typeof v !== 'string') fail(path, `must be a string (got ${describe(v)})`);
      else if (s.pattern && !new RegExp(s.pattern).test(v)) fail(path, `${describe(v)} ${patternText(s.pattern)}`);
      break;
    case 'boolean':
      if (typeof v !== 'boolean') fail(path, `must be true or false (got ${describe(v)})`);
      break;
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) fail(path, `must be an integer (got ${describe(v)})`);
      else if (s.minimum !== undefined && v < s.minimum) fail(path, `must be at least ${s.minimum} (got ${v})`);
      else if (s.maximum !== undefined && v > s.maximum) fail(path, `must be at most ${s.maximum} (got ${v})`);
      break;
    case 'array':
      if (!Array.isArray(v)) fail(path, `must be an array (got ${describe(v)})`);
      else if (s.minItems !== undefined && v.length < s.minItems) fail(path, `must have at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}`);
      else if (s.maxItems !== undefined && v.length > s.maxItems) fail(path, `must have at most ${s.maxItems} items (got ${v.length})`);
      else if (s.items) v.forEach((x, i) => out.push(...validate(x, s.items!, `${path}[${i}]`, file)));
      break;
    case 'object': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        fail(path, `must be an object (got ${describe(v)})`);
        break;
      }
      const o = v as Record<string, unknown>;
      const props = s.properties ?? {};
      const key = (k: string) => (path ? `${path}.${k}` : k);
      for (const r of s.required ?? []) if (!(r in o)) fail(path, `"${r}" is required`);
      for (const [k, x] of Object.entries(o)) {
        if (s.propertyNames?.pattern && !new RegExp(s.propertyNames.pattern).test(k))
          fail(key(k), `name ${JSON.stringify(k)} ${patternText(s.propertyNames.pattern)}`, true);
        if (Object.hasOwn(props, k)) out.push(...validate(x, props[k], key(k), file));
        else if (typeof s.additionalProperties === 'object') out.push(...validate(x, s.additionalProperties, key(k), file));
        else if (s.additionalProperties === false) fail(key(k), `unknown property "${k}" (allowed: ${Object.keys(props).join(', ')})`, true);
      }
      break;
    }
  }
  return out;
}

/** The schema type of a JSON value. */
function jsonType(v: unknown): JsonSchema['type'] | 'null' | 'number' {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonSchema['type'];
}

/** What a value failing `pattern` should look like, in words for the patterns runConfig.ts uses. */
function patternText(pattern: string): string {
  if (pattern === BUFFER_NAME) return 'is not a name (letters, digits and _, not starting with a digit)';
  if (pattern === BUFFER_ARG) return 'is neither an integer nor a buffer reference ("@name", "@name+bytes")';
  return `does not match ${pattern}`;
}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/** Strict JSON (RFC 8259), recording the offset of every value and property name by path. */
class LocatingParser {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly file: Pick<RunConfigFile, 'at' | 'ends' | 'keys' | 'keyEnds'>,
  ) {}

  parse(): unknown {
    if (this.s.charCodeAt(0) === 0xfeff) this.i = 1;
    const v = this.value('');
    this.ws();
    if (this.i < this.s.length) this.fail('unexpected text after the JSON value');
    return v;
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(message, Math.min(this.i, this.s.length));
  }

  private ws(): void {
    while (this.i < this.s.length && ' \t\r\n'.includes(this.s[this.i])) this.i++;
  }

  private value(path: string): unknown {
    this.ws();
    this.file.at.set(path, this.i);
    const v = this.bare(path);
    this.file.ends.set(path, this.i);
    return v;
  }

  private bare(path: string): unknown {
    const c = this.s[this.i];
    if (c === '{') return this.object(path);
    if (c === '[') return this.array(path);
    if (c === '"') return this.string();
    LITERAL.lastIndex = this.i;
    const m = LITERAL.exec(this.s);
    if (!m) this.fail(c === undefined ? 'unexpected end of the file' : `unexpected ${JSON.stringify(c)}: expected a value`);
    this.i += m[0].length;
    return JSON.parse(m[0]);
  }

  private object(path: string): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    this.items('}', () => {
      this.ws();
      if (this.s[this.i] !== '"') this.fail('expected a property name in double quotes');
      const keyAt = this.i;
      const k = this.string();
      const p = path ? `${path}.${k}` : k;
      this.file.keys.set(p, keyAt);
      this.file.keyEnds.set(p, this.i);
      this.ws();
      if (this.s[this.i] !== ':') this.fail('expected ":" after the property name');
      this.i++;
      // an own property even when it is called __proto__ (as JSON.parse does)
      Object.defineProperty(o, k, { value: this.value(p), enumerable: true, writable: true, configurable: true });
    });
    return o;
  }

  private array(path: string): unknown[] {
    const a: unknown[] = [];
    this.items(']', () => a.push(this.value(`${path}[${a.length}]`)));
    return a;
  }

  /** The items of an object or array up to `close`, separated by commas (the cursor is on the opening bracket). */
  private items(close: '}' | ']', item: () => void): void {
    this.i++;
    this.ws();
    if (this.s[this.i] === close) {
      this.i++;
      return;
    }
    for (;;) {
      item();
      this.ws();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] === close) {
        this.i++;
        return;
      } else this.fail(`expected "," or "${close}"`);
    }
  }

  private string(): string {
    STRING.lastIndex = this.i;
    const m = STRING.exec(this.s);
    if (!m) this.fail('unterminated or invalid string');
    this.i += m[0].length;
    return JSON.parse(m[0]) as string;
  }
}
