import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggregate, bucketsOf } from './aggs.test-support.ts';
import { ipPrefixKey } from './ip-collectors.ts';

const c = corpus(
  { ip: { type: 'ip' }, v: { type: 'long' }, n: { type: 'long' } },
  [
    ['1', { ip: '::1', v: 1 }],
    ['2', { ip: '192.168.0.1', v: 2 }],
    ['3', { ip: ['192.168.0.7', '192.168.0.9'], v: 3 }],
    ['4', { v: 4 }],
  ],
  2,
);

describe('ip_range collector', () => {
  it('counts each doc once per range, ranges ordered by from then to, keys from the bounds', () => {
    const out = aggregate(c, {
      r: {
        ip_range: {
          field: 'ip',
          ranges: [
            { from: '192.169.0.0' },
            { to: '192.168.0.0' },
            { from: '192.168.0.0', to: '192.169.0.0' },
          ],
        },
        aggs: { v: { sum: { field: 'v' } } },
      },
    });
    expect(bucketsOf(out, 'r')).toEqual([
      { key: '*-192.168.0.0', to: '192.168.0.0', doc_count: 1, v: { value: 1 } },
      {
        key: '192.168.0.0-192.169.0.0',
        from: '192.168.0.0',
        to: '192.169.0.0',
        doc_count: 2,
        v: { value: 5 },
      },
      { key: '192.169.0.0-*', from: '192.169.0.0', doc_count: 0, v: { value: 0 } },
    ]);
  });

  it('resolves masks to [network, next network), open at the ends of the address space, keyed by the mask', () => {
    const out = aggregate(c, {
      r: { ip_range: { field: 'ip', keyed: true, ranges: [{ mask: '::/24' }, { mask: '192.168.0.0/16' }] } },
    });
    expect(out.r!.buckets).toEqual({
      '::/24': { to: '0:100::', doc_count: 3 },
      '192.168.0.0/16': { from: '192.168.0.0', to: '192.169.0.0', doc_count: 2 },
    });
  });

  it('counts a missing value, and refuses bad addresses, masks and fields', () => {
    const out = aggregate(c, {
      r: { ip_range: { field: 'ip', missing: '10.0.0.1', ranges: [{ mask: '10.0.0.0/8' }] } },
    });
    expect(bucketsOf(out, 'r')[0]!.doc_count).toBe(1);
    expect(() => aggregate(c, { r: { ip_range: { field: 'ip', ranges: [{ from: 'nope' }] } } })).toThrow(
      "'nope' is not an IP string literal.",
    );
    expect(() => aggregate(c, { r: { ip_range: { field: 'ip', ranges: [{ mask: '10.0.0.0' }] } } })).toThrow(
      'Expected [ip/prefix] but was [10.0.0.0]',
    );
    expect(() => aggregate(c, { r: { ip_range: { field: 'v', ranges: [{ to: '1.1.1.1' }] } } })).toThrow(
      'Field [v] of type [long] is not supported for aggregation [ip_range]',
    );
  });
});

describe('ip_prefix collector', () => {
  it('keys networks of the IPv4 part or of the whole IPv6 address', () => {
    const v4 = BigInt('0xffffc0a80107');
    expect(ipPrefixKey(v4, 24, false)).toBe('00000000000000000000ffffc0a80100');
    expect(ipPrefixKey(v4, 24, true)).toBe('0'.repeat(32));
    expect(ipPrefixKey(v4, 0, false)).toBe('00000000000000000000ffff00000000');
  });

  it('buckets by network ascending, with netmask for IPv4, a doc once per network', () => {
    const out = aggregate(c, {
      p: { ip_prefix: { field: 'ip', prefix_length: 24 }, aggs: { v: { sum: { field: 'v' } } } },
    });
    expect(bucketsOf(out, 'p')).toEqual([
      {
        key: '0.0.0.0',
        netmask: '255.255.255.0',
        doc_count: 1,
        is_ipv6: false,
        prefix_length: 24,
        v: { value: 1 },
      },
      {
        key: '192.168.0.0',
        netmask: '255.255.255.0',
        doc_count: 2,
        is_ipv6: false,
        prefix_length: 24,
        v: { value: 5 },
      },
    ]);
    const v6 = aggregate(c, {
      p: {
        ip_prefix: { field: 'ip', prefix_length: 64, is_ipv6: true, append_prefix_length: true, keyed: true },
      },
    });
    expect(v6.p!.buckets).toEqual({
      '::/64': { doc_count: 3, is_ipv6: true, prefix_length: 64 },
    });
    const min2 = aggregate(c, { p: { ip_prefix: { field: 'ip', prefix_length: 8, min_doc_count: 3 } } });
    expect(bucketsOf(min2, 'p')).toEqual([]);
  });
});
