import { describe, expect, it } from 'vitest';
import { checkPrivileges } from './privilege-check.ts';
import { Role } from './role.ts';
import { parseRoleDescriptor } from './role-descriptor.ts';

const role = new Role(
  [
    {
      name: 'reader',
      descriptor: parseRoleDescriptor('reader', {
        cluster: ['monitor'],
        indices: [{ names: ['logs-*'], privileges: ['read'] }],
        applications: [{ application: 'app', privileges: ['read'], resources: ['doc/*'] }],
      }),
    },
  ],
  [],
);
const stored = [
  { application: 'app', name: 'read', actions: ['data:read/*'], metadata: {} },
  { application: 'app', name: 'admin', actions: ['data:*'], metadata: {} },
];

describe('checkPrivileges', () => {
  it('answers each privilege asked about, merged by index and resource, and whether all are held', () => {
    const r = checkPrivileges(
      role,
      {
        cluster: ['monitor', 'manage'],
        index: [
          { names: ['logs-1'], privileges: ['read'] },
          { names: ['logs-1', 'other'], privileges: ['write'] },
        ],
        application: [{ application: 'app', privileges: ['read', 'admin'], resources: ['doc/1'] }],
      },
      stored,
    );
    expect(r).toEqual({
      all: false,
      cluster: { monitor: true, manage: false },
      index: { 'logs-1': { read: true, write: false }, other: { write: false } },
      application: { app: { 'doc/1': { read: true, admin: false } } },
    });
  });

  it('is all held when every privilege asked about is', () => {
    const r = checkPrivileges(
      role,
      {
        cluster: ['monitor'],
        index: [{ names: ['logs-2'], privileges: ['read'] }],
        application: [{ application: 'app', privileges: ['read'], resources: ['doc/2'] }],
      },
      stored,
    );
    expect(r.all).toBe(true);
  });
});
