import { describe, expect, it } from 'vitest';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { MAX_NESTED_DEPTH, parseQuery, parseQueryIn } from './parse-query.ts';

interface Err {
  type: string;
  reason: string;
  status: number;
  metadata?: Record<string, unknown>;
  causedBy?: Err;
}
function plain(e: ShoalError): Err {
  const out: Err = { type: e.type, reason: e.reason, status: e.status };
  if (Object.keys(e.metadata).length > 0) out.metadata = e.metadata;
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

describe('parseQuery: the clause envelope', () => {
  it('parses a clause by its single key', () => {
    expect(parseQuery({ match_all: {} })).toEqual({ type: 'match_all', boost: 1 });
    expect(parseQuery({ match_none: { _name: 'x' } })).toEqual({ type: 'match_none', queryName: 'x' });
  });

  it('reports an unknown query with the named-object cause', () => {
    expect(err(() => parseQueryIn({ query: { foo: {} } }, ['query']))).toEqual({
      type: 'parsing_exception',
      reason: 'unknown query [foo]',
      status: 400,
      metadata: { line: 1, col: 17 },
      causedBy: {
        type: 'named_object_not_found_exception',
        reason: '[1:17] unknown field [foo]',
        status: 400,
      },
    });
  });

  it('suggests close query names', () => {
    expect(err(() => parseQuery({ matc: {} })).reason).toBe('unknown query [matc] did you mean [match]?');
    expect(err(() => parseQuery({ terms_sett: {} })).reason).toBe(
      'unknown query [terms_sett] did you mean [terms_set]?',
    );
  });

  it('answers 501 for a query Elasticsearch has and Shoal does not', () => {
    expect(err(() => parseQuery({ span_term: { f: 'x' } }))).toEqual({
      type: 'unsupported_operation_exception',
      reason: 'the [span_term] query is not implemented in Shoal',
      status: 501,
    });
  });

  it('rejects an empty clause with its position', () => {
    expect(err(() => parseQueryIn({ query: {} }, ['query']))).toEqual({
      type: 'illegal_argument_exception',
      reason: 'query malformed, empty clause found at [1:11]',
      status: 400,
    });
  });

  it('requires an object after the query name', () => {
    expect(err(() => parseQuery({ match: 'text' }))).toEqual({
      type: 'parsing_exception',
      reason: '[match] query malformed, no start_object after query name',
      status: 400,
      metadata: { line: 1, col: 10 },
    });
  });

  it('requires the clause itself to be an object', () => {
    expect(err(() => parseQuery('x')).reason).toBe('[_na] query malformed, must start with start_object');
  });

  it('rejects a second query name in one clause', () => {
    expect(err(() => parseQuery({ match_all: {}, match_none: {} }))).toEqual({
      type: 'parsing_exception',
      reason: '[match_all] malformed query, expected [END_OBJECT] but found [FIELD_NAME]',
      status: 400,
      metadata: { line: 1, col: 17 },
    });
  });

  it('limits the nesting depth', () => {
    let q: unknown = { match_all: {} };
    for (let i = 0; i < MAX_NESTED_DEPTH; i++) q = { constant_score: { filter: q } };
    expect(err(() => parseQuery(q)).reason).toBe(
      'The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]',
    );
  });
});
