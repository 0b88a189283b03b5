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

describe('rank_feature', () => {
  it('defaults to saturation without a pivot, and reads each function', () => {
    expect(parseQuery({ rank_feature: { field: 'f' } })).toEqual({
      type: 'rank_feature',
      field: 'f',
      fn: { kind: 'saturation' },
      boost: 1,
    });
    expect(parseQuery({ rank_feature: { field: 'f', log: { scaling_factor: 3 }, boost: 2 } })).toMatchObject({
      fn: { kind: 'log', scalingFactor: 3 },
      boost: 2,
    });
    expect(
      parseQuery({ rank_feature: { field: 'f', sigmoid: { pivot: 2, exponent: '0.5' } } }),
    ).toMatchObject({
      fn: { kind: 'sigmoid', pivot: 2, exponent: 0.5 },
    });
    expect(parseQuery({ rank_feature: { field: 'f', linear: {} } })).toMatchObject({
      fn: { kind: 'linear' },
    });
  });

  it('refuses missing parameters, two functions and unknown keys', () => {
    expect(err(() => parseQuery({ rank_feature: { log: {} } })).reason).toBe(
      '[1:25] [rank_feature] failed to parse field [log]',
    );
    expect(err(() => parseQuery({ rank_feature: { linear: {} } }))).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Required [field]',
    });
    expect(
      err(() => parseQuery({ rank_feature: { field: 'f', linear: {}, saturation: {} } })).reason,
    ).toContain('The following fields are not allowed together: [linear, saturation]');
    expect(err(() => parseQuery({ rank_feature: { field: 'f', linear: { x: 1 } } })).reason).toContain(
      '[rank_feature] failed to parse field [linear]',
    );
    expect(err(() => parseQuery({ rank_feature: { field: 'f', colour: 1 } })).reason).toContain(
      '[rank_feature] unknown field [colour]',
    );
  });
});
