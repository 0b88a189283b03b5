/**
 * Elasticsearch's "did you mean" suffix for unknown names (SuggestingErrorOnUnknown.suggest):
 * candidates whose Lucene Levenshtein similarity is above 0.5, best first, ties by name.
 * Returns `''`, ` did you mean [x]?` or ` did you mean any of [x, y]?`.
 */
import { didYouMean, similarKeys } from '../values/similarity.ts';

export function suggest(unknown: string, candidates: readonly string[]): string {
  return didYouMean(similarKeys(unknown, candidates, 0.5, true));
}
