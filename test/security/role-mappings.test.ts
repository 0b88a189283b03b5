import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

describe('the role-mapping APIs', () => {
  it('puts, gets and deletes a mapping', async () => {
    const body = {
      roles: ['superuser'],
      enabled: true,
      rules: {
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
      },
      metadata: { version: 1 },
    };
    expect((await http(node.url, 'PUT', '/_security/role_mapping/admins', body)).json).toEqual({
      role_mapping: { created: true },
    });
    expect((await http(node.url, 'POST', '/_security/role_mapping/admins', body)).json).toEqual({
      role_mapping: { created: false },
    });
    const got = await http(node.url, 'GET', '/_security/role_mapping/admins');
    expect(got.json).toEqual({
      admins: { enabled: true, roles: ['superuser'], rules: body.rules, metadata: { version: 1 } },
    });
    await http(node.url, 'PUT', '/_security/role_mapping/everyone', {
      roles: ['viewer'],
      enabled: false,
      rules: { field: { username: '*' } },
    });
    expect(Object.keys((await http(node.url, 'GET', '/_security/role_mapping')).json)).toEqual([
      'admins',
      'everyone',
    ]);
    const missing = await http(node.url, 'GET', '/_security/role_mapping/nope');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({});
    expect((await http(node.url, 'DELETE', '/_security/role_mapping/everyone')).json).toEqual({
      found: true,
    });
    const gone = await http(node.url, 'DELETE', '/_security/role_mapping/everyone');
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ found: false });
  });

  it('refuses bad mappings with 400', async () => {
    const cases: [unknown, number, string, string][] = [
      [
        { roles: ['a'], rules: { field: { username: '*' } } },
        400,
        'parse_exception',
        'failed to parse role-mapping [bad]. missing field [enabled]',
      ],
      [
        { roles: ['a'], enabled: true },
        400,
        'parse_exception',
        'failed to parse role-mapping [bad]. missing field [rules]',
      ],
      [
        { enabled: true, rules: { field: { username: '*' } } },
        400,
        'action_request_validation_exception',
        'Validation Failed: 1: role-mapping roles or role-templates are missing;',
      ],
      [
        { roles: ['a'], enabled: true, rules: { except: { field: { username: '*' } } } },
        400,
        'parse_exception',
        'failed to parse rules expression. the [except] element may only be used inside an [all] element',
      ],
      [
        { roles: ['a'], enabled: true, rules: { field: { username: '*' } }, colour: 1 },
        400,
        'parse_exception',
        'failed to parse role-mapping [bad]. unexpected field [colour]',
      ],
      [
        {
          role_templates: [{ template: { source: '{{#unclosed}}x' } }],
          enabled: true,
          rules: { field: { username: '*' } },
        },
        400,
        'illegal_argument_exception',
        'Failed to compile inline script [{{#unclosed}}x] using lang [mustache]',
      ],
      [
        {
          roles: ['a'],
          role_templates: [{ template: { source: 'x' } }],
          enabled: true,
          rules: { field: { username: '*' } },
        },
        400,
        'action_request_validation_exception',
        'Validation Failed: 1: role-mapping cannot have both roles and role-templates;',
      ],
    ];
    for (const [body, status, type, reason] of cases) {
      const r = await http(node.url, 'PUT', '/_security/role_mapping/bad', body);
      expect({ status: r.status, type: r.json.error?.type, reason: r.json.error?.reason }).toEqual({
        status,
        type,
        reason,
      });
    }
    expect((await http(node.url, 'GET', '/_security/role_mapping/bad')).status).toBe(404);
  });

  it('keeps role templates and shows them as Elasticsearch does (the template as JSON text)', async () => {
    const body = {
      enabled: true,
      rules: { field: { 'realm.name': 'cloud-saml' } },
      role_templates: [
        { template: { source: 'saml_user' } },
        { template: { source: '{{#tojson}}groups{{/tojson}}' }, format: 'json' },
      ],
    };
    expect((await http(node.url, 'PUT', '/_security/role_mapping/templated', body)).json).toEqual({
      role_mapping: { created: true },
    });
    const got = await http(node.url, 'GET', '/_security/role_mapping/templated');
    expect(got.json).toEqual({
      templated: {
        enabled: true,
        role_templates: [
          { template: '{"source":"saml_user"}', format: 'string' },
          { template: '{"source":"{{#tojson}}groups{{/tojson}}"}', format: 'json' },
        ],
        rules: { field: { 'realm.name': 'cloud-saml' } },
        metadata: {},
      },
    });
    // What GET shows can be put back as it is.
    const again = await http(node.url, 'PUT', '/_security/role_mapping/templated', got.json.templated);
    expect(again.json).toEqual({ role_mapping: { created: false } });
  });
});
