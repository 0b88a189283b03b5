import { describe, expect, it } from 'vitest';
import { CLUSTER_PRIVILEGE_NAMES, clusterPrivilege } from './cluster-privileges.ts';

describe('cluster privileges', () => {
  it("are Elasticsearch 8.19's 62 names", () => {
    expect(CLUSTER_PRIVILEGE_NAMES).toHaveLength(62);
    expect(CLUSTER_PRIVILEGE_NAMES).toContain('manage_own_api_key');
  });

  it('keep security out of manage, and delegate_pki out of manage_security', () => {
    expect(clusterPrivilege('manage')!('cluster:admin/settings/update')).toBe(true);
    expect(clusterPrivilege('manage')!('cluster:admin/ext/security/user/put')).toBe(false);
    expect(clusterPrivilege('manage_security')!('cluster:admin/ext/security/user/put')).toBe(true);
    expect(clusterPrivilege('manage_security')!('cluster:admin/ext/security/delegate_pki')).toBe(false);
    expect(clusterPrivilege('all')!('cluster:admin/ext/security/delegate_pki')).toBe(true);
    expect(clusterPrivilege('read_security')!('cluster:admin/ext/security/user/get')).toBe(true);
    expect(clusterPrivilege('read_security')!('cluster:admin/ext/security/user/put')).toBe(false);
  });
});
