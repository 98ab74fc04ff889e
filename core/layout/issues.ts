/**
 * Validation findings of the models, independent of source text. `field` names the spec property as
 * written in the layout language (`device_size`, `dim_map`, `shard`, `grid`, `dtype`, `shape`, `at`,
 * `layout` = the whole layout expression, ...); the checker turns it into a range.
 */
import type { Severity } from '../common/diagnostic';

export interface IssueFix {
  title: string;
  /** Property whose value is replaced (`layout` = the whole layout expression). */
  field: string;
  /** Element of a list property to replace instead of the whole value. */
  index?: number;
  newText: string;
  preferred?: boolean;
}

export interface Issue {
  code: string;
  severity: Severity;
  message: string;
  field?: string;
  index?: number;
  fixes?: IssueFix[];
}

export const hasErrors = (issues: readonly Issue[]): boolean => issues.some((i) => i.severity === 'error');

export function issue(code: string, severity: Severity, message: string, field?: string, extra?: { index?: number; fixes?: IssueFix[] }): Issue {
  return { code, severity, message, field, index: extra?.index, fixes: extra?.fixes };
}
