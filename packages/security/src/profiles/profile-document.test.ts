import { describe, expect, it } from 'vitest';
import { baseUid, filterData, mergeInto, type Profile, profileJson } from './profile-document.ts';

const profile: Profile = {
  uid: 'u_x_0',
  enabled: true,
  lastSynchronized: 1,
  user: {
    username: 'jacknich',
    roles: ['admin'],
    realm: { name: 'native', type: 'native' },
    email: null,
    fullName: 'Jack',
  },
  labels: { direction: 'north' },
  data: { app1: { theme: 'default', font: { size: 12 } }, app2: { x: 1 } },
  seqNo: 3,
  primaryTerm: 1,
};

describe('profile documents', () => {
  it("compute Elasticsearch's uid for a username", () => {
    // The uid Elasticsearch's profile API documentation shows for jacknich.
    expect(`${baseUid('jacknich')}_0`).toBe('u_79HkWkwmnBH5gqFKwoxggWPjEBOur1zLPXQPEl1VBW0_0');
  });

  it('filter data by application, nested key, or everything', () => {
    expect(filterData(profile.data, [])).toEqual({});
    expect(filterData(profile.data, ['*'])).toEqual(profile.data);
    expect(filterData(profile.data, ['app1.font.size', 'app2'])).toEqual({
      app1: { font: { size: 12 } },
      app2: { x: 1 },
    });
    expect(filterData(profile.data, ['nope.x'])).toEqual({});
  });

  it('render in field order, leaving out null user fields, and without _doc as suggestions', () => {
    const full = profileJson(profile, ['app2']);
    expect(Object.keys(full)).toEqual([
      'uid',
      'enabled',
      'last_synchronized',
      'user',
      'labels',
      'data',
      '_doc',
    ]);
    expect(full.user).toEqual({
      username: 'jacknich',
      roles: ['admin'],
      realm_name: 'native',
      full_name: 'Jack',
    });
    expect(full._doc).toEqual({ _primary_term: 1, _seq_no: 3 });
    expect(Object.keys(profileJson(profile, [], 'suggestion'))).toEqual(['uid', 'user', 'labels', 'data']);
  });

  it('merge updates deeply, replacing what is not an object', () => {
    expect(mergeInto(profile.data, { app1: { theme: 'dark', font: { family: 'mono' } }, app3: [1] })).toEqual(
      {
        app1: { theme: 'dark', font: { size: 12, family: 'mono' } },
        app2: { x: 1 },
        app3: [1],
      },
    );
  });
});
