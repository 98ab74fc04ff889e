/**
 * The parts of C macro definition and invocation both preprocessors do the same way: reading a
 * `#define`'s parameter list, `defined X` / `defined(X)` in `#if` lines, splitting an invocation's
 * arguments and C's rules on their number. Expansion itself (hide sets, substitution, `#`, `##`,
 * rescanning) stays with each preprocessor: see the comments at their `expand`.
 */
import type { TokenView } from './tokens';

/** The name a variadic `...` parameter is read by. */
export const VA_ARGS = '__VA_ARGS__';

/**
 * How a malformed parameter list is treated: `'lenient'` (the host: commas are separators wherever
 * they are, `#define F(a b)` takes two parameters) or `'strict'` (PCORE, as gcc: names separated by
 * single commas, a variadic `...` only last).
 */
export type ParamListStyle = 'lenient' | 'strict';

export interface MacroHead {
  /** Parameter names of a function-like macro (`...` is `__VA_ARGS__`); undefined for object-like. */
  params?: string[];
  variadic: boolean;
  /** Index of the first token of the replacement list. */
  body: number;
}

/** `'unterminated'`: the line ends inside the list; `'bad-parameter'`: `at` is not a parameter name. */
export interface MacroHeadError {
  error: 'unterminated' | 'bad-parameter';
  at: number;
}

/**
 * Reads what follows a `#define`'s name at `toks[from]`: a parameter list when `(` follows the name
 * with no space between, then the replacement list.
 */
export function parseMacroHead<T>(toks: readonly T[], from: number, view: TokenView<T>, style: ParamListStyle): MacroHead | MacroHeadError {
  const open = toks[from];
  if (!open || view.text(open) !== '(' || view.spaceBefore(open)) return { variadic: false, body: from };
  const params: string[] = [];
  let variadic = false;
  const isParam = (t: T | undefined): t is T => t !== undefined && view.isIdent(t) && !view.text(t).includes('::');
  let i = from + 1;
  if (style === 'lenient') {
    for (; ; i++) {
      const p = toks[i];
      if (!p) return { error: 'unterminated', at: i };
      const s = view.text(p);
      if (s === ')') return { params, variadic, body: i + 1 };
      if (s === '...') {
        variadic = true;
        params.push(VA_ARGS);
      } else if (isParam(p)) {
        // GNU named variadic parameter `args...`
        if (toks[i + 1] && view.text(toks[i + 1]) === '...') {
          variadic = true;
          i++;
        }
        params.push(s);
      } else if (s !== ',') return { error: 'bad-parameter', at: i };
    }
  }
  const textAt = (k: number): string | undefined => (toks[k] ? view.text(toks[k]) : undefined);
  if (textAt(i) === ')') return { params, variadic, body: i + 1 };
  while (i < toks.length) {
    const p = toks[i];
    if (view.text(p) === '...') {
      params.push(VA_ARGS);
      variadic = true;
      i++;
    } else if (isParam(p)) {
      params.push(view.text(p));
      i++;
      if (textAt(i) === '...') {
        variadic = true;
        i++;
      }
    } else break;
    if (textAt(i) === ',') {
      i++;
      continue;
    }
    if (textAt(i) === ')') return { params, variadic, body: i + 1 };
    break;
  }
  return { error: i < toks.length ? 'bad-parameter' : 'unterminated', at: i };
}

/**
 * Reads the arguments of a function-like macro call, its `(` already taken: splits at commas outside
 * parentheses (the variadic parameter takes the rest, commas included). Undefined when the input ends
 * before the closing `)`; otherwise the arguments and that `)`.
 */
export function collectArguments<T>(
  take: () => T | undefined,
  text: (t: T) => string,
  nParams: number,
  variadic: boolean,
): { args: T[][]; close: T } | undefined {
  const args: T[][] = [[]];
  let depth = 0;
  for (;;) {
    const a = take();
    if (a === undefined) return undefined;
    const s = text(a);
    if (s === '(') depth++;
    else if (s === ')') {
      if (depth === 0) return { args, close: a };
      depth--;
    } else if (s === ',' && depth === 0 && !(variadic && args.length >= nParams)) {
      args.push([]);
      continue;
    }
    args[args.length - 1].push(a);
  }
}

/**
 * C's rules on the number of arguments: `F()` passes none to a macro without parameters, and a variadic
 * macro may be called without its variadic argument. Pads missing arguments with empty ones (so a
 * caller that goes on after a wrong count can substitute every parameter); `given` is the count the
 * call had.
 */
export function fitArguments<T>(args: T[][], nParams: number, variadic: boolean): { ok: boolean; given: number } {
  if (nParams === 0 && args.length === 1 && args[0].length === 0) args.length = 0;
  const given = args.length;
  const ok = given === nParams || (variadic && given === nParams - 1);
  while (args.length < nParams) args.push([]);
  return { ok, given };
}

/**
 * Replaces `defined X` and `defined(X)` in a `#if` line, before macro expansion as C requires, by the
 * token `make(definedToken, lastToken, 1 or 0)` gives. A `defined` with no macro name after it: with
 * `missing` (the host) it is an error, and `defined(` reads the name and one token after it whatever
 * that is; without it (PCORE) the `defined` becomes 0 and the tokens after it are left to the
 * expression, which then fails.
 */
export function replaceDefined<T>(
  toks: readonly T[],
  view: TokenView<T>,
  isDefined: (name: string) => boolean,
  make: (at: T, last: T, value: 0 | 1) => T,
  missing: ((at: T) => never) | undefined,
): T[] {
  const out: T[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (!view.isIdent(t) || view.text(t) !== 'defined') {
      out.push(t);
      continue;
    }
    const next = toks[i + 1];
    const paren = next !== undefined && view.text(next) === '(';
    if (missing) {
      const n = paren ? toks[i + 2] : next;
      if (!n || !view.isIdent(n)) missing(t);
      out.push(make(t, n, isDefined(view.text(n)) ? 1 : 0));
      i += paren ? 3 : 1;
      continue;
    }
    let name: T | undefined;
    let last = t;
    if (next && view.isIdent(next)) {
      name = next;
      last = next;
      i += 1;
    } else if (paren && toks[i + 2] && view.isIdent(toks[i + 2]) && toks[i + 3] && view.text(toks[i + 3]) === ')') {
      name = toks[i + 2];
      last = toks[i + 3];
      i += 3;
    }
    out.push(make(t, last, name && isDefined(view.text(name)) ? 1 : 0));
  }
  return out;
}
