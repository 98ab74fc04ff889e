/**
 * A run configuration: what to run and how, said once for every way of starting a run. The
 * `configurations` of `tensorlens.run.json`, the `tensor-lens` debugger's launch attributes, the
 * `tensorLens/run` LSP request and the `tensor-lens run` options all carry a `RunConfig`.
 *
 * `PROPERTIES` below is the one source: the `RunConfig` type is derived from it, and so are
 * schemas/run-config.schema.json and the debugger's attributes in package.json (a test checks the two
 * files against `runConfigFileSchema()` and `launchAttributes()`), and the validation of
 * `tensorlens.run.json` at run time (runConfigFile.ts).
 */
import { MAX_MEM_BYTES, MIN_MEM_BYTES } from './spaces';
import { IMAGE_FORMATS } from '../protocol/webview';

/** The subset of JSON Schema the run configuration uses (validated by runConfigFile.ts). */
export interface JsonSchema {
  type?: 'string' | 'integer' | 'boolean' | 'array' | 'object';
  enum?: readonly string[];
  /** A regular expression a string must match (whole: give ^…$). */
  pattern?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  /** false: no other property; a schema: every other property's value (a map, such as `buffers`). */
  additionalProperties?: boolean | JsonSchema;
  /** What every property name must match (with `additionalProperties` as a map). */
  propertyNames?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: readonly JsonSchema[];
  description?: string;
  default?: unknown;
}

const DTYPES = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f32', 'word12'] as const;
const SPACES = ['MEM', 'SCRATCH', 'PCORE', 'PCORE@1'] as const;
export const DIALECTS = ['auto', 'ztachip', 'guide'] as const;

/** A buffer name: what `@name` in `args`, `buffer` of a dump and `where` of a load or dump refer to. */
export const BUFFER_NAME = '^[A-Za-z_][A-Za-z0-9_]*$';
/** An argument naming a buffer: its address, with optional +bytes. */
export const BUFFER_ARG = '^@[A-Za-z_][A-Za-z0-9_]*(\\+(0x[0-9a-fA-F]+|[0-9]+))?$';
export const BUFFER_LAYOUTS = ['planar', 'interleaved'] as const;
export const BUFFER_CHANNELS = ['rgb', 'bgr', 'grey'] as const;
/** Largest `align` of a buffer (a power of two up to this). */
export const MAX_BUFFER_ALIGN = 65536;
/** A buffer's address is a multiple of this unless the configuration says otherwise (a cache line; ztachip's DMA wants 8). */
export const DEFAULT_BUFFER_ALIGN = 64;

const BUFFER = {
  type: 'object',
  additionalProperties: false,
  properties: {
    file: {
      type: 'string',
      description:
        'Initial contents: raw bytes (.bin), the data of a .npy, or a PNG/BMP image decoded to 8-bit pixels; relative to this file (in a launch ' +
        'configuration: to cwd).',
    },
    bytes: {
      type: 'integer',
      minimum: 1,
      description: 'Size in bytes. Default: the size of the file’s data; with a file it must hold it (the rest is zero).',
    },
    align: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_BUFFER_ALIGN,
      default: DEFAULT_BUFFER_ALIGN,
      description: `Alignment of its address in bytes, a power of two (default ${DEFAULT_BUFFER_ALIGN}).`,
    },
    layout: {
      enum: BUFFER_LAYOUTS,
      default: 'planar',
      description: 'An image’s pixel order: planar (all of the first channel, then the second… — ztachip’s "split"; the default) or interleaved (RGBRGB…).',
    },
    channels: { enum: BUFFER_CHANNELS, description: 'An image’s channels in memory: rgb (default), bgr, or grey (one channel, the luma of a colour image).' },
  },
} as const;

const LOAD = {
  type: 'object',
  additionalProperties: false,
  required: ['where', 'file'],
  properties: {
    where: { type: 'string', description: 'A byte address ("0x1000"), a C global or a buffer with optional +bytes ("inbuf", "inbuf+64").' },
    file: { type: 'string', description: "Raw bytes (.bin, like ztachip's test images) or .npy; relative to this file (in a launch configuration: to cwd)." },
  },
} as const;

const DUMP = {
  type: 'object',
  additionalProperties: false,
  required: ['dtype'],
  properties: {
    buffer: { type: 'string', pattern: BUFFER_NAME, description: 'A buffer of this configuration (instead of space and where): MEM at its address.' },
    space: { enum: SPACES, description: 'PCORE is process page 0, PCORE@1 page 1 (with where; not with buffer).' },
    where: {
      type: 'string',
      description:
        'Byte address, C global or buffer with optional +bytes (MEM/SCRATCH); word address pcore*4096+thread*256+offset, pcore.thread.class::var or ' +
        'pcore.class::var with optional +words (PCORE).',
    },
    count: { type: 'integer', minimum: 1, description: 'Number of elements (default with buffer: the product of shape, else what the buffer holds).' },
    dtype: { enum: DTYPES },
    shape: {
      type: 'array',
      minItems: 1,
      maxItems: 16,
      items: { type: 'integer', minimum: 1 },
      description: 'Shape of the .npy written (its product is the count), e.g. [3, 200, 200].',
    },
    file: {
      type: 'string',
      description: 'Write to this file (.npy or raw .bin) instead of printing; relative to this file (in a launch configuration: to cwd).',
    },
  },
} as const;

/** A picture the memory inspector opens after a run (its Views pane, core/inspect/tensorView.ts). */
const VIEW = {
  type: 'object',
  additionalProperties: false,
  required: ['where'],
  properties: {
    where: { type: 'string', description: 'What to view: a buffer, a C global or a MEM byte address, with optional +bytes.' },
    bytes: { type: 'integer', minimum: 1, description: 'Bytes to view (default: the whole buffer or global).' },
    as: { enum: ['image', 'heatmap'], description: 'An image (8-bit pixels) or a heatmap of numbers (default: image for u8 data, else heatmap).' },
    format: { enum: IMAGE_FORMATS, description: 'How an image lies in memory (default from shape: [h, w] grey, [3, h, w] planar, [h, w, 3] interleaved).' },
    dtype: { enum: DTYPES, description: 'Element type of a heatmap (default u8).' },
    shape: {
      type: 'array',
      minItems: 1,
      maxItems: 16,
      items: { type: 'integer', minimum: 1 },
      description: 'Shape; a heatmap shows its last two dimensions, e.g. [3, 200, 200].',
    },
    width: { type: 'integer', minimum: 1, description: 'Picture width, without a shape.' },
    height: { type: 'integer', minimum: 1, description: 'Picture height, without a shape.' },
    slice: { type: 'array', maxItems: 16, items: { type: 'integer', minimum: 0 }, description: 'Indices of the leading dimensions of a heatmap.' },
    label: { type: 'string', description: 'Its name in the inspector (default: where).' },
  },
} as const;

/**
 * Every property of a run configuration: its schema, its description in tensorlens.run.json (`file`;
 * absent = not settable there: how a program is read comes from the same settings as the checker's)
 * and in a launch configuration (`launch`, with `launchDefault`); `text: true` lets a launch
 * configuration give array items as their command-line text too.
 */
const PROPERTIES = {
  program: {
    schema: { type: 'string' },
    file: 'The tensor program, relative to this file (e.g. "kernels/test.m").',
    launch: 'The tensor program (.m/.tprog) to debug on the embedded simulator. Its PCORE program (.p of the same name) is found automatically.',
    launchDefault: '${file}',
  },
  entry: {
    schema: { type: 'string' },
    file: 'C function to run. Default: main, else the only kernel_* function, else the only function nobody calls.',
    launch:
      "C function to run. Default: the entry of the program's tensorlens.run.json configuration, else main, else the only kernel_* function, else the only " +
      'function never called.',
  },
  args: {
    schema: { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'string', pattern: BUFFER_ARG }] } },
    file: 'Arguments of the entry function: integers, or "@name" for the address of a buffer (with optional +bytes).',
    launch: 'Arguments of the entry function: integers, or "@name" for the address of a buffer (with optional +bytes).',
    launchDefault: [],
  },
  buffers: {
    schema: { type: 'object', propertyNames: { type: 'string', pattern: BUFFER_NAME }, additionalProperties: BUFFER },
    file: 'Named MEM buffers the simulator places where nothing else lives: {"input": {"file": "in.png"}, "output": {"bytes": 120000}}.',
    launch:
      'Named MEM buffers the simulator places where nothing else lives, as in tensorlens.run.json: {"input": {"file": "in.png"}, "output": {"bytes": 120000}}.',
  },
  load: {
    schema: { type: 'array', items: LOAD },
    file: 'MEM regions to preload before the run.',
    launch:
      'MEM regions preloaded before the run, as in tensorlens.run.json: { where, file } (WHERE is an address or a C global with an optional +bytes; FILE is ' +
      'raw bytes or .npy), or the command-line text WHERE=FILE.',
    text: true,
  },
  dump: {
    schema: { type: 'array', items: DUMP },
    file: 'Regions written back (or printed) after the run.',
    launch:
      'Regions printed to the Debug Console or written to a file when the program ends, as in tensorlens.run.json: { space, where, count, dtype, file? }, ' +
      'or the command-line text SPACE:WHERE:COUNT:DTYPE[=FILE].',
    text: true,
  },
  views: {
    schema: { type: 'array', items: VIEW },
    file:
      'Pictures the memory inspector opens after a run: [{"where": "output", "shape": [3, 200, 200]}] (an image), ' +
      '{"where": "acc", "dtype": "i32", …} (a heatmap).',
    launch: 'Pictures the memory inspector opens: [{"where": "output", "shape": [3, 200, 200]}].',
  },
  memBytes: {
    schema: { type: 'integer', minimum: MIN_MEM_BYTES, maximum: MAX_MEM_BYTES },
    file: 'Size of simulated MEM (default 64 MiB).',
    launch: 'Size of simulated MEM in bytes (default: the tensorLens.run.memBytes setting).',
  },
  stepBudget: {
    schema: { type: 'integer', minimum: 1 },
    file: 'Maximum interpreter steps before the run stops (default 500,000,000).',
    launch: 'Interpreter steps before the run stops with "step budget exhausted" (default: the tensorLens.run.stepBudget setting).',
  },
  includePaths: {
    schema: { type: 'array', items: { type: 'string' } },
    launch: 'Extra folders searched for #include "..." headers after the including file\'s folder (default: the tensorLens.includePaths setting).',
  },
  dialect: {
    schema: { enum: DIALECTS },
    launch: 'Tensor-program dialect to read the program in (default: the tensorLens.dialect setting).',
  },
  pcore: {
    schema: { type: 'string' },
    launch: 'The PCORE program to use instead of the .p beside the program.',
  },
} as const satisfies Record<string, { schema: JsonSchema; file?: string; launch: string; launchDefault?: unknown; text?: boolean }>;

/** Properties of a launch configuration that are about the debug session, not the run. */
const LAUNCH_ONLY = {
  stopOnEntry: { type: 'boolean', description: 'Stop at the first statement of the entry function.', default: false },
  trace: { type: 'boolean', description: 'Print every executed > statement (the tensor trace) to the Debug Console.', default: true },
  cwd: { type: 'string', description: "Folder that a relative program and the load/dump files start from (default: the program's folder)." },
} as const satisfies Record<string, JsonSchema>;

// ------------------------------------------------------------------ the TypeScript type, from PROPERTIES

type Flat<T> = { [K in keyof T]: T[K] };
type ObjectOf<P, R extends PropertyKey> = Flat<
  { -readonly [K in keyof P & R]: FromSchema<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: FromSchema<P[K]> }
>;
/** The TypeScript type of a value valid under schema S (the subset above). */
export type FromSchema<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'string' }
    ? string
    : S extends { type: 'integer' }
      ? number
      : S extends { type: 'boolean' }
        ? boolean
        : S extends { type: 'array'; items: infer I }
          ? FromSchema<I>[]
          : S extends { anyOf: readonly (infer A)[] }
            ? FromSchema<A>
            : S extends { type: 'object'; additionalProperties: infer A extends { type: string } }
              ? Record<string, FromSchema<A>>
              : S extends { type: 'object'; properties: infer P; required: readonly (infer R)[] }
                ? ObjectOf<P, R & PropertyKey>
                : S extends { type: 'object'; properties: infer P }
                  ? ObjectOf<P, never>
                  : never;

type Schemas = { [K in keyof typeof PROPERTIES]: (typeof PROPERTIES)[K]['schema'] };
export type RunConfig = ObjectOf<Schemas, 'program'>;
export type LoadConfig = FromSchema<typeof LOAD>;
export type DumpConfig = FromSchema<typeof DUMP>;
export type BufferConfig = FromSchema<typeof BUFFER>;
export type ViewConfig = FromSchema<typeof VIEW>;
export type Dialect = (typeof DIALECTS)[number];
/** The properties a `tensorlens.run.json` configuration may give (the others come from the settings). */
export type FileRunConfig = Pick<
  RunConfig,
  { [K in keyof typeof PROPERTIES]: (typeof PROPERTIES)[K] extends { file: string } ? K : never }[keyof typeof PROPERTIES]
> & { name?: string };

// ------------------------------------------------------------------ the JSON schemas, from PROPERTIES

function entries(): [string, { schema: JsonSchema; file?: string; launch: string; launchDefault?: unknown; text?: boolean }][] {
  return Object.entries(PROPERTIES);
}

/** The schema of one configuration of `tensorlens.run.json`. */
export function fileConfigurationSchema(): JsonSchema {
  const properties: Record<string, JsonSchema> = { name: { type: 'string', description: 'Shown when several configurations match a program.' } };
  for (const [k, p] of entries()) if (p.file) properties[k] = { ...p.schema, description: p.file };
  return { type: 'object', additionalProperties: false, required: ['program'], properties };
}

/** schemas/run-config.schema.json. */
export function runConfigFileSchema(): JsonSchema & Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Tensor Lens run configurations',
    description:
      'How "Tensor Lens: Run Program" runs tensor programs of this folder on the simulator. Put this file (tensorlens.run.json) in the program\'s folder or ' +
      'any folder above it.',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string' },
      configurations: { type: 'array', description: 'One entry per program (or per way of running one).', items: fileConfigurationSchema() },
    },
    required: ['configurations'],
  };
}

/** package.json `contributes.debuggers[0].configurationAttributes.launch`. */
export function launchAttributes(): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [k, p] of entries()) {
    const s: JsonSchema = p.text && p.schema.items ? { ...p.schema, items: { anyOf: [{ type: 'string' }, p.schema.items] } } : { ...p.schema };
    properties[k] = { ...s, description: p.launch, ...(p.launchDefault !== undefined ? { default: p.launchDefault } : {}) };
  }
  Object.assign(properties, LAUNCH_ONLY);
  return { required: ['program'], properties };
}

/** A path that does not start from a folder: `/x`, `\x`, `C:\x`, `C:/x`, `\\server\x`. */
export function isAbsolutePath(p: string): boolean {
  return /^([a-zA-Z]:)?[\\/]/.test(p);
}
