import { describe, expect, it } from 'vitest';
import type { Authentication } from '../authc/authentication.ts';
import type { IndexNamespace } from '../host.ts';
import { Authorizer, NO_INDICES } from './authorizer.ts';
import { RESERVED_ROLES } from './reserved-roles.ts';
import { Role } from './role.ts';

const names = ['logs-1', 'logs-2', 'other'];
const indices: IndexNamespace = {
  expand(expression) {
    const literal: string[] = [];
    const matched: string[] = [];
    for (const part of expression.split(',')) {
      if (part === '_all' || part.includes('*')) {
        const re = new RegExp(`^${part === '_all' ? '.*' : part.replace(/\*/g, '.*')}$`);
        matched.push(...names.filter((n) => re.test(n)));
      } else literal.push(part);
    }
    return { literal, matched };
  },
  exists: (n) => names.includes(n),
};

const auth = (roles: string[]): Authentication => ({
  user: { username: 'u', roles, fullName: null, email: null, metadata: {}, enabled: true },
  realm: { name: 'default_native', type: 'native' },
  lookupRealm: { name: 'default_native', type: 'native' },
  type: 'realm',
});

function role(indexNames: string[], privileges: string[]): Role {
  return new Role(
    [
      {
        name: 'r',
        descriptor: {
          cluster: [],
          indices: [{ names: indexNames, privileges, allowRestrictedIndices: false }],
          applications: [],
          runAs: [],
          metadata: {},
        },
      },
    ],
    [],
  );
}

const req = (path: string, params: Record<string, string>, method = 'GET') => ({
  method,
  path,
  params,
  query: {},
  body: undefined,
  json: () => undefined,
});

describe('Authorizer', () => {
  const authorizer = new Authorizer(indices);

  it('narrows wildcards to the authorized names, and to nothing when none is', () => {
    const r = role(['logs-*'], ['read']);
    expect(
      authorizer.authorize(auth(['r']), r, req('/*/_search', { index: '*' }), 'indices:data/read/search'),
    ).toEqual({
      index: 'logs-1,logs-2',
    });
    expect(
      authorizer.authorize(
        auth(['r']),
        r,
        req('/logs-*/_search', { index: 'logs-*' }),
        'indices:data/read/search',
      ),
    ).toEqual({});
    expect(
      authorizer.authorize(
        auth(['r']),
        r,
        req('/oth*/_search', { index: 'oth*' }),
        'indices:data/read/search',
      ),
    ).toEqual({
      index: NO_INDICES,
    });
  });

  it('refuses a write to a missing index without auto_create', () => {
    const r = role(['new-*'], ['index']);
    expect(() =>
      authorizer.authorize(
        auth(['r']),
        r,
        req('/new-1/_doc/1', { index: 'new-1', id: '1' }, 'PUT'),
        'indices:data/write/index',
      ),
    ).toThrow(/action \[indices:admin\/auto_create\] is unauthorized/);
  });

  it('lets a superuser read but not write the security index', () => {
    const superuser = new Role([{ name: 'superuser', descriptor: RESERVED_ROLES.get('superuser')! }], []);
    const a = auth(['superuser']);
    expect(
      authorizer.authorize(
        a,
        superuser,
        req('/.security-7/_search', { index: '.security-7' }),
        'indices:data/read/search',
      ),
    ).toEqual({});
    expect(() =>
      authorizer.authorize(
        a,
        superuser,
        req('/.security-7/_doc/x', { index: '.security-7', id: 'x' }, 'PUT'),
        'indices:data/write/index',
      ),
    ).toThrow(/on indices \[\.security-7\]/);
  });

  it('refuses the bulk items the role does not grant, by position, and lets the others through', () => {
    const body = Buffer.from(
      [
        '{"index":{"_index":"logs-1","_id":"1"}}',
        '{"a":1}',
        '{"delete":{"_index":"other","_id":"1"}}',
        '',
        '{"create":{"_index":"logs-9","_id":"1"}}',
        '{"a":1}',
        '',
      ].join('\n'),
    );
    const bulk = { ...req('/_bulk', {}, 'POST'), body };
    const result = authorizer.authorize(
      auth(['r']),
      role(['logs-*'], ['write']),
      bulk,
      'indices:data/write/bulk',
    );
    expect([...(result.deniedItems?.keys() ?? [])]).toEqual([1, 2]);
    expect(result.deniedItems?.get(1)?.message).toMatch(
      /^action \[indices:data\/write\/delete\] is unauthorized for user \[u\] with effective roles \[r\] on indices \[other\]/,
    );
    // logs-9 does not exist and the role lacks create_index.
    expect(result.deniedItems?.get(2)?.message).toMatch(
      /^action \[indices:admin\/auto_create\] is unauthorized/,
    );
  });

  it('grants the application privilege APIs for the applications global.application.manage names', () => {
    const appAdmin = new Role(
      [
        {
          name: 'a',
          descriptor: {
            cluster: [],
            global: { manageApplications: ['app-*'] },
            indices: [],
            applications: [],
            runAs: [],
            metadata: {},
          },
        },
      ],
      [],
    );
    const put = (apps: string[]) => ({
      ...req('/_security/privilege', {}, 'PUT'),
      json: () => Object.fromEntries(apps.map((a) => [a, {}])),
    });
    const action = 'cluster:admin/ext/security/privilege/put';
    expect(authorizer.authorize(auth(['a']), appAdmin, put(['app-1', 'app-2']), action)).toEqual({});
    expect(() => authorizer.authorize(auth(['a']), appAdmin, put(['app-1', 'other']), action)).toThrow(
      /is unauthorized/,
    );
    const getAll = req('/_security/privilege', {});
    expect(() =>
      authorizer.authorize(auth(['a']), appAdmin, getAll, 'cluster:admin/ext/security/privilege/get'),
    ).toThrow(/is unauthorized/);
  });
});
