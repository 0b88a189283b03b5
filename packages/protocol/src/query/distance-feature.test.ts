import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseQuery } from './parse-query.ts';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, status: e.status };
    throw e;
  }
  throw new Error('expected an error');
}

describe('distance_feature', () => {
  it('keeps numbers and strings as origins, and parses geo points given as objects or arrays', () => {
    expect(parseQuery({ distance_feature: { field: 'd', origin: 'now-1d', pivot: '1h' } })).toEqual({
      type: 'distance_feature',
      field: 'd',
      origin: 'now-1d',
      pivot: '1h',
      boost: 1,
    });
    expect(parseQuery({ distance_feature: { field: 'd', origin: 1000, pivot: '1h' } })).toMatchObject({
      origin: 1000,
    });
    expect(parseQuery({ distance_feature: { field: 'g', origin: [2, 1], pivot: '1km' } })).toMatchObject({
      origin: { lat: 1, lon: 2 },
    });
    expect(
      parseQuery({ distance_feature: { field: 'g', origin: { lat: 1, lon: 2 }, pivot: '1km' } }),
    ).toMatchObject({
      origin: { lat: 1, lon: 2 },
    });
  });

  it('refuses missing parameters, unknown keys and origins of other types', () => {
    expect(err(() => parseQuery({ distance_feature: { field: 'd' } }))).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Required [origin, pivot]',
    });
    expect(
      err(() => parseQuery({ distance_feature: { field: 'd', origin: 1, pivot: '1h', x: 1 } })).reason,
    ).toContain('[distance_feature] unknown field [x]');
    expect(
      err(() => parseQuery({ distance_feature: { field: 'd', origin: true, pivot: '1h' } })).reason,
    ).toContain("[distance_feature] origin doesn't support values of type: VALUE_BOOLEAN");
  });
});
