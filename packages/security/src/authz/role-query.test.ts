import { describe, expect, it } from 'vitest';
import type { User } from '../authc/user.ts';
import type { RoleDescriptor } from './role-descriptor.ts';
import { checkRoleQueries, userRoleQuery } from './role-query.ts';

const user: User = {
  username: 'ann',
  roles: ['r1', 'r2'],
  fullName: 'Ann "A" Lee',
  email: null,
  metadata: { dept: 'ops' },
  enabled: true,
};

function descriptor(query: string): RoleDescriptor {
  return {
    cluster: [],
    indices: [{ names: ['a', 'b'], privileges: ['read'], query, allowRestrictedIndices: false }],
    applications: [],
    runAs: [],
    metadata: {},
  };
}

describe('role queries', () => {
  it('checks a plain query when the role is stored, and leaves templates for search time', () => {
    expect(() => checkRoleQueries(descriptor('{"term":{"x":1}}'))).not.toThrow();
    expect(() => checkRoleQueries(descriptor('{"template":{"source":"{{nope"}}'))).not.toThrow();
    expect(() => checkRoleQueries(descriptor('{"bogus":{}}'))).toThrow(
      "failed to parse field 'query' for indices [a,b] at index privilege [0] of role descriptor",
    );
    const refused = (() => {
      try {
        checkRoleQueries(descriptor('{"has_child":{"type":"t","query":{"match_all":{}}}}'));
      } catch (e) {
        return e as { causedBy?: { reason: string } };
      }
      return undefined;
    })();
    expect(refused?.causedBy?.reason).toBe("has_child query isn't supported as part of a role query");
  });

  it('renders a template with the user, JSON-escaped', () => {
    expect(userRoleQuery('{"term":{"x":1}}', user)).toEqual({ term: { x: 1 } });
    const template = JSON.stringify({
      template: {
        source: {
          bool: {
            filter: [{ term: { owner: '{{_user.username}}' } }, { term: { n: '{{_user.full_name}}' } }],
          },
        },
      },
    });
    expect(userRoleQuery(template, user)).toEqual({
      bool: { filter: [{ term: { owner: 'ann' } }, { term: { n: 'Ann "A" Lee' } }] },
    });
    const withParams =
      '{"template":{"source":"{\\"terms\\":{\\"dept\\":{{#toJson}}_user.roles{{/toJson}}}}"}}';
    expect(userRoleQuery(withParams, user)).toEqual({ terms: { dept: ['r1', 'r2'] } });
  });
});
