import { notImplemented, parseQuery, parseSearchRequest, ShoalError, withAliasFilter } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import type { IndexMetadata } from '../state/index-metadata.ts';
import { explainedShard, explainFetch, markNodes, refuseUnexplained } from './explain-fetch.ts';
import type { FetchedHit } from './fetch-phase.ts';
import type { ShardQueryOutcome } from './query-phase.ts';
import { SCORE_SORT } from './shard-request.ts';
import type { ShardTarget } from './shard-targets.ts';

function meta(name: string, settings: Record<string, unknown> = {}): IndexMetadata {
  return { name, settings, aliases: new Map() } as unknown as IndexMetadata;
}

function outcome(target: Partial<ShardTarget> & Pick<ShardTarget, 'meta' | 'shardId'>): ShardQueryOutcome {
  return { target: { shardIndex: 0, copy: undefined, ...target } } as unknown as ShardQueryOutcome;
}

describe('explainFetch', () => {
  const search = parseSearchRequest({ query: { match: { title: 'fox' } }, explain: true }, {});
  const query = parseQuery({ match: { title: 'fox' } });

  it('asks each shard to explain with the query its query phase ran', () => {
    const build = explainFetch(search, SCORE_SORT, 2);
    expect(build(outcome({ meta: meta('a'), shardId: 0 }))).toEqual({ explain: { query } });
    const aliasFilter = parseQuery({ term: { tag: 'b' } });
    const documentFilter = parseQuery({ term: { owner: 'x' } });
    const viaAlias = build(outcome({ meta: meta('a'), shardId: 1, aliasFilter, documentFilter }));
    expect(viaAlias).toEqual({ explain: { query: withAliasFilter(query, aliasFilter), documentFilter } });
  });

  it('folds a post_filter in as the query phase does', () => {
    const withPost = parseSearchRequest(
      { query: { match: { title: 'fox' } }, post_filter: { term: { tag: 'a' } } },
      {},
    );
    const { explain } = explainFetch(withPost, SCORE_SORT, 1)(outcome({ meta: meta('a'), shardId: 0 }));
    expect(explain?.query).toMatchObject({
      type: 'bool',
      must: [query],
      filter: [parseQuery({ term: { tag: 'a' } })],
    });
  });

  it('passes the index query limits', () => {
    const limited = meta('b', { 'index.max_terms_count': '7' });
    const { explain } = explainFetch(search, SCORE_SORT, 1)(outcome({ meta: limited, shardId: 0 }));
    expect(explain?.limits).toEqual({ maxTermsCount: 7 });
  });
});

describe('explained hits', () => {
  it('name their shard as [index][shard] and the node of its copy, this node when it is local', () => {
    const local = { outcome: outcome({ meta: meta('logs'), shardId: 3 }) } as FetchedHit;
    const remote = {
      outcome: outcome({ meta: meta('logs'), shardId: 1, copy: { node: 'other' } as ShardTarget['copy'] }),
    } as FetchedHit;
    markNodes([local, undefined, remote], 'here');
    expect(local.node).toBe('here');
    expect(remote.node).toBe('other');
    expect(explainedShard(local, local.node!)).toEqual({ _shard: '[logs][3]', _node: 'here' });
  });
});

describe('refuseUnexplained', () => {
  it('fails the search with the 501 of a query the engine cannot explain, and lets other failures be', () => {
    const other = { shard: 0, index: 'a', error: new ShoalError('illegal_argument_exception', 'bad', 400) };
    expect(() => refuseUnexplained([other])).not.toThrow();
    const missing = notImplemented('explaining a [terms_set] query');
    expect(() => refuseUnexplained([other, { shard: 1, index: 'a', error: missing }])).toThrow(missing);
  });
});
