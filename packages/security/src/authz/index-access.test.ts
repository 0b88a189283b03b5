import { describe, expect, it } from 'vitest';
import type { User } from '../authc/user.ts';
import { LimitedPermission, Role } from './role.ts';
import type { IndicesPrivileges, RoleDescriptor } from './role-descriptor.ts';

const user: User = { username: 'ann', roles: [], fullName: null, email: null, metadata: {}, enabled: true };
const SEARCH = 'indices:data/read/search';

function role(...entries: Partial<IndicesPrivileges>[]): Role {
  const descriptor: RoleDescriptor = {
    cluster: [],
    indices: entries.map((e) => ({
      names: ['idx'],
      privileges: ['read'],
      allowRestrictedIndices: false,
      ...e,
    })),
    applications: [],
    runAs: [],
    metadata: {},
  };
  return new Role([{ name: 'r', descriptor }], []);
}

describe('document and field restrictions of a permission', () => {
  it('ORs the queries and unites the fields of the entries granting the action', () => {
    const r = role(
      { query: '{"term":{"a":1}}', fieldSecurity: { grant: ['x'] } },
      { query: '{"term":{"b":2}}', fieldSecurity: { grant: ['*'], except: ['y'] } },
      // Grants no read: says nothing about what may be read.
      { privileges: ['write'], query: '{"term":{"c":3}}' },
    );
    expect(r.restrictsDocumentsOrFields).toBe(true);
    expect(r.documentFieldAccess(SEARCH, ['idx'], user)).toEqual({
      queries: [[{ term: { a: 1 } }, { term: { b: 2 } }]],
      fields: [
        [
          { include: ['x', '_*'], exclude: [] },
          { include: ['*'], exclude: ['y'] },
        ],
      ],
    });
  });

  it('lifts a restriction when one granting entry has none', () => {
    const r = role({ query: '{"term":{"a":1}}' }, { fieldSecurity: { grant: ['x'] } });
    expect(r.documentFieldAccess(SEARCH, ['idx'], user)).toBeUndefined();
    // The index reached through an alias named by an unrestricted entry.
    const viaAlias = role({ query: '{"term":{"a":1}}' }, { names: ['alias'] });
    expect(viaAlias.documentFieldAccess(SEARCH, ['idx', 'alias'], user)).toBeUndefined();
    expect(viaAlias.documentFieldAccess(SEARCH, ['idx'], user)).toEqual({ queries: [[{ term: { a: 1 } }]] });
    expect(role({}).restrictsDocumentsOrFields).toBe(false);
  });

  it('applies both an API key’s own restrictions and its owner’s', () => {
    const key = new LimitedPermission(
      role({ query: '{"term":{"a":1}}' }),
      role({ fieldSecurity: { grant: ['x'] } }),
    );
    expect(key.documentFieldAccess(SEARCH, ['idx'], user)).toEqual({
      queries: [[{ term: { a: 1 } }]],
      fields: [[{ include: ['x', '_*'], exclude: [] }]],
    });
  });
});
