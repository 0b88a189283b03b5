/** Builds a small shard for search tests: documents indexed through a ShardEngine and refreshed. */
import type { QueryNode, SortSpec, SortValue } from '@shoal/protocol';
import type { IndexMapping, ShardQueryResult } from '../contract.ts';
import { ShardEngine } from '../index/shard-engine.ts';
import type { ShardReader } from '../index/shard-reader.ts';
import { type FieldDef, testMapping } from '../index/test-mapping.test-support.ts';
import { executeQuery } from './query-phase.ts';

const enc = new TextEncoder();

export interface Corpus {
  engine: ShardEngine;
  mapping: IndexMapping;
  reader: ShardReader;
  search(query: QueryNode, opts?: SearchOpts): ShardQueryResult;
  /** Ids of the hits, best first. */
  ids(query: QueryNode, opts?: SearchOpts): string[];
}

export interface SearchOpts {
  sort?: SortSpec[];
  k?: number;
  searchAfter?: SortValue[];
  trackScores?: boolean;
  shardIndex?: number;
  trackTotalHitsUpTo?: number;
}

export const ctx = {
  index: 'idx',
  indexUuid: 'uuid',
  shardId: 0,
  isCancelled: () => false,
  nowMillis: Date.UTC(2024, 0, 15, 12, 0, 0),
};

/** Docs are [id, source]; `segmentEvery` refreshes after that many docs (several segments). */
export function corpus(
  props: Record<string, FieldDef>,
  docs: [string, Record<string, unknown>][],
  segmentEvery = Number.POSITIVE_INFINITY,
): Corpus {
  const mapping = testMapping(props, false);
  const engine = new ShardEngine({ index: 'idx', indexUuid: 'uuid', shardId: 0, mapping });
  docs.forEach(([id, src], i) => {
    const o = engine.write([{ op: 'index', id, source: enc.encode(JSON.stringify(src)), create: false }]);
    if (o.kind !== 'applied' || o.results[0]!.error) throw new Error(`indexing ${id} failed`);
    if ((i + 1) % segmentEvery === 0) engine.refresh();
  });
  engine.refresh();
  const reader = engine.acquireReader();
  const search = (query: QueryNode, opts: SearchOpts = {}) =>
    executeQuery(
      reader,
      mapping,
      {
        query,
        sort: opts.sort ?? [{ kind: 'score', order: 'desc' }],
        k: opts.k ?? 100,
        trackTotalHitsUpTo: opts.trackTotalHitsUpTo ?? 10000,
        trackScores: opts.trackScores ?? false,
        searchAfter: opts.searchAfter,
        shardIndex: opts.shardIndex ?? 0,
      },
      ctx,
    );
  const idOf = (doc: number) => {
    for (const s of reader.segments) {
      if (doc >= s.docBase && doc < s.docBase + s.segment.maxDoc)
        return s.segment.stored.ids[doc - s.docBase]!;
    }
    throw new Error(`no doc ${doc}`);
  };
  return {
    engine,
    mapping,
    reader,
    search,
    ids: (q, o) => search(q, o).hits.map((h) => idOf(h.doc)),
  };
}

// Small QueryNode builders with Elasticsearch's defaults.
export const q = {
  all: (boost = 1): QueryNode => ({ type: 'match_all', boost }),
  none: (): QueryNode => ({ type: 'match_none' }),
  term: (
    field: string,
    value: QueryNode extends never ? never : string | number | boolean | bigint,
    extra = {},
  ): QueryNode => ({
    type: 'term',
    field,
    value,
    boost: 1,
    caseInsensitive: false,
    ...extra,
  }),
  terms: (field: string, values: (string | number | boolean)[]): QueryNode => ({
    type: 'terms',
    field,
    values,
    boost: 1,
  }),
  range: (field: string, r: Record<string, unknown>): QueryNode =>
    ({ type: 'range', field, boost: 1, ...r }) as QueryNode,
  exists: (field: string): QueryNode => ({ type: 'exists', field, boost: 1 }),
  ids: (...values: string[]): QueryNode => ({ type: 'ids', values, boost: 1 }),
  prefix: (field: string, value: string, ci = false): QueryNode => ({
    type: 'prefix',
    field,
    value,
    boost: 1,
    caseInsensitive: ci,
  }),
  wildcard: (field: string, value: string, ci = false): QueryNode => ({
    type: 'wildcard',
    field,
    value,
    boost: 1,
    caseInsensitive: ci,
  }),
  match: (field: string, query: string | number, extra: Record<string, unknown> = {}): QueryNode =>
    ({
      type: 'match',
      field,
      query,
      operator: 'or',
      zeroTermsQuery: 'none',
      lenient: false,
      boost: 1,
      ...extra,
    }) as QueryNode,
  phrase: (field: string, query: string, slop = 0): QueryNode => ({
    type: 'match_phrase',
    field,
    query,
    slop,
    zeroTermsQuery: 'none',
    boost: 1,
  }),
  multi: (fields: string[], query: string, extra: Record<string, unknown> = {}): QueryNode =>
    ({
      type: 'multi_match',
      fields: fields.map((f) => {
        const [field, boost] = f.split('^');
        return { field: field!, boost: boost ? Number(boost) : 1 };
      }),
      query,
      matchType: 'best_fields',
      operator: 'or',
      tieBreaker: 0,
      slop: 0,
      lenient: false,
      zeroTermsQuery: 'none',
      boost: 1,
      ...extra,
    }) as QueryNode,
  bool: (b: {
    must?: QueryNode[];
    filter?: QueryNode[];
    should?: QueryNode[];
    mustNot?: QueryNode[];
    msm?: string;
    boost?: number;
  }): QueryNode => ({
    type: 'bool',
    must: b.must ?? [],
    filter: b.filter ?? [],
    should: b.should ?? [],
    mustNot: b.mustNot ?? [],
    minimumShouldMatch: b.msm,
    boost: b.boost ?? 1,
  }),
  constant: (filter: QueryNode, boost = 1): QueryNode => ({ type: 'constant_score', filter, boost }),
  sqs: (query: string, extra: Record<string, unknown> = {}): QueryNode =>
    ({
      type: 'simple_query_string',
      query,
      fields: [],
      defaultOperator: 'or',
      lenient: false,
      analyzeWildcard: false,
      boost: 1,
      ...extra,
    }) as QueryNode,
};

export const sortBy = {
  score: (order: 'asc' | 'desc' = 'desc'): SortSpec => ({ kind: 'score', order }),
  doc: (order: 'asc' | 'desc' = 'asc'): SortSpec => ({ kind: 'doc', order }),
  shardDoc: (order: 'asc' | 'desc' = 'asc'): SortSpec => ({ kind: 'shard_doc', order }),
  field: (field: string, order: 'asc' | 'desc' = 'asc', extra: Record<string, unknown> = {}): SortSpec =>
    ({ kind: 'field', field, order, missing: '_last', ...extra }) as SortSpec,
};
