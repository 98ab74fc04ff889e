/**
 * Conditional inclusion (`#if/#ifdef/#ifndef/#elif/#else/#endif`): which region is active, which
 * branch of a group was taken. Both preprocessors keep one of these; what they do with a misplaced
 * directive differs (the host stops with an error, PCORE reports it and goes on), so problems go to
 * the caller's `report`, which may throw.
 */

export type ConditionProblem = 'without-if' | 'after-else';

interface Group<At> {
  /** The current branch is being read. */
  active: boolean;
  /** A branch of the group was taken (later `#elif`/`#else` are skipped). */
  taken: boolean;
  /** The region around the group is active (an inactive group never takes a branch). */
  parentActive: boolean;
  sawElse: boolean;
  /** Where the group opened (its `#if` line), for "unterminated" diagnostics. */
  at: At;
}

export class ConditionStack<At> {
  private readonly groups: Group<At>[] = [];

  /** Tokens outside every group, or in the taken branch of each enclosing group, are read. */
  get active(): boolean {
    const n = this.groups.length;
    return n === 0 || this.groups[n - 1].active;
  }

  get depth(): number {
    return this.groups.length;
  }

  /** `#if`/`#ifdef`/`#ifndef`: `test` is evaluated only inside an active region (as C requires). */
  open(at: At, test: () => boolean): void {
    const parentActive = this.active;
    const v = parentActive && test();
    this.groups.push({ active: v, taken: v, parentActive, sawElse: false, at });
  }

  /** `#elif`: `test` is evaluated only when no earlier branch was taken in an active region. */
  elif(test: () => boolean, report: (p: ConditionProblem) => void): void {
    const g = this.groups[this.groups.length - 1];
    if (!g) return report('without-if');
    if (g.sawElse) report('after-else');
    if (!g.parentActive || g.taken) g.active = false;
    else {
      const v = test();
      g.active = v;
      g.taken = v;
    }
  }

  /** `#else`. */
  else(report: (p: ConditionProblem) => void): void {
    const g = this.groups[this.groups.length - 1];
    if (!g) return report('without-if');
    if (g.sawElse) report('after-else');
    g.sawElse = true;
    g.active = g.parentActive && !g.taken;
    g.taken = true;
  }

  /** `#endif`; false when there is no group to close. */
  close(): boolean {
    return this.groups.pop() !== undefined;
  }

  /** Where each still open group began, outermost first. */
  unclosed(): At[] {
    return this.groups.map((g) => g.at);
  }
}
