/**
 * FOR prefixes of a term, checked as the ztachip compiler treats them (mcore.cpp scan_array and
 * getStrideRegisterIndex): an index written exactly `[K]` takes the first FOR named K; FOR number q
 * programs loop register q, and the indices not bound to a FOR take the registers after the last FOR.
 * With L loop levels the registers used are 6-L..5, so a FOR no index takes shifts a later level
 * past register 5 and the compiler aborts on `assert(index < MAX_DP_STRIDE)` — unless every level is
 * bound to a FOR and the unused FORs come after every used one: then nothing moves and the compiler
 * ignores them.
 */
import type { Index, Prefix, Term } from './ast';
import type { Emit } from './analysis';

const ABORT = 'the ztachip compiler aborts on this term (assertion `index < MAX_DP_STRIDE` in getStrideRegisterIndex)';

/** Checks the FOR prefixes of `t` whose indices (main, thread and member) are `allIdx`. */
export function checkForPrefixes(t: Term, allIdx: Index[], emit: Emit): void {
  const fors: Prefix[] = [];
  for (const p of t.prefixes) if (p.kind === 'FOR' && p.forName) fors.push(p);
  // per FOR: how many indices take it (0 for a repeated name: its indices take the first FOR)
  const uses = new Array<number>(fors.length).fill(0);
  const first = new Array<number>(fors.length);
  for (let q = 0; q < fors.length; q++) {
    let f = q;
    for (let r = 0; r < q; r++)
      if (fors[r].forName!.text === fors[q].forName!.text) {
        f = r;
        break;
      }
    first[q] = f;
  }
  for (const i of allIdx) {
    if (i.kind !== 'for') continue;
    for (let q = 0; q < fors.length; q++)
      if (fors[q].forName!.text === i.forName) {
        uses[q]++;
        break;
      }
  }
  let lastUsed = -1;
  let firstUnused = fors.length;
  for (let q = 0; q < fors.length; q++) {
    if (uses[q] > 0) lastUsed = q;
    else if (firstUnused === fors.length) firstUnused = q;
  }
  const aborts = firstUnused < fors.length && (firstUnused < lastUsed || hasUnboundLevel(t));
  for (let q = 0; q < fors.length; q++) {
    const p = fors[q];
    const name = p.forName!.text;
    const range = forRangeText(p);
    if (first[q] !== q) {
      const earlier = fors[first[q]];
      const consequence = aborts ? `so this FOR is never used and ${ABORT}` : 'so this FOR is never used: the compiler silently drops its range';
      emit(
        p.forName!.span,
        'error',
        'tprog.for-duplicate',
        `FOR name ${name} is declared twice in this term: every \`[${name}]\` takes the first FOR(${name}=${forRangeText(earlier)}), ${consequence}. Give ` +
          `this FOR its own name, e.g. \`FOR(${name}2=${range})\`, and write \`[${name}2]\` at the index it should reorder`,
      );
      continue;
    }
    if (uses[q] === 0) {
      if (aborts)
        emit(
          p.span,
          'error',
          'tprog.for-unused',
          `FOR(${name}=${range}) is not used by any index of this term, and ${ABORT}: a FOR takes a loop register even when no index follows it. Write ` +
            `\`[${name}]\` at the index it should reorder, or remove the FOR`,
        );
      else
        emit(
          p.span,
          'warning',
          'tprog.for-unused',
          `FOR(${name}=${range}) is not used by any index of this term; the ztachip compiler ignores it here because every index follows an earlier FOR (it ` +
            `aborts on an unused FOR when an index does not follow a FOR or a later FOR is used). Remove it, or write \`[${name}]\` at the index it should ` +
            'reorder',
        );
    } else if (uses[q] > 1) {
      const second = allIdx.filter((i) => i.kind === 'for' && i.forName === name)[1];
      emit(
        second.span,
        'error',
        'tprog.for-twice',
        `FOR variable ${name} is used by ${uses[q]} indices of this term; the compiler silently programs wrong loops. Use it once.`,
      );
    }
  }
}

function forRangeText(p: Prefix): string {
  if (p.forPlaceholder) return '$';
  const r = p.forRange;
  if (!r) return '...';
  return [r.begin?.text ?? '', ...(r.step ? [r.step.text] : []), r.end?.text ?? ''].join(':');
}

/**
 * Whether the term has a loop level no FOR takes: a main or thread index that is not a FOR name; for
 * PCORE a member range that is not, or the level over the whole variable when no member index is a
 * range (mcore.cpp Gen: `parmSize` is at least 1).
 */
function hasUnboundLevel(t: Term): boolean {
  for (const i of t.indices) if (i.kind !== 'for') return true;
  if (t.thread) for (const i of t.thread.indices) if (i.kind !== 'for') return true;
  const member = t.member?.indices ?? [];
  if (t.space !== 'PCORE') return member.some((i) => i.kind !== 'for');
  let ranges = 0;
  for (const i of member) {
    if (i.kind === 'for') ranges++;
    else if (i.kind === 'range') return true;
  }
  return ranges === 0;
}
