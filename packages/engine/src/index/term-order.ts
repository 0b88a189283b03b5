/**
 * Term order: Lucene orders `BytesRef`s by their UTF-8 bytes, which is Unicode code point order
 * (compareTerms, shared from protocol); and lookups in sorted term lists.
 */
import { compareTerms } from '@shoal/protocol';

export { compareTerms };

/** Index of `term` in a sorted term list, or -(insertion point) - 1 when absent. */
export function findTerm(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareTerms(terms[mid]!, term);
    if (c < 0) lo = mid + 1;
    else if (c > 0) hi = mid - 1;
    else return mid;
  }
  return -lo - 1;
}

/** First index whose term is >= `term` (or > when `exclusive`). */
export function lowerBound(terms: readonly string[], term: string, exclusive = false): number {
  const i = findTerm(terms, term);
  if (i >= 0) return exclusive ? i + 1 : i;
  return -i - 1;
}
