/**
 * Roles: the built-in ones, and native ones kept in the security index. Compiled permissions
 * are cached by the set of role names (as CompositeRolesStore caches them) and dropped when a
 * role changes or `_clear_cache` asks.
 */

import { RESERVED_ROLES } from '../authz/reserved-roles.ts';
import { Role } from '../authz/role.ts';
import { descriptorDoc, descriptorFromDoc, type RoleDescriptor } from '../authz/role-descriptor.ts';
import type { SystemIndexStore } from '../host.ts';
import { metadataSearchFields, ROLE_TYPE, roleDocId, withoutSearchFields } from './documents.ts';

export class RoleStore {
  private readonly native = new Map<string, RoleDescriptor | null>();
  private readonly compiled = new Map<string, Role>();
  /** By the very array of role names a cached user holds: found without building a key. */
  private byArray = new WeakMap<readonly string[], Role>();

  constructor(private readonly store: SystemIndexStore) {}

  async getNative(name: string): Promise<RoleDescriptor | undefined> {
    if (this.native.has(name)) return this.native.get(name) ?? undefined;
    const doc = await this.store.get(roleDocId(name));
    const d = doc ? descriptorFromDoc(withoutSearchFields(doc)) : null;
    this.native.set(name, d);
    return d ?? undefined;
  }

  async listNative(): Promise<{ name: string; descriptor: RoleDescriptor }[]> {
    const docs = await this.store.listByType(ROLE_TYPE);
    return docs.map((d) => ({
      name: String(d.doc.name),
      descriptor: descriptorFromDoc(withoutSearchFields(d.doc)),
    }));
  }

  async put(name: string, d: RoleDescriptor): Promise<'created' | 'updated'> {
    const r = await this.store.put(roleDocId(name), {
      ...descriptorDoc(d),
      ...metadataSearchFields(d.metadata),
      name,
      type: ROLE_TYPE,
    });
    this.invalidate([name]);
    return r === 'created' ? 'created' : 'updated';
  }

  async delete(name: string): Promise<boolean> {
    const found = await this.store.delete(roleDocId(name));
    this.invalidate([name]);
    return found;
  }

  /** A built-in or native role. */
  async descriptor(name: string): Promise<RoleDescriptor | undefined> {
    return RESERVED_ROLES.get(name) ?? (await this.getNative(name));
  }

  /** The compiled permission of these role names if it is at hand (no store read needed). */
  cachedRole(names: readonly string[]): Role | undefined {
    return this.byArray.get(names);
  }

  /** The compiled permission of a set of role names. */
  async role(names: readonly string[]): Promise<Role> {
    const known = this.byArray.get(names);
    if (known) return known;
    const key = [...names].sort().join(',');
    const hit = this.compiled.get(key);
    if (hit) {
      this.byArray.set(names, hit);
      return hit;
    }
    const found: { name: string; descriptor: RoleDescriptor }[] = [];
    const missing: string[] = [];
    for (const name of new Set(names)) {
      const d = await this.descriptor(name);
      if (d) found.push({ name, descriptor: d });
      else missing.push(name);
    }
    const role = new Role(found, missing);
    this.compiled.set(key, role);
    this.byArray.set(names, role);
    return role;
  }

  /** Forgets cached roles: these (and every compiled set), or all. */
  invalidate(names?: readonly string[]): void {
    if (!names) this.native.clear();
    else for (const n of names) this.native.delete(n);
    this.compiled.clear();
    this.byArray = new WeakMap();
  }
}
