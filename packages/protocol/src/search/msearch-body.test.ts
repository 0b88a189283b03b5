import { describe, expect, it } from 'vitest';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { parseMultiSearchBody } from './msearch-body.ts';

function chain(e: ShoalError): string[] {
  const at = e.metadata.line !== undefined ? ` @${e.metadata.line}:${e.metadata.col}` : '';
  return [`${e.type}: ${e.reason}${at}`, ...(e.causedBy ? chain(e.causedBy) : [])];
}
function err(text: string | undefined): string[] {
  try {
    parseMultiSearchBody(text === undefined ? undefined : Buffer.from(text));
  } catch (e) {
    if (isShoalError(e)) return chain(e);
    throw e;
  }
  throw new Error('expected an error');
}
const parse = (text: string) =>
  parseMultiSearchBody(Buffer.from(text)).map((i) => ({
    index: i.index,
    params: i.params,
    body: Buffer.from(i.body).toString(),
    source: i.source,
  }));

describe('parseMultiSearchBody', () => {
  it('reads header and body pairs in order', () => {
    expect(
      parse('{"index":"a"}\n{"query":{"match_all":{}}}\n{"index":["b","c*"],"routing":"r"}\n{"size":1}\n'),
    ).toEqual([
      { index: 'a', params: {}, body: '{"query":{"match_all":{}}}', source: { query: { match_all: {} } } },
      { index: 'b,c*', params: { routing: 'r' }, body: '{"size":1}', source: { size: 1 } },
    ]);
  });

  it('takes `{}`, an empty line and a blank line as an empty header', () => {
    const items = parse('{}\n{"size":1}\n\n{"size":2}\n  \r\n{"size":3}\n');
    expect(items.map((i) => [i.index, i.params, i.source])).toEqual([
      [undefined, {}, { size: 1 }],
      [undefined, {}, { size: 2 }],
      [undefined, {}, { size: 3 }],
    ]);
  });

  it('reads every header key Elasticsearch knows, in snake or camel case, as search parameters', () => {
    const [a, b] = parse(
      `${JSON.stringify({
        indices: 'x',
        search_type: 'dfs_query_then_fetch',
        ccs_minimize_roundtrips: false,
        request_cache: 'true',
        preference: '_local',
        routing: 7,
        allow_partial_search_results: false,
        expand_wildcards: ['open', 'closed'],
        ignore_unavailable: true,
        allow_no_indices: 'false',
        ignore_throttled: false,
      })}\n{}\n${JSON.stringify({
        searchType: 'query_then_fetch',
        ccsMinimizeRoundtrips: true,
        requestCache: false,
        expandWildcards: 'all',
        ignoreUnavailable: 'true',
        allowNoIndices: true,
        ignoreThrottled: true,
      })}\n{}\n`,
    );
    expect(a!.index).toBe('x');
    expect(a!.params).toEqual({
      search_type: 'dfs_query_then_fetch',
      ccs_minimize_roundtrips: 'false',
      request_cache: 'true',
      preference: '_local',
      routing: '7',
      allow_partial_search_results: 'false',
      expand_wildcards: 'open,closed',
      ignore_unavailable: 'true',
      allow_no_indices: 'false',
      ignore_throttled: 'false',
    });
    expect(b!.params).toEqual({
      search_type: 'query_then_fetch',
      ccs_minimize_roundtrips: 'true',
      request_cache: 'false',
      expand_wildcards: 'all',
      ignore_unavailable: 'true',
      allow_no_indices: 'true',
      ignore_throttled: 'true',
    });
  });

  it('leaves a null header value unset', () => {
    expect(parse('{"routing":null,"index":null}\n{}\n')[0]).toMatchObject({ index: undefined, params: {} });
  });

  it('keeps a body line’s bytes and big integers exactly', () => {
    const [item] = parse('{}\n{"search_after":[12345678901234567890]}\n');
    expect(item!.source).toEqual({ search_after: [12345678901234567890n] });
    expect(item!.body).toBe('{"search_after":[12345678901234567890]}');
  });

  it('drops a final header line that has no body line, as Elasticsearch does', () => {
    expect(parse('{"index":"a"}\n{}\n{"index":"b"}\n').map((i) => i.index)).toEqual(['a']);
    expect(parse('{"index":"a"}\n')).toEqual([]);
  });

  it('refuses bytes after the last newline', () => {
    const reason = 'illegal_argument_exception: The msearch request must be terminated by a newline [\n]';
    expect(err('{"index":"a"}\n{}')).toEqual([reason]);
    expect(err('{"index":"a"}')).toEqual([reason]);
    expect(err('{}\n{}\n{}')).toEqual([reason]);
  });

  it('needs a body', () => {
    expect(err(undefined)).toEqual(['parse_exception: request body or source parameter is required']);
    expect(err('')).toEqual(['parse_exception: request body or source parameter is required']);
  });

  it('refuses an unknown header key, types included', () => {
    expect(err('{"index":"a","size":1}\n{}\n')).toEqual([
      'illegal_argument_exception: key [size] is not supported in the metadata section',
    ]);
    expect(err('{"type":"_doc"}\n{}\n')).toEqual([
      'illegal_argument_exception: key [type] is not supported in the metadata section',
    ]);
  });

  it('refuses a header boolean that is not one, naming the key where Elasticsearch does', () => {
    expect(err('{"request_cache":"yes"}\n{}\n')).toEqual([
      'illegal_argument_exception: Could not convert [request_cache] to boolean',
      'illegal_argument_exception: Failed to parse value [yes] as only [true] or [false] are allowed.',
    ]);
    expect(err('{"ccs_minimize_roundtrips":1}\n{}\n')).toEqual([
      'illegal_argument_exception: Failed to parse value [1] as only [true] or [false] are allowed.',
    ]);
  });

  it('refuses an empty body line and malformed JSON on either line', () => {
    expect(err('{}\n\n')).toEqual(['parsing_exception: Expected [START_OBJECT] but found [null] @1:0']);
    expect(err('{"index":"a"\n{}\n')[0]).toMatch(/^x_content_e_o_f_exception: \[1:\d+\]/);
    expect(err('{}\n{"query":}\n')[0]).toMatch(/^x_content_parse_exception: \[1:11\]/);
    expect(err('[1]\n{}\n')).toEqual([
      'x_content_parse_exception: [1:2] Unexpected token after end of object',
    ]);
  });
});
