import { describe, expect, it } from 'vitest';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { parseSearchRequest } from './parse-search-request.ts';

function chain(e: ShoalError): string[] {
  const at = e.metadata.line !== undefined ? ` @${e.metadata.line}:${e.metadata.col}` : '';
  return [`${e.type}: ${e.reason}${at}`, ...(e.causedBy ? chain(e.causedBy) : [])];
}
function err(body: unknown): string[] {
  try {
    parseSearchRequest(body, {});
  } catch (e) {
    if (isShoalError(e)) return chain(e);
    throw e;
  }
  throw new Error('expected an error');
}

const all = { match_all: {} };

describe('rescore', () => {
  it('reads one rescorer or an array of them, with QueryRescorerBuilder defaults', () => {
    expect(parseSearchRequest({ rescore: { query: { rescore_query: all } } }, {}).rescore).toEqual([
      {
        windowSize: 10,
        query: { type: 'match_all', boost: 1 },
        queryWeight: 1,
        rescoreQueryWeight: 1,
        scoreMode: 'total',
      },
    ]);
    const two = parseSearchRequest(
      {
        rescore: [
          {
            window_size: 3,
            query: { rescore_query: all, query_weight: 0.5, rescore_query_weight: '2', score_mode: 'MAX' },
          },
          { query: { rescore_query: all, score_mode: 'min' } },
        ],
      },
      {},
    ).rescore;
    expect(two?.map((r) => [r.windowSize, r.queryWeight, r.rescoreQueryWeight, r.scoreMode])).toEqual([
      [3, 0.5, 2, 'max'],
      [10, 1, 1, 'min'],
    ]);
  });

  it('refuses what RescorerBuilder and QueryRescorerBuilder refuse', () => {
    expect(err({ rescore: { window_size: 2 } })[0]).toMatch(/^parsing_exception: missing rescore type/);
    expect(err({ rescore: { window: 2, query: { rescore_query: all } } })[0]).toMatch(
      /^parsing_exception: rescore doesn't support \[window\]/,
    );
    expect(err({ rescore: { query: { rescore_query: all }, script: {} } })[0]).toMatch(
      /^named_object_not_found_exception: \[1:\d+\] unknown field \[script\]/,
    );
    expect(err({ rescore: { query: {} } })[0]).toMatch(
      /^illegal_argument_exception: rescore_query cannot be null/,
    );
    expect(err({ rescore: { query: { rescore_query: all, weight: 1 } } })[0]).toMatch(
      /^x_content_parse_exception: \[1:\d+\] \[query\] unknown field \[weight\]/,
    );
    expect(err({ rescore: { query: { rescore_query: all, score_mode: 'sum' } } })).toEqual([
      expect.stringMatching(
        /^x_content_parse_exception: \[1:\d+\] \[query\] failed to parse field \[score_mode\]/,
      ),
      'illegal_argument_exception: illegal score_mode [sum]',
    ]);
  });
});
