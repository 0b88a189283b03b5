/**
 * Lucene's LevenshteinDistance similarity (1 - edits / longer length, as a Java float), which
 * Elasticsearch uses for its "did you mean" hints on unknown settings and URL parameters.
 */
export function levenshteinSimilarity(target: string, other: string): number {
  const n = target.length;
  const m = other.length;
  if (n === 0 || m === 0) return n === m ? 1 : 0;
  let p = new Array<number>(n + 1);
  let d = new Array<number>(n + 1);
  for (let i = 0; i <= n; i++) p[i] = i;
  for (let j = 1; j <= m; j++) {
    const tj = other.charCodeAt(j - 1);
    d[0] = j;
    for (let i = 1; i <= n; i++) {
      const cost = target.charCodeAt(i - 1) === tj ? 0 : 1;
      d[i] = Math.min(d[i - 1]! + 1, p[i]! + 1, p[i - 1]! + cost);
    }
    const t = p;
    p = d;
    d = t;
  }
  return Math.fround(1 - Math.fround(p[n]! / Math.max(m, n)));
}

/**
 * Candidates more similar than `threshold`, best first. Ties keep the candidates' order, unless
 * `tieByName` (the URL-parameter hint sorts equal scores by name).
 */
export function similarKeys(
  invalid: string,
  candidates: Iterable<string>,
  threshold: number,
  tieByName = false,
): string[] {
  const scored: { score: number; key: string }[] = [];
  for (const key of candidates) {
    const score = levenshteinSimilarity(invalid, key);
    if (score > threshold) scored.push({ score, key });
  }
  scored.sort((a, b) => b.score - a.score || (tieByName ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : 0));
  return scored.map((s) => s.key);
}

/** ` did you mean [x]?` / ` did you mean any of [x, y]?`, or '' when there is nothing to suggest. */
export function didYouMean(keys: readonly string[]): string {
  if (keys.length === 0) return '';
  return keys.length === 1 ? ` did you mean [${keys[0]}]?` : ` did you mean any of [${keys.join(', ')}]?`;
}
