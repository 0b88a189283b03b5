import { describe, expect, it } from 'vitest';
import { mappedRoles, parseRules, type UserData } from './role-mapping.ts';
import { checkRoleTemplate, parseRoleTemplate, roleTemplateJson, templateRoles } from './role-templates.ts';

const user: UserData = {
  username: 'jo"e',
  dn: 'cn=joe,ou=people',
  groups: ['admins', 'devs'],
  realmName: 'saml1',
  metadata: { team: 'blue' },
};

describe('role templates', () => {
  it('render one role name from the user data, escaped for JSON', () => {
    const t = parseRoleTemplate('m', { template: { source: '_user_{{username}}' } });
    expect(templateRoles(t, user)).toEqual(['_user_jo\\"e']);
    expect(
      templateRoles(
        parseRoleTemplate('m', { template: { source: '{{realm.name}}-{{metadata.team}}' } }),
        user,
      ),
    ).toEqual(['saml1-blue']);
  });

  it('render a JSON array of names with format json and tojson', () => {
    const t = parseRoleTemplate('m', {
      template: { source: '{{#tojson}}groups{{/tojson}}' },
      format: 'json',
    });
    expect(templateRoles(t, user)).toEqual(['admins', 'devs']);
    const withParams = parseRoleTemplate('m', {
      template: { source: '["{{prefix}}{{#join}}groups{{/join}}"]', params: { prefix: 'g:' } },
      format: 'json',
    });
    expect(templateRoles(withParams, user)).toEqual(['g:admins,devs']);
  });

  it('keep the template as the JSON text Elasticsearch shows, and read it back', () => {
    const t = parseRoleTemplate('m', { template: { source: 'x' }, format: 'string' });
    expect(roleTemplateJson(t)).toEqual({ template: '{"source":"x"}', format: 'string' });
    expect(parseRoleTemplate('m', roleTemplateJson(t))).toEqual(t);
  });

  it('refuse a template that does not compile, an unknown format, and a non-JSON template string', () => {
    expect(() => checkRoleTemplate(parseRoleTemplate('m', { template: { source: '{{#a}}x' } }))).toThrow(
      'Failed to compile inline script [{{#a}}x] using lang [mustache]',
    );
    expect(() => parseRoleTemplate('m', { template: { source: 'x' }, format: 'xml' })).toThrow(
      'failed to parse role-mapping [m]. unknown role template format [xml]',
    );
    expect(() => parseRoleTemplate('m', { template: '{{username}}' })).toThrow(/is not a script's JSON/);
  });

  it('give their roles through the mappings whose rules match', () => {
    const mapping = {
      enabled: true,
      roles: [],
      roleTemplates: [parseRoleTemplate('m', { template: { source: 'team-{{metadata.team}}' } })],
      rules: parseRules({ field: { 'realm.name': 'saml1' } }),
      metadata: {},
    };
    expect(mappedRoles([mapping], user)).toEqual(['team-blue']);
    expect(mappedRoles([mapping], { ...user, realmName: 'other' })).toEqual([]);
  });
});
