/**
 * Tensor programs included by the program being run (a driver `.m` that `#include`s a kernel `.m`):
 * each is analysed exactly as the checker analyses it (the same Project: include paths, dialect, the
 * `.p` beside it), and its `>` statements become units of the run, numbered after the program's own.
 *
 * A run has one PCORE program: the program's own `.p` (or `--pcore`), else the `.p` of the included
 * tensor programs. Two different `.p` files in one run are refused, not mixed: kernels and
 * `class::member`s would silently resolve against the wrong program.
 */
import type { Project } from '../project/project';
import type { PcoreView } from '../project/pcoreAdapter';
import type { TprogAnalysis } from '../tprog/analyze';
import type { IncludedProgram } from './engine/execute';
import { SimError } from './types';

export class IncludedPrograms {
  readonly list: IncludedProgram[] = [];
  private next: number;
  private pcoreFile?: string;

  constructor(
    private readonly project: Project,
    private readonly main: TprogAnalysis,
    /** The run's PCORE program so far (the program's own or `--pcore`). */
    public pcore: PcoreView | undefined,
  ) {
    this.next = main.units.length;
    this.pcoreFile = pcore ? project.pcorePathFor(main.file) : undefined;
  }

  /** Full names of the run's PCORE kernels, in address order (kernel k has address (k + 1) << 4). */
  kernelNames(): string[] {
    const p = this.pcore;
    if (!p) return [];
    // asked for each `$cls::kernel` the compiler meets: listed once per PCORE program
    if (this.names?.of !== p) this.names = { of: p, list: p.kernels().map((k) => k.fullName) };
    return this.names.list;
  }

  private names?: { of: PcoreView; list: string[] };

  /** The preprocessor's `includedUnits` hook. */
  readonly units = (file: string, text: string): { base: number; units: { firstLine: number; lastLine: number }[] } | undefined => {
    const a = this.project.analyze(file, text);
    if (!a || a.units.length === 0) return undefined;
    const bad = a.diagnostics.find((d) => d.severity === 'error');
    if (bad) {
      const at = { file, line: bad.range.start.line + 1, column: bad.range.start.character + 1 };
      throw new SimError(`the included tensor program has errors; fix them first: ${bad.message}`, at, [], 'compile');
    }
    this.adoptPcore(file, a);
    const base = this.next;
    this.next += a.units.length;
    this.list.push({ a, base });
    return { base, units: a.units.map((u) => ({ firstLine: u.buf.firstLine, lastLine: u.buf.lastLine })) };
  };

  private adoptPcore(file: string, a: TprogAnalysis): void {
    const own = this.project.pcorePathFor(file);
    if (!own || !a.pcore) return;
    if (!this.pcore) {
      this.pcore = a.pcore as PcoreView;
      this.pcoreFile = own;
      return;
    }
    if (own !== this.pcoreFile) {
      throw new SimError(
        `not simulated: ${file} runs kernels of ${own}, but this run's PCORE program is ${this.pcoreFile} (one PCORE program per run: run the kernel file's ` +
          'entry, or give --pcore)',
        { file, line: 1, column: 1 },
        [],
        'not-simulated',
      );
    }
  }
}
