import { describe, expect, it } from 'vitest';
import { checkIndexSort, indexSortFields, type SortableField } from './index-sort.ts';

const fields: Record<string, SortableField> = {
  date: { type: 'date', docValues: true },
  tag: { type: 'keyword', docValues: true },
  title: { type: 'text', docValues: false },
  where: { type: 'geo_point', docValues: true },
};
const mapping = { field: (p: string) => fields[p], hasNested: false };

describe('index sort', () => {
  it('checks the parallel lists have the size of index.sort.field', () => {
    expect(
      indexSortFields({ 'index.sort.field': ['date', 'tag'], 'index.sort.order': ['desc', 'asc'] }),
    ).toEqual(['date', 'tag']);
    expect(() =>
      indexSortFields({ 'index.sort.field': ['date', 'tag'], 'index.sort.order': 'desc' }),
    ).toThrow('index.sort.field:[date, tag] index.sort.order:[desc], size mismatch');
    expect(() => indexSortFields({ 'index.sort.field': 'date', 'index.sort.mode': ['min', 'max'] })).toThrow(
      'index.sort.field:[date] index.sort.mode:[MIN, MAX], size mismatch',
    );
    expect(() =>
      indexSortFields({ 'index.sort.field': 'date', 'index.sort.missing': ['_last', '_first'] }),
    ).toThrow('index.sort.field:[date] index.sort.missing:[_last, _first], size mismatch');
  });

  it('checks each field against the mappings', () => {
    expect(() => checkIndexSort({ 'index.sort.field': ['date', 'tag'] }, mapping)).not.toThrow();
    expect(() => checkIndexSort({ 'index.sort.field': 'nope' }, mapping)).toThrow(
      'unknown index sort field:[nope]',
    );
    expect(() => checkIndexSort({ 'index.sort.field': 'title' }, mapping)).toThrow(
      'docvalues not found for index sort field:[title]',
    );
    expect(() => checkIndexSort({ 'index.sort.field': 'where' }, mapping)).toThrow(/can't sort on geo_point/);
    expect(() => checkIndexSort({ 'index.sort.field': 'date' }, { ...mapping, hasNested: true })).toThrow(
      'cannot have nested fields when index sort is activated',
    );
    expect(() => checkIndexSort({}, { ...mapping, hasNested: true })).not.toThrow();
  });
});
