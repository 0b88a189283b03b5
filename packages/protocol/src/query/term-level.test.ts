import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseQuery } from './parse-query.ts';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, ...e.metadata };
    throw e;
  }
  throw new Error('expected an error');
}

describe('term', () => {
  it('accepts the short and long forms', () => {
    expect(parseQuery({ term: { user: 'kimchy' } })).toEqual({
      type: 'term',
      field: 'user',
      value: 'kimchy',
      boost: 1,
      caseInsensitive: false,
    });
    expect(
      parseQuery({ term: { user: { value: 'Kimchy', boost: 2, case_insensitive: true, _name: 'n' } } }),
    ).toEqual({
      type: 'term',
      field: 'user',
      value: 'Kimchy',
      boost: 2,
      caseInsensitive: true,
      queryName: 'n',
    });
    expect(parseQuery({ term: { age: 5 } })).toMatchObject({ value: 5 });
    expect(parseQuery({ term: { id: 12345678901234567890n } })).toMatchObject({
      value: 12345678901234567890n,
    });
  });

  it('rejects several fields, arrays and unknown options', () => {
    expect(err(() => parseQuery({ term: { a: 'x', b: 'y' } }))).toEqual({
      type: 'parsing_exception',
      reason: "[term] query doesn't support multiple fields, found [a] and [b]",
      line: 1,
      col: 22,
    });
    expect(err(() => parseQuery({ term: { a: ['x'] } })).reason).toBe(
      '[term] query does not support array of values',
    );
    expect(err(() => parseQuery({ term: { a: { value: ['x'] } } })).reason).toMatch(
      /^\[term\] query does not support arrays for value - use a bool query/,
    );
    expect(err(() => parseQuery({ term: { a: { values: 'x' } } })).reason).toBe(
      '[term] query does not support [values]',
    );
  });

  it('applies the constructor checks', () => {
    expect(err(() => parseQuery({ term: {} }))).toEqual({
      type: 'illegal_argument_exception',
      reason: 'field name is null or empty',
    });
    expect(err(() => parseQuery({ term: { a: { boost: 1 } } })).reason).toBe('value cannot be null');
  });
});

describe('terms', () => {
  it('parses a field and its values', () => {
    expect(parseQuery({ terms: { tags: ['a', 1, true], boost: 2 } })).toEqual({
      type: 'terms',
      field: 'tags',
      values: ['a', 1, true],
      boost: 2,
    });
  });

  it('reports Elasticsearch’s errors', () => {
    expect(err(() => parseQuery({ terms: {} })).reason).toBe(
      '[terms] query requires a field name, followed by array of terms or a document lookup specification',
    );
    expect(err(() => parseQuery({ terms: { a: [], b: [] } })).reason).toBe(
      '[terms] query does not support multiple fields',
    );
    expect(err(() => parseQuery({ terms: { a: [null] } })).reason).toBe('No value specified for terms query');
    expect(err(() => parseQuery({ terms: { a: 'x' } })).reason).toBe('[terms] query does not support [a]');
    expect(err(() => parseQuery({ terms: { a: null } })).reason).toBe(
      '[terms] unknown token [VALUE_NULL] after [a]',
    );
    expect(err(() => parseQuery({ terms: { a: { index: 'i', id: '1', path: 'p' }, b: ['x'] } })).reason).toBe(
      '[terms] query does not support multiple fields',
    );
  });
});

describe('range', () => {
  it('maps every bound form to gt/gte/lt/lte', () => {
    expect(
      parseQuery({ range: { age: { gte: 10, lt: 20, boost: 2, format: 'yyyy', time_zone: '+01:00' } } }),
    ).toEqual({
      type: 'range',
      field: 'age',
      gte: 10,
      lt: 20,
      boost: 2,
      format: 'yyyy',
      timeZone: '+01:00',
    });
    expect(
      parseQuery({ range: { age: { from: 1, to: 5, include_lower: false, include_upper: true } } }),
    ).toEqual({
      type: 'range',
      field: 'age',
      gt: 1,
      lte: 5,
      boost: 1,
    });
    expect(parseQuery({ range: { age: { from: null, to: 5 } } })).toEqual({
      type: 'range',
      field: 'age',
      lte: 5,
      boost: 1,
    });
  });

  it('rejects unknown options and scalar bodies', () => {
    expect(err(() => parseQuery({ range: { age: { x: 1 } } }))).toEqual({
      type: 'parsing_exception',
      reason: '[range] query does not support [x]',
      line: 1,
      col: 22,
    });
    expect(err(() => parseQuery({ range: { age: 5 } })).reason).toBe('[range] query does not support [age]');
    expect(err(() => parseQuery({ range: { age: { gt: 1, relation: 'disjoint' } } })).reason).toBe(
      '[range] query does not support relation [disjoint]',
    );
    expect(err(() => parseQuery({ range: { age: { gt: 1, relation: 'foo' } } })).reason).toBe(
      'foo is not a valid relation',
    );
    expect(err(() => parseQuery({ range: {} })).reason).toBe('field name is null or empty');
  });

  it('checks time_zone when the body is read, as ZoneId.of wrapped in an IllegalArgumentException', () => {
    const failure = (body: Record<string, unknown>) => {
      try {
        parseQuery(body);
      } catch (e) {
        if (!isShoalError(e)) throw e;
        return { type: e.type, reason: e.reason, status: e.status, cause: e.causedBy };
      }
      throw new Error('expected an error');
    };
    expect(failure({ range: { n: { gte: 1, time_zone: 'Mars/Olympus' } } })).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'java.time.zone.ZoneRulesException: Unknown time-zone ID: Mars/Olympus',
      status: 400,
      cause: { type: 'zone_rules_exception', reason: 'Unknown time-zone ID: Mars/Olympus' },
    });
    expect(failure({ range: { n: { time_zone: '+1234567' } } })).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'java.time.DateTimeException: Invalid ID for ZoneOffset, invalid format: +1234567',
      cause: { type: 'date_time_exception' },
    });
    // RangeQueryBuilder sets the time zone before the relation.
    expect(failure({ range: { n: { relation: 'foo', time_zone: 'Mars/Olympus' } } }).reason).toBe(
      'java.time.zone.ZoneRulesException: Unknown time-zone ID: Mars/Olympus',
    );
    for (const tz of ['UTC', 'Z', '+01:00', '-0530', 'GMT+2', 'Europe/Paris']) {
      expect(parseQuery({ range: { n: { gte: 1, time_zone: tz } } })).toMatchObject({ timeZone: tz });
    }
  });
});

describe('exists and ids', () => {
  it('parses exists', () => {
    expect(parseQuery({ exists: { field: 'user', boost: 3 } })).toEqual({
      type: 'exists',
      field: 'user',
      boost: 3,
    });
    expect(err(() => parseQuery({ exists: {} })).reason).toBe('[exists] must be provided with a [field]');
    expect(err(() => parseQuery({ exists: { fields: 'x' } })).reason).toBe(
      '[exists] query does not support [fields]',
    );
    expect(err(() => parseQuery({ exists: { field: ['x'] } })).reason).toBe(
      '[exists] unknown token [START_ARRAY] after [field]',
    );
  });

  it('parses ids (an ObjectParser whose errors become parsing exceptions)', () => {
    expect(parseQuery({ ids: { values: ['1', '2', '1'] } })).toEqual({
      type: 'ids',
      values: ['1', '2'],
      boost: 1,
    });
    expect(parseQuery({ ids: { values: '3' } })).toEqual({ type: 'ids', values: ['3'], boost: 1 });
    expect(err(() => parseQuery({ ids: { value: ['1'] } }))).toEqual({
      type: 'parsing_exception',
      reason: '[1:9] [ids] unknown field [value] did you mean [values]?',
      line: 1,
      col: 17,
    });
    expect(err(() => parseQuery({ ids: { values: 5 } })).reason).toBe(
      "[1:18] [ids] values doesn't support values of type: VALUE_NUMBER",
    );
  });
});

describe('prefix and wildcard', () => {
  it('parse short and long forms', () => {
    expect(parseQuery({ prefix: { user: 'ki' } })).toEqual({
      type: 'prefix',
      field: 'user',
      value: 'ki',
      boost: 1,
      caseInsensitive: false,
    });
    expect(
      parseQuery({ wildcard: { user: { wildcard: 'k*y', boost: 2, case_insensitive: true, rewrite: 'x' } } }),
    ).toEqual({
      type: 'wildcard',
      field: 'user',
      value: 'k*y',
      boost: 2,
      caseInsensitive: true,
    });
    expect(parseQuery({ wildcard: { user: { value: 'k?y' } } })).toMatchObject({ value: 'k?y' });
  });

  it('report Elasticsearch’s errors', () => {
    expect(err(() => parseQuery({ prefix: { user: { prefix: 'x' } } })).reason).toBe(
      '[prefix] query does not support [prefix]',
    );
    expect(err(() => parseQuery({ prefix: { a: 'x', b: 'y' } })).reason).toBe(
      "[prefix] query doesn't support multiple fields, found [a] and [b]",
    );
    expect(err(() => parseQuery({ prefix: { a: null } })).reason).toBe('value cannot be null');
  });
});
