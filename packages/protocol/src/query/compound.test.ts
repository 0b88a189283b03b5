import { describe, expect, it } from 'vitest';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { parseQuery, parseQueryIn } from './parse-query.ts';

interface Err {
  type: string;
  reason: string;
  line?: unknown;
  col?: unknown;
  causedBy?: Err;
}
function plain(e: ShoalError): Err {
  const out: Err = { type: e.type, reason: e.reason, ...e.metadata };
  if (e.causedBy) out.causedBy = plain(e.causedBy);
  return out;
}
function err(fn: () => unknown): Err {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return plain(e);
    throw e;
  }
  throw new Error('expected an error');
}

const TERM = { term: { a: 'x' } };
const TERM_NODE = { type: 'term', field: 'a', value: 'x', boost: 1, caseInsensitive: false };

describe('bool', () => {
  it('accepts clauses as an object or an array', () => {
    expect(
      parseQuery({
        bool: {
          must: TERM,
          filter: [TERM, TERM],
          should: [],
          must_not: TERM,
          minimum_should_match: 1,
          boost: 2,
          _name: 'n',
        },
      }),
    ).toEqual({
      type: 'bool',
      must: [TERM_NODE],
      filter: [TERM_NODE, TERM_NODE],
      should: [],
      mustNot: [TERM_NODE],
      minimumShouldMatch: '1',
      boost: 2,
      queryName: 'n',
    });
    expect(parseQuery({ bool: { must: null, adjust_pure_negative: false } })).toMatchObject({
      adjustPureNegative: false,
    });
  });

  it('rejects unknown fields the ObjectParser way', () => {
    expect(err(() => parseQuery({ bool: { musts: TERM } }))).toEqual({
      type: 'x_content_parse_exception',
      reason: '[1:10] [bool] unknown field [musts] did you mean [must]?',
    });
    expect(err(() => parseQuery({ bool: { must: 'x' } })).reason).toBe(
      "[1:17] [bool] must doesn't support values of type: VALUE_STRING",
    );
  });

  it('wraps a clause failure in "failed to parse field"', () => {
    expect(err(() => parseQueryIn({ query: { bool: { must: [{ foo: {} }] } } }, ['query']))).toEqual({
      type: 'x_content_parse_exception',
      reason: '[1:34] [bool] failed to parse field [must]',
      causedBy: {
        type: 'parsing_exception',
        reason: 'unknown query [foo]',
        line: 1,
        col: 34,
        causedBy: { type: 'named_object_not_found_exception', reason: '[1:34] unknown field [foo]' },
      },
    });
    expect(err(() => parseQuery({ bool: { filter: [{}] } }))).toEqual({
      type: 'x_content_parse_exception',
      reason: '[1:21] [bool] failed to parse field [filter]',
      causedBy: {
        type: 'illegal_argument_exception',
        reason: 'query malformed, empty clause found at [1:21]',
      },
    });
    expect(err(() => parseQuery({ bool: { boost: 'x' } })).causedBy).toEqual({
      type: 'number_format_exception',
      reason: 'For input string: "x"',
    });
  });
});

describe('constant_score', () => {
  it('wraps its filter', () => {
    expect(parseQuery({ constant_score: { filter: TERM, boost: 1.2 } })).toEqual({
      type: 'constant_score',
      filter: TERM_NODE,
      boost: Math.fround(1.2),
    });
  });

  it('reports Elasticsearch’s errors', () => {
    expect(err(() => parseQuery({ constant_score: {} })).reason).toBe(
      "[constant_score] requires a 'filter' element",
    );
    expect(err(() => parseQuery({ constant_score: { query: TERM } })).reason).toBe(
      '[constant_score] query does not support [query]',
    );
    expect(err(() => parseQuery({ constant_score: { filter: [TERM] } })).reason).toBe(
      'unexpected token [START_ARRAY]',
    );
  });
});

describe('match_all and match_none', () => {
  it('parse boost and _name', () => {
    expect(parseQuery({ match_all: { boost: 2, _name: 'x' } })).toEqual({
      type: 'match_all',
      boost: 2,
      queryName: 'x',
    });
  });

  it('match_all turns ObjectParser errors into parsing exceptions', () => {
    expect(err(() => parseQuery({ match_all: { boots: 2 } }))).toEqual({
      type: 'parsing_exception',
      reason: '[1:15] [match_all] unknown field [boots] did you mean [boost]?',
      line: 1,
      col: 23,
      causedBy: {
        type: 'x_content_parse_exception',
        reason: '[1:15] [match_all] unknown field [boots] did you mean [boost]?',
      },
    });
  });

  it('match_none has its own messages', () => {
    expect(err(() => parseQuery({ match_none: { foo: 1 } })).reason).toBe(
      '[match_none] query does not support [foo]',
    );
    expect(err(() => parseQuery({ match_none: { foo: {} } })).reason).toBe(
      '[match_none] unknown token [START_OBJECT] after [foo]',
    );
  });
});
