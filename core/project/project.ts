/**
 * A set of files analysed together: a tensor program, the PCORE program beside it (same basename)
 * and the headers it includes. Used identically by the CLI, the language server and the tests.
 */
import { analyzeTprog, ParseCache, type Dialect, type TprogAnalysis } from '../tprog/analyze';
import { scanC, type MacroDef } from '../tprog/ccontext';
import type { PcoreIndexView } from '../tprog/pcoreView';
import { LineIndex } from '../common/lineIndex';
import { dirname, extname, join, stripExt, type FileSystem } from './fileSystem';

export type PcoreLoader = (text: string, file: string, readInclude?: (path: string, fromFile: string, system: boolean) => string | undefined) => PcoreIndexView;

export interface ProjectOptions {
  fs: FileSystem;
  loadPcore: PcoreLoader;
  dialect?: Dialect;
  includePaths?: string[];
  /**
   * Settings of the file at a path, where they differ per file (the language server: each workspace
   * folder has its own); what it leaves out comes from `dialect`/`includePaths`.
   */
  settingsFor?: (path: string) => { dialect?: Dialect; includePaths?: string[] } | undefined;
}

export const TPROG_EXTS = ['.m', '.tprog'];
export const PCORE_EXTS = ['.p', '.pcore'];

export function isTprogPath(p: string): boolean {
  return TPROG_EXTS.includes(extname(p).toLowerCase());
}

export function isPcorePath(p: string): boolean {
  return PCORE_EXTS.includes(extname(p).toLowerCase());
}

export class Project {
  private readonly parseCaches = new Map<string, ParseCache>();
  private readonly pcoreCache = new Map<string, { text: string; view: PcoreIndexView }>();
  private readonly headerCache = new Map<string, { text: string; macros: MacroDef[]; names: string[]; includes: string[] }>();
  /** Explicit PCORE program for a tensor program (CLI `--pcore`). */
  readonly pcoreOverride = new Map<string, string>();

  constructor(readonly opts: ProjectOptions) {}

  setDialect(d: Dialect): void {
    this.opts.dialect = d;
  }

  /** The PCORE program paired with a tensor program, if one exists. */
  pcorePathFor(tprogPath: string): string | undefined {
    const o = this.pcoreOverride.get(tprogPath);
    if (o) return o;
    const stem = stripExt(tprogPath);
    const order = extname(tprogPath) === '.tprog' ? ['.pcore', '.p'] : ['.p', '.pcore'];
    for (const e of order) if (this.opts.fs.read(stem + e) !== undefined) return stem + e;
    return undefined;
  }

  /** Tensor programs paired with a PCORE program (for navigation from a `.p`). */
  tprogPathsFor(pcorePath: string): string[] {
    const stem = stripExt(pcorePath);
    return TPROG_EXTS.map((e) => stem + e).filter((p) => this.opts.fs.read(p) !== undefined);
  }

  pcore(path: string, text?: string): PcoreIndexView | undefined {
    const t = text ?? this.opts.fs.read(path);
    if (t === undefined) return undefined;
    const hit = this.pcoreCache.get(path);
    if (hit && hit.text === t) return hit.view;
    const extra = this.includePathsFor(path);
    const view = this.opts.loadPcore(t, path, (inc, from, system) => (system ? undefined : this.resolveInclude(from, inc, extra)?.text));
    this.pcoreCache.set(path, { text: t, view });
    return view;
  }

  /**
   * Macros of every header reachable through `#include "..."` (file-relative, then include paths) from
   * a file whose own quoted includes are `includes`.
   */
  headerMacros(path: string, includes: string[]): MacroDef[] {
    const out: MacroDef[] = [];
    this.eachHeader(path, includes, (h) => out.push(...h.macros));
    return out;
  }

  /** Names of the variables and functions every header reachable from the file declares (not macros). */
  headerNames(path: string, includes: string[]): Set<string> {
    const out = new Set<string>();
    this.eachHeader(path, includes, (h) => h.names.forEach((n) => out.add(n)));
    return out;
  }

  /** Every header reachable through `#include "..."` from a file whose own quoted includes are `includes`, innermost first. */
  private eachHeader(path: string, includes: string[], each: (h: ReturnType<Project['header']>) => void): void {
    const seen = new Set<string>();
    // the including program's include paths, also for the headers it reaches
    const extra = this.includePathsFor(path);
    const visit = (file: string, incs: string[], depth: number) => {
      if (depth > 16) return;
      for (const inc of incs) {
        const found = this.resolveInclude(file, inc, extra);
        if (!found || seen.has(found.path)) continue;
        seen.add(found.path);
        const h = this.header(found.path, found.text);
        visit(found.path, h.includes, depth + 1);
        each(h);
      }
    };
    visit(path, includes, 0);
  }

  /** The extra include folders of the file at `path` (searched after the including file's folder). */
  includePathsFor(path: string): string[] {
    return this.opts.settingsFor?.(path)?.includePaths ?? this.opts.includePaths ?? [];
  }

  resolveInclude(fromFile: string, inc: string, includePaths = this.includePathsFor(fromFile)): { path: string; text: string } | undefined {
    const dirs = [dirname(fromFile), ...includePaths];
    for (const d of dirs) {
      const p = join(d, inc);
      const text = this.opts.fs.read(p);
      if (text !== undefined) return { path: p, text };
    }
    return undefined;
  }

  private header(path: string, text: string) {
    const hit = this.headerCache.get(path);
    if (hit && hit.text === text) return hit;
    const ctx = scanC(text, new Set(), path);
    const li = new LineIndex(text);
    for (const m of ctx.macros) m.nameRange = li.range(m.nameSpan.start, m.nameSpan.end);
    // file-scope variables (extern or not), function definitions and prototypes (which the scan sees as calls)
    const names = [
      ...ctx.vars.filter((v) => v.fn < 0).map((v) => v.name),
      ...ctx.functions.map((f) => f.name),
      ...ctx.calls.filter((c) => c.fn < 0).map((c) => c.name),
    ];
    const entry = { text, macros: ctx.macros, names, includes: ctx.includes.filter((i) => !i.system).map((i) => i.path) };
    this.headerCache.set(path, entry);
    return entry;
  }

  analyze(path: string, text?: string): TprogAnalysis | undefined {
    const t = text ?? this.opts.fs.read(path);
    if (t === undefined) return undefined;
    let cache = this.parseCaches.get(path);
    if (!cache) this.parseCaches.set(path, (cache = new ParseCache()));
    const pp = this.pcorePathFor(path);
    return analyzeTprog(t, {
      file: path,
      dialect: this.opts.settingsFor?.(path)?.dialect ?? this.opts.dialect,
      pcore: pp ? this.pcore(pp) : undefined,
      headerMacros: (c) =>
        this.headerMacros(
          path,
          c.includes.filter((i) => !i.system).map((i) => i.path),
        ),
      headerNames: (c) =>
        this.headerNames(
          path,
          c.includes.filter((i) => !i.system).map((i) => i.path),
        ),
      cache,
    });
  }

  forget(path: string): void {
    this.parseCaches.delete(path);
    this.pcoreCache.delete(path);
    this.headerCache.delete(path);
  }
}
