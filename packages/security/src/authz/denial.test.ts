import { describe, expect, it } from 'vitest';
import { actionDeniedMessage, privilegesThatGrant } from './denial.ts';

describe('privilegesThatGrant', () => {
  it('names the cluster privileges that grant an action, least powerful first', () => {
    expect(privilegesThatGrant('cluster:admin/ext/security/user/get')?.names).toEqual([
      'read_security',
      'manage_security',
      'all',
    ]);
    expect(privilegesThatGrant('cluster:monitor/main')?.names).toEqual(['monitor', 'manage', 'all']);
  });

  it('names the index privileges that grant an action', () => {
    expect(privilegesThatGrant('indices:data/read/search')?.names).toEqual(['read', 'all']);
    expect(privilegesThatGrant('indices:admin/auto_create')?.names).toEqual([
      'auto_configure',
      'create_index',
      'manage',
      'all',
    ]);
  });
});

describe('actionDeniedMessage', () => {
  it("writes Elasticsearch's reason", () => {
    expect(
      actionDeniedMessage(
        'indices:data/read/search',
        'user [joe] with effective roles [viewer2]',
        'on indices [logs]',
      ),
    ).toBe(
      'action [indices:data/read/search] is unauthorized for user [joe] with effective roles [viewer2] on indices [logs], this action is granted by the index privileges [read,all]',
    );
  });
});
