import { describe, expect, it } from 'vitest';
import { applicationNameError, grantsApplicationPrivilege } from './application-privileges.ts';

const stored = [
  { application: 'app', name: 'read', actions: ['data:read/*'], metadata: {} },
  { application: 'app', name: 'admin', actions: ['data:*', 'admin/*'], metadata: {} },
];

describe('application names', () => {
  it('follows ApplicationPrivilege.validateApplicationName', () => {
    expect(applicationNameError('myapp', false)).toBeUndefined();
    expect(applicationNameError('kibana-.kibana', false)).toBeUndefined();
    expect(applicationNameError('app*', false)).toBe("Application names may not contain '*' (found 'app*')");
    expect(applicationNameError('app*', true)).toBeUndefined();
    expect(applicationNameError('a*p', true)).toBe(
      "Application name patterns only support trailing wildcards (found 'a*p')",
    );
    expect(applicationNameError('my app', false)).toBe(
      "Application names may not contain whitespace (found 'my app')",
    );
    expect(applicationNameError('app-a/b', false)).toMatch(/^An application name suffix may not contain/);
  });
});

describe('grantsApplicationPrivilege', () => {
  const entries = [{ application: 'app', privileges: ['read'], resources: ['doc/*'] }];

  it('grants a stored privilege whose actions the role covers, on matching resources only', () => {
    expect(grantsApplicationPrivilege(entries, stored, 'app', 'doc/1', 'read')).toBe(true);
    expect(grantsApplicationPrivilege(entries, stored, 'app', 'doc/1', 'data:read/x')).toBe(true);
    expect(grantsApplicationPrivilege(entries, stored, 'app', 'doc/1', 'admin')).toBe(false);
    expect(grantsApplicationPrivilege(entries, stored, 'app', 'user/1', 'read')).toBe(false);
    expect(grantsApplicationPrivilege(entries, stored, 'other', 'doc/1', 'read')).toBe(false);
  });

  it('lets an application pattern and action patterns grant what they cover', () => {
    const wide = [{ application: 'ap*', privileges: ['admin'], resources: ['*'] }];
    expect(grantsApplicationPrivilege(wide, stored, 'app', 'x', 'read')).toBe(true);
    expect(grantsApplicationPrivilege(wide, stored, 'app', 'x', 'admin/users')).toBe(true);
  });
});
