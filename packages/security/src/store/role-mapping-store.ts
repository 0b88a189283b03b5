/** Role mappings in the security index, one document per mapping (`role-mapping_<name>`). */
import { parseRules, type RoleMapping } from '../authz/role-mapping.ts';
import { parseRoleTemplate, roleTemplateJson } from '../authz/role-templates.ts';
import type { SystemIndexStore } from '../host.ts';

export const ROLE_MAPPING_TYPE = 'role-mapping';
const docId = (name: string) => `${ROLE_MAPPING_TYPE}_${name}`;

function fromDoc(doc: Record<string, unknown>): RoleMapping {
  const name = String(doc.name);
  return {
    enabled: doc.enabled === true,
    roles: Array.isArray(doc.roles) ? (doc.roles as string[]) : [],
    roleTemplates: Array.isArray(doc.role_templates)
      ? doc.role_templates.map((t) => parseRoleTemplate(name, t))
      : [],
    rules: parseRules(doc.rules),
    metadata: (doc.metadata as Record<string, unknown>) ?? {},
  };
}

export class RoleMappingStore {
  constructor(private readonly store: SystemIndexStore) {}

  async get(name: string): Promise<RoleMapping | undefined> {
    const doc = await this.store.get(docId(name));
    return doc && doc.type === ROLE_MAPPING_TYPE ? fromDoc(doc) : undefined;
  }

  async list(): Promise<{ name: string; mapping: RoleMapping }[]> {
    const docs = await this.store.listByType(ROLE_MAPPING_TYPE);
    return docs.map((d) => ({ name: String(d.doc.name), mapping: fromDoc(d.doc) }));
  }

  async put(name: string, m: RoleMapping): Promise<'created' | 'updated'> {
    const r = await this.store.put(docId(name), {
      type: ROLE_MAPPING_TYPE,
      name,
      enabled: m.enabled,
      roles: m.roles,
      role_templates: m.roleTemplates.map(roleTemplateJson),
      rules: m.rules,
      metadata: m.metadata,
    });
    return r === 'created' ? 'created' : 'updated';
  }

  delete(name: string): Promise<boolean> {
    return this.store.delete(docId(name));
  }
}
