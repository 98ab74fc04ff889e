/**
 * Schema values: a tiny, dependency-free validator with type inference. A message type is written once
 * as a schema (`S.obj({ ... })`) and its TypeScript type is inferred from it (`Infer<typeof XS>`), so
 * what a receiver checks at run time and what the compiler checks can never disagree. Every protocol
 * whose values cross a boundary (webview messages, trace steps) is written with these.
 */
export interface Schema<T> {
  /** Undefined when `x` conforms; otherwise a message naming the offending path. */
  check(x: unknown, path: string): string | undefined;
  readonly _t?: T;
  readonly optional?: boolean;
}
export type Infer<S> = S extends Schema<infer T> ? T : never;

type Shape = Record<string, Schema<unknown>>;
type OptKeys<P extends Shape> = { [K in keyof P]: P[K] extends { optional: true } ? K : never }[keyof P];
type ReqKeys<P extends Shape> = Exclude<keyof P, OptKeys<P>>;
type Flat<T> = { [K in keyof T]: T[K] };
type ObjOf<P extends Shape> = Flat<{ [K in ReqKeys<P>]: Infer<P[K]> } & { [K in OptKeys<P>]?: Infer<P[K]> }>;

/** An ArrayBuffer or SharedArrayBuffer (by tag: works across realms). */
export const isBinaryTag = (x: unknown): boolean => {
  const tag = Object.prototype.toString.call(x);
  return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]';
};

/** Binary payload: an ArrayBuffer on the wire; typed-array views are accepted when receiving. */
export type Binary = ArrayBuffer;

export const S = {
  num: (opts: { int?: boolean; min?: number; max?: number } = {}): Schema<number> => ({
    check: (x, p) => {
      if (typeof x !== 'number' || Number.isNaN(x)) return `${p}: expected a number`;
      if (opts.int && !Number.isSafeInteger(x)) return `${p}: expected an integer`;
      if (opts.min !== undefined && x < opts.min) return `${p}: ${x} < ${opts.min}`;
      if (opts.max !== undefined && x > opts.max) return `${p}: ${x} > ${opts.max}`;
      return undefined;
    },
  }),
  /** Any number including NaN and ±Infinity (colour keys). */
  anyNum: (): Schema<number> => ({ check: (x, p) => (typeof x === 'number' ? undefined : `${p}: expected a number`) }),
  str: (max = 1 << 20): Schema<string> => ({
    check: (x, p) => (typeof x !== 'string' ? `${p}: expected a string` : x.length > max ? `${p}: string longer than ${max}` : undefined),
  }),
  bool: (): Schema<boolean> => ({ check: (x, p) => (typeof x === 'boolean' ? undefined : `${p}: expected a boolean`) }),
  lit: <L extends string | number | boolean>(...values: L[]): Schema<L> => ({
    check: (x, p) => (values.includes(x as L) ? undefined : `${p}: expected ${values.map((v) => JSON.stringify(v)).join(' | ')}`),
  }),
  bin: (): Schema<Binary> => ({
    check: (x, p) => (isBinaryTag(x) || (ArrayBuffer.isView(x) && isBinaryTag((x as ArrayBufferView).buffer)) ? undefined : `${p}: expected an ArrayBuffer`),
  }),
  arr: <T>(of: Schema<T>, max = 1 << 22): Schema<T[]> => ({
    check: (x, p) => {
      if (!Array.isArray(x)) return `${p}: expected an array`;
      if (x.length > max) return `${p}: more than ${max} items`;
      for (let i = 0; i < x.length; i++) {
        const e = of.check(x[i], `${p}[${i}]`);
        if (e) return e;
      }
      return undefined;
    },
  }),
  rec: <T>(of: Schema<T>): Schema<Record<string, T>> => ({
    check: (x, p) => {
      if (typeof x !== 'object' || x === null || Array.isArray(x)) return `${p}: expected an object`;
      for (const [k, v] of Object.entries(x)) {
        const e = of.check(v, `${p}.${k}`);
        if (e) return e;
      }
      return undefined;
    },
  }),
  obj: <P extends Shape>(props: P): Schema<ObjOf<P>> & { props: P } => ({
    props,
    check: (x, p) => {
      if (typeof x !== 'object' || x === null || Array.isArray(x) || isBinaryTag(x) || ArrayBuffer.isView(x)) return `${p}: expected an object`;
      const o = x as Record<string, unknown>;
      for (const k in props) {
        const s = props[k];
        const v = o[k];
        if (v === undefined) {
          if (!s.optional) return `${p}.${k}: missing`;
          continue;
        }
        const e = s.check(v, `${p}.${k}`);
        if (e) return e;
      }
      return undefined;
    },
  }),
  opt: <T>(s: Schema<T>): Schema<T> & { optional: true } => ({ check: (x, p) => (x === undefined ? undefined : s.check(x, p)), optional: true }),
  nullable: <T>(s: Schema<T>): Schema<T | null> => ({ check: (x, p) => (x === null ? undefined : s.check(x, p)) }),
  union: <A extends Schema<unknown>[]>(...alts: A): Schema<Infer<A[number]>> => ({
    check: (x, p) => {
      const errs: string[] = [];
      for (const a of alts) {
        const e = a.check(x, p);
        if (!e) return undefined;
        errs.push(e);
      }
      return errs.sort((a, b) => b.length - a.length)[0] ?? `${p}: no alternative matched`;
    },
  }),
  any: (): Schema<unknown> => ({ check: () => undefined }),
};

/** A safe integer in [min, max]. */
export const int = (min = 0, max = Number.MAX_SAFE_INTEGER) => S.num({ int: true, min, max });
/** A step number: −1 (before the first step) or more. */
export const step = () => S.num({ int: true, min: -1 });
