/** All B.7 rules of a TT-NN buffer: the structural ones, then what the built buffer advises. */
import { issue, type Issue } from '../../issues';
import { TTLayout } from './layout';
import type { TTSpec } from './spec';
import { structuralTT } from './structural';

/** Every B.7 rule: structural ones, then capacity, padding and information on a buildable buffer. */
export function validateTT(spec: TTSpec): Issue[] {
  const out = structuralTT(spec);
  if (spec.swappedShard)
    out.push(
      issue(
        'TT013',
        'warning',
        'use_height_and_width_as_shard_shape=True with COL_MAJOR orientation swaps the shard dims: the shard is (width, height) of what was written',
        'orientation',
      ),
    );
  if (out.some((i) => i.severity === 'error')) return out;
  let t: TTLayout;
  try {
    t = new TTLayout(spec, true);
  } catch (e) {
    out.push(issue('TT026', 'error', (e as Error).message, '@layout'));
    return out;
  }
  out.push(...t.advice());
  return out;
}
