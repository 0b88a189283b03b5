import { describe, expect, it } from 'vitest';
import { fieldRuleOf, fieldSecurityError, globsSubsetOf } from './field-security.ts';

describe('field_security', () => {
  it('tells whether one list of globs covers another', () => {
    expect(globsSubsetOf(['a.b', 'a.c*'], ['a.*'])).toBe(true);
    expect(globsSubsetOf(['a*'], ['a.*'])).toBe(false);
    expect(globsSubsetOf(['x?z'], ['x*'])).toBe(true);
    expect(globsSubsetOf(['*'], ['a*'])).toBe(false);
    expect(globsSubsetOf([], ['a'])).toBe(true);
  });

  it('grants metadata fields unless grant is * already', () => {
    expect(fieldRuleOf({ grant: ['a'] })).toEqual({ include: ['a', '_*'], exclude: [] });
    expect(fieldRuleOf({ grant: ['*', 'a'], except: ['b'] })).toEqual({ include: ['*'], exclude: ['b'] });
  });

  it('refuses an except outside grant with Elasticsearch reason', () => {
    expect(fieldSecurityError({ grant: ['field*'], except: ['field1', '_meta'] })).toBeUndefined();
    expect(fieldSecurityError({ grant: ['*'], except: ['_x'] })).toBeUndefined();
    expect(fieldSecurityError({ grant: ['f1', 'f2'], except: ['f3'] })).toBe(
      'Exceptions for field permissions must be a subset of the granted fields but f3 is not a subset of f1,f2',
    );
  });
});
