/**
 * The fetch phase's `matched_queries` (MatchedQueriesPhase): for each fetched hit, the named
 * queries of the search (`_name`) it matches, each compiled once and tested per segment; with
 * `include_named_queries_score`, with the score each gives the hit.
 */
import type { NamedQuery } from '@shoal/protocol';
import type { IndexMapping } from '../contract.ts';
import { type ReaderSegment, type ShardReader, segmentOf } from '../index/shard-reader.ts';
import type { Matches } from './matches.ts';
import { compileQuery } from './query-compiler.ts';
import type { Weight } from './weights.ts';

/** Per hit, its matched names (and scores), as the JSON of `matched_queries`; null for none. */
export function matchedQueriesJson(
  reader: ShardReader,
  mapping: IndexMapping,
  named: readonly NamedQuery[],
  withScores: boolean,
  docs: readonly number[],
  index: string,
): (string | null)[] {
  const env = { reader, mapping, nowMillis: Date.now(), index, indexUuid: '' };
  const weights: [string, Weight][] = named.map((n) => [n.name, compileQuery(n.query, env)]);
  const perSegment = new Map<ReaderSegment, Matches[]>();
  return docs.map((doc) => {
    const rs = segmentOf(reader, doc);
    let matches = perSegment.get(rs);
    if (!matches) {
      matches = weights.map(([, w]) => w.matches(rs, withScores));
      perSegment.set(rs, matches);
    }
    const local = doc - rs.docBase;
    const hit: [string, number][] = [];
    for (let i = 0; i < weights.length; i++) {
      const m = matches[i]!;
      if (m.kind === 'all') {
        hit.push([weights[i]![0], m.score]);
        continue;
      }
      const at = binarySearch(m.docs, local);
      if (at >= 0) hit.push([weights[i]![0], m.scores ? m.scores[at]! : 1]);
    }
    if (hit.length === 0) return null;
    if (!withScores) return JSON.stringify(hit.map(([name]) => name));
    return `{${hit.map(([name, score]) => `${JSON.stringify(name)}:${Math.fround(score)}`).join(',')}}`;
  });
}

function binarySearch(a: Int32Array, v: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const x = a[mid]!;
    if (x === v) return mid;
    if (x < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
