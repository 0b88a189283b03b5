import { describe, expect, it } from 'vitest';
import { API_KEY_FIELDS, USER_FIELDS } from './field-names.ts';
import { translateAggregations } from './translate-aggs.ts';
import { translateQuery } from './translate-query.ts';

describe('translateQuery', () => {
  it('renames the public fields to the stored ones, inside bool clauses too', () => {
    expect(
      translateQuery(
        {
          bool: { must: [{ term: { username: 'kim' } }], filter: { range: { creation: { gte: 'now-1d' } } } },
        },
        API_KEY_FIELDS,
      ),
    ).toEqual({
      bool: {
        must: [{ term: { 'creator.principal': 'kim' } }],
        filter: [{ range: { creation_time: { gte: 'now-1d' } } }],
      },
    });
    expect(translateQuery({ exists: { field: 'expiration' } }, API_KEY_FIELDS)).toEqual({
      exists: { field: 'expiration_time' },
    });
  });

  it('puts a metadata leaf path in front of its values, as a flattened field keys them', () => {
    expect(translateQuery({ term: { 'metadata.env': 'prod' } }, API_KEY_FIELDS)).toEqual({
      term: { metadata_keyed: 'env\u0000prod' },
    });
    expect(translateQuery({ terms: { 'metadata.n': [1, 2] } }, API_KEY_FIELDS)).toEqual({
      terms: { metadata_keyed: ['n\u00001', 'n\u00002'] },
    });
    expect(translateQuery({ exists: { field: 'metadata.env' } }, API_KEY_FIELDS)).toEqual({
      prefix: { metadata_keyed: { value: 'env\u0000' } },
    });
    expect(translateQuery({ range: { 'metadata.v': { gt: 'b' } } }, API_KEY_FIELDS)).toEqual({
      range: { metadata_keyed: { gt: 'v\u0000b', lt: 'v\u0001' } },
    });
    expect(translateQuery({ term: { metadata: 'prod' } }, API_KEY_FIELDS)).toEqual({
      term: { metadata_values: 'prod' },
    });
  });

  it('refuses fields outside the list, field patterns, and query types Elasticsearch refuses', () => {
    expect(() => translateQuery({ term: { api_key_hash: 'x' } }, API_KEY_FIELDS)).toThrow(
      'Field [api_key_hash] is not allowed for querying or aggregation',
    );
    expect(() => translateQuery({ term: { 'name*': 'x' } }, API_KEY_FIELDS)).toThrow(
      'Field name pattern [name*] is not allowed for querying or aggregation',
    );
    expect(() => translateQuery({ match_phrase: { name: 'x' } }, API_KEY_FIELDS)).toThrow(
      'Query type [match_phrase] is not currently supported in this context',
    );
    expect(() =>
      translateQuery({ terms: { name: { index: 'i', id: '1', path: 'p' } } }, API_KEY_FIELDS),
    ).toThrow('terms query with terms lookup is not currently supported in this context');
    expect(() => translateQuery({ term: { password: 'x' } }, USER_FIELDS)).toThrow(
      'Field [password] is not allowed for querying or aggregation',
    );
  });

  it('keeps simple_query_string to the allowed fields, matching nothing when none is left', () => {
    expect(translateQuery({ simple_query_string: { query: 'a', fields: ['user*'] } }, USER_FIELDS)).toEqual({
      simple_query_string: { query: 'a', fields: ['username'] },
    });
    expect(
      translateQuery({ simple_query_string: { query: 'a', fields: ['password'] } }, USER_FIELDS),
    ).toEqual({
      match_none: {},
    });
    const all = translateQuery({ simple_query_string: { query: 'a' } }, USER_FIELDS);
    expect(all).toEqual({
      simple_query_string: {
        query: 'a',
        fields: ['username', 'roles', 'enabled', 'full_name', 'email'],
        lenient: true,
      },
    });
  });
});

describe('translateAggregations', () => {
  it('renames fields and filter queries, and refuses other aggregation types and scripts', () => {
    expect(
      translateAggregations(
        {
          by_user: { terms: { field: 'username' }, aggs: { n: { value_count: { field: 'name' } } } },
          live: { filters: { filters: { a: { term: { invalidated: false } } } } },
        },
        API_KEY_FIELDS,
        'API Keys',
      ),
    ).toEqual({
      by_user: { terms: { field: 'creator.principal' }, aggs: { n: { value_count: { field: 'name' } } } },
      live: { filters: { filters: { a: { term: { api_key_invalidated: false } } } } },
    });
    expect(() =>
      translateAggregations({ a: { avg: { field: 'creation' } } }, API_KEY_FIELDS, 'API Keys'),
    ).toThrow('Unsupported API Keys agg [a] of type [avg]');
    expect(() =>
      translateAggregations({ a: { terms: { script: 'doc.x' } } }, API_KEY_FIELDS, 'API Keys'),
    ).toThrow('Unsupported script value source for [a] agg');
  });
});
