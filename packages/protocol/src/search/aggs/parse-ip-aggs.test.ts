import { describe, expect, it } from 'vitest';
import { failure, one } from './parse.test-support.ts';

describe('ip_range and ip_prefix bodies', () => {
  it('read ranges, masks (keyed by the mask) and keyed', () => {
    expect(
      one({
        r: {
          ip_range: {
            field: 'ip',
            keyed: true,
            ranges: [{ to: '10.0.0.5' }, { mask: '10.0.0.0/25' }, { key: 'k', mask: '::/8', from: null }],
          },
        },
      }),
    ).toMatchObject({
      type: 'ip_range',
      keyed: true,
      ranges: [{ to: '10.0.0.5' }, { key: '10.0.0.0/25', mask: '10.0.0.0/25' }, { key: 'k', mask: '::/8' }],
    });
  });

  it('refuse what Elasticsearch refuses', () => {
    expect(failure({ r: { ip_range: { field: 'ip', ranges: [] } } })).toMatchObject({
      status: 400,
      reason: 'No [ranges] specified for the [r] aggregation',
    });
    expect(
      failure({ r: { ip_range: { field: 'ip', ranges: [{ mask: '1.0.0.0/8', step: 1 }] } } }),
    ).toMatchObject({
      status: 400,
      cause: { reason: 'Unexpected ip range parameter: [step]' },
    });
    expect(failure({ r: { ip_range: { field: 'ip', ranges: ['1.0.0.0/8'] } } })).toMatchObject({
      status: 400,
      cause: { reason: '[ranges] must contain objects, but hit a VALUE_STRING' },
    });
    expect(failure({ p: { ip_prefix: { field: 'ip', is_ipv6: true, prefix_length: 170 } } })).toMatchObject({
      status: 400,
      reason: '[prefix_length] must be in range [0, 128] while value is [170]',
    });
    expect(failure({ p: { ip_prefix: { field: 'ip' } } })).toMatchObject({
      reason: '[prefix_length] must be in range [0, 32] while value is [-1]',
    });
  });
});
