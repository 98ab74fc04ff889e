/** Small pieces the tensor-statement checker's modules share. */
import type { UnitDiag } from './analysis';

/** Which side of a statement a term stands on (`def`: the right side of a `:=`). */
export type Role = 'dst' | 'src' | 'def';

/** Whether a diagnostic with `code` is in the list (an indexed loop: this runs once per statement). */
export function hasCode(list: readonly UnitDiag[], code: string): boolean {
  for (let k = 0; k < list.length; k++) if (list[k].code === code) return true;
  return false;
}

/** Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) dp[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) dp[i][j] = Math.min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return dp[a.length][b.length];
}
