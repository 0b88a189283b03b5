import { describe, expect, it } from 'vitest';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { parseSort, parseSortParam } from './parse-sort.ts';

function chain(e: ShoalError): string[] {
  return [`${e.type}: ${e.reason}`, ...(e.causedBy ? chain(e.causedBy) : [])];
}
function err(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return chain(e);
    throw e;
  }
  throw new Error('expected an error');
}

const field = (name: string, extra: Record<string, unknown> = {}) => ({
  kind: 'field',
  field: name,
  order: 'asc',
  missing: '_last',
  ...extra,
});

describe('parseSort (body)', () => {
  it('accepts every form, with defaults', () => {
    expect(
      parseSort([
        'a',
        { b: 'desc' },
        {
          c: {
            order: 'desc',
            missing: '_first',
            mode: 'MAX',
            numeric_type: 'Date_Nanos',
            unmapped_type: 'long',
            format: 'strict_date_optional_time_nanos',
          },
        },
        { d: { missing: 0 }, e: 'asc' },
        '_score',
        { _doc: { order: 'desc' } },
        '_shard_doc',
      ]),
    ).toEqual([
      field('a'),
      field('b', { order: 'desc' }),
      field('c', {
        order: 'desc',
        missing: '_first',
        mode: 'max',
        numericType: 'date_nanos',
        unmappedType: 'long',
        format: 'strict_date_optional_time_nanos',
      }),
      field('d', { missing: 0 }),
      field('e'),
      { kind: 'score', order: 'desc' },
      { kind: 'doc', order: 'desc' },
      { kind: 'shard_doc', order: 'asc' },
    ]);
    expect(parseSort('f')).toEqual([field('f')]);
    expect(parseSort({ _score: { order: 'asc' } })).toEqual([{ kind: 'score', order: 'asc' }]);
  });

  it('drops a lone descending _score sort, and an empty one', () => {
    expect(parseSort('_score')).toBeUndefined();
    expect(parseSort([{ _score: 'desc' }])).toBeUndefined();
    expect(parseSort([])).toBeUndefined();
    expect(parseSort(['_score', 'f'])).toHaveLength(2);
  });

  it('reports bad orders, modes and numeric types as Elasticsearch does', () => {
    expect(err(() => parseSort({ f: 'up' }))).toEqual([
      'illegal_argument_exception: No enum constant org.elasticsearch.search.sort.SortOrder.UP',
    ]);
    expect(err(() => parseSort({ f: { order: 'up' } }))).toEqual([
      'x_content_parse_exception: [1:15] [field_sort] failed to parse field [order]',
      'illegal_argument_exception: No enum constant org.elasticsearch.search.sort.SortOrder.UP',
    ]);
    expect(err(() => parseSort({ f: { mode: 'mean' } }))[1]).toBe(
      'illegal_argument_exception: Unknown SortMode [mean]',
    );
    expect(err(() => parseSort({ f: { numeric_type: 'Int' } }))[1]).toBe(
      'illegal_argument_exception: invalid value for [numeric_type], must be [long, double, date, date_nanos], got int',
    );
  });

  it('reports malformed shapes', () => {
    expect(err(() => parseSort([1]))).toEqual([
      'illegal_argument_exception: malformed sort format, within the sort array, an object, or an actual string are allowed',
    ]);
    expect(err(() => parseSort({ f: { orders: 'asc' } }))).toEqual([
      'x_content_parse_exception: [1:7] [field_sort] unknown field [orders] did you mean [order]?',
    ]);
    expect(err(() => parseSort({ f: 1 }))).toEqual([
      'x_content_parse_exception: [1:6] [field_sort] Expected START_OBJECT but was: END_OBJECT',
    ]);
    expect(err(() => parseSort({ f: { unmapped_type: 1 } }))).toEqual([
      "x_content_parse_exception: [1:23] [field_sort] unmapped_type doesn't support values of type: VALUE_NUMBER",
    ]);
    expect(err(() => parseSort({ f: { nested_path: 'p' } }))[1]).toBe(
      'parsing_exception: [nested_path] has been removed in favour of the [nested] parameter',
    );
    expect(err(() => parseSort({ _score: { mode: 'max' } }))).toEqual([
      'x_content_parse_exception: [1:12] [_score] unknown field [mode]',
    ]);
    expect(err(() => parseSort({ _script: { type: 'number' } }))).toEqual([
      'illegal_argument_exception: Required [script]',
    ]);
    expect(err(() => parseSort({ _script: { type: 'version', script: '1' } }))).toEqual([
      'unsupported_operation_exception: the [version] type of the [_script] sort is not implemented in Shoal',
    ]);
    expect(parseSort({ _geo_distance: { pin: [0, 1], unit: 'km', order: 'desc' } })).toEqual([
      {
        kind: 'field',
        field: 'pin',
        order: 'desc',
        missing: '_last',
        geoDistance: {
          points: [{ lat: 1, lon: 0 }],
          unitMeters: 1000,
          distanceType: 'arc',
          validation: 'STRICT',
          ignoreUnmapped: false,
        },
      },
    ]);
  });
});

describe('parseSortParam (URL)', () => {
  it('reads field[:order] lists', () => {
    expect(parseSortParam('f:desc,g,_score,h:asc')).toEqual([
      field('f', { order: 'desc' }),
      field('g'),
      { kind: 'score', order: 'desc' },
      field('h'),
    ]);
  });

  it('keeps colons in names and drops keys with another suffix, as RestSearchAction does', () => {
    expect(parseSortParam('a:b:desc')).toEqual([field('a:b', { order: 'desc' })]);
    expect(parseSortParam('f:DESC,g')).toEqual([field('g')]);
    expect(parseSortParam('_score')).toBeUndefined();
    expect(parseSortParam('_score:asc')).toEqual([{ kind: 'score', order: 'asc' }]);
  });
});
