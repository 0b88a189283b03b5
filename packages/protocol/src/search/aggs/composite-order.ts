/**
 * Composite keys order source by source, each ascending or descending; a missing value
 * (missing_bucket) is the smallest, so it comes first ascending and last descending.
 */
import type { CompositeValue } from './partial.ts';
import type { CompositeSourceSpec } from './spec.ts';
import { compareKeys } from './value-text.ts';

export function compareComposite(
  a: readonly CompositeValue[],
  b: readonly CompositeValue[],
  sources: readonly Pick<CompositeSourceSpec, 'asc'>[],
): number {
  for (let i = 0; i < sources.length; i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    let c: number;
    if (x === null || y === null) c = x === y ? 0 : x === null ? -1 : 1;
    else c = compareKeys(x, y);
    if (c !== 0) return sources[i]!.asc ? c : -c;
  }
  return 0;
}
