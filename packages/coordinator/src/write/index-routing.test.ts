import { describe, expect, it } from 'vitest';
import { aliasIndexRouting } from './index-routing.ts';

const reason = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    const err = e as { type: string; reason: string };
    return `${err.type}: ${err.reason}`;
  }
  throw new Error('expected an error');
};

describe('aliasIndexRouting', () => {
  it('keeps the request routing when the alias has no index routing', () => {
    expect(aliasIndexRouting(undefined, 'a', undefined)).toBeUndefined();
    expect(aliasIndexRouting('0', 'a', {})).toBe('0');
    expect(aliasIndexRouting('0', 'a', { searchRouting: '1' })).toBe('0');
  });

  it('routes by the alias index routing, which a matching request routing agrees with', () => {
    expect(aliasIndexRouting(undefined, 'a', { indexRouting: '1' })).toBe('1');
    expect(aliasIndexRouting('1', 'a', { indexRouting: '1' })).toBe('1');
    expect(aliasIndexRouting('', 'a', { indexRouting: '1' })).toBe('1');
  });

  it('refuses a request routing that differs from the alias index routing', () => {
    expect(reason(() => aliasIndexRouting('0', 'alias1', { indexRouting: '1' }))).toBe(
      'illegal_argument_exception: Alias [alias1] has index routing associated with it [1], and was provided with routing value [0], rejecting operation',
    );
  });

  it('refuses an alias index routing with several values', () => {
    expect(reason(() => aliasIndexRouting(undefined, 'alias2', { indexRouting: '1,2' }))).toBe(
      'illegal_argument_exception: index/alias [alias2] provided with routing value [1,2] that resolved to several routing values, rejecting operation',
    );
    expect(reason(() => aliasIndexRouting('1', 'alias2', { indexRouting: '1,2' }))).toBe(
      'illegal_argument_exception: index/alias [alias2] provided with routing value [1,2] that resolved to several routing values, rejecting operation',
    );
  });
});
