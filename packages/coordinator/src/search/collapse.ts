/**
 * Field collapsing on the coordinator: CollapseBuilder's parsing, the request-level refusals,
 * and CollapseTopFieldDocs.merge — the shards' groups k-way merged in the search's order (sort
 * values, then shard index, then doc) keeping the first hit of each collapse value, so a value
 * two shards both hold appears once. Each hit's collapse value reaches the response the way
 * Elasticsearch puts it there: the field is fetched as a `docvalue_fields` entry (a doc without
 * a value shows no entry), merged with whatever `fields` and `docvalue_fields` the search asked.
 * The groups' `inner_hits` are searched once the page is fetched (expand-phase.ts).
 */
import type { FieldAndFormat, SearchRequest, SortValue } from '@shoal/protocol';
import { illegalArgument, notImplemented, parsingException } from '@shoal/protocol';
import { innerHitsSpecs } from './inner-hits-spec.ts';
import type { MergeHit } from './merge.ts';
import type { ShardQueryOutcome } from './query-phase.ts';

const KEYS = new Set(['field', 'inner_hits', 'max_concurrent_group_searches']);

/** The collapse field; throws what CollapseBuilder's parser and SearchService refuse. */
export function collapseField(req: SearchRequest): string {
  const c = req.collapse!;
  for (const k of Object.keys(c)) {
    if (!KEYS.has(k)) throw parsingException(`[collapse] unknown field [${k}]`);
  }
  const field = c.field;
  if (field !== undefined && typeof field !== 'string')
    throw parsingException(`[collapse] field doesn't support values of type: ${jsonKind(field)}`);
  const max = c.max_concurrent_group_searches;
  if (max !== undefined) {
    if (typeof max !== 'number' || !Number.isInteger(max))
      throw parsingException('[collapse] failed to parse field [max_concurrent_group_searches]');
    if (max < 1) throw illegalArgument('maxConcurrentGroupRequests` must be positive');
  }
  if (field === '') throw illegalArgument('field name is null or empty');
  if (field === undefined) throw illegalArgument('no collapse field specified');
  innerHitsSpecs(field, c.inner_hits);
  if (req.rescore !== undefined && req.rescore.length > 0) throw notImplemented('collapse with rescore');
  // SearchAfterBuilder.buildFieldDoc: a collapsed search pages by its collapse field alone.
  if (req.searchAfter !== undefined && req.searchAfter.length > 0) {
    const sort = req.sort ?? [];
    const only = sort.length === 1 ? sort[0]! : undefined;
    if (only?.kind !== 'field' || only.field !== field) {
      throw illegalArgument(
        'Cannot use [collapse] in conjunction with [search_after] unless the search is sorted on the same field. Multiple sort fields are not allowed.',
      );
    }
  }
  return field;
}

function jsonKind(v: unknown): string {
  if (v === null) return 'VALUE_NULL';
  if (Array.isArray(v)) return 'START_ARRAY';
  if (typeof v === 'object') return 'START_OBJECT';
  if (typeof v === 'number') return 'VALUE_NUMBER';
  return 'VALUE_BOOLEAN';
}

/** The search's `docvalue_fields` with the collapse field added when it is not already there. */
export function withCollapseDocValues(search: SearchRequest): FieldAndFormat[] {
  const field = search.collapse!.field as string;
  const own = search.docValueFields ?? [];
  return own.some((f) => f.field === field) ? own : [...own, { field }];
}

/** A collapse value as a Set key: a long and a number of the same value are one group. */
function groupKey(v: SortValue | undefined): SortValue {
  if (v === undefined) return null;
  return typeof v === 'bigint' && v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v;
}

/** CollapseTopFieldDocs.merge: the hits at [from, from + size) of the groups' merge. */
export function mergeCollapsed(
  outcomes: ShardQueryOutcome[],
  cmp: (a: MergeHit, b: MergeHit) => number,
  from: number,
  size: number,
): MergeHit[] {
  const lists = outcomes.filter((o) => o.hits.length > 0);
  const pos = new Array<number>(lists.length).fill(0);
  const seen = new Set<SortValue>();
  const out: MergeHit[] = [];
  let taken = 0;
  while (taken < from + size) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      if (pos[i]! >= lists[i]!.hits.length) continue;
      if (best < 0 || cmp(lists[i]!.hits[pos[i]!]!, lists[best]!.hits[pos[best]!]!) < 0) best = i;
    }
    if (best < 0) break;
    const o = lists[best]!;
    const at = pos[best]!++;
    const key = groupKey(o.result.collapseValues?.[at]);
    if (seen.has(key)) continue;
    seen.add(key);
    if (taken >= from) out.push(o.hits[at]!);
    taken++;
  }
  return out;
}
