/**
 * Search `explain`: the explanation of each fetched hit against the query its shard ran, on
 * the reader the query read — the same explanation `_explain` gives for that document.
 */

import type { FieldVisibility } from '@shoal/protocol';
import type { HitExplainSpec, IndexMapping } from '../contract.ts';
import { type ShardReader, segmentOf } from '../index/shard-reader.ts';
import { compileExplainer } from './explain.ts';
import type { Explanation } from './explanation.ts';
import type { QueryContext } from './query-phase.ts';

export function explainHits(
  reader: ShardReader,
  mapping: IndexMapping,
  spec: HitExplainSpec,
  docs: readonly number[],
  ctx: QueryContext,
  fieldVisibility?: FieldVisibility,
): Explanation[] {
  const restriction = {
    ...(spec.documentFilter ? { documentFilter: spec.documentFilter } : {}),
    ...(fieldVisibility ? { fieldVisibility } : {}),
  };
  const explainer = compileExplainer(reader, mapping, spec.query, ctx, spec.limits, restriction);
  return docs.map((doc) => {
    const rs = segmentOf(explainer.reader, doc);
    return explainer.explain(rs, doc - rs.docBase).e;
  });
}
