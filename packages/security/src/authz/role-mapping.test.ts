import { describe, expect, it } from 'vitest';
import { mappedRoles, parseRules, rulesMatch } from './role-mapping.ts';

const user = {
  username: 'es-admin',
  dn: 'cn=es-admin,ou=admin,dc=example,dc=com',
  groups: ['cn=people,dc=example,dc=com'],
  realmName: 'ldap1',
  metadata: { terminated_date: null, level: 3 },
};

describe('role mapping rules', () => {
  it("match Elasticsearch's documented example", () => {
    const rules = parseRules({
      all: [
        {
          any: [
            { field: { dn: '*,ou=admin,dc=example,dc=com' } },
            { field: { username: ['es-admin', 'es-system'] } },
          ],
        },
        { field: { groups: 'cn=people,dc=example,dc=com' } },
        { except: { field: { 'metadata.terminated_date': null } } },
      ],
    });
    // terminated_date is null, so the except rule fails the whole `all`.
    expect(rulesMatch(rules, user)).toBe(false);
    expect(rulesMatch(rules, { ...user, metadata: { terminated_date: '2020-01-01' } })).toBe(true);
  });

  it('match regexes, numbers and realm names', () => {
    expect(rulesMatch(parseRules({ field: { username: '/es-.*/' } }), user)).toBe(true);
    expect(rulesMatch(parseRules({ field: { 'metadata.level': 3 } }), user)).toBe(true);
    expect(rulesMatch(parseRules({ field: { 'realm.name': 'ldap*' } }), user)).toBe(true);
  });

  it('refuse malformed rules', () => {
    expect(() => parseRules({ except: { field: { username: 'x' } } })).toThrow(
      /only be used inside an \[all\]/,
    );
    expect(() => parseRules({ any: [], all: [] })).toThrow(/exactly one of/);
    expect(() => parseRules({ field: { username: { a: 1 } } })).toThrow(/expected a field value/);
  });

  it('grant the roles of the enabled mappings that match', () => {
    const rules = parseRules({ field: { username: '*' } });
    expect(
      mappedRoles(
        [
          { enabled: true, roles: ['b', 'a'], roleTemplates: [], rules, metadata: {} },
          { enabled: false, roles: ['c'], roleTemplates: [], rules, metadata: {} },
        ],
        user,
      ),
    ).toEqual(['a', 'b']);
  });
});
